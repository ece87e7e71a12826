"""Changes of meaning that similarity scores forgive but readers must not: a negation dropped or
added, a number changed. A match with such a difference is never reported as verified."""

from __future__ import annotations

import re
from collections import Counter

from citecheck.text import normalize

__all__ = ["elided_negations", "meaning_differences"]

_TOKEN = re.compile(r"\w+(?:'\w+)?")
_NUMBER = re.compile(r"\d+(?:[.,]\d+)*")
_NEGATIONS = frozenset(
    [
        "not",
        "no",
        "never",
        "none",
        "nor",
        "nothing",
        "nobody",
        "nowhere",
        "neither",
        "without",
        "cannot",
        "cant",
        "dont",
        "doesnt",
        "didnt",
        "isnt",
        "arent",
        "wasnt",
        "werent",
        "wont",
        "wouldnt",
        "shouldnt",
        "couldnt",
        "hasnt",
        "havent",
        "hadnt",
        "mustnt",
        "neednt",
        "kein",
        "keine",
        "nicht",
        "nie",
        "niet",
        "geen",
        "nooit",
        "pas",
        "jamais",
    ]
)


def _negations(text: str) -> Counter[str]:
    found: Counter[str] = Counter()
    for token in _TOKEN.findall(normalize(text)):
        bare = token.replace("'", "")
        if bare in _NEGATIONS or token.endswith("n't"):
            found["not" if token.endswith("n't") else bare] += 1
    return found


def _numbers(text: str) -> Counter[str]:
    return Counter(n.replace(",", "") for n in _NUMBER.findall(normalize(text)))


def meaning_differences(quote: str, source: str) -> list[str]:
    """Human sentences naming each negation or number that differs between a quote and the
    source passage it was matched to; empty when none does."""
    differences = []
    quoted, stated = _negations(quote), _negations(source)
    for word in sorted((stated - quoted).keys()):
        differences.append(f"the source says {word!r} where the quote does not")
    for word in sorted((quoted - stated).keys()):
        differences.append(f"the quote adds {word!r}, which the source does not say")
    quoted_numbers, stated_numbers = _numbers(quote), _numbers(source)
    missing, added = stated_numbers - quoted_numbers, quoted_numbers - stated_numbers
    if missing or added:
        said = ", ".join(sorted(added)) or "no number"
        stands = ", ".join(sorted(missing)) or "no number"
        differences.append(f"the quote has {said} where the source has {stands}")
    return differences


def elided_negations(elided: str) -> list[str]:
    """Negations inside the part of a sentence that an ellipsis left out.

    Only the clause touching the ellipsis counts — text up to the first and after the last
    sentence end — so eliding whole unrelated sentences is not flagged.
    """
    pieces = re.split(r"(?<=[.!?])\s+", elided.strip())
    near = pieces[0] if len(pieces) == 1 else f"{pieces[0]} {pieces[-1]}"
    return [f"the ellipsis leaves out {word!r}" for word in sorted(_negations(near))]
