"""How a work is cited by structure: its levels, the names of its top level, its separators.

A :class:`ReferenceScheme` is data, not code: the Valmiki Ramayana is cited kanda / sarga /
shloka, the Bible book / chapter / verse, a statute title / section. Every name a reader may
write for a top-level division (``Bala``, ``bk``, ``1``, ``Bala Kanda``, ``Bālakāṇḍa``) is
*folded* — lowercased, stripped of diacritics and of everything that is not a letter or a digit
— and looked up, so spellings and abbreviations meet their canonical name without a regex per
variant. A leading number word is read as its number before folding (``I Sa``, ``1st Sam``,
``First Samuel``, ``IISam`` and ``1Sam`` all meet ``1 Sam``), so that ``I Sa`` does not fold
into ``Isa`` (Isaiah).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from types import MappingProxyType

from citecheck.errors import ConfigError
from citecheck.model import StructuredReference

__all__ = [
    "ALWAYS_SEPARATORS",
    "NO_ZERO",
    "PARSERS",
    "Book",
    "ReferenceScheme",
    "StructuredReference",
    "fold",
    "name_key",
    "number_word",
]

PARSERS = ("pythonbible",)
"""Outside parsers a scheme may name (:attr:`ReferenceScheme.parser`)."""

NO_ZERO = "numbering starts at 1; there is no number 0"
"""Why a reference with a 0 in it cannot exist, in every scheme."""

ALWAYS_SEPARATORS = (".", ":")
"""Read between levels in every scheme, whatever it lists: ``15.30`` and ``15:30`` are both
common, and reading only one would cut ``Sundara 15:999`` down to ``Sundara 15``."""

_ROMAN = {"i": 1, "ii": 2, "iii": 3, "iv": 4, "v": 5, "vi": 6, "vii": 7, "viii": 8, "ix": 9}
_ORDINALS = {
    word: number
    for number, word in enumerate(
        "first second third fourth fifth sixth seventh eighth ninth".split(), start=1
    )
}
_LEADING_NUMBER = re.compile(
    r"\s*(?:(?P<digits>\d+)(?:(?:st|nd|rd|th)(?![^\W\d_]))?"
    r"|(?P<word>[^\W\d_]+)(?:\.|(?=\s))"
    r"|(?P<glued>I{2,3})(?=[A-Z][a-z]))[\s.]*",
    re.IGNORECASE,
)
"""A number word before a name: ``1``, ``1st``, ``I``/``II``/``III`` (a word of its own, or
``II``/``III`` glued to a capitalised name as in ``IISam``), ``First``. A lone ``I`` glued to a
name is not one: ``Isa`` is Isaiah."""


@lru_cache(maxsize=8192)
def fold(name: str) -> str:
    """``name`` lowercased, without diacritics and without non-alphanumerics (cached: every
    answer asks for the same few names).

    >>> fold("Bālakāṇḍa"), fold("1 John"), fold("Bala-Kanda")
    ('balakanda', '1john', 'balakanda')
    """
    decomposed = unicodedata.normalize("NFKD", name)
    return "".join(
        ch for ch in decomposed if ch.isalnum() and not unicodedata.combining(ch)
    ).casefold()


@lru_cache(maxsize=8192)
def name_key(name: str) -> str:
    """The key a name is looked up by: :func:`fold`, after a leading number word is read as its
    digits (cached: the same names come back in every answer).

    >>> name_key("I Sa"), name_key("Isa"), name_key("1st Sam"), name_key("IISam")
    ('1sa', 'isa', '1sam', '2sam')
    """
    match = _LEADING_NUMBER.match(name)
    if match is not None:
        rest = fold(name[match.end() :])
        if rest and not rest[0].isdigit():
            if match.group("digits"):
                return str(int(match.group("digits"))) + rest
            word = (match.group("word") or "").casefold()
            number = _ROMAN.get(word) or _ORDINALS.get(word)
            if match.group("glued"):
                number = len(match.group("glued"))
            if number:
                return str(number) + rest
    return fold(name)


@lru_cache(maxsize=4096)
def number_word(word: str) -> int | None:
    """The number a word before a name stands for: ``2``, ``2nd``, ``II``, ``Second`` → 2;
    ``None`` for any other word."""
    match = re.fullmatch(r"(\d+)(?:st|nd|rd|th)?|([^\W\d_]+)\.?", word.strip(), re.IGNORECASE)
    if match is None:
        return None
    if match.group(1):
        return int(match.group(1))
    spelled = match.group(2).casefold()
    return _ROMAN.get(spelled) or _ORDINALS.get(spelled)


@dataclass(frozen=True, slots=True)
class Book:
    """One top-level division (a kanda, a book of the Bible): its canonical name, its number
    and the other names readers write for it. The number and the canonical name are always
    accepted; ``aliases`` add abbreviations and spellings.

    ``single_part`` says the book has one division at the level below it (Obadiah, Jude: one
    chapter), so a reference that gives fewer numbers than the scheme's depth starts one level
    lower: ``Obadiah 3-6`` is verses 3 to 6 of chapter 1, as readers mean it, not chapters.
    """

    name: str
    number: int
    aliases: tuple[str, ...] = ()
    single_part: bool = False


@dataclass(frozen=True, slots=True)
class ReferenceScheme:
    """The citation structure of one work.

    ``levels`` name every level, top first (``("kanda", "sarga", "shloka")``). ``books`` are
    the top level's divisions. ``level_words`` are the words readers write before or after a
    number of that level (``Sarga 15``, ``Sundara Kanda``); the level's own name is always one.
    ``separators`` stand between numbers; the first is used in canonical strings. ``.`` and
    ``:`` are read in every scheme (:data:`ALWAYS_SEPARATORS`); list others a scheme's readers
    use. ``work_names`` name the whole work, so that ``Ramayana 5.15.30`` cites book 5.

    ``ambiguous`` maps a name that readers use for several books (``AK``: Ayodhya or Aranya
    Kanda) to the canonical names of those books: a reference by that name is never resolved
    to one of them silently; it is reported unchecked, unless its numbers name the book
    (``AK 2.5.3`` is Ayodhya, kanda 2). ``parser`` names an outside parser read first where it
    is installed (:data:`PARSERS`: ``"pythonbible"`` for the Bible).

    ``numbered_top`` says readers cite the top level by its number alone, as the Valmiki
    Ramayana's data numbers every shloka kanda-sarga-shloka: the top level's word before a
    number names that book (``Kanda 2, Sarga 3, Shloka 4``, ``Kanda 2.3.4``: kanda 2), and a
    bracket that holds nothing but a full reference's numbers, top first, joined by the scheme's
    ``separators`` (``(1.1.4)``, ``[2.3.4]``), is a reference (see
    :class:`~citecheck.references.ReferenceExtractor` for what is not: versions, dates).
    """

    name: str
    title: str
    levels: tuple[str, ...]
    books: tuple[Book, ...]
    separators: tuple[str, ...] = (".",)
    level_words: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    work_names: tuple[str, ...] = ()
    ambiguous: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    parser: str | None = None
    numbered_top: bool = False
    _by_folded: Mapping[str, Book] = field(init=False, repr=False, compare=False)
    _ambiguous: Mapping[str, tuple[Book, ...]] = field(init=False, repr=False, compare=False)

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
        if self.parser is not None and self.parser not in PARSERS:
            raise ConfigError(f"scheme {self.name!r}: parser must be one of {PARSERS} or None")
        by_folded: dict[str, Book] = {}
        for book in self.books:
            keys = self._keys(book.name, str(book.number), *book.aliases) | self._numbered(book)
            for name in keys:
                other = by_folded.setdefault(name, book)
                if other is not book:
                    raise ConfigError(
                        f"scheme {self.name!r}: the name {name!r} stands for both "
                        f"{other.name!r} and {book.name!r}"
                    )
        object.__setattr__(self, "_by_folded", MappingProxyType(by_folded))
        by_name = {book.name: book for book in self.books}
        ambiguous: dict[str, tuple[Book, ...]] = {}
        for written, names in self.ambiguous.items():
            if len(set(names)) < 2:
                raise ConfigError(
                    f"scheme {self.name!r}: the ambiguous name {written!r} must name two or "
                    f"more books, got {names}"
                )
            missing = [name for name in names if name not in by_name]
            if missing:
                raise ConfigError(
                    f"scheme {self.name!r}: the ambiguous name {written!r} names {missing}, "
                    f"not a book of the scheme"
                )
            for key in self._keys(written):
                if key in by_folded:
                    raise ConfigError(
                        f"scheme {self.name!r}: the ambiguous name {written!r} is also the name "
                        f"of {by_folded[key].name!r}"
                    )
                ambiguous[key] = tuple(by_name[name] for name in dict.fromkeys(names))
        object.__setattr__(self, "_ambiguous", MappingProxyType(ambiguous))

    def _keys(self, *names: str) -> set[str]:
        """The lookup keys of ``names``, with the top level's word after each (``balakanda``)."""
        top = self.levels[0]
        top_words = {fold(word) for word in (top, *self.level_words.get(top, ()))}
        keys = {name_key(name) for name in names}
        keys |= {key + word for key in keys if not key.isdigit() for word in top_words}
        return keys - {""}

    def _numbered(self, book: Book) -> set[str]:
        """The keys of ``book`` by the top level's word and its number (``kanda2``), alone or
        after one of its names (``balakanda1``), for a scheme whose readers cite the top level
        by number; none for another."""
        if not self.numbered_top:
            return set()
        top = self.levels[0]
        words = {fold(word) for word in (top, *self.level_words.get(top, ()))}
        named = {k for k in self._keys(book.name, *book.aliases) if k.endswith(tuple(words))}
        return {key + str(book.number) for key in words | named}

    @property
    def depth(self) -> int:
        """How many numbers a full reference has below the book (2 for kanda.sarga.shloka)."""
        return len(self.levels) - 1

    @property
    def accepted_separators(self) -> tuple[str, ...]:
        """Every separator read between numbers: the scheme's, then ``.`` and ``:``."""
        return tuple(dict.fromkeys((*self.separators, *ALWAYS_SEPARATORS)))

    def book(self, name: str) -> Book | None:
        """The book ``name`` stands for, by any alias, spelling or number; ``None`` if none."""
        return self._by_folded.get(name_key(name))

    def candidates(self, name: str) -> tuple[Book, ...]:
        """The books an ambiguous name may stand for (``AK``: Ayodhya, Aranya); ``()`` for a
        name that is not ambiguous."""
        return self._ambiguous.get(name_key(name), ())

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
