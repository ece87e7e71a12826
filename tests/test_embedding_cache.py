"""The embedding cache on disk: bounded (the vectors used longest ago go first), safe for
several processes writing at once, in a documented default place, and honest when it fails."""

from __future__ import annotations

import multiprocessing
import sqlite3
from pathlib import Path

import pytest

from citecheck.embedders.cache import CachedEmbedder, default_cache_dir
from citecheck.errors import BackendError, ConfigError
from citecheck.testing import HashingEmbedder


def stored(directory: Path) -> int:
    with sqlite3.connect(directory / "embeddings-v2.sqlite") as database:
        count: int = database.execute("SELECT COUNT(*) FROM vectors").fetchone()[0]
    return count


def test_a_second_cache_on_the_same_folder_embeds_nothing(tmp_path: Path) -> None:
    first = CachedEmbedder(HashingEmbedder(384), "hash", tmp_path)
    first.embed_matrix([f"text {i}" for i in range(50)])
    second_model = HashingEmbedder(384)
    second = CachedEmbedder(second_model, "hash", tmp_path)
    again = second.embed_matrix([f"text {i}" for i in range(50)])
    assert second.misses == 0
    assert second_model.calls == 0
    assert again.shape == (50, 384)
    other_model = CachedEmbedder(HashingEmbedder(384), "another model", tmp_path)
    other_model.embed_matrix(["text 1"])
    assert other_model.misses == 1, "vectors of another model never mix"


def test_the_store_keeps_its_bound_and_drops_the_vectors_used_longest_ago(
    tmp_path: Path,
) -> None:
    bound = 256 * 1024  # about 150 vectors of 384 float32 dimensions
    cache = CachedEmbedder(HashingEmbedder(384), "hash", tmp_path, max_disk_bytes=bound)
    cache.embed_matrix(["kept 0", "kept 1"])
    for block in range(10):
        cache.embed_matrix([f"block {block} text {i}" for i in range(60)])
        cache.embed_matrix(["kept 0", "kept 1"])  # used again: the newest
        cache._memory.clear()  # read from the disk, not the memory
    assert cache.trimmed > 0
    with sqlite3.connect(tmp_path / "embeddings-v2.sqlite") as database:
        pages = database.execute("PRAGMA page_count").fetchone()[0]
        free = database.execute("PRAGMA freelist_count").fetchone()[0]
        size = database.execute("PRAGMA page_size").fetchone()[0]
    assert (pages - free) * size <= bound
    fresh = CachedEmbedder(HashingEmbedder(384), "hash", tmp_path, max_disk_bytes=bound)
    fresh.embed_matrix(["kept 0", "kept 1"])
    assert fresh.misses == 0, "the vectors used last are kept"
    fresh.embed_matrix(["block 0 text 0"])
    assert fresh.misses == 1, "the vectors used longest ago were dropped"


def test_an_unbounded_store_keeps_everything(tmp_path: Path) -> None:
    cache = CachedEmbedder(HashingEmbedder(384), "hash", tmp_path, max_disk_bytes=None)
    cache.embed_matrix([f"text {i}" for i in range(400)])
    assert cache.trimmed == 0
    assert stored(tmp_path) == 400
    with pytest.raises(ConfigError, match="max_disk_bytes"):
        CachedEmbedder(HashingEmbedder(), "hash", tmp_path, max_disk_bytes=0)


def _write_many(directory: str, offset: int) -> int:
    cache = CachedEmbedder(HashingEmbedder(384), "hash", directory)
    for block in range(20):
        shared = [f"shared {block} {i}" for i in range(10)]
        own = [f"own {offset} {block} {i}" for i in range(10)]
        cache.embed_matrix(shared + own)
    cache.close()
    return cache.misses


def test_several_processes_write_the_same_store_at_once(tmp_path: Path) -> None:
    context = multiprocessing.get_context("spawn")
    with context.Pool(3) as pool:
        misses = pool.starmap(_write_many, [(str(tmp_path), n) for n in range(3)])
    assert all(m >= 200 for m in misses)
    assert stored(tmp_path) == 200 + 3 * 200  # every vector once, whoever wrote it first


def test_a_store_that_is_no_database_is_a_backend_error_naming_it(tmp_path: Path) -> None:
    (tmp_path / "embeddings-v2.sqlite").write_bytes(b"this is no SQLite file" * 100)
    cache = CachedEmbedder(HashingEmbedder(), "hash", tmp_path)
    with pytest.raises(BackendError, match=str(tmp_path)):
        cache.embed_matrix(["a text"])


@pytest.mark.parametrize("off", ["", "0", "off", "none", "OFF"])
def test_the_default_place_can_be_turned_off(off: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CITECHECK_CACHE_DIR", off)
    assert default_cache_dir() is None


def test_the_default_place_follows_the_environment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CITECHECK_CACHE_DIR", str(tmp_path / "mine"))
    assert default_cache_dir() == tmp_path / "mine"
    monkeypatch.delenv("CITECHECK_CACHE_DIR")
    monkeypatch.setattr("sys.platform", "linux")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert default_cache_dir() == tmp_path / "xdg" / "citecheck"
    monkeypatch.delenv("XDG_CACHE_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert default_cache_dir() == tmp_path / "home" / ".cache" / "citecheck"


def test_the_records_command_keeps_its_embeddings_in_the_default_place(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pytest.importorskip("sentence_transformers")
    import shutil
    import subprocess
    import sys

    examples = Path(__file__).parents[1] / "examples"
    shutil.copy(examples / "records.json", tmp_path / "records.json")
    place = tmp_path / "cache"
    monkeypatch.setenv("CITECHECK_CACHE_DIR", str(place))

    def run(*options: str) -> subprocess.CompletedProcess[str]:
        command = [sys.executable, "-m", "citecheck", "records", str(tmp_path / "records.json")]
        return subprocess.run(
            [*command, "-o", str(tmp_path / "out.json"), "--no-progress", *options],
            capture_output=True,
            text=True,
            check=False,
        )

    first = run()
    assert first.returncode in (0, 1, 3), first.stderr
    written = (tmp_path / "out.json").read_text(encoding="utf-8")
    assert stored(place) > 0
    second = run()
    assert second.returncode == first.returncode
    assert (tmp_path / "out.json").read_text(encoding="utf-8") == written
    (tmp_path / "out.json").unlink()
    monkeypatch.setenv("CITECHECK_CACHE_DIR", str(tmp_path / "never"))
    assert run("--no-cache").returncode == first.returncode
    assert not (tmp_path / "never").exists()
