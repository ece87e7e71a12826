"""Does the cited place support a claim? The semantic step of the verifier, for citations whose
text is a claim rather than a quoted excerpt.

Candidate sentences come from the cited span: the closest by embedding cosine when an embedder
is configured, else the ones sharing the most words with the claim. Without a judge, a
:class:`~citecheck.judging.support_model.SupportModel` turns the best sentence's cosine, the share
of the claim's words standing near it, and any number or negation it does not share into a
probability of support (``model=None`` grades by the bare cosine instead). At or above ``supported``
the claim is supported, at or above ``partial`` partly supported. With a judge (an NLI model, an
LLM), its probability for the best candidates decides instead.

With an embedder, the default judge is citecheck's own
(:class:`~citecheck.judging.support_judge.SupportJudge`, when the ``judge`` extra is installed),
as a second opinion: the signals grade the claim first, and a claim they would verify is read by
the cross-encoder in the window of the cited place that holds its best candidate sentence; the
grade is lowered where the judge reads no support (to partial) or a contradiction (to
unsupported), and never raised. With ``judge_decides=True`` it is a cascade instead: a claim
the signals find clearly unsupported (below ``gate``) never reaches the cross-encoder, and
every other claim's grade is the judge's calibrated probability. A claim or passage the judge
cannot read (another language, a claim too long) is graded by the signals, and the detail
says why.

Whatever decided, the meaning guard (:mod:`citecheck.judging.guard`) has the last word: a claim that
changes a number, a negation or a quantifier of its best sentence is at most partly supported.
The model gives a missing number no weight, because in citation contexts a number often belongs
to another cited work, but a verified claim with the wrong number is the error users least
forgive.

This is the one claim-support engine of citecheck. The verifier grades a claim at its cited
place with :meth:`SupportAssessor.assess`; the record labels of :mod:`citecheck.records.labels` are
a banding of the score :meth:`SupportAssessor.assess_many` gives a claim at its best passage in
a set of documents (with ``model=None``: the bare cosine), capped by the same guard. The lexical
look the labeller takes at an ambiguous claim (:meth:`SupportAssessor.verbatim`,
:func:`word_coverage`) is measured here too, so that one module decides what a passage says
about a claim, and the labeller only decides what to call it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from enum import Enum
from functools import lru_cache
from typing import TYPE_CHECKING, Any, Literal

from citecheck.documents import Document
from citecheck.embedders.scale import embedder_name, on_support_scale
from citecheck.errors import ConfigError
from citecheck.judging import verdict
from citecheck.judging.guard import (
    ABSENT,
    carried_by,
    carried_clauses,
    claim_conflicts,
    claim_language,
    sentence_stems,
)
from citecheck.judging.judges import judge_many
from citecheck.judging.support_judge import (
    FOCUSED_WINDOWS,
    Reading,
    SupportJudge,
    Unread,
    default_judge,
)
from citecheck.judging.support_model import (
    CASCADE_GATE,
    FITTED_SUPPORT_MODEL,
    SupportModel,
    SupportSignals,
    neighbourhood,
    support_signals,
)
from citecheck.judging.thresholds import CONTRADICTION, COSINE_BANDS, JUDGE_BANDS, WORDS_VERIFIED
from citecheck.language.chunking import Chunk, chunk_text
from citecheck.language.lexicon import LANGUAGE_NAMES, guess_language
from citecheck.language.text import WORD, normalize, sentence_spans, uncased
from citecheck.matchers.embedding import EmbeddingMatcher
from citecheck.matchers.fuzzy import FuzzyMatcher
from citecheck.model import Evidence, Span

if TYPE_CHECKING:
    from citecheck.language.tokens import TokenBudget
    from citecheck.protocols import Embedder, Judge

__all__ = [
    "PRESELECT",
    "Assessment",
    "Grade",
    "SupportAssessor",
    "carried_at",
    "conflicts_at",
    "neighbour_conflicts",
    "word_coverage",
]

_CONTENT_WORD = re.compile(r"\w{4,}")
PRESELECT = 16
"""Chunks of a long source embedded for a claim: those holding most of its rarer words
(:mod:`citecheck.matchers.preselect`); a shorter source is embedded whole. On the five claim
sets 12, 16, 24 and 32 grade alike (balanced accuracy within 0.001 of each other,
docs/benchmarks.md); 16 halves the first claim's time against a long source."""
_JUDGE_THRESHOLDS = JUDGE_BANDS  # (supported, partial) of a judge's probability
_COSINE_THRESHOLDS = COSINE_BANDS  # of the bare cosine, with ``model=None``


