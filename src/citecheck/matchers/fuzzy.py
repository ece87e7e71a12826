"""Fuzzy alignment with rapidfuzz: the best-matching passage, with its offsets, for noisy quotes."""

from __future__ import annotations

from dataclasses import dataclass

from citecheck.documents import Document
from citecheck.errors import ConfigError
from citecheck.matchers.alignment import Alignment, align, widen_to_words
from citecheck.matchers.needle import edge_marks, marked_span, needle, normalized_region
from citecheck.matchers.word_index import WordIndex, could_hold, is_large
from citecheck.model import Evidence, Span
from citecheck.thresholds import WORDS_VERIFIED

_PAIRS_KEPT = 1 / 3  # of a passage's word pairs that survive the slips a match may have


@dataclass(frozen=True, slots=True)
class FuzzyMatcher:
    """Aligns the normalised query with the most similar passage of the document.

    The alignment is :func:`citecheck.matchers.alignment.align`: the best window of the query's
    length, its edges moved to word boundaries. In a long region it runs only where the query's
    words say it may stand (see :mod:`citecheck.matchers.word_index`), so searching a whole corpus
    stays fast. The score is the normalised Indel similarity of the query and that passage
    (1.0 = identical after normalisation); passages below ``threshold`` are not reported.
    Queries shorter than ``min_length`` normalised characters never match fuzzily: a few
    characters are similar to something almost anywhere.
    """

    threshold: float = WORDS_VERIFIED
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
        start, end = normalized_region(document, within)
        if is_large(len(target), start, end):
            if not could_hold(target, document, share=_PAIRS_KEPT):
                return []
            regions = WordIndex.of(document).likely_regions(target, (start, end))
            best = self._best(target, document, [(a, b) for _, a, b in regions])
        else:
            best = self._best(target, document, [(start, end)])
        if best is None or best[0].score < self.threshold:
            return []
        normalized = document.normalized
        found, offset = best
        orig_start, orig_end = normalized.to_original(offset + found.start, offset + found.end)
        head, tail = edge_marks(query)  # the marks at its ends, where the text has them
        if head or tail:
            orig_start, orig_end, _ = marked_span(
                document, orig_start, orig_end, head, tail, (start, end)
            )
        similarity = round(found.score, 4)
        return [
            document.evidence(orig_start, orig_end, similarity, self.name, {"fuzzy": similarity})
        ]

    def shortlist(self, query: str, index: WordIndex) -> list[tuple[Document, Span | None]]:
        """The places of the index's documents worth a :meth:`find`, best first: where the
        query's words vote for it to stand. When most of its words stand in no document
        (misspelt, as after OCR), too few can vote, so every document small enough for
        :meth:`find` to align whole is added, so that "stands nowhere" stays true of them."""
        target = needle(query)
        if len(target) < self.min_length:
            return []
        places: list[tuple[Document, Span | None]] = [
            (document, Span(*document.normalized.to_original(a, b)))
            for document, a, b in index.likely_regions(target)
        ]
        if index.known_share(target) >= 0.5:
            return places
        voted = {id(document) for document, _ in places}
        return places + [
            (document, None)
            for document in index.documents
            if id(document) not in voted
            and not is_large(len(target), 0, len(document.normalized.text))
        ]

    def _best(
        self, target: str, document: Document, regions: list[tuple[int, int]]
    ) -> tuple[Alignment, int] | None:
        """The best alignment over normalised ``regions``, with the offset of its region."""
        text = document.normalized.text
        best: tuple[Alignment, int] | None = None
        for a, b in (widen_to_words(text, *region) for region in regions):
            found = align(target, text[a:b], self.threshold)
            if found is not None and (best is None or found.score > best[0].score):
                best = (found, a)
        return best
