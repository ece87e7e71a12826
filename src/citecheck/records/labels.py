"""Semantic validation: how likely a source text says what a citation says, as one of five
labels that reviewers can sort by.

The labels are a banding of the claim-support engine's score
(:class:`~citecheck.judging.support.SupportAssessor`, the engine that judges the verifier's claims):
the best cosine between the citation and the sources' sentence chunks, which :class:`Thresholds`
turns into a :class:`Label`. Scores in the ambiguous band get a second, lexical look: the
citation's words standing in the source nearly verbatim (fuzzy alignment) or almost all present
in the best passage move it up; a number or a negation the passage does not share, or hardly
any shared words, move it down. A likely-true score whose best passage does not share the
citation's numbers, negations or quantifiers is moved down to ambiguous by the meaning guard
(:mod:`citecheck.judging.guard`), with or without the lexical pass, as a supported claim is capped
at partly supported: similar sentences often differ in exactly the fact being checked. The
label is a view of the one grade: a true label (by the cosine or the lexical pass) moves down to
ambiguous when the support engine's signals (the support model every other door grades with)
read no support in the best passage, and, with the lexical pass, a citation of the ambiguous
band that is not true moves up when they do. Every move
is written into the reason. Two outcomes are not scores at all: a citation too short to judge,
and a source with no text.

With the ``judge`` extra, citecheck's trained judge
(:class:`~citecheck.judging.support_judge.SupportJudge`) takes a last look at a citation the
cosine labels likely true or very likely true, unless its words stand in the source nearly
verbatim: one it reads as unsupported (below its ``partial`` bound) moves down to ambiguous, or
to likely untrue when it reads a contradiction.
It never moves a label up (measured: as the judge of a label it is no better than the cosine,
see ``docs/benchmarks.md``). The score stays the cosine, so the bands keep their meaning; the
reason says what the judge read.

Each label reads as a :class:`~citecheck.Status` (:attr:`Label.status`), so that a record's
citation gets the verdict a claim gets at every other front door.

How the labels are written is a :data:`LABEL_SETS` entry: citecheck's own words, or the exact
strings of the validator this module replaces (``"seed"``), for tools that filter on them.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from contextlib import suppress
from dataclasses import dataclass
from enum import StrEnum
from types import MappingProxyType
from typing import TYPE_CHECKING, Literal

from citecheck.documents import Document, split_sources
from citecheck.documents.split import Sources, as_documents
from citecheck.errors import CitecheckError, ConfigError, InputError
from citecheck.judging import verdict
from citecheck.judging.support import (
    Assessment,
    Qualifier,
    SupportAssessor,
    second_opinions,
    word_coverage,
)
from citecheck.judging.support_judge import SupportJudge, default_judge
from citecheck.language.text import SURROGATE, WORD
from citecheck.model import Evidence, Span, Status
from citecheck.thresholds import COVERAGE_BANDS, LABEL_BANDS, WORDS_VERIFIED

if TYPE_CHECKING:
    from citecheck.protocols import Embedder

__all__ = [
    "DEFAULT_LABEL_SET",
    "LABEL_SETS",
    "Label",
    "SemanticValidator",
    "Thresholds",
    "Validation",
    "check_text",
    "label_names",
]

_HIGH_COVERAGE, _LOW_COVERAGE = COVERAGE_BANDS  # of the citation's words of 4+ letters


class Label(StrEnum):
    """The outcome of a semantic validation; the value is what records and reports show."""

    VERY_LIKELY_TRUE = "very likely true"
    LIKELY_TRUE = "likely true"
    AMBIGUOUS = "ambiguous"
    LIKELY_UNTRUE = "likely untrue"
    VERY_LIKELY_UNTRUE = "very likely untrue"
    TOO_SHORT = "too short"
    NO_SOURCE_TEXT = "no source text"

    @property
    def status(self) -> Status:
        """The verdict the label stands for: the likely-true labels are ``VERIFIED``,
        ambiguous ``PARTIAL`` (as a partly supported claim), the untrue ones ``UNSUPPORTED``,
        and a citation that could not be scored ``UNCHECKED`` (never ``NOT_FOUND``: nothing
        was compared, so nothing is a phantom)."""
        return _STATUS[self]


LABEL_SETS: Mapping[str, Mapping[Label, str]] = MappingProxyType(
    {
        "citecheck": MappingProxyType({label: label.value for label in Label}),
        "seed": MappingProxyType(
            {
                Label.VERY_LIKELY_TRUE: "very likely true",
                Label.LIKELY_TRUE: "likely true",
                Label.AMBIGUOUS: "ambiguous / review recommended",
                Label.LIKELY_UNTRUE: "likely untrue",
                Label.VERY_LIKELY_UNTRUE: "very likely untrue",
                Label.TOO_SHORT: "untrue (too short)",
                Label.NO_SOURCE_TEXT: "untrue (no source text)",
            }
        ),
    }
)
"""How each :class:`Label` is written, by label set. ``"citecheck"`` (the default) writes the
label's value. ``"seed"`` writes the strings of the record validator citecheck was built from,
so its downstream tools keep working; it calls a citation that could not be scored "untrue",
which citecheck's own set does not (a citation too short to judge, or a source with no text, is
not evidence that the citation is false)."""

DEFAULT_LABEL_SET = "citecheck"

_STATUS: Mapping[Label, Status] = MappingProxyType(
    {
        Label.VERY_LIKELY_TRUE: Status.VERIFIED,
        Label.LIKELY_TRUE: Status.VERIFIED,
        Label.AMBIGUOUS: Status.PARTIAL,
        Label.LIKELY_UNTRUE: Status.UNSUPPORTED,
        Label.VERY_LIKELY_UNTRUE: Status.UNSUPPORTED,
        Label.TOO_SHORT: Status.UNCHECKED,
        Label.NO_SOURCE_TEXT: Status.UNCHECKED,
    }
)


_TRUE = frozenset({Label.VERY_LIKELY_TRUE, Label.LIKELY_TRUE})


def label_names(label_set: str) -> Mapping[Label, str]:
    """The strings of ``label_set`` (a key of :data:`LABEL_SETS`); :class:`ConfigError` naming
    the known sets for any other."""
    if label_set not in LABEL_SETS:
        raise ConfigError(
            f"unknown label_set {label_set!r}; known: {', '.join(sorted(LABEL_SETS))}"
        )
    return LABEL_SETS[label_set]


@dataclass(frozen=True, slots=True)
class Thresholds:
    """Lower bounds of the scored labels: a score at or above ``very_likely_true`` is very
    likely true, at or above ``likely_true`` (the similarity threshold) likely true, and so on
    down; below ``likely_untrue`` it is very likely untrue."""

    very_likely_true: float = LABEL_BANDS[0]
    likely_true: float = LABEL_BANDS[1]
    ambiguous: float = LABEL_BANDS[2]
    likely_untrue: float = LABEL_BANDS[3]

    def __post_init__(self) -> None:
        bounds = (self.very_likely_true, self.likely_true, self.ambiguous, self.likely_untrue)
        if not all(isinstance(b, int | float) and not isinstance(b, bool) for b in bounds):
            raise ConfigError(f"thresholds must be numbers, got {bounds}")
        if not all(-1.0 <= b <= 1.0 for b in bounds):
            raise ConfigError(f"thresholds must lie in [-1, 1], got {bounds}")
        if list(bounds) != sorted(bounds, reverse=True):
            raise ConfigError(
                "thresholds must not increase: very_likely_true >= likely_true >= ambiguous "
                f">= likely_untrue, got {bounds}"
            )

    def label(self, score: float) -> Label:
        if score >= self.very_likely_true:
            return Label.VERY_LIKELY_TRUE
        if score >= self.likely_true:
            return Label.LIKELY_TRUE
        if score >= self.ambiguous:
            return Label.AMBIGUOUS
        if score >= self.likely_untrue:
            return Label.LIKELY_UNTRUE
        return Label.VERY_LIKELY_UNTRUE


@dataclass(frozen=True, slots=True)
class Validation:
    """One citation's outcome: its label, the cosine behind it (``None`` when nothing was
    scored), the best passage of the sources, and why. ``source_offset`` is where the
    evidence's document starts in the combined source text it was split from (0 otherwise)."""

    label: Label
    score: float | None
    evidence: Evidence | None
    reason: str
    source_offset: int = 0
    qualifying: tuple[Qualifier, ...] = ()
    """The passages beside the evidence that qualify or contradict the citation (the support
    engine's :class:`~citecheck.judging.support.Qualifier`)."""

    @property
    def confidence_percent(self) -> float | None:
        """The score as a percentage with two decimals, clipped to [0, 100]."""
        if self.score is None:
            return None
        return round(100 * min(1.0, max(0.0, self.score)), 2)


