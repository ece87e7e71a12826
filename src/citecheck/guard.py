"""The meaning guard: the changes of meaning that no score may forgive in a claim.

A claim may paraphrase its source, so its wording is not checked word for word the way a
quotation's is (:func:`~citecheck.meaning.meaning_differences`). A paraphrase is judged by a
similarity score, a fitted support model, an NLI judge or an LLM, and every one of them can
rate "The drug reduced mortality" as supported by "The drug did not reduce mortality", or "over
six months" by "over three months": the sentences share everything but the one fact that
matters. So after any scorer has spoken, :func:`claim_conflicts` looks for the three changes a
paraphrase may never make, and a claim with one is at most partly supported:

- a number the claim states (in digits or words, with its scale: "5 million" is not "5
  billion") that does not stand in the source near the passage, or stands there only with
  another unit ("6 months" where the source has "6 weeks");
- a negation the claim has and the passage lacks, or the reverse, where the negated clause
  is about what the claim says ("did not reduce mortality" against "reduced mortality"; a
  negation in an unrelated clause of the passage does not count);
- a universal quantifier ("all", "always", "every") where the source says "some", "most" or
  "often".

The rules lean towards refusing: a claim wrongly refused is shown to the user with a reason to
check, while a false claim wrongly verified is the one error a verifier must not make.
"""

from __future__ import annotations

import re

from citecheck.meaning import NEGATIONS, STOP_WORDS, comparable_words, fold_letters
from citecheck.numbers import quantities_present
from citecheck.quantities import stated_quantities
from citecheck.text import normalize

__all__ = ["claim_conflicts"]

_CLAUSE_END = re.compile(
    r"[,;:.!?()\[\]]|\b(?:but|whereas|while|although|though|however|yet|except|unlike)\b"
)
_UNIVERSAL = frozenset(
    "all every each always everyone everybody everything entire entirely whole completely "
    "totally invariably universally".split()
)
_PARTIAL = frozenset(
    "some several few many most mostly often sometimes occasionally rarely seldom usually "
    "partly partially majority minority half certain various generally frequently typically "
    "largely".split()
)
_STEM = 5  # "reduced" and "reduction" share "reduc": a stem that needs no language
_SHOWN_NUMBERS = 3


def claim_conflicts(claim: str, passage: str, nearby: str | None = None) -> list[str]:
    """Human sentences naming each change of meaning between ``claim`` and the source
    ``passage`` that supports it best, or an empty list (see the module docstring).

    ``nearby`` is the source text around the passage (the passage included): a claim may take
    a number from the sentence next to the one that matches it best, and a scorer's "best"
    sentence may not be the one the claim is about, so negations and quantifiers are read in
    every clause of it that bears on the claim.
    """
    own = normalize(claim)
    said = normalize(passage)
    around = normalize(nearby) if nearby else said
    claim_words = comparable_words(own)
    stems = _stems(claim_words)
    relevant = [clause for clause in _clauses(around) if _bears_on(clause, stems)]
    conflicts = _number_conflicts(claim, said, around)
    conflicts.extend(_negation_conflicts(claim_words, relevant, _clauses(around)))
    conflicts.extend(_quantifier_conflicts(claim_words, relevant))
    return conflicts


def _number_conflicts(claim: str, passage: str, nearby: str) -> list[str]:
    stated = stated_quantities(claim)
    if not stated:
        return []
    present = quantities_present(nearby)
    conflicts = []
    for quantity in stated:
        same = [q for q in present if q.value == quantity.value]
        if any(quantity.unit is None or q.unit in (None, quantity.unit) for q in same):
            continue
        theirs = same or quantities_present(passage)
        written = list(dict.fromkeys(q.written.strip() for q in theirs))[:_SHOWN_NUMBERS]
        conflicts.append(
            f"the claim has the number {quantity.written.strip()!r} where the source has "
            + (", ".join(repr(w) for w in written) if written else "no such number")
        )
    return conflicts


def _clauses(text: str) -> list[list[str]]:
    return [comparable_words(part) for part in _CLAUSE_END.split(text) if part.strip()]


def _bears_on(clause: list[str], claim_stems: set[str]) -> bool:
    """Whether a clause and the claim share at least half of the content words of one of
    them: "the drug did not reduce mortality" bears on "the drug reduced mortality", and "the
    mortality did not fall in the trial" on "mortality fell"; "it did not affect sleep" does
    not."""
    content = _stems(clause)
    shared = 2 * len(content & claim_stems)
    return bool(content) and (shared >= len(content) or shared >= len(claim_stems))


def _negation_conflicts(
    claim: list[str], relevant: list[list[str]], clauses: list[list[str]]
) -> list[str]:
    """A negation on one side only, where it bears on what the claim says."""
    ours = [word for word in claim if word in NEGATIONS]
    theirs = [word for clause in relevant for word in clause if word in NEGATIONS]
    if ours and not theirs:
        said = ", ".join(repr(word) for word in dict.fromkeys(ours))
        return [f"the claim has the negation {said}, which the source does not"]
    if theirs and not ours:
        said = ", ".join(repr(word) for word in dict.fromkeys(theirs))
        return [f"the source has the negation {said}, which the claim does not"]
    affirmed = _affirmed(claim, clauses)
    if affirmed:
        return [f"the claim negates {affirmed!r}, which the source affirms"]
    return []


def _affirmed(claim: list[str], clauses: list[list[str]]) -> str | None:
    """A word the claim negates that the source says only in clauses with no negation."""
    negated = _negated_words(claim)
    if not negated:
        return None
    affirmed: set[str] = set()
    denied: set[str] = set()
    for clause in clauses:
        target = denied if any(word in NEGATIONS for word in clause) else affirmed
        target.update(_stems(clause))
    return next((w for w in negated if _stem(w) in affirmed - denied), None)


def _negated_words(words: list[str]) -> list[str]:
    """The content word each negation of ``words`` applies to (the next one that is not a
    stop word)."""
    return [
        target
        for index, word in enumerate(words)
        if word in NEGATIONS
        and (target := next((w for w in words[index + 1 :] if _content(w)), ""))
    ]


def _quantifier_conflicts(claim: list[str], relevant: list[list[str]]) -> list[str]:
    """A universal quantifier in the claim where the clauses about it limit the statement."""
    universal = [word for word in claim if word in _UNIVERSAL]
    said = {word for clause in relevant for word in clause}
    if universal and not said & _UNIVERSAL and said & _PARTIAL:
        limited = ", ".join(repr(word) for word in sorted(said & _PARTIAL))
        return [f"the claim says {universal[0]!r} where the source says {limited}"]
    return []


def _content(word: str) -> bool:
    return word not in STOP_WORDS and word not in NEGATIONS and not word[:1].isdigit()


def _stem(word: str) -> str:
    return fold_letters(word[:_STEM])


def _stems(words: list[str]) -> set[str]:
    return {_stem(word) for word in words if _content(word) and len(word) > 2}
