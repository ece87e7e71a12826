"""The FAISS index: the index contract for the exact and the HNSW variant, filtered top-k
against the numpy reference, recall of the graph, deletes, and what is saved."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("faiss")
np = pytest.importorskip("numpy")

from citecheck import registry  # noqa: E402
from citecheck.errors import ConfigError, InputError, MissingDependencyError  # noqa: E402
from citecheck.indexes import Record  # noqa: E402
from citecheck.indexes.faiss import FaissIndex  # noqa: E402
from citecheck.indexes.memory import MemoryIndex  # noqa: E402
from citecheck.protocols import Index  # noqa: E402
from citecheck.testing import IndexConformance  # noqa: E402

DOCS = ("smith", "jones", "lee", "kim", "wu")


class TestExactFaissIndex(IndexConformance):
    supports_save = True

    @pytest.fixture
    def index(self) -> Index:
        return FaissIndex(dimension=4)


class TestApproximateFaissIndex(IndexConformance):
    """The graph answers every search it may (``exact_up_to=0``), so the suite tests it, not the
    exact fallback."""

    supports_save = True

    @pytest.fixture
    def index(self) -> Index:
        return FaissIndex(dimension=4, approximate=True, exact_up_to=0)


def random_records(count: int, dimension: int, seed: int) -> list[Record]:
    rng = np.random.default_rng(seed)
    vectors = rng.standard_normal((count, dimension), dtype=np.float32)
    return [
        Record(f"r{i}", vectors[i], {"doc": DOCS[i % len(DOCS)], "page": int(i % 37)})
        for i in range(count)
    ]


def clustered(count: int, dimension: int, seed: int) -> tuple[Any, Any]:
    """Unit vectors around 50 centres, and 40 queries near (not at) some of them."""
    rng = np.random.default_rng(seed)
    centres = rng.standard_normal((50, dimension), dtype=np.float32)
    data = centres[rng.integers(0, 50, count)] + 0.6 * rng.standard_normal(
        (count, dimension), dtype=np.float32
    )
    queries = data[rng.integers(0, count, 40)] + 0.2 * rng.standard_normal(
        (40, dimension), dtype=np.float32
    )
    return data, queries


def graph(data: Any, **options: Any) -> FaissIndex:
    index = FaissIndex(approximate=True, exact_up_to=0, **options)
    index.upsert(Record(f"r{i}", vector, {"odd": i % 2 == 1}) for i, vector in enumerate(data))
    return index


@pytest.fixture(scope="module", params=["cosine", "dotproduct"])
def exact_and_reference(request: pytest.FixtureRequest) -> tuple[FaissIndex, MemoryIndex]:
    """3,000 random records in the exact FAISS index and in the numpy reference."""
    records = random_records(3000, 16, seed=1)
    exact, reference = FaissIndex(metric=request.param), MemoryIndex(metric=request.param)
    exact.upsert(records)
    reference.upsert(records)
    return exact, reference


@pytest.mark.parametrize(
    "filter",
    [None, {"doc": "lee"}, {"page": {"$lt": 30}}, {"$or": [{"doc": "kim"}, {"page": 3}]}],
)
def test_filtered_top_k_is_the_exact_top_k(
    exact_and_reference: tuple[FaissIndex, MemoryIndex], filter: Any
) -> None:
    exact, reference = exact_and_reference
    for query in random_records(10, 16, seed=2):
        got = exact.search(query.vector, k=10, filter=filter)
        want = reference.search(query.vector, k=10, filter=filter)
        assert [h.id for h in got] == [h.id for h in want]
        assert [h.score for h in got] == pytest.approx([h.score for h in want], abs=1e-4)
        assert [h.metadata for h in got] == [h.metadata for h in want]


@pytest.mark.parametrize("approximate", [False, True])
def test_a_filter_seen_before_sees_every_later_write(approximate: bool) -> None:
    index = FaissIndex(approximate=approximate, exact_up_to=0)
    index.upsert([Record("a", [1.0, 0.0], {"doc": "lee"}), Record("b", [0.0, 1.0], {"doc": "wu"})])
    lee = {"doc": "lee"}
    assert [h.id for h in index.search([1.0, 0.0], k=5, filter=lee)] == ["a"]
    index.upsert([Record("c", [1.0, 0.1], {"doc": "lee"})])
    assert [h.id for h in index.search([1.0, 0.0], k=5, filter=lee)] == ["a", "c"]
    index.upsert([Record("a", [1.0, 0.0], {"doc": "wu"})])
    assert [h.id for h in index.search([1.0, 0.0], k=5, filter=lee)] == ["c"]
    index.delete(["c"])
    assert index.search([1.0, 0.0], k=5, filter=lee) == []


def test_the_graph_s_recall_on_clustered_vectors() -> None:
    data, queries = clustered(2000, 32, seed=3)
    approximate, exact = graph(data, m=8, ef_search=10), FaissIndex()  # a lean graph: not exact
    exact.upsert(Record(f"r{i}", vector) for i, vector in enumerate(data))
    found = [
        len({h.id for h in approximate.search(q, k=10)} & {h.id for h in exact.search(q, k=10)})
        for q in queries
    ]
    assert sum(found) / (10 * len(queries)) >= 0.9


def test_the_graph_honours_a_filter_and_falls_back_to_exact_when_it_is_selective() -> None:
    data, queries = clustered(2000, 32, seed=4)
    approximate = graph(data)
    for query in queries[:5]:
        hits = approximate.search(query, k=10, filter={"odd": True})
        assert len(hits) == 10
        assert all(h.metadata["odd"] is True for h in hits)
    approximate.upsert([Record("rare", data[0], {"rare": True})])
    [hit] = approximate.search(queries[0], k=5, filter={"rare": True})
    assert hit.id == "rare"


def test_when_the_graph_finds_too_few_the_exact_scan_answers() -> None:
    """Half the records pass, all far from the query: a narrow beam around the query meets
    too few of them, so the search falls back to scanning the passing records."""
    rng = np.random.default_rng(10)
    near = rng.standard_normal((1000, 16), dtype=np.float32) * 0.1 + np.eye(16)[0]
    far = rng.standard_normal((1000, 16), dtype=np.float32) * 0.1 - np.eye(16)[0]
    records = [Record(f"near{i}", v, {"far": False}) for i, v in enumerate(near)]
    records += [Record(f"far{i}", v, {"far": True}) for i, v in enumerate(far)]
    approximate = FaissIndex(approximate=True, exact_up_to=0, ef_search=4)
    exact = FaissIndex()
    approximate.upsert(records)
    exact.upsert(records)
    for query in near[:5]:
        got = approximate.search(query, k=10, filter={"far": True})
        assert got == exact.search(query, k=10, filter={"far": True})


def test_deleted_records_leave_the_graph_s_results() -> None:
    data, queries = clustered(1000, 32, seed=5)
    approximate = graph(data)
    before = [h.id for h in approximate.search(queries[0], k=10)]
    approximate.delete(before[:5])  # a few dead labels: skipped by the selector
    assert approximate.count() == 995
    after = [h.id for h in approximate.search(queries[0], k=10)]
    assert len(after) == 10
    assert not set(before[:5]) & set(after)
    assert after[:5] == before[5:]
    approximate.delete(filter={"odd": True})  # half dead: the graph is rebuilt
    survivors = {f"r{i}" for i in range(0, 1000, 2)} - set(before[:5])
    assert approximate.count() == len(survivors)
    assert approximate.fetch([f"r{i}" for i in range(1000)]).keys() == survivors
    hits = approximate.search(queries[0], k=10)
    assert len(hits) == 10
    assert all(h.metadata["odd"] is False for h in hits)
    assert not set(before[:5]) & {h.id for h in hits}


def test_replacing_a_record_moves_it() -> None:
    data, _ = clustered(300, 32, seed=6)
    approximate = graph(data)
    approximate.upsert([Record("r0", data[1], {"moved": True})])
    assert approximate.count() == 300
    hits = approximate.search(data[1], k=2)
    assert {h.id for h in hits} == {"r0", "r1"}
    assert approximate.fetch(["r0"])["r0"].metadata == {"moved": True}
    assert list(approximate.fetch(["r0"])["r0"].vector) == pytest.approx(list(data[1]), rel=1e-5)


def test_the_saved_graph_answers_the_same(tmp_path: Path) -> None:
    data, queries = clustered(1000, 32, seed=7)
    approximate = graph(data, m=16, ef_construction=32, ef_search=48)
    approximate.delete(["r1", "r2", "r3"])  # dead labels are saved as they are
    approximate.save(tmp_path)
    loaded = FaissIndex.load(tmp_path)
    assert (loaded.approximate, loaded.m, loaded.ef_construction, loaded.ef_search) == (
        True,
        16,
        32,
        48,
    )
    assert loaded.count() == 997
    assert loaded.fetch(["r1", "r4"]).keys() == {"r4"}
    for query in queries[:10]:
        assert loaded.search(query, k=10) == approximate.search(query, k=10)
        odd = {"odd": True}
        assert loaded.search(query, k=5, filter=odd) == approximate.search(query, k=5, filter=odd)
    loaded.upsert([Record("new", data[5], {"odd": False})])
    assert loaded.search(data[5], k=2)[0].id in {"new", "r5"}


def test_an_empty_index_without_a_dimension_round_trips(tmp_path: Path) -> None:
    FaissIndex(approximate=True).save(tmp_path)
    loaded = FaissIndex.load(tmp_path)
    assert loaded.dimension is None
    assert loaded.count() == 0
    assert loaded.search([1.0, 2.0], k=3) == []


@pytest.mark.parametrize(
    "change",
    [
        {"dimension": 8},
        {"kind": "flat"},
        {"kind": "ivf"},
        {"count": 4},
        {"stored": 99},
        {"metric": "euclid"},
        {"parameters": {"m": 8}},
        {"parameters": {"m": 16, "ef_construction": 40, "ef_search": 128, "exact_up_to": 0}},
        {"version": 3},
        {"format": "citecheck-memory-index"},
    ],
)
def test_a_manifest_that_disagrees_is_an_input_error(tmp_path: Path, change: Any) -> None:
    index = FaissIndex(dimension=4, approximate=True)
    index.upsert(random_records(5, 4, seed=8))
    index.save(tmp_path)
    manifest = json.loads((tmp_path / "manifest.json").read_text())
    (tmp_path / "manifest.json").write_text(json.dumps({**manifest, **change}))
    with pytest.raises(InputError):
        FaissIndex.load(tmp_path)


def test_a_directory_without_a_save_is_an_input_error(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="does not hold"):
        FaissIndex.load(tmp_path)


def test_by_name_learns_its_dimension() -> None:
    index = registry.create("indexes", "faiss", approximate=True)
    assert isinstance(index, FaissIndex)
    assert index.dimension is None
    index.upsert([Record("a", [1.0, 2.0, 3.0])])
    assert index.dimension == 3
    assert "hnsw" in repr(index)


def test_dot_product_scores_grow_with_length() -> None:
    index = FaissIndex(metric="dotproduct", approximate=True, exact_up_to=0)
    index.upsert([Record("short", [1.0, 0.0]), Record("long", [3.0, 0.5])])
    hits = index.search([1.0, 0.0], k=2)
    assert [h.id for h in hits] == ["long", "short"]
    assert hits[0].score == pytest.approx(3.0)
    assert list(index.fetch(["long"])["long"].vector) == [3.0, 0.5]


@pytest.mark.parametrize(
    "options",
    [
        {"metric": "euclid"},
        {"dimension": 0},
        {"approximate": "hnsw"},
        {"m": 1},
        {"ef_search": 0},
        {"exact_up_to": -1},
    ],
)
def test_bad_configuration_is_named(options: dict[str, Any]) -> None:
    with pytest.raises(ConfigError, match=next(iter(options))):
        FaissIndex(**options)


def test_without_faiss_the_extra_is_named(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "faiss", None)
    with pytest.raises(MissingDependencyError, match=r"citecheck\[faiss\]"):
        FaissIndex()
