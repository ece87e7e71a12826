"""Locating quotes in a corpus with no location given: BM25 over windows, then alignment.

For each quote: rank every window with BM25, align the quote inside the best few (each grown
by the quote's length, so a quote longer than a window is aligned whole, and grown again by
neighbouring windows when the match runs into an edge), keep the most similar passage, and
judge it: similar enough and no change of meaning is VERIFIED. Quotes with an ellipsis are
located fragment by fragment, in order.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from citecheck import verdict
from citecheck._identity_cache import IdentityCache
from citecheck.alignment import Alignment, align, widen_to_words
from citecheck.documents import Document
from citecheck.ellipsis import fragment_differences, split_fragments
from citecheck.errors import ConfigError
from citecheck.matchers._needle import needle
from citecheck.matchers.bm25 import BM25Index, tokenize
from citecheck.matchers.exact import ExactMatcher
from citecheck.meaning import differences_at
from citecheck.model import Citation, Result, Span, Status
from citecheck.protocols import Embedder
from citecheck.quotes.config import QuoteConfig
from citecheck.quotes.report import QuoteReport, QuoteRow, quote_metrics
from citecheck.text import normalize
from citecheck.windows import Window, auto_window_size, document_offsets, make_windows

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

    from citecheck.embedders import SentenceTransformerEmbedder

__all__ = ["QuoteLocator", "embedder_for"]

_EPSILON = 0.01  # keeps top1 / (top2 + ε) finite when no other window shares a word
_EDGE = 3  # a match within this many characters of its region's edge may be cut off
_KEPT_CORPORA = 2  # indexes a locator keeps, for runs over the same documents
_RUNNERS_UP = 8  # more windows ranked than aligned: the best one apart from the top is in them
_WORD = re.compile(r"\w+")
_STOP_WORDS = frozenset(
    "a an the of to in on at for and or but is are was were be been being it its this that these "
    "those with as by from i you he she we they me him her us them my your his our their not no "
    "so if then than there here what which who whom when where why how all any some such only "
    "own same too very can will just do does did has have had should would could may might must "
    "shall".split()
)

Progress = Callable[[int, int], None]


@dataclass(frozen=True, slots=True)
class _Piece:
    """One located stretch: document, original offsets, similarity and BM25 evidence."""

    document: Document
    start: int
    end: int
    ratio: float
    bm25_score: float
    bm25_ratio: float
    method: str


@dataclass(slots=True)
class _Outcome:
    status: Status
    reason: str
    piece: _Piece | None = None
    differences: list[str] = field(default_factory=list)
    has_ellipsis: bool = False
    share: float | None = None  # of an elided quote's fragments found, when only some are


class QuoteLocator:
    """Locate many quotes in one corpus with one configuration (reuse it across runs).

    The windows and their BM25 index are kept between runs over the same
    :class:`~citecheck.Document` objects with the same window size, so a batch after the
    first costs only its quotes: pass the same documents to every run.
    """

    def __init__(self, config: QuoteConfig | None = None, embedder: Embedder | None = None):
        self.config = config or QuoteConfig()
        self.embedder = embedder if embedder is not None else embedder_for(self.config)
        self._corpora: IdentityCache[_Corpus] = IdentityCache(_KEPT_CORPORA)

    def run(
        self,
        quotes: Sequence[object],
        documents: Sequence[Document],
        progress: Progress | None = None,
        warnings: Sequence[str] = (),
    ) -> QuoteReport:
        """One row per quote, in order; bad quotes get a row that says what is wrong."""
        texts = [q for q in quotes if isinstance(q, str) and q.strip()]
        windows = _window_settings(texts, self.config) if texts else None
        corpus = self._corpus(documents, *windows) if windows else None
        outcomes: dict[str, _Outcome] = {}
        results: list[tuple[int, str, _Outcome]] = []
        for index, quote in enumerate(quotes):
            if not isinstance(quote, str):
                kind = type(quote).__name__
                hint = " (not valid UTF-8?)" if isinstance(quote, bytes) else ""
                outcome = _Outcome(Status.UNCHECKED, f"not text but {kind}{hint}")
                results.append((index, repr(quote), outcome))
            else:
                if quote not in outcomes:
                    outcomes[quote] = self._locate(quote, corpus)
                results.append((index, quote, outcomes[quote]))
            if progress is not None:
                progress(index + 1, len(quotes))
        cosines = self._cosines([(q, o) for _, q, o in results])
        quote_results = tuple(
            self._result(index, quote, outcome, cosines.get((quote, _span_text(outcome))), corpus)
            for index, quote, outcome in results
        )
        rows = [QuoteRow.from_result(r) for r in quote_results]
        run = {
            "window_size": windows[0] if windows else None,
            "overlap": windows[1] if windows else None,
            "n_documents": len(documents),
            "embedding_model": None if self.embedder is None else _embedder_name(self.embedder),
        }
        return QuoteReport(
            quote_results,
            tuple(warnings),
            kind="quotes",
            metadata={
                "config": self.config.to_dict(),
                "run": run,
                "metrics": quote_metrics(rows, self.config),
            },
        )

    def _corpus(self, documents: Sequence[Document], size: int, overlap: int) -> _Corpus:
        """The windows and index for these documents, built or kept from a run over the same
        documents (the same objects) with the same window size and settings."""
        return self._corpora.get(
            documents,
            (size, overlap, self.config),
            lambda: _Corpus.build(documents, size, overlap, self.config),
        )

    # -- one quote --------------------------------------------------------------------------

    def _locate(self, quote: str, corpus: _Corpus | None) -> _Outcome:
        if not quote.strip():
            return _Outcome(Status.UNCHECKED, "empty quote: nothing to locate")
        if corpus is None or not corpus.windows:
            return _Outcome(Status.UNCHECKED, "the corpus is empty: nothing to search")
        fragments = split_fragments(quote)
        if not fragments:
            return _Outcome(Status.UNCHECKED, "the quote is only an ellipsis: nothing to locate")
        if len(fragments) > 1:
            return self._locate_elided(quote, fragments, corpus)
        target = needle(quote)
        tokens = tokenize(target)
        if not tokens or all(t in _STOP_WORDS for t in tokens):
            return self._locate_stop_words(target, corpus)
        piece = corpus.best_piece(target, tokens)
        return self._judge(quote, piece, corpus)

    def _judge(self, quote: str, piece: _Piece | None, corpus: _Corpus) -> _Outcome:
        threshold = self.config.match_threshold
        if piece is None:
            return _Outcome(Status.UNSUPPORTED, "no window shares a word with the quote")
        where = _where(piece)
        if piece.ratio < threshold:
            longer = (
                " (the quote is longer than any document)" if len(quote) > corpus.longest else ""
            )
            reason = verdict.closest(where, piece.ratio, threshold) + longer
            return _Outcome(Status.UNSUPPORTED, reason, piece)
        text = piece.document.text
        verbatim = _verbatim(quote, piece)
        differences = (
            []
            if verbatim
            else differences_at(quote, text, piece.start, piece.end, omissions=True, noun="quote")
        )
        status = verdict.match_status(differences)
        if status is Status.PARTIAL:
            reason = verdict.changed("quote", where, differences)
            return _Outcome(status, reason, piece, differences)
        reason = verdict.stands("quote", where, piece.ratio, verbatim=verbatim)
        return _Outcome(status, reason, piece)

    def _locate_stop_words(self, target: str, corpus: _Corpus) -> _Outcome:
        """Stop words alone rank nothing; accept only a verbatim occurrence."""
        for document in corpus.documents:
            hits = ExactMatcher().find(target, document)
            if hits:
                piece = _Piece(document, hits[0].start, hits[0].end, 1.0, 0.0, 0.0, "exact")
                reason = verdict.stands("quote", _where(piece), 1.0, verbatim=True)
                return _Outcome(Status.VERIFIED, reason, piece)
        return _Outcome(
            Status.UNCHECKED,
            "the quote is made of stop words only: too unspecific to locate by similarity, "
            "and it does not stand verbatim in the corpus",
        )

    def _locate_elided(self, quote: str, fragments: list[str], corpus: _Corpus) -> _Outcome:
        targets = [needle(f) for f in fragments]
        own = tokenize(targets[0])
        everything = [token for target in targets for token in tokenize(target)]
        firsts = corpus.pieces(targets[0], own)
        best_chain = self._chain(targets, firsts, corpus)
        if len(best_chain) < len(targets):
            # A generic head ("In the late 19th century, the ...") may stand in many places:
            # look for it again where the words of all the fragments are.
            again = self._chain(targets, corpus.pieces(targets[0], own, everything), corpus)
            best_chain = max(best_chain, again, key=len)
        if not best_chain:
            outcome = self._judge(quote, firsts[0] if firsts else None, corpus)
            outcome.status = Status.UNSUPPORTED
            outcome.has_ellipsis = True
            return outcome
        joined = _join(best_chain)
        if len(best_chain) < len(targets):
            found, total = len(best_chain), len(targets)
            reason = verdict.fragments_partial("quote", found, total, f"from {_where(joined)}")
            return _Outcome(Status.PARTIAL, reason, joined, has_ellipsis=True, share=found / total)
        document = joined.document
        places = [
            (p.start, p.end, _verbatim(fragment, p))
            for fragment, p in zip(fragments, best_chain, strict=True)
        ]
        differences = list(fragment_differences(fragments, places, document, quoted=True))
        if differences:
            reason = verdict.changed("elided quote", _where(joined), differences)
            return _Outcome(Status.PARTIAL, reason, joined, differences, True)
        reason = verdict.stands(
            f"elided quote (all {len(targets)} fragments, in order)",
            _where(joined),
            joined.ratio,
            verbatim=all(verbatim for _, _, verbatim in places),
        )
        return _Outcome(Status.VERIFIED, reason, joined, has_ellipsis=True)

    def _chain(self, targets: list[str], firsts: list[_Piece], corpus: _Corpus) -> list[_Piece]:
        """The longest run of fragments found in order after one of the ``firsts``."""
        threshold = self.config.match_threshold
        best: list[_Piece] = []
        for first in firsts:
            if first.ratio < threshold:
                continue
            chain = [first]
            for target in targets[1:]:
                following = corpus.following(target, chain[-1])
                if following is None or following.ratio < threshold:
                    break
                chain.append(following)
            if len(chain) > len(best):
                best = chain
            if len(chain) == len(targets):
                break
        return best

    # -- rows -------------------------------------------------------------------------------

    def _result(
        self,
        index: int,
        quote: str,
        outcome: _Outcome,
        cosine: float | None,
        corpus: _Corpus | None,
    ) -> Result:
        """The result of one quote: the verdict, and the located passage as evidence with its
        BM25 score and ratio, match ratio and cosine."""
        piece = outcome.piece
        details: dict[str, object] = {"index": index, "has_ellipsis": outcome.has_ellipsis}
        if piece is None or corpus is None:
            citation = Citation("", excerpt=quote, syntax="quote")
            return verdict.result(citation, outcome.status, outcome.reason, details=details)
        document = piece.document
        scores = {
            "bm25_score": round(piece.bm25_score, 4),
            "bm25_ratio": round(piece.bm25_ratio, 4),
            "match_ratio": round(piece.ratio, 4),
        }
        if cosine is not None:
            scores["cosine_similarity"] = round(cosine, 4)
        evidence = document.evidence(
            piece.start,
            piece.end,
            round(piece.ratio, 4),
            piece.method,
            scores,
            context=self.config.context_chars,
        )
        offset = corpus.offsets[document.id]
        details.update(global_start=offset + piece.start, global_end=offset + piece.end)
        citation = Citation(document.id, excerpt=quote, syntax="quote")
        score = outcome.share if outcome.share is not None else piece.ratio
        return verdict.result(
            citation, outcome.status, outcome.reason, (evidence,), score=score, details=details
        )

    def _cosines(self, pairs: list[tuple[str, _Outcome]]) -> dict[tuple[str, str], float]:
        """Cosine of quote and located span for every distinct pair, embedded in two batches."""
        if self.embedder is None:
            return {}
        wanted = sorted({(q, s) for q, o in pairs if (s := _span_text(o))})
        if not wanted:
            return {}
        quote_vectors = self.embedder.embed_documents([q for q, _ in wanted])
        span_vectors = self.embedder.embed_documents([s for _, s in wanted])
        return {
            pair: _cosine(a, b)
            for pair, a, b in zip(wanted, quote_vectors, span_vectors, strict=True)
        }


def embedder_for(config: QuoteConfig) -> SentenceTransformerEmbedder | None:
    """The sentence-transformers model ``config.embedding_model`` names, not yet loaded
    (``None`` when it names none). Without the ``embeddings`` extra this fails now, before any
    quote is located, with :class:`~citecheck.errors.MissingDependencyError`."""
    if config.embedding_model is None:
        return None
    from citecheck.embedders import SentenceTransformerEmbedder

    SentenceTransformerEmbedder.check_installed()
    return SentenceTransformerEmbedder(config.embedding_model)


def _embedder_name(embedder: Embedder) -> str:
    """How the methods text names an embedder: its model's name when it says one (as
    sentence-transformers and LangChain embedders do), else its class."""
    for attribute in ("model_name", "model"):
        name = getattr(embedder, attribute, None)
        if isinstance(name, str) and name:
            return name
    return type(embedder).__name__


def _span_text(outcome: _Outcome) -> str:
    piece = outcome.piece
    return "" if piece is None else piece.document.text[piece.start : piece.end]


def _cosine(a: Sequence[float], b: Sequence[float]) -> float:
    dot = sum(x * y for x, y in zip(a, b, strict=True))
    norm = math.sqrt(sum(x * x for x in a)) * math.sqrt(sum(y * y for y in b))
    return dot / norm if norm else 0.0


def _verbatim(quote: str, piece: _Piece) -> bool:
    """Whether the passage is the quote itself, after normalisation and but for the
    punctuation at its ends, which a match never holds (a quote's closing full stop). A ratio
    of 100 % says only that the quote aligns in full: "eine" aligns in full inside "keine"."""
    passage = normalize(piece.document.text[piece.start : piece.end])
    return passage.strip(_EDGE_MARKS) == normalize(quote).strip(_EDGE_MARKS)


_EDGE_MARKS = " \t\n.,;:!?()[]\"'\u201c\u201d\u2018\u2019\u00ab\u00bb\u201e\u2026"
"""Punctuation at a quote's ends that says nothing: never a sign or a minus."""


def _where(piece: _Piece) -> str:
    document = piece.document
    page = document.page_at(piece.start)
    place = f"p. {page}" if page is not None else f"line {document.line_at(piece.start)}"
    return f"in {document.id!r} ({place})"


def _join(chain: list[_Piece]) -> _Piece:
    first, last = chain[0], chain[-1]
    weights = [p.end - p.start for p in chain]
    ratio = sum(p.ratio * w for p, w in zip(chain, weights, strict=True)) / max(1, sum(weights))
    return _Piece(
        first.document, first.start, last.end, ratio, first.bm25_score, first.bm25_ratio,
        first.method,
    )  # fmt: skip


@dataclass(slots=True)
class _Corpus:
    """The windows, their BM25 index and the settings that locate pieces in them."""

    documents: list[Document]
    windows: list[Window]
    index: BM25Index
    config: QuoteConfig
    step: int
    offsets: dict[str, int]
    longest: int

    @classmethod
    def build(
        cls, documents: Sequence[Document], size: int, overlap: int, config: QuoteConfig
    ) -> _Corpus:
        documents = list(documents)
        windows = make_windows(documents, size, overlap)
        index = BM25Index(windows, engine=config.engine, k1=config.bm25_k1, b=config.bm25_b)
        offsets = dict(zip((d.id for d in documents), document_offsets(documents), strict=True))
        longest = max((len(d.text) for d in documents), default=0)
        return cls(documents, windows, index, config, size - overlap, offsets, longest)

    def best_piece(self, target: str, tokens: list[str]) -> _Piece | None:
        pieces = self.pieces(target, tokens)
        return pieces[0] if pieces else None

    def pieces(
        self, target: str, tokens: list[str], ranking: list[str] | None = None
    ) -> list[_Piece]:
        """The passages aligned in the top BM25 windows, most similar first. ``ranking``
        tokens, when given, rank the windows instead of the target's own (an elided quote's
        first fragment is found where all its fragments' words are)."""
        scores = self.index.scores(ranking or tokens)
        ranked = _best_first(scores, self.config.candidates * 4 + _RUNNERS_UP)
        if not len(ranked) or scores[ranked[0]] <= 0:
            return []
        top = self.windows[int(ranked[0])]
        runner_up = _best_apart(scores, ranked, self.windows, top)
        if runner_up is None and len(ranked) < len(scores):  # every window ranked overlaps it
            runner_up = _best_apart(scores, _best_first(scores, len(scores)), self.windows, top)
        bm25_ratio = float(scores[ranked[0]]) / ((runner_up or 0.0) + _EPSILON)
        pieces: list[_Piece] = []
        covered: list[tuple[Document, int, int]] = []
        for i in ranked[: self.config.candidates * 4]:
            window = self.windows[int(i)]
            if scores[i] <= 0 or len(pieces) >= self.config.candidates:
                break
            if any(
                d is window.document and a < window.end and window.start < b for d, a, b in covered
            ):
                continue  # this passage was aligned already, in a region grown around it
            piece, region = self._align_in(target, window, float(scores[i]), bm25_ratio)
            covered.append((window.document, *region))
            pieces.append(piece)
            if piece.ratio >= self.config.match_threshold:
                break  # the best window holds it; the rest would only cost time
        return sorted(pieces, key=lambda p: (-p.ratio, -p.bm25_score))

    def following(self, target: str, previous: _Piece) -> _Piece | None:
        """The next fragment of an elided quote: after ``previous``, within the gap limit."""
        document = previous.document
        limit = len(document.text)
        if self.config.ellipsis_max_gap is not None:
            reach = (self.config.ellipsis_max_gap + 1) * self.step + 2 * len(target)
            limit = min(limit, previous.end + reach)
        region = Span(previous.end, limit)
        found = self._trim(target, document, region)
        if found is None:
            return None
        alignment, start, end = found
        gap_limit = (
            None
            if self.config.ellipsis_max_gap is None
            else (self.config.ellipsis_max_gap + 1) * self.step
        )
        if gap_limit is not None and start - previous.end > gap_limit:
            return None
        return _Piece(
            document,
            start,
            end,
            alignment.score,
            previous.bm25_score,
            previous.bm25_ratio,
            previous.method,
        )

    def _align_in(
        self, target: str, window: Window, score: float, bm25_ratio: float
    ) -> tuple[_Piece, tuple[int, int]]:
        """Align ``target`` around ``window`` (grown by the target's length, so a quote that
        straddles the window or is longer than it fits whole), growing the region by
        neighbouring windows while the match runs into one of its edges."""
        document = window.document
        length = len(document.text)
        method = "bm25" if not self.config.trim_spans else f"bm25+{self.config.trim_method}"
        if not self.config.trim_spans:
            ratio = _ratio(target, document, window.start, window.end)
            piece = _Piece(document, window.start, window.end, ratio, score, bm25_ratio, method)
            return piece, (window.start, window.end)
        grow = len(target) + self.config.trim_padding
        region = Span(max(0, window.start - grow), min(length, window.end + grow))
        exact = _exact_in(target, document, region)
        if exact is not None:
            return _Piece(document, *exact, 1.0, score, bm25_ratio, method), (
                region.start,
                region.end,
            )
        found = self._trim(target, document, region)
        for _ in range(self.config.expand_window_neighbors):
            if found is None:
                break
            _, start, end = found
            touches_left = start - region.start < _EDGE and region.start > 0
            touches_right = region.end - end < _EDGE and region.end < length
            if not (touches_left or touches_right):
                break
            region = Span(
                max(0, region.start - (self.step if touches_left else 0)),
                min(length, region.end + (self.step if touches_right else 0)),
            )
            found = self._trim(target, document, region)
        if found is None:
            piece = _Piece(document, window.start, window.end, 0.0, score, bm25_ratio, method)
        else:
            alignment, start, end = found
            piece = _Piece(document, start, end, alignment.score, score, bm25_ratio, method)
        return piece, (region.start, region.end)

    def _trim(
        self, target: str, document: Document, region: Span
    ) -> tuple[Alignment, int, int] | None:
        """Align ``target`` in ``region`` with the configured method; original offsets."""
        normalized = document.normalized
        n_start, n_end = widen_to_words(
            normalized.text, *normalized.to_normalized(region.start, region.end)
        )
        haystack = normalized.text[n_start:n_end]
        method = self.config.trim_method
        found = align(target, haystack) if method != "sliding_bm25" else None
        if method == "sliding_bm25" or (
            method == "hybrid" and (found is None or found.score < self.config.min_fuzzy_ratio)
        ):
            sliding = _sliding_words(target, haystack)
            if sliding is not None and (found is None or sliding.score > found.score):
                found = sliding
        if found is None:
            return None
        start, end = normalized.to_original(n_start + found.start, n_start + found.end)
        return found, start, end


def _window_settings(quotes: Sequence[str], config: QuoteConfig) -> tuple[int, int]:
    """The window size and overlap for ``quotes``: as configured, or 1.1 × the longest quote
    (capped) overlapping by 30 %."""
    size = config.window_size or auto_window_size(quotes, config.max_window_size)
    overlap = config.overlap if config.overlap is not None else int(size * 0.3)
    if overlap >= size:
        raise ConfigError(f"overlap ({overlap}) must be smaller than the window ({size})")
    return size, overlap


def _exact_in(target: str, document: Document, region: Span) -> tuple[int, int] | None:
    """Where the normalised target stands verbatim (on word boundaries) in ``region``: the
    common case, settled without fuzzy alignment."""
    hits = ExactMatcher().find(target, document, region)
    return (hits[0].start, hits[0].end) if hits else None


def _best_first(scores: NDArray[np.float64], count: int) -> NDArray[np.intp]:
    """The indices of the ``count`` highest scores, highest first and, among equal scores, the
    later window first (without sorting them all: a corpus has thousands of windows, a quote
    needs a dozen)."""
    import numpy as np

    top = np.arange(len(scores))
    if count < len(scores):
        top = np.sort(np.argpartition(scores, len(scores) - count)[len(scores) - count :])
    return top[np.argsort(scores[top], kind="stable")[::-1]]


def _best_apart(
    scores: NDArray[np.float64], ranked: NDArray[np.intp], windows: list[Window], top: Window
) -> float | None:
    """The best score among ``ranked`` of a window that does not overlap ``top`` (``None``
    when they all do): overlapping windows share the quote's words, so only a window
    elsewhere says whether the best one stands out."""
    for i in ranked[1:]:
        window = windows[int(i)]
        if (
            window.document is not top.document
            or window.end <= top.start
            or window.start >= top.end
        ):
            return float(scores[i])
    return None


def _ratio(target: str, document: Document, start: int, end: int) -> float:
    from rapidfuzz import fuzz

    return fuzz.ratio(target, normalize(document.text[start:end]).strip()) / 100


def _sliding_words(target: str, haystack: str) -> Alignment | None:
    """The run of as many words as the target has that shares the most words with it."""
    from rapidfuzz import fuzz

    wanted = Counter(_WORD.findall(target))
    words = list(_WORD.finditer(haystack))
    n = sum(wanted.values())
    if not words or not n:
        return None
    n = min(n, len(words))
    window = Counter(m.group() for m in words[:n])
    best_shared, best_at = sum((window & wanted).values()), 0
    for i in range(1, len(words) - n + 1):
        window[words[i - 1].group()] -= 1
        window[words[i + n - 1].group()] += 1
        shared = sum((window & wanted).values())
        if shared > best_shared:
            best_shared, best_at = shared, i
    start, end = words[best_at].start(), words[best_at + n - 1].end()
    return Alignment(fuzz.ratio(target, haystack[start:end]) / 100, start, end)
