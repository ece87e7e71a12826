"""Overlapping character windows over documents, the unit BM25 ranks.

A window never spans two documents. Each knows its range in its document and in the *global*
text: the documents' texts joined in order with a blank line (``"\\n\\n"``) between them, so
offsets from several documents live on one axis (as in a combined source file).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from citecheck.documents import Document
from citecheck.errors import ConfigError
from citecheck.model import Span

__all__ = [
    "DOCUMENT_SEPARATOR",
    "Window",
    "auto_window_size",
    "document_offsets",
    "make_windows",
]

DOCUMENT_SEPARATOR = "\n\n"
MAX_WINDOW = 500
MIN_WINDOW = 40


@dataclass(frozen=True, slots=True)
class Window:
    """``document.text[start:end]``, which is ``global_start:global_end`` of the global text."""

    document: Document
    start: int
    end: int
    global_start: int

    @property
    def global_end(self) -> int:
        return self.global_start + (self.end - self.start)


def auto_window_size(quotes: Sequence[str], cap: int = MAX_WINDOW) -> int:
    """1.1 × the longest quote, capped (a longer quote spans joined windows)."""
    longest = max((len(q) for q in quotes), default=0)
    return max(MIN_WINDOW, min(cap, round(1.1 * longest)))


def document_offsets(documents: Sequence[Document]) -> list[int]:
    """Where each document starts in the global text."""
    offsets, position = [], 0
    for document in documents:
        offsets.append(position)
        position += len(document.text) + len(DOCUMENT_SEPARATOR)
    return offsets


def make_windows(
    documents: Sequence[Document], size: int, overlap: int, within: Span | None = None
) -> list[Window]:
    """Windows of ``size`` characters stepping by ``size - overlap`` over every document; the
    last window of a document ends at its end, so every character is in some window.

    ``within`` limits the windows to that range of the documents: a matcher asked to search
    part of one document windows only that part (its offsets stay the document's own)."""
    if size < 1:
        raise ConfigError(f"window size must be positive, got {size}")
    if not 0 <= overlap < size:
        raise ConfigError(f"overlap must be in [0, window size), got {overlap} for size {size}")
    windows: list[Window] = []
    for document, offset in zip(documents, document_offsets(documents), strict=True):
        start, end = (0, len(document.text)) if within is None else (within.start, within.end)
        for a, b in _ranges(start, end, size, size - overlap):
            windows.append(Window(document, a, b, offset + a))
    return windows


def _ranges(start: int, end: int, size: int, step: int) -> list[tuple[int, int]]:
    """``(start, end)`` of the windows covering ``[start, end)``: one every ``step``
    characters until one reaches ``end`` (it may be shorter than ``size``)."""
    ranges: list[tuple[int, int]] = []
    position = start
    while position < end:
        ranges.append((position, min(end, position + size)))
        if position + size >= end:
            break
        position += step
    return ranges