class Grade(Enum):
    SUPPORTED = "supported"
    PARTIAL = "partial"
    UNSUPPORTED = "unsupported"


@dataclass(frozen=True, slots=True)
class Assessment:
    """The verdict on a claim in one place: its grade, the score behind it, the candidate
    sentences best first, what the reason should say, the signals of the best sentence
    (``None`` when a judge or no embedder decided), and the changes of meaning the meaning
    guard found between the claim and the best sentence."""

    grade: Grade
    score: float
    evidence: tuple[Evidence, ...]
    detail: str
    signals: SupportSignals | None = None
    conflicts: tuple[str, ...] = ()
    contradicted: float | None = None
    """The trained judge's probability that the passage contradicts the claim (``None`` when
    it did not read the claim)."""
    carried: bool = False
    """Whether one sentence of the place carries the claim's words (:func:`carried_at`): the
    verdict then rests on that sentence alone, the first evidence."""


class SupportAssessor:
    """Grades a claim against a span of a document, or at its best passage in a set of
    documents; see the module docstring. ``judge="auto"`` is citecheck's trained judge when an
    embedder is given and the ``judge`` extra is installed, else none. ``gate`` is the
    signals' probability below which a claim is unsupported without asking that judge when
    it decides (``judge_decides=True``).
    ``preselect`` is how many chunks of a long source are embedded for a claim, chosen by its
    words first (``None``: every chunk).
    ``fuzzy_threshold`` is how closely the lexical look (:meth:`verbatim`) must align a claim's
    words with the source."""

    def __init__(
        self,
        embedder: Embedder | None = None,
        judge: Judge | Literal["auto"] | None = "auto",
        *,
        supported: float | None = None,
        partial: float | None = None,
        candidates: int = 3,
        min_chunk_length_chars: int = 20,
        model: SupportModel | None = FITTED_SUPPORT_MODEL,
        gate: float = CASCADE_GATE,
        judge_decides: bool = False,
        preselect: int | None = PRESELECT,
        fuzzy_threshold: float = WORDS_VERIFIED,
    ) -> None:
        if judge == "auto":
            judge = None if embedder is None else default_judge()
        if embedder is None and judge is None:
            raise ConfigError("assessing support needs an embedder, a judge, or both")
        self.model = model
        self.gate = gate
        self.judge_decides = judge_decides
        default_supported, default_partial = (
            (judge.supported, judge.partial)
            if isinstance(judge, SupportJudge) and judge_decides
            else _JUDGE_THRESHOLDS
            if judge is not None and not isinstance(judge, SupportJudge)
            else _COSINE_THRESHOLDS
            if model is None
            else (model.supported, model.partial)
        )
        self.supported = default_supported if supported is None else supported
        self.partial = default_partial if partial is None else partial
        if not -1.0 <= self.partial <= self.supported <= 1.0:
            raise ConfigError(
                f"need -1 <= partial <= supported <= 1, got partial {self.partial}, "
                f"supported {self.supported}"
            )
        if candidates < 1:
            raise ConfigError(f"candidates must be positive, got {candidates}")
        self.judge = judge
        self.preselect = preselect
        self.candidates = candidates
        self.min_chunk_length_chars = min_chunk_length_chars
        self.fuzzy = FuzzyMatcher(fuzzy_threshold)
        self.matcher = None if embedder is None else self._matcher(embedder)

    def _matcher(self, embedder: Embedder, **options: Any) -> EmbeddingMatcher:
        """The matcher that cuts and embeds the documents' chunks: built here only, so that
        the dry run of :meth:`prefetch` cuts exactly the chunks an assessment ranks."""
        return EmbeddingMatcher(
            embedder,
            top_k=self.candidates,
            min_chunk_length_chars=self.min_chunk_length_chars,
            preselect=self.preselect,
            **options,
        )

    def assess(self, claim: str, document: Document, within: Span | None) -> Assessment | None:
        """The grade of ``claim`` in ``within`` (all of ``document`` when ``None``); ``None``
        when that place has no text to compare with. Whatever the score, a claim that changes
        a number, a negation or a quantifier of its best passage is at most partly supported
        (:func:`~citecheck.judging.guard.claim_conflicts`)."""
        found = self._ranked([claim], document, within)[0]
        return self._assessed(claim, found, document, within) if found else None

    def assess_many(
        self, claims: Sequence[str], documents: Sequence[Document]
    ) -> list[Assessment | None]:
        """Each claim graded at its best passage in ``documents``: the one closest to it over
        all of them (by cosine with an embedder; on a tie, the earlier document's), graded and
        guarded as :meth:`assess` grades a claim. Every claim is ``None`` when no document
        holds a word to compare with (:meth:`readable`). A batch of claims is embedded in one
        call, each document's chunks once."""
        best: list[tuple[Document, tuple[Evidence, ...]] | None] = [None] * len(claims)
        readable = self.readable(documents)
        carriers = [_first_carrier(claim, readable) for claim in claims]
        for document in readable:
            for index, found in enumerate(self._ranked(claims, document, None)):
                held = best[index]
                if found and (held is None or _closeness(found[0]) > _closeness(held[1][0])):
                    best[index] = (document, found)
        assessed: list[Assessment | None] = []
        for claim, held, carrier in zip(claims, best, carriers, strict=True):
            if carrier is not None and held is not None:
                document, evidence = carrier
                found = held[1] if held[0] is document else self._ranked([claim], document, None)[0]
                assessed.append(
                    self._carried(claim, evidence, found or (evidence,), document, None)
                )
            else:
                assessed.append(
                    None if held is None else self._assessed(claim, held[1], held[0], None)
                )
        return assessed

    def readable(self, documents: Sequence[Document]) -> list[Document]:
        """The documents with a word in the chunks compared with a claim: a source of nothing
        but Markdown markup or punctuation has no text to support anything (its chunks are
        embedded now, once)."""
        return [d for d in documents if any(WORD.search(c.text) for c in self._chunks_of(d))]

    def verbatim(self, claim: str, documents: Sequence[Document]) -> Evidence | None:
        """The lexical look: where the claim's words stand nearly verbatim (fuzzy alignment at
        ``fuzzy_threshold``) in a readable document, with no change of meaning; the first
        such place, or ``None``. A claim whose vector says less than its words is found here."""
        for document in self.readable(documents):
            found = self.fuzzy.find(claim, document)
            if found and not conflicts_at(claim, found[0], document):
                return found[0]
        return None

    def prefetch(self, claims: Sequence[str], documents: Sequence[Document] = ()) -> None:
        """Embed ``claims``, and the chunks of ``documents``, in one batch ahead of assessing
        them one by one.

        A model embeds one large batch far faster than the same texts a few at a time (its
        batches are full and sorted by length; on a GPU many times faster). Only the
        embedder's cache is filled. The chunks come from a dry run of the matcher's own
        chunking (an embedder that notes the texts it is asked for), never from a second copy
        of it."""
        if self.matcher is not None:
            self.matcher.prefetch([*self._chunk_texts(documents), *map(uncased, claims)])

    def _chunk_texts(self, documents: Sequence[Document]) -> list[str]:
        """The texts the matcher embeds for ``documents``, without embedding them."""
        if not documents or self.matcher is None:
            return []
        noted = _NotedTexts(self.matcher.budget)
        dry_run = self._matcher(noted, cache_documents=0)
        for document in documents:
            dry_run.chunks(document)
        return noted.texts

    def _assessed(
        self,
        claim: str,
        found: tuple[Evidence, ...],
        document: Document,
        within: Span | None,
    ) -> Assessment:
        """The grade of ``claim`` from its candidate passages ``found`` (best first) in
        ``document``, by the judge, the support model or the bare cosine, then guarded."""
        carrier = carried_at(claim, document, within)
        if carrier is not None:
            return self._carried(claim, carrier, found, document, within)
        if isinstance(self.judge, SupportJudge) and self.matcher is not None:
            cascade = self._cascade if self.judge_decides else self._second_opinion
            return _guarded(cascade(claim, found, document, within), claim, document, within)
        if self.judge is not None:
            probabilities = judge_many(self.judge, claim, [e.text for e in found])
            judged = sorted(
                (
                    _with_score(e, p, "judge", {**e.scores, "judge": round(p, 4)})
                    for e, p in zip(found, probabilities, strict=True)
                ),
                key=lambda e: -e.score,
            )
            best = judged[0]
            assessment = Assessment(
                self._grade(best.score),
                best.score,
                tuple(judged),
                f"judged support {best.score:.0%}",
            )
            return _guarded(assessment, claim, document, within)
        return _guarded(self._by_signals(claim, found, document, within), claim, document, within)

    def _carried(
        self,
        claim: str,
        carrier: Evidence,
        found: tuple[Evidence, ...],
        document: Document,
        within: Span | None,
    ) -> Assessment:
        """The grade of a claim that one sentence carries (:func:`carried_at`): supported when
        the meaning guard finds nothing changed against that sentence, whatever the scores and
        the judge would say (the judge is not asked: it can misread a sentence shown to it word
        for word); at most partly supported, with the change named, when it does."""
        first = self._by_signals(claim, found, document, within)
        same = next((e for e in found if e.span == carrier.span), None)
        if same is None:
            near = next(
                (e for e in found if e.start < carrier.end and carrier.start < e.end), found[0]
            )
            scores = {**near.scores, "carried": 1.0}
            carrier = replace(carrier, score=near.score, method=near.method, scores=scores)
        else:
            carrier = same
        evidence = (carrier, *(e for e in found if e.span != carrier.span))
        conflicts = claim_conflicts(claim, carrier.text, carrier.text)
        where = f"its words stand in the sentence {verdict.where_found(carrier)}"
        if not conflicts:
            return Assessment(
                Grade.SUPPORTED, first.score, evidence, where, first.signals, carried=True
            )
        grade = Grade.PARTIAL if first.grade is Grade.SUPPORTED else first.grade
        if grade is Grade.UNSUPPORTED:
            grade = Grade.PARTIAL  # its words stand there: the change is what is wrong
        return Assessment(
            grade,
            first.score,
            evidence,
            f"{where}, but {'; '.join(conflicts)}",
            first.signals,
            conflicts=tuple(conflicts),
            carried=True,
        )

    def _by_signals(
        self,
        claim: str,
        found: tuple[Evidence, ...],
        document: Document,
        within: Span | None,
    ) -> Assessment:
        """The grade of the support model over the best sentence's signals, or of its bare
        cosine (``model=None``), before the meaning guard."""
        best = found[0]
        cosine = self._on_scale(_closeness(best))
        signals = support_signals(claim, Span(best.start, best.end), document.text, cosine, within)
        languages = guess_language(normalize(claim)), guess_language(normalize(best.text))
        if self.model is not None and languages[0] != languages[1]:
            # the claim's words cannot stand in a source in another language: the cosine (on
            # MiniLM's scale) alone grades it, at the bare-cosine bands, as the papers do
            ours, theirs = (LANGUAGE_NAMES.get(code, code) for code in languages)
            detail = (
                f"cosine {cosine:.2f}, graded by the cosine alone (the claim is in {ours}, the "
                f"source in {theirs}: their words cannot be compared)"
            )
            grade = _grade(cosine, *COSINE_BANDS)
            return Assessment(grade, max(0.0, cosine), found, detail, signals)
        if self.model is None:
            assessment = Assessment(
                self._grade(cosine), cosine, found, f"cosine {cosine:.2f}", signals
            )
        else:
            probability = self.model.probability(signals)
            detail = (
                f"cosine {cosine:.2f} with {signals.coverage:.0%} of the claim's words nearby: "
                f"support {probability:.0%}"
            )
            assessment = Assessment(self._grade(probability), probability, found, detail, signals)
        return assessment

    def _on_scale(self, cosine: float) -> float:
        """A cosine of this assessor's embedder on MiniLM's scale, the scale the support
        model was fitted on (:func:`~citecheck.embedders.scale.on_support_scale`)."""
        if self.matcher is None:
            return cosine
        return on_support_scale(cosine, embedder_name(self.matcher.embedder))

    def _cascade(
        self,
        claim: str,
        found: tuple[Evidence, ...],
        document: Document,
        within: Span | None,
    ) -> Assessment:
        """The trained judge's grade of ``claim`` in ``within``, unless the signals find it
        clearly unsupported first or the judge cannot read it (then the signals grade it,
        with the threshold of the support model, and the detail says so)."""
        assert isinstance(self.judge, SupportJudge)
        first = self._by_signals(claim, found, document, within)
        fallback = replace(
            first,
            grade=_grade(first.score, *self._signal_thresholds()),
        )
        if self.model is not None and first.score < self.gate:
            return replace(fallback, detail=f"{first.detail} (clearly too low for the judge)")
        reading = self._read(claim, found, document, within)
        if isinstance(reading, Unread):
            return replace(
                fallback, detail=f"{first.detail} (not read by the judge: {reading.reason})"
            )
        start, end = reading.window
        scores = {
            "judge": round(reading.supported, 4),
            "contradicted": round(reading.contradicted, 4),
            "cosine": round(_closeness(found[0]), 4),
        }
        window = document.evidence(start, end, round(reading.supported, 4), "judge", scores)
        detail = f"judged support {reading.supported:.0%}"
        if reading.contradicted >= CONTRADICTION:
            detail += f", contradiction {reading.contradicted:.0%}"
        if reading.note:
            detail += f" ({reading.note})"
        return Assessment(
            self._grade(reading.supported),
            reading.supported,
            (window, *(e for e in found if (e.start, e.end) != (start, end))),
            detail,
            first.signals,
            contradicted=reading.contradicted,
        )

    def _second_opinion(
        self,
        claim: str,
        found: tuple[Evidence, ...],
        document: Document,
        within: Span | None,
    ) -> Assessment:
        """The signals' grade, lowered by the trained judge: a claim they find supported that
        the judge reads as unsupported (below its ``partial`` bound) is partly supported, and
        unsupported when the judge also reads a contradiction. The judge is asked only where
        its answer can keep a claim from being verified, as in the record labels and the paper
        library: never about a claim the signals grade partial or unsupported (the model's time
        goes where a false pass is at stake), nor about one whose words stand nearly verbatim
        at the place (as :meth:`verbatim` reads them): the small model can misread a sentence
        it is shown word for word. It never raises a grade."""
        assert isinstance(self.judge, SupportJudge)
        first = self._by_signals(claim, found, document, within)
        if first.grade is not Grade.SUPPORTED:
            return first
        stands = self.fuzzy.find(claim, document, within)
        if stands and not conflicts_at(claim, stands[0], document, within):
            return first  # its words stand there: nothing for a judge of paraphrase to doubt
        reading = self._read(claim, found, document, within)
        if isinstance(reading, Unread):
            unread = f"{first.detail} (not read by the judge: {reading.reason})"
            return replace(first, detail=unread)
        said = f"the judge reads support {reading.supported:.0%}"
        windows = f" ({reading.note})" if reading.note else ""
        if reading.supported >= self.judge.partial:
            detail = f"{first.detail}; {said}{windows}"
            return replace(first, detail=detail, contradicted=reading.contradicted)
        contradicted = reading.contradicted >= CONTRADICTION
        if contradicted:
            said += f" and contradiction {reading.contradicted:.0%}"
        grade = Grade.UNSUPPORTED if contradicted else Grade.PARTIAL
        detail = f"{first.detail}, but {said}{windows}"
        return replace(first, grade=grade, detail=detail, contradicted=reading.contradicted)

    def _read(
        self, claim: str, found: tuple[Evidence, ...], document: Document, within: Span | None
    ) -> Reading | Unread:
        """The trained judge's reading of ``claim`` in ``within`` (all of ``document`` when
        ``None``): the window holding the best candidate of ``found`` (:data:`FOCUSED_WINDOWS`),
        in the document's offsets."""
        assert isinstance(self.judge, SupportJudge)
        region = within or Span(0, len(document.text))
        best = found[0]
        reading = self.judge.read(
            claim,
            [document.text[region.start : region.end]],
            focus=[(best.start - region.start, best.end - region.start)],
            max_windows=FOCUSED_WINDOWS,
        )[0]
        if isinstance(reading, Unread):
            return reading
        start, end = reading.window
        return replace(reading, window=(region.start + start, region.start + end))

    def _signal_thresholds(self) -> tuple[float, float]:
        """The (supported, partial) bounds of the signals' own score."""
        if self.model is None:
            return _COSINE_THRESHOLDS
        return self.model.supported, self.model.partial

    def _grade(self, score: float) -> Grade:
        return _grade(score, self.supported, self.partial)

    def _ranked(
        self, claims: Sequence[str], document: Document, within: Span | None
    ) -> list[tuple[Evidence, ...]]:
        """Each claim's candidate passages in ``within`` of ``document``, best first."""
        if self.matcher is not None:
            # a claim is embedded in lower case: its capitals never change a verdict
            ranked = self.matcher.rank_many([uncased(c) for c in claims], document, within)
            return [tuple(found) for found in ranked]
        return [
            _by_shared_words(claim, document, within, self.candidates, self.min_chunk_length_chars)
            for claim in claims
        ]

    def _chunks_of(self, document: Document) -> Sequence[Chunk]:
        if self.matcher is not None:
            return self.matcher.chunks(document)
        return _chunks(document.text, self.min_chunk_length_chars)


