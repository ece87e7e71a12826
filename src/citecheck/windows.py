"""Overlapping character windows over a corpus, the unit BM25 ranks.

A window never spans two documents. Each knows its range in its document and in the *global*
text: the documents' texts joined in order with a blank line (``"\\n\\n"``) between them, so
offsets from several documents live on one axis (as in a combined source file).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from citecheck.documents import Document
from citecheck.errors import ConfigError

__all__ = [
    "DOCUMENT_SEPARATOR",
    "Window",
    "auto_window_size",
    "document_offsets",
    "make_windows",
    "window_ranges",
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


def make_windows(documents: Sequence[Document], size: int, overlap: int) -> list[Window]:
    """Windows of ``size`` characters stepping by ``size - overlap`` over every document; the
    last window of a document ends at its end, so every character is in some window."""
    windows: list[Window] = []
    for document, offset in zip(documents, document_offsets(documents), strict=True):
        for start, end in window_ranges(0, len(document.text), size, overlap):
            windows.append(Window(document, start, end, offset + start))
    return windows


def window_ranges(start: int, end: int, size: int, overlap: int) -> list[tuple[int, int]]:
    """``(start, end)`` of the windows covering ``[start, end)``."""
    if size < 1:
        raise ConfigError(f"window size must be positive, got {size}")
    if not 0 <= overlap < size:
        raise ConfigError(f"overlap must be in [0, window size), got {overlap} for size {size}")
    ranges: list[tuple[int, int]] = []
    position = start
    while position < end:
        ranges.append((position, min(end, position + size)))
        if position + size >= end:
            break
        position += size - overlap
    if ranges and ranges[-1][1] < end:
        ranges.append((max(start, end - size), end))
    return ranges
