"""Other libraries' documents as sources: LangChain ``Document``\\ s and LlamaIndex nodes.

A retriever hands back chunks: several of one file, each with its page, in the order they were
retrieved. citecheck cites *sources*, so the chunks of one source become one
:class:`~citecheck.Document`, whose pages are the chunks' pages: ``[[report.pdf:p. 3]]`` then
resolves whichever chunk holds page 3, and every piece of evidence carries its page. The id
each input item became is kept by position (:attr:`Gathered.order`), so a numeric citation
``[2]`` still means the second document the answer was given.

Recognised by their attributes, with no import of either library (``import citecheck`` stays
light and works without them):

- LangChain: ``page_content`` and ``metadata`` (and ``id``);
- LlamaIndex: a node (``get_content``, ``node_id``, ``metadata``), or a ``NodeWithScore``
  (``node``, ``score``) around one.

The source id is, in order: ``metadata["source"]``, ``"file_path"``, ``"file_name"``,
``"url"``; the node's document (``ref_doc_id``); the item's own id. An item with none of those
is called ``doc-`` and a hash of its text: stable from run to run, and said in a warning. The
page is ``metadata["page_label"]`` when it is a number (the printed page, as LangChain's
``PyPDFLoader`` and LlamaIndex's readers write it), else ``metadata["page"]`` as written.
Chunks of one page are joined by a blank line, in the order of ``metadata["start_index"]``
when the splitter wrote it, else as given; the same text twice is kept once. Each merged
document lists its chunks in ``metadata["chunks"]`` (the input position, the chunk's span in
the merged text, its page), so evidence offsets map back to the chunk they fall in.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from citecheck.documents.document import Document
from citecheck.documents.files import SourceFiles
from citecheck.errors import SourceError

__all__ = ["Gathered", "Item", "adopt", "gather", "is_foreign", "read_item"]

_SOURCE_KEYS = ("source", "file_path", "file_name", "url")
_PER_CHUNK = frozenset({"page", "page_label", "start_index"})
_JOIN = "\n\n"


@dataclass(frozen=True, slots=True)
class Item:
    """One foreign document read: its text, metadata, the source id and how it was found,
    its page and its place in the source (``start_index``)."""

    text: str
    metadata: Mapping[str, Any]
    source_id: str
    derived: bool
    page: int | None
    start_index: int | None


@dataclass(frozen=True, slots=True)
class Gathered:
    """Documents made from foreign items, with the id each item became (``order``, by input
    position) and what was said about them (``warnings``). Iterating yields the documents,
    so the value itself can be passed as ``sources``."""

    documents: tuple[Document, ...]
    order: tuple[str, ...]
    warnings: tuple[str, ...] = ()

    def __iter__(self) -> Iterator[Document]:
        return iter(self.documents)

    def __len__(self) -> int:
        return len(self.documents)


def is_foreign(value: object) -> bool:
    """True for a LangChain document or a LlamaIndex node (or node with score)."""
    if isinstance(value, Document):
        return False
    if hasattr(value, "page_content") and hasattr(value, "metadata"):
        return True
    node = getattr(value, "node", None) if hasattr(value, "score") else value
    return callable(getattr(node, "get_content", None)) and hasattr(node, "node_id")


def read_item(value: object, position: int) -> Item:
    """The text, metadata, source id and page of one foreign item (``position`` names it in
    errors and in the derived id's warning)."""
    item: Any = value
    if hasattr(item, "page_content"):
        text, own_id, document_id = item.page_content, getattr(item, "id", None), None
    else:
        node = item.node if hasattr(item, "score") and hasattr(item, "node") else item
        content = getattr(node, "text", None)
        text = content if isinstance(content, str) else node.get_content()
        own_id, document_id = getattr(node, "node_id", None), getattr(node, "ref_doc_id", None)
        item = node
    if not isinstance(text, str):
        raise SourceError(f"sources[{position}]: its text is {type(text).__name__}, not str")
    metadata = getattr(item, "metadata", None) or {}
    if not isinstance(metadata, Mapping):
        raise SourceError(f"sources[{position}]: its metadata is not a mapping")
    named = next((str(metadata[k]) for k in _SOURCE_KEYS if _given(metadata.get(k))), None)
    if named is None:
        named = next((str(v) for v in (document_id, own_id, metadata.get("id")) if _given(v)), None)
    derived = named is None
    source_id = named or "doc-" + hashlib.sha256(text.encode("utf-8")).hexdigest()[:10]
    return Item(
        text,
        metadata,
        source_id.strip(),
        derived,
        _page(metadata),
        _int(metadata.get("start_index")),
    )


def adopt(sources: Any) -> Any:
    """``sources`` as given, unless it is an iterable holding foreign items: then those
    gathered (:func:`gather`), so the caller keeps the order and the warnings. An iterable
    that can be read once (a generator) comes back as a list."""
    if isinstance(sources, Mapping | str | bytes | Gathered | SourceFiles) or not isinstance(
        sources, Iterable
    ):
        return sources
    items = list(sources)
    return gather(items) if any(is_foreign(item) for item in items) else items


def gather(values: Iterable[object]) -> Gathered:
    """Documents from a mix of :class:`~citecheck.Document`\\ s and foreign items, in order of
    first appearance; the foreign items of one source merged into one paged document."""
    kept: dict[str, Document | list[tuple[int, Item]]] = {}
    order: list[str] = []
    warnings: list[str] = []
    for position, value in enumerate(values):
        if isinstance(value, Document):
            if value.id in kept:
                raise SourceError(f"duplicate document id {value.id!r}")
            kept[value.id] = value
            order.append(value.id)
            continue
        if not is_foreign(value):
            raise SourceError(
                f"sources[{position}] is {type(value).__name__}; an iterable of sources must hold "
                "Document objects, LangChain documents or LlamaIndex nodes (use a mapping for "
                "plain text)"
            )
        item = read_item(value, position)
        group = kept.setdefault(item.source_id, [])
        if isinstance(group, Document):
            raise SourceError(
                f"sources[{position}] is called {item.source_id!r}, the id of a Document given "
                "before it"
            )
        group.append((position, item))
        order.append(item.source_id)
        if item.derived:
            warnings.append(
                f"sources[{position}] has no id and no source metadata; it is called "
                f"{item.source_id!r} (a hash of its text)"
            )
    documents = tuple(
        value if isinstance(value, Document) else _merged(source_id, value)
        for source_id, value in kept.items()
    )
    return Gathered(documents, tuple(order), tuple(dict.fromkeys(warnings)))


def _merged(source_id: str, items: list[tuple[int, Item]]) -> Document:
    """One document from the chunks of one source: pages in order, chunks in reading order."""
    ordered = sorted(
        items,
        key=lambda pair: (
            pair[1].page is None,
            pair[1].page or 0,
            pair[1].start_index if pair[1].start_index is not None else -1,
            pair[0],
        ),
    )
    pages: list[tuple[int | None, list[tuple[int, Item]]]] = []
    for position, item in ordered:
        if pages and pages[-1][0] == item.page:
            if all(item.text != seen.text for _, seen in pages[-1][1]):
                pages[-1][1].append((position, item))
        else:
            pages.append((item.page, [(position, item)]))
    chunks: list[dict[str, Any]] = []
    texts: list[str] = []
    start = 0
    for page, members in pages:
        parts: list[str] = []
        for position, item in members:
            at = start + sum(len(p) + len(_JOIN) for p in parts)
            chunks.append(
                {"position": position, "start": at, "end": at + len(item.text), "page": page}
            )
            parts.append(item.text)
        texts.append(_JOIN.join(parts))
        start += len(texts[-1]) + 1  # the form feed between pages
    first = min(items, key=lambda pair: pair[0])[1]
    metadata = {k: v for k, v in first.metadata.items() if k not in _PER_CHUNK}
    metadata["chunks"] = chunks
    if first.derived:
        metadata["derived_id"] = True
    if len(pages) == 1 and pages[0][0] is None:  # no page known: markers in the text still count
        return Document(source_id, texts[0], metadata)
    numbered = [(page, text) for (page, _), text in zip(pages, texts, strict=True)]
    return Document.from_numbered_pages(source_id, numbered, metadata)


def _given(value: object) -> bool:
    return value is not None and str(value).strip() != ""


def _int(value: object) -> int | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, str) and value.strip().isdigit():
        return int(value)
    return None


def _page(metadata: Mapping[str, Any]) -> int | None:
    label = _int(metadata.get("page_label"))
    return label if label is not None else _int(metadata.get("page"))
