"""A searchable corpus: documents cut into chunks, embedded in batches, kept in an index.

Every chunk is stored with where it stands (document id, character range, page, line,
section) and its text, so a hit is :class:`~citecheck.model.Evidence` with the same offsets
the matchers report, also when the index outlives the process (FAISS on disk, Pinecone).
Adding a document again is free when its text has not changed: the first chunk's metadata
holds a hash of the text, and only changed documents are cut, embedded and written again.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from citecheck import registry
from citecheck.documents import Document
from citecheck.documents.chunking import Chunk, model_chunks
from citecheck.documents.split import Sources, as_documents
from citecheck.documents.structure import PAGE_MARKER
from citecheck.embedders.cache import token_budget
from citecheck.errors import ConfigError, InputError
from citecheck.indexes.filters import Filter, check_filter
from citecheck.indexes.records import MetadataValue, Record
from citecheck.language.tokens import TokenBudget, token_windows
from citecheck.model import Evidence

if TYPE_CHECKING:
    from citecheck.protocols import Embedder, Index

__all__ = ["Corpus", "Update"]

_CHUNKINGS = ("sentences", "windows")


@dataclass(frozen=True, slots=True)
class Update:
    """What :meth:`Corpus.add` did: documents written (new or changed), documents left as they
    were, and chunks embedded."""

    written: tuple[str, ...]
    unchanged: tuple[str, ...]
    chunks: int


def chunk_id(doc_id: str, number: int) -> str:
    """The id of a document's ``number``-th chunk: deterministic, so the first chunk of any
    document can be fetched to see whether it is in the index."""
    return f"{doc_id}#{number}"


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


class Corpus:
    """Documents in an :class:`~citecheck.protocols.Index`, searched by meaning.

    ``embedder`` defaults to all-MiniLM-L6-v2
    (:func:`~citecheck.embedders.named.model_embedder`: its ONNX build when installed);
    ``index`` is an index object or a registered name (``"memory"``, ``"faiss"``, ``"pinecone"``
    with its options in ``index_options``). ``chunking`` is ``"sentences"`` (sentence chunks
    that know Markdown, at least ``min_chunk_length_chars`` long) or ``"windows"``
    (``window_chars`` characters, ``overlap_chars`` shared with the next, cut at word
    boundaries).
    """

    def __init__(
        self,
        embedder: Embedder | None = None,
        index: Index | str = "memory",
        *,
        chunking: str = "sentences",
        window_chars: int = 500,
        overlap_chars: int = 100,
        min_chunk_length_chars: int = 20,
        batch_size: int = 256,
        index_options: Mapping[str, Any] | None = None,
    ) -> None:
        if chunking not in _CHUNKINGS:
            raise ConfigError(f"chunking must be one of {_CHUNKINGS}, got {chunking!r}")
        if not 0 <= overlap_chars < window_chars:
            raise ConfigError(
                f"need 0 <= overlap_chars < window_chars, got {overlap_chars}, {window_chars}"
            )
        if batch_size < 1:
            raise ConfigError(f"batch_size must be positive, got {batch_size}")
        if embedder is None:
            from citecheck.embedders.named import model_embedder

            embedder = model_embedder()
        self.embedder = embedder
        self.index: Index = registry.create("indexes", index, **dict(index_options or {}))
        self.chunking = chunking
        self.window_chars = window_chars
        self.overlap_chars = overlap_chars
        self.min_chunk_length_chars = min_chunk_length_chars
        self.batch_size = batch_size
        self.documents: dict[str, Document] = {}

    def __repr__(self) -> str:
        return (
            f"Corpus(index={self.index.name!r}, chunking={self.chunking!r}, "
            f"documents={len(self.documents)})"
        )

    # -- writing ----------------------------------------------------------------------------

    def add(self, sources: Sources) -> Update:
        """Chunk, embed and index ``sources`` (same forms as :func:`citecheck.verify` takes).

        A document whose text the index already holds is not embedded again. A changed one has
        its old chunks deleted first, so no stale chunk outlives its text.
        """
        documents = list(as_documents(sources).values())
        stored = self._stored_hashes([d.id for d in documents])
        written, unchanged, records = [], [], []
        for document in documents:
            self.documents[document.id] = document
            digest = _digest(document.text)
            if stored.get(document.id) == digest:
                unchanged.append(document.id)
                continue
            if document.id in stored:
                self.index.delete(filter={"doc_id": document.id})
            records.extend(self._records(document, digest))
            written.append(document.id)
        for start in range(0, len(records), self.batch_size):
            self._write(records[start : start + self.batch_size])
        return Update(tuple(written), tuple(unchanged), len(records))

    def remove(self, doc_ids: Iterable[str]) -> None:
        """Forget these documents and delete their chunks from the index."""
        for doc_id in doc_ids:
            self.documents.pop(doc_id, None)
            self.index.delete(filter={"doc_id": doc_id})

    def _stored_hashes(self, doc_ids: Sequence[str]) -> dict[str, str]:
        """The text hash the index holds for each of ``doc_ids`` that it holds at all."""
        firsts = self.index.fetch([chunk_id(doc_id, 0) for doc_id in doc_ids])
        hashes = {}
        for record in firsts.values():
            doc_id, digest = record.metadata.get("doc_id"), record.metadata.get("doc_hash")
            if isinstance(doc_id, str) and isinstance(digest, str):
                hashes[doc_id] = digest
        return hashes

    def _chunks(self, document: Document) -> list[Chunk]:
        """The document's chunks, cut page by page so that no chunk spans two pages."""
        chunks: list[Chunk] = []
        for start, end in _page_regions(document):
            region = document.text[start:end]
            if not region.strip():
                continue
            if self.chunking == "sentences":
                # sentences, and windows that fit the model in place of longer ones
                pieces = list(
                    model_chunks(
                        region,
                        token_budget(self.embedder),
                        min_chunk_length_chars=self.min_chunk_length_chars,
                    ).chunks
                )
            else:
                pieces = _fitting(
                    _windows(region, self.window_chars, self.overlap_chars),
                    token_budget(self.embedder),
                )
            chunks.extend(Chunk(start + c.start, start + c.end, c.text) for c in pieces)
        return chunks

    def _records(
        self, document: Document, digest: str
    ) -> list[tuple[str, Chunk, dict[str, MetadataValue]]]:
        out = []
        for number, chunk in enumerate(self._chunks(document)):
            metadata: dict[str, MetadataValue] = {
                "doc_id": document.id,
                "start": chunk.start,
                "end": chunk.end,
                "line": document.line_at(chunk.start),
                "text": document.text[chunk.start : chunk.end],
            }
            page = document.page_at(chunk.start)
            if page is not None:
                metadata["page"] = page
            section = document.section_at(chunk.start)
            if section is not None:
                metadata["section"] = section
            if number == 0:
                metadata["doc_hash"] = digest
            out.append((chunk_id(document.id, number), chunk, metadata))
        return out

    def _write(self, batch: list[tuple[str, Chunk, dict[str, MetadataValue]]]) -> None:
        from citecheck.embedders.cache import embed_texts

        vectors = embed_texts(self.embedder, [chunk.text for _, chunk, _ in batch])
        self.index.upsert(
            Record(rid, [float(v) for v in vector], metadata)
            for (rid, _, metadata), vector in zip(batch, vectors, strict=True)
        )

    # -- reading ----------------------------------------------------------------------------

    def search(self, text: str, k: int = 5, filter: Filter | None = None) -> list[Evidence]:
        """The ``k`` chunks closest in meaning to ``text`` (passing ``filter``), as evidence
        with offsets into their document, page, line and section; best first."""
        if not isinstance(text, str) or not text.strip():
            raise InputError("search needs a non-empty text")
        if filter is not None:
            check_filter(filter)
        from citecheck.embedders.cache import embed_texts

        [vector] = embed_texts(self.embedder, [text])
        hits = self.index.search([float(v) for v in vector], k=k, filter=filter)
        return [self._evidence(hit.metadata, hit.score) for hit in hits]

    def exists(self, doc_id: str) -> bool:
        """Whether the index holds ``doc_id`` (its first chunk), whatever this process added."""
        return doc_id in self.documents or bool(self.index.fetch([chunk_id(doc_id, 0)]))

    def _evidence(self, metadata: Mapping[str, MetadataValue], score: float) -> Evidence:
        doc_id = str(metadata["doc_id"])
        start, end = int(metadata["start"]), int(metadata["end"])  # type: ignore[arg-type]
        scores = {"cosine": round(score, 4)}
        document = self.documents.get(doc_id)
        if document is not None and end <= len(document.text):
            return document.evidence(start, end, round(score, 4), "index", scores)
        page, line, section = metadata.get("page"), metadata.get("line"), metadata.get("section")
        return Evidence(
            source_id=doc_id,
            start=start,
            end=end,
            text=str(metadata.get("text", "")),
            score=round(score, 4),
            method="index",
            page=page if isinstance(page, int) else None,
            line=line if isinstance(line, int) else None,
            section=section if isinstance(section, str) else None,
            scores=scores,
        )


