"""Changes of meaning that similarity scores forgive but readers must not: a negation dropped or
added, a number changed. A match with such a difference is never reported as verified."""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

from citecheck.text import normalize

__all__ = ["elided_negations", "meaning_differences"]

_TOKEN = re.compile(r"\w+(?:'\w+)?")
_NUMBER = re.compile(r"\d+(?:[.,]\d+)*")
_NEGATIONS = frozenset(
    "not no never none nor nothing nobody nowhere neither without cannot cant dont doesnt "
    "didnt isnt arent wasnt werent wont wouldnt shouldnt couldnt hasnt havent hadnt mustnt "
    "neednt kein keine nicht nie niet geen nooit pas jamais".split()
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


def meaning_differences(quote: str, source: str, *, wording: bool = False) -> list[str]:
    """Human sentences naming each negation or number that differs between a quote and the
    source passage it was matched to; empty when none does.

    With ``wording`` (for quotations, which claim to be verbatim) a word the quote puts in place
    of another, adds, or leaves out mid-passage is a difference too; a misspelt word
    (``commision``) or a word split by OCR (``commit tee``) is not.
    """
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
    if wording:
        differences.extend(_word_changes(quote, source))
    return differences


_STOP_WORDS = frozenset(
    "a an the of to in on at for and or but is are was were be been being it its this that "
    "these those with as by from".split()
)


def _words(text: str) -> list[str]:
    words: list[str] = _TOKEN.findall(normalize(text))
    return words


def _ignorable(words: list[str]) -> bool:
    """Stop words, numbers and negations: numbers and negations have their own checks."""
    return all(
        w in _STOP_WORDS or w in _NEGATIONS or w.endswith("n't") or w[:1].isdigit() for w in words
    )


def _word_changes(quote: str, source: str) -> list[str]:
    from rapidfuzz.distance import Levenshtein

    quoted, stated = _words(quote), _words(source)
    changes = []
    blocks = [op for op in Levenshtein.opcodes(quoted, stated) if op.tag != "equal"]
    for op in _merged(blocks):
        ours, theirs = quoted[op[0] : op[1]], stated[op[2] : op[3]]
        if ours and theirs:
            a, b = "".join(ours), "".join(theirs)
            if Levenshtein.distance(a, b) <= max(1, int(0.3 * max(len(a), len(b)))):
                continue  # a slip of spelling or spacing, not of wording
            if _ignorable(ours) and _ignorable(theirs):
                continue
            changes.append(
                f"the quote has {' '.join(ours)!r} where the source has {' '.join(theirs)!r}"
            )
        elif ours and not _ignorable(ours):
            changes.append(f"the quote adds {' '.join(ours)!r}")
        elif theirs and op[2] > 0 and op[3] < len(stated) and not _ignorable(theirs):
            changes.append(f"the quote leaves out {' '.join(theirs)!r}")
    return changes


def _merged(blocks: list[Any]) -> list[tuple[int, int, int, int]]:
    """Adjacent edit operations as one block: ``(quote_start, quote_end, source_start,
    source_end)``."""
    merged: list[list[int]] = []
    for op in blocks:
        if merged and merged[-1][1] == op.src_start and merged[-1][3] == op.dest_start:
            merged[-1][1], merged[-1][3] = op.src_end, op.dest_end
        else:
            merged.append([op.src_start, op.src_end, op.dest_start, op.dest_end])
    return [(a, b, c, d) for a, b, c, d in merged]


def elided_negations(elided: str) -> list[str]:
    """Negations inside the part of a sentence that an ellipsis left out.

    Only the clause touching the ellipsis counts — text up to the first and after the last
    sentence end — so eliding whole unrelated sentences is not flagged.
    """
    pieces = re.split(r"(?<=[.!?])\s+", elided.strip())
    near = pieces[0] if len(pieces) == 1 else f"{pieces[0]} {pieces[-1]}"
    return [f"the ellipsis leaves out {word!r}" for word in sorted(_negations(near))]
