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


def meaning_differences(
    text: str, source: str, *, omissions: bool = False, noun: str = "quote"
) -> list[str]:
    """Human sentences naming each change of meaning between a text and the source passage it
    was matched to — a negation or number that differs, a word put in place of another or
    added — or an empty list.

    ``omissions`` also names a word the text leaves out mid-passage (quotations claim to be
    verbatim; claims may condense). A misspelt word (``commision``) or one split by OCR
    (``commit tee``) is never a difference. ``noun`` names the text in the sentences
    ("quote", "claim").
    """
    differences = []
    ours, theirs = _negations(text), _negations(source)
    for word in sorted((theirs - ours).keys()):
        differences.append(f"the source says {word!r} where the {noun} does not")
    for word in sorted((ours - theirs).keys()):
        differences.append(f"the {noun} adds {word!r}, which the source does not say")
    our_numbers, their_numbers = _numbers(text), _numbers(source)
    missing, added = their_numbers - our_numbers, our_numbers - their_numbers
    if missing or added:
        said = ", ".join(sorted(added)) or "no number"
        stands = ", ".join(sorted(missing)) or "no number"
        differences.append(f"the {noun} has {said} where the source has {stands}")
    differences.extend(_word_changes(text, source, omissions=omissions, noun=noun))
    return differences


_STOP_WORDS = frozenset(
    "a an the of to in on at for and or but is are was were be been being it its this that "
    "these those with as by from".split()
)
_CONTRACTED_NOT = re.compile(r"n't\b|\b(?<=can)not\b")


def _words(text: str) -> list[str]:
    """Words for comparing wording; ``didn't`` is ``did not`` so a negation stays one word."""
    words: list[str] = _TOKEN.findall(_CONTRACTED_NOT.sub(" not", normalize(text)))
    return words


def _ignorable(words: list[str]) -> bool:
    """Stop words, numbers and negations: numbers and negations have their own checks."""
    return all(w in _STOP_WORDS or w in _NEGATIONS or w[:1].isdigit() for w in words)


def _word_changes(text: str, source: str, *, omissions: bool, noun: str) -> list[str]:
    from rapidfuzz.distance import Levenshtein

    ours_all, theirs_all = _words(text), _words(source)
    changes = []
    blocks = [op for op in Levenshtein.opcodes(ours_all, theirs_all) if op.tag != "equal"]
    for a, b, c, d in _merged(blocks):
        ours = [w for w in ours_all[a:b] if not _ignorable([w])]
        theirs = [w for w in theirs_all[c:d] if not _ignorable([w])]
        if ours and theirs:
            joined_ours, joined_theirs = "".join(ours), "".join(theirs)
            longest = max(len(joined_ours), len(joined_theirs))
            if Levenshtein.distance(joined_ours, joined_theirs) <= max(1, int(0.3 * longest)):
                continue  # a slip of spelling or spacing, not of wording
            changes.append(
                f"the {noun} has {' '.join(ours)!r} where the source has {' '.join(theirs)!r}"
            )
        elif ours:
            changes.append(f"the {noun} adds {' '.join(ours)!r}")
        elif theirs and omissions and c > 0 and d < len(theirs_all):
            changes.append(f"the {noun} leaves out {' '.join(theirs)!r}")
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
