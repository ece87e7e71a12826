"""Where in a source a citation points: :class:`Location` and its parser.

A location is a small value: a kind (lines, pages, a section, a time, a character range or the
whole source) and its numbers or name. Parsing is strict on purpose — a string that is not a
location raises :class:`~citecheck.errors.LocationError` quoting it, so a typo in a citation is
reported instead of silently widening the search to the whole document.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal, get_args

from citecheck.errors import LocationError

__all__ = ["Location", "LocationKind"]

LocationKind = Literal["general", "lines", "pages", "section", "time", "chars"]
_KINDS = frozenset(get_args(LocationKind))

_DASH = r"\s*[-\u2010\u2011\u2012\u2013\u2014\u2212]\s*"
_LINES = re.compile(rf"(?:l|ll|lines?)\.?\s*(\d+)(?:{_DASH}(?:l\.?\s*)?(\d+))?", re.IGNORECASE)
_PAGES = re.compile(rf"(?:p|pp|pages?)\.?\s*(\d+)(?:{_DASH}(?:p\.?\s*)?(\d+))?", re.IGNORECASE)
_CHARS = re.compile(rf"c(\d+)(?:{_DASH}(\d+))?", re.IGNORECASE)
_CLOCK = r"(\d+):(\d\d)(?::(\d\d))?"
_TIME = re.compile(rf"{_CLOCK}(?:{_DASH}{_CLOCK})?")
_SEC_SLUG = re.compile(r"sec-(\S.*)", re.IGNORECASE)
_SEC_NAMED = re.compile(r"(?:§+|sec\.|section\b)\s*(\S.*)", re.IGNORECASE)
_GENERAL = re.compile(r"general", re.IGNORECASE)
_MAX_NUMBER = 10**12  # larger numbers are typos or attacks, never real lines or pages


@dataclass(frozen=True, slots=True)
class Location:
    """A place inside one source.

    ``start`` and ``end`` are 1-based and inclusive for lines and pages (page numbers are the
    printed labels, not indexes), whole seconds for times, and 0-based with ``end`` exclusive for
    character ranges (``c100-250`` is ``text[100:250]``). ``name`` is the section slug or title.
    """

    kind: LocationKind
    start: int | None = None
    end: int | None = None
    name: str | None = None

    def __post_init__(self) -> None:
        if self.kind not in _KINDS:
            raise LocationError(
                f"unknown location kind {self.kind!r}; expected one of {sorted(_KINDS)}"
            )
        for value in (self.start, self.end):
            if value is not None and (not isinstance(value, int) or isinstance(value, bool)):
                raise LocationError(f"location numbers must be integers, got {value!r}")
        if self.kind == "section":
            if not isinstance(self.name, str) or not self.name.strip():
                raise LocationError("a section location needs a name")
            return
        if self.kind == "general":
            return
        if self.start is None:
            raise LocationError(f"a {self.kind} location needs a start")
        end = self.start if self.end is None else self.end
        if self.start < 0 or end < 0:
            raise LocationError(f"negative {self.kind} in location: {self.start}-{end}")
        if self.kind == "lines" and self.start < 1:
            raise LocationError("line numbers start at 1")
        if end < self.start:
            raise LocationError(f"reversed {self.kind} range: {self.start}-{end}")
        if self.end is None:
            object.__setattr__(self, "end", self.start + 1 if self.kind == "chars" else self.start)

    @classmethod
    def parse(cls, text: str) -> Location:
        """Parse ``general``, ``L42``, ``L42-67``, ``p12``, ``p. 213-214``, ``pp. 12–14``,
        ``sec-intro``, ``§ Methods``, ``2:15``, ``01:02:03``, ``2:15-3:00`` or ``c100-250``.

        Abbreviated page ranges (``pp. 213-14``) are expanded. Anything else raises
        :class:`LocationError` quoting the text.
        """
        if not isinstance(text, str):
            raise LocationError(f"a location must be a string, got {type(text).__name__}")
        raw = text.strip()
        if not raw:
            raise LocationError("empty location")
        try:
            return _parse(raw)
        except LocationError as exc:
            raise LocationError(f"invalid location {text!r}: {exc}") from None

    @property
    def is_range(self) -> bool:
        """True when the location spans more than one line, page, second or character."""
        if self.kind == "chars":
            return (self.end or 0) - (self.start or 0) > 1
        return self.start is not None and self.end != self.start

    def describe(self) -> str:
        """A phrase for reasons: ``p. 12``, ``lines 42-67``, ``section 'intro'``."""
        if self.kind == "general":
            return "the whole source"
        if self.kind == "section":
            return f"section {self.name!r}"
        if self.kind == "lines":
            return f"lines {self.start}-{self.end}" if self.is_range else f"line {self.start}"
        if self.kind == "pages":
            return f"pp. {self.start}-{self.end}" if self.is_range else f"p. {self.start}"
        if self.kind == "time":
            return str(self)
        return f"characters {self.start}-{self.end}"

    def preposition(self) -> str:
        """The word that goes before :meth:`describe` in a sentence: on p. 12, at line 4."""
        return {"pages": "on", "section": "in", "general": "in"}.get(self.kind, "at")

    def __str__(self) -> str:
        """The canonical written form; ``Location.parse(str(loc)) == loc``."""
        if self.kind == "general":
            return "general"
        if self.kind == "section":
            name = self.name or ""
            return f"sec-{name}" if re.fullmatch(r"[\w-]+", name) else f"§ {name}"
        if self.kind == "chars":
            return f"c{self.start}-{self.end}"
        if self.kind == "time":
            first = _clock(self.start or 0)
            return first if not self.is_range else f"{first}-{_clock(self.end or 0)}"
        prefix = "L" if self.kind == "lines" else "p"
        return f"{prefix}{self.start}" if not self.is_range else f"{prefix}{self.start}-{self.end}"


def _parse(raw: str) -> Location:
    if _GENERAL.fullmatch(raw):
        return Location("general")
    for kind, pattern in (("lines", _LINES), ("pages", _PAGES), ("chars", _CHARS)):
        match = pattern.fullmatch(raw)
        if match:
            start = _number(match.group(1))
            end = None if match.group(2) is None else _number(match.group(2))
            if kind == "pages" and end is not None:
                end = _expand_abbreviated(start, match.group(2))
            if kind == "chars" and end is None:
                end = start + 1
            return Location(kind, start, end)  # type: ignore[arg-type]
    match = _TIME.fullmatch(raw)
    if match:
        groups = match.groups()
        start = _seconds(*groups[:3])
        end = None if groups[3] is None else _seconds(*groups[3:])
        return Location("time", start, end)
    match = _SEC_SLUG.fullmatch(raw) or _SEC_NAMED.fullmatch(raw)
    if match:
        return Location("section", name=match.group(1).strip())
    raise LocationError(
        "not a location (expected general, L42, L42-67, p12, pp. 12-14, "
        "sec-intro, § Methods, 2:15, 01:02:03 or c100-250)"
    )


def _number(digits: str) -> int:
    if len(digits) > 12 or int(digits) > _MAX_NUMBER:
        raise LocationError(f"number too large: {digits[:20]}")
    return int(digits)


def _expand_abbreviated(start: int, end_digits: str) -> int:
    """``213-14`` means 213-214 in bibliographies; expand when the short form reads that way."""
    end = _number(end_digits)
    if end < start and len(end_digits) < len(str(start)):
        expanded = int(str(start)[: -len(end_digits)] + end_digits)
        if expanded >= start:
            return expanded
    return end


def _seconds(first: str, second: str, third: str | None) -> int:
    values = [_number(first), _number(second)] + ([] if third is None else [_number(third)])
    if any(v >= 60 for v in values[1:]):
        raise LocationError("minutes and seconds must be below 60")
    if len(values) == 2:
        return values[0] * 60 + values[1]
    return values[0] * 3600 + values[1] * 60 + values[2]


def _clock(seconds: int) -> str:
    hours, rest = divmod(seconds, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours:02d}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"
