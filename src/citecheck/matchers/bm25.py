"""BM25 over corpus windows: which windows are most likely to hold a quote.

Two engines behind one class: ``bm25s`` (default; sparse matrices, fast) and ``rank_bm25``
(``engine="rank_bm25"``; the classic pure-Python Okapi implementation). Both take the same
tokens — lowercased words of the normalised text — and the same ``k1`` and ``b``. BM25 only
ranks windows; :class:`BM25Matcher` aligns the quote inside the best ones to get a passage.
"""

from __future__ import annotations

import re
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from citecheck.alignment import align, widen_to_words
from citecheck.documents import Document
from citecheck.errors import ConfigError, MissingDependencyError
from citecheck.matchers._needle import needle, normalized_region
from citecheck.model import Evidence, Span
from citecheck.text import normalize
from citecheck.windows import Window, auto_window_size, window_ranges

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

__all__ = ["ENGINES", "BM25Index", "BM25Matcher", "tokenize"]

ENGINES = ("bm25s", "rank_bm25")
_KEPT_INDEXES = 16
_DENSE_SHARE = 8  # a word in more than 1/8 of the windows keeps its scores as a dense row
_DENSE_BYTES = 64 * 2**20  # at most this much of them per index
_WORD = re.compile(r"\w+")


def tokenize(text: str) -> list[str]:
    """Lowercased words of the normalised text."""
    return _WORD.findall(normalize(text))


class BM25Index:
    """BM25 scores of every window for a query.

    ``scores(tokens)`` returns one float per window, in window order.
    """

    def __init__(
        self, windows: Sequence[Window], *, engine: str = "bm25s", k1: float = 1.5, b: float = 0.4
    ) -> None:
        if engine not in ENGINES:
            raise ConfigError(f"unknown BM25 engine {engine!r}; expected one of {ENGINES}")
        if k1 < 0 or not 0 <= b <= 1:
            raise ConfigError(f"BM25 needs k1 >= 0 and 0 <= b <= 1, got k1={k1}, b={b}")
        self.windows = list(windows)
        self.engine = engine
        corpus = [w.document.words_in(w.start, w.end) or [""] for w in self.windows]
        self._model: Any = _build(engine, corpus, k1, b) if corpus else None
        self._dense_rows: dict[int, NDArray[np.float64]] = {}  # common words' scores, by id
        self._dense_limit = _DENSE_BYTES // (8 * max(1, len(self.windows)))

    def scores(self, tokens: Sequence[str]) -> NDArray[np.float64]:
        """The BM25 score of each window for ``tokens`` (a numpy array in window order)."""
        import numpy as np

        if self._model is None or not tokens:
            return np.zeros(len(self.windows))
        if self.engine == "bm25s":
            return self._bm25s_scores(tokens)
        return np.asarray(self._model.get_scores(list(tokens)), dtype=np.float64)

    def _bm25s_scores(self, tokens: Sequence[str]) -> NDArray[np.float64]:
        """What bm25s's ``get_scores(tokens)`` returns, summed from its own precomputed
        sparse matrix: the rare words' entries with one ``np.bincount``, the common words'
        (``the``, ``of``: in most windows) as dense rows kept from earlier queries. bm25s
        itself runs an ``np.add.at`` per word, several times slower: the cost of every quote."""
        import numpy as np

        model = self._model
        matrix, vocabulary, size = model.scores, model.vocab_dict, model.scores["num_docs"]
        indptr, indices, data = matrix["indptr"], matrix["indices"], matrix["data"]
        ids = [vocabulary[token] for token in tokens if token in vocabulary]
        scores: NDArray[np.float64] = np.zeros(size)
        rare = []
        for i in ids:
            a, b = indptr[i], indptr[i + 1]
            row = self._dense_rows.get(i)
            if row is None:
                if b - a < size // _DENSE_SHARE or len(self._dense_rows) >= self._dense_limit:
                    rare.append((a, b))
                    continue
                row = np.zeros(size)
                row[indices[a:b]] = data[a:b]
                self._dense_rows[i] = row  # only once filled: another thread may read it
            scores += row
        if rare:
            scores += np.bincount(
                np.concatenate([indices[a:b] for a, b in rare]),
                weights=np.concatenate([data[a:b] for a, b in rare]),
                minlength=size,
            )
        if ids and model.nonoccurrence_array is not None:  # BM25L and BM25+ score absent words
            scores += model.nonoccurrence_array[ids].sum()
        return scores


