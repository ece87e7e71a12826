"""A paper file read into its text and pages: PDF, Markdown, plain text or docling JSON.

Every reader hands back the same thing, a :class:`PaperText`: the text and a record for every
page (its printed label, the number a citation means, its range in the text). A file that
cannot be read is a :class:`~citecheck.papers.PaperFileError` naming the file and the reason,
raised before anything is written, so a failed add leaves the library as it was. A PDF that
holds no text is said to have "no text layer": it is a scan, which needs OCR, not a format
citecheck refuses.
"""

from __future__ import annotations

import io
import json
from dataclasses import dataclass
from pathlib import Path

from citecheck.documents.files import decode_text
from citecheck.documents.structure import PAGE_MARKER, find_pages
from citecheck.errors import PaperFileError, SourceError
from citecheck.papers.docling import docling_pages, is_docling

__all__ = ["PageRecord", "PaperText", "read_paper"]

_MARKDOWN = frozenset({".md", ".markdown"})


@dataclass(frozen=True, slots=True)
class PageRecord:
    """A page as stored: printed ``label``, citable ``number`` (``None``: not citable by
    number) and its ``[start, end)`` range in the paper's text."""

    label: str
    number: int | None
    start: int
    end: int


@dataclass(frozen=True, slots=True)
class PaperText:
    """A paper's text and pages. ``markdown``: the text is Markdown (headings are sections,
    markup is rendered away in chunks). ``markers``: its pages come from ``[PAGE:N]`` markers
    in the text, which chunks leave out."""

    text: str
    pages: tuple[PageRecord, ...]
    format: str
    markdown: bool = False
    markers: bool = False


def read_paper(path: Path, data: bytes) -> PaperText:
    """The text and pages of the file ``path``, whose content is ``data``: ``.pdf`` through
    pypdf with printed page labels, ``.json`` as docling JSON, ``.md`` as Markdown and anything
    else as UTF-8 text, paged by ``[PAGE:N]`` markers or form feeds."""
    suffix = path.suffix.lower()
    if suffix == ".pdf":
        return _pdf(path, data)
    text = _decode(path, data)
    if suffix == ".json":
        return _docling(path, text)
    if not text.strip():
        raise PaperFileError(path, f"{path} holds no text")
    markdown = suffix in _MARKDOWN
    pages = tuple(PageRecord(str(p.number), p.number, p.start, p.end) for p in find_pages(text))
    markers = bool(pages) and PAGE_MARKER.search(text) is not None
    return PaperText(text, pages, "markdown" if markdown else "text", markdown, markers)


def _decode(path: Path, data: bytes) -> str:
    try:
        return decode_text(data, path)
    except SourceError as exc:
        raise PaperFileError(path, str(exc)) from None


def _joined(path: Path, pages: list[tuple[str, int | None, str]], separator: str) -> PaperText:
    """Pages ``(label, number, text)`` joined by ``separator`` into one text with a record for
    each page, its range leaving the separator out."""
    records = []
    start = 0
    for label, number, text in pages:
        records.append(PageRecord(label, number, start, start + len(text)))
        start += len(text) + len(separator)
    text = separator.join(text for _, _, text in pages)
    return PaperText(text, tuple(records), path.suffix.lower().lstrip(".") or "text")


def _pdf(path: Path, data: bytes) -> PaperText:
    """A PDF page by page (the ``pdf`` extra). The pages and their numbers come from
    :func:`citecheck.documents.pdf.read_pdf_pages`, as :meth:`Document.from_pdf
    <citecheck.Document.from_pdf>` reads them; the labels as printed (``iii``) and the
    encryption check need pypdf's reader itself."""
    from citecheck.documents.pdf import read_pdf_pages

    labels = _pdf_labels(path, data)
    try:
        pages = read_pdf_pages(data)
    except SourceError as exc:
        cause = exc.__cause__ or exc
        raise PaperFileError(path, f"{path} is not a readable PDF: {cause}") from None
    if not pages:
        raise PaperFileError(path, f"{path} has no pages")
    if not any(text.strip() for _, text in pages):
        raise PaperFileError(
            path,
            f"{path} has no text layer: none of its {len(pages)} pages holds extractable text "
            "(a scanned PDF needs OCR first)",
        )
    if len(labels) != len(pages):
        labels = [str(number) if number is not None else "" for number, _ in pages]
    named = [(label, number, text) for label, (number, text) in zip(labels, pages, strict=True)]
    return _joined(path, named, "\f")


def _pdf_labels(path: Path, data: bytes) -> list[str]:
    """The printed page labels, after making sure the PDF can be read: an encrypted PDF that
    opens with no password (restrictions only) is read, one that needs a password is a
    :class:`PaperFileError`."""
    from citecheck.errors import MissingDependencyError

    try:
        import pypdf
        from pypdf.errors import DependencyError
    except ImportError:
        raise MissingDependencyError("pypdf", "pdf") from None
    try:
        reader = pypdf.PdfReader(io.BytesIO(data))
        if reader.is_encrypted:
            try:
                opened = reader.decrypt("") != pypdf.PasswordType.NOT_DECRYPTED
            except DependencyError as exc:
                raise PaperFileError(
                    path,
                    f"{path} is encrypted, and decrypting it needs a package pypdf lacks: {exc}",
                ) from None
            if not opened:
                raise PaperFileError(
                    path, f"{path} is encrypted (it needs a password): save a decrypted copy first"
                )
        return list(reader.page_labels)
    except PaperFileError:
        raise
    except Exception as exc:  # pypdf signals damaged files with many exception types
        raise PaperFileError(path, f"{path} is not a readable PDF: {exc}") from None


def _docling(path: Path, text: str) -> PaperText:
    try:
        data = json.loads(text)
    except ValueError as exc:
        raise PaperFileError(path, f"{path} is not valid JSON: {exc}") from None
    if not is_docling(data):
        raise PaperFileError(
            path, f"{path} is JSON but not a docling document (no 'texts' list and 'body' tree)"
        )
    try:
        pages = docling_pages(data)
    except (AttributeError, TypeError, ValueError, KeyError) as exc:
        raise PaperFileError(path, f"{path} is a malformed docling document: {exc!r}") from None
    if not any(page.strip() for _, page in pages):
        raise PaperFileError(path, f"{path} is a docling document with no text")
    named: list[tuple[str, int | None, str]] = [(str(n), n, page) for n, page in pages]
    paper = _joined(path, named, "\n\n")
    return PaperText(paper.text, paper.pages, "docling", markdown=True)