def _grade(score: float, supported: float, partial: float) -> Grade:
    if score >= supported:
        return Grade.SUPPORTED
    if score >= partial:
        return Grade.PARTIAL
    return Grade.UNSUPPORTED


def word_coverage(claim: str, passage: str) -> float | None:
    """The share of the claim's words of four letters or more that stand in ``passage``
    (normalised, compared whole); ``None`` when the claim has no such word. The second half of
    the lexical look: a passage holding almost all of a claim's words likely says it."""
    words = set(_CONTENT_WORD.findall(normalize(claim)))
    if not words:
        return None
    present = set(_CONTENT_WORD.findall(normalize(passage)))
    return len(words & present) / len(words)


CARRIER_LENGTH, CARRIER_SLACK = 4, 200
"""The longest sentence that can carry a claim: four times the claim's length and 200
characters; a longer one (a transcript with no full stops) holds too much else."""


def carried_at(claim: str, document: Document, within: Span | None = None) -> Evidence | None:
    """The first sentence of ``document`` (inside ``within``) that carries ``claim``'s words
    (:func:`~citecheck.judging.guard.carries`), as evidence; ``None`` when none does. A claim
    copied from its page, reordered, inflected or with its function words changed is carried;
    a paraphrase in other words is not."""
    clauses = carried_clauses(claim)
    if clauses is None:
        return None
    needed = frozenset().union(*clauses)
    language = claim_language(claim)
    region = within or Span(0, len(document.text))
    longest = CARRIER_LENGTH * len(claim) + CARRIER_SLACK
    for start, end, stems in _sentence_index(document.text, language):
        if end <= region.start or start >= region.end or not needed <= stems.present:
            continue
        if end - start > longest:
            continue  # a run of text with no sentence end says too much to carry one claim
        start, end = max(start, region.start), min(end, region.end)
        if carried_by(clauses, sentence_stems(document.text[start:end], language)):
            return document.evidence(start, end, 1.0, "carried", {"carried": 1.0})
    return None


