"""Pandoc citations: ``[@key]``, ``[@key, p. 12]``, ``[@a; @b, pp. 3-4]``, ``[see -@key]``.

Keys follow pandoc: they start with a letter, digit or ``_`` and may hold internal
``:.#$%&-+?<>~/`` (``@doe99.`` ends at ``doe99``); ``@{…}`` takes any key. An ``@`` counts only
after ``[``, ``;``, whitespace or ``-``, so e-mail addresses are never citations. Bare in-text
keys (``@doe99 says``) are off by default because ``@name`` is also a mention in chat answers;
the braced form ``@{key}`` is unambiguous and always recognised.

The locator is the leading locator term of each citation's suffix (``p. 12``, ``pp. 213-14``,
``sec. Methods``, ``§ 2``), passed on exactly as written; other suffix text is ignored.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from citecheck.errors import LocationError
from citecheck.locations import Location
from citecheck.model import Marker, Reference, Span
from citecheck.syntax._scan import DASHES, CodeRegions, is_link_label

__all__ = ["PandocSyntax"]

_KEY = r"(?P<key>\w+(?:[:.#$%&\-+?<>~/]+\w+)*)"
_BRACED = r"\{[ \t]*(?P<braced>[^{}\s](?:[^{}\n]*[^{}\s])?)[ \t]*\}"
_BRACKET = r"\[(?P<body>(?:[^\[\]\n]|\n(?![ \t]*\n))*)\]"
_UNCLOSED = r"(?P<unclosed>\[[ \t]*-?@[^\s\[\];,]*)"
_KEY_AT = re.compile(rf"(?<![^\s\-])@(?:{_BRACED}|{_KEY})")


def _pattern(in_text: bool) -> re.Pattern[str]:
    keys = f"{_BRACED}|{_KEY}" if in_text else _BRACED
    bare = rf"(?<![^\s\-;\[])(?P<bare>-?@(?:{keys}))(?:[ \t]?\[(?P<suffix>[^\[\]\n@]*)\])?"
    return re.compile(f"{_BRACKET}|{_UNCLOSED}|{bare}")


_CITATIONS = {False: _pattern(False), True: _pattern(True)}
_KEYLESS_AT = re.compile(r"\s*-?@")
_ITEM_SEPARATOR = re.compile(r";(?![^{}\n]*\})")  # not inside @{…}

_NUMBER = r"(?:\d+|[ivxlcdm]+\b)"
_NUMBERED_TERMS = (
    r"pp?|pages?|ll?|lines?|ch|chap|chapters?|vols?|volumes?|figs?|figures?|paras?|paragraphs?"
    r"|nn?|notes?|vv?|verses?|cols?|columns?|bk|books?|pts?|parts?|nos?|fols?|folios?"
)
_LOCATOR = re.compile(
    rf"(?:{_NUMBERED_TERMS})(?:\.[ \t]*|[ \t]+|(?=\d)){_NUMBER}"
    rf"(?:[ \t]*[{DASHES}][ \t]*{_NUMBER})?"
    r"|(?:§§?|(?:sec|sect|secs|sections?)\b\.?)[ \t]*[^\s,;](?:[^,;\n]*[^\s,;])?",
    re.IGNORECASE,
)


class PandocSyntax:
    """Finds pandoc citations outside Markdown code and links.

    ``in_text=True`` also recognises bare ``@key`` (pandoc's in-text citations), with an
    optional locator in brackets right after it (``@doe99 [p. 33]``).
    """

    name: str = "pandoc"

    def __init__(self, in_text: bool = False) -> None:
        self.in_text = in_text

    def scan(self, text: str) -> Iterator[Marker]:
        """The markers in ``text``, in order; malformed ones carry an ``error``."""
        if "@" not in text:
            return  # every pandoc citation has an "@"; most texts are settled here
        code = CodeRegions(text)
        for match in _CITATIONS[self.in_text].finditer(text):
            start, end = match.span()
            if code.overlaps(start, end):
                continue
            if match.group("body") is not None:
                if not is_link_label(text, start, end):
                    marker = _bracketed(match)
                    if marker is not None:
                        yield marker
            elif match.group("unclosed") is not None:
                error = f"unclosed citation {match.group()!r} at offset {start}"
                yield Marker(Span(start, end), match.group(), "pandoc", error=error)
            else:
                yield _bare(match)


def _bracketed(match: re.Match[str]) -> Marker | None:
    """The citation in ``[…]``, ``None`` when the brackets hold no key, malformed for ``[@]``."""
    raw, start = match.group(), match.start()
    references: list[Reference] = []
    keyless = False
    for item in _ITEM_SEPARATOR.split(match.group("body")):
        key = _KEY_AT.search(item)
        if key is not None:
            source_id = key.group("braced") or key.group("key")
            references.append(Reference(source_id, _locator(item[key.end() :])))
        elif _KEYLESS_AT.match(item):
            keyless = True
    span = Span(start, match.end())
    if keyless:
        return Marker(span, raw, "pandoc", error=f"citation {raw!r} at offset {start} lacks a key")
    return Marker(span, raw, "pandoc", tuple(references)) if references else None


def _bare(match: re.Match[str]) -> Marker:
    """``@{key}`` (or ``@key``), taking a following ``[p. 33]`` when it is a locator."""
    source_id = match.group("braced") or match.group("key")
    suffix = match.group("suffix")
    locator = None if suffix is None else _locator(suffix)
    end = match.end() if locator is not None else match.end("bare")
    raw = match.string[match.start() : end]
    return Marker(Span(match.start(), end), raw, "pandoc", (Reference(source_id, locator),))


def _locator(suffix: str) -> str | None:
    """The leading locator term of a suffix, as written; ``None`` when it does not start with one.

    A suffix that is a whole location in citecheck's own notation (``L42-67``, ``2:15``) is
    taken too, so pandoc keys can point at lines and times.
    """
    rest = suffix.strip().removeprefix(",").strip()
    term = _LOCATOR.match(rest)
    if term is not None:
        return term.group()
    try:
        Location.parse(rest)
    except LocationError:
        return None
    return rest
