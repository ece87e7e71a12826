"""The index backends against one contract, and the filter language on its own."""

from __future__ import annotations

import pytest

np = pytest.importorskip("numpy")

from citecheck import registry  # noqa: E402
from citecheck.errors import ConfigError, InputError  # noqa: E402
from citecheck.indexes import Record  # noqa: E402
from citecheck.indexes.memory import MemoryIndex  # noqa: E402
from citecheck.protocols import Index  # noqa: E402
from citecheck.testing import IndexConformance  # noqa: E402


class TestMemoryIndex(IndexConformance):
    supports_save = True

    @pytest.fixture
    def index(self) -> Index:
        return MemoryIndex(dimension=4)


def test_memory_index_by_name_learns_its_dimension() -> None:
    index = registry.create("indexes", "memory")
    assert index.dimension is None
    assert index.search([1.0, 2.0], k=3) == []
    index.upsert([Record("a", [1.0, 2.0, 3.0])])
    assert index.dimension == 3


def test_dot_product_scores_grow_with_length() -> None:
    index = MemoryIndex(metric="dotproduct")
    index.upsert([Record("short", [1.0, 0.0]), Record("long", [3.0, 0.5])])
    hits = index.search([1.0, 0.0], k=2)
    assert [h.id for h in hits] == ["long", "short"]
    assert hits[0].score == pytest.approx(3.0)


def test_bad_configuration_is_named() -> None:
    with pytest.raises(ConfigError, match="metric"):
        MemoryIndex(metric="euclid")
    with pytest.raises(ConfigError, match="dimension"):
        MemoryIndex(dimension=0)
    with pytest.raises(ConfigError, match="dimension"):
        MemoryIndex(True)  # type: ignore[arg-type]


def test_a_broken_manifest_is_an_input_error(tmp_path) -> None:  # type: ignore[no-untyped-def]
    index = MemoryIndex(2)
    index.upsert([Record("a", [1.0, 0.0])])
    index.save(tmp_path)
    (tmp_path / "manifest.json").write_text("[]")
    with pytest.raises(InputError, match="manifest"):
        MemoryIndex.load(tmp_path)


def test_loading_something_else_is_an_error(tmp_path) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(InputError, match="does not hold"):
        MemoryIndex.load(tmp_path)


def test_the_caller_s_records_are_not_changed() -> None:
    metadata = {"tags": ["a"], "page": 1}
    vector = [1.0, 0.0]
    MemoryIndex().upsert([Record("x", vector, metadata)])
    assert metadata == {"tags": ["a"], "page": 1}
    assert vector == [1.0, 0.0]
