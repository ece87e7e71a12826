"""BM25 over windows, then alignment: how a quote is found in long texts and whole corpora.

Aligning a quote against every character of a corpus is far too slow, so the search has two
steps. BM25 ranks overlapping windows of the documents
(:func:`citecheck.matchers.windows.make_windows`) by the quote's words, which is cheap, and the
passage is almost always in one of the top few. Alignment then finds the passage itself around those
windows: each grown by the quote's length (so a quote straddling two windows, or longer than one, is
aligned whole) and grown again by a step while the match runs into an edge. :class:`WindowSearch` is
that search, the one engine behind both :class:`BM25Matcher` (one document, or a region of it) and
:class:`citecheck.quotes.QuoteLocator` (a corpus), so they find the same passage for a quote; both
give the passage the marks at the quote's ends that stand around it (:func:`with_marks`).

Two BM25 engines behind :class:`BM25Index`: ``bm25s`` (default; sparse matrices, fast) and
``rank_bm25`` (``engine="rank_bm25"``; the classic pure-Python Okapi implementation). Both take
the same tokens, lowercased words of the normalised text, and the same ``k1`` and ``b``.
"""

from __future__ import annotations

from collections import Counter, OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from itertools import islice
from typing import TYPE_CHECKING, Any

from citecheck.documents import Document
from citecheck.errors import ConfigError, MissingDependencyError
from citecheck.language.text import WORD, normalize
from citecheck.matchers.alignment import Alignment, align, widen_to_words
from citecheck.matchers.exact import ExactMatcher
from citecheck.matchers.needle import edge_marks, marked_span, needle, normalized_region
from citecheck.matchers.windows import Window, auto_window_size, document_offsets, make_windows
from citecheck.model import Evidence, Span
from citecheck.thresholds import WORDS_VERIFIED

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

__all__ = [
    "ENGINES",
    "TRIM_METHODS",
    "BM25Index",
    "BM25Matcher",
    "Passage",
    "Ranking",
    "SearchOptions",
    "WindowSearch",
    "tokenize",
    "with_marks",
]

ENGINES = ("bm25s", "rank_bm25")
TRIM_METHODS = ("fuzzy", "sliding_bm25", "hybrid")
_KEPT_INDEXES = 16
_DENSE_SHARE = 8  # a word in more than 1/8 of the windows keeps its scores as a dense row
_DENSE_BYTES = 64 * 2**20  # at most this much of them per index
_EPSILON = 0.01  # keeps top1 / (top2 + ε) finite when no other window shares a word
_EDGE = 3  # a match within this many characters of its region's edge may be cut off
_RUNNERS_UP = 8  # more windows ranked than asked for: the best one apart from the top is in them


def tokenize(text: str) -> list[str]:
    """Lowercased words of the normalised text."""
    return WORD.findall(normalize(text))


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
        self._size = len(corpus)
        self._model: Any = _build(engine, corpus, k1, b) if corpus else None
        self._dense_rows: dict[int, NDArray[np.float64]] = {}  # common words' scores, by id
        self._dense_limit = _DENSE_BYTES // (8 * max(1, self._size))

    @classmethod
    def of_tokens(
        cls,
        corpus: Sequence[Sequence[str]],
        *,
        engine: str = "bm25s",
        k1: float = 1.5,
        b: float = 0.4,
    ) -> BM25Index:
        """BM25 over passages given as their tokens (:func:`tokenize`) rather than as windows
        of documents: a paper library's chunks, whose texts it keeps itself."""
        index = cls((), engine=engine, k1=k1, b=b)
        index._size = len(corpus)
        index._model = _build(engine, [list(t) or [""] for t in corpus], k1, b) if corpus else None
        index._dense_limit = _DENSE_BYTES // (8 * max(1, index._size))
        return index

    def scores(self, tokens: Sequence[str]) -> NDArray[np.float64]:
        """The BM25 score of each window for ``tokens`` (a numpy array in window order)."""
        import numpy as np

        if self._model is None or not tokens:
            return np.zeros(self._size)
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


# -- the search --------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class SearchOptions:
    """How :class:`WindowSearch` turns ranked windows into passages.

    ``candidates`` distinct regions are aligned per query, among the ``4 × candidates`` best
    windows (a window inside a region already aligned is skipped), and the search stops early
    at a passage at least ``enough`` similar. Each window grows by the query's length plus
    ``padding`` on both sides, then by a step at most ``neighbours`` times while the match
    touches an edge. ``trim`` ``False`` takes whole windows as passages, scored by
    ``fuzz.ratio``; ``method`` picks the alignment: ``fuzzy``
    (:func:`citecheck.matchers.alignment.align`), ``sliding_bm25`` (the run of words sharing most
    words with the query) or ``hybrid`` (fuzzy, and the word run too when fuzzy scores below
    ``min_fuzzy_ratio``).
    """

    candidates: int = 3
    enough: float = 1.0
    padding: int = 30
    neighbours: int = 1
    trim: bool = True
    method: str = "fuzzy"
    min_fuzzy_ratio: float = 0.6

    def __post_init__(self) -> None:
        if self.candidates < 1:
            raise ConfigError(f"candidates must be at least 1, got {self.candidates}")
        if self.method not in TRIM_METHODS:
            raise ConfigError(
                f"unknown trim method {self.method!r}; expected one of {TRIM_METHODS}"
            )


