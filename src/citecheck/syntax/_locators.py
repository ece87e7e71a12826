"""The locator of a citation (``p. 12``, ``pp. 213-14``, ``sec. Methods``, ``§ 2``, ``L42-67``),
found and read the same way by every syntax that takes one: pandoc suffixes, numeric
``[1, p. 12]`` and author–year ``(Smith 2020, p. 12)``.

Finding (:func:`locator_of`, :func:`whole_locator`) is the syntaxes' part: a locator is passed
on as written, and a suffix that holds a number but no locator citecheck knows (``Table 9``,
``99-``) is passed on whole rather than dropped, so the citation is not checked at a place the
author never named. Reading (:func:`read_locator`) is the extractor's: besides every
:class:`~citecheck.locations.Location` it reads the page terms ``pg.``, ``pgs.`` and the German
``S.`` (Seite), and page or line lists (``pp. 1, 99``), which it checks as the range that spans
them, saying so.
"""

from __future__ import annotations

import re
from contextlib import suppress
from dataclasses import dataclass

from citecheck.errors import LocationError
from citecheck.locations import Location
from citecheck.syntax.scan import DASHES

__all__ = ["LOCATOR", "ReadLocator", "locator_of", "read_locator", "whole_locator"]

_NUMBER = r"(?:\d+|[ivxlcdm]+\b)"
_PAGE_TERMS = r"pp?|pages?|pgs?|seiten?"
_LINE_TERMS = r"ll?|lines?"
_NUMBERED_TERMS = (
    rf"{_PAGE_TERMS}|{_LINE_TERMS}|ch|chap|chapters?|vols?|volumes?|figs?|figures?|paras?"
    r"|paragraphs?|nn?|notes?|vv?|verses?|cols?|columns?|bk|books?|pts?|parts?|nos?|fols?|folios?"
)
_RANGE = rf"\d+(?:[ \t]*[{DASHES}][ \t]*\d+)?"
_MORE = rf"(?:[ \t]*,[ \t]*{_RANGE}(?![{DASHES}\w]))*"
"""More numbers of a list after the first: ``pp. 33, 35-37``."""
_TERM = rf"(?:(?:{_NUMBERED_TERMS})(?:\.[ \t]*|[ \t]+|(?=\d))|s\.[ \t]*(?=\d))"
"""A numbered term and what parts it from its number; ``S.`` (Seite) needs its full stop."""
LOCATOR = re.compile(
    rf"{_TERM}{_NUMBER}(?:[ \t]*[{DASHES}][ \t]*{_NUMBER})?{_MORE}"
    r"|(?:§§?|(?:sec|sect|secs|sections?)\b\.?)[ \t]*[^\s,;\]](?:[^,;\n\]]*[^\s,;\]])?",
    re.IGNORECASE,
)
"""A locator term: a numbered term (``p. 12``, ``ll. 5-9``, ``ch. 3``, ``pp. 33, 35-37``) or a
section name."""
_BARE_PAGES = re.compile(rf"{_RANGE}{_MORE}(?![{DASHES}\w:]|\.\d)")
"""Numbers with no term (``33-35``, ``33, 35-37``): pages, as pandoc and Chicago read them."""
_LISTED = re.compile(
    rf"(?P<term>{_PAGE_TERMS}|{_LINE_TERMS}|s(?=\.))(?:\.[ \t]*|[ \t]+|(?=\d))"
    rf"(?P<items>{_RANGE}{_MORE})(?![{DASHES}\w])(?P<tail>.*)",
    re.IGNORECASE | re.DOTALL,
)
_ITEM_SEPARATOR = re.compile(r"[ \t]*,[ \t]*")
_DIGIT = re.compile(r"\d")


