"""Locating quotes in a corpus with no location given: BM25 over windows, then alignment.

For each quote: search the corpus with :class:`~citecheck.matchers.bm25.WindowSearch` (BM25
ranks every window, the quote is aligned around the best few), keep the most similar passage,
and judge it: similar enough and no change of meaning is VERIFIED. The passage takes the marks
at the quote's ends (a closing bracket, quotation mark or full stop) where the text has them
right there (:func:`~citecheck.matchers.bm25.with_marks`), so a quote that stands in the text
is its own span. Quotes with an ellipsis are located fragment by fragment, in order. Quotes
of stop words only, which rank nothing, must stand verbatim.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, ClassVar, Generic, Literal, TypeVar, Unpack

from citecheck._identity_cache import IdentityCache
from citecheck.documents import Document, Sources, as_documents
from citecheck.documents.files import SourceFiles
from citecheck.documents.foreign import Gathered, adopt
from citecheck.errors import ConfigError, InputError
from citecheck.judging import verdict
from citecheck.judging.guard import leading_denial
from citecheck.language.meaning import differences_at
from citecheck.language.text import NormalizedText, normalize
from citecheck.matchers.bm25 import Passage, SearchOptions, WindowSearch, tokenize, with_marks
from citecheck.matchers.ellipsis import fragment_differences, split_fragments, tight
from citecheck.matchers.exact import ExactMatcher
from citecheck.matchers.needle import needle
from citecheck.matchers.windows import auto_window_size
from citecheck.matchers.word_index import WordIndex
from citecheck.model import Citation, Result, Span, Status
from citecheck.protocols import Embedder
from citecheck.quotes.config import QuoteConfig, QuoteOptions
from citecheck.quotes.inputs import Unreadable
from citecheck.quotes.quote_report import QuoteReport, QuoteRow, quote_metrics

__all__ = ["QuoteLocator", "embedder_for"]

_KEPT_SEARCHES = 2  # indexes a locator keeps, for runs over the same documents
_STOP_WORDS = frozenset(
    "a an the of to in on at for and or but is are was were be been being it its this that these "
    "those with as by from i you he she we they me him her us them my your his our their not no "
    "so if then than there here what which who whom when where why how all any some such only "
    "own same too very can will just do does did has have had should would could may might must "
    "shall".split()
)

Progress = Callable[[int, int], None]
T = TypeVar("T")


@dataclass(slots=True)
class _Outcome:
    status: Status
    reason: str
    piece: Passage | None = None
    differences: list[str] = field(default_factory=list)
    has_ellipsis: bool = False
    share: float | None = None  # of an elided quote's fragments found, when only some are


class QuoteLocator:
    """Locate many quotes in one corpus with one configuration (reuse it across runs): the
    quotes door (``doors`` registry name ``quotes``).

    ``config`` is a :class:`~citecheck.quotes.QuoteConfig`, a mapping or a TOML / YAML / JSON
    file, and keyword ``options`` override it. The windows and their BM25 index are kept
    between runs over the same :class:`~citecheck.Document` objects with the same window size,
    so a batch after the first costs only its quotes: pass the same documents to every run.
    """

    name: ClassVar[str] = "quotes"
    """Its name in the registry's ``doors`` group."""
    options_type: ClassVar[type[QuoteConfig]] = QuoteConfig
    takes: ClassVar[Literal["text", "items"]] = "items"
    item_detail: ClassVar[str | None] = "index"

    def __init__(
        self,
        config: QuoteConfig | Mapping[str, Any] | str | Path | None = None,
        embedder: Embedder | None = None,
        **options: Unpack[QuoteOptions],
    ) -> None:
        self.config = QuoteConfig.merged(config, options)
        self.embedder = embedder if embedder is not None else embedder_for(self.config)
        self._searches: IdentityCache[WindowSearch] = IdentityCache(_KEPT_SEARCHES)
        self._word_indexes: IdentityCache[WordIndex] = IdentityCache(_KEPT_SEARCHES)

    @classmethod
    def from_config(
        cls,
        config: QuoteConfig | Mapping[str, Any] | str | Path | None = None,
        *,
        embedder: Embedder | None = None,
        **options: Unpack[QuoteOptions],
    ) -> QuoteLocator:
        """The door from its options type, a mapping or a file, keyword ``options`` over it:
        as every door is built from its options."""
        return cls(config, embedder, **options)

    def verify(
        self,
        quotes: Sequence[object],
        sources: Sources,
        *,
        progress: Progress | None = None,
    ) -> QuoteReport:
        """Locate every quote in ``sources`` (no location needed): one result per quote, in
        order (:func:`citecheck.verify_quotes`). What was said about the sources (a LangChain
        chunk with no id, pages whose numbering is a guess, a file skipped) is in the report's
        warnings."""
        if isinstance(quotes, str | bytes):
            raise InputError(
                "quotes must be a sequence of quotes, not a single string; wrap it in [...]"
            )
        sources = adopt(sources)
        said = sources.warnings if isinstance(sources, SourceFiles | Gathered) else ()
        return self.run(quotes, list(as_documents(sources).values()), progress, said)

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
        corpus = self._search(documents, *windows) if windows else None
        outcomes: dict[str, _Outcome] = {}
        words = _Lazy(lambda: self._word_index(corpus)) if corpus is not None else None
        results: list[tuple[int, str, _Outcome]] = []
        for index, quote in enumerate(quotes):
            if isinstance(quote, Unreadable):
                outcome = _Outcome(Status.UNCHECKED, f"could not read this row: {quote.reason}")
                results.append((index, "", outcome))
            elif not isinstance(quote, str):
                kind = type(quote).__name__
                hint = " (not valid UTF-8?)" if isinstance(quote, bytes) else ""
                outcome = _Outcome(Status.UNCHECKED, f"not text but {kind}{hint}")
                results.append((index, repr(quote), outcome))
            else:
                if quote not in outcomes:
                    outcomes[quote] = self._locate(quote, corpus, words)
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

    def _search(self, documents: Sequence[Document], size: int, overlap: int) -> WindowSearch:
        """The windows and index for these documents, built or kept from a run over the same
        documents (the same objects) with the same window size and settings."""
        return self._searches.get(
            documents, (size, overlap, self.config), lambda: self._build(documents, size, overlap)
        )

    def _build(self, documents: Sequence[Document], size: int, overlap: int) -> WindowSearch:
        config = self.config
        options = SearchOptions(
            candidates=config.candidates,
            enough=config.match_threshold,
            padding=config.trim_padding,
            neighbours=config.expand_window_neighbors,
            trim=config.trim_spans,
            method=config.trim_method,
            min_fuzzy_ratio=config.min_fuzzy_ratio,
        )
        method = f"bm25+{config.trim_method}" if config.trim_spans else "bm25"
        return WindowSearch(
            documents,
            size,
            overlap,
            engine=config.engine,
            k1=config.bm25_k1,
            b=config.bm25_b,
            options=options,
            method=method,
        )

    # -- one quote --------------------------------------------------------------------------

    def _locate(
        self, quote: str, corpus: WindowSearch | None, words: _Lazy[WordIndex] | None = None
    ) -> _Outcome:
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
            return self._locate_stop_words(quote, target, corpus)
        pieces = corpus.search(target, tokens)
        best = pieces[0] if pieces else None
        if not self.config.trim_spans or (best is not None and _verbatim(quote, best)):
            if self.config.trim_spans and best is not None:
                best = _literally(quote, best) or best
            return self._judge(quote, best, corpus)  # untrimmed: the windows were asked for
        # Exact anywhere beats near somewhere: BM25 and alignment may rank first a near
        # duplicate of the passage (another licence's "program" for "document"), while the
        # quote stands word for word in another source.
        exact = next((p for p in pieces[1:] if _verbatim(quote, p)), None)
        index = words.value if words is not None else self._word_index(corpus)
        exact = exact or _standing(target, index)
        if exact is not None:  # as written there beats normalised ("the.\nthe", not "the. the")
            exact = _literally(quote, exact) or exact
        return self._judge(quote, exact or best, corpus)

    def _word_index(self, corpus: WindowSearch) -> WordIndex:
        """The word-pair index of the corpus's documents, made once for the same documents
        (whatever window size a run cuts them into): it says in
        one lookup which documents can hold a quote word for word (almost always none for a
        quote that is not verbatim, so the exact search costs next to nothing)."""
        documents = corpus.documents
        return self._word_indexes.get(documents, "words", lambda: WordIndex(documents))

    def _judge(self, quote: str, piece: Passage | None, corpus: WindowSearch) -> _Outcome:
        threshold = self.config.match_threshold
        if piece is None:
            return _Outcome(Status.UNSUPPORTED, "no window shares a word with the quote")
        if self.config.trim_spans:
            if not _verbatim(quote, piece):
                piece = _widened(quote, piece, threshold)
            piece = with_marks(quote, piece)
        where = _where(piece)
        if piece.similarity < threshold:
            longest = max((len(d.text) for d in corpus.documents), default=0)
            longer = " (the quote is longer than any document)" if len(quote) > longest else ""
            reason = verdict.closest(where, piece.similarity, threshold) + longer
            return _Outcome(Status.UNSUPPORTED, reason, piece)
        text = piece.document.text
        verbatim = _verbatim(quote, piece)
        differences = (
            []
            if verbatim
            else differences_at(quote, text, piece.start, piece.end, omissions=True, noun="quote")
        )
        differences = differences or list(leading_denial(text, piece.start))
        status = verdict.match_status(differences)
        if status is Status.PARTIAL:
            reason = verdict.changed("quote", where, differences)
            return _Outcome(status, reason, piece, differences)
        reason = verdict.stands("quote", where, piece.similarity, verbatim=verbatim)
        return _Outcome(status, reason, piece)

    def _locate_stop_words(self, quote: str, target: str, corpus: WindowSearch) -> _Outcome:
        """Stop words alone rank nothing; accept only a verbatim occurrence."""
        for document in corpus.documents:
            hits = ExactMatcher().find(target, document)
            if hits:
                piece = Passage(document, hits[0].start, hits[0].end, 1.0, 0.0, 0.0, "exact")
                piece = with_marks(quote, _literally(quote, piece) or piece)
                reason = verdict.stands("quote", _where(piece), 1.0, verbatim=True)
                return _Outcome(Status.VERIFIED, reason, piece)
        return _Outcome(
            Status.UNCHECKED,
            "the quote is made of stop words only: too unspecific to locate by similarity, "
            "and it does not stand verbatim in the corpus",
        )

    def _locate_elided(self, quote: str, fragments: list[str], corpus: WindowSearch) -> _Outcome:
        targets = [needle(f) for f in fragments]
        own = tokenize(targets[0])
        everything = [token for target in targets for token in tokenize(target)]
        firsts = corpus.search(targets[0], own)
        best_chain = self._chain(targets, firsts, corpus)
        if len(best_chain) < len(targets):
            # A generic head ("In the late 19th century, the ...") may stand in many places:
            # look for it again where the words of all the fragments are.
            again = self._chain(targets, corpus.search(targets[0], own, everything), corpus)
            best_chain = max(best_chain, again, key=len)
        if not best_chain:
            outcome = self._judge(quote, firsts[0] if firsts else None, corpus)
            outcome.status = Status.UNSUPPORTED
            outcome.has_ellipsis = True
            return outcome
        joined = with_marks(quote, _join(best_chain))
        if len(best_chain) < len(targets):
            found, total = len(best_chain), len(targets)
            reason = verdict.fragments_partial("quote", found, total, _where(joined))
            return _Outcome(Status.PARTIAL, reason, joined, has_ellipsis=True, share=found / total)
        document = joined.document
        places = [
            (p.start, p.end, _verbatim(fragment, p))
            for fragment, p in zip(fragments, best_chain, strict=True)
        ]
        differences = list(fragment_differences(fragments, places, document, quoted=True))
        differences = differences or list(leading_denial(document.text, joined.start))
        if differences:
            reason = verdict.changed("elided quote", _where(joined), differences)
            return _Outcome(Status.PARTIAL, reason, joined, differences, True)
        reason = verdict.stands(
            f"elided quote (all {len(targets)} fragments, in order)",
            _where(joined),
            joined.similarity,
            verbatim=all(verbatim for _, _, verbatim in places),
        )
        return _Outcome(Status.VERIFIED, reason, joined, has_ellipsis=True)

    def _chain(
        self, targets: list[str], firsts: list[Passage], corpus: WindowSearch
    ) -> list[Passage]:
        """The longest run of fragments found in order after one of the ``firsts``; of the
        complete ones, the one that matches best, then the shortest (a head that also stands,
        or nearly, earlier in the document is the one just before the tail)."""
        threshold = self.config.match_threshold
        best: list[Passage] = []
        complete: list[list[Passage]] = []
        for first in firsts:
            if first.similarity < threshold:
                continue
            chain = [first]
            for target in targets[1:]:
                following = self._following(target, chain[-1], corpus)
                if following is None or following.similarity < threshold:
                    break
                chain.append(following)
            if len(chain) > len(best):
                best = chain
            if len(chain) == len(targets):
                complete.append(chain)
                if tight([(p.start, p.end, p.similarity >= 1.0) for p in chain]):
                    break  # every fragment verbatim, right after the one before: none better
        if not complete:
            return best
        return max(complete, key=lambda c: (_join(c).similarity, c[0].start - c[-1].end))

    def _following(self, target: str, previous: Passage, corpus: WindowSearch) -> Passage | None:
        """The next fragment of an elided quote: after ``previous``, and no further than
        ``ellipsis_max_gap`` window steps after it (anywhere later in its document when
        that is ``None``)."""
        document = previous.document
        gap = self.config.ellipsis_max_gap
        gap_limit = None if gap is None else (gap + 1) * corpus.step
        limit = len(document.text)
        if gap_limit is not None:
            limit = min(limit, previous.end + gap_limit + 2 * len(target))
        found = corpus.align(target, document, Span(previous.end, limit))
        for _ in range(_EARLIER_LOOKS):  # the same words earlier: the nearest place is meant
            if found is None or found.start - previous.end < len(target):
                break
            earlier = corpus.align(target, document, Span(previous.end, found.start))
            if earlier is None or earlier.score < found.score:
                break
            found = earlier
        if found is None or (gap_limit is not None and found.start - previous.end > gap_limit):
            return None
        return replace(previous, start=found.start, end=found.end, similarity=found.score)

    # -- rows -------------------------------------------------------------------------------

    def _result(
        self,
        index: int,
        quote: str,
        outcome: _Outcome,
        cosine: float | None,
        corpus: WindowSearch | None,
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
            "match_ratio": round(piece.similarity, 4),
        }
        if cosine is not None:
            scores["cosine_similarity"] = round(cosine, 4)
        evidence = document.evidence(
            piece.start,
            piece.end,
            round(piece.similarity, 4),
            piece.method,
            scores,
            context=self.config.context_chars,
        )
        offset = corpus.offsets[document.id]
        details.update(global_start=offset + piece.start, global_end=offset + piece.end)
        citation = Citation(document.id, excerpt=quote, syntax="quote")
        score = outcome.share if outcome.share is not None else piece.similarity
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


