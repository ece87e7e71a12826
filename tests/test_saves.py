"""Index saves under faults: a save killed at any moment, or failing between any two steps,
leaves the last good index or the new one, never a mix; load rejects files that are not the
ones the manifest lists; a record that could not be saved is refused at upsert."""

from __future__ import annotations

import hashlib
import json
import os
import pathlib
import random
import shutil
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

np = pytest.importorskip("numpy")

from citecheck import _atomic  # noqa: E402
from citecheck.errors import RecordError, SavedIndexError, WriteError  # noqa: E402
from citecheck.indexes import Record  # noqa: E402
from citecheck.indexes.memory import MemoryIndex  # noqa: E402

SRC = Path(__file__).parents[1] / "src"
COUNT, DIMENSION = 2000, 64
KILLS = 20


@pytest.fixture(params=["memory", "faiss"])
def backend(request: pytest.FixtureRequest) -> Any:
    if request.param == "faiss":
        pytest.importorskip("faiss")
        return pytest.importorskip("citecheck.indexes.faiss").FaissIndex
    return MemoryIndex


def build(backend: Any, version: int, count: int = COUNT) -> Any:
    """Version ``version`` of one index: the same ids, metadata keys and file sizes in every
    version, other vectors and values, so that a mix of two saves loads unless it is caught."""
    signs = np.random.default_rng(version).choice([-1.0, 1.0], size=(count, DIMENSION))
    vectors = signs.astype(np.float32)  # every vector the same length: FAISS saves it too
    index = backend(DIMENSION)
    index.upsert(
        Record(f"r{i}", vectors[i], {"version": version, "text": f"v{version}-{i}", "tags": ["x"]})
        for i in range(count)
    )
    return index


def contents(index: Any) -> tuple[list[str], list[Any], Any]:
    """What an index holds, by id: the ids, metadata and vectors a caller can fetch."""
    fetched = index.fetch([f"r{i}" for i in range(COUNT)])
    ids = sorted(fetched)
    assert index.count() == len(ids)
    metadata = [fetched[rid].metadata for rid in ids]
    vectors = np.array([fetched[rid].vector for rid in ids], dtype=np.float32)
    return ids, metadata, vectors


def which(loaded: Any, *saved: tuple[list[str], list[Any], Any]) -> int:
    """The position of the :func:`contents` ``loaded`` holds exactly; fails when it holds none
    of them."""
    ids, metadata, vectors = contents(loaded)
    for position, (other_ids, other_metadata, other_vectors) in enumerate(saved):
        if (ids, metadata) == (other_ids, other_metadata) and np.allclose(
            vectors, other_vectors, atol=1e-5
        ):
            return position
    pytest.fail("the loaded index is none of the saved ones: a mix of two saves")


def saved_file(directory: Path, role: str) -> Path:
    """The one file of ``role`` (``records``, ``vectors``) a save left in ``directory``."""
    [file] = [f for f in directory.iterdir() if f.name.startswith(f"{role}.")]
    return file


def rewrite_listed(directory: Path, role: str, content: bytes) -> None:
    """Replace a saved file's content and relist it in the manifest, size and checksum too, so
    that load gets past the checksums to the checks behind them."""
    file = saved_file(directory, role)
    file.write_bytes(content)
    manifest = json.loads((directory / "manifest.json").read_text())
    for entry in manifest["files"].values():
        if entry["name"] == file.name:
            entry.update(size=len(content), sha256=hashlib.sha256(content).hexdigest())
    (directory / "manifest.json").write_text(json.dumps(manifest))


# -- a saving process killed at random moments ----------------------------------------------

