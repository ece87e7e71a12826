"""Exact matching on normalised text: every occurrence, whole words only."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from citecheck.documents import Document
from citecheck.language.text import CJK
from citecheck.matchers.alignment import is_word_char
from citecheck.matchers.needle import edge_marks, marked_span, needle, normalized_region
from citecheck.matchers.word_index import WordIndex, could_hold, exact_starts, is_large
from citecheck.model import Evidence, Span


@dataclass(frozen=True, slots=True)
class ExactMatcher:
    """Finds every occurrence of the normalised query in the normalised document.

    Normalisation absorbs case, whitespace, typographic quotes and dashes, soft hyphens and
    end-of-line hyphenation; nothing else is forgiven. A match must start and end on word
    boundaries, so ``cat`` does not match inside ``concatenate`` (nor ``t approve`` inside
    ``didn't approve``). The query is matched without the punctuation at its ends, and the
    span then takes those marks where the text has them right there: ``(EEC)`` gets its closing
    bracket. Scores are 1.0. In a long region only the places its rarest word
    stands are compared (see :mod:`citecheck.matchers.word_index`).
    """

    name = "exact"

    def find(self, query: str, document: Document, within: Span | None = None) -> list[Evidence]:
        target = needle(query)
        if not target:
            return []
        normalized = document.normalized
        haystack = normalized.text
        start, end = normalized_region(document, within)
        if is_large(len(target), start, end):
            if not could_hold(target, document, share=1.0):
                return []
            candidates = [
                p for p in exact_starts(target, document, start, end)
                if haystack.startswith(target, p)
            ]  # fmt: skip
        else:
            candidates = list(_occurrences(haystack, target, start, end))
        head, tail = edge_marks(query)  # the marks at its ends, taken where the text has them
        found: list[Evidence] = []
        for position in candidates:
            stop = position + len(target)
            if _on_word_boundaries(haystack, position, stop):
                orig_start, orig_end = normalized.to_original(position, stop)
                if head or tail:
                    orig_start, orig_end, _ = marked_span(
                        document, orig_start, orig_end, head, tail, (start, end)
                    )
                found.append(document.evidence(orig_start, orig_end, 1.0, self.name))
        return found

    def shortlist(self, query: str, index: WordIndex) -> list[tuple[Document, Span | None]]:
        """The documents of the index worth a :meth:`find`: those holding every word pair of
        the query."""
        target = needle(query)
        return [(document, None) for document in index.holding(target)] if target else []


def _occurrences(haystack: str, target: str, start: int, end: int) -> Iterator[int]:
    position = haystack.find(target, start, end)
    while position != -1:
        yield position
        position = haystack.find(target, position + 1, end)


_CJK = re.compile(f"[{CJK}]")


def _on_word_boundaries(haystack: str, start: int, stop: int) -> bool:
    return not _joined(haystack, start - 1, start) and not _joined(haystack, stop - 1, stop)


def _joined(text: str, left: int, right: int) -> bool:
    """True when positions ``left`` and ``right`` belong to one word (an apostrophe between
    letters, as in ``didn't``, joins them too)."""
    if left < 0 or right >= len(text):
        return False
    a, b = text[left], text[right]
    if is_word_char(a) and is_word_char(b):
        # Chinese and Japanese are written without spaces: each character is a word
        return not (_CJK.match(a) or _CJK.match(b))
    if a == "'" and left > 0 and is_word_char(text[left - 1]) and is_word_char(b):
        return True
    return b == "'" and right + 1 < len(text) and is_word_char(a) and is_word_char(text[right + 1])