def embedder_for(config: QuoteConfig) -> Embedder | None:
    """The model ``config.embedding_model`` names, not yet loaded (``None`` when it names
    none): all-MiniLM-L6-v2 as its int8 ONNX build when the ``onnx-minilm`` extra is installed,
    else on sentence-transformers (:func:`~citecheck.embedders.named.model_embedder`). Without
    either this fails now, before any quote is located, with
    :class:`~citecheck.errors.MissingDependencyError`."""
    if config.embedding_model is None:
        return None
    from citecheck.embedders.named import model_embedder

    return model_embedder(config.embedding_model)


def _embedder_name(embedder: Embedder) -> str:
    """How the methods text names an embedder: its model's name when it says one (as
    sentence-transformers and LangChain embedders do), else its class."""
    for attribute in ("model_name", "name", "model"):
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


class _Lazy(Generic[T]):
    """A value made on first use and kept: the corpus's word index, for one run of quotes."""

    def __init__(self, make: Callable[[], T]) -> None:
        self._make: Callable[[], T] | None = make
        self._value: T | None = None

    @property
    def value(self) -> T:
        if self._make is not None:
            self._value, self._make = self._make(), None
        assert self._value is not None
        return self._value


_EDGE_WORDS = 2
"""Words of a quote's head and tail looked for just outside a passage that lacks them."""