@dataclass(frozen=True, slots=True)
class Passage:
    """``document.text[start:end]``, where a query was found: its ``similarity`` to the query,
    the BM25 score of the window it was found around, and that search's ``bm25_ratio`` (how
    far the top window stood out). ``method`` is the name the search gives its passages."""

    document: Document
    start: int
    end: int
    similarity: float
    bm25_score: float
    bm25_ratio: float
    method: str


@dataclass(frozen=True, slots=True)
class Ranking:
    """The best windows for one query, best first, with their BM25 scores (all positive: a
    window sharing no word with the query is not ranked).

    ``ratio`` is the top score over the best score of a window that does not overlap the top
    one (plus a small ε): overlapping windows share the query's words, so only a window
    elsewhere says whether the top one stands out. ``0.0`` when nothing is ranked."""

    windows: tuple[Window, ...]
    scores: tuple[float, ...]
    ratio: float


class WindowSearch:
    """Windows of ``documents``, their BM25 index, and the search for a query in them.

    Build one per set of documents and window size (building is the costly part) and search it
    for many queries. ``within`` limits the windows, and every passage, to that range of the
    documents (a matcher searching part of one document); ``method`` names the passages found.
    Queries are expected prepared by :func:`citecheck.matchers.needle.needle`.
    """

    def __init__(
        self,
        documents: Sequence[Document],
        size: int,
        overlap: int,
        *,
        within: Span | None = None,
        engine: str = "bm25s",
        k1: float = 1.5,
        b: float = 0.4,
        options: SearchOptions | None = None,
        method: str = "bm25",
    ) -> None:
        self.documents = list(documents)
        self.windows = make_windows(self.documents, size, overlap, within)
        self.index = BM25Index(self.windows, engine=engine, k1=k1, b=b)
        self.step = size - overlap
        self.options = options or SearchOptions()
        self.method = method
        ids = (d.id for d in self.documents)
        self.offsets = dict(zip(ids, document_offsets(self.documents), strict=True))
        """Where each document (by id) starts in the global text of the windows."""
        self._within = within

    def rank(self, tokens: Sequence[str], count: int) -> Ranking:
        """The ``count`` best windows for ``tokens`` (fewer when fewer share a word with them);
        among equal scores, the later window first."""
        scores = self.index.scores(tokens)
        ranked = _best_first(scores, count + _RUNNERS_UP)
        if not len(ranked) or scores[ranked[0]] <= 0:
            return Ranking((), (), 0.0)
        top = self.windows[int(ranked[0])]
        runner_up = self._best_apart(scores, ranked, top)
        if runner_up is None and len(ranked) < len(scores):  # every window ranked overlaps it
            runner_up = self._best_apart(scores, _best_first(scores, len(scores)), top)
        ratio = float(scores[ranked[0]]) / ((runner_up or 0.0) + _EPSILON)
        best = [int(i) for i in ranked[:count] if scores[i] > 0]
        return Ranking(
            tuple(self.windows[i] for i in best), tuple(float(scores[i]) for i in best), ratio
        )

    def search(
        self, target: str, tokens: Sequence[str], ranking: Sequence[str] = ()
    ) -> list[Passage]:
        """The passages aligned around the best windows for ``target``, most similar first
        (then by BM25 score). ``tokens`` are the target's words; ``ranking`` tokens, when
        given, rank the windows instead (an elided quote's first fragment is looked for where
        the words of all its fragments are)."""
        options = self.options
        ranked = self.rank(ranking or tokens, options.candidates * 4)
        passages: list[Passage] = []
        covered: list[tuple[Document, Span]] = []
        for window, score in zip(ranked.windows, ranked.scores, strict=True):
            if len(passages) >= options.candidates:
                break
            if any(d is window.document and _overlaps(window, span) for d, span in covered):
                continue  # this passage was aligned already, in a region grown around it
            passage, region = self._align_around(target, window, score, ranked.ratio)
            covered.append((window.document, region))
            passages.append(passage)
            if passage.similarity >= options.enough:
                break  # found; the rest would only cost time
        return sorted(passages, key=lambda p: (-p.similarity, -p.bm25_score))

    def align(self, target: str, document: Document, region: Span) -> Alignment | None:
        """The passage most like ``target`` in ``region`` of ``document`` (widened to whole
        words), aligned with the configured method; its offsets are the document's."""
        normalized = document.normalized
        n_start, n_end = widen_to_words(
            normalized.text, *normalized.to_normalized(region.start, region.end)
        )
        found = _align_by(self.options, target, normalized.text[n_start:n_end])
        if found is None:
            return None
        start, end = normalized.to_original(n_start + found.start, n_start + found.end)
        return Alignment(found.score, start, end)

    def _align_around(
        self, target: str, window: Window, score: float, ratio: float
    ) -> tuple[Passage, Span]:
        """The passage for ``target`` around ``window``, and the region that was searched."""
        document = window.document
        if not self.options.trim:
            similarity = _ratio(target, document.text[window.start : window.end])
            passage = self._passage(window, window.start, window.end, similarity, score, ratio)
            return passage, Span(window.start, window.end)
        bounds = self._bounds(document)
        grow = len(target) + self.options.padding
        region = Span(max(bounds.start, window.start - grow), min(bounds.end, window.end + grow))
        hits = ExactMatcher().find(target, document, region)
        if hits:  # the common case, settled without fuzzy alignment
            return self._passage(window, hits[0].start, hits[0].end, 1.0, score, ratio), region
        found, region = self._align_growing(target, document, region, bounds)
        if found is None:
            return self._passage(window, window.start, window.end, 0.0, score, ratio), region
        return self._passage(window, found.start, found.end, found.score, score, ratio), region

    def _align_growing(
        self, target: str, document: Document, region: Span, bounds: Span
    ) -> tuple[Alignment | None, Span]:
        """Align in ``region``, and again in it grown by a step on each side the match runs
        into (up to ``neighbours`` times): a match cut off at an edge may go on beyond it."""
        found = self.align(target, document, region)
        for _ in range(self.options.neighbours):
            if found is None:
                break
            left = found.start - region.start < _EDGE and region.start > bounds.start
            right = region.end - found.end < _EDGE and region.end < bounds.end
            if not (left or right):
                break
            region = Span(
                max(bounds.start, region.start - (self.step if left else 0)),
                min(bounds.end, region.end + (self.step if right else 0)),
            )
            found = self.align(target, document, region)
        return found, region

    def _passage(
        self, window: Window, start: int, end: int, similarity: float, score: float, ratio: float
    ) -> Passage:
        return Passage(window.document, start, end, similarity, score, ratio, self.method)

    def _bounds(self, document: Document) -> Span:
        """How far a region around a window of ``document`` may grow."""
        return self._within or Span(0, len(document.text))

    def _best_apart(
        self, scores: NDArray[np.float64], ranked: NDArray[np.intp], top: Window
    ) -> float | None:
        """The best score among ``ranked`` of a window that does not overlap ``top`` (``None``
        when they all do)."""
        for i in ranked[1:]:
            window = self.windows[int(i)]
            if window.document is not top.document or not _overlaps(window, top):
                return float(scores[i])
        return None


