"""The reference list a text may end with: a "References", "Bibliography" or "Sources" heading
followed by entries such as ``[1] Smith, J. (2020). Title…`` or ``1. Smith …``.

It says which work each number means, so it is read rather than checked: the extractor takes
no citations from it, and the verifier matches its numbered entries to the sources. A heading
counts only when what follows it reads as a list: the first line, and each line after a blank
one, starts an entry (a number in brackets or with ``.`` or ``)``, a bullet, or a line with a
year or a link in it); other lines continue the entry above them. The section runs to the next
Markdown heading or the end of the text; the last such section in the text wins.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from citecheck.model import Span
from citecheck.syntax.scan import code_regions

__all__ = ["ReferenceEntry", "ReferenceList", "find_reference_list"]

_TITLES = (
    r"references?|bibliography|sources?|works[ \t]+cited|literature(?:[ \t]+cited)?"
    r"|reference[ \t]+list|citations|notes[ \t]+and[ \t]+references|quellen|literatur"
    r"|literaturverzeichnis|références|bibliographie|bibliografía|referencias|fuentes|bronnen"
    r"|referenties|literatuurlijst"
)
_HEADING = re.compile(
    rf"^[ \t]*(?:#{{1,6}}[ \t]+)?(?:\*\*|__)?(?i:{_TITLES})[ \t]*:?[ \t]*(?:\*\*|__)?:?[ \t]*$",
    re.MULTILINE,
)
_NEXT_HEADING = re.compile(r"^[ \t]*#{1,6}[ \t]", re.MULTILINE)
_NUMBERED = re.compile(r"[ \t]*(?:[-*+][ \t]+)?(?:\[(?P<a>\d{1,4})\]:?|(?P<b>\d{1,4})[.)])[ \t]+")
_BULLET = re.compile(r"[ \t]*[-*+][ \t]+")
_UNNUMBERED = re.compile(r"\S.*(?:\b(?:1[5-9]|20)\d\d\b|https?://)")
_LINE = re.compile(r"[^\n]*\n?")


@dataclass(frozen=True, slots=True)
class ReferenceEntry:
    """One entry: its number as written (``None`` in an unnumbered list), its text after the
    number (continuation lines included) and where that text stands."""

    number: str | None
    text: str
    span: Span


@dataclass(frozen=True, slots=True)
class ReferenceList:
    """The reference list: where it stands (heading included) and its entries in order."""

    span: Span
    entries: tuple[ReferenceEntry, ...]

    def entry(self, number: str) -> ReferenceEntry | None:
        """The entry numbered ``number``, if the list has one."""
        return next((e for e in self.entries if e.number == number), None)

    @property
    def numbers(self) -> list[str]:
        """The numbers of the entries, in order."""
        return [e.number for e in self.entries if e.number is not None]


def find_reference_list(text: str) -> ReferenceList | None:
    """The last reference list of ``text`` (see the module), or ``None``."""
    code = code_regions(text)
    found = None
    for heading in _HEADING.finditer(text):
        if code.overlaps(*heading.span()):
            continue
        following = _NEXT_HEADING.search(text, heading.end())
        end = len(text) if following is None else following.start()
        entries = _entries(text, heading.end(), end)
        if entries:
            found = ReferenceList(Span(heading.start(), end), entries)
    return found


def _entries(text: str, start: int, end: int) -> tuple[ReferenceEntry, ...]:
    """The entries between ``start`` and ``end``; empty when the lines there are no list."""
    entries: list[tuple[str | None, int, int]] = []  # number, text start, text end
    after_blank = True
    for line in _LINE.finditer(text, start, end):
        content_end = line.start() + len(line.group().rstrip())
        if content_end == line.start() or not line.group().strip():
            after_blank = True
            continue
        opening = _NUMBERED.match(text, line.start(), content_end)
        if opening is not None:
            entries.append((opening.group("a") or opening.group("b"), opening.end(), content_end))
        elif after_blank:
            bullet = _BULLET.match(text, line.start(), content_end)
            if bullet is None and not _UNNUMBERED.match(text, line.start(), content_end):
                return ()
            first = line.start() if bullet is None else bullet.end()
            while text[first].isspace():
                first += 1
            entries.append((None, first, content_end))
        else:
            number, first, _ = entries[-1]
            entries[-1] = (number, first, content_end)
        after_blank = False
    return tuple(
        ReferenceEntry(number, text[first:last], Span(first, last))
        for number, first, last in entries
    )