class SemanticValidator:
    """Labels citation texts by how closely the sources' sentences match their meaning: a
    thin labeller over the claim-support engine
    (:class:`~citecheck.judging.support.SupportAssessor`).

    The engine finds each citation's best passage, scores it by the bare cosine
    (``model=None``) and reads the meaning guard's conflicts and, for an ambiguous score, the
    lexical look; this class bands the score into a :class:`Label` and moves it as the module
    docstring says. Configure once, call :meth:`validate` (or :meth:`validate_many`, which
    embeds all the citations of a source in one batch) for each source. ``sources`` may be a
    text (split into documents at lines starting with ``delimiter``), a mapping of id to text
    or :class:`~citecheck.Document`, or an iterable of documents. A citation with fewer than
    ``min_citation_length_words`` words is :attr:`Label.TOO_SHORT`; sources with no text are
    :attr:`Label.NO_SOURCE_TEXT`. ``label_set`` says how reasons (and :attr:`label_names`,
    for callers that write the label out) spell the labels. Without an ``embedder``, the
    default model, all-MiniLM-L6-v2, is loaded on first use
    (:func:`~citecheck.embedders.named.model_embedder`: its ONNX build with the ``onnx-minilm``
    extra, else the ``embeddings`` extra).
    ``judge`` takes the last look of the module docstring (``"auto"``: the trained judge when
    the ``judge`` extra is installed; ``None``: none).
    """

    def __init__(
        self,
        embedder: Embedder | None = None,
        *,
        thresholds: Thresholds | None = None,
        min_citation_length_words: int = 3,
        min_chunk_length_chars: int = 20,
        lexical_pass: bool = True,
        fuzzy_threshold: float = WORDS_VERIFIED,
        delimiter: str = "Content from ",
        label_set: str = DEFAULT_LABEL_SET,
        judge: SupportJudge | Literal["auto"] | None = "auto",
    ) -> None:
        self.label_names = label_names(label_set)
        self.judge = default_judge() if judge == "auto" else judge
        if min_citation_length_words < 0:
            raise ConfigError(
                f"min_citation_length_words must not be negative, got {min_citation_length_words}"
            )
        self.thresholds = thresholds or Thresholds()
        self.min_citation_length_words = min_citation_length_words
        self.lexical_pass = lexical_pass
        self.delimiter = delimiter
        if embedder is None:
            from citecheck.embedders.named import model_embedder

            embedder = model_embedder()  # loads its model on first use
        self.support = SupportAssessor(
            embedder,
            None,  # labels are bands of the cosine (see the module docstring)
            model=None,
            candidates=1,
            supported=self.thresholds.likely_true,
            partial=self.thresholds.ambiguous,
            min_chunk_length_chars=min_chunk_length_chars,
            fuzzy_threshold=fuzzy_threshold,
        )
        # the one grade's signals (the support model, as at every other door), read on the
        # passage the cosine chose: see _engine_view
        self.engine = SupportAssessor(
            embedder,
            None,
            candidates=1,
            min_chunk_length_chars=min_chunk_length_chars,
            fuzzy_threshold=fuzzy_threshold,
        )

    def prefetch(self, sources: Iterable[Sources | str], citations: Iterable[str] = ()) -> None:
        """Embed the chunks of many sources, and many citations, in one call of the embedder
        (:meth:`SupportAssessor.prefetch <citecheck.judging.support.SupportAssessor.prefetch>`).

        A batch of records is prefetched before its records are validated one by one. Only
        the embedder's cache is filled: :meth:`validate_many` then returns what it returns
        without it (with a real model, a batch pads its texts differently, which may move a
        rounded confidence by its last digit). A source that cannot be read is left for
        :meth:`validate_many` to report."""
        documents: list[Document] = []
        for source in sources:
            with suppress(CitecheckError):
                documents.extend(self._documents(source))
        self.support.prefetch(list(citations), documents)

    def validate(self, citation: str, sources: Sources | str) -> Validation:
        return self.validate_many([citation], sources)[0]

    def validate_many(self, citations: Sequence[str], sources: Sources | str) -> list[Validation]:
        """One :class:`Validation` per citation, in order, against the same sources."""
        for index, citation in enumerate(citations):
            if not isinstance(citation, str):
                raise InputError(f"citation {index} must be a str, got {type(citation).__name__}")
            check_text(citation, f"citation {index}")
        documents = self._documents(sources)
        needed = max(1, self.min_citation_length_words)
        scored = [i for i, c in enumerate(citations) if len(WORD.findall(c)) >= needed]
        judged = self.support.assess_many([citations[i] for i in scored], documents)
        assessments = dict(zip(scored, judged, strict=True))
        outcomes = []
        for index, citation in enumerate(citations):
            if index not in assessments:
                outcomes.append(_too_short(len(WORD.findall(citation)), needed))
            elif (assessment := assessments[index]) is None:
                outcomes.append(_NO_SOURCE_TEXT)
            else:
                outcomes.append(self._labelled(citation, assessment, documents))
        return outcomes

    def _documents(self, sources: Sources | str) -> list[Document]:
        if isinstance(sources, str):
            check_text(sources, "the source text")
            return split_sources(sources, self.delimiter) if sources.strip() else []
        documents = list(as_documents(sources).values())  # rejects bytes and other non-sources
        for document in documents:
            check_text(document.text, f"source {document.id!r}")
        return documents

    def _labelled(
        self, citation: str, assessment: Assessment, documents: Sequence[Document]
    ) -> Validation:
        """The label of the engine's score, moved by its guard or the lexical look."""
        evidence, score = assessment.evidence[0], assessment.score
        label = self.thresholds.label(score)
        names = self.label_names
        reason = f"best match {verdict.located(evidence)} at cosine {score:.2f}: {names[label]}"
        conflict = "; ".join(assessment.conflicts) or None
        if assessment.carried and not conflict and self.lexical_pass:
            # one sentence carries the citation's words and the guard finds nothing changed:
            # it is true as written there, whatever its cosine, and no judge is asked
            if label not in _TRUE:
                label = Label.LIKELY_TRUE
                reason += f"; moved to {names[label]} by the lexical pass: {assessment.detail}"
            return Validation(
                label, score, evidence, reason, _offset(evidence, documents), assessment.qualifying
            )
        best, banded = evidence, label
        if conflict and label in (Label.VERY_LIKELY_TRUE, Label.LIKELY_TRUE):
            label = Label.AMBIGUOUS
            reason += f"; moved to {names[label]} by the meaning guard: {conflict}"
        elif label is Label.AMBIGUOUS and self.lexical_pass:
            moved, evidence, why = self._lexical_look(citation, evidence, conflict, documents)
            if moved is label:
                reason += f"; the lexical pass left it {names[label]}"
            else:
                label = moved
                reason += f"; moved to {names[label]} by the lexical pass: {why}"
        if not conflict:
            up = banded is Label.AMBIGUOUS and self.lexical_pass
            label, reason = self._engine_view(citation, label, reason, best, documents, up=up)
        if self.judge is not None and label in _TRUE:
            label, reason = self._judged(citation, label, reason, evidence, documents)
        return Validation(
            label, score, evidence, reason, _offset(evidence, documents), assessment.qualifying
        )

    def _engine_view(
        self,
        citation: str,
        label: Label,
        reason: str,
        best: Evidence,
        documents: Sequence[Document],
        *,
        up: bool,
    ) -> tuple[Label, str]:
        """The label as a view of the one grade: a citation labelled true (by its cosine, or
        by the lexical pass: its words nearly verbatim somewhere, or most of them in the best
        passage) is moved to ambiguous when the support engine's signals do not read support
        in its ``best`` passage by cosine (the grade the verifier's claims get from the same
        passage, :meth:`SupportAssessor.signals
        <citecheck.judging.support.SupportAssessor.signals>`), so that no door verifies what
        another calls partly supported. When ``up`` (a cosine in the ambiguous band, with the
        lexical pass), a citation the lexical pass left ambiguous, or moved down for the few
        of its words in that passage, is moved up to likely true when they do read support
        (the words they count stand near the passage); the judge then takes its last look."""
        if label not in _TRUE and not up:
            return label, reason
        document = next(d for d in documents if d.id == best.source_id)
        graded = self.engine.signals(citation, document, best, None)
        if label in _TRUE and not graded.would_support:
            moved = Label.AMBIGUOUS
            bound = graded.bounds[0]
            return moved, (
                f"{reason}; moved to {self.label_names[moved]}: the support engine reads "
                f"{graded.detail} (under {bound:.1%})"
            )
        if up and label not in _TRUE and graded.would_support:
            moved = Label.LIKELY_TRUE
            return moved, (
                f"{reason}; moved to {self.label_names[moved]}: the support engine reads "
                f"{graded.detail}"
            )
        return label, reason

    def _judged(
        self,
        citation: str,
        label: Label,
        reason: str,
        evidence: Evidence,
        documents: Sequence[Document],
    ) -> tuple[Label, str]:
        """The label and reason after the trained judge's look at the evidence's document
        (see the module docstring)."""
        assert self.judge is not None
        document = next(d for d in documents if d.id == evidence.source_id)
        if self.support.verbatim(citation, [document]) is not None:
            return label, reason  # its words stand there: the judge is not asked
        whole = Span(0, len(document.text))
        [look] = second_opinions(self.judge, citation, document, [(evidence.span, whole)])
        if look.outcome in ("confirms", "unread"):
            return label, f"{reason}; {look.said()}"
        moved = Label.LIKELY_UNTRUE if look.outcome == "refutes" else Label.AMBIGUOUS
        return moved, f"{reason}; moved to {self.label_names[moved]}: {look.said()}"

    def _lexical_look(
        self, citation: str, best: Evidence, conflict: str | None, documents: Sequence[Document]
    ) -> tuple[Label, Evidence, str]:
        """An ambiguous citation's label after a look at its words, the evidence for it and
        why: up when its words stand nearly verbatim somewhere (that place is the evidence)
        or almost all in the best passage; down when the guard found a change of meaning or
        hardly any of its words are there; else still ambiguous."""
        verbatim = self.support.verbatim(citation, documents)
        if verbatim is not None:
            why = f"its words stand {verdict.located(verbatim)} at {verbatim.score:.0%} similarity"
            return Label.LIKELY_TRUE, verbatim, why
        if conflict:
            return Label.LIKELY_UNTRUE, best, conflict
        moved = _by_coverage(citation, best)
        return (Label.AMBIGUOUS, best, "") if moved is None else (moved[0], best, moved[1])


