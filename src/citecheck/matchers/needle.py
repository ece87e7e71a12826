"""Shared preparation of what matchers look for and where they look.

Public because the quote locator prepares its quotes the same way the matchers prepare theirs:
the same quote must be the same needle to every search.
"""

from __future__ import annotations

from functools import lru_cache

from citecheck.documents import Document
from citecheck.language.text import normalize
from citecheck.model import Span

__all__ = ["REMEMBERED_LENGTH", "needle", "normalized_region"]

_EDGE_PUNCTUATION = " \t.,;:!?\"'()[]-"


REMEMBERED_LENGTH = 2000
"""Queries up to this long are remembered (the same one is searched for in many documents);
longer ones are not, so a few page-long quotes cannot fill memory."""


def needle(query: str) -> str:
    """The normalised query without edge punctuation: a quote's closing period or its quote
    marks should not stop it from matching mid-sentence."""
    return _remembered(query) if len(query) <= REMEMBERED_LENGTH else _prepare(query)


def _prepare(query: str) -> str:
    return normalize(query).strip(_EDGE_PUNCTUATION)


_remembered = lru_cache(maxsize=4096)(_prepare)


def normalized_region(document: Document, within: Span | None) -> tuple[int, int]:
    """The normalised-text range covering ``within`` (the whole document when ``None``)."""
    if within is None or (within.start == 0 and within.end == len(document.text)):
        return 0, len(document.normalized)
    return document.normalized.to_normalized(within.start, within.end)
