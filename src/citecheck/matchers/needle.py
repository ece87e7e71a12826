"""Shared preparation of what matchers look for and where they look.

Public because the quote locator prepares its quotes the same way the matchers prepare theirs:
the same quote must be the same needle to every search.
"""

from __future__ import annotations

from functools import lru_cache

from citecheck.documents import Document
from citecheck.language.text import normalize
from citecheck.model import Span

__all__ = ["REMEMBERED_LENGTH", "edge_marks", "marked_span", "needle", "normalized_region"]

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


def edge_marks(query: str) -> tuple[str, str]:
    """The punctuation :func:`needle` takes off the query's start and end, normalised, without
    the spaces at its outer ends; an ellipsis (words left out, not marks of the text) leaves
    its end without marks."""
    normalized, target = normalize(query), needle(query)
    if not target:
        return "", ""
    at = normalized.find(target)
    head, tail = normalized[:at].lstrip(), normalized[at + len(target) :].rstrip()
    return ("" if "..." in head else head), ("" if "..." in tail else tail)


def marked_span(
    document: Document, start: int, end: int, head: str, tail: str, bounds: tuple[int, int]
) -> tuple[int, int, int]:
    """The original span ``[start, end)`` grown over the longest end of ``head`` that stands
    right before it and the longest start of ``tail`` that stands right after it (in the
    normalised text, inside the normalised ``bounds``, never ending on a space), and how many
    characters of the marks it took: a quote matched without its closing bracket, ``(EEC)``,
    gets the span of all of it where the text has it."""
    normalized = document.normalized
    text = normalized.text
    n_start, n_end = normalized.to_normalized(start, end)
    before = next(
        (
            k
            for k in range(len(head), 0, -1)
            if not head[-k].isspace() and text.endswith(head[-k:], bounds[0], n_start)
        ),
        0,
    )
    after = next(
        (
            k
            for k in range(len(tail), 0, -1)
            if not tail[k - 1].isspace() and text.startswith(tail[:k], n_end, bounds[1])
        ),
        0,
    )
    if before:
        start = min(start, normalized.to_original(n_start - before, n_start)[0])
    if after:
        end = max(end, normalized.to_original(n_end, n_end + after)[1])
    return start, end, before + after
