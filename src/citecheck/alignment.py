"""Fuzzy alignment of a short text inside a longer one, with offsets (rapidfuzz).

Both texts are expected normalised (:mod:`citecheck.text`). The alignment finds the window of
the haystack most similar to the target, then moves each edge to the nearby word boundary
that makes the passage most similar, so the passage reads as whole words, never a cut window.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

__all__ = ["Alignment", "align", "is_word_char"]

_WORD = re.compile(r"\w+")


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
    similar to the target: first the start (against the raw end), then the end. Edges never
    fall inside a word: a passage cut mid-word could hide a "not" (``didn't`` cut to ``t``)
    from the meaning checks."""
    from rapidfuzz import fuzz

    slack = max(6, len(target) // 4)
    lo, hi = max(0, start - slack), min(len(haystack), end + slack)
    words = [m.span() for m in _WORD.finditer(haystack, lo, hi)]
    starts = [a for a, _ in words if abs(a - start) <= slack and _is_word_start(haystack, a)]
    ends = [b for _, b in words if abs(b - end) <= slack and _is_word_end(haystack, b)]
    starts = starts or _nearest(haystack, start, _is_word_start)
    ends = ends or _nearest(haystack, end, _is_word_end)

    def best_of(spans: list[tuple[int, int]]) -> tuple[float, int, int]:
        scored = [(fuzz.ratio(target, haystack[a:b]), a, b) for a, b in spans if b > a]
        return max(scored, key=lambda x: (x[0], -(x[2] - x[1])), default=(0.0, start, end))

    _, best_start, _ = best_of([(a, max(end, a + 1)) for a in starts])
    return best_of([(best_start, b) for b in ends if b > best_start])


def _is_word_start(text: str, i: int) -> bool:
    return i < len(text) and is_word_char(text[i]) and (i == 0 or not is_word_char(text[i - 1]))


def _is_word_end(text: str, i: int) -> bool:
    return i > 0 and is_word_char(text[i - 1]) and (i == len(text) or not is_word_char(text[i]))


def _nearest(text: str, around: int, test: Callable[[str, int], bool]) -> list[int]:
    """The nearest word boundary on each side of ``around`` (for windows far from any)."""
    before = next((i for i in range(around, -1, -1) if test(text, i)), None)
    after = next((i for i in range(around, len(text) + 1) if test(text, i)), None)
    return [i for i in (before, after) if i is not None] or [around]
