"""Small deterministic stand-ins for heavy backends, for tests that must run anywhere."""

from __future__ import annotations

import hashlib
import math

from citecheck.language.text import normalize

__all__ = ["HashingEmbedder"]


class HashingEmbedder:
    """An :class:`~citecheck.protocols.Embedder` that hashes character trigrams into a fixed
    number of dimensions: similar strings get similar vectors, no model needed."""

    def __init__(self, dimensions: int = 64) -> None:
        self.dimensions = dimensions
        self.calls = 0

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        self.calls += 1
        return [self._vector(text) for text in texts]

    def embed_query(self, text: str) -> list[float]:
        self.calls += 1
        return self._vector(text)

    def _vector(self, text: str) -> list[float]:
        vector = [0.0] * self.dimensions
        padded = f"  {normalize(text)}  "
        for i in range(len(padded) - 2):
            digest = hashlib.blake2b(padded[i : i + 3].encode(), digest_size=4).digest()
            vector[int.from_bytes(digest, "big") % self.dimensions] += 1.0
        norm = math.sqrt(sum(v * v for v in vector)) or 1.0
        return [v / norm for v in vector]
