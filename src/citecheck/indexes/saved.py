"""The directory layout the local indexes save to, and its one writer and one reader.

A save writes every data file (the records as JSON lines, the vectors in each backend's own
format) under a name no earlier save used, ``records.<generation>.jsonl``, flushes it to the
disk, and then replaces ``manifest.json`` in one atomic rename. The manifest lists each data
file with its size and SHA-256. The rename is the commit: a save that dies before it leaves the
previous index as it was (plus files no manifest lists, which load ignores and the next save
removes), one that dies after it leaves the new index. Load checks every listed file against
the manifest, so a truncated file, or one copied in from another save of the same shape, is a
:class:`~citecheck.errors.SavedIndexError` naming it, never an index that mixes two saves.
Saves into one directory take turns under a lock on it.

Version 1 (citecheck before the manifest listed files) wrote ``records.jsonl`` and the vectors
in place under fixed names, without checksums; such a directory still loads, unchecked, and the
next save replaces it with the new layout.
"""

from __future__ import annotations

import hashlib
import json
import re
import secrets
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any

from citecheck._atomic import (
    Sink,
    check_listed,
    fsync_directory,
    locked_folder,
    write_bytes_atomic,
    write_new_file,
)
from citecheck.errors import CitecheckError, InputError, SavedIndexError, WriteError

__all__ = ["MANIFEST", "RECORDS", "VERSION", "read_saved", "reading", "write_saved"]

MANIFEST = "manifest.json"
RECORDS = "records.jsonl"
VERSION = 2
_LEGACY_VERSION = 1
_ROWS_PER_WRITE = 4096
_CHUNK = 1 << 20


def write_saved(
    path: Path,
    manifest: dict[str, Any],
    rows: Iterable[dict[str, Any]],
    files: Mapping[str, Callable[[Sink], None]],
) -> None:
    """Save an index in ``path`` (created if needed): ``rows`` as ``records.jsonl``, every
    ``files`` entry (a name such as ``vectors.npy`` and a function that writes its content) as a
    data file, then ``manifest`` with the version and the list of files, in one atomic rename.
    Files of earlier saves are removed afterwards. A failure of the disk is a
    :class:`~citecheck.errors.WriteError` naming the file or folder."""
    try:
        _write_saved(path, manifest, rows, files)
    except OSError as exc:
        if isinstance(exc, CitecheckError):
            raise
        where = Path(exc.filename) if exc.filename else path
        raise WriteError(where, exc) from None


def _write_saved(
    path: Path,
    manifest: dict[str, Any],
    rows: Iterable[dict[str, Any]],
    files: Mapping[str, Callable[[Sink], None]],
) -> None:
    created = not path.exists()
    path.mkdir(parents=True, exist_ok=True)
    if created:
        fsync_directory(path.parent)
    generation = secrets.token_hex(8)
    writers = {RECORDS: _rows_writer(rows), **files}
    listed: dict[str, dict[str, Any]] = {}
    with locked_folder(path):
        try:
            for name, fill in writers.items():
                stem, suffix = name.split(".", 1)
                saved_as = f"{stem}.{generation}.{suffix}"
                written = write_new_file(path / saved_as, fill)
                listed[name] = {"name": saved_as, "size": written.size, "sha256": written.sha256}
            fsync_directory(path)
        except BaseException:
            for entry in listed.values():
                with suppress(OSError):
                    (path / entry["name"]).unlink()
            raise
        body = {**manifest, "version": VERSION, "files": listed}
        write_bytes_atomic(path / MANIFEST, json.dumps(body, indent=2).encode("utf-8"))
        _remove_stale(path, listed)


def read_saved(
    path: Path, what: str, format: str, data: Iterable[str] = ()
) -> tuple[dict[str, Any], list[Any], dict[str, Path]]:
    """The manifest, the record rows and the data files (by name, such as ``vectors.npy``) of
    the index a ``what`` (a class name, for errors) saved in ``path`` with ``format``, after
    checking each listed file's size and SHA-256. ``data`` names the data files a version 1
    save wrote under those very names."""
    try:
        raw = (path / MANIFEST).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise SavedIndexError(f"{path} does not hold a saved {what}: no {MANIFEST}") from None
    except (OSError, ValueError) as exc:
        raise SavedIndexError(f"{path / MANIFEST}: cannot be read: {exc}") from None
    try:
        manifest = json.loads(raw)
    except ValueError as exc:
        raise SavedIndexError(f"{path / MANIFEST}: not JSON ({exc})") from None
    if not isinstance(manifest, dict) or manifest.get("format") != format:
        raise SavedIndexError(f"{path / MANIFEST}: not a {format} manifest")
    version = manifest.get("version")
    if version == VERSION:
        files = _listed_files(path, manifest.get("files"))
        records = _read_checked(files[RECORDS], manifest["files"][RECORDS])
    elif version == _LEGACY_VERSION:
        files = {name: path / name for name in (RECORDS, *data) if (path / name).exists()}
        records = _read_unchecked(path / RECORDS, what)
    else:
        raise SavedIndexError(
            f"{path / MANIFEST}: {format} version {version!r}, which this citecheck does not "
            f"know (it reads versions {_LEGACY_VERSION} to {VERSION}); a newer citecheck wrote it?"
        )
    try:
        rows = [json.loads(line) for line in records.decode("utf-8").splitlines()]
    except ValueError as exc:
        raise SavedIndexError(f"{files[RECORDS]}: not JSON lines: {exc}") from None
    return manifest, rows, files