def _widened(quote: str, piece: Passage, threshold: float) -> Passage:
    """``piece`` grown to hold the quote's first and last few words where they stand just
    outside it (within the quote's length): a quote with a word left out aligns best with a
    passage that stops before it ("The FSO Car Factory was" for "The FSO Car Factory was in
    1951"), and a partial verdict must show the whole passage it came from, so that its reason
    names the word left out ("established"), not the words cut off. The grown passage is kept
    when it is about as similar to the quote (within :data:`_WIDER`) and still similar enough
    to be located (``threshold``) if the first one was."""
    words = _QUOTE_WORD.findall(normalize(quote))
    if len(words) < 2 * _EDGE_WORDS:
        return piece
    text = piece.document.text
    reach = len(quote)
    start, end = piece.start, piece.end
    held = normalize(text[start:end])
    # the edge's last (first) two words, else its last (first) word alone: the word left out
    # may be the second or the one before the last ("Так наступать" for "Так нелепо наступать")
    for size in range(_EDGE_WORDS, 0, -1):
        tail = " ".join(words[-size:])
        if tail in held if size > 1 else _word_at(held, tail, end=True):
            break
        after = NormalizedText.of(text[end : end + reach])
        at = _word_find(after.text, tail)
        if at != -1:
            end += after.to_original(at, at + len(tail))[1]
            break
    for size in range(_EDGE_WORDS, 0, -1):
        head = " ".join(words[:size])
        if head in held if size > 1 else _word_at(held, head, end=False):
            break
        low = max(0, start - reach)
        before = NormalizedText.of(text[low:start])
        at = _word_find(before.text, head, last=True)
        if at != -1:
            start = low + before.to_original(at, at + len(head))[0]
            break
    if (start, end) == (piece.start, piece.end):
        return piece
    from rapidfuzz import fuzz

    grown = normalize(text[start:end])
    similarity = fuzz.ratio(normalize(quote), grown) / 100
    if similarity < threshold <= piece.similarity:
        return piece
    if similarity < piece.similarity - _WIDER and not _one_left_out(words, grown):
        return piece  # the words outside belong to another sentence: keep the tighter span
    return replace(piece, start=start, end=end, similarity=similarity)