NEIGHBOUR_SUBJECT = 0.6
"""The share of a claim's content words a sentence next to its passage must hold to speak of
the same subject (:func:`neighbour_conflicts`)."""


def neighbour_conflicts(
    claim: str, document: Document, passage: Span, region: Span
) -> list[tuple[Evidence, list[str]]]:
    """The sentences of ``region`` next to ``passage`` that speak of the claim's subject (they
    hold :data:`NEIGHBOUR_SUBJECT` of its content words) and that the meaning guard finds
    changed against it (a negation, a quantifier, a direction, a name), each with the changes:
    a claim such a sentence negates, reverses or bounds is not supported by the passage beside
    it. What a sentence merely lacks ("no such number") is no change, and neither is another
    number (:data:`_OTHER_NUMBER`)."""
    clauses = carried_clauses(claim) or []
    stems = frozenset().union(*clauses) if clauses else frozenset()
    if not stems:
        return []
    language = claim_language(claim)
    found = []
    for start, end, held in _sentence_index(document.text, language):
        if end <= region.start or start >= region.end:
            continue
        if passage.start <= start and end <= passage.end:
            continue  # the passage itself: its own guard reads it
        if len(stems & held.present) < NEIGHBOUR_SUBJECT * len(stems):
            continue
        start, end = max(start, region.start), min(end, region.end)
        text = document.text[start:end]
        changes = [
            c
            for c in claim_conflicts(claim, text, text)
            if not c.endswith(ABSENT) and not c.startswith(_OTHER_NUMBER)
        ]
        if changes:
            found.append((document.evidence(start, end, 0.0, "neighbour"), changes))
    return found


