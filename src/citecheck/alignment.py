"""Fuzzy alignment of a short text inside a longer one, with offsets (rapidfuzz).

Both texts are expected normalised (:mod:`citecheck.text`). The alignment finds the window of
the haystack most similar to the target, then moves each edge to the nearby word boundary
that makes the passage most similar, so the passage reads as whole words, never a cut window.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = ["Alignment", "align", "is_word_char"]

_EDGE_PROBE = 24  # characters compared when choosing where a passage starts and ends
_WORD_START = re.compile(r"(?<!\w)(?<!\w')\w")  # "didn't" is one word, not "didn" and "t"
_WORD_END = re.compile(r"\w(?!\w)(?!'\w)")


@dataclass(frozen=True, slots=True)
class Alignment:
    """``haystack[start:end]`` is the passage; ``score`` its Indel similarity in [0, 1]."""

    score: float
    start: int
    end: int


def is_word_char(char: str) -> bool:
    return char.isalnum() or char == "_"


def align(target: str, haystack: str, min_score: float = 0.0) -> Alignment | None:
    """The passage of ``haystack`` most similar to ``target``; ``None`` when none reaches
    about ``min_score``. A haystack no longer than the target is compared whole: a long
    target never "matches" a shorter passage merely contained in it."""
    from rapidfuzz import fuzz

    if not target or not haystack.strip():
        return None
    if len(haystack) <= len(target):
        return Alignment(fuzz.ratio(target, haystack) / 100, 0, len(haystack))
    window = fuzz.partial_ratio_alignment(target, haystack, score_cutoff=min_score * 90)
    if window is None:
        return None
    score, start, end = _snap_to_words(target, haystack, window.dest_start, window.dest_end)
    return Alignment(score / 100, start, end)


def _snap_to_words(target: str, haystack: str, start: int, end: int) -> tuple[float, int, int]:
    """Move the window's edges to the word boundaries near them that make the passage most
    similar to the target at that edge (its first or last few characters). Edges never
    fall inside a word: a passage cut mid-word could hide a "not" (``didn't`` cut to ``t``)
    from the meaning checks."""
    from rapidfuzz import fuzz

    slack = max(6, len(target) // 4)
    k = min(len(target), _EDGE_PROBE)
    head, tail = target[:k], target[-k:]
    # On a tie the wider passage wins: a word too many is harmless, a word too few could be
    # the "not" that the meaning checks must see.
    starts = _boundaries(_WORD_START, haystack, start, slack)
    best_start = max(starts, key=lambda a: (fuzz.ratio(head, haystack[a : a + k]), -a))
    ends = [e + 1 for e in _boundaries(_WORD_END, haystack, end - 1, slack) if e + 1 > best_start]
    if not ends:
        return 0.0, start, end
    best_end = max(ends, key=lambda b: (fuzz.ratio(tail, haystack[max(0, b - k) : b]), b))
    return fuzz.ratio(target, haystack[best_start:best_end]), best_start, best_end


def _boundaries(pattern: re.Pattern[str], text: str, around: int, slack: int) -> list[int]:
    """Positions ``pattern`` matches within ``slack`` of ``around``; failing any, the nearest
    on each side (a window far from a word boundary, in a very long word)."""
    near = [m.start() for m in pattern.finditer(text, max(0, around - slack), around + slack + 1)]
    if near:
        return near
    before = [m.start() for m in pattern.finditer(text, 0, around)][-1:]
    after = pattern.search(text, around)
    return before + ([after.start()] if after else []) or [around]
