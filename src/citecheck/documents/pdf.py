"""PDF pages as text, with their printed page numbers (the ``pdf`` extra: pypdf)."""

from __future__ import annotations

import io
from os import PathLike
from typing import Any, BinaryIO

from citecheck.errors import MissingDependencyError, SourceError

__all__ = ["read_pdf_pages"]


def read_pdf_pages(
    source: str | PathLike[str] | bytes | BinaryIO, first_page: int | None = None
) -> list[tuple[int | None, str]]:
    """``(page number, text)`` for every page.

    Without ``first_page``, numbers are the PDF's printed page labels: a page labelled ``12``
    is page 12 even when it is the 15th of the file, and pages labelled otherwise (front matter
    in roman numerals) get ``None``, so no numeric citation lands on them. When the labels give
    no usable numbering (none numeric, or repeated), or ``first_page`` is given, pages count
    from ``first_page`` (default 1)."""
    try:
        import pypdf
    except ImportError:
        raise MissingDependencyError("pypdf", "pdf") from None
    stream: Any = io.BytesIO(source) if isinstance(source, bytes | bytearray) else source
    try:
        reader = pypdf.PdfReader(stream)
        texts = [page.extract_text() or "" for page in reader.pages]
        labels = list(reader.page_labels)
    except Exception as exc:  # pypdf signals damaged files with many exception types
        raise SourceError(f"cannot read the PDF {_name(source)}: {exc}") from exc
    if first_page is None and len(labels) == len(texts):
        numbers = [int(label) if label.isdigit() else None for label in labels]
        numeric = [n for n in numbers if n is not None]
        if numeric and len(set(numeric)) == len(numeric):
            return list(zip(numbers, texts, strict=True))
    start = 1 if first_page is None else first_page
    return [(number, text) for number, text in enumerate(texts, start=start)]


def _name(source: object) -> str:
    """How an error names the PDF: its path, the name of its open file, or its size."""
    if isinstance(source, str | PathLike):
        return str(source)
    if isinstance(source, bytes | bytearray):
        return f"({len(source)} bytes)"
    return str(getattr(source, "name", "stream"))
