"""Fuzzy alignment of a short text inside a longer one, with offsets (rapidfuzz).

Both texts are expected normalised (:mod:`citecheck.text`). The alignment finds the window of
the haystack most similar to the target, then moves its edges to word boundaries where that
raises the similarity, so the passage reads as words rather than a cut window.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

__all__ = ["Alignment", "align", "is_word_char"]


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
    similar to the target. Edges never fall inside a word: a passage cut mid-word could hide
    a "not" (``didn't`` cut to ``t``) from the meaning checks."""
    from rapidfuzz import fuzz

    slack = max(6, len(target) // 4)
    starts = _boundaries(haystack, start, slack, _is_word_start)
    ends = _boundaries(haystack, end, slack, _is_word_end)
    best = (-1.0, start, end)
    for s in starts:
        for e in ends:
            if e - s < len(target) // 2:
                continue
            score = fuzz.ratio(target, haystack[s:e], score_cutoff=max(best[0], 0))
            if score > best[0] or (score == best[0] and (e - s) < (best[2] - best[1])):
                best = (score, s, e)
    return best if best[0] >= 0 else (0.0, start, end)


def _is_word_start(text: str, i: int) -> bool:
    return i < len(text) and is_word_char(text[i]) and (i == 0 or not is_word_char(text[i - 1]))


def _is_word_end(text: str, i: int) -> bool:
    return i > 0 and is_word_char(text[i - 1]) and (i == len(text) or not is_word_char(text[i]))


def _boundaries(text: str, around: int, slack: int, test: Callable[[str, int], bool]) -> list[int]:
    """Word boundaries within ``slack`` of ``around``; failing those, the nearest on each side."""
    near = [
        i
        for i in range(max(0, around - slack), min(len(text), around + slack) + 1)
        if test(text, i)
    ]
    if near:
        return near
    before = next((i for i in range(around, -1, -1) if test(text, i)), None)
    after = next((i for i in range(around, len(text) + 1) if test(text, i)), None)
    return [i for i in (before, after) if i is not None] or [around]
