"""The contract every :class:`~citecheck.protocols.Index` keeps, as a pytest suite.

Subclass :class:`IndexConformance` and provide an ``index`` fixture that returns an empty index
of dimension 4 with the cosine metric. A backend that can be saved sets ``supports_save`` and
implements ``save(directory)`` and a ``load(directory)`` class method. A backend whose writes
become visible later (real Pinecone) overrides :meth:`IndexConformance.settle`.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any, ClassVar

import pytest

from citecheck.errors import CitecheckError, FilterError, InputError, RecordError
from citecheck.indexes.records import Record
from citecheck.protocols import Index

DIMENSION = 4

# Five records whose metadata covers every kind of value and every filter operator.
RECORDS: tuple[Record, ...] = (
    Record("a", [1.0, 0.0, 0.0, 0.0], {"doc": "smith", "page": 1, "score": 0.5, "ok": True,
                                        "tags": ["intro", "method"]}),
    Record("b", [0.9, 0.1, 0.0, 0.0], {"doc": "smith", "page": 2, "score": 1.5, "ok": False,
                                        "tags": ["method"]}),
    Record("c", [0.0, 1.0, 0.0, 0.0], {"doc": "jones", "page": 3, "score": 2.5, "ok": True,
                                        "tags": ["results"]}),
    Record("d", [0.0, 0.0, 1.0, 0.0], {"doc": "jones", "page": 10, "score": -1.0, "ok": False,
                                        "tags": []}),
    Record("e", [0.0, 0.0, 0.0, 1.0], {"doc": "lee", "page": 7, "score": 0.0, "ok": True}),
)  # fmt: skip

# (filter, ids that pass it): Pinecone's semantics, identical on every backend.
FILTER_TABLE: tuple[tuple[dict[str, Any], set[str]], ...] = (
    ({"doc": "smith"}, {"a", "b"}),
    ({"doc": {"$eq": "jones"}}, {"c", "d"}),
    ({"doc": {"$ne": "smith"}}, {"c", "d", "e"}),
    ({"page": {"$gt": 2}}, {"c", "d", "e"}),
    ({"page": {"$gte": 2, "$lte": 7}}, {"b", "c", "e"}),
    ({"page": {"$lt": 2}}, {"a"}),
    ({"score": {"$gte": 0.5}}, {"a", "b", "c"}),
    ({"score": {"$lt": 0}}, {"d"}),
    ({"page": 3}, {"c"}),
    ({"page": 3.0}, {"c"}),
    ({"ok": True}, {"a", "c", "e"}),
    ({"ok": {"$ne": True}}, {"b", "d"}),
    ({"doc": {"$in": ["smith", "lee"]}}, {"a", "b", "e"}),
    ({"doc": {"$nin": ["smith", "lee"]}}, {"c", "d"}),
    ({"tags": "method"}, {"a", "b"}),
    ({"tags": {"$in": ["intro", "results"]}}, {"a", "c"}),
    ({"tags": {"$nin": ["method"]}}, {"c", "d"}),
    ({"tags": {"$ne": "method"}}, {"c", "d"}),
    ({"tags": {"$exists": True}}, {"a", "b", "c", "d"}),
    ({"tags": {"$exists": False}}, {"e"}),
    ({"doc": "smith", "page": 2}, {"b"}),
    ({"$and": [{"doc": "jones"}, {"page": {"$gt": 5}}]}, {"d"}),
    ({"$or": [{"doc": "lee"}, {"page": 1}]}, {"a", "e"}),
    ({"$or": [{"doc": "lee"}, {"$and": [{"ok": False}, {"page": {"$lt": 5}}]}]}, {"b", "e"}),
    ({"doc": "nobody"}, set()),
    ({"page": "3"}, set()),
    ({"ok": 1}, set()),
)

BAD_FILTERS: tuple[Any, ...] = (
    {},
    {"doc": {"$regex": "smi.*"}},
    {"$not": {"doc": "smith"}},
    {"page": {"$gt": "2"}},
    {"page": {"$gte": True}},
    {"doc": {}},
    {"$and": []},
    {"$or": {"doc": "smith"}},
    {"doc": None},
    {"doc": {"$in": "smith"}},
    {"ok": {"$exists": "yes"}},
    {"doc": {"nested": "value"}},
)


class IndexConformance:
    """Behaviour any index must show. Provide an ``index`` fixture in a subclass."""

    supports_save: ClassVar[bool] = False

    @pytest.fixture
    def index(self) -> Index:
        raise NotImplementedError("provide an `index` fixture: empty, dimension 4, cosine")

    def settle(self, index: Index) -> None:
        """Wait until written records are visible; immediate for local backends."""

    def filled(self, index: Index) -> Index:
        assert index.upsert(RECORDS) == len(RECORDS)
        self.settle(index)
        return index

    # -- writing and counting -----------------------------------------------------------------

    def test_is_an_index(self, index: Index) -> None:
        assert isinstance(index, Index)
        assert index.name
        assert index.metric == "cosine"
        assert index.count() == 0

    def test_upsert_counts_and_replaces(self, index: Index) -> None:
        self.filled(index)
        assert index.count() == len(RECORDS)
        assert index.upsert([Record("a", [0.0, 0.0, 0.0, 2.0], {"doc": "new"})]) == 1
        self.settle(index)
        assert index.count() == len(RECORDS)
        assert index.fetch(["a"])["a"].metadata == {"doc": "new"}
        assert index.upsert([]) == 0

    def test_tuples_are_records_too(self, index: Index) -> None:
        index.upsert([("t", [0.0, 1.0, 1.0, 0.0], {"doc": "tuple"})])  # type: ignore[list-item]
        self.settle(index)
        assert index.fetch(["t"])["t"].metadata == {"doc": "tuple"}

    # -- searching ----------------------------------------------------------------------------

    def test_search_orders_by_cosine(self, index: Index) -> None:
        self.filled(index)
        hits = index.search([1.0, 0.05, 0.0, 0.0], k=3)
        assert [h.id for h in hits][:2] == ["a", "b"]
        assert len(hits) == 3
        scores = [h.score for h in hits]
        assert scores == sorted(scores, reverse=True)
        assert all(-1.0 - 1e-6 <= s <= 1.0 + 1e-6 for s in scores)
        expected = 1.0 / math.sqrt(1.0 + 0.05**2)
        assert hits[0].score == pytest.approx(expected, abs=1e-4)
        assert hits[0].metadata["doc"] == "smith"

    def test_search_is_scale_invariant_under_cosine(self, index: Index) -> None:
        self.filled(index)
        small = [h.id for h in index.search([0.1, 0.2, 0.3, 0.4], k=5)]
        large = [h.id for h in index.search([10.0, 20.0, 30.0, 40.0], k=5)]
        assert small == large

    def test_k_larger_than_the_index_returns_everything(self, index: Index) -> None:
        self.filled(index)
        assert {h.id for h in index.search([1.0, 1.0, 1.0, 1.0], k=50)} == {r.id for r in RECORDS}

    @pytest.mark.parametrize(("filter", "expected"), FILTER_TABLE)
    def test_filters(self, index: Index, filter: dict[str, Any], expected: set[str]) -> None:
        self.filled(index)
        hits = index.search([1.0, 1.0, 1.0, 1.0], k=10, filter=filter)
        assert {h.id for h in hits} == expected

    def test_a_filter_narrows_before_the_top_k(self, index: Index) -> None:
        self.filled(index)
        [hit] = index.search([1.0, 0.0, 0.0, 0.0], k=1, filter={"doc": "lee"})
        assert hit.id == "e", "the best hit among those passing the filter, not the best overall"

    @pytest.mark.parametrize("bad", BAD_FILTERS)
    def test_bad_filters_are_errors(self, index: Index, bad: Any) -> None:
        self.filled(index)
        with pytest.raises(FilterError):
            index.search([1.0, 0.0, 0.0, 0.0], k=3, filter=bad)

    # -- fetching and deleting ----------------------------------------------------------------

    def test_fetch_returns_known_ids_only(self, index: Index) -> None:
        self.filled(index)
        found = index.fetch(["a", "c", "missing"])
        assert set(found) == {"a", "c"}
        assert found["c"].id == "c"
        assert list(found["c"].vector) == pytest.approx([0.0, 1.0, 0.0, 0.0])
        assert index.fetch([]) == {}

    def test_metadata_comes_back_with_the_types_written(self, index: Index) -> None:
        self.filled(index)
        for record in RECORDS:
            got = index.fetch([record.id])[record.id].metadata
            assert got == record.metadata
            for key, value in record.metadata.items():
                assert type(got[key]) is type(value), (record.id, key)
        [hit] = index.search([0.0, 1.0, 0.0, 0.0], k=1)
        assert hit.metadata == RECORDS[2].metadata
        assert type(hit.metadata["page"]) is int
        assert type(hit.metadata["score"]) is float

    def test_returned_metadata_is_a_copy(self, index: Index) -> None:
        self.filled(index)
        got = index.fetch(["a"])["a"].metadata
        got["tags"].append("changed")  # type: ignore[union-attr]
        assert index.fetch(["a"])["a"].metadata["tags"] == ["intro", "method"]

    def test_delete_by_ids(self, index: Index) -> None:
        self.filled(index)
        index.delete(["a", "missing"])
        self.settle(index)
        assert index.count() == len(RECORDS) - 1
        assert index.fetch(["a"]) == {}
        assert "a" not in {h.id for h in index.search([1.0, 0.0, 0.0, 0.0], k=5)}

    def test_delete_by_filter(self, index: Index) -> None:
        self.filled(index)
        index.delete(filter={"doc": "jones"})
        self.settle(index)
        assert index.count() == len(RECORDS) - 2
        assert set(index.fetch([r.id for r in RECORDS])) == {"a", "b", "e"}

    def test_delete_needs_ids_or_a_filter(self, index: Index) -> None:
        self.filled(index)
        with pytest.raises(InputError):
            index.delete()
        with pytest.raises(InputError):
            index.delete(["a"], filter={"doc": "smith"})
        with pytest.raises(FilterError):
            index.delete(filter={})
        assert index.count() == len(RECORDS)

    # -- bad input: an error before anything is written -----------------------------------------

    @pytest.mark.parametrize(
        "bad",
        [
            Record("x", [1.0, 0.0, 0.0], {}),
            Record("x", [0.0, 0.0, 0.0, 0.0], {}),
            Record("x", [1.0, float("nan"), 0.0, 0.0], {}),
            Record("x", [1.0, 0.0, 0.0, 0.0], {"page": None}),  # type: ignore[dict-item]
            Record("x", [1.0, 0.0, 0.0, 0.0], {"nested": {"a": 1}}),  # type: ignore[dict-item]
            Record("x", [1.0, 0.0, 0.0, 0.0], {"numbers": [1, 2]}),  # type: ignore[list-item]
            Record("", [1.0, 0.0, 0.0, 0.0], {}),
            Record(7, [1.0, 0.0, 0.0, 0.0], {}),  # type: ignore[arg-type]
            # lone surrogates: no file or service can store them as UTF-8
            Record("x\ud800", [1.0, 0.0, 0.0, 0.0], {}),
            Record("x", [1.0, 0.0, 0.0, 0.0], {"title": "a\udc80b"}),
            Record("x", [1.0, 0.0, 0.0, 0.0], {"tags": ["ok", "\udfff"]}),
            Record("x", [1.0, 0.0, 0.0, 0.0], {"k\ud83d": "v"}),
        ],
    )
    def test_bad_records_write_nothing(self, index: Index, bad: Record) -> None:
        self.filled(index)
        good = Record("good", [0.5, 0.5, 0.0, 0.0], {"doc": "fine"})
        with pytest.raises(RecordError):
            index.upsert([good, bad])
        self.settle(index)
        assert index.count() == len(RECORDS)
        assert index.fetch(["good"]) == {}

    def test_an_id_twice_in_one_upsert_is_an_error(self, index: Index) -> None:
        with pytest.raises(RecordError, match="twice"):
            index.upsert([Record("a", [1.0, 0, 0, 0]), Record("a", [0, 1.0, 0, 0])])

    def test_bad_queries_are_errors(self, index: Index) -> None:
        self.filled(index)
        for vector in ([1.0, 0.0], [0.0, 0.0, 0.0, 0.0], "text"):
            with pytest.raises(CitecheckError):
                index.search(vector, k=3)  # type: ignore[arg-type]
        for k in (0, -1, 2.5, True):
            with pytest.raises(InputError):
                index.search([1.0, 0.0, 0.0, 0.0], k=k)  # type: ignore[arg-type]
        with pytest.raises(RecordError):
            index.fetch([3])  # type: ignore[list-item]

    # -- persistence --------------------------------------------------------------------------

    def test_save_and_load_round_trip(self, index: Index, tmp_path: Path) -> None:
        if not self.supports_save:
            pytest.skip(f"{type(index).__name__} is not saved to disk")
        self.filled(index)
        index.save(tmp_path / "saved")  # type: ignore[attr-defined]
        loaded = type(index).load(tmp_path / "saved")  # type: ignore[attr-defined]
        assert loaded.count() == len(RECORDS)
        assert loaded.dimension == DIMENSION
        assert loaded.metric == index.metric
        for record in RECORDS:
            assert loaded.fetch([record.id])[record.id].metadata == record.metadata
        query = [0.3, 0.2, 0.9, 0.1]
        assert [h.id for h in loaded.search(query, k=5)] == [h.id for h in index.search(query, k=5)]
        assert loaded.search(query, k=2, filter={"doc": "smith"})[0].id in {"a", "b"}