CHILD = """
import os, sys
from citecheck.indexes.{module} import {name} as Index

old, new, target = sys.argv[1:]
versions = [Index.load(new), Index.load(old)]
while sys.stdin.readline():
    saver = os.fork()
    if saver == 0:  # saves the two versions in turn until it is killed
        try:
            while True:
                for index in versions:
                    index.save(target)
        finally:
            os._exit(1)
    print(saver, flush=True)
    os.waitpid(saver, 0)
    print("killed", flush=True)
"""


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork and SIGKILL")
def test_a_killed_save_leaves_the_old_index_or_the_new_one(backend: Any, tmp_path: Path) -> None:
    """A process started with ``sys.executable`` loads both versions once, then forks a saver
    for each kill (a fresh interpreter per kill would cost the test most of its time), which
    saves them in turn into one directory until SIGKILL stops it at a random moment."""
    old, new = build(backend, 1), build(backend, 2)
    versions = contents(old), contents(new)
    old.save(tmp_path / "old")
    new.save(tmp_path / "new")
    target = tmp_path / "index"
    started = time.perf_counter()
    old.save(target)
    save_time = time.perf_counter() - started
    script = CHILD.format(module=backend.__module__.rsplit(".", 1)[1], name=backend.__name__)
    single = dict.fromkeys(("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"), "1")
    environment = {**os.environ, **single, "PYTHONPATH": str(SRC)}
    moments = random.Random(16)
    seen = []
    with subprocess.Popen(
        [sys.executable, "-c", script, str(tmp_path / "old"), str(tmp_path / "new"), str(target)],
        env=environment,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    ) as child:
        assert child.stdin is not None
        assert child.stdout is not None
        assert child.stderr is not None
        for _ in range(KILLS):
            child.stdin.write("save\n")
            child.stdin.flush()
            saver = child.stdout.readline()
            if not saver.strip().isdigit():
                child.kill()
                pytest.fail(f"the saving process did not start: {child.stderr.read()}")
            time.sleep(moments.uniform(0, 3 * save_time))
            os.kill(int(saver), signal.SIGKILL)
            assert child.stdout.readline() == "killed\n"
            seen.append(which(backend.load(target), *versions))
        child.stdin.close()
    new.save(target)  # a save after the kills clears what they left behind
    assert which(backend.load(target), *versions) == 1
    assert {file.name for file in target.iterdir()} == {
        "manifest.json",
        saved_file(target, "records").name,
        saved_file(target, "vectors").name,
    }
    assert len(seen) == KILLS  # which version each kill left is chance; that it was whole is not


# -- a save failing between any two of its steps -----------------------------------------------


class InjectedFault(OSError):
    pass


@contextmanager
def failing_at(step: int, monkeypatch: pytest.MonkeyPatch) -> Iterator[list[int]]:
    """Make the ``step``-th file operation of what runs inside fail: creating or opening a
    file, writing to one, flushing one to the disk, renaming, removing."""
    calls = [0]

    def faulty(original: Callable[..., Any]) -> Callable[..., Any]:
        def operation(*args: Any, **kwargs: Any) -> Any:
            calls[0] += 1
            if calls[0] == step:
                raise InjectedFault(f"injected fault at step {step}")
            return original(*args, **kwargs)

        return operation

    with monkeypatch.context() as patch:
        for owner, name in [
            (pathlib.Path, "open"),
            (pathlib.Path, "unlink"),
            (os, "fdopen"),
            (os, "fsync"),
            (os, "replace"),
            (os, "unlink"),
            (_atomic.Sink, "write"),
        ]:
            patch.setattr(owner, name, faulty(getattr(owner, name)))
        yield calls


