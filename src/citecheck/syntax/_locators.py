"""The locator of a citation (``p. 12``, ``pp. 213-14``, ``sec. Methods``, ``§ 2``, ``L42-67``),
read the same way by every syntax that takes one: pandoc suffixes, numeric ``[1, p. 12]`` and
author–year ``(Smith 2020, p. 12)``.

A locator is passed on exactly as written; the extractor parses it into a
:class:`~citecheck.locations.Location` and warns when it is not one citecheck can check.
"""

from __future__ import annotations

import re

from citecheck.errors import LocationError
from citecheck.locations import Location
from citecheck.syntax._scan import DASHES

__all__ = ["LOCATOR", "locator_of", "whole_locator"]

_NUMBER = r"(?:\d+|[ivxlcdm]+\b)"
_NUMBERED_TERMS = (
    r"pp?|pages?|ll?|lines?|ch|chap|chapters?|vols?|volumes?|figs?|figures?|paras?|paragraphs?"
    r"|nn?|notes?|vv?|verses?|cols?|columns?|bk|books?|pts?|parts?|nos?|fols?|folios?"
)
LOCATOR = re.compile(
    rf"(?:{_NUMBERED_TERMS})(?:\.[ \t]*|[ \t]+|(?=\d)){_NUMBER}"
    rf"(?:[ \t]*[{DASHES}][ \t]*{_NUMBER})?"
    r"|(?:§§?|(?:sec|sect|secs|sections?)\b\.?)[ \t]*[^\s,;\]](?:[^,;\n\]]*[^\s,;\]])?",
    re.IGNORECASE,
)
"""A locator term: a numbered term (``p. 12``, ``ll. 5-9``, ``ch. 3``) or a section name."""


def locator_of(suffix: str) -> str | None:
    """The leading locator term of a suffix, as written; ``None`` when it does not start with one.

    A suffix that is a whole location in citecheck's own notation (``L42-67``, ``2:15``) is
    taken too, so every syntax can point at lines and times.
    """
    rest = suffix.strip().removeprefix(",").strip()
    term = LOCATOR.match(rest)
    if term is not None:
        return term.group()
    try:
        Location.parse(rest)
    except LocationError:
        return None
    return rest


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
