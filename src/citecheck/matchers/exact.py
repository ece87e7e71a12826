"""Exact matching on normalised text: every occurrence, whole words only."""

from __future__ import annotations

from dataclasses import dataclass

from citecheck.alignment import is_word_char
from citecheck.documents import Document
from citecheck.matchers._needle import needle, normalized_region
from citecheck.model import Evidence, Span


@dataclass(frozen=True, slots=True)
class ExactMatcher:
    """Finds every occurrence of the normalised query in the normalised document.

    Normalisation absorbs case, whitespace, typographic quotes and dashes, soft hyphens and
    end-of-line hyphenation; nothing else is forgiven. A match must start and end on word
    boundaries, so ``cat`` does not match inside ``concatenate``. Scores are 1.0.
    """

    name = "exact"

    def find(self, query: str, document: Document, within: Span | None = None) -> list[Evidence]:
        target = needle(query)
        if not target:
            return []
        normalized = document.normalized
        haystack = normalized.text
        start, end = normalized_region(document, within)
        found: list[Evidence] = []
        position = haystack.find(target, start, end)
        while position != -1:
            stop = position + len(target)
            if _on_word_boundaries(haystack, position, stop):
                orig_start, orig_end = normalized.to_original(position, stop)
                found.append(document.evidence(orig_start, orig_end, 1.0, self.name))
            position = haystack.find(target, position + 1, end)
        return found


def _on_word_boundaries(haystack: str, start: int, stop: int) -> bool:
    if is_word_char(haystack[start]) and start > 0 and is_word_char(haystack[start - 1]):
        return False
    return not (
        is_word_char(haystack[stop - 1]) and stop < len(haystack) and is_word_char(haystack[stop])
    )