def _page_regions(document: Document) -> list[tuple[int, int]]:
    """Spans of the text before the first page and of each page, without the page marker."""
    pages = document.page_list
    if not pages:
        return [(0, len(document.text))]
    regions = [(0, pages[0].start)] if pages[0].start > 0 else []
    for page in pages:
        start = page.start
        if PAGE_MARKER.match(document.text, start):
            newline = document.text.find("\n", start, page.end)
            start = page.end if newline < 0 else newline + 1
        regions.append((start, page.end))
    return regions


def _fitting(pieces: list[Chunk], budget: TokenBudget) -> list[Chunk]:
    """``pieces``, with any the model would cut short (dense digits or symbols make many
    tokens of few characters) replaced by overlapping windows that fit it."""
    out: list[Chunk] = []
    for piece, spans in zip(pieces, budget.spans([p.text for p in pieces]), strict=True):
        if len(spans) <= budget.max_tokens:
            out.append(piece)
            continue
        for first, stop in token_windows(spans, budget.window, budget.window // 2):
            start, end = spans[first][0], spans[stop - 1][1]
            out.append(Chunk(piece.start + start, piece.start + end, piece.text[start:end]))
    return out


def _windows(text: str, size: int, overlap: int) -> list[Chunk]:
    """Windows of about ``size`` characters sharing ``overlap`` with the next, cut at spaces."""
    chunks: list[Chunk] = []
    start = len(text) - len(text.lstrip())
    while start < len(text):
        end = min(len(text), start + size)
        if end < len(text):
            space = text.rfind(" ", start + overlap + 1, end)
            end = space if space > start else end
        piece = text[start:end]
        if piece.strip():
            chunks.append(Chunk(start, end, piece))
        if end >= len(text):
            break
        following = max(start + 1, end - overlap)
        while following < end and not text[following - 1].isspace():
            following += 1  # begin the next window at a word
        start = following
    return chunks
