"""A MemoryIndex shared by threads: searches while another thread upserts and deletes see the
index before or after each change, never half of it (issue 31)."""

from __future__ import annotations

import threading

import pytest

pytest.importorskip("numpy")

from citecheck.indexes.memory import MemoryIndex
from citecheck.indexes.records import Record


def test_search_while_another_thread_upserts_and_deletes() -> None:
    index = MemoryIndex(4)
    index.upsert([Record("seed", [1.0, 0.0, 0.0, 0.0], {})])
    errors: list[BaseException] = []
    done = threading.Event()

    def writer() -> None:
        try:
            for batch in range(300):
                records = [
                    Record(f"r{batch}-{i}", [1.0, float(i), float(batch % 5), 0.5], {"b": batch})
                    for i in range(20)
                ]
                index.upsert(records)
                if batch % 3 == 0:
                    index.delete([f"r{batch}-{i}" for i in range(0, 20, 2)])
        except BaseException as exc:
            errors.append(exc)
        finally:
            done.set()

    def reader() -> None:
        try:
            while not done.is_set():
                hits = index.search([1.0, 0.0, 0.0, 0.0], k=5)
                assert 1 <= len(hits) <= 5
                assert all(-1.0001 <= hit.score <= 1.0001 for hit in hits)
                index.fetch([hit.id for hit in hits])
        except BaseException as exc:
            errors.append(exc)

    threads = [
        threading.Thread(target=writer),
        *(threading.Thread(target=reader) for _ in range(3)),
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert errors == []
    assert index.count() == 1 + 300 * 20 - 100 * 10


def test_a_save_while_another_thread_upserts_is_one_state(tmp_path: object) -> None:
    from pathlib import Path

    folder = Path(str(tmp_path))
    index = MemoryIndex(4)
    index.upsert([Record(f"a{i}", [1.0, float(i), 0.0, 0.0], {}) for i in range(50)])
    errors: list[BaseException] = []

    def writer() -> None:
        try:
            for i in range(200):
                index.upsert([Record(f"b{i}", [0.0, 1.0, float(i), 0.0], {})])
        except BaseException as exc:
            errors.append(exc)

    thread = threading.Thread(target=writer)
    thread.start()
    for n in range(5):
        index.save(folder / f"save-{n}")
    thread.join(timeout=120)
    assert errors == []
    for n in range(5):
        loaded = MemoryIndex.load(folder / f"save-{n}")
        assert 50 <= loaded.count() <= 250
        assert len(loaded.fetch([f"a{i}" for i in range(50)])) == 50
