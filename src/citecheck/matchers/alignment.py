"""Fuzzy alignment of a short text inside a longer one, with offsets (rapidfuzz).

Both texts are expected normalised (:mod:`citecheck.language.text`). The alignment finds the window
of the haystack most similar to the target, then moves each edge to the nearby word boundary
that makes the passage most similar, so the passage reads as whole words, never a cut window.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from citecheck.errors import ConfigError
from citecheck.language.text import CJK, SIGNS, sentence_spans

if TYPE_CHECKING:
    from rapidfuzz.distance import ScoreAlignment

__all__ = ["Alignment", "align", "is_word_char", "snap_to_boundaries", "widen_to_words"]

_EDGE_PROBE = 24  # characters compared when choosing where a passage starts and ends
_PROBE = 64  # rapidfuzz aligns a needle this long in one bit-parallel pass
_SETTLED = 90  # a long target's passage this similar (in %) needs no third probe
# a word's edges; "didn't" is one word, and a Chinese or Japanese character is a word of its own
_WORD_START = re.compile(rf"(?<!\w)(?<!\w')\w|[{CJK}]")
_WORD_END = re.compile(rf"\w(?!\w)(?!'\w)|[{CJK}]")
_LOOKAHEAD = 2  # characters _WORD_END looks at after a match


@dataclass(frozen=True, slots=True)
class Alignment:
    """``haystack[start:end]`` is the passage; ``score`` its Indel similarity in [0, 1]."""

    score: float
    start: int
    end: int


def is_word_char(char: str) -> bool:
    return char.isalnum() or char == "_"


def widen_to_words(text: str, start: int, end: int) -> tuple[int, int]:
    """``[start, end)`` grown to cut no word of ``text`` in two. Align in such a slice: its
    edges then are word boundaries of the text, not only of the slice, so a passage snapped to
    the slice's edge does not end mid-word (``was establi``)."""
    while 0 < start < len(text) and _joins(text, start):
        start -= 1
    while 0 < end < len(text) and _joins(text, end):
        end += 1
    return start, end


def snap_to_boundaries(
    text: str, start: int, end: int, snap_to: Literal["word", "sentence"] = "word"
) -> tuple[int, int]:
    """``[start, end)`` grown to the nearest boundaries of ``text``: of words (no word cut in
    two: :func:`widen_to_words`) or of sentences (every sentence it touches whole, as
    :func:`citecheck.language.text.sentence_spans` splits them, which also ends a sentence at a
    blank line). It only ever grows, and offsets stay offsets into ``text``: the quote seed's
    ``snap_to_boundaries(text, start, end, snap_to="word")``."""
    if not 0 <= start <= end <= len(text):
        raise ConfigError(f"[{start}, {end}) is not a span of a text of {len(text)} characters")
    if snap_to == "word":
        return widen_to_words(text, start, end)
    if snap_to != "sentence":
        raise ConfigError(f"snap_to must be 'word' or 'sentence', got {snap_to!r}")
    low, high = widen_to_words(text, start, end)
    for a, b in sentence_spans(text):
        if a < max(high, low + 1) and low < b:  # touches it (an empty span: holds it)
            low, high = min(low, a), max(high, b)
    return low, high


def _joins(text: str, position: int) -> bool:
    """True when the characters on both sides of ``position`` belong to one word (an
    apostrophe between letters, as in ``didn't``, belongs to it too)."""
    before, after = text[position - 1], text[position]
    return (is_word_char(before) or before == "'") and (is_word_char(after) or after == "'")


