"""The structure of a document's text: lines, pages, Markdown sections, timed segments.

Each is a tuple of small frozen records with character offsets into the document text, found
once and kept by the document. Page numbers are labels (a paper may start at page 208), never
indexes.
"""

from __future__ import annotations

import re
from array import array
from bisect import bisect_right
from collections.abc import Sequence
from dataclasses import dataclass

from citecheck.errors import InputError

__all__ = [
    "Page",
    "Section",
    "Segment",
    "find_inline_times",
    "find_line_starts",
    "find_pages",
    "find_sections",
    "slugify",
]

_ANY_LINE_END = re.compile(r"\r\n?|\n")
_NEWLINE = re.compile("\n")
PAGE_MARKER = re.compile(r"\[PAGE[:\s]\s*(\d{1,9})\]", re.IGNORECASE)
_HEADING_HINT = re.compile(r"^(?: {0,3}#{1,6}(?:[ \t]|$)| {0,3}(?:=+|-+)[ \t]*$)", re.MULTILINE)
_LEADING_NUMBER = re.compile(r"^(?:\d+(?:\.\d+)*\.?|[ivxlc]+\.|[a-z]\.)\s+", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class Page:
    """One page: its printed number and its ``[start, end)`` range in the document text."""

    number: int
    start: int
    end: int


@dataclass(frozen=True, slots=True)
class Section:
    """A Markdown section: heading title, slug, level, and the range from the heading to the
    next heading of the same or a higher level (so subsections are inside their parent)."""

    title: str
    slug: str
    level: int
    start: int
    end: int

    @property
    def bare_slug(self) -> str:
        """The slug without a leading section number (``2-methods`` → ``methods``)."""
        return slugify(_LEADING_NUMBER.sub("", self.title)) or self.slug


@dataclass(frozen=True, slots=True)
class Segment:
    """A timed transcript segment: seconds from ``start_seconds`` to ``end_seconds`` and its
    ``[start, end)`` range in the document text."""

    start_seconds: float
    end_seconds: float
    start: int
    end: int

    def __post_init__(self) -> None:
        if self.start_seconds < 0 or self.end_seconds < self.start_seconds:
            raise InputError(
                f"invalid segment times {self.start_seconds}-{self.end_seconds}: "
                "times must be non-negative and end at or after they start"
            )


def slugify(title: str) -> str:
    """A GitHub-style anchor: lowercase words joined by hyphens (``Related Work`` →
    ``related-work``)."""
    words = re.findall(r"\w+", title.casefold())
    return "-".join(words)


def find_line_starts(text: str) -> array[int]:
    """Offsets where each line begins (line 1 at index 0), in an array of 64-bit integers: a
    long source has many lines, and a list would keep an int object for each."""
    starts = array("q", [0])
    starts.extend(newline.end() for newline in _NEWLINE.finditer(text))
    return starts


def line_count(text: str, line_starts: Sequence[int]) -> int:
    """Lines in ``text``; a final newline does not open another line."""
    if not text:
        return 0
    return len(line_starts) - (1 if text.endswith("\n") else 0)


def find_pages(text: str) -> tuple[Page, ...]:
    """Pages from ``[PAGE:N]`` markers (each page runs to the next marker) or, failing those,
    from form feeds (numbered from 1). A text with neither has no pages."""
    markers = list(PAGE_MARKER.finditer(text))
    if markers:
        bounds = [m.start() for m in markers[1:]] + [len(text)]
        return tuple(
            Page(int(m.group(1)), m.start(), end) for m, end in zip(markers, bounds, strict=True)
        )
    if "\f" in text:
        pages = []
        start = 0
        for number, chunk in enumerate(text.split("\f"), start=1):
            pages.append(Page(number, start, start + len(chunk)))
            start += len(chunk) + 1
        return tuple(pages)
    return ()


def page_at(pages: tuple[Page, ...], starts: list[int], offset: int) -> int | None:
    """The number of the page holding ``offset``, if any (``starts``: each page's start)."""
    index = bisect_right(starts, offset) - 1
    if index >= 0 and pages[index].start <= offset < max(pages[index].end, pages[index].start + 1):
        return pages[index].number
    return None


def find_sections(text: str) -> tuple[Section, ...]:
    """Markdown headings (ATX and setext, not inside code) parsed with markdown-it-py."""
    if not _HEADING_HINT.search(text):
        return ()
    from markdown_it import MarkdownIt

    tokens = MarkdownIt("commonmark").parse(text)
    # markdown-it counts "\r" and "\r\n" as line ends too; its line numbers need its rule.
    line_starts = [0, *(m.end() for m in _ANY_LINE_END.finditer(text))]
    found: list[tuple[str, int, int]] = []
    for index, token in enumerate(tokens):
        if token.type == "heading_open" and token.map is not None:
            title = tokens[index + 1].content.strip()
            found.append((title, int(token.tag[1:]), line_starts[token.map[0]]))
    ends = [len(text)] * len(found)
    open_: list[int] = []  # headings whose section is still open, levels rising
    for index, (_, level, start) in enumerate(found):
        while open_ and found[open_[-1]][1] >= level:
            ends[open_.pop()] = start
        open_.append(index)
    return tuple(
        Section(title, slugify(title), level, start, end)
        for (title, level, start), end in zip(found, ends, strict=True)
    )


def section_parents(sections: tuple[Section, ...]) -> list[int]:
    """For each section, the index of the innermost section holding it (-1: none); sections
    nest, so this and a bisection find the section at an offset without a scan of them all."""
    parents: list[int] = []
    open_: list[int] = []
    for index, section in enumerate(sections):
        while open_ and sections[open_[-1]].end <= section.start:
            open_.pop()
        parents.append(open_[-1] if open_ else -1)
        open_.append(index)
    return parents


_INLINE_TIME = re.compile(
    r"^[ \t]*[\[(]?(?:(\d{1,2}):)?(\d{1,3}):([0-5]\d)(?:[.,]\d{1,3})?[\])]?(?=[ \t:\-–—]|$)",
    re.MULTILINE,
)
"""A time that leads a line of a plain-text transcript: ``2:15``, ``[02:15]``, ``(1:02:15)``,
``00:02:15.500``, followed by a space, a colon, a dash or the line's end."""


def find_inline_times(text: str) -> tuple[Segment, ...]:
    """The timed segments of a plain-text transcript whose lines begin with their time
    (``2:15 Speaker: ...``): each runs from its line to the next timed line, and its seconds
    from its time to the next one's (the last one's end is unknown: it runs on). A time in
    another place on a line, or a line whose minutes or seconds reach 60, is no time."""
    stamps: list[tuple[float, int]] = []
    for match in _INLINE_TIME.finditer(text):
        hours, minutes, seconds = match.groups()
        if int(minutes) >= 60 and hours is not None:
            continue
        stamps.append(((int(hours or 0) * 60 + int(minutes)) * 60 + int(seconds), match.start()))
    segments = []
    for index, (seconds, start) in enumerate(stamps):
        following = stamps[index + 1] if index + 1 < len(stamps) else None
        end = len(text) if following is None else following[1]
        while end > start and text[end - 1] in "\r\n":
            end -= 1
        until = float("inf") if following is None else max(seconds, following[0])
        segments.append(Segment(seconds, until, start, end))
    return tuple(segments)
