"""Numeric markers: ``[1]``, ``[1, 3]``, ``[2-4]``, ``[2–4]`` (ranges expand to 2, 3, 4).

Square brackets around numbers are also array indexes (``a[1]``), Markdown links (``[1](url)``,
``[1]: url``) and code, so those are not citations. A range is capped at
:data:`MAX_REFERENCES` numbers: ``[1-100000]`` is a typo or an attack, never a citation.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from citecheck.model import Marker, Reference, Span
from citecheck.syntax._scan import DASHES, CodeRegions, is_link_label

__all__ = ["MAX_REFERENCES", "NumericSyntax"]

MAX_REFERENCES = 1000
"""The most numbers one marker may cite; more makes the marker malformed."""

_ITEM = rf"\d{{1,9}}(?:[ \t]*[{DASHES}][ \t]*\d{{1,9}})?"
_MARKER = re.compile(rf"\[[ \t]*(?P<body>{_ITEM}(?:[ \t]*[,;][ \t]*{_ITEM})*)[ \t]*\]")
_RANGE = re.compile(rf"(\d+)(?:[ \t]*[{DASHES}][ \t]*(\d+))?")


class NumericSyntax:
    """Finds ``[n]``, ``[n, m]`` and ``[n-m]`` markers that are not indexes, links or code."""

    name: str = "numeric"

    def scan(self, text: str) -> Iterator[Marker]:
        """The markers in ``text``, in order; malformed ones carry an ``error``."""
        code = CodeRegions(text)
        previous_end = -1
        for match in _MARKER.finditer(text):
            start, end = match.span()
            if (
                _stands_alone(text, start, previous_end)
                and not is_link_label(text, start, end)
                and not code.overlaps(start, end)
            ):
                previous_end = end
                yield _marker(match)


def _stands_alone(text: str, start: int, previous_end: int) -> bool:
    """False for indexes: ``a[1]``, ``x[1][2]``; ``[1][2]`` and ``[[ctx]][2]`` are citations."""
    before = text[start - 1] if start else " "
    if before == "]":
        return start == previous_end or text.startswith("]]", start - 2)
    return not (before.isalnum() or before == "_")


def _marker(match: re.Match[str]) -> Marker:
    raw, start = match.group(), match.start()
    span = Span(start, match.end())
    numbers: list[int] = []
    for item in _RANGE.finditer(match.group("body")):
        first = int(item.group(1))
        last = first if item.group(2) is None else int(item.group(2))
        if last < first:
            error = f"reversed range {item.group()!r} in {raw!r} at offset {start}"
            return Marker(span, raw, "numeric", error=error)
        if len(numbers) + last - first + 1 > MAX_REFERENCES:
            error = f"{raw!r} at offset {start} cites more than {MAX_REFERENCES} numbers"
            return Marker(span, raw, "numeric", error=error)
        numbers.extend(range(first, last + 1))
    return Marker(span, raw, "numeric", tuple(Reference(str(n)) for n in numbers))