def _word_at(held: str, word: str, *, end: bool) -> bool:
    """Whether the normalised passage ``held`` begins (or, with ``end``, ends) with ``word``:
    one word is too common to be looked for anywhere in it ("в", "и")."""
    words = _QUOTE_WORD.findall(held)
    return bool(words) and words[-1 if end else 0] == word


def _one_left_out(words: list[str], passage: str) -> bool:
    """Whether ``passage`` holds the quote's ``words`` in order with one or two words more
    in one place: the quote left those out (in a short quote one word is much of its length,
    so the similarity alone would keep the span that stops before it)."""
    from rapidfuzz.distance import Levenshtein

    steps = Levenshtein.opcodes(words, _QUOTE_WORD.findall(passage))
    changed = [op for op in steps if op.tag != "equal"]
    return (
        len(changed) == 1
        and changed[0].tag == "insert"
        and changed[0].dest_end - changed[0].dest_start <= 2
    )


_QUOTE_WORD = re.compile(r"\w+")
_WIDER = 0.05
"""How much less similar to the quote a grown passage may be than the one it grew from."""


def _word_find(text: str, words: str, *, last: bool = False) -> int:
    """Where ``words`` (normalised, one space apart) stand in the normalised ``text`` as
    whole words, first (or last) place; -1 where they do not."""
    at = text.rfind(words) if last else text.find(words)
    while at != -1:
        stop = at + len(words)
        if (at == 0 or not text[at - 1].isalnum()) and (
            stop == len(text) or not text[stop].isalnum()
        ):
            return at
        at = text.rfind(words, 0, at) if last else text.find(words, at + 1)
    return -1


