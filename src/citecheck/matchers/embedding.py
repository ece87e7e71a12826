"""Meaning, not wording: the source sentences closest to a text by embedding cosine.

A claim that paraphrases its source shares few words with it, so the lexical matchers miss it.
This matcher splits a document into sentence chunks (:mod:`citecheck.documents.chunking`, with
offsets into the original text), embeds them once, and ranks them by cosine similarity to the query.

The model reads only so many tokens of a text (:func:`~citecheck.embedders.token_budget`), so
a chunk longer than that, such as a transcript with no punctuation, is cut into overlapping
windows that fit (:func:`~citecheck.documents.chunking.model_chunks`), and a query longer than that
is embedded as the mean of its windows. A window holds a sentence among much else, so when one of
the best few chunks for a query is a window, the matcher looks inside it at windows as long as
the query and reports the best of them when it scores higher: the stretch that says what the
query says, with its own offsets.

With ``preselect=N``, a document of more than N chunks is not embedded whole: for each query,
the N chunks holding most of its rarer words are embedded (once; the embedder's cache keeps
them) and ranked (:mod:`citecheck.matchers.preselect`). A claim against a long source met for
the first time then costs N chunks of the model, not all of them.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from citecheck.documents import Document
from citecheck.documents.chunking import Chunk, ModelChunks, model_chunks
from citecheck.embedders.cache import CachedEmbedder, embed_texts, token_budget
from citecheck.errors import ConfigError
from citecheck.language.tokens import TokenBudget, token_windows
from citecheck.matchers.preselect import WordPresence, preselected
from citecheck.model import Evidence, Span

if TYPE_CHECKING:
    from citecheck.protocols import Embedder

_LOOKED_INTO = 3
"""How many of a query's best windows the matcher looks inside (see the module docstring)."""

__all__ = ["EmbeddingMatcher", "whole_text_vectors"]


