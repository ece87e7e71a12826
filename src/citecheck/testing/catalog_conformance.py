"""The contract every :class:`~citecheck.protocols.ReferenceCatalog` keeps, as a pytest suite.

Subclass :class:`CatalogConformance` and provide a ``catalog`` fixture holding :data:`COUNTS`
of the ``valmiki_ramayana`` scheme (with :data:`TEXTS`, unless ``has_texts`` is False). An
index-backed catalog can load :func:`corpus_records`: one record per shloka, with the id
``Bala.1.2`` and the levels and text as metadata.
"""

from __future__ import annotations

from typing import Any, ClassVar

import pytest

from citecheck.indexes.records import MetadataValue, Record
from citecheck.protocols import ReferenceCatalog
from citecheck.references.builtin import valmiki_ramayana
from citecheck.references.scheme import StructuredReference

__all__ = ["COUNTS", "SCHEME", "TEXTS", "CatalogConformance", "corpus_records"]

SCHEME = valmiki_ramayana()
COUNTS: dict[str, list[int]] = {"Bala": [3, 2], "Ayodhya": [4]}
"""Bala has two sargas (3 and 2 shlokas), Ayodhya one (4 shlokas); no other kanda."""
LEAVES: tuple[StructuredReference, ...] = tuple(
    SCHEME.reference(book, (sarga, shloka))
    for book, sargas in COUNTS.items()
    for sarga, size in enumerate(sargas, start=1)
    for shloka in range(1, size + 1)
)
TEXTS: dict[str, str] = {ref.canonical: f"the words of {ref.canonical}" for ref in LEAVES}


def corpus_records(dimension: int = 4) -> list[Record]:
    """One record per shloka of :data:`COUNTS`: id ``Bala.1.2``; metadata kanda, sarga,
    shloka, text; vectors that differ, none zero."""
    records = []
    for position, ref in enumerate(LEAVES):
        vector = [1.0] + [float((position + i) % 5) for i in range(1, dimension)]
        sarga, shloka = ref.numbers
        text = TEXTS[ref.canonical]
        metadata: dict[str, MetadataValue] = {
            "kanda": ref.book,
            "sarga": sarga,
            "shloka": shloka,
            "text": text,
        }
        records.append(Record(f"{ref.book}.{sarga}.{shloka}", vector, metadata))
    return records


def ref(book: str, *numbers: int) -> StructuredReference:
    return SCHEME.reference(book, numbers)


class CatalogConformance:
    """Behaviour any reference catalog must show. Provide a ``catalog`` fixture."""

    has_texts: ClassVar[bool] = True

    @pytest.fixture
    def catalog(self) -> ReferenceCatalog:
        raise NotImplementedError("provide a `catalog` fixture holding COUNTS (and TEXTS)")

    def test_is_a_catalog(self, catalog: ReferenceCatalog) -> None:
        assert isinstance(catalog, ReferenceCatalog)
        assert isinstance(catalog.name, str)

    def test_every_shloka_exists(self, catalog: ReferenceCatalog) -> None:
        found = catalog.lookup(LEAVES)
        assert set(found) == set(LEAVES)
        for reference, presence in found.items():
            assert presence.exists is True, (reference, presence)
            if self.has_texts:
                assert presence.text == TEXTS[reference.canonical]

    @pytest.mark.parametrize(
        "missing",
        [
            ("Bala", 1, 4),  # past the last shloka of the sarga
            ("Bala", 3, 1),  # past the last sarga
            ("Sundara", 1, 1),  # a kanda the corpus does not hold
            ("Bala", 3),  # a sarga that does not exist
            ("Bala", 1, 1, 1),  # a level the scheme does not have
        ],
    )
    def test_what_is_not_there_does_not_exist(
        self, catalog: ReferenceCatalog, missing: tuple[Any, ...]
    ) -> None:
        reference = ref(missing[0], *missing[1:])
        presence = catalog.lookup([reference])[reference]
        assert presence.exists is False
        assert presence.reason

    def test_an_unknown_book_does_not_exist_and_is_named(self, catalog: ReferenceCatalog) -> None:
        reference = SCHEME.reference("Mahabharata", (1, 1))
        presence = catalog.lookup([reference])[reference]
        assert presence.exists is False
        assert "Mahabharata" in presence.reason

    def test_a_sarga_exists_when_it_has_shlokas(self, catalog: ReferenceCatalog) -> None:
        reference = ref("Bala", 2)
        assert catalog.lookup([reference])[reference].exists is True

    def test_answers_every_reference_once(self, catalog: ReferenceCatalog) -> None:
        a, b = ref("Bala", 1, 1), ref("Bala", 1, 99)
        found = catalog.lookup([a, b, a])
        assert set(found) == {a, b}
        assert catalog.lookup([]) == {}

    def test_many_references_at_once(self, catalog: ReferenceCatalog) -> None:
        wanted = [ref("Bala", 1, n) for n in range(1, 2501)]
        found = catalog.lookup(wanted)
        assert len(found) == 2500
        assert [r.numbers[1] for r, p in found.items() if p.exists] == [1, 2, 3]