def _standing(target: str, index: WordIndex) -> Passage | None:
    """Where ``target`` stands verbatim (after normalisation) in the documents of ``index``,
    first document first; ``None`` when it stands nowhere. The index's word pairs rule out
    every document that cannot hold it before any text is compared."""
    matcher = ExactMatcher()
    for document in index.holding(target):
        hits = matcher.find(target, document)
        if hits:
            return Passage(document, hits[0].start, hits[0].end, 1.0, 0.0, 0.0, "exact")
    return None


def _literally(quote: str, piece: Passage) -> Passage | None:
    """Where ``quote`` stands character for character in the piece's document, when ``piece``
    holds it only after normalisation (a curly quotation mark for a straight one): that place
    beats the normalised one. ``None`` when the piece is the quote itself or the quote stands
    nowhere there as written."""
    wanted = quote.strip()
    marked = with_marks(quote, piece)
    if not wanted or piece.document.text[marked.start : marked.end] == wanted:
        return None
    at = _word_find(piece.document.text, wanted)
    return (
        None if at == -1 else Passage(piece.document, at, at + len(wanted), 1.0, 0.0, 0.0, "exact")
    )


def _verbatim(quote: str, piece: Passage) -> bool:
    """Whether the passage is the quote itself, after normalisation and but for the
    punctuation at its ends, which a match never holds (a quote's closing full stop). A ratio
    of 100 % says only that the quote aligns in full: "eine" aligns in full inside "keine"."""
    passage = normalize(piece.document.text[piece.start : piece.end])
    return passage.strip(_EDGE_MARKS) == normalize(quote).strip(_EDGE_MARKS)


