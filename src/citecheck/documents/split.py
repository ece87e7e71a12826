"""Turning what callers pass into documents: one combined text split at a delimiter, and the
mapping-or-iterable ``sources`` argument of :func:`citecheck.verify`."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

from citecheck.documents.document import Document
from citecheck.documents.foreign import gather, is_foreign
from citecheck.errors import SourceError

__all__ = ["Sources", "as_documents", "split_sources"]

Sources = Mapping[str, str | Document] | Iterable[Any]
"""What ``verify`` accepts: ``{id: text or Document}``, or an iterable of :class:`Document`,
LangChain documents and LlamaIndex nodes (:mod:`citecheck.documents.foreign`)."""


def split_sources(text: str, delimiter: str = "Content from ") -> list[Document]:
    """Split one combined source text into documents at lines that start with ``delimiter``.

    The rest of the delimiter line names the document (``Content from report.md`` → id
    ``report.md``; repeated names get ``-2``, ``-3``…; a nameless part is ``source-N``). Each
    document's text runs from the line after its header to the next header, and
    ``metadata["offset"]`` is where that text starts in ``text``, so any offset in a document
    maps back to the combined text. Text before the first header, if any, is ``source-0``.
    """
    if not isinstance(text, str):
        raise SourceError(f"split_sources needs a str, got {type(text).__name__}")
    if not delimiter:
        raise SourceError("the delimiter must be a non-empty string")
    headers = list(re.finditer(rf"^[ \t]*{re.escape(delimiter)}(.*)$", text, re.MULTILINE))
    documents: list[Document] = []
    used: set[str] = set()

    def add(name: str, start: int, end: int, header: str | None) -> None:
        doc_id = _unique(name, used)
        metadata = {"offset": start} if header is None else {"offset": start, "title": header}
        documents.append(Document(doc_id, text[start:end], metadata))

    first = headers[0].start() if headers else len(text)
    if text[:first].strip():
        add("source-0", 0, first, None)
    for index, header in enumerate(headers, start=1):
        body_start = min(header.end() + 1, len(text))
        body_end = headers[index].start() if index < len(headers) else len(text)
        name = header.group(1).strip().rstrip(":").strip() or f"source-{index}"
        add(name, body_start, body_end, header.group(0).strip())
    return documents


def _unique(name: str, used: set[str]) -> str:
    candidate, n = name, 1
    while candidate in used:
        n += 1
        candidate = f"{name}-{n}"
    used.add(candidate)
    return candidate


def as_documents(sources: Sources) -> dict[str, Document]:
    """Documents by id, in the order given. Never mutates ``sources``.

    Raises :class:`SourceError` for values that are not text or documents, for duplicate ids and
    for a mapping key that disagrees with the id of the document it holds.
    """
    if sources is None:
        raise SourceError(
            "no sources: give the sources to check against (a mapping of id to text, or documents)"
        )
    if isinstance(sources, str | bytes):
        raise SourceError(
            "sources must be a mapping of id to text or an iterable of Document, not a single "
            f"{type(sources).__name__}; wrap it, e.g. {{'doc': text}}"
        )
    documents: dict[str, Document] = {}
    if isinstance(sources, Mapping):
        for key, value in sources.items():
            if not isinstance(key, str):
                raise SourceError(f"source ids must be strings, got {key!r}")
            if isinstance(value, Document):
                if value.id != key:
                    raise SourceError(
                        f"sources[{key!r}] holds document {value.id!r}; ids must agree"
                    )
                documents[key] = value
            elif isinstance(value, str):
                documents[key] = Document(key, value)
            else:
                raise SourceError(
                    f"sources[{key!r}] is {type(value).__name__}; expected str or Document"
                )
        return documents
    try:
        items = list(sources)
    except TypeError:
        raise SourceError(
            f"sources must be a mapping or an iterable of Document, got {type(sources).__name__}"
        ) from None
    if any(is_foreign(item) for item in items):
        return {document.id: document for document in gather(items)}
    for index, item in enumerate(items):
        if not isinstance(item, Document):
            raise SourceError(
                f"sources[{index}] is {type(item).__name__}; an iterable of sources must hold "
                "Document objects (use a mapping for plain text)"
            )
        if item.id in documents:
            raise SourceError(f"duplicate document id {item.id!r}")
        documents[item.id] = item
    return documents
