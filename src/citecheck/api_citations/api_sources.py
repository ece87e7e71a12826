"""The documents an API was sent, read as citecheck :class:`~citecheck.Document`\\ s, so that a
citation's index, file or URL names one of them and its place resolves to a span of its text.

Anthropic numbers the documents of a request in order (``document_index``), and the search
results apart from them (``search_result_index``). So the sources are given in that order: the
request itself (``{"messages": [...]}``: its ``document`` and ``search_result`` blocks, those
inside tool results too), the list of its document blocks, or a list or mapping of texts,
:class:`~citecheck.Document`\\ s and file paths, each the document of its position. A document
block is read as the API reads it:

* plain text (``source: {type: text, media_type: text/plain, data}``): ``data`` is the text,
  and character offsets count in it;
* custom content (``source: {type: content, content: [{type: text, text}, ...]}``): each
  text block is a block of the document, joined by blank lines, and its span kept;
* a PDF (``source: {type: base64, media_type: application/pdf, data}``): read page by page
  (the ``pdf`` extra), each page numbered by its place in the file, as the API counts them;
* a PDF or file sent by URL or file id: its text is not at hand, and the citations of it are
  unchecked, never phantoms (give its text in its place).

OpenAI cites files by id and name and web pages by URL, so there a mapping of the file id,
file name or URL to the text, document or path names each source (a document's own id, its
``file_id``, ``filename`` and ``url`` metadata and the name of the file it was read from name
it too).
"""

from __future__ import annotations

import base64
import binascii
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from os import PathLike
from pathlib import Path, PurePath
from typing import Any

from citecheck.documents import Document
from citecheck.documents.files import load_file
from citecheck.errors import MissingDependencyError, SourceError
from citecheck.model import Span

__all__ = ["BLOCK_SEPARATOR", "Sent", "SentSource", "read_sources"]

BLOCK_SEPARATOR = "\n\n"
"""What stands between two blocks of a custom-content document or a search result in its
text: a blank line, so that no sentence runs from one block into the next."""


@dataclass(frozen=True, slots=True)
class SentSource:
    """One source the API was given: its ``document`` (``None`` when its text is not at hand,
    and ``unreadable`` then says why), what it was (``kind``: ``text``, ``content``, ``pdf``,
    ``search_result``, ``file``, ``url`` or ``document``, one given as a citecheck document, a
    text or a path), the span of each of its ``blocks`` (custom content and search results),
    its position among the documents (or the search results) sent, and the ``names`` a
    citation may call it by."""

    label: str
    kind: str
    index: int
    document: Document | None = None
    blocks: tuple[Span, ...] | None = None
    names: tuple[str, ...] = ()
    unreadable: str = ""


@dataclass(frozen=True, slots=True)
class Sent:
    """What the API was sent: the ``documents`` and ``search_results`` in their order, and
    whether anything was given at all (``given``: without sources nothing can be called a
    phantom)."""

    documents: tuple[SentSource, ...] = ()
    search_results: tuple[SentSource, ...] = ()
    given: bool = False

    @property
    def labels(self) -> list[str]:
        return [s.label for s in (*self.documents, *self.search_results)]

    def named(self, name: str) -> list[SentSource]:
        """The sources ``name`` names (a file id, a file name, a URL or an id), by the
        strictest way that names any: as written, then in another case (a URL without its
        trailing slash), then a file name whose stem is a source's id (``trial.pdf`` for
        ``trial``)."""
        every = [*self.documents, *self.search_results]
        folded = _folded(name)
        stem = PurePath(folded).stem if PurePath(folded).suffix else None
        for way in ("as written", "folded", "stem"):
            found = [s for s in every if _names(s, name, folded, stem, way)]
            if found:
                return found
        return []