def locator_of(suffix: str, *, after_bare_key: bool = False) -> str | None:
    """The locator in a citation's suffix (what follows the key or year), ``None`` when the
    suffix names no place (``and passim``, ``emphasis added``).

    A whole location in citecheck's own notation (``L42-67``, ``2:15``) is taken as written;
    else the leading locator term (``p. 12`` of ``p. 12 and passim``); else numbers with no
    term, which pandoc and Chicago author–date read as pages (``33-35`` is ``p. 33-35``). When
    what follows that, or a suffix with no locator at all, holds a digit (``p. 12, Table 3``,
    ``Table 9``, ``99-``), the whole suffix is the locator: what cannot be read is then
    reported, and the place left unchecked, instead of being dropped in silence.

    ``after_bare_key`` reads the brackets after a bare ``@key`` (``@doe99 [p. 33]``), which
    may as well be a marker of their own (``@doe99 [2]``): only a location or a locator term
    is taken there.
    """
    rest = suffix.strip().lstrip(",:").strip()
    if not rest:
        return None
    with suppress(LocationError):
        Location.parse(rest)
        return rest
    term = LOCATOR.match(rest)
    prefix = ""
    if term is None and not after_bare_key:
        term = _BARE_PAGES.match(rest)
        prefix = "p. "
    if term is None:
        return rest if _DIGIT.search(rest) and not after_bare_key else None
    return prefix + (rest if _DIGIT.search(rest, term.end()) else term.group())


def whole_locator(text: str) -> str | None:
    """``text`` when all of it is one locator (a term, or a location with a letter in it such as
    ``L42-67``, never a bare number), else ``None``: for syntaxes that must tell a locator from
    other words in the same brackets."""
    text = text.strip()
    if LOCATOR.fullmatch(text):
        return text
    if not any(ch.isalpha() for ch in text):
        return None
    try:
        Location.parse(text)
    except LocationError:
        return None
    return text


@dataclass(frozen=True, slots=True)
class ReadLocator:
    """The location a locator was read as, and ``note``: what the reader needs to know when it
    is not exactly the locator (a list read as the range spanning it, a rest left unread)."""

    location: Location
    note: str | None = None


def read_locator(locator: str) -> ReadLocator:
    """The location ``locator`` names; raises :class:`~citecheck.errors.LocationError` when it
    names none that citecheck can check (``chap. 3``, ``Table 9``).

    Beyond :meth:`Location.parse <citecheck.locations.Location.parse>`: ``pg.``, ``pgs.``,
    ``S.`` and ``Seite`` are page terms; a list of pages or lines (``pp. 1, 99``) is checked as
    the one range that spans it (a place must exist at both ends), which the note says; and
    a leading page, line or section followed by more (``p. 12, Table 3``) is read as that
    leading part, the note naming the rest that was not read.
    """
    with suppress(LocationError):
        return ReadLocator(Location.parse(locator))
    text = locator.strip()
    listed = _LISTED.match(text)
    if listed is not None:
        return _read_list(listed)
    term = LOCATOR.match(text)
    if term is not None:
        leading = Location.parse(term.group())  # raises for terms that are no location
        return ReadLocator(leading, _unread(text[term.end() :]))
    return ReadLocator(Location.parse(locator))  # raises, quoting the locator


def _read_list(listed: re.Match[str]) -> ReadLocator:
    pages = not listed.group("term").casefold().startswith("l")
    items = _ITEM_SEPARATOR.split(listed.group("items").strip())
    read = [Location.parse(f"{'p' if pages else 'l'}. {item}") for item in items]
    start = min(location.start or 0 for location in read)
    end = max(location.end or 0 for location in read)
    location = Location("pages" if pages else "lines", start, end)
    notes = []
    if len(read) > 1:
        kind = "pages" if pages else "lines"
        named = ", ".join(items[:-1]) + " and " + items[-1]
        notes.append(f"the {kind} {named} are checked as the range that spans them")
    rest = _unread(listed.group("tail"))
    if rest is not None:
        notes.append(rest)
    return ReadLocator(location, "; ".join(notes) or None)


def _unread(tail: str) -> str | None:
    rest = tail.strip().lstrip(",;:").strip()
    return f"the rest, {rest!r}, is not checked" if rest else None
