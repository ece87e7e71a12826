"""Pandoc citations: ``[@key]``, ``[@key, p. 12]``, ``[@a; @b, pp. 3-4]``, ``[see -@key]``.

Keys follow pandoc: they start with a letter, digit or ``_`` and may hold internal
``:.#$%&-+?<>~/`` (``@doe99.`` ends at ``doe99``); ``@{…}`` takes any key. An ``@`` counts only
after ``[``, ``(``, ``;``, whitespace or ``-``, so e-mail addresses are never citations. A bare
in-text key (``@doe99 says``) is a citation only when it names a known source, because ``@name``
is also a mention in chat answers: the extractor tells the syntax which keys are known
(:meth:`PandocSyntax.knowing`); the braced form ``@{key}`` is unambiguous and always recognised.

The locator is the leading locator term of each citation's suffix (``p. 12``, ``pp. 213-14``,
``sec. Methods``, ``§ 2``), passed on exactly as written, or a bare number, which pandoc reads
as a page (``[@key, 33-35]`` is ``p. 33-35``); other suffix text is ignored unless it holds a
number, and a suffix with a number that is no locator (``Table 9``) is kept whole as the
locator, for the extractor to report (:func:`~citecheck.syntax._locators.locator_of`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from typing import ClassVar

from citecheck.model import Marker, Reference, Span
from citecheck.protocols import NamesBy
from citecheck.syntax._locators import locator_of
from citecheck.syntax.scan import code_regions, is_link_label

__all__ = ["PandocSyntax", "in_text_markers"]

_KEY = r"(?P<key>\w+(?:[:.#$%&\-+?<>~/]+\w+)*)"
_BRACED = r"\{[ \t]*(?P<braced>[^{}\s](?:[^{}\n]*[^{}\s])?)[ \t]*\}"
_BRACKET = r"\[(?P<body>(?:[^\[\]\n]|\n(?![ \t]*\n))*)\]"
_UNCLOSED = r"(?P<unclosed>\[[ \t]*-?@[^\s\[\];,]*)"
_KEY_AT = re.compile(rf"(?<![^\s\-])@(?:{_BRACED}|{_KEY})")
_BARE = (
    rf"(?<![^\s\-;\[(])(?P<bare>-?@(?:{_BRACED}|{_KEY}))"
    r"(?:[ \t]?\[(?P<suffix>[^\[\]\n@]*)\])?"
)
_CITATIONS = re.compile(f"{_BRACKET}|{_UNCLOSED}|{_BARE}")
_IN_TEXT = re.compile(_BARE)
_KEYLESS_AT = re.compile(r"\s*-?@")
_ITEM_SEPARATOR = re.compile(r";(?![^{}\n]*\})")  # not inside @{…}


class PandocSyntax:
    """Finds pandoc citations outside Markdown code and links.

    ``in_text`` says which bare keys (pandoc's in-text citations, ``@doe99 says``, with an
    optional locator in brackets right after them, ``@doe99 [p. 33]``) are citations: ``True``
    every one, ``False`` none, a collection of keys those keys. The default, ``None``, reads
    the keys of the known sources once the extractor names them (:meth:`knowing`), and none
    before.
    """

    name: str = "pandoc"
    cited_as: ClassVar[str] = "@{}"
    """How a reader writes a cited key in this syntax (``@key``), for reasons."""
    names_by: ClassVar[NamesBy] = "key"
    """What a cited name is: a source ``key``, a ``number`` of the reference list, or an
    ``author_year`` to look up in a bibliography (:mod:`citecheck.verification.resolution`)."""

    def __init__(self, in_text: bool | Iterable[str] | None = None) -> None:
        self.in_text: bool | frozenset[str] | None = (
            in_text if in_text is None or isinstance(in_text, bool) else frozenset(in_text)
        )

    def knowing(self, keys: Iterable[str]) -> PandocSyntax:
        """This syntax, reading the bare keys in ``keys`` when it was not told otherwise."""
        return PandocSyntax(keys) if self.in_text is None else self

    def scan(self, text: str) -> Iterator[Marker]:
        """The markers in ``text``, in order; malformed ones carry an ``error``."""
        if "@" not in text:
            return  # every pandoc citation has an "@"; most texts are settled here
        code = code_regions(text)
        for match in _CITATIONS.finditer(text):
            start, end = match.span()
            if code.overlaps(start, end):
                continue
            if match.group("body") is not None:
                if not is_link_label(text, start, end):
                    marker = _bracketed(match)
                    if marker is not None:
                        yield marker
            elif match.group("unclosed") is not None:
                yield Marker(Span(start, end), match.group(), "pandoc", error="it is never closed")
            elif match.group("braced") is not None or self._reads(match.group("key")):
                yield _bare(match)

    def _reads(self, key: str) -> bool:
        if isinstance(self.in_text, frozenset):
            return key in self.in_text
        return bool(self.in_text)


def in_text_markers(text: str) -> Iterator[Marker]:
    """Every bare ``@key`` of ``text`` as the in-text marker it would be, known key or not,
    code and brackets included: what a reader may take for an in-text citation."""
    if "@" not in text:
        return
    for match in _IN_TEXT.finditer(text):
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
            references.append(Reference(source_id, locator_of(item[key.end() :])))
        elif _KEYLESS_AT.match(item):
            keyless = True
    span = Span(start, match.end())
    if keyless:
        return Marker(span, raw, "pandoc", error="it lacks a key")
    return Marker(span, raw, "pandoc", tuple(references)) if references else None


def _bare(match: re.Match[str]) -> Marker:
    """``@{key}`` (or ``@key``), taking a following ``[p. 33]`` when it is a locator."""
    source_id = match.group("braced") or match.group("key")
    suffix = match.group("suffix")
    locator = None if suffix is None else locator_of(suffix, after_bare_key=True)
    end = match.end() if locator is not None else match.end("bare")
    raw = match.string[match.start() : end]
    span = Span(match.start(), end)
    return Marker(span, raw, "pandoc", (Reference(source_id, locator),), in_text=True)