def read_sources(sources: Any) -> Sent:
    """The sources of a request, in order: ``None`` (none given), the request (a mapping with
    ``messages``), a sequence, or a mapping of name to source (see the module docstring)."""
    if sources is None:
        return Sent()
    if isinstance(sources, str | bytes | Document):
        raise SourceError(
            "the documents must be a list (or a mapping, or the request), not a single "
            f"{type(sources).__name__}; wrap it, e.g. [text]"
        )
    if isinstance(sources, Mapping) and "messages" in sources:
        items: list[tuple[str | None, Any]] = [(None, b) for b in _request_blocks(sources)]
    elif isinstance(sources, Mapping):
        items = []
        for key, value in sources.items():
            if not isinstance(key, str) or not key:
                raise SourceError(f"source names must be non-empty strings, got {key!r}")
            items.append((key, value))
    elif isinstance(sources, Sequence):
        items = [(None, item) for item in sources]
    else:
        raise SourceError(
            "the documents must be a list of the request's document blocks, texts, "
            "Documents or paths, a mapping of names to them, or the request; not "
            f"{type(sources).__name__}"
        )
    documents: list[SentSource] = []
    results: list[SentSource] = []
    for position, (key, item) in enumerate(items):
        where = f"documents[{key!r}]" if key is not None else f"documents[{position}]"
        if isinstance(item, Mapping) and item.get("type") == "search_result":
            results.append(_search_result(item, len(results), key, where))
        else:
            documents.append(_document(item, len(documents), key, where))
    _check_unique([*documents, *results])
    return Sent(tuple(documents), tuple(results), given=True)


def _request_blocks(request: Mapping[str, Any]) -> Iterator[Any]:
    """The ``document`` and ``search_result`` blocks of a request's messages, in order, those
    a tool returned too."""
    messages = request.get("messages")
    if not isinstance(messages, Sequence) or isinstance(messages, str):
        raise SourceError("the request's messages must be a list")
    for message in messages:
        content = message.get("content") if isinstance(message, Mapping) else None
        if not isinstance(content, Sequence) or isinstance(content, str):
            continue
        for block in content:
            if not isinstance(block, Mapping):
                continue
            if block.get("type") in ("document", "search_result"):
                yield block
            elif block.get("type") == "tool_result":
                inner = block.get("content")
                if isinstance(inner, Sequence) and not isinstance(inner, str):
                    yield from (
                        b
                        for b in inner
                        if isinstance(b, Mapping) and b.get("type") in ("document", "search_result")
                    )


def _document(item: Any, index: int, key: str | None, where: str) -> SentSource:
    """The document of one position: a document block, a Document, a text or a path."""
    label = key or f"document-{index}"
    if isinstance(item, Document):
        if key is not None and item.id != key:
            raise SourceError(f"{where} holds document {item.id!r}; ids must agree")
        return SentSource(item.id, "document", index, item, names=_names_of(item))
    if isinstance(item, str):
        document = Document(label, item)
        return SentSource(label, "document", index, document, names=(label,))
    if isinstance(item, PathLike):
        return _path(Path(item), index, key, where)
    if isinstance(item, Mapping):
        if item.get("type") != "document":
            raise SourceError(
                f"{where} is a mapping of type {item.get('type')!r}; a mapping must be a "
                "'document' or 'search_result' content block of the request"
            )
        return _document_block(item, index, label)
    raise SourceError(
        f"{where} is {type(item).__name__}; expected a document block, a Document, a text or a path"
    )


def _path(path: Path, index: int, key: str | None, where: str) -> SentSource:
    """A file, read as :func:`~citecheck.documents.files.load_file` reads it; a file that
    cannot be read is a source whose citations are unchecked."""
    label = key or path.stem
    try:
        document = load_file(path)
    except (SourceError, MissingDependencyError) as exc:
        return SentSource(label, "file", index, names=(label, path.name), unreadable=str(exc))
    if key is not None:
        document = replace(document, id=key)
    return SentSource(document.id, "document", index, document, names=_names_of(document))


def _document_block(block: Mapping[str, Any], index: int, label: str) -> SentSource:
    """A ``document`` content block of an Anthropic request (see the module docstring)."""
    title = block.get("title") if isinstance(block.get("title"), str) else None
    metadata = {"title": title} if title else {}
    names = tuple(n for n in (label, title) if n)
    source = block.get("source")
    if not isinstance(source, Mapping):
        return SentSource(label, "document", index, names=names, unreadable="it has no source")
    kind = source.get("type")
    if kind == "text":
        data = source.get("data")
        if not isinstance(data, str):
            why = "its text source has no data"
            return SentSource(label, "text", index, names=names, unreadable=why)
        return SentSource(label, "text", index, Document(label, data, metadata), names=names)
    if kind == "content":
        texts = _content_texts(source.get("content"))
        if texts is None:
            why = "its content is neither a text nor a list of text blocks"
            return SentSource(label, "content", index, names=names, unreadable=why)
        document, blocks = _joined(label, texts, metadata)
        return SentSource(label, "content", index, document, blocks, names)
    if kind == "base64" and source.get("media_type") == "application/pdf":
        return _pdf(source.get("data"), index, label, metadata, names)
    if kind == "url":
        url = source.get("url")
        named = (*names, url) if isinstance(url, str) else names
        why = f"it was sent by its URL ({url}): give its text in its place to check it"
        return SentSource(label, "url", index, names=named, unreadable=why)
    if kind == "file":
        file_id = source.get("file_id")
        named = (*names, file_id) if isinstance(file_id, str) else names
        why = f"it was sent as the file {file_id}: give its text in its place to check it"
        return SentSource(label, "file", index, names=named, unreadable=why)
    media = source.get("media_type")
    why = f"citecheck cannot read a source of type {kind!r} ({media})"
    return SentSource(label, "document", index, names=names, unreadable=why)


