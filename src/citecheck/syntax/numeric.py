"""Numeric markers: ``[1]``, ``[1, 3]``, ``[2-4]``, ``[2–4]`` (ranges expand to 2, 3, 4), and
with a locator: ``[1, p. 12]``, ``[1, pp. 3-4]``, ``[1: p. 12]``, ``[1 p. 12]``.

A locator belongs to the number right before it (``[1, 3, p. 5]`` cites 1, and p. 5 of 3); one
after a range says not which source it is in, so ``[2-4, p. 5]`` is malformed. Words with a
number set apart by a comma or colon (``[1, Table 9]``) are a place citecheck cannot read: the
citation keeps them as its locator and the extractor reports them. Brackets whose numbers
stand with other text (``[1, x]``, ``[2 of 5]``) are no numeric marker; the extractor reports
them as marker-like text that nothing read.

Square brackets around numbers are also array indexes (``a[1]``), Markdown links (``[1](url)``,
``[1]: url``) and code, so those are not citations. A range is capped at
:data:`MAX_REFERENCES` numbers: ``[1-100000]`` is a typo or an attack, never a citation.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import ClassVar

from citecheck.model import Marker, Reference, Span
from citecheck.protocols import NamesBy
from citecheck.syntax._locators import whole_locator
from citecheck.syntax.scan import DASHES, code_regions, is_link_label

__all__ = ["MAX_REFERENCES", "NumericSyntax"]

MAX_REFERENCES = 1000
"""The most numbers one marker may cite; more makes the marker malformed."""

_BRACKET = re.compile(r"\[(?P<body>[ \t]*\d[^\[\]\n]*)\]")
_ITEM = re.compile(
    rf"(?P<first>\d{{1,9}})(?:[ \t]*[{DASHES}][ \t]*(?P<last>\d{{1,9}}))?"
    r"(?:(?:(?P<colon>[ \t]*:[ \t]*)|[ \t]+)(?P<locator>\S.*))?"
)
_PLACE = re.compile(r"(?=.*[^\W\d_])(?=.*\d)")
"""Words and a number (``Table 9``): no locator citecheck knows, but a place all the same."""
_SEPARATOR = re.compile(r"[,;]")


class NumericSyntax:
    """Finds ``[n]``, ``[n, m]``, ``[n-m]`` and ``[n, p. 12]`` markers that are not indexes,
    links or code."""

    name: str = "numeric"
    cited_as: ClassVar[str] = "[{}]"
    """How a reader writes a cited key in this syntax (``[key]``), for reasons."""
    names_by: ClassVar[NamesBy] = "number"
    """What a cited name is: a source ``key``, a ``number`` of the reference list, or an
    ``author_year`` to look up in a bibliography (:mod:`citecheck.verification.resolution`)."""

    def scan(self, text: str) -> Iterator[Marker]:
        """The markers in ``text``, in order; malformed ones carry an ``error``."""
        code = code_regions(text)
        previous_end = -1
        for match in _BRACKET.finditer(text):
            start, end = match.span()
            if (
                stands_alone(text, start, previous_end)
                and not is_link_label(text, start, end)
                and not code.overlaps(start, end)
            ):
                marker = _marker(match)
                if marker is not None:
                    previous_end = end
                    yield marker


def stands_alone(text: str, start: int, previous_end: int) -> bool:
    """False for indexes: ``a[1]``, ``x[1][2]``; ``[1][2]`` and ``[[ctx]][2]`` are citations."""
    before = text[start - 1] if start else " "
    if before == "]":
        return start == previous_end or text.startswith("]]", start - 2)
    return not (before.isalnum() or before == "_")


def _is_locator(text: str, set_apart: bool) -> bool:
    """True for a locator (``p. 12``, ``L42``), and for words with a number (``Table 9``) when
    a comma or colon sets them apart from the number before: kept whole, the extractor then
    reports them as a place it cannot check, where ``[2 of 5]`` stays prose."""
    return whole_locator(text) is not None or (set_apart and _PLACE.match(text) is not None)


def _marker(match: re.Match[str]) -> Marker | None:
    """The marker in the brackets, ``None`` when they hold something besides numbers and
    locators, malformed for a reversed range, too many numbers or a locator after a range."""
    raw = match.group()
    span = Span(match.start(), match.end())
    items: list[tuple[int, int, str | None]] = []  # first, last, locator
    for index, token in enumerate(t.strip() for t in _SEPARATOR.split(match.group("body"))):
        item = _ITEM.fullmatch(token)
        if item is not None:
            locator = item.group("locator")
            if locator is not None and not _is_locator(locator, item.group("colon") is not None):
                return None
            first, last = int(item.group("first")), int(item.group("last") or item.group("first"))
            items.append((first, last, locator))
            continue
        if not items or items[-1][2] is not None or not _is_locator(token, index > 0):
            return None
        first, last, _ = items[-1]
        if last != first:
            error = f"a locator after the range {first}-{last} does not say which source it is in"
            return Marker(span, raw, "numeric", error=error)
        items[-1] = (first, last, token)
    references: list[Reference] = []
    for first, last, locator in items:
        if last < first:
            return Marker(span, raw, "numeric", error=f"the range {first}-{last} is reversed")
        if len(references) + last - first + 1 > MAX_REFERENCES:
            error = f"it cites more than {MAX_REFERENCES} numbers"
            return Marker(span, raw, "numeric", error=error)
        references.extend(Reference(str(n), locator) for n in range(first, last + 1))
    return Marker(span, raw, "numeric", tuple(references))