def _build(engine: str, corpus: list[list[str]], k1: float, b: float) -> Any:
    if engine == "bm25s":
        try:
            import bm25s
        except ImportError:
            raise MissingDependencyError("bm25s", "bm25") from None
        model = bm25s.BM25(k1=k1, b=b)
        model.index(corpus, show_progress=False)
        return model
    try:
        from rank_bm25 import BM25Okapi
    except ImportError:
        raise MissingDependencyError("rank-bm25", "bm25") from None
    return BM25Okapi(corpus, k1=k1, b=b)


@dataclass(frozen=True, slots=True)
class BM25Matcher:
    """A :class:`~citecheck.protocols.Matcher` that ranks windows of the document with BM25 and
    aligns the query inside the best ``candidates`` of them (joined with their neighbours, so a
    passage longer than a window is found whole).

    Useful for long documents and long quotes, where aligning against the whole text is slow.
    Passages below ``threshold`` similarity are not reported.
    """

    engine: str = "bm25s"
    k1: float = 1.5
    b: float = 0.4
    threshold: float = 0.8
    candidates: int = 3
    window_size: int | None = None
    _indexes: OrderedDict[tuple[Document, int, int, int], BM25Index] = field(
        default_factory=OrderedDict, init=False, repr=False, compare=False
    )
    name = "bm25"

    def __post_init__(self) -> None:
        if self.engine not in ENGINES:
            raise ConfigError(f"unknown BM25 engine {self.engine!r}; expected one of {ENGINES}")
        if not 0.0 < self.threshold <= 1.0:
            raise ConfigError(f"bm25 threshold must be in (0, 1], got {self.threshold}")
        if self.candidates < 1:
            raise ConfigError(f"candidates must be at least 1, got {self.candidates}")

    def find(self, query: str, document: Document, within: Span | None = None) -> list[Evidence]:
        target = needle(query)
        tokens = tokenize(target)
        if not tokens:
            return []
        region = within or Span(0, len(document.text))
        size = self.window_size or auto_window_size([target])
        index = self._index(document, region, size)
        scores = index.scores(tokens)
        ranked = [int(i) for i in scores.argsort()[::-1][: self.candidates]]
        best: Evidence | None = None
        for i in ranked:
            if scores[i] <= 0:
                break
            found = _align_around(target, document, index.windows[i], region)
            if found is not None and (best is None or found[0] > best.score):
                score, start, end = found
                best = document.evidence(
                    start,
                    end,
                    round(score, 4),
                    self.name,
                    {"bm25": float(scores[i]), "fuzzy": score},
                )
        return [best] if best is not None and best.score >= self.threshold else []

    def _index(self, document: Document, region: Span, size: int) -> BM25Index:
        """The index of a document region, kept for the last few regions asked about."""
        key = (document, region.start, region.end, size)
        if key in self._indexes:
            self._indexes.move_to_end(key)
            return self._indexes[key]
        ranges = window_ranges(region.start, region.end, size, int(size * 0.3))
        # One document is its own global text: global offsets are its offsets.
        windows = [Window(document, a, b, a) for a, b in ranges]
        self._indexes[key] = BM25Index(windows, engine=self.engine, k1=self.k1, b=self.b)
        if len(self._indexes) > _KEPT_INDEXES:
            self._indexes.popitem(last=False)
        return self._indexes[key]


def _align_around(
    target: str, document: Document, window: Window, bounds: Span
) -> tuple[float, int, int] | None:
    """Align ``target`` in the window grown by the target's length on both sides (within
    ``bounds``), so a quote longer than a window, or straddling two, is found whole."""
    grow = max(len(target) - (window.end - window.start), 0) + 30
    region = Span(max(bounds.start, window.start - grow), min(bounds.end, window.end + grow))
    start, end = widen_to_words(document.normalized.text, *normalized_region(document, region))
    found = align(target, document.normalized.text[start:end])
    if found is None:
        return None
    orig = document.normalized.to_original(start + found.start, start + found.end)
    return found.score, orig[0], orig[1]
