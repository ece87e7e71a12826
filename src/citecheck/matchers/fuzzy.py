"""Fuzzy alignment with rapidfuzz: the best-matching passage, with its offsets, for noisy quotes."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from citecheck.documents import Document
from citecheck.errors import ConfigError
from citecheck.matchers._needle import is_word_char, needle, normalized_region
from citecheck.model import Evidence, Span


@dataclass(frozen=True, slots=True)
class FuzzyMatcher:
    """Aligns the normalised query with the most similar passage of the document.

    rapidfuzz's ``partial_ratio_alignment`` finds the best window of the query's length; its
    edges are then moved to word boundaries where that raises the similarity, so the evidence is
    a readable passage rather than a cut window. The score is the normalised Indel similarity of
    the query and that passage (1.0 = identical after normalisation); passages below
    ``threshold`` are not reported. Queries shorter than ``min_length`` normalised characters
    never match fuzzily: a few characters are similar to something almost anywhere.
    """

    threshold: float = 0.8
    min_length: int = 12
    name = "fuzzy"

    def __post_init__(self) -> None:
        if not 0.0 < self.threshold <= 1.0:
            raise ConfigError(f"fuzzy threshold must be in (0, 1], got {self.threshold}")
        if self.min_length < 1:
            raise ConfigError(f"min_length must be positive, got {self.min_length}")

    def find(self, query: str, document: Document, within: Span | None = None) -> list[Evidence]:
        from rapidfuzz import fuzz

        target = needle(query)
        if len(target) < self.min_length:
            return []
        normalized = document.normalized
        start, end = normalized_region(document, within)
        haystack = normalized.text[start:end]
        if not haystack.strip():
            return []
        cutoff = self.threshold * 100
        if len(haystack) <= len(target):
            # Never let a long query "match" a shorter passage merely contained in it.
            best = (fuzz.ratio(target, haystack), 0, len(haystack))
        else:
            window = fuzz.partial_ratio_alignment(target, haystack, score_cutoff=cutoff * 0.9)
            if window is None:
                return []
            best = _snap_to_words(target, haystack, window.dest_start, window.dest_end)
        score, local_start, local_end = best
        if score < cutoff:
            return []
        orig_start, orig_end = normalized.to_original(start + local_start, start + local_end)
        similarity = round(score / 100, 4)
        return [
            document.evidence(orig_start, orig_end, similarity, self.name, {"fuzzy": similarity})
        ]


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
