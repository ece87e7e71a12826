"""The word-overlap rule of the Tezit Interrogation Protocol (TIP, section 5.5), as a matcher.

TIP checks an excerpt against the content at its cited location by the words they share, not by
their order: the *significant* words of each (longer than three characters, after stripping the
punctuation ``.,!?;:"'()[]{}``) are compared, a claimed word counts when the location has it
exactly or when one of the two is a prefix of the other of at least five characters
(``improve`` / ``improvement``), and the excerpt passes when the share of its significant words
that count reaches 80 %. This matcher gives users who want that exact rule
(``Verifier(matchers=("exact", "overlap"))``) the protocol's verdicts with citecheck's
evidence: real offsets into the original text, and a passage small enough to read.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field

from citecheck._identity_cache import IdentityCache
from citecheck.documents import Document
from citecheck.errors import ConfigError
from citecheck.language.text import normalize, sentence_spans
from citecheck.matchers.needle import normalized_region
from citecheck.model import Evidence, Span
from citecheck.thresholds import WORDS_VERIFIED

__all__ = ["OverlapMatcher", "significant_words"]

_TOKEN = re.compile(r"\S+")
_PUNCTUATION = str.maketrans("", "", ".,!?;:\"'()[]{}")
_SIGNIFICANT = 4  # characters: TIP counts words "longer than three"
_PREFIX = 5  # characters: the shorter of two words must have at least this many to be a prefix
_KEPT_REGIONS = 32  # searched spans whose words are kept for the next query


def significant_words(text: str) -> list[str]:
    """The significant words of ``text`` in order, as TIP reads them: the normalised text (case
    folded, typographic quotes and dashes made plain) split at whitespace, the punctuation
    ``.,!?;:"'()[]{}`` removed, words of four characters or more kept (repeats included)."""
    return [word for word, _, _ in _tokens(normalize(text), 0, None)]


@dataclass(frozen=True, slots=True)
class OverlapMatcher:
    """TIP's word-overlap rule: passes when ``threshold`` (0.8) of the query's significant words
    stand anywhere in the searched span, exactly or as a prefix of five characters or more in
    either direction.

    The ratio is computed over the whole span searched, as the protocol does, so word order
    and distance do not count. The evidence is the smallest stretch of the span that holds
    every query word that counted (at least one occurrence each), widened to whole sentences
    (:func:`citecheck.language.text.sentence_spans`, which also ends a sentence at a blank line) and
    kept inside the span: a negation or a number next to the matched words is part of the
    passage the verifier's meaning checks read. Its ``score`` and ``scores["overlap"]`` are the
    ratio. A query with no significant word matches nothing.
    """

    threshold: float = WORDS_VERIFIED
    name = "overlap"
    _regions: IdentityCache[_Region] = field(
        default_factory=lambda: IdentityCache(_KEPT_REGIONS),
        init=False,
        repr=False,
        compare=False,
        hash=False,
    )

    def __post_init__(self) -> None:
        if not isinstance(self.threshold, int | float) or not 0.0 < self.threshold <= 1.0:
            raise ConfigError(f"overlap threshold must be in (0, 1], got {self.threshold}")

    def find(self, query: str, document: Document, within: Span | None = None) -> list[Evidence]:
        claimed = significant_words(query)
        if not claimed:
            return []
        start, end = normalized_region(document, within)
        # The words of a span are read once: a source is searched for many citations.
        words = self._regions.get((document,), (start, end), lambda: _Region(document, start, end))
        counted = [word for word in claimed if words.vocabulary.has(word)]
        ratio = len(counted) / len(claimed)
        if ratio < self.threshold or not counted:
            return []
        low, high = _smallest_cover(words.tokens, sorted(set(counted)), words.vocabulary)
        orig_start, orig_end = document.normalized.to_original(low, high)
        region = within or Span(0, len(document.text))
        orig_start, orig_end = _whole_sentences(document.text, region, orig_start, orig_end)
        score = round(ratio, 4)
        return [document.evidence(orig_start, orig_end, score, self.name, {"overlap": score})]


def _tokens(text: str, start: int, end: int | None) -> Iterator[tuple[str, int, int]]:
    """``(word, start, end)`` for each significant word of normalised ``text[start:end]``; the
    offsets cover the word without the punctuation around it."""
    for match in _TOKEN.finditer(text, start, len(text) if end is None else end):
        word = match.group().translate(_PUNCTUATION)
        if len(word) >= _SIGNIFICANT:
            raw = match.group()
            lead = len(raw) - len(raw.lstrip(".,!?;:\"'()[]{}"))
            trail = len(raw) - len(raw.rstrip(".,!?;:\"'()[]{}"))
            yield word, match.start() + lead, match.end() - trail


class _Region:
    """The significant words of a normalised span of a document, in order and as a vocabulary
    (holding the document, so that its identity, the cache key, is not reused while kept)."""

    def __init__(self, document: Document, start: int, end: int) -> None:
        self.document = document
        self.tokens = list(_tokens(document.normalized.text, start, end))
        self.vocabulary = _Vocabulary([word for word, _, _ in self.tokens])


class _Vocabulary:
    """The location's words, for the TIP test of one claimed word: the same word, a longer
    word it begins, or a shorter word (of five characters or more) that begins it."""

    def __init__(self, words: Sequence[str]) -> None:
        self.words = frozenset(words)
        self.sorted = sorted(self.words)

    def has(self, word: str) -> bool:
        return bool(self.counterparts(word, first_only=True))

    def counterparts(self, word: str, *, first_only: bool = False) -> set[str]:
        """The location's words that ``word`` counts against."""
        found = {word} if word in self.words else set()
        if found and first_only:
            return found
        if len(word) >= _PREFIX:
            at = bisect_left(self.sorted, word)
            while at < len(self.sorted) and self.sorted[at].startswith(word):
                found.add(self.sorted[at])
                if first_only:
                    return found
                at += 1
        for size in range(_PREFIX, len(word)):
            if word[:size] in self.words:
                found.add(word[:size])
                if first_only:
                    return found
        return found


def _smallest_cover(
    tokens: list[tuple[str, int, int]], wanted: list[str], vocabulary: _Vocabulary
) -> tuple[int, int]:
    """The shortest normalised range of ``tokens`` holding, for every ``wanted`` word, a word
    it counts against (a sliding window over the tokens that count for any of them)."""
    serves: dict[str, list[int]] = {}
    for index, word in enumerate(wanted):
        for counterpart in vocabulary.counterparts(word):
            serves.setdefault(counterpart, []).append(index)
    useful = [(serves[word], a, b) for word, a, b in tokens if word in serves]
    held = [0] * len(wanted)
    missing = len(wanted)
    best: tuple[int, int] | None = None
    left = 0
    for targets, _, end in useful:
        for target in targets:
            held[target] += 1
            missing -= held[target] == 1
        while missing == 0:
            start = useful[left][1]
            if best is None or end - start < best[1] - best[0]:
                best = (start, end)
            for target in useful[left][0]:
                held[target] -= 1
                missing += held[target] == 0
            left += 1
    assert best is not None, "every wanted word has a counterpart among the tokens"
    return best


def _whole_sentences(text: str, region: Span, start: int, end: int) -> tuple[int, int]:
    """``[start, end)`` widened to the sentences of ``text[region]`` it touches."""
    low, high = start, end
    for a, b in sentence_spans(text[region.start : region.end]):
        a, b = a + region.start, b + region.start
        if a < end and start < b:
            low, high = min(low, a), max(high, b)
    return low, high
