"""What a negation applies to: the one reading of denial that the meaning guard (claims) and
the comparison of a quotation with its source (quotes) share.

A word denies when it is a negation of :data:`~citecheck.language.lexicon.NEGATIONS` ("not
only" adds, and denies nothing), a negative word ("lacks", "hardly", "nunca") or "fail" before
"to" ("heart failure" denies nothing). Two denials in a row cancel ("may not lack", "did not
fail to"): they affirm. What a denial applies to is the words after it that the caller counts
(content words, a number).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from citecheck.language.lexicon import NEGATIONS

__all__ = ["DENIALS", "NEGATIVE_WORDS", "denies_at", "negated"]

ADDITIVE = (["only"], ["just"], ["merely"], ["simply"])
"""What follows a "not" that adds rather than denies: "not only important but…"."""
NEGATIVE_WORDS = frozenset(
    "lack lacks lacked lacking unable absence absent non hardly rarely seldom barely scarcely "
    "nunca nada nadie ninguno ninguna non jamais".split()
)
"""Words that deny without a negation word: "lacks a surface", "hardly changed"."""
FAIL = frozenset("fail fails failed failing".split())
""""fail" denies only before "to": "failed to reduce"; "heart failure" denies nothing."""
DENIALS = NEGATIONS | NEGATIVE_WORDS | FAIL
"""Every word that can deny."""


def denies_at(words: Sequence[str], index: int) -> bool:
    """Whether ``words[index]`` denies (see the module docstring)."""
    if index >= len(words):
        return False
    word, after = words[index], list(words[index + 1 : index + 2])
    return (
        (word in NEGATIONS and after not in ADDITIVE)
        or word in NEGATIVE_WORDS
        or (word in FAIL and after == ["to"])
    )


def negated(
    words: Sequence[str], counted: Callable[[str], bool]
) -> list[tuple[int, tuple[str, ...]]]:
    """Where each denial of ``words`` (a clause, in comparable words) stands, and the words
    after it that ``counted`` keeps (what it may apply to, nearest first). Two denials in a
    row cancel and yield nothing."""
    found = []
    index = 0
    while index < len(words):
        if not denies_at(words, index):
            index += 1
            continue
        if denies_at(words, index + 1):
            index += 2
            continue
        found.append((index, tuple(w for w in words[index + 1 :] if counted(w))))
        index += 1
    return found
