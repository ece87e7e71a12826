"""OpenAI file-search markers: ``【4:0†trial.pdf】``, ``【4:0†trial.pdf†L10-L20】``.

OpenAI's file search (the Assistants and Responses APIs, ChatGPT's files) writes a citation
into the answer's text as ``【message:result†name】``, where ``name`` is the cited file's name
and an optional third part the lines cited (``†L10-L20``). The numbers say which search result
it was, which only the API's own annotations can resolve; citecheck reads the file name, and
the lines as a line locator. Some models write the literal placeholder ``source`` instead of a
name (``【4:0†source】``): that names no file, so the marker is reported as one citecheck could
not read (check the response's annotations with the ``api`` door instead). Brackets
``【…】`` without a ``†`` are ordinary text (Chinese and Japanese use them as headings).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import ClassVar

from citecheck.model import Marker, Reference, Span
from citecheck.protocols import NamesBy
from citecheck.syntax._locators import locator_of
from citecheck.syntax.scan import code_regions

__all__ = ["FileSearchSyntax"]

_MARKER = re.compile(r"【(?P<body>[^【】\n]{1,300}?†[^【】\n]{0,300}?)】")
_INDEX = re.compile(r"[ \t]*\d{1,6}(?:[ \t]*:[ \t]*\d{1,6})?[ \t]*")
"""The search result's numbers before the first ``†``: ``4:0``, ``7``."""
_PLACEHOLDERS = frozenset({"source", "sources", "file", "document"})
"""Words a model writes where the file name should stand."""


class FileSearchSyntax:
    """Finds OpenAI file-search markers ``【n:m†name】`` outside Markdown code."""

    name: str = "openai"
    cited_as: ClassVar[str] = "【†{}】"
    """How a reader writes a cited key in this syntax, for reasons."""
    names_by: ClassVar[NamesBy] = "key"
    """What a cited name is: a source ``key`` (here a file name, resolved to the document of
    that file)."""

    def scan(self, text: str) -> Iterator[Marker]:
        """The markers in ``text``, in order; unreadable ones carry an ``error``."""
        if "【" not in text:
            return
        code = code_regions(text)
        for match in _MARKER.finditer(text):
            if not code.overlaps(*match.span()):
                yield _marker(match)


def _marker(match: re.Match[str]) -> Marker:
    raw, span = match.group(), Span(*match.span())
    index, _, rest = match.group("body").partition("†")
    name, _, lines = rest.partition("†")
    name = name.strip()
    if not _INDEX.fullmatch(index):
        return Marker(span, raw, "openai", error=f"{index.strip()!r} is no search result number")
    if not name:
        return Marker(span, raw, "openai", error="it names no file")
    if name.casefold() in _PLACEHOLDERS:
        return Marker(
            span,
            raw,
            "openai",
            error=(
                f"{name!r} is the API's placeholder, not a file name: check the response's "
                "annotations (the api door), which say which file it cites"
            ),
        )
    locator = locator_of(lines) if lines.strip() else None
    return Marker(span, raw, "openai", (Reference(name, locator),))
