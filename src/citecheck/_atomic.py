"""Writing files so that a reader, or a run that dies half way, sees the old content or the new,
never half of it: new content goes to a file no reader looks at yet, is flushed to the disk
(``fsync``), and only then takes the place of the old one in a single :func:`os.replace`."""

from __future__ import annotations

import hashlib
import os
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

from citecheck.errors import CitecheckError, ConfigError, SavedIndexError, WriteError

__all__ = [
    "Sink",
    "Written",
    "check_target",
    "fsync_directory",
    "write_bytes_atomic",
    "write_new_file",
    "write_text_atomic",
]


def check_target(path: str | os.PathLike[str]) -> None:
    """Refuse, before anything is computed or written, a path that cannot take a file: an
    existing folder, or a file in a folder that does not exist
    (:class:`~citecheck.errors.ConfigError` naming it)."""
    target = Path(path)
    if target.is_dir():
        raise ConfigError(f"cannot write the report to {os.fspath(path)!r}: it is a folder")
    if not target.parent.is_dir():
        raise ConfigError(
            f"cannot write the report to {os.fspath(path)!r}: the folder "
            f"{os.fspath(target.parent)!r} does not exist"
        )


def write_text_atomic(path: str | os.PathLike[str], text: str) -> None:
    """Write ``text`` (UTF-8) to ``path`` with :func:`write_bytes_atomic`. Text that UTF-8
    cannot encode (a lone surrogate) raises before anything is written."""
    write_bytes_atomic(path, text.encode("utf-8"))


def write_bytes_atomic(path: str | os.PathLike[str], data: bytes) -> None:
    """Write ``data`` to ``path`` through a temporary file in the same folder, flushed to the
    disk and moved into place with :func:`os.replace`, the folder flushed after it so that the
    rename survives a power cut. The new file gets the old one's permissions, or those a new
    file gets under the current umask. A failure of the disk (full, read-only, a file too
    large) is a :class:`~citecheck.errors.WriteError` naming ``path``."""
    target = Path(path)
    try:
        _write_bytes_atomic(target, data)
    except OSError as exc:
        raise _write_error(target, exc) from None


def _write_error(target: Path, exc: OSError) -> OSError:
    return exc if isinstance(exc, CitecheckError) else WriteError(target, exc)


def _write_bytes_atomic(target: Path, data: bytes) -> None:
    handle, temporary = tempfile.mkstemp(
        dir=target.parent, prefix=f".{target.name}.", suffix=".tmp"
    )
    try:
        with os.fdopen(handle, "wb") as stream:
            stream.write(data)
            stream.flush()
            os.fsync(stream.fileno())
        os.chmod(temporary, _mode_for(target))
        os.replace(temporary, target)
    except BaseException:
        with suppress(OSError):
            os.unlink(temporary)
        raise
    fsync_directory(target.parent)


@dataclass(frozen=True, slots=True)
class Written:
    """What a file holds once written: its size in bytes and its SHA-256 (hex), for a reader to
    check that it reads the very file the writer wrote."""

    size: int
    sha256: str


class Sink:
    """A binary stream that counts and hashes what passes through it on its way to a file, so
    that writing a large file costs one pass, not a second one to read it back."""

    __slots__ = ("_digest", "_stream", "size")

    def __init__(self, stream: BinaryIO) -> None:
        self._stream = stream
        self._digest = hashlib.sha256()
        self.size = 0

    def write(self, data: bytes | bytearray | memoryview) -> int:
        written = self._stream.write(data)
        self._digest.update(data)
        self.size += memoryview(data).nbytes
        return written

    def written(self) -> Written:
        return Written(self.size, self._digest.hexdigest())


def write_new_file(path: str | os.PathLike[str], fill: Callable[[Sink], None]) -> Written:
    """Create ``path``, which must not exist yet (a name of its own, so nothing is overwritten),
    let ``fill`` write the content into a :class:`Sink`, and flush it to the disk. When ``fill``
    or the disk fails, the file is removed and the error raised."""
    target = Path(path)
    try:
        with target.open("xb") as stream:
            sink = Sink(stream)
            fill(sink)
            stream.flush()
            os.fsync(stream.fileno())
    except BaseException as exc:
        with suppress(OSError):
            target.unlink()
        if isinstance(exc, OSError):
            raise _write_error(target, exc) from None
        raise
    return sink.written()


def fsync_directory(path: str | os.PathLike[str]) -> None:
    """Flush ``path``'s entries (files created, renamed or removed in it) to the disk. A no-op
    where folders cannot be opened (Windows, whose file system journals renames itself)."""
    if not hasattr(os, "O_DIRECTORY"):  # pragma: no cover - not POSIX
        return
    handle = os.open(path, os.O_RDONLY | os.O_DIRECTORY)
    try:
        os.fsync(handle)
    finally:
        os.close(handle)


def _mode_for(target: Path) -> int:
    try:
        return target.stat().st_mode & 0o777
    except OSError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask


@contextmanager
def locked_folder(path: Path) -> Iterator[None]:
    """Hold an exclusive lock on a folder while a change is saved into it: two changes at once
    would each remove the other's new files as stale, or commit a manifest without the other's
    part. Where there are no POSIX locks (Windows), changes are not serialised."""
    try:
        import fcntl
    except ImportError:  # pragma: no cover - not POSIX
        yield
        return
    handle = os.open(path, os.O_RDONLY)
    try:
        fcntl.flock(handle, fcntl.LOCK_EX)
        yield
    finally:
        os.close(handle)


def check_listed(
    file: Path, size: int, sha256: str, *, listed_size: int, listed_sha256: str
) -> None:
    """A file read back is the one its manifest lists, by size and SHA-256, or
    :class:`~citecheck.errors.SavedIndexError` names it and says how it differs."""
    if size != listed_size:
        raise SavedIndexError(
            f"{file}: {size} bytes where the manifest says {listed_size}: the file is "
            "truncated or was replaced"
        )
    if sha256 != listed_sha256:
        raise SavedIndexError(
            f"{file}: its SHA-256 differs from the manifest's: the file was changed, or copied "
            "in from another save"
        )
