"""Semantic validation: how likely a source text says what a citation says, as one of five
labels that reviewers can sort by.

The score is the best cosine similarity between the citation and the source's sentence chunks
(:class:`~citecheck.matchers.embedding.EmbeddingMatcher`). :class:`Thresholds` turns it into a
:class:`Label`. Scores in the ambiguous band get a second, lexical look: the citation's words
standing in the source nearly verbatim (fuzzy alignment) or almost all present in the best
passage move it up; a number or a negation the passage does not share, or hardly any shared
words, move it down. A likely-true score whose best passage does not share the citation's
numbers, negations or quantifiers is moved down to ambiguous by the meaning guard
(:mod:`citecheck.guard`), with or without the lexical pass: similar sentences often differ in
exactly the fact being checked. Every move is written into the reason. Two outcomes are not
scores at all: a citation too short to judge, and a source with no text.

How the labels are written is a :data:`LABEL_SETS` entry: citecheck's own words, or the exact
strings of the validator this module replaces (``"seed"``), for tools that filter on them.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from contextlib import suppress
from dataclasses import dataclass
from enum import StrEnum
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from citecheck.documents import Document, split_sources
from citecheck.documents.split import Sources, as_documents
from citecheck.errors import CitecheckError, ConfigError, InputError
from citecheck.guard import claim_conflicts
from citecheck.matchers.embedding import EmbeddingMatcher
from citecheck.matchers.fuzzy import FuzzyMatcher
from citecheck.model import Evidence
from citecheck.support_model import neighbourhood
from citecheck.text import normalize

if TYPE_CHECKING:
    from citecheck.protocols import Embedder
    from citecheck.tokens import TokenBudget

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

_WORD = re.compile(r"\w+")
_SURROGATE = re.compile("[\ud800-\udfff]")
_CONTENT_WORD = re.compile(r"\w{4,}")
_HIGH_COVERAGE = 0.8  # of the citation's words of four letters or more, in the best passage
_LOW_COVERAGE = 0.2


class Label(StrEnum):
    """The outcome of a semantic validation; the value is what records and reports show."""

    VERY_LIKELY_TRUE = "very likely true"
    LIKELY_TRUE = "likely true"
    AMBIGUOUS = "ambiguous"
    LIKELY_UNTRUE = "likely untrue"
    VERY_LIKELY_UNTRUE = "very likely untrue"
    TOO_SHORT = "too short"
    NO_SOURCE_TEXT = "no source text"


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

    very_likely_true: float = 0.80
    likely_true: float = 0.60
    ambiguous: float = 0.40
    likely_untrue: float = 0.20

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

    @property
    def confidence_percent(self) -> float | None:
        """The score as a percentage with two decimals, clipped to [0, 100]."""
        if self.score is None:
            return None
        return round(100 * min(1.0, max(0.0, self.score)), 2)


class SemanticValidator:
    """Labels citation texts by how closely the sources' sentences match their meaning.

    Configure once, call :meth:`validate` (or :meth:`validate_many`, which embeds all the
    citations of a source in one batch) for each source. ``sources`` may be a text (split into
    documents at lines starting with ``delimiter``), a mapping of id to text or
    :class:`~citecheck.Document`, or an iterable of documents. A citation with fewer than
    ``min_citation_length_words`` words is :attr:`Label.TOO_SHORT`; sources with no text are
    :attr:`Label.NO_SOURCE_TEXT`. ``label_set`` says how reasons (and :attr:`label_names`,
    for callers that write the label out) spell the labels.
    """

    def __init__(
        self,
        embedder: Embedder | None = None,
        *,
        thresholds: Thresholds | None = None,
        min_citation_length_words: int = 3,
        min_chunk_length_chars: int = 20,
        lexical_pass: bool = True,
        fuzzy_threshold: float = 0.8,
        delimiter: str = "Content from ",
        label_set: str = DEFAULT_LABEL_SET,
    ) -> None:
        self.label_names = label_names(label_set)
        if min_citation_length_words < 0:
            raise ConfigError(
                f"min_citation_length_words must not be negative, got {min_citation_length_words}"
            )
        self.thresholds = thresholds or Thresholds()
        self.min_citation_length_words = min_citation_length_words
        self.lexical_pass = lexical_pass
        self.delimiter = delimiter
        self.min_chunk_length_chars = min_chunk_length_chars
        self.matcher = self._matcher(embedder)
        self.fuzzy = FuzzyMatcher(fuzzy_threshold)

    def _matcher(self, embedder: Embedder | None, **options: Any) -> EmbeddingMatcher:
        """The matcher that cuts and embeds the sources' chunks: built here only, so that the
        dry run of :meth:`prefetch` cuts exactly the chunks the validation will rank."""
        return EmbeddingMatcher(
            embedder, top_k=1, min_chunk_length_chars=self.min_chunk_length_chars, **options
        )

    def prefetch(self, sources: Iterable[Sources | str], citations: Iterable[str] = ()) -> None:
        """Embed the chunks of many sources, and many citations, in one call of the embedder.

        A model embeds one large batch far faster than the same texts a source at a time (its
        batches are full and sorted by length; on a GPU many times faster), so a batch of
        records is prefetched before its records are validated one by one. Only the
        embedder's cache is filled: :meth:`validate_many` then returns what it returns without
        it (with a real model, a batch pads its texts differently, which may move a rounded
        confidence by its last digit). The chunks come from a dry run of the matcher's own
        chunking (an embedder that notes the texts it is asked for), never from a second copy
        of it. A source that cannot be read is left for :meth:`validate_many` to report."""
        noted = _NotedTexts(self.matcher.budget)
        dry_run = self._matcher(noted, cache_documents=0)
        for source in sources:
            with suppress(CitecheckError):
                for document in self._documents(source):
                    dry_run.chunks(document)
        self.matcher.prefetch([*noted.texts, *citations])

    def validate(self, citation: str, sources: Sources | str) -> Validation:
        return self.validate_many([citation], sources)[0]

    def validate_many(self, citations: Sequence[str], sources: Sources | str) -> list[Validation]:
        """One :class:`Validation` per citation, in order, against the same sources."""
        for index, citation in enumerate(citations):
            if not isinstance(citation, str):
                raise InputError(f"citation {index} must be a str, got {type(citation).__name__}")
            check_text(citation, f"citation {index}")
        documents = self._documents(sources)
        chunked = [
            d for d in documents if any(_WORD.search(c.text) for c in self.matcher.chunks(d))
        ]
        outcomes: dict[int, Validation] = {}
        scored: list[int] = []
        for index, citation in enumerate(citations):
            words = len(_WORD.findall(citation))
            if words < max(1, self.min_citation_length_words):
                outcomes[index] = Validation(
                    Label.TOO_SHORT,
                    None,
                    None,
                    f"the citation has {words} word{'s' * (words != 1)}; at least "
                    f"{max(1, self.min_citation_length_words)} are needed to judge it",
                )
            elif not chunked:
                outcomes[index] = Validation(
                    Label.NO_SOURCE_TEXT, None, None, "the source has no text to compare with"
                )
            else:
                scored.append(index)
        best: dict[int, Evidence] = {}
        for document in chunked:
            ranked = self.matcher.rank_many([citations[i] for i in scored], document, k=1)
            for index, found in zip(scored, ranked, strict=True):
                if found and (index not in best or _cosine(found[0]) > _cosine(best[index])):
                    best[index] = found[0]
        for index in scored:
            outcomes[index] = self._judged(citations[index], best[index], chunked)
        return [outcomes[i] for i in range(len(citations))]

    def _documents(self, sources: Sources | str) -> list[Document]:
        if isinstance(sources, str):
            check_text(sources, "the source text")
            return split_sources(sources, self.delimiter) if sources.strip() else []
        documents = list(as_documents(sources).values())  # rejects bytes and other non-sources
        for document in documents:
            check_text(document.text, f"source {document.id!r}")
        return documents

    def _judged(self, citation: str, evidence: Evidence, documents: list[Document]) -> Validation:
        score = _cosine(evidence)
        label = self.thresholds.label(score)
        names = self.label_names
        reason = f"best match {_describe(evidence)} at cosine {score:.2f}: {names[label]}"
        document = next(d for d in documents if d.id == evidence.source_id)
        conflict = _conflict(citation, evidence, document)
        if conflict and label in (Label.VERY_LIKELY_TRUE, Label.LIKELY_TRUE):
            label = Label.AMBIGUOUS
            reason += f"; moved to {names[label]} by the meaning guard: {conflict}"
        elif label is Label.AMBIGUOUS and self.lexical_pass:
            verbatim = self._verbatim(citation, documents)
            if verbatim is not None:
                label, evidence = Label.LIKELY_TRUE, verbatim
                document = next(d for d in documents if d.id == evidence.source_id)
                reason += (
                    f"; moved to {names[label]} by the lexical pass: its words stand "
                    f"{_describe(evidence)} at {evidence.score:.0%} similarity"
                )
            else:
                moved = (
                    (Label.LIKELY_UNTRUE, conflict)
                    if conflict
                    else _by_coverage(citation, evidence)
                )
                if moved is not None:
                    label, why = moved
                    reason += f"; moved to {names[label]} by the lexical pass: {why}"
                else:
                    reason += f"; the lexical pass left it {names[label]}"
        offset = document.metadata.get("offset", 0)
        return Validation(label, score, evidence, reason, offset if isinstance(offset, int) else 0)

    def _verbatim(self, citation: str, documents: list[Document]) -> Evidence | None:
        """Where the citation's words stand nearly verbatim in the sources, with no change of
        meaning: a second look at an ambiguous citation whose vector says less than its
        words."""
        for document in documents:
            found = self.fuzzy.find(citation, document)
            if found and not _conflict(citation, found[0], document):
                return found[0]
        return None


def check_text(text: str, what: str) -> None:
    """:class:`InputError` naming ``what`` when ``text`` holds a lone surrogate: a JSON escape
    such as ``\\ud800`` reads as one, and no UTF-8 text (the tokenizer's, the sentence
    splitter's, the output file's) can hold it, so it would fail far from its cause."""
    found = _SURROGATE.search(text)
    if found is not None:
        raise InputError(
            f"{what} holds a lone surrogate (U+{ord(found.group()):04X}) at character "
            f"{found.start()}, which is not text (an escape such as \\ud800 in JSON)"
        )


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


def _by_coverage(citation: str, evidence: Evidence) -> tuple[Label, str] | None:
    """Move an ambiguous citation up when almost all of its words are in the best passage,
    down when hardly any are."""
    words = set(_CONTENT_WORD.findall(normalize(citation)))
    if words:
        present = set(_CONTENT_WORD.findall(normalize(evidence.text)))
        coverage = len(words & present) / len(words)
        if coverage >= _HIGH_COVERAGE:
            return Label.LIKELY_TRUE, f"{coverage:.0%} of its words are in the best passage"
        if coverage <= _LOW_COVERAGE:
            return Label.LIKELY_UNTRUE, f"only {coverage:.0%} of its words are in the best passage"
    return None


def _conflict(citation: str, evidence: Evidence, document: Document) -> str | None:
    """The changes of meaning between ``citation`` and ``evidence`` that the meaning guard
    finds (:func:`~citecheck.guard.claim_conflicts`), in one sentence; ``None`` when none."""
    around = neighbourhood(evidence.span, len(document.text))
    found = claim_conflicts(citation, evidence.text, document.text[around.start : around.end])
    return "; ".join(found) or None


def _cosine(evidence: Evidence) -> float:
    return float(evidence.scores.get("cosine", evidence.score))


def _describe(evidence: Evidence) -> str:
    return f"in {evidence.source_id!r} ({evidence.where()})"
