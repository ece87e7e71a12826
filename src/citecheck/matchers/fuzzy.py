"""Fuzzy alignment with rapidfuzz: the best-matching passage, with its offsets, for noisy quotes."""

from __future__ import annotations

from dataclasses import dataclass

from citecheck.alignment import align
from citecheck.documents import Document
from citecheck.errors import ConfigError
from citecheck.matchers._needle import needle, normalized_region
from citecheck.model import Evidence, Span


@dataclass(frozen=True, slots=True)
class FuzzyMatcher:
    """Aligns the normalised query with the most similar passage of the document.

    The alignment is :func:`citecheck.alignment.align`: the best window of the query's length,
    its edges moved to word boundaries. The score is the normalised Indel similarity of the
    query and that passage (1.0 = identical after normalisation); passages below ``threshold``
    are not reported. Queries shorter than ``min_length`` normalised characters
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
        target = needle(query)
        if len(target) < self.min_length:
            return []
        normalized = document.normalized
        start, end = normalized_region(document, within)
        haystack = normalized.text[start:end]
        if not haystack.strip():
            return []
        found = align(target, haystack, self.threshold)
        if found is None or found.score < self.threshold:
            return []
        orig_start, orig_end = normalized.to_original(start + found.start, start + found.end)
        similarity = round(found.score, 4)
        return [
            document.evidence(orig_start, orig_end, similarity, self.name, {"fuzzy": similarity})
        ]
