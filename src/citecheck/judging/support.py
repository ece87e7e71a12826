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

import math
import re
from bisect import bisect_left, bisect_right
from collections.abc import Sequence
from dataclasses import dataclass, replace
from enum import Enum
from functools import lru_cache
from typing import TYPE_CHECKING, Any, Literal

from citecheck.documents import Document
from citecheck.documents.chunking import Chunk, chunk_text
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
    unnamed,
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
from citecheck.language.lexicon import LANGUAGE_NAMES, guess_language
from citecheck.language.text import CONTENT_WORD, WORD, normalize, sentence_spans, uncased
from citecheck.matchers.embedding import EmbeddingMatcher
from citecheck.matchers.fuzzy import FuzzyMatcher
from citecheck.model import Evidence, Span
from citecheck.thresholds import CONTRADICTION, COSINE_BANDS, JUDGE_BANDS, WORDS_VERIFIED

if TYPE_CHECKING:
    from citecheck.language.tokens import TokenBudget
    from citecheck.protocols import Embedder, Judge

__all__ = [
    "PRESELECT",
    "Assessment",
    "Grade",
    "Graded",
    "Look",
    "Qualifier",
    "SupportAssessor",
    "carried_at",
    "conflicts_at",
    "neighbour_conflicts",
    "second_opinions",
    "word_coverage",
]

UNNAMED = "which the passage does not"
"""How a gap of :func:`~citecheck.judging.guard.unnamed` ends: a name the passage lacks."""
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
    qualifying: tuple[Qualifier, ...] = ()
    """The passages beside the one the verdict rests on that qualify or contradict the claim,
    each with what the meaning guard read there."""


@dataclass(frozen=True, slots=True)
class Qualifier:
    """A passage that qualifies or contradicts a claim, beside (or apart from) the passage its
    verdict rests on, with the changes of meaning the guard read in it (or why it qualifies
    the claim). Every door lists these the same way: ``details["qualifying"]``, each as
    :meth:`to_dict`."""

    evidence: Evidence
    why: tuple[str, ...]

    def to_dict(self) -> dict[str, Any]:
        """The passage as a result's ``details["qualifying"]`` lists it: where it stands (the
        source, its character offsets, page and section), its text and why it qualifies."""
        found = self.evidence
        return {
            "source_id": found.source_id,
            "start": found.start,
            "end": found.end,
            "page": found.page,
            "section": found.section,
            "text": found.text,
            "why": "; ".join(self.why) or "it qualifies the claim",
        }


@dataclass(frozen=True, slots=True)
class Look:
    """The trained judge's second opinion on one passage (:func:`second_opinions`): what it
    read, or why it could not. Its :attr:`outcome` is the one rule every door applies."""

    supported: float = 0.0
    contradicted: float = 0.0
    partial: float = 0.0
    """The judge's bound under which it reads no support."""
    note: str = ""
    unread: str = ""
    """Why the judge could not read the passage (``""`` when it did)."""

    @property
    def outcome(self) -> Literal["confirms", "doubts", "refutes", "unread"]:
        """``confirms`` (support at or above the judge's ``partial`` bound and a
        contradiction under :data:`~citecheck.thresholds.CONTRADICTION`: the grade stands),
        ``doubts`` (support below that bound, or a contradiction at ``CONTRADICTION`` or more
        beside support above it: a supported claim is partly supported; a judge that reads a
        contradiction as more likely than not never confirms), ``refutes`` (support below the
        bound and a contradiction at ``CONTRADICTION`` or more: unsupported, the passage
        contradicts it) or ``unread``."""
        if self.unread:
            return "unread"
        contradicts = self.contradicted >= CONTRADICTION
        if self.supported >= self.partial:
            return "doubts" if contradicts else "confirms"
        return "refutes" if contradicts else "doubts"

    def said(self) -> str:
        """What a reason says about this look, in the same words at every door."""
        if self.unread:
            return f"not read by the judge: {self.unread}"
        text = f"the judge reads support {self.supported:.0%}"
        if self.contradicted >= CONTRADICTION:
            text += f" and contradiction {self.contradicted:.0%}"
        return f"{text} ({self.note})" if self.note else text


