"""What every syntax must know about Markdown before it calls something a citation.

Code is never cited — ``x[1]`` in a code block is an index, ``[[`` in a template is syntax —,
nor is an HTML comment (``<!-- [@key] -->``, text the reader never sees), and
``[1](https://…)`` or ``[1]: https://…`` is a link, not a reference. The scanners share these
checks here so the three syntaxes agree on them.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections.abc import Iterator
from functools import lru_cache

__all__ = ["DASHES", "CodeRegions", "code_regions", "is_link_label"]

DASHES = "-\u2010\u2011\u2012\u2013\u2014\u2212"
"""Characters that join the two ends of a range (``2-4``, ``2–4``), for regex classes."""

_FENCE = re.compile(r"^[ \t]*(`{3,}|~{3,})([^\n]*)$", re.MULTILINE)
_TICKS = re.compile(r"`+")
_BLANK_LINE = re.compile(r"\n[ \t]*\n")
_COMMENT = re.compile(r"<!--.*?(?:-->|\Z)", re.DOTALL)


class CodeRegions:
    """The fenced code blocks, inline code spans and HTML comments of a Markdown text, for
    overlap tests.

    Fences may be indented (LLM answers nest them in list items); an unclosed fence runs to the
    end of the text, as in CommonMark. Inline code follows CommonMark: a backtick run closed by
    the next run of the same length in the same paragraph; unmatched backticks are plain text.
    """

    __slots__ = ("_ends", "_starts")

    def __init__(self, text: str) -> None:
        regions = list(_code_regions(text))
        self._starts = [start for start, _ in regions]
        self._ends = [end for _, end in regions]

    def overlaps(self, start: int, end: int) -> bool:
        """True when ``text[start:end]`` touches code."""
        index = bisect_right(self._ends, start)
        return index < len(self._starts) and self._starts[index] < end


@lru_cache(maxsize=4)
def code_regions(text: str) -> CodeRegions:
    """The :class:`CodeRegions` of ``text``, found once for the several syntaxes that scan the
    same text one after the other."""
    return CodeRegions(text)


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


def _code_regions(text: str) -> Iterator[tuple[int, int]]:
    position = 0
    for start, end in _fences(text):
        yield from _outside_fences(text, position, start)
        yield start, end
        position = end
    yield from _outside_fences(text, position, len(text))


def _outside_fences(text: str, start: int, end: int) -> Iterator[tuple[int, int]]:
    """HTML comments (an unclosed one runs to ``end``) and the inline code between them."""
    position = start
    while (comment := _COMMENT.search(text, position, end)) is not None:
        yield from _inline_code(text, position, comment.start())
        yield comment.start(), comment.end()
        position = comment.end()
    yield from _inline_code(text, position, end)


def _fences(text: str) -> Iterator[tuple[int, int]]:
    position = 0
    while (opening := _FENCE.search(text, position)) is not None:
        fence, info = opening.groups()
        if fence[0] == "`" and "`" in info:  # ```x``` on one line is inline code
            position = opening.end()
            continue
        closing = re.compile(
            rf"^[ \t]*{re.escape(fence[0])}{{{len(fence)},}}[ \t]*$", re.MULTILINE
        ).search(text, opening.end())
        position = len(text) if closing is None else closing.end()
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