def check_text(text: str, what: str) -> None:
    """:class:`InputError` naming ``what`` when ``text`` holds a lone surrogate: a JSON escape
    such as ``\\ud800`` reads as one, and no UTF-8 text (the tokenizer's, the sentence
    splitter's, the output file's) can hold it, so it would fail far from its cause."""
    found = SURROGATE.search(text)
    if found is not None:
        raise InputError(
            f"{what} holds a lone surrogate (U+{ord(found.group()):04X}) at character "
            f"{found.start()}, which is not text (an escape such as \\ud800 in JSON)"
        )


_NO_SOURCE_TEXT = Validation(
    Label.NO_SOURCE_TEXT, None, None, "the source has no text to compare with"
)


def _too_short(words: int, needed: int) -> Validation:
    return Validation(
        Label.TOO_SHORT,
        None,
        None,
        f"the citation has {words} word{'s' * (words != 1)}; at least {needed} are needed to "
        "judge it",
    )


def _by_coverage(citation: str, evidence: Evidence) -> tuple[Label, str] | None:
    """Move an ambiguous citation up when almost all of its words are in the best passage,
    down when hardly any are."""
    coverage = word_coverage(citation, evidence.text)
    if coverage is not None:
        if coverage >= _HIGH_COVERAGE:
            return Label.LIKELY_TRUE, f"{coverage:.0%} of its words are in the best passage"
        if coverage <= _LOW_COVERAGE:
            return Label.LIKELY_UNTRUE, f"only {coverage:.0%} of its words are in the best passage"
    return None


def _offset(evidence: Evidence, documents: Sequence[Document]) -> int:
    """Where the evidence's document starts in the combined source text it was split from."""
    document = next(d for d in documents if d.id == evidence.source_id)
    offset = document.metadata.get("offset", 0)
    return offset if isinstance(offset, int) else 0