class EmbeddingMatcher:
    """Ranks a document's sentence chunks by cosine similarity to the query.

    ``find`` returns the chunks at or above ``threshold`` (0.6, the "likely true" line), best
    first, at most ``top_k``; :meth:`rank` returns the best ``top_k`` whatever their score, for
    callers that grade the similarity themselves. The evidence score is the cosine clipped to
    [0, 1], and ``scores["cosine"]`` the cosine itself. With no ``embedder``, all-MiniLM-L6-v2
    is built on first use (:func:`~citecheck.embedders.named.model_embedder`: its ONNX build
    with the ``onnx-minilm`` extra, else the ``embeddings`` extra). Chunks and their vectors are
    kept for the last ``cache_documents`` distinct document texts, so a source met again (in
    another record) is not chunked again. ``preselect`` bounds the chunks embedded for a query
    in a long document (see the module docstring); ``None`` embeds every chunk.
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
        preselect: int | None = None,
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
        if preselect is not None and preselect < 1:
            raise ConfigError(f"preselect must be positive or None, got {preselect}")
        self.cache_documents = cache_documents
        self.preselect = preselect
        self._prepared: OrderedDict[str, tuple[ModelChunks, Any]] = OrderedDict()
        self._budget: TokenBudget | None = None
        self._lock = threading.Lock()

    @property
    def embedder(self) -> Embedder:
        """The embedder in use; one without a cache of its own gets an in-memory one."""
        if self._embedder is None:
            from citecheck.embedders.named import model_embedder

            self._embedder = model_embedder()
        elif not callable(getattr(self._embedder, "embed_matrix", None)):
            name = f"{type(self._embedder).__qualname__}@{id(self._embedder):x}"
            self._embedder = CachedEmbedder(self._embedder, name)
        return self._embedder

    @property
    def budget(self) -> TokenBudget:
        """How much of a text the embedder reads (:func:`~citecheck.embedders.token_budget`)."""
        if self._budget is None:
            self._budget = token_budget(self.embedder)
        return self._budget

    def prefetch(self, texts: Sequence[str]) -> None:
        """Embed ``texts`` in one batch now, so that ranking them one by one later finds their
        vectors in the cache: a model embeds a batch far faster than the same texts singly."""
        if texts:
            self._queries(list(dict.fromkeys(texts)))

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
        cut, matrix = self._chunks(document)
        keep = [
            i
            for i, c in enumerate(cut.chunks)
            if within is None or (c.start < within.end and c.end > within.start)
        ]
        if not keep:
            return [[] for _ in queries]
        vectors, lengths = self._queries(queries)
        if isinstance(matrix, WordPresence):  # a long document: its chunks embedded as needed
            keep = preselected(matrix, queries, keep, self.preselect or len(keep))
            chosen = embed_texts(self.embedder, [cut.chunks[i].text for i in keep])
            similarities = vectors @ _unit_rows(chosen).T
        else:
            similarities = vectors @ matrix[keep].T
        wanted = min(k or self.top_k, len(keep))
        ranked: list[list[Evidence]] = []
        for vector, length, row in zip(vectors, lengths, similarities, strict=True):
            order = row.argsort()[::-1]
            best: dict[tuple[int, int], tuple[float, Chunk]] = {}
            for position, j in enumerate(order[: max(wanted, _LOOKED_INTO)]):
                chunk, cosine = cut.chunks[keep[j]], float(row[j])
                if cut.windowed[keep[j]]:
                    inner, piece = self._inside(cut, keep[j], vector, length, within)
                    if inner > cosine:
                        cosine, chunk = inner, piece
                elif position >= wanted:
                    continue
                if best.get((chunk.start, chunk.end), (-2.0,))[0] < cosine:
                    best[chunk.start, chunk.end] = (cosine, chunk)
            top = sorted(best.values(), key=lambda pair: -pair[0])[:wanted]
            ranked.append([self._evidence(document, chunk, cosine) for cosine, chunk in top])
        return ranked

    def _inside(
        self, cut: ModelChunks, index: int, vector: Any, length: int, within: Span | None
    ) -> tuple[float, Chunk]:
        """The window ``length`` tokens long inside window ``index`` most similar to
        ``vector``; its cosine first. ``(-2.0, the window)`` when none lies in ``within``."""
        pieces = [
            c
            for c in cut.within(index, length)
            if within is None or (c.start < within.end and c.end > within.start)
        ]
        if not pieces:
            return -2.0, cut.chunks[index]
        cosines = _unit_rows(embed_texts(self.embedder, [c.text for c in pieces])) @ vector
        at = int(cosines.argmax())
        return float(cosines[at]), pieces[at]

    def _queries(self, queries: Sequence[str]) -> tuple[Any, list[int]]:
        """The unit vectors of ``queries`` and their lengths in tokens."""
        return whole_text_vectors(self.embedder, self.budget, queries)

    def chunks(self, document: Document) -> list[Chunk]:
        """The chunks of ``document`` this matcher compares with (embedded on first use): its
        sentences, and windows in place of any too long for the model."""
        return list(self._chunks(document)[0].chunks)

    def _evidence(self, document: Document, chunk: Chunk, cosine: float) -> Evidence:
        cosine = max(-1.0, min(1.0, cosine))
        score = round(max(0.0, cosine), 4)
        return document.evidence(
            chunk.start, chunk.end, score, self.name, {"cosine": round(cosine, 4)}
        )

    def _chunks(self, document: Document) -> tuple[ModelChunks, Any]:
        key = document.text  # the same text in a new Document (a record's source) is reused
        with self._lock:
            entry = self._prepared.get(key)
            if entry is not None:
                self._prepared.move_to_end(key)
                return entry
        cut = model_chunks(
            document.text,
            self.budget,
            markdown=self.markdown,
            min_chunk_length_chars=self.min_chunk_length_chars,
        )
        matrix: Any
        if self.preselect is not None and len(cut.chunks) > self.preselect:
            matrix = WordPresence.of([c.text for c in cut.chunks])
        elif cut.chunks:
            matrix = _unit_rows(embed_texts(self.embedder, [c.text for c in cut.chunks]))
        else:
            matrix = None
        with self._lock:
            self._prepared[key] = (cut, matrix)
            while len(self._prepared) > self.cache_documents:
                self._prepared.popitem(last=False)
        return cut, matrix


def whole_text_vectors(
    embedder: Embedder, budget: TokenBudget, texts: Sequence[str]
) -> tuple[Any, list[int]]:
    """The unit vectors of ``texts`` and their lengths in tokens. A text longer than the model
    reads is embedded as the mean of its windows, not cut short."""
    import numpy as np

    pieces: list[str] = []
    owners: list[int] = []
    spans_of = budget.spans(texts)
    for number, (text, spans) in enumerate(zip(texts, spans_of, strict=True)):
        if len(spans) <= budget.max_tokens:
            pieces.append(text)
            owners.append(number)
            continue
        for first, stop in token_windows(spans, budget.window, budget.window // 2):
            start = 0 if first == 0 else spans[first][0]
            end = len(text) if stop == len(spans) else spans[stop - 1][1]
            pieces.append(text[start:end])
            owners.append(number)
    matrix = _unit_rows(embed_texts(embedder, pieces))
    if len(pieces) > len(texts):
        summed = np.zeros((len(texts), matrix.shape[1]), dtype=matrix.dtype)
        np.add.at(summed, owners, matrix)
        matrix = _unit_rows(summed)
    return matrix, [max(1, len(spans)) for spans in spans_of]


def _unit_rows(matrix: Any) -> Any:
    """Rows scaled to unit length (a zero row stays zero), so a dot product is the cosine."""
    import numpy as np

    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    return matrix / np.where(norms == 0, 1.0, norms)