@contextmanager
def reading(path: Path) -> Iterator[None]:
    """Turn a manifest or a record that lacks a field, or has one of the wrong type, or a data
    file that vanished after its check, into a :class:`~citecheck.errors.SavedIndexError`
    naming ``path``."""
    try:
        yield
    except InputError:
        raise
    except (KeyError, TypeError, AttributeError, ValueError) as exc:
        raise SavedIndexError(f"{path}: malformed manifest or records ({exc!r})") from None
    except OSError as exc:  # a file checked, then removed by a save committing meanwhile
        raise SavedIndexError(f"{path}: a saved file could not be read ({exc})") from None


def _rows_writer(rows: Iterable[dict[str, Any]]) -> Callable[[Sink], None]:
    def fill(sink: Sink) -> None:
        batch: list[str] = []
        for row in rows:
            batch.append(json.dumps(row, ensure_ascii=False) + "\n")
            if len(batch) == _ROWS_PER_WRITE:
                sink.write("".join(batch).encode("utf-8"))
                batch.clear()
        sink.write("".join(batch).encode("utf-8"))

    return fill


def _listed_files(path: Path, listed: object) -> dict[str, Path]:
    """Each data file the manifest lists, by name, checked against its size and SHA-256 (the
    records file is checked as it is read)."""
    if not isinstance(listed, dict) or RECORDS not in listed:
        raise SavedIndexError(f"{path / MANIFEST}: no list of files, or no {RECORDS} in it")
    files = {}
    for name, entry in listed.items():
        if not (
            isinstance(entry, dict)
            and isinstance(entry.get("name"), str)
            and isinstance(entry.get("size"), int)
            and isinstance(entry.get("sha256"), str)
            and Path(entry["name"]).name == entry["name"]
            and entry["name"] not in ("", ".", "..")
        ):
            raise SavedIndexError(f"{path / MANIFEST}: a malformed entry for {name!r}: {entry!r}")
        files[name] = path / entry["name"]
        if name != RECORDS:
            _check_file(files[name], entry)
    return files


def _check_file(file: Path, entry: dict[str, Any]) -> None:
    digest = hashlib.sha256()
    try:
        with file.open("rb") as stream:
            while chunk := stream.read(_CHUNK):
                digest.update(chunk)
            size = stream.tell()
    except OSError as exc:
        raise SavedIndexError(f"{file}: listed in the manifest but cannot be read: {exc}") from None
    _compare(file, entry, size, digest.hexdigest())


def _read_checked(file: Path, entry: dict[str, Any]) -> bytes:
    try:
        content = file.read_bytes()
    except OSError as exc:
        raise SavedIndexError(f"{file}: listed in the manifest but cannot be read: {exc}") from None
    _compare(file, entry, len(content), hashlib.sha256(content).hexdigest())
    return content


def _read_unchecked(file: Path, what: str) -> bytes:
    try:
        return file.read_bytes()
    except OSError as exc:
        raise SavedIndexError(f"{file.parent} does not hold a saved {what}: {exc}") from None


def _compare(file: Path, entry: dict[str, Any], size: int, sha256: str) -> None:
    check_listed(file, size, sha256, listed_size=entry["size"], listed_sha256=entry["sha256"])


def _remove_stale(path: Path, listed: Mapping[str, Mapping[str, Any]]) -> None:
    """Remove the data files of earlier saves (and of saves that died before their commit) and
    temporary manifests left by a killed save. Best effort: the save is complete already, and a
    file left here is ignored by load and removed by the next save."""
    keep = {entry["name"] for entry in listed.values()}
    patterns = [
        re.compile(rf"{re.escape(stem)}(\.[0-9a-f]{{16}})?\.{re.escape(suffix)}")
        for stem, suffix in (name.split(".", 1) for name in listed)
    ]
    patterns.append(re.compile(rf"\.{re.escape(MANIFEST)}\..+\.tmp"))
    with suppress(OSError):
        for file in path.iterdir():
            if file.name not in keep and any(p.fullmatch(file.name) for p in patterns):
                with suppress(OSError):
                    file.unlink()