_OTHER_NUMBER = "the claim has the number"
"""A sentence beside the passage that gives another number usually counts something else
("a group of 40 annotators" beside "annotated by 32 of them"): a number is held to the passage
itself, a negation, a direction, a quantifier or a name to its neighbours too."""


def _first_carrier(claim: str, documents: Sequence[Document]) -> tuple[Document, Evidence] | None:
    for document in documents:
        carrier = carried_at(claim, document)
        if carrier is not None:
            return document, carrier
    return None


@dataclass(frozen=True, slots=True)
class _Stems:
    present: frozenset[str]


@lru_cache(maxsize=64)
def _sentence_index(text: str, language: str) -> tuple[tuple[int, int, _Stems], ...]:
    """Each sentence of a document with the stems of its content words (read for a claim in
    ``language``), kept for the next claim citing it."""
    return tuple(
        (start, end, _Stems(frozenset(sentence_stems(text[start:end], language))))
        for start, end in sentence_spans(text)
    )


def conflicts_at(
    claim: str, evidence: Evidence, document: Document, within: Span | None = None
) -> list[str]:
    """The changes of meaning the meaning guard finds between ``claim`` and the passage
    ``evidence`` of ``document``, read with the text around it (inside ``within``)."""
    around = neighbourhood(evidence.span, len(document.text), within)
    return claim_conflicts(claim, evidence.text, document.text[around.start : around.end])


