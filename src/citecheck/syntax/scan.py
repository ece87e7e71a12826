"""What every syntax must know about Markdown before it calls something a citation.

Code is never cited — ``x[1]`` in a code block is an index, ``[[`` in a template is syntax —,
nor is an HTML comment (``<!-- [@key] -->``, text the reader never sees), and
``[1](https://…)`` or ``[1]: https://…`` is a link, not a reference. The scanners share these
checks here so the three syntaxes agree on them.

A comment or a fence that is never closed hides nothing: a comment is its ``<!--`` alone, a
fence its opening line, so every citation after it is still read, and
:func:`unclosed_warnings` says where it stands (a renderer may hide everything after it, which
the reader of the report should know).
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections.abc import Iterator
from functools import lru_cache

__all__ = ["DASHES", "CodeRegions", "code_regions", "is_link_label", "unclosed_warnings"]

DASHES = "-\u2010\u2011\u2012\u2013\u2014\u2212"
"""Characters that join the two ends of a range (``2-4``, ``2–4``), for regex classes."""

_FENCE = re.compile(r"^[ \t]*(`{3,}|~{3,})([^\n]*)$", re.MULTILINE)
_TICKS = re.compile(r"`+")
_BLANK_LINE = re.compile(r"\n[ \t]*\n")
_COMMENT = re.compile(r"<!--(?:.*?-->)?", re.DOTALL)
"""An HTML comment; one never closed is its opening ``<!--`` alone."""


class CodeRegions:
    """The fenced code blocks, inline code spans and HTML comments of a Markdown text, for
    overlap tests.

    Fences may be indented (LLM answers nest them in list items). A fence never closed is its
    opening line alone, and a comment never closed its ``<!--`` alone (CommonMark runs a fence
    to the end of the text, which would hide every citation after it in silence);
    :attr:`unclosed` lists them. Inline
    code follows CommonMark: a backtick run closed by the next run of the same length in the
    same paragraph; unmatched backticks are plain text.
    """

    __slots__ = ("_ends", "_starts", "unclosed")

    def __init__(self, text: str) -> None:
        unclosed: list[tuple[int, int, str]] = []
        regions = list(_code_regions(text, unclosed))
        self._starts = [start for start, _ in regions]
        self._ends = [end for _, end in regions]
        self.unclosed: tuple[tuple[int, int, str], ...] = tuple(unclosed)
        """Each comment or fence never closed: where its opening starts and ends, and what it
        is."""

    def overlaps(self, start: int, end: int) -> bool:
        """True when ``text[start:end]`` touches code."""
        index = bisect_right(self._ends, start)
        return index < len(self._starts) and self._starts[index] < end


@lru_cache(maxsize=4)
def code_regions(text: str) -> CodeRegions:
    """The :class:`CodeRegions` of ``text``, found once for the several syntaxes that scan the
    same text one after the other."""
    return CodeRegions(text)


def unclosed_warnings(text: str) -> list[str]:
    """One warning for each HTML comment or code fence of ``text`` that is never closed,
    naming where it stands; the text after it is read (see the module docstring)."""
    return [
        f"{what} at characters {start}-{end} is never closed: citecheck checks the text after "
        "it, which a Markdown renderer may hide"
        for start, end, what in code_regions(text).unclosed
    ]


def is_link_label(text: str, start: int, end: int) -> bool:
    """True for ``[1](url)`` (a link) and ``[1]: url`` at a line start (a link definition)."""
    if text.startswith("(", end):
        return True
    if text.startswith(":", end):  # only whitespace before it on its line
        before = start
        while before and text[before - 1] != "\n" and text[before - 1].isspace():
            before -= 1  # looks back over blanks only: a long line of labels stays linear
        return before == 0 or text[before - 1] == "\n"
    return False


def _code_regions(text: str, unclosed: list[tuple[int, int, str]]) -> Iterator[tuple[int, int]]:
    position = 0
    for start, end in _fences(text, unclosed):
        yield from _outside_fences(text, position, start, unclosed)
        yield start, end
        position = end
    yield from _outside_fences(text, position, len(text), unclosed)


def _outside_fences(
    text: str, start: int, end: int, unclosed: list[tuple[int, int, str]]
) -> Iterator[tuple[int, int]]:
    """HTML comments (an unclosed one is its ``<!--`` alone) and the inline code between them."""
    position = start
    while (comment := _COMMENT.search(text, position, end)) is not None:
        yield from _inline_code(text, position, comment.start())
        if comment.group() == "<!--":
            unclosed.append((comment.start(), comment.end(), "an HTML comment '<!--'"))
        yield comment.start(), comment.end()
        position = comment.end()
    yield from _inline_code(text, position, end)


def _fences(text: str, unclosed: list[tuple[int, int, str]]) -> Iterator[tuple[int, int]]:
    position = 0
    while (opening := _FENCE.search(text, position)) is not None:
        fence, info = opening.groups()
        if fence[0] == "`" and "`" in info:  # ```x``` on one line is inline code
            position = opening.end()
            continue
        closing = re.compile(
            rf"^[ \t]*{re.escape(fence[0])}{{{len(fence)},}}[ \t]*$", re.MULTILINE
        ).search(text, opening.end())
        if closing is None:
            unclosed.append((opening.start(), opening.end(), f"a code fence {fence!r}"))
            position = opening.end()
        else:
            position = closing.end()
        yield opening.start(), position


def _inline_code(text: str, low: int, high: int) -> Iterator[tuple[int, int]]:
    runs = [match.span() for match in _TICKS.finditer(text, low, high)]
    blank_lines = [match.start() for match in _BLANK_LINE.finditer(text, low, high)]
    by_length: dict[int, list[int]] = {}
    for index, (start, end) in enumerate(runs):
        by_length.setdefault(end - start, []).append(index)
    index = 0
    while index < len(runs):
        start, end = runs[index]
        same = by_length[end - start]
        later = bisect_right(same, index)
        if later < len(same):
            closing_start, closing_end = runs[same[later]]
            blank = bisect_left(blank_lines, end)
            if blank == len(blank_lines) or blank_lines[blank] >= closing_start:
                yield start, closing_end
                index = same[later] + 1
                continue
        index += 1