def _pdf(
    data: Any, index: int, label: str, metadata: Mapping[str, Any], names: tuple[str, ...]
) -> SentSource:
    """A PDF sent as base64, its pages numbered by their place in the file (the API's
    ``page_location`` counts them so, whatever the printed labels say)."""
    try:
        raw = base64.b64decode(data if isinstance(data, str | bytes) else b"")
        document = Document.from_pdf(label, raw, first_page=1, metadata=metadata)
    except (binascii.Error, ValueError):
        why = "its PDF data is not base64"
        return SentSource(label, "pdf", index, names=names, unreadable=why)
    except (SourceError, MissingDependencyError) as exc:
        return SentSource(label, "pdf", index, names=names, unreadable=str(exc))
    return SentSource(label, "pdf", index, document, names=names)


def _search_result(item: Mapping[str, Any], index: int, key: str | None, where: str) -> SentSource:
    """A ``search_result`` block: its ``content`` text blocks are its blocks, its ``source``
    (a URL or an id) and ``title`` name it."""
    label = key or f"search-result-{index}"
    source, title = item.get("source"), item.get("title")
    metadata = {
        name: value
        for name, value in (("url", source), ("title", title))
        if isinstance(value, str) and value
    }
    names = (label, *metadata.values())
    texts = _content_texts(item.get("content"))
    if texts is None:
        why = "its content is not a list of text blocks"
        return SentSource(label, "search_result", index, names=names, unreadable=why)
    document, blocks = _joined(label, texts, metadata)
    return SentSource(label, "search_result", index, document, blocks, names)


def _content_texts(content: Any) -> list[str] | None:
    """The text of each block of a custom content (a string is one block; a block that is no
    text block keeps its place, empty), or ``None`` when it is neither."""
    if isinstance(content, str):
        return [content]
    if not isinstance(content, Sequence):
        return None
    texts = []
    for block in content:
        text = block.get("text") if isinstance(block, Mapping) else None
        texts.append(text if isinstance(text, str) else "")
    return texts


def _joined(
    label: str, texts: list[str], metadata: Mapping[str, Any]
) -> tuple[Document, tuple[Span, ...]]:
    """One document of the blocks' texts, a blank line apart, and each block's span."""
    spans = []
    start = 0
    for text in texts:
        spans.append(Span(start, start + len(text)))
        start += len(text) + len(BLOCK_SEPARATOR)
    return Document(label, BLOCK_SEPARATOR.join(texts), metadata), tuple(spans)


def _names_of(document: Document) -> tuple[str, ...]:
    """What names a document: its id, its ``file_id``, ``filename``, ``url`` and ``title``
    metadata, and the name of the file it was read from."""
    metadata = document.metadata
    names = [document.id]
    for field in ("file_id", "filename", "url", "title"):
        value = metadata.get(field)
        if isinstance(value, str) and value:
            names.append(value)
    path = metadata.get("path")
    if path:
        names.append(PurePath(str(path)).name)
    return tuple(dict.fromkeys(names))


def _names(source: SentSource, name: str, folded: str, stem: str | None, way: str) -> bool:
    """Whether ``source`` bears ``name`` in the ``way`` asked (see :meth:`Sent.named`)."""
    if way == "as written":
        return name in source.names
    bears = {_folded(n) for n in source.names}
    return folded in bears if way == "folded" else stem is not None and stem in bears


def _folded(name: str) -> str:
    return name.casefold().rstrip("/")


def _check_unique(sources: list[SentSource]) -> None:
    seen: set[str] = set()
    for source in sources:
        if source.label in seen:
            raise SourceError(f"two documents named {source.label!r}: give each its own id")
        seen.add(source.label)