_EDGE_MARKS = " \t\n.,;:!?()[]\"'\u201c\u201d\u2018\u2019\u00ab\u00bb\u201e\u2026"
"""Punctuation at a quote's ends that says nothing: never a sign or a minus."""


def _where(piece: Passage) -> str:
    """Where a passage stands, as every door says it."""
    return verdict.located(piece.document.evidence(piece.start, piece.end, 0.0, "", context=0))


_EARLIER_LOOKS = 3
"""How many times the next fragment of an elided quote is looked for again before the place
found, where a repeated passage holds it twice."""


def _join(chain: list[Passage]) -> Passage:
    first, last = chain[0], chain[-1]
    weights = [p.end - p.start for p in chain]
    similarity = sum(p.similarity * w for p, w in zip(chain, weights, strict=True))
    return replace(first, end=last.end, similarity=similarity / max(1, sum(weights)))


def _window_settings(quotes: Sequence[str], config: QuoteConfig) -> tuple[int, int]:
    """The window size and overlap for ``quotes``: as configured, or 1.1 × the longest quote
    (capped) overlapping by 30 %."""
    size = config.window_size or auto_window_size(quotes, config.max_window_size)
    overlap = config.overlap if config.overlap is not None else int(size * 0.3)
    if overlap >= size:
        raise ConfigError(f"overlap ({overlap}) must be smaller than the window ({size})")
    return size, overlap