def align(target: str, haystack: str, min_score: float = 0.0) -> Alignment | None:
    """The passage of ``haystack`` most similar to ``target``; ``None`` when none reaches
    about ``min_score``. A haystack no longer than the target is compared whole: a long
    target never "matches" a shorter passage merely contained in it."""
    from rapidfuzz import fuzz

    if not target or not haystack or haystack.isspace():
        return None
    if len(haystack) <= len(target):
        return Alignment(fuzz.ratio(target, haystack) / 100, 0, len(haystack))
    if len(target) > 2 * _PROBE:
        return _align_long(target, haystack, min_score)
    window = fuzz.partial_ratio_alignment(target, haystack, score_cutoff=min_score * 90)
    if window is None:
        return None
    # The passage's edges lie within the window's edits of its edges: a near-perfect window
    # needs only the boundaries next to it compared.
    edits = math.ceil((1 - window.score / 100) * 2 * len(target)) + 2
    slack = max(6, min(len(target) // 4, edits))
    score, start, end = _snap_to_words(target, haystack, window.dest_start, window.dest_end, slack)
    return Alignment(score / 100, start, end)


def _align_long(target: str, haystack: str, min_score: float) -> Alignment | None:
    """A long target placed by its first and last ``_PROBE`` characters, each aligned on its
    own, then snapped to words as any window is. Aligning all of a target of a few hundred
    characters at every offset costs rapidfuzz about a millisecond; a probe that short takes
    its fast path, a few microseconds. When the two probes agree and the passage between them
    is close to the target, that is the passage. Otherwise the middle ``_PROBE`` characters
    are aligned too, each probe proposes a passage of the target's length where it stands, and
    the most similar proposal is snapped: a head and a tail quoted elsewhere (a summary) leave
    the middle probe to find the passage itself, and a quote spliced from two places matches
    none of them well."""
    from rapidfuzz import fuzz

    length = len(target)
    slack = max(6, length // 8)
    head, tail = _probe(target, haystack, 0), _probe(target, haystack, length - _PROBE)
    best = (0.0, 0, 0)
    if abs(tail.dest_end - head.dest_start - length) <= length // 4:
        best = _snap_to_words(target, haystack, head.dest_start, tail.dest_end, slack)
    if best[0] < _SETTLED:
        middle = (length - _PROBE) // 2
        seeds = {
            (probe.dest_start - offset, probe.dest_start - offset + length)
            for probe, offset in (
                (head, 0),
                (_probe(target, haystack, middle), middle),
                (tail, length - _PROBE),
            )
        }
        # Only the most similar proposal is snapped: snapping costs a dozen comparisons.
        windows = [
            (fuzz.ratio(target, haystack[a:b]), a, b)
            for a, b in ((max(0, a), min(len(haystack), b)) for a, b in sorted(seeds))
            if a < b
        ]
        if windows:
            _, a, b = max(windows)
            best = max(best, _snap_to_words(target, haystack, a, b, slack))
    if best[0] < min_score * 90:
        return None
    return Alignment(best[0] / 100, best[1], best[2])


def _probe(target: str, haystack: str, offset: int) -> ScoreAlignment:
    """Where ``target[offset : offset + _PROBE]`` aligns best in ``haystack``."""
    from rapidfuzz import fuzz

    found = fuzz.partial_ratio_alignment(target[offset : offset + _PROBE], haystack)
    assert found is not None  # without a cutoff there is always a window
    return found


def _snap_to_words(
    target: str, haystack: str, start: int, end: int, slack: int
) -> tuple[float, int, int]:
    """Move the window's edges to the word boundaries within ``slack`` of them that make the
    passage most similar to the target at that edge (its first or last few characters). Edges
    never fall inside a word: a passage cut mid-word could hide a "not" (``didn't`` cut to
    ``t``) from the meaning checks."""
    from rapidfuzz import fuzz

    k = min(len(target), _EDGE_PROBE)
    head, tail = target[:k], target[-k:]
    # On a tie the wider passage wins: a word too many is harmless, a word too few could be
    # the "not" that the meaning checks must see.
    # Where the target's first (last) characters stand verbatim near an edge, on a word
    # boundary, no other boundary compares better: the common case, settled by a search.
    verbatim = haystack.find(head, max(0, start - slack), start + slack + k)
    if verbatim != -1 and _WORD_START.match(haystack, verbatim):
        best_start = verbatim
    else:
        starts = _boundaries(_WORD_START, haystack, start, slack)
        best_start = max(starts, key=lambda a: (fuzz.ratio(head, haystack[a : a + k]), -a))
    verbatim = haystack.rfind(tail, max(0, end - slack - k), end + slack)
    if verbatim >= best_start and _WORD_END.match(haystack, verbatim + k - 1):
        best_end = verbatim + k
    else:
        ends = [
            e + 1 for e in _boundaries(_WORD_END, haystack, end - 1, slack) if e + 1 > best_start
        ]
        if not ends:
            return 0.0, start, end
        best_end = max(ends, key=lambda b: (fuzz.ratio(tail, haystack[max(0, b - k) : b]), b))
    best_start, best_end = _with_signs(target, haystack, best_start, best_end)
    return fuzz.ratio(target, haystack[best_start:best_end]), best_start, best_end


"""Signs that carry meaning (:mod:`citecheck.language.meaning` compares them), never word
characters."""


def _with_signs(target: str, haystack: str, start: int, end: int) -> tuple[int, int]:
    """The passage grown over the signs just outside its word edges that the target has at
    its own edges: "(0,4%)" ends on "4" as words go, and a passage without its "%" would
    read as a quote that adds one."""
    after = end
    while after < len(haystack) and haystack[after] in SIGNS:
        after += 1
    if after > end and target.endswith(haystack[end:after]):
        end = after
    before = start
    while before > 0 and haystack[before - 1] in SIGNS:
        before -= 1
    if before < start and target.startswith(haystack[before:start]):
        start = before
    return start, end


def _boundaries(pattern: re.Pattern[str], text: str, around: int, slack: int) -> list[int]:
    """Positions ``pattern`` matches within ``slack`` of ``around``; failing any, the nearest
    on each side (a window far from a word boundary, in a very long word)."""
    # The search runs _LOOKAHEAD characters past the last position wanted: ``endpos`` makes
    # the text end there, and a word cut by it would look as if it ended.
    last = around + slack
    near = [
        m.start()
        for m in pattern.finditer(text, max(0, around - slack), last + 1 + _LOOKAHEAD)
        if m.start() <= last
    ]
    if near:
        return near
    before = [
        m.start() for m in pattern.finditer(text, 0, around + _LOOKAHEAD) if m.start() < around
    ][-1:]
    after = pattern.search(text, around)
    return before + ([after.start()] if after else []) or [around]
