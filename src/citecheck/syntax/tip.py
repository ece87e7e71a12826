"""TIP markers: ``[[ctx-1]]``, ``[[ctx-1:L42-67]]``, ``[[doc:p12]]``, ``[[talk:2:15]]``.

The source id runs to the first colon and the rest is the locator, so times (``2:15``) survive
in the locator. A ``[[`` that is never closed on its line, ``[[]]`` or ``[[:p3]]`` is reported
as a malformed marker rather than skipped: a half-written citation is something to tell the
author about.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import ClassVar

from citecheck.model import Marker, Reference, Span
from citecheck.protocols import NamesBy
from citecheck.syntax.scan import code_regions

__all__ = ["TipSyntax"]

# (?!\[) starts at the last "[[" of a bracket run, so "[[[1]]]" holds the marker "[[1]]".
_MARKER = re.compile(r"\[\[(?!\[)(?:(?P<body>[^\[\]\n]*)\]\]|[^\s\[\]]*\]?)")


class TipSyntax:
    """Finds ``[[id]]`` and ``[[id:locator]]`` markers outside Markdown code."""

    name: str = "tip"
    cited_as: ClassVar[str] = "[[{}]]"
    """How a reader writes a cited key in this syntax (``[[key]]``), for reasons."""
    names_by: ClassVar[NamesBy] = "key"
    """What a cited name is: a source ``key``, a ``number`` of the reference list, or an
    ``author_year`` to look up in a bibliography (:mod:`citecheck.verification.resolution`)."""

    def scan(self, text: str) -> Iterator[Marker]:
        """The markers in ``text``, in order; malformed ones carry an ``error``."""
        code = code_regions(text)
        for match in _MARKER.finditer(text):
            if not code.overlaps(*match.span()):
                yield _marker(match)


def _marker(match: re.Match[str]) -> Marker:
    raw = match.group()
    span = Span(match.start(), match.end())
    body = match.group("body")
    if body is None:
        return Marker(span, raw, "tip", error="it is never closed")
    source_id, colon, locator = body.partition(":")
    source_id = source_id.strip()
    if not source_id:
        problem = "it is empty" if not body.strip() else "it has no source id"
        return Marker(span, raw, "tip", error=problem)
    reference = Reference(source_id, locator.strip() if colon else None)
    return Marker(span, raw, "tip", (reference,))
