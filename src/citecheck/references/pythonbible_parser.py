"""Bible references as ``pythonbible`` reads them (the ``bible`` extra), with their offsets.

pythonbible finds references with one regular expression over the text after it has turned
roman numerals into digits (``Psalm cxxx.4`` is ``Psalm 130.4``, and every ``I`` of the prose
becomes ``1``) and HTML dashes into ``-``; it reports no offsets. :func:`cleaned` makes the same
text and keeps, for every piece it replaced, where it stood, so each match maps back to the
characters as written. Its book regular expressions know the names readers use (``1Jn``,
``I Sa``, ``The First Epistle of John``); its parse (:meth:`PythonBibleParser.read`) is what the
extractor checks its own reading against. pythonbible drops a reference that does not exist
(``John 3:99``); the extractor keeps it, so it fails instead of vanishing.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Iterator, Sequence
from functools import lru_cache
from typing import Any

from citecheck.errors import MissingDependencyError

__all__ = ["Offsets", "Passage", "PythonBibleParser", "cleaned"]

Passage = tuple[int, int | None, int | None, int | None, int | None, int]
"""One reference as pythonbible normalises it: book, start chapter and verse, end chapter and
verse, end book (numbers as in ``pythonbible.Book``; ``None`` for "the whole")."""

_HTML_DASHES = re.compile("&[nm]dash;")
_ROMAN_VALUES = (
    ("c", 100),
    ("xc", 90),
    ("l", 50),
    ("xl", 40),
    ("x", 10),
    ("ix", 9),
    ("v", 5),
    ("iv", 4),
    ("i", 1),
)


class Offsets:
    """Positions in a cleaned text → positions in the text it was made from."""

    __slots__ = ("_clean_starts", "_pieces")

    def __init__(self, pieces: Sequence[tuple[int, int, int, int]] = ()) -> None:
        # (clean start, clean end, original start, original end) of every replaced piece
        self._pieces = list(pieces)
        self._clean_starts = [piece[0] for piece in self._pieces]

    @property
    def changed(self) -> bool:
        """Whether anything was replaced (else every position is its own)."""
        return bool(self._pieces)

    def original(self, position: int, *, end: bool = False) -> int:
        """Where ``position`` of the cleaned text stands in the original. Inside a replaced
        piece it is the piece's start, or its end for the ``end`` of a span."""
        index = bisect_right(self._clean_starts, position) - 1
        if index < 0:
            return position
        clean_start, clean_end, start, stop = self._pieces[index]
        if position >= clean_end and position > clean_start:
            return stop + position - clean_end
        if position == clean_start:
            return start
        return stop if end else start


def cleaned(text: str) -> tuple[str, Offsets]:
    """The text as pythonbible parses it (roman numerals as digits, ``&ndash;`` as ``-``) and
    the way back to the original's offsets."""
    from pythonbible.roman_numeral_util import ROMAN_NUMERAL_REGEX

    replacements = sorted(
        [(m.start(), m.end(), str(_roman(m.group()))) for m in ROMAN_NUMERAL_REGEX.finditer(text)]
        + [(m.start(), m.end(), "-") for m in _HTML_DASHES.finditer(text)]
    )
    if not replacements:
        return text, Offsets()
    parts: list[str] = []
    pieces: list[tuple[int, int, int, int]] = []
    position = length = 0
    for start, end, new in replacements:
        parts.append(text[position:start])
        length += start - position
        pieces.append((length, length + len(new), start, end))
        parts.append(new)
        length += len(new)
        position = end
    parts.append(text[position:])
    return "".join(parts), Offsets(pieces)


def _roman(numeral: str) -> int:
    """pythonbible's value of a roman numeral (it reads the empty match as 0, and so must we,
    for the texts to agree)."""
    rest, value = numeral.lower(), 0
    for symbol, amount in _ROMAN_VALUES:
        while rest.startswith(symbol):
            value += amount
            rest = rest[len(symbol) :]
    return value


class PythonBibleParser:
    """pythonbible's reference and book regular expressions, and its parse, for one process."""

    def __init__(self) -> None:
        try:
            import pythonbible
            from pythonbible.regular_expressions import SCRIPTURE_REFERENCE_REGULAR_EXPRESSION
        except ImportError:
            raise MissingDependencyError("pythonbible", "bible") from None
        self._bible: Any = pythonbible
        self._references = SCRIPTURE_REFERENCE_REGULAR_EXPRESSION
        # pythonbible's own BOOK alternation, in its order, each book a named group, so that a
        # match says which book it found (pythonbible tries the books in this order too).
        books = "|".join(f"(?P<b{b.value}>{b.regular_expression})" for b in pythonbible.Book)
        self._books = re.compile(rf"\b(?:{books})\b\.*", re.IGNORECASE)

    def find(self, text: str) -> Iterator[tuple[int, int]]:
        """The spans of the references pythonbible finds in ``text`` (already :func:`cleaned`),
        without the white space it takes after them."""
        for match in self._references.finditer(text):
            yield match.start(), match.start() + len(match.group().rstrip())

    def book_at(self, text: str, position: int) -> tuple[int, int] | None:
        """The number of the book whose name starts at ``position``, and where the name (with
        its full stops) ends; ``None`` when no book's name starts there."""
        match = self._books.match(text, position)
        if match is None or match.lastgroup is None:
            return None
        return int(match.lastgroup[1:]), match.end()

    def read(self, reference: str) -> tuple[Passage, ...] | None:
        """pythonbible's reading of one reference it found (impossible parts left out), or
        ``None`` when its parser fails on it."""
        return _read(reference)

    def span(self, passage: Passage) -> tuple[int, int] | None:
        """The first and last verse ids of ``passage``; ``None`` when it does not exist."""
        lib = self._bible
        book, chapter, verse, end_chapter, end_verse, end_book = passage
        reference = lib.NormalizedReference(
            lib.Book(book), chapter, verse, end_chapter, end_verse, lib.Book(end_book)
        )
        try:
            if not lib.is_valid_reference(reference):
                return None
        except (lib.InvalidChapterError, lib.InvalidVerseError):
            return None  # it raises, rather than answers False, for a whole chapter past the end
        first_chapter, last_book = chapter or 1, lib.Book(end_book)
        last_chapter = end_chapter or lib.get_number_of_chapters(last_book)
        last_verse = end_verse or lib.get_number_of_verses(last_book, last_chapter)
        return (
            lib.get_verse_id(lib.Book(book), first_chapter, verse or 1),
            lib.get_verse_id(last_book, last_chapter, last_verse),
        )

    def covers(self, wanted: Sequence[Passage], read: Sequence[Passage]) -> bool:
        """True when every verse of ``wanted`` (pythonbible's reading) stands in one existing
        passage of ``read`` (citecheck's): the two agree on everything that exists."""
        spans = [span for passage in read if (span := self.span(passage)) is not None]
        for passage in wanted:
            span = self.span(passage)
            if span is not None and not any(s[0] <= span[0] and span[1] <= s[1] for s in spans):
                return False
        return True


@lru_cache(maxsize=4096)
def _read(reference: str) -> tuple[Passage, ...] | None:
    import pythonbible

    try:
        found = pythonbible.normalize_reference(reference)
    except (ValueError, IndexError, pythonbible.InvalidChapterError, pythonbible.InvalidVerseError):
        return None  # pythonbible cannot parse what its own pattern matched: ours is read
    return tuple(
        (
            ref.book.value,
            ref.start_chapter,
            ref.start_verse,
            ref.end_chapter,
            ref.end_verse,
            (ref.end_book or ref.book).value,
        )
        for ref in found
    )
