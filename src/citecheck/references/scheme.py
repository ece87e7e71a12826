"""How a work is cited by structure: its levels, the names of its top level, its separators.

A :class:`ReferenceScheme` is data, not code: the Valmiki Ramayana is cited kanda / sarga /
shloka, the Bible book / chapter / verse, a statute title / section. Every name a reader may
write for a top-level division (``Bala``, ``bk``, ``1``, ``Bala Kanda``, ``Bālakāṇḍa``) is
*folded* — lowercased, stripped of diacritics and of everything that is not a letter or a digit
— and looked up, so spellings and abbreviations meet their canonical name without a regex per
variant.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from citecheck.errors import ConfigError

__all__ = ["Book", "ReferenceScheme", "StructuredReference", "fold"]


def fold(name: str) -> str:
    """``name`` lowercased, without diacritics and without non-alphanumerics.

    >>> fold("Bālakāṇḍa"), fold("1 John"), fold("Bala-Kanda")
    ('balakanda', '1john', 'balakanda')
    """
    decomposed = unicodedata.normalize("NFKD", name)
    return "".join(
        ch for ch in decomposed if ch.isalnum() and not unicodedata.combining(ch)
    ).casefold()


@dataclass(frozen=True, slots=True)
class Book:
    """One top-level division (a kanda, a book of the Bible): its canonical name, its number
    and the other names readers write for it. The number and the canonical name are always
    accepted; ``aliases`` add abbreviations and spellings."""

    name: str
    number: int
    aliases: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class StructuredReference:
    """One cited place, normalised: ``Bala 1.999`` is book ``Bala``, numbers ``(1, 999)``.

    ``numbers`` are the levels below the book, outermost first; a reference may stop above the
    last level (``John 3`` cites a chapter). ``known`` is False when the book name is not one of
    the scheme's: ``book`` is then the name as written, and the reference cannot exist.
    ``canonical`` is the normalised string used in reports and for de-duplication.
    """

    scheme: str
    book: str
    numbers: tuple[int, ...]
    known: bool
    canonical: str


@dataclass(frozen=True, slots=True)
class ReferenceScheme:
    """The citation structure of one work.

    ``levels`` name every level, top first (``("kanda", "sarga", "shloka")``). ``books`` are
    the top level's divisions. ``level_words`` are the words readers write before or after a
    number of that level (``Sarga 15``, ``Sundara Kanda``); the level's own name is always one.
    ``separators`` stand between numbers (``15.30``, ``3:16``); the first is used in canonical
    strings. ``work_names`` name the whole work, so that ``Ramayana 5.15.30`` cites book 5.
    """

    name: str
    title: str
    levels: tuple[str, ...]
    books: tuple[Book, ...]
    separators: tuple[str, ...] = (".",)
    level_words: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    work_names: tuple[str, ...] = ()
    _by_folded: Mapping[str, Book] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if len(self.levels) < 2:
            raise ConfigError(f"scheme {self.name!r} needs at least two levels, got {self.levels}")
        if not self.books:
            raise ConfigError(f"scheme {self.name!r} has no books")
        if not self.separators or any(len(s) != 1 or s.isalnum() for s in self.separators):
            raise ConfigError(
                f"scheme {self.name!r}: separators must be single non-alphanumeric characters, "
                f"got {self.separators}"
            )
        unknown = set(self.level_words) - set(self.levels)
        if unknown:
            raise ConfigError(f"scheme {self.name!r}: level_words for unknown levels {unknown}")
        top = self.levels[0]
        top_words = {fold(word) for word in (top, *self.level_words.get(top, ()))}
        by_folded: dict[str, Book] = {}
        for book in self.books:
            names = {fold(n) for n in (book.name, str(book.number), *book.aliases)}
            names |= {name + word for name in names if not name.isdigit() for word in top_words}
            for name in names - {""}:
                other = by_folded.setdefault(name, book)
                if other is not book:
                    raise ConfigError(
                        f"scheme {self.name!r}: the name {name!r} stands for both "
                        f"{other.name!r} and {book.name!r}"
                    )
        object.__setattr__(self, "_by_folded", MappingProxyType(by_folded))

    @property
    def depth(self) -> int:
        """How many numbers a full reference has below the book (2 for kanda.sarga.shloka)."""
        return len(self.levels) - 1

    def book(self, name: str) -> Book | None:
        """The book ``name`` stands for, by any alias, spelling or number; ``None`` if none."""
        return self._by_folded.get(fold(name))

    def book_by_number(self, number: int) -> Book | None:
        """The book numbered ``number``, if any."""
        return next((b for b in self.books if b.number == number), None)

    def reference(self, book: str, numbers: tuple[int, ...]) -> StructuredReference:
        """The normalised reference to ``numbers`` in the book written ``book``."""
        found = self.book(book)
        name = found.name if found is not None else " ".join(book.split())
        return StructuredReference(
            self.name, name, numbers, found is not None, self.canonical(name, numbers)
        )

    def canonical(self, book: str, numbers: tuple[int, ...]) -> str:
        """``Bala 1.5``, ``John 3:16``, ``John 3``."""
        tail = self.separators[0].join(str(n) for n in numbers)
        return f"{book} {tail}" if tail else book

    def plural(self, level: str) -> str:
        """The plural used in reasons: ``shlokas``, ``verses``."""
        return level if level.endswith("s") else level + "s"