def _overlaps(window: Window, other: Window | Span) -> bool:
    return window.start < other.end and other.start < window.end


def _best_first(scores: NDArray[np.float64], count: int) -> NDArray[np.intp]:
    """The indices of the ``count`` highest scores, highest first and, among equal scores, the
    later window first (without sorting them all: a corpus has thousands of windows, a query
    needs a dozen)."""
    import numpy as np

    top = np.arange(len(scores))
    if count < len(scores):
        top = np.sort(np.argpartition(scores, len(scores) - count)[len(scores) - count :])
    return top[np.argsort(scores[top], kind="stable")[::-1]]


def _align_by(options: SearchOptions, target: str, haystack: str) -> Alignment | None:
    """``target`` aligned in ``haystack`` with ``options.method``: see :class:`SearchOptions`."""
    found = align(target, haystack) if options.method != "sliding_bm25" else None
    if options.method == "sliding_bm25" or (
        options.method == "hybrid" and (found is None or found.score < options.min_fuzzy_ratio)
    ):
        sliding = _sliding_words(target, haystack)
        if sliding is not None and (found is None or sliding.score > found.score):
            found = sliding
    return found


def _ratio(target: str, text: str) -> float:
    from rapidfuzz import fuzz

    return fuzz.ratio(target, normalize(text).strip()) / 100


