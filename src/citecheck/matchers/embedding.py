"""Meaning, not wording: the source sentences closest to a text by embedding cosine.

A claim that paraphrases its source shares few words with it, so the lexical matchers miss it.
This matcher splits a document into sentence chunks (:mod:`citecheck.chunking`, with offsets
into the original text), embeds them once, and ranks them by cosine similarity to the query.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from citecheck.chunking import Chunk, chunk_text
from citecheck.documents import Document
from citecheck.embedders.cache import CachedEmbedder, embed_texts
from citecheck.errors import ConfigError
from citecheck.model import Evidence, Span

if TYPE_CHECKING:
    from citecheck.protocols import Embedder

__all__ = ["EmbeddingMatcher"]


class EmbeddingMatcher:
    """Ranks a document's sentence chunks by cosine similarity to the query.

    ``find`` returns the chunks at or above ``threshold`` (0.6, the "likely true" line), best
    first, at most ``top_k``; :meth:`rank` returns the best ``top_k`` whatever their score, for
    callers that grade the similarity themselves. The evidence score is the cosine clipped to
    [0, 1], and ``scores["cosine"]`` the cosine itself. With no ``embedder``, a
    :class:`~citecheck.embedders.SentenceTransformerEmbedder` is built on first use (the
    ``embeddings`` extra). Chunks and their vectors are kept for the last ``cache_documents``
    distinct document texts, so a source met again (in another record) is not chunked again.
    """

    name = "embedding"

    def __init__(
        self,
        embedder: Embedder | None = None,
        *,
        threshold: float = 0.6,
        top_k: int = 3,
        min_chunk_length_chars: int = 20,
        markdown: bool = True,
        cache_documents: int = 256,
    ) -> None:
        if not -1.0 <= threshold <= 1.0:
            raise ConfigError(f"embedding threshold must be in [-1, 1], got {threshold}")
        if top_k < 1:
            raise ConfigError(f"top_k must be positive, got {top_k}")
        if min_chunk_length_chars < 0:
            raise ConfigError(
                f"min_chunk_length_chars must not be negative, got {min_chunk_length_chars}"
            )
        self._embedder = embedder
        self.threshold = threshold
        self.top_k = top_k
        self.min_chunk_length_chars = min_chunk_length_chars
        self.markdown = markdown
        self.cache_documents = cache_documents
        self._prepared: OrderedDict[str, tuple[list[Chunk], Any]] = OrderedDict()
        self._lock = threading.Lock()

    @property
    def embedder(self) -> Embedder:
        """The embedder in use; one without a cache of its own gets an in-memory one."""
        if self._embedder is None:
            from citecheck.embedders import SentenceTransformerEmbedder

            self._embedder = SentenceTransformerEmbedder()
        elif not callable(getattr(self._embedder, "embed_matrix", None)):
            name = f"{type(self._embedder).__qualname__}@{id(self._embedder):x}"
            self._embedder = CachedEmbedder(self._embedder, name)
        return self._embedder

    def prefetch(self, texts: Sequence[str]) -> None:
        """Embed ``texts`` in one batch now, so that ranking them one by one later finds their
        vectors in the cache: a model embeds a batch far faster than the same texts singly."""
        if texts:
            embed_texts(self.embedder, list(dict.fromkeys(texts)))

    def find(self, query: str, document: Document, within: Span | None = None) -> list[Evidence]:
        return [
            e for e in self.rank(query, document, within) if e.scores["cosine"] >= self.threshold
        ]

    def rank(
        self, query: str, document: Document, within: Span | None = None, k: int | None = None
    ) -> list[Evidence]:
        """The ``k`` (default ``top_k``) chunks most similar to ``query``, best first."""
        return self.rank_many([query], document, within, k)[0]

    def rank_many(
        self,
        queries: Sequence[str],
        document: Document,
        within: Span | None = None,
        k: int | None = None,
    ) -> list[list[Evidence]]:
        """:meth:`rank` for several queries at once: one embedding call for all of them."""
        if not queries:
            return []
        chunks, matrix = self._chunks(document)
        keep = [
            i
            for i, c in enumerate(chunks)
            if within is None or (c.start < within.end and c.end > within.start)
        ]
        if not keep:
            return [[] for _ in queries]
        vectors = _unit_rows(embed_texts(self.embedder, list(queries)))
        similarities = vectors @ matrix[keep].T
        wanted = min(k or self.top_k, len(keep))
        ranked: list[list[Evidence]] = []
        for row in similarities:
            order = row.argsort()[::-1][:wanted]
            ranked.append([self._evidence(document, chunks[keep[j]], float(row[j])) for j in order])
        return ranked

    def chunks(self, document: Document) -> list[Chunk]:
        """The chunks of ``document`` this matcher compares with (embedded on first use)."""
        return self._chunks(document)[0]

    def _evidence(self, document: Document, chunk: Chunk, cosine: float) -> Evidence:
        cosine = max(-1.0, min(1.0, cosine))
        score = round(max(0.0, cosine), 4)
        return document.evidence(
            chunk.start, chunk.end, score, self.name, {"cosine": round(cosine, 4)}
        )

    def _chunks(self, document: Document) -> tuple[list[Chunk], Any]:
        key = document.text  # the same text in a new Document (a record's source) is reused
        with self._lock:
            entry = self._prepared.get(key)
            if entry is not None:
                self._prepared.move_to_end(key)
                return entry
        chunks = chunk_text(
            document.text,
            markdown=self.markdown,
            min_chunk_length_chars=self.min_chunk_length_chars,
        )
        matrix = (
            _unit_rows(embed_texts(self.embedder, [c.text for c in chunks])) if chunks else None
        )
        with self._lock:
            self._prepared[key] = (chunks, matrix)
            while len(self._prepared) > self.cache_documents:
                self._prepared.popitem(last=False)
        return chunks, matrix


def _unit_rows(matrix: Any) -> Any:
    """Rows scaled to unit length (a zero row stays zero), so a dot product is the cosine."""
    import numpy as np

    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    return matrix / np.where(norms == 0, 1.0, norms)