def second_opinions(
    judge: SupportJudge, claim: str, document: Document, asked: Sequence[tuple[Span, Span]]
) -> list[Look]:
    """The trained judge's look at each ``(passage, region)`` of ``document`` about
    ``claim``: the region is read in windows (:data:`FOCUSED_WINDOWS` at most), the ones
    holding the passage first, all of them in one call of the model. This is how every
    door asks the judge: the verifier, the record labels and the paper library."""
    if not asked:
        return []
    readings = judge.read_pairs(
        [(claim, document.text[region.start : region.end]) for _, region in asked],
        focus=[
            [(passage.start - region.start, passage.end - region.start)]
            for passage, region in asked
        ],
        max_windows=FOCUSED_WINDOWS,
    )
    return [
        Look(unread=reading.reason)
        if isinstance(reading, Unread)
        else Look(reading.supported, reading.contradicted, judge.partial, reading.note)
        for reading in readings
    ]


@dataclass(frozen=True, slots=True)
class Graded:
    """One passage graded for a claim by the engine (:meth:`SupportAssessor.grade`): the
    support probability of the signals (or the bare cosine, in another language) and the bounds
    it is read against, the changes of meaning the guard finds in the passage and in the
    sentences beside it (``conflicts``), what the claim says and the passage does not
    (``gaps``: a number, a name), the judge's look when it was asked, and whether the passage
    is a sentence that carries the claim's words. :attr:`grade` is the one grade every door
    presents."""

    evidence: Evidence
    probability: float
    bounds: tuple[float, float]
    detail: str
    conflicts: tuple[str, ...] = ()
    gaps: tuple[str, ...] = ()
    signals: SupportSignals | None = None
    look: Look | None = None
    carried: bool = False
    qualifying: tuple[Qualifier, ...] = ()
    """The sentences beside the passage that negate, reverse or bound the claim."""

    @property
    def would_support(self) -> bool:
        """Whether the signals read support here, before the guard and the judge."""
        return self.probability >= self.bounds[0]

    @property
    def refuted(self) -> bool:
        return self.look is not None and self.look.outcome == "refutes"

    @property
    def related(self) -> bool:
        return self.probability >= self.bounds[1]

    @property
    def contradicts(self) -> bool:
        """The passage would support the claim but says another value or the opposite, or the
        judge reads it as contradicting the claim."""
        return (self.would_support and bool(self.conflicts)) or self.refuted

    @property
    def grade(self) -> Grade:
        """Supported when the signals read support and neither the guard nor the judge finds
        anything against it; a change, a gap or the judge's doubt makes a supported claim
        partly supported, the judge's contradiction unsupported. Nothing raises a grade."""
        if self.refuted:
            return Grade.UNSUPPORTED
        grade = _grade(self.probability, *self.bounds)
        doubted = self.look is not None and self.look.outcome == "doubts"
        if grade is Grade.SUPPORTED and (self.conflicts or self.gaps or doubted):
            return Grade.PARTIAL
        return grade

    @property
    def reason(self) -> str:
        """The detail, the changes and the judge's look, as a reason says them."""
        detail = self.detail
        changes = (*self.conflicts, *self.gaps)
        if changes:
            detail += f", but {'; '.join(changes)}"
        if self.look is None:
            return detail
        if self.look.outcome == "confirms":
            return f"{detail}; {self.look.said()}"
        if self.look.outcome == "unread":
            return f"{detail} ({self.look.said()})"
        return f"{detail}, but {self.look.said()}"

    def assessment(self, evidence: tuple[Evidence, ...] | None = None) -> Assessment:
        """This grade as the engine's :class:`Assessment` (``evidence``: the candidates, this
        passage first)."""
        return Assessment(
            self.grade,
            self.probability,
            evidence or (self.evidence,),
            self.reason,
            self.signals,
            conflicts=(*self.conflicts, *self.gaps),
            contradicted=None if self.look is None or self.look.unread else self.look.contradicted,
            carried=self.carried,
            qualifying=self.qualifying,
        )


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
        judge: Judge | str | None = "auto",
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
        elif isinstance(judge, str):  # a known judge by name, or "none"
            from citecheck.judging.known import judge_named

            named = judge_named(judge)
            judge = None if named == "auto" else named
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
        ``fuzzy_threshold``) in a readable document, with no change of meaning and no name
        the text there does not give (the verifier reads the same gap: "Uranium-235 was
        discovered in 1935" does not stand in "It was discovered in 1935 by …"); the first
        such place, or ``None``. A claim whose vector says less than its words is found here."""
        for document in self.readable(documents):
            found = self.fuzzy.find(claim, document)
            if found and not conflicts_at(claim, found[0], document):
                near = neighbourhood(found[0].span, len(document.text), None)
                around = document.text[near.start : near.end]
                if not unnamed(claim, found[0].text, document.text, around):
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
            if not self.judge_decides:
                return self._second_opinion(claim, found, document, within)  # guarded in it
            return _guarded(self._cascade(claim, found, document, within), claim, document, within)
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
        return self.grade(claim, document, found[0], within).assessment(found)

    def grade(
        self,
        claim: str,
        document: Document,
        passage: Evidence,
        within: Span | None,
        *,
        around: Span | None = None,
    ) -> Graded:
        """``passage`` of ``document`` graded for ``claim``: the one grading every door uses.

        The signals (the passage's cosine, read from its ``scores["cosine"]``, on the support
        model's scale; the claim's words and numbers near it) give a probability of support,
        read against the model's bounds, or the bare cosine at the cosine bands when the claim
        and the passage are in different languages. The meaning guard then reads the passage
        with the text around it, the sentences beside it that speak of the claim's subject,
        and the names the claim gives. ``around`` is the text the passage is read with (the
        passages next to it; default: the text near it inside ``within``). The judge is not
        asked here: see :meth:`looked`."""
        region = around or within
        graded = self._signals(claim, passage, document, region)
        conflicts, gaps, qualifying = _changes(claim, document, passage, region)
        return replace(graded, conflicts=conflicts, gaps=gaps, qualifying=qualifying)

    def grade_many(
        self, claim: str, document: Document, passages: Sequence[tuple[Evidence, Span | None]]
    ) -> list[Graded]:
        """Each of ``passages`` (a passage and the text it is read with, as ``around`` of
        :meth:`grade`) graded as :meth:`grade` grades it, the meaning guard read only where it
        can change what a door decides or shows: on every passage the signals read as support
        (a change there makes it partly supported, or a contradiction), and on the passage with
        the highest probability (the one a door falls back on; on a tie, every one). The guard
        cannot change the grade of any other (it never raises a grade), so theirs is left
        unread (no ``conflicts``, ``gaps`` or ``qualifying``): a search's eight candidates then
        cost the guard once or twice, not eight times."""
        signals = [self._signals(claim, passage, document, around) for passage, around in passages]
        best = max((g.probability for g in signals), default=0.0)
        out = []
        for (passage, around), graded in zip(passages, signals, strict=True):
            if graded.would_support or graded.probability == best:
                conflicts, gaps, qualifying = _changes(claim, document, passage, around)
                graded = replace(graded, conflicts=conflicts, gaps=gaps, qualifying=qualifying)
            out.append(graded)
        return out

    def looked(
        self, claim: str, document: Document, graded: Sequence[tuple[Graded, Span | None]]
    ) -> list[Graded]:
        """Each graded passage with the trained judge's second opinion, read in its region
        (``None``: the whole document), where the judge can keep a claim from being verified:
        the signals would verify it, and its words do not stand nearly verbatim in the region
        (the small model can misread a sentence it is shown word for word). All are read in
        one call. Without the trained judge, ``graded`` as it is."""
        out = [g for g, _ in graded]
        if not isinstance(self.judge, SupportJudge):
            return out
        whole = Span(0, len(document.text))
        asked = [
            (index, g.evidence.span, region or whole)
            for index, (g, region) in enumerate(graded)
            if g.would_support and not self._stands(claim, document, region)
        ]
        looks = second_opinions(self.judge, claim, document, [(p, r) for _, p, r in asked])
        for (index, _, _), look in zip(asked, looks, strict=True):
            out[index] = replace(out[index], look=look)
        return out

    def _stands(self, claim: str, document: Document, within: Span | None) -> bool:
        """Whether the claim's words stand nearly verbatim in ``within``, changing nothing."""
        stands = self.fuzzy.find(claim, document, within)
        return bool(stands) and not conflicts_at(claim, stands[0], document, within)

    def signals(
        self, claim: str, document: Document, passage: Evidence, within: Span | None
    ) -> Graded:
        """``passage`` graded by the signals alone, before the guard and the judge: the first
        step of :meth:`grade`, for a door that reads the guard itself (the record labels)."""
        return self._signals(claim, passage, document, within)

    def _signals(
        self, claim: str, passage: Evidence, document: Document, within: Span | None
    ) -> Graded:
        """The grade of the support model over the passage's signals, or of its bare cosine
        (``model=None``, or a claim in another language than the passage), before the guard."""
        cosine = self._on_scale(_closeness(passage))
        signals = support_signals(claim, passage.span, document.text, cosine, within)
        languages = guess_language(normalize(claim)), guess_language(normalize(passage.text))
        if self.model is not None and languages[0] != languages[1]:
            # the claim's words cannot stand in a source in another language: the cosine (on
            # MiniLM's scale) alone grades it, at the bare-cosine bands
            ours, theirs = (LANGUAGE_NAMES.get(code, code) for code in languages)
            detail = (
                f"cosine {cosine:.2f}, graded by the cosine alone (the claim is in {ours}, the "
                f"source in {theirs}: their words cannot be compared)"
            )
            return Graded(passage, max(0.0, cosine), COSINE_BANDS, detail, signals=signals)
        bounds = (self.supported, self.partial)
        if self.model is None:
            return Graded(passage, cosine, bounds, f"cosine {cosine:.2f}", signals=signals)
        probability = self.model.probability(signals)
        detail = (
            f"cosine {cosine:.2f} with {signals.coverage:.0%} of the claim's words nearby: "
            f"support {probability:.0%}"
        )
        return Graded(passage, probability, bounds, detail, signals=signals)

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
        # the sentences beside it that negate, reverse or bound it are listed, not held
        # against it: a claim its page says word for word is true as written there
        beside = _beside(claim, document, carrier.span, within)
        qualifying = tuple(
            Qualifier(sentence, tuple(changes))
            for sentence, changes in neighbour_conflicts(claim, document, carrier.span, beside)
        )
        if not conflicts:
            return Assessment(
                Grade.SUPPORTED,
                first.score,
                evidence,
                where,
                first.signals,
                carried=True,
                qualifying=qualifying,
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
            qualifying=qualifying,
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
        graded = self._signals(claim, found[0], document, within)
        grade = _grade(graded.probability, *graded.bounds)
        return Assessment(grade, graded.probability, found, graded.detail, graded.signals)

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
        """The engine's grade of the best candidate, lowered by the trained judge where it
        reads no support (:meth:`looked`): to partly supported, or unsupported when it reads a
        contradiction. The judge's time goes where a false pass is at stake; it never raises a
        grade."""
        graded = self.grade(claim, document, found[0], within)
        [graded] = self.looked(claim, document, [(graded, within)])
        return graded.assessment(found)

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
    words = set(CONTENT_WORD.findall(normalize(claim)))
    if not words:
        return None
    present = set(CONTENT_WORD.findall(normalize(passage)))
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


def _subject_stems(claim: str) -> frozenset[str]:
    """The stems of the claim's content words, as a sentence that speaks of its subject must
    hold a share of them (:func:`carried_clauses`); empty for a claim with too few."""
    clauses = carried_clauses(claim) or []
    return frozenset().union(*clauses) if clauses else frozenset()


def _far_off(
    claim: str, document: Document, passage: Span, region: Span | None, near: Span
) -> list[tuple[Evidence, list[str]]]:
    """The sentences far from the passage where the claim is written most plainly
    (:func:`_plainest`) that the meaning guard finds changed against it, each with the
    changes, as :func:`neighbour_conflicts` reads a sentence beside the passage."""
    return [
        found
        for far in _plainest(claim, document, passage, region, near)
        for found in neighbour_conflicts(claim, document, passage, far, PLAINEST_SUBJECT)
    ]


def _plainest(
    claim: str, document: Document, passage: Span, region: Span | None, near: Span
) -> list[Span]:
    """The sentences of ``region`` (all of ``document`` when ``None``) far from the passage
    (outside ``near``, the text the guard reads around it) that hold the most of the claim's
    content words, when they hold :data:`PLAINEST_SUBJECT` of them and more than the passage
    does: where the claim is written most plainly, though the passage is closest in meaning
    ("conditions the heart to beat less slowly during periods of rest" where a sentence far
    down the page says "beat more slowly during periods of rest"). A change they make is
    held against the claim as a neighbour's is (:func:`neighbour_conflicts`)."""
    stems = _subject_stems(claim)
    if not stems:
        return []
    bounds = region or Span(0, len(document.text))
    language = claim_language(claim)
    held_by_passage = len(
        stems & set(sentence_stems(document.text[passage.start : passage.end], language))
    )
    most = max(held_by_passage + 1, math.ceil(PLAINEST_SUBJECT * len(stems)))
    found: list[Span] = []
    for start, end, held in _sentence_index(document.text, language):
        if end <= bounds.start or start >= bounds.end or (start < near.end and near.start < end):
            continue
        count = len(stems & held.present)
        if count > most:
            most, found = count, []
        if count == most:
            found.append(Span(max(start, bounds.start), min(end, bounds.end)))
    return found


PLAINEST_SUBJECT = 0.5
"""The share of a claim's content words a sentence away from its passage must hold to be read
as where the claim is written most plainly (:func:`_plainest`)."""


AROUND_SUBJECT = 0.3
"""The share of a claim's content words a sentence near its passage must hold to be read for
where a change the guard found around the passage stands (:func:`_on_subject`)."""


def neighbour_conflicts(
    claim: str, document: Document, passage: Span, region: Span, share: float = NEIGHBOUR_SUBJECT
) -> list[tuple[Evidence, list[str]]]:
    """The sentences of ``region`` next to ``passage`` that speak of the claim's subject (they
    hold :data:`NEIGHBOUR_SUBJECT` of its content words) and that the meaning guard finds
    changed against it (a negation, a quantifier, a direction, a name), each with the changes:
    a claim such a sentence negates, reverses or bounds is not supported by the passage beside
    it. What a sentence merely lacks ("no such number") is no change, and neither is another
    number (:data:`_OTHER_NUMBER`)."""
    stems = _subject_stems(claim)
    if not stems:
        return []
    language = claim_language(claim)
    found = []
    index = _sentence_index(document.text, language)
    starts, ends = _sentence_bounds(document.text, language)
    for number in range(bisect_right(ends, region.start), bisect_left(starts, region.end)):
        start, end, held = index[number]
        if passage.start <= start and end <= passage.end:
            continue  # the passage itself: its own guard reads it
        if len(stems & held.present) < share * len(stems):
            continue
        start, end = max(start, region.start), min(end, region.end)
        text = document.text[start:end]
        changes = [
            c
            for c in claim_conflicts(claim, text, text)
            if not c.endswith(ABSENT) and not c.startswith(_NOT_BESIDE)
        ]
        if changes:
            found.append((document.evidence(start, end, 0.0, "neighbour"), changes))
    return found


_NOT_BESIDE = ("the claim has the number", "the claim has the negation")
"""What a sentence beside the passage does not hold against a claim: another number usually
counts something else ("a group of 40 annotators" beside "annotated by 32 of them"), and a
negation of the claim's that the sentence lacks is not said otherwise there. A number and the
claim's own negation are held to the passage itself; the source's negation, a direction, a
quantifier or a name to its neighbours too."""


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
    """``assessment`` with the meaning guard applied (:func:`_changes`): a claim that changes a
    number, a negation or a quantifier of its best passage, or that a sentence beside it
    negates, is at most partly supported, and the detail says why."""
    conflicts, gaps, qualifying = _changes(claim, document, assessment.evidence[0], within)
    found = (*conflicts, *gaps)
    if not found:
        return assessment
    grade = Grade.PARTIAL if assessment.grade is Grade.SUPPORTED else assessment.grade
    detail = f"{assessment.detail}, but {'; '.join(found)}"
    return replace(assessment, grade=grade, detail=detail, conflicts=found, qualifying=qualifying)


def _changes(
    claim: str, document: Document, passage: Evidence, region: Span | None
) -> tuple[tuple[str, ...], tuple[str, ...], tuple[Qualifier, ...]]:
    """What the meaning guard finds between ``claim`` and ``passage``: the changes of meaning
    (read in the passage with the text near it inside ``region``, and in the sentences beside
    it that speak of the claim's subject), the gaps (a number or a word the source lacks, a
    name the passage does not give) and the sentences beside it that qualify the claim."""
    found = conflicts_at(claim, passage, document, region)
    changed = [c for c in found if not c.endswith(ABSENT)]
    subject = _on_subject(claim, document, passage.span, region) if changed else []
    subject.sort(key=lambda s: min(abs(s.start - passage.end), abs(passage.start - s.end)))
    beside = _beside(claim, document, passage.span, region)
    neighbours = neighbour_conflicts(claim, document, passage.span, beside)
    near = neighbourhood(passage.span, len(document.text), region)
    neighbours.extend(_far_off(claim, document, passage.span, region, near))
    # what the passage says itself, read only when a sentence near it may say it instead
    own = claim_conflicts(claim, passage.text, passage.text) if subject or neighbours else []
    around = [c for c in changed if c not in own]
    qualifying = {q.evidence.span: q for q in _read_around(claim, document, subject, around)}
    for sentence, changes in neighbours:
        qualifying.setdefault(sentence.span, Qualifier(sentence, tuple(changes)))
    for qualifier in qualifying.values():  # each change read beside the passage, said where
        span = qualifier.evidence.span
        where = "beside it" if near.start <= span.start and span.end <= near.end else "further off"
        for change in qualifier.why:
            if change in own:
                continue  # the passage itself says it: its own words are the reason
            focus = _SOURCE_WORD.search(change)
            shown = _short(qualifier.evidence.text, focus=focus.group(1) if focus else None)
            located = f"{change} (in the passage {where}: {shown})"
            if change in found:
                found[found.index(change)] = located
            elif located not in found:
                found.append(located)
    found.extend(unnamed(claim, passage.text, document.text, document.text[near.start : near.end]))
    gaps = tuple(c for c in found if c.endswith((*ABSENT, UNNAMED)))
    conflicts = tuple(c for c in found if c not in gaps)
    return conflicts, gaps, tuple(qualifying.values())


def _on_subject(claim: str, document: Document, passage: Span, region: Span | None) -> list[Span]:
    """The sentences near ``passage`` (inside ``region``, not the passage itself) that may
    hold a change the guard read around it: they share :data:`AROUND_SUBJECT` of the claim's
    content words (the change is known to stand near; this only finds where)."""
    stems = _subject_stems(claim)
    if not stems:
        return []
    near = neighbourhood(passage, len(document.text), region)
    language = claim_language(claim)
    index = _sentence_index(document.text, language)
    starts, ends = _sentence_bounds(document.text, language)
    found = []
    for number in range(bisect_right(ends, near.start), bisect_left(starts, near.end)):
        start, end, held = index[number]
        if passage.start <= start and end <= passage.end:
            continue  # the passage itself
        if len(stems & held.present) >= AROUND_SUBJECT * len(stems):
            found.append(Span(max(start, near.start), min(end, near.end)))
    return found


def _read_around(
    claim: str, document: Document, sentences: Sequence[Span], around: list[str]
) -> list[Qualifier]:
    """Of the ``sentences`` near a passage that speak of the claim's subject, those holding
    the changes ``around`` that the guard read with the text around the passage and not in
    the passage itself: where the verdict's change stands, listed so that a reader sees it."""
    listed = []
    unplaced = set(around)
    for sentence in sentences:  # nearest first; done when every change has its place
        if not unplaced:
            break
        text = document.text[sentence.start : sentence.end]
        changes = tuple(c for c in claim_conflicts(claim, text, text) if c in around)
        unplaced.difference_update(changes)
        if changes:
            listed.append(
                Qualifier(
                    document.evidence(sentence.start, sentence.end, 0.0, "neighbour"), changes
                )
            )
    return listed


def _beside(claim: str, document: Document, passage: Span, region: Span | None) -> Span:
    """The passage with the sentence just before it and the one just after it, inside
    ``region``: the passages next to it, whose negation, direction or bound of the claim's
    subject the guard reads (:func:`neighbour_conflicts`)."""
    bounds = region or Span(0, len(document.text))
    starts, ends = _sentence_bounds(document.text, claim_language(claim))
    before = bisect_right(ends, passage.start) - 1  # the last sentence ending before it
    after = bisect_left(starts, passage.end)  # the first sentence starting after it
    start = max(bounds.start, passage.start)
    if before >= 0 and starts[before] >= bounds.start:
        start = starts[before]
    end = min(bounds.end, passage.end)
    if after < len(ends) and ends[after] <= bounds.end:
        end = ends[after]
    return Span(start, end)


@lru_cache(maxsize=64)
def _sentence_bounds(text: str, language: str) -> tuple[list[int], list[int]]:
    """The starts and ends of the sentences of a document, in order, for bisection."""
    index = _sentence_index(text, language)
    return [start for start, _, _ in index], [end for _, end, _ in index]


def _short(text: str, words: int = 12, focus: str | None = None) -> str:
    """``words`` words of ``text``, quoted, with an ellipsis where cut: its first ones, or
    those around the first word that is ``focus`` (the source's word a change names), so that
    the quotation shows what the change is about."""
    split = text.split()
    start = 0
    if focus:
        key = focus.casefold()
        at = next((i for i, w in enumerate(split) if key in WORD.findall(w.casefold())), None)
        if at is not None:
            start = max(0, min(at - words // 3, len(split) - words))
    shown = " ".join(split[start : start + words])
    return (
        "\u201c"
        + ("\u2026 " if start else "")
        + shown
        + (" \u2026" if start + words < len(split) else "")
        + "\u201d"
    )


_SOURCE_WORD = re.compile(r"the source (?:says|has|names)(?: the negation)? '([^']+)'")
"""The source's word in a change the guard names ("… where the source says 'more'")."""


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
