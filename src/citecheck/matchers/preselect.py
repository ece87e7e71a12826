"""Which chunks of a long source are worth embedding for a claim: a lexical first pass.

Embedding is the cost of a claim against a source met for the first time: every chunk of a
20,000-character source goes through the model before one cosine is known. A claim that a
passage supports nearly always shares some of its rarer words with it, so the chunks are first
ranked by the claim's words they hold, each weighed by how rare it is in the source (inverse
document frequency over the chunks, as BM25 weighs it, without the length terms), and only the
best few are embedded. The cut is a trade of recall for time, measured in the claims and
embedder benchmarks; the matcher says nothing is lost when a source has no more chunks than it
would keep.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from citecheck.language.meaning import STOP_WORDS
from citecheck.language.text import KEY_WORD, normalize

__all__ = ["WordPresence", "preselected"]


@dataclass(frozen=True, slots=True)
class WordPresence:
    """The words of each chunk of one source, and how rare each word is among them."""

    words: tuple[frozenset[str], ...]
    weight: dict[str, float]

    @classmethod
    def of(cls, texts: Sequence[str]) -> WordPresence:
        words = tuple(_words(text) for text in texts)
        counts = Counter(word for chunk in words for word in chunk)
        total = len(words)
        return cls(words, {w: math.log(1 + total / n) for w, n in counts.items()})

    def scores(self, query: str) -> list[float]:
        """Each chunk's share of the query's weighted words."""
        wanted = [w for w in _words(query) if w in self.weight]
        return [sum(self.weight[w] for w in wanted if w in chunk) for chunk in self.words]


def preselected(
    presence: WordPresence, queries: Sequence[str], among: Sequence[int], keep: int
) -> list[int]:
    """The indices (of ``among``, in order) of the ``keep`` chunks best for each query by their
    weighted words, pooled over the queries; all of ``among`` when it is no larger."""
    if len(among) <= keep:
        return list(among)
    chosen: set[int] = set()
    for query in queries:
        scores = presence.scores(query)
        chosen.update(sorted(among, key=lambda i: (-scores[i], i))[:keep])
    return sorted(chosen)


def _words(text: str) -> frozenset[str]:
    return frozenset(w for w in KEY_WORD.findall(normalize(text)) if w not in STOP_WORDS)