def _sliding_words(target: str, haystack: str) -> Alignment | None:
    """The run of as many words as the target has that shares the most words with it (the
    first such run): the most of the target's words, each counted at most as often as the
    target has it.

    Counted without sliding a window word by word: the *m*-th place of a target word that the
    target has *k* times counts for the runs that hold it and do not hold its *k* places before
    it, a range of runs. Adding up those ranges gives every run's count in one pass over the
    haystack's words, whatever the target's length."""
    from rapidfuzz import fuzz

    wanted = Counter(WORD.findall(target))
    n = sum(wanted.values())
    words = WORD.findall(haystack)
    if not words or not n:
        return None
    n = min(n, len(words))
    last = len(words) - n  # where the last run starts
    places: dict[str, list[int]] = {}
    changes: dict[int, int] = {}  # run -> how its count differs from the run before's
    for j, word in enumerate(words):
        k = wanted.get(word)
        if k is None:
            continue
        earlier = places.setdefault(word, [])
        first = max(0, j - n + 1, earlier[-k] + 1 if len(earlier) >= k else 0)
        earlier.append(j)
        if first <= min(j, last):
            changes[first] = changes.get(first, 0) + 1
            changes[min(j, last) + 1] = changes.get(min(j, last) + 1, 0) - 1
    shared = best_shared = best_at = 0
    for run in sorted(changes):
        shared += changes[run]
        if shared > best_shared:
            best_shared, best_at = shared, run
    matches = WORD.finditer(haystack)
    first_word = next(islice(matches, best_at, None))
    last_word = first_word if n == 1 else next(islice(matches, n - 2, None))
    start, end = first_word.start(), last_word.end()
    return Alignment(fuzz.ratio(target, haystack[start:end]) / 100, start, end)


def with_marks(query: str, passage: Passage, within: Span | None = None) -> Passage:
    """``passage`` grown over the punctuation at the query's ends (quotation marks, brackets, a
    full stop) as far as the same marks stand right around it in the text.

    A query is matched without them (:func:`~citecheck.matchers.needle.needle`: a quote's
    closing full stop must not stop it matching mid-sentence), but a quote that stands in the
    text must get the span of all of it: ``(EEC).`` with its bracket and its full stop. Marks
    the text does not have there (a quote's own quotation marks) are not taken. A passage that
    is the query word for word, where its marks do not all stand, moves to another place in
    its document (in ``within``, when given) where the same words stand with more of them (a
    phrase may stand twice); the marks taken stay in ``within`` too."""
    head, tail = edge_marks(query)
    if not head and not tail:
        return passage
    wanted = len(head) + len(tail)
    document = passage.document
    bounds = normalized_region(document, within)
    marked, held = _edged(passage, head, tail, bounds)
    target = needle(query)
    if held == wanted or normalize(document.text[passage.start : passage.end]) != target:
        return marked
    for hit in ExactMatcher().find(target, document, within):
        other, count = _edged(replace(passage, start=hit.start, end=hit.end), head, tail, bounds)
        if count > held:
            marked, held = other, count
            if held == wanted:
                break
    return marked


def _edged(passage: Passage, head: str, tail: str, bounds: tuple[int, int]) -> tuple[Passage, int]:
    """``passage`` grown over the marks of :func:`~citecheck.matchers.needle.marked_span`, and
    how many characters of them it took."""
    start, end, took = marked_span(passage.document, passage.start, passage.end, head, tail, bounds)
    return (replace(passage, start=start, end=end) if took else passage), took


# -- the matcher -------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class BM25Matcher:
    """A :class:`~citecheck.protocols.Matcher` that searches a document with
    :class:`WindowSearch`: BM25 ranks windows sized to the query, and the query is aligned
    around the best ``candidates`` of them (grown as the quote locator grows them, so a passage
    longer than a window is found whole).

    Useful for long documents and long quotes, where aligning against the whole text is slow.
    Passages below ``threshold`` similarity are not reported.
    """

    engine: str = "bm25s"
    k1: float = 1.5
    b: float = 0.4
    threshold: float = WORDS_VERIFIED
    candidates: int = 3
    window_size: int | None = None
    _searches: OrderedDict[tuple[Document, int, int, int], WindowSearch] = field(
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
        passages = self._search(document, region, size).search(target, tokens)
        if not passages or passages[0].similarity < self.threshold:
            return []
        best = with_marks(query, passages[0], within)
        scores = {"bm25": best.bm25_score, "fuzzy": best.similarity}
        return [
            document.evidence(best.start, best.end, round(best.similarity, 4), self.name, scores)
        ]

    def _search(self, document: Document, region: Span, size: int) -> WindowSearch:
        """The search over a document region, kept for the last few regions asked about."""
        key = (document, region.start, region.end, size)
        if key in self._searches:
            self._searches.move_to_end(key)
            return self._searches[key]
        self._searches[key] = WindowSearch(
            [document],
            size,
            int(size * 0.3),
            within=region,
            engine=self.engine,
            k1=self.k1,
            b=self.b,
            options=SearchOptions(candidates=self.candidates),
            method=self.name,
        )
        if len(self._searches) > _KEPT_INDEXES:
            self._searches.popitem(last=False)
        return self._searches[key]
