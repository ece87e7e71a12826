"""A word index over one document or many, for finding where a text may stand without reading
every document.

Before aligning anything, the matchers ask two questions of the text they look for:

- *which documents hold every one of its word pairs?* Only those can hold it exactly. Each word
  pair maps to the documents holding it: a pair no document holds rules the text out with one
  lookup, and otherwise only the documents of its rarest pair are checked for the others.
- *where do its words vote for it to stand?* Each anchor word (the rarest of its words) votes
  for the offset where the text would start if that occurrence were part of it; the places
  with votes from at least half the anchors are where a passage like it (its words possibly
  misspelt) is worth aligning. The vote runs over the whole corpus at once, with numpy: a
  document's words sit at ``(its index << 40) + offset``, so every document has its own range
  of offsets and a vote never straddles two of them.

Searching for a quote that stands nowhere thus costs one vote instead of one per document.
"""

from __future__ import annotations

import math
from array import array
from bisect import bisect_left, bisect_right
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from citecheck.documents import Document
from citecheck.language.text import WORD, pair_hashes
from citecheck.matchers.needle import REMEMBERED_LENGTH

if TYPE_CHECKING:
    import numpy as np

__all__ = ["LARGE_REGION", "WordIndex", "could_hold", "exact_starts", "is_large"]

LARGE_REGION = 20_000
"""Regions longer than this (and than 50 query lengths) are searched through the word index."""
_SHIFT = 40  # a document's offsets start at its index << _SHIFT
_HALF = 1 << (_SHIFT - 1)
_MAX_ANCHORS = 6
_MAX_VOTES = 50_000  # occurrences the anchors may cast in all; rarer anchors come first
_MAX_REGIONS = 16
_BITS_SET = [bin(mask).count("1") for mask in range(1 << _MAX_ANCHORS)]


def is_large(query_length: int, start: int, end: int) -> bool:
    return end - start > max(LARGE_REGION, 50 * query_length)


def could_hold(target: str, document: Document, share: float) -> bool:
    """False when the document holds less than ``share`` of the target's word pairs, so no
    passage of it can be the target (exactly: share 1) or close to it (fuzzily: a slip breaks
    the two pairs around it, so a third of them is plenty)."""
    keys = pair_keys(target)
    if not len(keys):
        return True
    needed = max(1, math.ceil(share * len(keys)))
    return document.word_pairs.count(keys) >= needed


def exact_starts(target: str, document: Document, start: int, end: int) -> list[int]:
    """Normalised offsets in ``[start, end)`` where ``target`` may begin, from its rarest word
    (a superset of where it does begin: the caller compares the text). A document that lacks
    one of the target's words is dismissed at once."""
    index = document.word_positions
    rarest: tuple[int, array[int]] | None = None
    for word, offset in words_with_offsets(target):
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


def word_pairs(text: str) -> tuple[int, ...]:
    """Hashes of the distinct pairs of consecutive words of a normalised ``text``, as
    :attr:`Document.word_pairs <citecheck.documents.Document.word_pairs>` has them."""
    return _remembered_pairs(text) if len(text) <= REMEMBERED_LENGTH else _find_pairs(text)


def _find_pairs(text: str) -> tuple[int, ...]:
    return tuple(pair_hashes(WORD.findall(text)))


_remembered_pairs = lru_cache(maxsize=4096)(_find_pairs)


def pair_keys(text: str) -> np.ndarray[Any, Any]:
    """:func:`word_pairs` sorted in a read-only numpy array, as the pair tables search them."""
    return _remembered_keys(text) if len(text) <= REMEMBERED_LENGTH else _find_keys(text)


def _find_keys(text: str) -> np.ndarray[Any, Any]:
    import numpy as np

    keys = np.sort(np.array(word_pairs(text), dtype=np.int64))
    keys.flags.writeable = False  # remembered and shared
    return keys


_remembered_keys = lru_cache(maxsize=4096)(_find_keys)


def words_with_offsets(text: str) -> tuple[tuple[str, int], ...]:
    """Each distinct word of a normalised ``text`` with the offset of its first occurrence."""
    return _remembered_words(text) if len(text) <= REMEMBERED_LENGTH else _find_words(text)


def _find_words(text: str) -> tuple[tuple[str, int], ...]:
    seen: dict[str, int] = {}
    for match in WORD.finditer(text):
        seen.setdefault(match.group(), match.start())
    return tuple(seen.items())


_remembered_words = lru_cache(maxsize=4096)(_find_words)


