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
is called ``doc-`` and a hash of its text: stable from run to run, and said in a warning. Pages
are read per source (:func:`page_numbers`): ``metadata["page_label"]`` when it is a number (the
printed page, as LangChain's PDF loaders and LlamaIndex's readers write it), else
``metadata["page"]``, which LangChain's PDF loaders count from 0: it is taken as the page
after it (1 for 0) where the source shows that count (a page label beside it, a page 0, the
loaders' own PDF metadata), and as written, with a warning, where nothing does.
Chunks of one page are joined by a blank line, in the order of ``metadata["start_index"]``
when the splitter wrote it, else as given; the same text twice is kept once. Each merged
document lists its chunks in ``metadata["chunks"]`` (the input position, the chunk's span in
the merged text, its page), so evidence offsets map back to the chunk they fall in.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from citecheck.documents.document import Document
from citecheck.documents.files import SourceFiles
from citecheck.errors import SourceError

__all__ = ["Gathered", "Item", "adopt", "gather", "is_foreign", "page_numbers", "read_item"]

_SOURCE_KEYS = ("source", "file_path", "file_name", "url")
_PER_CHUNK = frozenset({"page", "page_label", "start_index"})
_JOIN = "\n\n"


@dataclass(frozen=True, slots=True)
class Item:
    """One foreign document read: its text, metadata, the source id and how it was found,
    its page (as its own metadata gives it: the other chunks of its source may number it
    otherwise, :func:`page_numbers`) and its place in the source (``start_index``)."""

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
        page_numbers(source_id, [metadata])[0][0],
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
    for source_id, group in kept.items():
        if isinstance(group, list):
            pages, warning = page_numbers(source_id, [item.metadata for _, item in group])
            group[:] = [
                (position, replace(item, page=page))
                for (position, item), page in zip(group, pages, strict=True)
            ]
            warnings += [warning] if warning else []
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


_PDF_INFO = ("producer", "creator")
"""Keys of the PDF's own metadata that LangChain's PDF loaders copy beside ``total_pages``."""


def page_numbers(
    source_id: str, metadata: Sequence[Mapping[str, Any]]
) -> tuple[list[int | None], str | None]:
    """The page of each chunk of one source (``None``: no page), and a warning when the
    numbering is a guess.

    - **Page labels.** A numeric ``page_label`` is the printed page. Where the source's labels
      number its pages (some are numbers, and no number labels two different pages), a chunk
      labelled otherwise (front matter in roman numerals) gets no page, as in
      :meth:`Document.from_pdf <citecheck.Document.from_pdf>`. Where they do not, pages count
      from 1 as in the PDF file: ``page`` + 1, since a loader that writes ``page_label`` writes
      ``page`` from 0, and a warning says so.
    - **``page`` alone.** LangChain's PDF loaders (``PyPDFLoader``, ``PyMuPDFLoader``,
      ``PDFPlumberLoader``, …) write ``page`` counted from 0: the first page is page 0. It is
      taken as ``page`` + 1 where the source shows that count: a chunk on page 0, or the
      loaders' own metadata (``total_pages`` with the PDF's ``producer`` or ``creator``) with
      every page below ``total_pages``. A page equal to ``total_pages`` shows a count from 1:
      as written. Otherwise nothing tells, and the pages are taken as written with a warning
      that names the source.
    """
    labels = [_label(m.get("page_label")) for m in metadata]
    indexes = [_int(m.get("page")) for m in metadata]
    if any(label is not None for label in labels):
        numbered: dict[int, set[int]] = {}
        for label, index in zip(labels, indexes, strict=True):
            if label is not None and label.isdigit() and index is not None:
                numbered.setdefault(int(label), set()).add(index)
        usable = any(label is not None and label.isdigit() for label in labels) and all(
            len(pages) == 1 for pages in numbered.values()
        )
        if usable:
            return [int(lb) if lb is not None and lb.isdigit() else None for lb in labels], None
        shown = ", ".join(repr(label) for label in sorted({lb for lb in labels if lb})[:3])
        if all(index is None for index in indexes):
            return [None] * len(indexes), (
                f"the page labels of {source_id!r} ({shown}) are not page numbers, and no "
                'metadata["page"] gives one: its chunks cannot be cited by page'
            )
        return [None if index is None else index + 1 for index in indexes], (
            f"the page labels of {source_id!r} ({shown}) do not number its pages (not numbers, "
            "or one number for two pages); its pages are counted from 1 as in the file "
            '(metadata["page"] + 1)'
        )
    given = [index for index in indexes if index is not None]
    if not given:
        return [None] * len(indexes), None
    totals = [t for m in metadata if (t := _int(m.get("total_pages"))) is not None]
    if totals and max(given) >= min(totals):
        return indexes, None  # a page as high as the count: counted from 1
    from_zero = 0 in given or (
        bool(totals) and any(k in m or k.title() in m for m in metadata for k in _PDF_INFO)
    )
    if from_zero:
        return [None if index is None else index + 1 for index in indexes], None
    return indexes, (
        f'the pages of {source_id!r} are its chunks\' metadata["page"] as written, and nothing '
        "says whether they count from 0 or from 1. LangChain's PDF loaders count from 0 (the "
        "first page is page 0): if one of them made these chunks, every page here is one less "
        'than the PDF\'s. Give the chunks metadata["page_label"] (the printed page), or pages '
        "counted from 1"
    )


def _label(value: object) -> str | None:
    """A page label as text (``None`` when there is none)."""
    if value is None or isinstance(value, bool):
        return None
    label = str(value).strip()
    return label or None