def test_a_save_failing_at_any_step_leaves_the_last_good_index(
    backend: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    old, new = build(backend, 1, count=50), build(backend, 2, count=50)
    versions = contents(old), contents(new)
    old.save(tmp_path)
    manifest = tmp_path / "manifest.json"
    for step in range(1, 100):
        before = manifest.read_bytes()
        with failing_at(step, monkeypatch) as calls:
            try:
                new.save(tmp_path)
            except (InjectedFault, WriteError):  # an OSError of the disk names the file
                failed = True
            else:
                failed = False
        committed = manifest.read_bytes() != before  # the manifest's rename is the commit
        assert committed or failed, step
        assert which(backend.load(tmp_path), *versions) == (1 if committed else 0), step
        if calls[0] < step:  # the save ran to its end without reaching the fault
            break
    else:
        pytest.fail("a save took more than 100 steps")
    assert step > 10  # the faults did fall between the save's steps
    old.save(tmp_path)
    assert {file.name for file in tmp_path.iterdir()} == {
        "manifest.json",
        saved_file(tmp_path, "records").name,
        saved_file(tmp_path, "vectors").name,
    }


# -- load checks every file -----------------------------------------------------------------


@pytest.mark.parametrize("role", ["records", "vectors"])
def test_a_file_swapped_in_from_another_save_is_rejected(
    backend: Any, role: str, tmp_path: Path
) -> None:
    build(backend, 1, count=50).save(tmp_path / "one")
    build(backend, 2, count=50).save(tmp_path / "two")
    mine, theirs = saved_file(tmp_path / "one", role), saved_file(tmp_path / "two", role)
    assert mine.stat().st_size == theirs.stat().st_size  # only the checksum can tell them apart
    shutil.copyfile(theirs, mine)
    with pytest.raises(SavedIndexError, match=rf"{mine.name}.*SHA-256"):
        backend.load(tmp_path / "one")


def test_a_truncated_or_missing_file_is_named(backend: Any, tmp_path: Path) -> None:
    build(backend, 1, count=50).save(tmp_path)
    vectors = saved_file(tmp_path, "vectors")
    content = vectors.read_bytes()
    vectors.write_bytes(content[:-8])
    with pytest.raises(SavedIndexError, match=rf"{vectors.name}: {len(content) - 8} bytes"):
        backend.load(tmp_path)
    vectors.unlink()
    with pytest.raises(SavedIndexError, match=rf"{vectors.name}: listed in the manifest"):
        backend.load(tmp_path)


def test_a_manifest_naming_a_file_elsewhere_is_rejected(backend: Any, tmp_path: Path) -> None:
    build(backend, 1, count=5).save(tmp_path / "index")
    manifest = json.loads((tmp_path / "index" / "manifest.json").read_text())
    manifest["files"]["records.jsonl"]["name"] = "../records.jsonl"
    (tmp_path / "index" / "manifest.json").write_text(json.dumps(manifest))
    with pytest.raises(SavedIndexError, match="malformed entry"):
        backend.load(tmp_path / "index")


def test_an_unknown_version_is_named(backend: Any, tmp_path: Path) -> None:
    build(backend, 1, count=5).save(tmp_path)
    manifest = json.loads((tmp_path / "manifest.json").read_text())
    (tmp_path / "manifest.json").write_text(json.dumps({**manifest, "version": 9}))
    with pytest.raises(SavedIndexError, match="version 9"):
        backend.load(tmp_path)


def test_files_a_killed_save_left_are_ignored_then_removed(backend: Any, tmp_path: Path) -> None:
    old = build(backend, 1, count=20)
    old.save(tmp_path)
    leftovers = ["records.0123456789abcdef.jsonl", ".manifest.json.x1y2.tmp"]
    for name in leftovers:
        (tmp_path / name).write_text("half a file")
    (tmp_path / "notes.txt").write_text("the caller's own file")
    assert which(backend.load(tmp_path), contents(old)) == 0
    old.save(tmp_path)
    assert not any((tmp_path / name).exists() for name in leftovers)
    assert (tmp_path / "notes.txt").read_text() == "the caller's own file"


def test_records_that_do_not_parse_are_rejected(tmp_path: Path) -> None:
    build(MemoryIndex, 1, count=5).save(tmp_path)
    rewrite_listed(tmp_path, "records", b"{not json\n")
    with pytest.raises(SavedIndexError, match="not JSON lines"):
        MemoryIndex.load(tmp_path)
    rewrite_listed(tmp_path, "records", b'{"metadata": {}}\n' * 5)
    with pytest.raises(SavedIndexError, match="malformed"):
        MemoryIndex.load(tmp_path)


def test_faiss_checks_behind_the_checksums(tmp_path: Path) -> None:
    pytest.importorskip("faiss")
    faiss_index = pytest.importorskip("citecheck.indexes.faiss").FaissIndex
    build(faiss_index, 1, count=5).save(tmp_path)
    records = saved_file(tmp_path, "records").read_text().splitlines()
    rewrite_listed(tmp_path, "records", "\n".join([records[0], *records[:-1], ""]).encode())
    with pytest.raises(SavedIndexError, match="label"):
        faiss_index.load(tmp_path)
    rewrite_listed(tmp_path, "vectors", b"not an index")
    with pytest.raises(SavedIndexError, match="cannot be read by FAISS"):
        faiss_index.load(tmp_path)


def test_a_save_of_the_layout_before_checksums_still_loads(backend: Any, tmp_path: Path) -> None:
    """citecheck before version 2 wrote fixed names in place and no file list."""
    old = build(backend, 1, count=20)
    old.save(tmp_path / "new")
    manifest = json.loads((tmp_path / "new" / "manifest.json").read_text())
    legacy = tmp_path / "legacy"
    legacy.mkdir()
    for name, entry in manifest.pop("files").items():
        shutil.copyfile(tmp_path / "new" / entry["name"], legacy / name)
    (legacy / "manifest.json").write_text(json.dumps({**manifest, "version": 1}))
    assert which(backend.load(legacy), contents(old)) == 0
    old.save(legacy)
    assert not (legacy / "records.jsonl").exists()
    assert json.loads((legacy / "manifest.json").read_text())["version"] == 2
    assert which(backend.load(legacy), contents(old)) == 0


# -- what cannot be saved is refused at upsert ----------------------------------------------


@pytest.mark.parametrize(
    "record",
    [
        Record("r\ud800", [1.0] * DIMENSION),
        Record("fresh", [1.0] * DIMENSION, {"text": "half a pair \udc80"}),
        Record("fresh", [1.0] * DIMENSION, {"tags": ["\udfff"]}),
        Record("fresh", [1.0] * DIMENSION, {"k\ud83d": 1}),
    ],
    ids=["id", "value", "list", "key"],
)
def test_a_lone_surrogate_is_refused_at_upsert_and_the_last_save_stands(
    backend: Any, record: Record, tmp_path: Path
) -> None:
    old = build(backend, 1, count=20)
    old.save(tmp_path)
    with pytest.raises(RecordError, match="lone surrogate"):
        old.upsert([Record("r0", [2.0] * DIMENSION), record])
    assert which(old, contents(build(backend, 1, count=20))) == 0  # nothing was written
    old.save(tmp_path)
    assert which(backend.load(tmp_path), contents(old)) == 0


def test_saves_racing_into_one_directory_leave_one_whole_index(
    backend: Any, tmp_path: Path
) -> None:
    """Each save removes files no manifest lists: two at once would remove each other's."""
    old, new = build(backend, 1, count=50), build(backend, 2, count=50)
    versions = contents(old), contents(new)
    old.save(tmp_path)
    errors: list[BaseException] = []

    def save_often(index: Any) -> None:
        try:
            for _ in range(8):
                index.save(tmp_path)
        except BaseException as exc:  # pragma: no cover - reported below
            errors.append(exc)

    savers = [threading.Thread(target=save_often, args=(index,)) for index in (old, new)]
    for saver in savers:
        saver.start()
    for saver in savers:
        saver.join()
    assert errors == []
    assert which(backend.load(tmp_path), *versions) in (0, 1)


def test_a_data_file_removed_after_its_check_is_named(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A save committing in another process removes the old files between a load's check and
    # its read: the load fails with SavedIndexError naming the folder, never a raw OSError.
    from citecheck.indexes import memory

    build(memory.MemoryIndex, 1, count=5).save(tmp_path)
    checked = memory.read_saved

    def check_then_lose(*args: Any, **kwargs: Any) -> Any:
        result = checked(*args, **kwargs)
        for name in result[2].values():
            name.unlink()
        return result

    monkeypatch.setattr(memory, "read_saved", check_then_lose)
    with pytest.raises(SavedIndexError, match=str(tmp_path)):
        memory.MemoryIndex.load(tmp_path)


def test_a_corrupted_manifest_is_named_not_the_folder(backend: Any, tmp_path: Path) -> None:
    """Issue 31: a manifest that is not JSON is named as the file it is."""
    build(backend, 1, count=5).save(tmp_path)
    (tmp_path / "manifest.json").write_text("{ cut short", encoding="utf-8")
    with pytest.raises(SavedIndexError, match=r"manifest\.json: not JSON"):
        backend.load(tmp_path)
    (tmp_path / "manifest.json").unlink()
    with pytest.raises(SavedIndexError, match=r"does not hold a saved .*no manifest\.json"):
        backend.load(tmp_path)
