"""How likely a passage supports a claim, from four signals combined by a fitted logistic model.

The best cosine alone is a weak judge of support (balanced accuracy 0.57–0.66 on five public
sets, see ``docs/benchmarks.md``): a paraphrase and a contradiction of a sentence embed alike,
and a fixed threshold of 0.6 suits some corpora and not others. Whether the claim's own words
stand near the passage adds what the embedding misses, and a number or a negation the passage
does not share is the classic way a similar sentence says something else.

:data:`FITTED_SUPPORT_MODEL` holds plain numbers written by ``benchmarks/fit_support.py``, which
fits them on Citation-Integrity *train* (biomedical citation contexts) with both classes weighed
equally, so that a probability of 0.5 is the balanced decision. No reported set was fitted on.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from citecheck.language.meaning import negation_counts
from citecheck.language.numbers import numbers_present
from citecheck.language.quantities import quantities_in, without_references
from citecheck.language.text import CONTENT_WORD, normalize
from citecheck.model import Span

__all__ = [
    "CASCADE_GATE",
    "FITTED_SUPPORT_MODEL",
    "SupportModel",
    "SupportSignals",
    "neighbourhood",
    "support_signals",
]

NEIGHBOURHOOD_CHARS = 1000
"""How far around the best passage the claim's words and numbers are looked for: a claim often
draws on the sentences next to the one that matches it best, not on a whole long document."""

_STEM_CHARS = 5  # "reported" and "reports" share "repor": a crude stem that needs no language


@dataclass(frozen=True, slots=True)
class SupportSignals:
    """What the model reads about a claim and its best passage.

    ``coverage`` is the share of the claim's words of four letters or more (compared by their
    first five letters, author references left out) found within :data:`NEIGHBOURHOOD_CHARS`
    of the passage; ``missing_number`` the first quantity the claim states
    (:func:`~citecheck.language.quantities.stated_numbers`) that is not found there, in digits or in
    words; ``negation_differs`` whether the claim and the passage itself differ in their
    negations.
    """

    cosine: float
    coverage: float
    missing_number: str | None
    negation_differs: bool


@dataclass(frozen=True, slots=True)
class SupportModel:
    """A logistic model of support: weights of the signals, and the probability bounds of the
    grades (``supported`` maximises balanced accuracy on the fitting set; ``partial`` keeps 90 %
    of its supported pairs at or above it)."""

    intercept: float
    cosine: float
    coverage: float
    missing_number: float
    negation_differs: float
    supported: float
    partial: float

    def probability(self, signals: SupportSignals) -> float:
        logit = (
            self.intercept
            + self.cosine * signals.cosine
            + self.coverage * signals.coverage
            + self.missing_number * (signals.missing_number is not None)
            + self.negation_differs * signals.negation_differs
        )
        return 1.0 / (1.0 + math.exp(-logit))


# Written by benchmarks/fit_support.py (Citation-Integrity train, 2,138 pairs); rerun it to refit.
FITTED_SUPPORT_MODEL = SupportModel(
    intercept=-2.59,
    cosine=2.626,
    coverage=1.855,
    missing_number=0.0,
    negation_differs=-0.189,
    supported=0.55,
    partial=0.36,
)


# Written by benchmarks/fit_support.py: the probability of the fitted model that keeps 98 % of
# the supported CitInt train pairs at or above it. Below it, a claim is unsupported without
# asking the trained judge (the cascade of citecheck.judging.support).
CASCADE_GATE = 0.281


def neighbourhood(passage: Span, length: int, within: Span | None = None) -> Span:
    """The text within :data:`NEIGHBOURHOOD_CHARS` of ``passage`` (of a text of ``length``
    characters), inside ``within`` when it is given."""
    bounds = within or Span(0, length)
    return Span(
        max(bounds.start, passage.start - NEIGHBOURHOOD_CHARS),
        min(bounds.end, passage.end + NEIGHBOURHOOD_CHARS),
    )


def support_signals(
    claim: str, passage: Span, text: str, cosine: float, within: Span | None = None
) -> SupportSignals:
    """The signals of ``claim`` against ``passage`` of ``text`` (both spans index ``text``);
    the neighbourhood around the passage stays inside ``within`` when it is given."""
    around = neighbourhood(passage, len(text), within)
    nearby = normalize(text[around.start : around.end])
    own_words = normalize(without_references(claim))  # not the names of other works
    stems = {word[:_STEM_CHARS] for word in CONTENT_WORD.findall(own_words)}
    present = {word[:_STEM_CHARS] for word in CONTENT_WORD.findall(nearby)}
    coverage = len(stems & present) / len(stems) if stems else 0.0
    numbers = numbers_present(nearby)
    missing = next((q.value for q in quantities_in(own_words) if q.value not in numbers), None)
    said = normalize(text[passage.start : passage.end])
    return SupportSignals(
        cosine=cosine,
        coverage=coverage,
        missing_number=missing,
        negation_differs=negation_counts(normalize(claim)) != negation_counts(said),
    )