class WordIndex:
    """Where the normalised words of ``documents`` stand, built lazily from each document's own
    :attr:`~citecheck.documents.Document.word_positions` and kept as long as the index is."""

    def __init__(self, documents: Sequence[Document]) -> None:
        self.documents = tuple(documents)
        self._pairs: _Pairs | None = None
        self._tokens: _Tokens | None = None
        # One document's own word positions serve as they are: a copy doubles a long source's.
        self._alone = self.documents[0] if len(self.documents) == 1 else None

    @staticmethod
    def of(document: Document) -> WordIndex:
        """The index of one document, made once and kept with it."""
        index: WordIndex = document._cached("word_index", lambda: WordIndex((document,)))
        return index

    def build(self) -> None:
        """Build the tables now rather than on first use."""
        _ = self._alone.word_positions if self._alone is not None else self._token_table()
        self._pair_table()

    def holding(self, target: str) -> list[Document]:
        """The documents holding every word pair of the normalised ``target``: a superset of
        those where it stands verbatim, in index order. With fewer than two words, all."""
        pairs = word_pairs(target)
        if not pairs:
            return list(self.documents)
        keys = pair_keys(target)
        candidates = (self.documents[i] for i in self._pair_table().rarest_holders(keys))
        return [d for d in candidates if d.word_pairs.count(keys) == len(keys)]

    def known_share(self, target: str) -> float:
        """The share of the normalised ``target``'s words of three letters or more that stand
        somewhere in the documents: low when most are misspelt, as after OCR, and the vote of
        :meth:`likely_regions` has too few anchors to place the text."""
        words = [word for word, _ in words_with_offsets(target) if len(word) >= 3]
        return sum(1 for word in words if self._count(word)) / len(words) if words else 1.0

    def likely_regions(
        self, target: str, within: tuple[int, int] | None = None
    ) -> list[tuple[Document, int, int]]:
        """Up to 16 normalised ranges, best first, most likely to hold a passage like the
        normalised ``target`` (whose words may be misspelt: several anchors vote, so one slip
        loses one vote). ``within`` narrows a one-document index to a normalised range."""
        import numpy as np

        # The anchors are the rarest of the words the documents hold: a misspelt word stands
        # nowhere and cannot vote, so it must not take the place of one that can.
        present = [item for item in words_with_offsets(target) if self._count(item[0])]
        ranked = sorted(present, key=lambda item: self._count(item[0]))
        chosen = ([a for a in ranked if len(a[0]) >= 3] or ranked)[:_MAX_ANCHORS]
        bucket = max(8, len(target) // 4)
        votes: list[np.ndarray[Any, Any]] = []
        counted = 0
        for bit, (word, offset) in enumerate(chosen):
            positions = self._where(word)
            if within is not None:
                lo, hi = np.searchsorted(positions, within)
                positions = positions[lo:hi]
            if not len(positions):
                continue
            if votes and counted + len(positions) > _MAX_VOTES:
                break  # the rest are commoner still: they would say little at great cost
            counted += len(positions)
            votes.append((positions - offset) // bucket * 8 + bit)
        if not votes:
            return []
        # A passage like the target keeps most of its words: at least half the anchors that voted.
        needed = max(1, (len(votes) + 1) // 2)
        keys = np.sort(np.concatenate(votes))  # bucket << 3 | anchor
        runs = np.flatnonzero(np.concatenate(([True], keys[1:] >> 3 != keys[:-1] >> 3)))
        buckets = keys[runs] >> 3
        anchors = np.bitwise_or.reduceat(1 << (keys & 7), runs)  # bit set per bucket
        # An anchor voting for a neighbouring bucket counts too: slips shift where it says the
        # passage starts.
        adjacent = buckets[1:] - buckets[:-1] == 1
        near = anchors.copy()
        near[1:] |= np.where(adjacent, anchors[:-1], 0)
        near[:-1] |= np.where(adjacent, anchors[1:], 0)
        support = np.asarray(_BITS_SET)[near]
        keep = support >= needed
        buckets, support = buckets[keep], support[keep]
        best = buckets[np.argsort(-support, kind="stable")[:_MAX_REGIONS]]
        pad = len(target) // 2 + bucket + 20
        return self._regions([int(b) * bucket for b in best], pad, len(target), within)

    def _regions(
        self, starts: list[int], pad: int, length: int, within: tuple[int, int] | None
    ) -> list[tuple[Document, int, int]]:
        """Ranges around the global ``starts`` (best first), merged where they overlap; a
        merged range ranks as its best part."""
        spans: dict[int, list[tuple[int, int, int]]] = {}  # document -> (start, end, rank)
        for rank, start in enumerate(starts):
            index = (start + _HALF) >> _SHIFT
            local = start - (index << _SHIFT)
            lo, hi = within or (0, len(self.documents[index].normalized))
            spans.setdefault(index, []).append(
                (max(lo, local - pad), min(hi, local + length + pad), rank)
            )
        merged: list[tuple[int, Document, int, int]] = []
        for index, found in spans.items():
            document = self.documents[index]
            run: list[int] | None = None
            for a, b, rank in sorted(found):
                if run is not None and a <= run[1]:
                    run[1], run[2] = max(run[1], b), min(run[2], rank)
                    continue
                if run is not None:
                    merged.append((run[2], document, run[0], run[1]))
                run = [a, b, rank]
            if run is not None:
                merged.append((run[2], document, run[0], run[1]))
        merged.sort(key=lambda item: item[0])
        return [(document, a, b) for _, document, a, b in merged]

    # -- lazily built tables ----------------------------------------------------------------

    def _token_table(self) -> _Tokens:
        if self._tokens is None:
            self._tokens = _Tokens.of(self.documents)
        return self._tokens

    def _pair_table(self) -> _Pairs:
        if self._pairs is None:
            self._pairs = _Pairs.of(self.documents)
        return self._pairs

    def _count(self, word: str) -> int:
        """How often ``word`` occurs in all the documents."""
        if self._alone is not None:
            return len(self._alone.word_positions.get(word, ()))
        tokens = self._token_table()
        found = tokens.vocabulary.get(word)
        return 0 if found is None else tokens.ends[found] - tokens.starts[found]

    def _where(self, word: str) -> np.ndarray[Any, Any]:
        """The global offsets of ``word``, sorted."""
        import numpy as np

        if self._alone is not None:
            mine = self._alone.word_positions.get(word)
            return np.empty(0, dtype=np.int64) if mine is None else np.frombuffer(mine, np.int64)
        tokens = self._token_table()
        found = tokens.vocabulary.get(word)
        if found is None:
            return tokens.offsets[:0]
        return tokens.offsets[tokens.starts[found] : tokens.ends[found]]


@dataclass(frozen=True, slots=True)
class _Tokens:
    """Every word of the documents: ``offsets[starts[i]:ends[i]]`` are the global offsets of
    the word numbered ``vocabulary[word] == i``, sorted."""

    vocabulary: dict[str, int]
    offsets: np.ndarray[Any, Any]
    starts: list[int]
    ends: list[int]

    @classmethod
    def of(cls, documents: Sequence[Document]) -> _Tokens:
        import numpy as np

        vocabulary: dict[str, int] = {}
        total = sum(len(document.words[1]) for document in documents)
        number = np.int32 if total < 1 << 31 else np.int64  # half the memory of a long source
        numbers, offsets = [], []
        for i, document in enumerate(documents):
            starts, words = document.words
            numbers.append(
                np.fromiter(
                    (vocabulary.setdefault(word, len(vocabulary)) for word in words),
                    dtype=number,
                    count=len(words),
                )
            )
            offsets.append(np.asarray(starts, dtype=np.int64) + (i << _SHIFT))
        every = _joined(numbers, number)
        # A stable sort keeps each word's offsets in document and text order: sorted.
        order = np.argsort(every, kind="stable")
        counts = np.bincount(every, minlength=len(vocabulary))
        ends = np.cumsum(counts)
        return cls(
            vocabulary,
            _joined(offsets, np.int64)[order],
            (ends - counts).tolist(),
            ends.tolist(),
        )


@dataclass(frozen=True, slots=True)
class _Pairs:
    """Every distinct word pair of the documents, sorted by hash, with the documents holding
    it: those of ``hashes[i]`` are ``owners[bounds[i]:bounds[i + 1]]``, in order. Arrays cost
    some 20 bytes a pair where a dictionary of lists cost 150 (28 times a long source). One
    document's pairs are its own :attr:`~citecheck.documents.Document.word_pairs`, not copied,
    and ``bounds`` and ``owners`` are ``None``."""

    hashes: np.ndarray[Any, Any]
    bounds: np.ndarray[Any, Any] | None
    owners: np.ndarray[Any, Any] | None

    @classmethod
    def of(cls, documents: Sequence[Document]) -> _Pairs:
        import numpy as np

        each = [np.frombuffer(document.word_pairs.hashes, dtype=np.int64) for document in documents]
        if len(each) == 1:
            return cls(each[0], None, None)  # sorted, each pair once
        every = _joined(each, np.int64)
        order = np.argsort(every, kind="stable")  # stable: each pair's documents stay in order
        every = every[order]
        owners = np.repeat(np.arange(len(each), dtype=np.int32), [len(h) for h in each])[order]
        firsts = np.flatnonzero(np.concatenate(([True], every[1:] != every[:-1])))
        return cls(every[firsts], np.append(firsts, len(every)), owners)

    def rarest_holders(self, keys: np.ndarray[Any, Any]) -> list[int]:
        """The documents holding the rarest of the sorted ``keys``, in order; none when one
        stands nowhere (the common case for a text that stands nowhere)."""
        import numpy as np

        if not len(self.hashes):
            return []
        found = np.minimum(np.searchsorted(self.hashes, keys), len(self.hashes) - 1)
        if not (self.hashes[found] == keys).all():
            return []
        if self.bounds is None or self.owners is None:
            return [0]
        counts = self.bounds[found + 1] - self.bounds[found]
        rarest = int(found[int(np.argmin(counts))])
        holders: list[int] = self.owners[self.bounds[rarest] : self.bounds[rarest + 1]].tolist()
        return holders


def _joined(arrays: list[np.ndarray[Any, Any]], dtype: Any) -> np.ndarray[Any, Any]:
    """The arrays end to end; one array as it is (a long source's arrays are not copied)."""
    import numpy as np

    if len(arrays) == 1:
        return arrays[0]
    return np.concatenate(arrays) if arrays else np.empty(0, dtype=dtype)
