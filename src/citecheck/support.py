"""Does the cited place support a claim? The semantic step of the verifier, for citations whose
text is a claim rather than a quoted excerpt.

Candidate sentences come from the cited span: the closest by embedding cosine when an embedder
is configured, else the ones sharing the most words with the claim. Without a judge, a
:class:`~citecheck.support_model.SupportModel` turns the best sentence's cosine, the share of the
claim's words standing near it, and any number or negation it does not share into a probability
of support (``model=None`` grades by the bare cosine instead). At or above ``supported`` the
claim is supported, at or above ``partial`` partly supported. With a judge (an NLI model, an
LLM), its probability for the best candidates decides instead.

Whatever decided, the meaning guard (:mod:`citecheck.guard`) has the last word: a claim that
changes a number, a negation or a quantifier of its best sentence is at most partly supported.
The model gives a missing number no weight, because in citation contexts a number often belongs
to another cited work, but a verified claim with the wrong number is the error users least
forgive.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from enum import Enum
from functools import lru_cache
from typing import TYPE_CHECKING

from citecheck.chunking import Chunk, chunk_text
from citecheck.documents import Document
from citecheck.errors import ConfigError
from citecheck.guard import claim_conflicts
from citecheck.judges import judge_many
from citecheck.matchers.embedding import EmbeddingMatcher
from citecheck.model import Evidence, Span
from citecheck.support_model import (
    FITTED_SUPPORT_MODEL,
    SupportModel,
    SupportSignals,
    neighbourhood,
    support_signals,
)
from citecheck.text import normalize

if TYPE_CHECKING:
    from citecheck.protocols import Embedder, Judge

__all__ = ["Assessment", "Grade", "SupportAssessor"]

_WORD = re.compile(r"\w+")
_JUDGE_THRESHOLDS = (0.5, 0.25)  # (supported, partial) of a judge's probability
_COSINE_THRESHOLDS = (0.6, 0.4)  # of the bare cosine, with ``model=None``


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


class SupportAssessor:
    """Grades a claim against a span of a document; see the module docstring."""

    def __init__(
        self,
        embedder: Embedder | None = None,
        judge: Judge | None = None,
        *,
        supported: float | None = None,
        partial: float | None = None,
        candidates: int = 3,
        min_chunk_length_chars: int = 20,
        model: SupportModel | None = FITTED_SUPPORT_MODEL,
    ) -> None:
        if embedder is None and judge is None:
            raise ConfigError("assessing support needs an embedder, a judge, or both")
        self.model = model
        default_supported, default_partial = (
            _JUDGE_THRESHOLDS
            if judge is not None
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
        self.candidates = candidates
        self.min_chunk_length_chars = min_chunk_length_chars
        self.matcher = (
            None
            if embedder is None
            else EmbeddingMatcher(
                embedder, top_k=candidates, min_chunk_length_chars=min_chunk_length_chars
            )
        )

    def assess(self, claim: str, document: Document, within: Span | None) -> Assessment | None:
        """The grade of ``claim`` in ``within`` (all of ``document`` when ``None``); ``None``
        when that place has no text to compare with. Whatever the score, a claim that changes
        a number, a negation or a quantifier of its best passage is at most partly supported
        (:func:`~citecheck.guard.claim_conflicts`)."""
        found = self._candidates(claim, document, within)
        if not found:
            return None
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
        best = found[0]
        cosine = float(best.scores.get("cosine", best.score))
        signals = support_signals(claim, Span(best.start, best.end), document.text, cosine, within)
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
        return _guarded(assessment, claim, document, within)

    def prefetch(self, claims: Sequence[str]) -> None:
        """Embed ``claims`` in one batch ahead of assessing them one by one."""
        if self.matcher is not None:
            self.matcher.prefetch(claims)

    def _grade(self, score: float) -> Grade:
        if score >= self.supported:
            return Grade.SUPPORTED
        if score >= self.partial:
            return Grade.PARTIAL
        return Grade.UNSUPPORTED

    def _candidates(
        self, claim: str, document: Document, within: Span | None
    ) -> tuple[Evidence, ...]:
        if self.matcher is not None:
            return tuple(self.matcher.rank(claim, document, within))
        return _by_shared_words(
            claim, document, within, self.candidates, self.min_chunk_length_chars
        )


def _guarded(
    assessment: Assessment, claim: str, document: Document, within: Span | None
) -> Assessment:
    """``assessment`` with the meaning guard applied: a claim that changes a number, a
    negation or a quantifier of its best passage is at most partly supported, and the detail
    says why."""
    best = assessment.evidence[0]
    around = neighbourhood(best.span, len(document.text), within)
    conflicts = claim_conflicts(claim, best.text, document.text[around.start : around.end])
    if not conflicts:
        return assessment
    grade = Grade.PARTIAL if assessment.grade is Grade.SUPPORTED else assessment.grade
    detail = f"{assessment.detail}, but {'; '.join(conflicts)}"
    return replace(assessment, grade=grade, detail=detail, conflicts=tuple(conflicts))


def _by_shared_words(
    claim: str, document: Document, within: Span | None, k: int, min_chars: int
) -> tuple[Evidence, ...]:
    """Without an embedder: the sentences sharing the largest share of the claim's words."""
    words = set(_WORD.findall(normalize(claim)))
    if not words:
        return ()
    region = within or Span(0, len(document.text))
    chunks = [
        c
        for c in _chunks(document.text, min_chars)
        if c.start < region.end and c.end > region.start
    ]
    scored = sorted(
        ((len(words & set(_WORD.findall(normalize(c.text)))) / len(words), c) for c in chunks),
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


def _with_score(
    evidence: Evidence, score: float, method: str, scores: dict[str, float]
) -> Evidence:
    return replace(evidence, score=round(score, 4), method=method, scores=scores)
