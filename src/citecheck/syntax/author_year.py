"""Author–year citations: parenthetical ``(Smith, 2020, p. 12)``, ``(Smith & Jones 2020; Lee
2019)``, ``(see Smith et al., 2020a)`` and narrative ``Smith (2020, p. 12)``, ``Smith and Jones
(2020)``, ``Smith et al. (2020)``.

A name is a capitalised word (with ``van``/``de``-style particles, initials, hyphens and
apostrophes) that is not a month, a season, a weekday or a word such as ``In`` or ``However``;
a year runs from 1500 to 2099, with an optional letter (``2020a``), or is ``n.d.``. The
locator is the leading locator term after a comma (``p. 12``, ``pp. 3-4``, ``sec. Methods``),
or a bare page after a comma (Chicago's ``2020, 12``) or a colon (Harvard's ``2020: 12``), both
``p. 12``; a suffix that holds a number but no locator (``Table 9``) is kept whole as the
locator, so the extractor reports it (:mod:`citecheck.syntax._locators`). An item in the parentheses
without a year (``see above``) is ignored; parentheses holding an item with a year that does
not read as author and year are no marker (the extractor warns about them).

A citation's ``source_id`` is the normalised author–year it names (``Smith & Jones 2020``,
``Smith et al. 2020a``): :class:`AuthorYear` parses it back. Which source it means is decided
later, against the sources' metadata or a bibliography (:mod:`citecheck.verification.resolution`). A
narrative citation is part of its sentence and vouches for the words after it.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import ClassVar

from citecheck.model import Marker, Reference, Span
from citecheck.protocols import NamesBy
from citecheck.syntax._locators import locator_of
from citecheck.syntax.scan import code_regions

__all__ = ["NAME", "NAME_YEAR", "YEAR", "AuthorYear", "AuthorYearSyntax"]

_UPPER = "".join(re.escape(c) for c in map(chr, range(0x41, 0x530)) if c.isupper())
_NOT_NAMES = (
    "January February March April May June July August September October November December "
    "Jan Feb Mar Apr Jun Jul Aug Sep Sept Oct Nov Dec Spring Summer Autumn Fall Winter "
    "Monday Tuesday Wednesday Thursday Friday Saturday Sunday Christmas Easter "
    "The This That These Those There Here It Its In On At By From To Until Since Before After "
    "During Around About Circa Ca And Or But Of For As With Without Between Both Early Late Mid "
    "End Year Years Figure Fig Table Chapter Section Page Vol Volume No Version Edition Release "
    "However Moreover Similarly Recently Finally Furthermore Additionally Indeed Thus Therefore "
    "Notably Interestingly Specifically Likewise Conversely Nevertheless Later Earlier Then Yet "
    "Still Instead Meanwhile Overall Consequently Hence Accordingly Also Further First Second "
    "Third Last Next See Cf Eg Ie AD BC BCE CE FY"
).split()
_PARTICLE = r"(?:van|von|de|der|den|del|della|di|da|du|dos|das|la|le|ter|ten|bin|ibn|Ó|Ní|Mac)"
NAME = (
    r"(?<![\w'’\-])"
    rf"(?:{_PARTICLE}[ \t]+){{0,3}}(?:[{_UPPER}]\.[ \t]?){{0,3}}"
    rf"(?!(?:{'|'.join(_NOT_NAMES)})\b)[{_UPPER}]"
    r"(?:[^\W\d_]|['’](?=[^\W\d_]{2})|-(?=[^\W\d_]))+"
)
"""A family name as it stands in a citation, for regular expressions."""
YEAR = r"(?:(?:1[5-9]|20)\d\d(?:(?!s\b)[a-z])?(?!\w)|n\.[ \t]?d\.)"
"""A year as it stands in a citation (``2020``, ``2020a``, ``n.d.``; ``1990s`` is a decade),
for regular expressions."""
NAME_YEAR = re.compile(rf"{NAME}(?:,?[ \t]+et[ \t]+al\.?)?,?[ \t]+{YEAR}")
"""A name and a year: what makes text look like an author–year citation."""

_ET_AL = r"(?:,?[ \t]+et[ \t]+al\.?)"
_AUTHORS = (
    rf"(?P<authors>{NAME}(?:(?:[ \t]*,[ \t]*{NAME}){{0,5}},?[ \t]+(?:and|&)[ \t]+{NAME})?{_ET_AL}?)"
)
_YEARS = rf"(?P<years>{YEAR}(?:[ \t]*,[ \t]*(?:{YEAR}|[a-z](?![\w.])))*)"
_PREFIX = (
    r"(?:(?i:see also|but see|see|cf\.|e\.g\.,?|i\.e\.,?|compare|contra|as cited in"
    r"|for example,?|for a review,? see|reviewed in|also|in)[ \t]+){0,2}"
)
_ITEM = re.compile(
    rf"[ \t]*(?:{_PREFIX}{_AUTHORS}(?:,|['’]s)?[ \t]+)?{_YEARS}(?P<rest>[ \t]*[,:].*)?[ \t]*",
    re.DOTALL,
)
_PARENTHESES = re.compile(r"\((?P<body>[^()\n]{1,300})\)")
_YEAR_IN_PARENTHESES = re.compile(
    rf"(?<![ \t])[ \t]++\([ \t]*+{_YEARS}(?P<rest>[ \t]*[,:][^()\n]*)?[ \t]*\)"
)
_AUTHORS_BEFORE = re.compile(rf"{_AUTHORS}(?:['’]s)?$")
_REACH = 200
"""How far before a year in parentheses its authors may start (seven names at most)."""
_HAS_YEAR = re.compile(YEAR)
_NAME_SEPARATOR = re.compile(r"[ \t]*,[ \t]*(?:(?:and|&)[ \t]+)?|[ \t]+(?:and|&)[ \t]+")
_INITIALS = re.compile(rf"(?:[{_UPPER}]\.[ \t]?)+")
_YEAR_SEPARATOR = re.compile(r"[ \t]*,[ \t]*")


@dataclass(frozen=True, slots=True)
class AuthorYear:
    """The authors and year an author–year citation names; ``str()`` is its ``source_id``.

    ``names`` are the family names as written (particles kept, initials and a possessive
    dropped), ``et_al`` says more authors were left out, ``year`` is ``None`` for ``n.d.``
    and ``suffix`` is the letter that tells one author's works of a year apart (``a``).
    """

    names: tuple[str, ...]
    et_al: bool = False
    year: str | None = None
    suffix: str = ""

    def __str__(self) -> str:
        names = list(self.names)
        written = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " & " + names[-1]
        when = "n.d." if self.year is None else self.year + self.suffix
        return f"{written}{' et al.' if self.et_al else ''} {when}"

    @classmethod
    def parse(cls, source_id: str) -> AuthorYear:
        """The author–year of a ``source_id`` written by :class:`AuthorYearSyntax`."""
        authors, _, when = source_id.rpartition(" ")
        et_al = authors.endswith(" et al.")
        authors = authors.removesuffix(" et al.")
        first, _, last = authors.rpartition(" & ")
        names = (*first.split(", "), last) if first else (last,)
        if when == "n.d.":
            return cls(names, et_al)
        suffix = when[4:]
        return cls(names, et_al, when[:4], suffix)


class AuthorYearSyntax:
    """Finds parenthetical and narrative author–year citations outside Markdown code."""

    name: str = "author_year"
    cited_as: ClassVar[str] = "({})"
    """How a reader writes a cited key in this syntax (``(key)``), for reasons."""
    names_by: ClassVar[NamesBy] = "author_year"
    """What a cited name is: a source ``key``, a ``number`` of the reference list, or an
    ``author_year`` to look up in a bibliography (:mod:`citecheck.verification.resolution`)."""

    def scan(self, text: str) -> Iterator[Marker]:
        """The markers in ``text``, in order (this syntax yields no malformed ones: what it
        cannot read the extractor reports as marker-like text)."""
        if not _HAS_YEAR.search(text):
            return
        code = code_regions(text)
        markers = [
            marker
            for match in _PARENTHESES.finditer(text)
            if not code.overlaps(*match.span()) and (marker := _parenthetical(match)) is not None
        ]
        markers += [
            marker
            for match in _narrative_years(text)
            if not code.overlaps(*match[0].span()) and (marker := _narrative(*match)) is not None
        ]
        yield from sorted(markers, key=lambda marker: marker.span.start)


def _narrative_years(text: str) -> Iterator[tuple[re.Match[str], re.Match[str]]]:
    """The narrative citations of ``text`` as (authors, year in parentheses) matches: a year in
    parentheses is looked for first, then the names right before it, which is far cheaper than
    trying names at every word."""
    for year in _YEAR_IN_PARENTHESES.finditer(text):
        authors = _AUTHORS_BEFORE.search(text, max(0, year.start() - _REACH), year.start())
        if authors is not None:
            yield authors, year


def _parenthetical(match: re.Match[str]) -> Marker | None:
    references: list[Reference] = []
    names: tuple[tuple[str, ...], bool] | None = None
    for item in match.group("body").split(";"):
        if not _HAS_YEAR.search(item):
            continue  # "see above", "emphasis added": not a citation, as in pandoc
        parsed = _ITEM.fullmatch(item)
        if parsed is None or NAME_YEAR.search(parsed.group("rest") or ""):
            return None  # unreadable, or another author and year in the suffix ("as cited in")
        if parsed.group("authors") is not None:
            names = _names(parsed.group("authors"))
        if names is None:
            return None  # a year with no author before it: "(2019; 2020)"
        cited = _references(names, parsed.group("years"), parsed.group("rest"))
        if cited is None:
            return None
        references += cited
    if not references:
        return None
    return Marker(Span(match.start(), match.end()), match.group(), "author_year", tuple(references))


def _narrative(authors: re.Match[str], year: re.Match[str]) -> Marker | None:
    names = _names(authors.group("authors"))
    cited = _references(names, year.group("years"), year.group("rest"))
    if cited is None:
        return None
    span = Span(authors.start(), year.end())
    raw = authors.string[span.start : span.end]
    return Marker(span, raw, "author_year", tuple(cited), in_text=True)


def _names(authors: str) -> tuple[tuple[str, ...], bool]:
    et_al = re.search(_ET_AL + "$", authors)
    if et_al is not None:
        authors = authors[: et_al.start()]
    names = tuple(
        _INITIALS.sub("", name, count=1) if _INITIALS.match(name) else name
        for name in _NAME_SEPARATOR.split(authors.strip())
    )
    return names, et_al is not None


def _references(
    names: tuple[tuple[str, ...], bool], years: str, rest: str | None
) -> list[Reference] | None:
    """One reference per year; the locator belongs to the last. ``None`` when a bare letter
    (``2020a, b``) follows a year without one."""
    authors, et_al = names
    cited: list[AuthorYear] = []
    for year in _YEAR_SEPARATOR.split(years.strip()):
        if len(year) == 1:
            if not cited or not cited[-1].suffix:
                return None
            cited.append(AuthorYear(authors, et_al, cited[-1].year, year))
        elif year.startswith("n"):
            cited.append(AuthorYear(authors, et_al))
        else:
            cited.append(AuthorYear(authors, et_al, year[:4], year[4:]))
    locator = None if rest is None else locator_of(rest)
    references = [Reference(str(c)) for c in cited]
    references[-1] = Reference(references[-1].source_id, locator)
    return references
