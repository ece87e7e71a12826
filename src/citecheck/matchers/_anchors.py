"""Finding where a text may stand in a long document from its words, without scanning it all.

A document's word index (:attr:`~citecheck.documents.Document.word_positions`) says where each
normalised word starts. Each anchor word of the query votes for the offset where the query
would start if that occurrence were part of it; the offsets with the most votes from distinct
anchors are where the query is worth aligning. Rare words first: they are the selective ones.
"""

from __future__ import annotations

import itertools
import math
import re
from bisect import bisect_left, bisect_right
from collections import defaultdict
from functools import lru_cache

from citecheck.documents import Document
from citecheck.matchers._needle import REMEMBERED_LENGTH

__all__ = ["LARGE_REGION", "could_hold", "exact_starts", "is_large", "likely_regions"]

LARGE_REGION = 20_000
"""Regions longer than this (and than 50 query lengths) are searched through the word index."""
_MAX_ANCHORS = 6
_MAX_VOTES = 20_000
_MAX_REGIONS = 12
_WORD = re.compile(r"\w+")


def is_large(query_length: int, start: int, end: int) -> bool:
    return end - start > max(LARGE_REGION, 50 * query_length)


def _pairs(target: str) -> tuple[int, ...]:
    return _remembered_pairs(target) if len(target) <= REMEMBERED_LENGTH else _find_pairs(target)


def _find_pairs(target: str) -> tuple[int, ...]:
    words = _WORD.findall(target)
    return tuple({hash(pair) for pair in itertools.pairwise(words)})


_remembered_pairs = lru_cache(maxsize=4096)(_find_pairs)


def could_hold(target: str, document: Document, share: float) -> bool:
    """False when the document holds less than ``share`` of the target's word pairs, so no
    passage of it can be the target (exactly: share 1) or close to it (fuzzily: a slip breaks
    the two pairs around it, so a third of them is plenty)."""
    pairs = _pairs(target)
    if not pairs:
        return True
    present = document.word_pairs
    spare = len(pairs) - max(1, math.ceil(share * len(pairs)))  # pairs that may be missing
    for pair in pairs:
        if pair not in present:
            spare -= 1
            if spare < 0:
                return False
    return True


def _words(target: str) -> tuple[tuple[str, int], ...]:
    return _remembered_words(target) if len(target) <= REMEMBERED_LENGTH else _find_words(target)


def _find_words(target: str) -> tuple[tuple[str, int], ...]:
    """Each distinct word of the query with the offset of its first occurrence."""
    seen: dict[str, int] = {}
    for match in _WORD.finditer(target):
        seen.setdefault(match.group(), match.start())
    return tuple(seen.items())


_remembered_words = lru_cache(maxsize=4096)(_find_words)


def _anchors(target: str, document: Document) -> list[tuple[str, int, list[int]]]:
    """The query's words with their offset in it and their positions, rarest first."""
    index = document.word_positions
    return sorted(
        ((word, offset, index.get(word, [])) for word, offset in _words(target)),
        key=lambda anchor: len(anchor[2]),
    )


def exact_starts(target: str, document: Document, start: int, end: int) -> list[int]:
    """Normalised offsets in ``[start, end)`` where ``target`` may begin, from its rarest word
    (a superset of where it does begin: the caller compares the text). A document that lacks
    one of the target's words is dismissed at once."""
    index = document.word_positions
    rarest: tuple[int, list[int]] | None = None
    for word, offset in _words(target):
        positions = index.get(word)
        if not positions:
            return []
        if rarest is None or len(positions) < len(rarest[1]):
            rarest = (offset, positions)
    if rarest is None:
        return []
    offset, positions = rarest
    lo = bisect_left(positions, start + offset)
    hi = bisect_right(positions, end - len(target) + offset)
    return [p - offset for p in positions[lo:hi]]


def likely_regions(target: str, document: Document, start: int, end: int) -> list[tuple[int, int]]:
    """Up to a dozen normalised ranges in ``[start, end)`` most likely to hold a passage like
    ``target`` (whose words may be misspelt: several anchors vote, so one slip loses one vote)."""
    votes: dict[int, int] = defaultdict(int)  # bucket -> bit set of the anchors voting for it
    bucket = max(8, len(target) // 4)
    counted = 0
    anchors = _anchors(target, document)
    long_words = [a for a in anchors if len(a[0]) >= 3] or anchors
    chosen = long_words[:_MAX_ANCHORS]
    # A passage within the fuzzy threshold keeps most words intact: at least half the anchors.
    needed = max(1, (len(chosen) + 1) // 2)
    if sum(1 for a in chosen if a[2]) < needed:
        return []
    for bit, (_, offset, positions) in enumerate(chosen):
        lo = bisect_left(positions, start)
        hi = bisect_right(positions, end)
        if counted and counted + (hi - lo) > _MAX_VOTES:
            break
        counted += hi - lo
        flag = 1 << bit
        for position in positions[lo:hi]:
            votes[(position - offset) // bucket] |= flag
    # Votes from a bucket's neighbours count too: slips shift where an anchor says we start.
    support = {
        b: (mask | votes.get(b - 1, 0) | votes.get(b + 1, 0)).bit_count()
        for b, mask in votes.items()
    }
    best = sorted((b for b in support if support[b] >= needed), key=lambda b: -support[b])
    best = best[:_MAX_REGIONS]
    if not best:
        return []
    pad = len(target) // 2 + bucket + 20
    spans = sorted(
        (max(start, b * bucket - pad), min(end, b * bucket + len(target) + pad)) for b in best
    )
    merged: list[tuple[int, int]] = []
    for a, b in spans:
        if merged and a <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(merged[-1][1], b))
        else:
            merged.append((a, b))
    return merged