class _NotedTexts:
    """An embedder that embeds nothing: it notes the texts it is asked for and answers zero
    vectors, so that a matcher built on it is a dry run of the real one's chunking. It reads
    as many tokens as the real embedder, counted the same way, so it cuts the same windows."""

    def __init__(self, budget: TokenBudget) -> None:
        self.texts: list[str] = []
        self.max_tokens = budget.max_tokens
        self.token_spans = budget.token_spans

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        self.texts.extend(texts)
        return [[0.0] for _ in texts]

    def embed_query(self, text: str) -> list[float]:
        return self.embed_documents([text])[0]


def _guarded(
    assessment: Assessment, claim: str, document: Document, within: Span | None
) -> Assessment:
    """``assessment`` with the meaning guard applied: a claim that changes a number, a
    negation or a quantifier of its best passage is at most partly supported, and the detail
    says why."""
    conflicts = conflicts_at(claim, assessment.evidence[0], document, within)
    if not conflicts:
        return assessment
    grade = Grade.PARTIAL if assessment.grade is Grade.SUPPORTED else assessment.grade
    detail = f"{assessment.detail}, but {'; '.join(conflicts)}"
    return replace(assessment, grade=grade, detail=detail, conflicts=tuple(conflicts))


def _by_shared_words(
    claim: str, document: Document, within: Span | None, k: int, min_chars: int
) -> tuple[Evidence, ...]:
    """Without an embedder: the sentences sharing the largest share of the claim's words."""
    words = set(WORD.findall(normalize(claim)))
    if not words:
        return ()
    region = within or Span(0, len(document.text))
    chunks = [
        c
        for c in _chunks(document.text, min_chars)
        if c.start < region.end and c.end > region.start
    ]
    scored = sorted(
        ((len(words & set(WORD.findall(normalize(c.text)))) / len(words), c) for c in chunks),
        key=lambda pair: -pair[0],
    )[:k]
    return tuple(
        document.evidence(c.start, c.end, round(share, 4), "overlap", {"overlap": round(share, 4)})
        for share, c in scored
    )


@lru_cache(maxsize=64)
def _chunks(text: str, min_chars: int) -> tuple[Chunk, ...]:
    """A document's chunks, kept for the next claim citing it."""
    return tuple(chunk_text(text, min_chunk_length_chars=min_chars))


def _closeness(evidence: Evidence) -> float:
    """How close a candidate passage is to the claim: its cosine, else its score."""
    return float(evidence.scores.get("cosine", evidence.score))


def _with_score(
    evidence: Evidence, score: float, method: str, scores: dict[str, float]
) -> Evidence:
    return replace(evidence, score=round(score, 4), method=method, scores=scores)
