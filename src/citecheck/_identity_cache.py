"""A small cache of what was built from a set of objects, for the next call with the same ones.

The verifier's word index and the quote locator's windows and BM25 index cost far more than
one citation or quote, and callers pass the same documents again and again. Documents hash by
their whole text, so the key is their identity instead: cheap, and safe because every cached
value holds the objects it was built from, so no identity is reused while it is cached.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Hashable, Sequence
from typing import Generic, TypeVar

__all__ = ["IdentityCache"]

T = TypeVar("T")


class IdentityCache(Generic[T]):
    """Up to ``size`` values, each built once from ``objects`` and ``settings``; the oldest
    goes first. Safe to share between threads."""

    def __init__(self, size: int) -> None:
        self._size = size
        self._values: dict[tuple[tuple[int, ...], Hashable], T] = {}
        self._lock = threading.Lock()

    def get(self, objects: Sequence[object], settings: Hashable, build: Callable[[], T]) -> T:
        """The value for ``objects`` (by identity) and ``settings``, built by ``build()`` the
        first time; the value must hold ``objects``."""
        key = (tuple(map(id, objects)), settings)
        with self._lock:
            value = self._values.get(key)
            if value is None:
                if len(self._values) >= self._size:
                    del self._values[next(iter(self._values))]
                value = self._values[key] = build()
        return value
