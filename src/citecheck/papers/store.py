"""The paper library's folder: its manifest, its per-paper files, and the one way to change them.

Layout::

    <library>/manifest.json            format, version, and every paper: metadata + its files
    <library>/papers/<key>.<generation>.txt           the paper's text
    <library>/papers/<key>.<generation>.pages.json    its pages: label, number, range
    <library>/papers/<key>.<generation>.chunks.jsonl  its chunks, one JSON object a line
    <library>/papers/<key>.<generation>.vectors.npy   its chunks' vectors (float32, one a row)
    <library>/papers/library.<generation>.vectors.faiss  every paper's vectors in one FAISS
                                                         index, when the library keeps one
    <library>/manifest.copy.json       the manifest as last committed, for ``papers repair``

A change is made as :mod:`citecheck.indexes.saved` saves an index: the new per-paper files are
written under names no earlier change used (a fresh ``generation``) and flushed to the disk,
then ``manifest.json`` is replaced in one atomic rename. The rename is the commit. A change that
fails or is killed before it leaves the old manifest, which names only the old files, so the
library reads exactly as before; files no manifest names are removed by the next change. A
reader checks each file's size and SHA-256 against the manifest, so a truncated or swapped file
is a :class:`~citecheck.errors.SavedIndexError` naming it, never a paper that mixes two adds.
Changes in one folder take turns under a lock on it, and each starts from the manifest on disk,
so two processes adding papers lose neither's paper.

A folder without ``manifest.json`` is a new library only when it holds nothing else: a folder
of other files (the folder of the PDFs, say) is not a library, and one whose ``papers/`` holds
paper files lost its manifest; both are a :class:`~citecheck.errors.SavedIndexError` naming
``manifest.json``, and nothing in them is changed or deleted. :meth:`Store.repair` rebuilds a
lost manifest: from its copy when every file the copy lists is intact, else from the paper
files themselves.

Each paper's ``files`` is a mapping from a role to a file; a paper's ``vectors`` were made by
the embedder its entry names (``vectors_by``), so vectors of another model are never compared
with a query of this one. A library that keeps a FAISS file (:class:`FaissListing`) lists it in
the manifest too, with the vectors files it was built from: it is written in the same change as
the files it copies, so the commit that names them names it, and it never holds vectors the
manifest no longer lists.
"""

from __future__ import annotations

import hashlib
import json
import re
import secrets
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any

from citecheck._atomic import (
    Sink,
    check_listed,
    fsync_directory,
    locked_folder,
    write_bytes_atomic,
    write_new_file,
)
from citecheck.errors import SavedIndexError, WriteError
from citecheck.papers.values import PaperMetadata

__all__ = [
    "COPY",
    "DATA",
    "FORMAT",
    "MANIFEST",
    "VERSION",
    "Entry",
    "FaissListing",
    "Repair",
    "Store",
    "StoredFile",
    "Transaction",
]

MANIFEST = "manifest.json"
COPY = "manifest.copy.json"
DATA = "papers"
FORMAT = "citecheck-paper-library"
VERSION = 1
_ROLES = {"text": "txt", "pages": "pages.json", "chunks": "chunks.jsonl", "vectors": "vectors.npy"}
_DATA_FILE = re.compile(
    r"[A-Za-z0-9_-]{0,40}\.[0-9a-f]{16}\.(?:txt|pages\.json|chunks\.jsonl|vectors\.npy)"
)
_FAISS_FILE = re.compile(r"library\.[0-9a-f]{16}\.vectors\.faiss")
_UNSAFE = re.compile(r"[^A-Za-z0-9_-]+")


@dataclass(frozen=True, slots=True)
class StoredFile:
    """A per-paper file as the manifest lists it: its name in ``papers/``, size and SHA-256."""

    name: str
    size: int
    sha256: str


@dataclass(frozen=True, slots=True)
class Entry:
    """One paper in the manifest: its metadata, its files by role (none for a bibliography
    entry without text), the file its bibliography entry names (an absolute path, by which an
    ``add`` of that file finds its key), whether its text is Markdown, whether its pages come
    from ``[PAGE:N]`` markers, the options its chunks were cut with, and the name of the
    embedder its ``vectors`` file came from (``None`` when it has none), and the file its text
    was read from (an absolute path, by which ``reindex --with-pages`` reads it again; ``None``
    when not known)."""

    metadata: PaperMetadata
    files: Mapping[str, StoredFile] = field(default_factory=dict)
    bib_file: str | None = None
    markdown: bool = False
    markers: bool = False
    chunking: Mapping[str, Any] = field(default_factory=dict)
    vectors_by: str | None = None
    source: str | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "files", MappingProxyType(dict(self.files)))
        object.__setattr__(self, "chunking", MappingProxyType(dict(self.chunking)))


@dataclass(frozen=True, slots=True)
class FaissListing:
    """The library's FAISS file as the manifest lists it; a listing (even one without a file)
    means the library keeps one, and every change writes it again. ``file`` is ``None`` while
    no paper has vectors of ``embedder``; ``held`` names the vectors files it copies, in its
    order: ``(key, vectors file name, rows)``, row ``n`` of a paper being its chunk ``n``."""

    file: StoredFile | None = None
    embedder: str | None = None
    held: tuple[tuple[str, str, int], ...] = ()


class Store:
    """The folder of one paper library: reads its manifest and files, and opens
    :class:`Transaction`s, the only way anything in it changes."""

    __slots__ = ("path",)

    def __init__(self, path: Path) -> None:
        if path.exists() and not path.is_dir():
            raise SavedIndexError(f"{path} is a file, not a paper library folder")
        self.path = path

    @property
    def manifest(self) -> Path:
        return self.path / MANIFEST

    def read(self) -> dict[str, Entry]:
        """The papers the manifest lists, in the order added; none when there is no manifest
        yet and the folder holds nothing else (a library not written to)."""
        return self.read_all()[0]

    def read_all(self) -> tuple[dict[str, Entry], FaissListing | None]:
        """The papers the manifest lists and its FAISS file's listing (``None``: the library
        keeps none), read from one manifest."""
        try:
            raw = self.manifest.read_bytes()
        except FileNotFoundError:
            self._check_new()
            return {}, None
        except OSError as exc:
            raise SavedIndexError(f"{self.manifest}: cannot be read: {exc.strerror}") from None
        return self._parse_all(self.manifest, raw)

    def _check_new(self) -> None:
        """Nothing when the folder, which has no manifest, can be a new library (it does not
        exist, or holds only what a change in progress leaves); else a
        :class:`SavedIndexError` naming the manifest and what to do."""
        if not self.path.is_dir():
            return
        papers = [
            f.name
            for f in _listing(self.path / DATA)
            if _DATA_FILE.fullmatch(f.name) or _FAISS_FILE.fullmatch(f.name)
        ]
        if papers or (self.path / COPY).exists():
            raise SavedIndexError(
                f"{self.manifest} is missing, but {self.path / DATA} holds {len(papers)} paper "
                f"file(s): the library lost its manifest. Nothing was changed; rebuild it with "
                f"`citecheck papers repair --library {self.path}` (PaperLibrary.repair)"
            )
        temporary = re.compile(rf"\.{re.escape(MANIFEST)}\..+\.tmp")
        others = sorted(
            f.name
            for f in _listing(self.path)
            if f.name != DATA and not temporary.fullmatch(f.name)
        )
        if others:
            shown = ", ".join(others[:3]) + (", …" if len(others) > 3 else "")
            raise SavedIndexError(
                f"{self.path} is not a paper library: it has no {MANIFEST} and holds other "
                f"files ({shown}). Give the folder that holds {MANIFEST}, or a new or empty "
                "folder for a new library"
            )

    def _parse(self, where: Path, raw: bytes) -> dict[str, Entry]:
        return self._parse_all(where, raw)[0]

    def _parse_all(self, where: Path, raw: bytes) -> tuple[dict[str, Entry], FaissListing | None]:
        try:
            body = json.loads(raw.decode("utf-8"))
        except ValueError as exc:
            raise SavedIndexError(f"{where}: not JSON: {exc}") from None
        if not isinstance(body, dict) or body.get("format") != FORMAT:
            raise SavedIndexError(f"{where}: not a paper library manifest")
        if body.get("version") != VERSION:
            raise SavedIndexError(
                f"{where}: paper library version {body.get('version')!r}, which this "
                f"citecheck does not know (it reads version {VERSION}); a newer citecheck wrote it?"
            )
        try:
            entries = {str(key): _entry(str(key), row) for key, row in body["papers"].items()}
        except (KeyError, TypeError, AttributeError, ValueError) as exc:
            raise SavedIndexError(f"{where}: a malformed paper entry ({exc!r})") from None
        try:
            listing = _faiss_listing(body.get("faiss"))
        except (KeyError, TypeError, AttributeError, ValueError) as exc:
            raise SavedIndexError(f"{where}: a malformed FAISS file entry ({exc!r})") from None
        return entries, listing

    def signature(self) -> tuple[int, int, int] | None:
        """The manifest's inode, size and modification time (``None`` when there is none):
        a commit replaces the manifest, so a changed signature means a changed library."""
        try:
            stat = self.manifest.stat()
        except OSError:
            return None
        return (stat.st_ino, stat.st_size, stat.st_mtime_ns)

    def read_file(self, stored: StoredFile) -> bytes:
        """The content of a per-paper file, checked against the manifest's size and SHA-256.
        A file that vanished raises :class:`FileNotFoundError` (a change committed since the
        manifest was read removed it: read the manifest again)."""
        file = self.path / DATA / stored.name
        try:
            content = file.read_bytes()
        except FileNotFoundError:
            raise
        except OSError as exc:
            raise SavedIndexError(
                f"{file}: listed in the manifest but cannot be read: {exc}"
            ) from None
        digest = hashlib.sha256(content).hexdigest()
        check_listed(
            file, len(content), digest, listed_size=stored.size, listed_sha256=stored.sha256
        )
        return content

    def repair(self) -> Repair:
        """Rebuild a lost or unreadable manifest, under the folder's lock: from its copy
        (``manifest.copy.json``) when every file the copy lists is there and intact, else from
        the paper files (the newest complete generation of each key). Nothing is deleted: an
        unreadable manifest is kept as ``manifest.json.damaged``, and files the rebuilt
        manifest does not list stay where they are until the next change removes them. A
        manifest that reads is left alone."""
        if not self.path.is_dir():
            raise SavedIndexError(f"no library folder at {self.path}")
        with locked_folder(self.path):
            return _repair(self)

    @contextmanager
    def transaction(self) -> Iterator[Transaction]:
        """A change to the library, under the folder's lock, starting from the manifest on
        disk. Files written in it that no commit took (an error, or no commit) are removed;
        after a commit, files no manifest names are removed."""
        try:
            created = not self.path.exists()
            self.path.mkdir(parents=True, exist_ok=True)
            if created:
                fsync_directory(self.path.parent)
            (self.path / DATA).mkdir(exist_ok=True)
        except OSError as exc:
            raise WriteError(self.path / DATA, exc) from None
        with locked_folder(self.path):
            transaction = Transaction(self, *self.read_all())
            try:
                yield transaction
            finally:
                if transaction.committed:
                    _remove_stale(self.path, transaction.entries, transaction.faiss)
                else:
                    transaction.discard()


@dataclass(frozen=True, slots=True)
class Repair:
    """What :meth:`Store.repair` did: ``"intact"`` (the manifest reads; nothing to do),
    ``"copy"`` (restored from the manifest's copy) or ``"files"`` (rebuilt from the paper
    files: keys, text, pages and chunks; titles, authors and the bibliography are lost, and
    vectors are made again on first use), the keys it lists, and the files it could not use."""

    how: str
    keys: tuple[str, ...]
    skipped: tuple[str, ...] = ()


def _listing(folder: Path) -> list[Path]:
    try:
        return sorted(folder.iterdir())
    except OSError:
        return []


def _repair(store: Store) -> Repair:
    """See :meth:`Store.repair`; runs under the folder's lock."""
    try:
        return Repair("intact", tuple(store._parse(store.manifest, store.manifest.read_bytes())))
    except FileNotFoundError:
        pass
    except SavedIndexError:
        pass  # unreadable: rebuilt below, and the damaged one is kept beside it
    copy = store.path / COPY
    with suppress(OSError, SavedIndexError):
        entries, listing = store._parse_all(copy, copy.read_bytes())
        for entry in entries.values():
            for stored in entry.files.values():
                store.read_file(stored)  # every file the copy lists is there, intact
        _keep_damaged(store.manifest)
        if _intact_faiss(store, listing):
            write_bytes_atomic(store.manifest, copy.read_bytes())
        else:  # the FAISS file only copies the vectors: kept on, written at the next change
            assert listing is not None
            Transaction(store, {}).commit(entries, FaissListing(None, listing.embedder, ()))
        return Repair("copy", tuple(entries))
    entries, skipped = _from_files(store.path / DATA)
    if not entries and not skipped:
        raise SavedIndexError(
            f"{store.path} holds no paper files and no {COPY}: there is nothing to rebuild "
            f"{MANIFEST} from"
        )
    _keep_damaged(store.manifest)
    transaction = Transaction(store, {})
    transaction.commit(entries)
    return Repair("files", tuple(entries), tuple(skipped))


def _intact_faiss(store: Store, listing: FaissListing | None) -> bool:
    """Whether the FAISS file ``listing`` names is there and intact (or none is named)."""
    if listing is None or listing.file is None:
        return True
    try:
        store.read_file(listing.file)
    except (OSError, SavedIndexError):
        return False
    return True


def _keep_damaged(manifest: Path) -> None:
    """Move an unreadable manifest aside (``manifest.json.damaged``): never deleted."""
    if manifest.exists():
        manifest.replace(manifest.with_name(f"{MANIFEST}.damaged"))


def _from_files(data: Path) -> tuple[dict[str, Entry], list[str]]:
    """The papers the files of ``data`` hold: per key, the newest generation whose text, pages
    and chunks are all there and read; the files of no such generation are skipped."""
    generations: dict[tuple[str, str], dict[str, Path]] = {}
    for file in _listing(data):
        if not _DATA_FILE.fullmatch(file.name):
            continue
        key, generation, suffix = file.name.split(".", 2)
        role = next(r for r, ending in _ROLES.items() if ending == suffix)
        generations.setdefault((key, generation), {})[role] = file
    newest: dict[str, tuple[float, str, dict[str, Path]]] = {}
    skipped: list[str] = []
    for (key, generation), files in generations.items():
        if not {"text", "pages", "chunks"} <= set(files) or not _readable(files):
            skipped.extend(sorted(f.name for f in files.values()))
            continue
        when = max(f.stat().st_mtime for f in files.values())
        held = newest.get(key)
        if held is None or when > held[0]:
            if held is not None:
                skipped.extend(sorted(f.name for f in held[2].values()))
            newest[key] = (when, generation, files)
        else:
            skipped.extend(sorted(f.name for f in files.values()))
    entries = {}
    for key, (_, _, files) in sorted(newest.items(), key=lambda item: item[1][0]):
        stored = {}
        for role, file in files.items():
            if role == "vectors":
                continue  # which embedder made them is in the lost manifest: made again
            content = file.read_bytes()
            stored[role] = StoredFile(file.name, len(content), hashlib.sha256(content).hexdigest())
        pages = json.loads(files["pages"].read_text(encoding="utf-8"))
        labels = tuple(str(page.get("label", "")) for page in pages if isinstance(page, dict))
        # the source file's hash is lost with the manifest: the text's stands for it, so the
        # paper reads as one with text (the same file added again is read anew)
        metadata = PaperMetadata(key=key, sha256=stored["text"].sha256, page_labels=labels)
        entries[key] = Entry(metadata, stored)
    return entries, skipped


def _readable(files: Mapping[str, Path]) -> bool:
    try:
        files["text"].read_text(encoding="utf-8")
        pages = json.loads(files["pages"].read_text(encoding="utf-8"))
        for line in files["chunks"].read_text(encoding="utf-8").splitlines():
            if line.strip():
                json.loads(line)
    except (OSError, ValueError):
        return False
    return isinstance(pages, list)


class Transaction:
    """One change: write new per-paper files, then :meth:`commit` the manifest that names them.
    ``entries`` and ``faiss`` are the manifest's as the change began (after a commit, as it
    committed them)."""

    __slots__ = ("_written", "committed", "entries", "faiss", "store")

    def __init__(
        self, store: Store, entries: dict[str, Entry], faiss: FaissListing | None = None
    ) -> None:
        self.store = store
        self.entries = entries
        self.faiss = faiss
        self.committed = False
        self._written: list[Path] = []

    def write(self, key: str, contents: Mapping[str, bytes]) -> dict[str, StoredFile]:
        """Write a paper's files (``text``, ``pages``, ``chunks``: their bytes) under new names
        and flush them to the disk; the manifest does not name them until :meth:`commit`."""
        stem = f"{_UNSAFE.sub('_', key)[:40]}.{secrets.token_hex(8)}"
        stored = {}
        for role, content in contents.items():
            name = f"{stem}.{_ROLES[role]}"
            file = self.store.path / DATA / name
            self._written.append(file)
            written = write_new_file(file, _filler(content))
            stored[role] = StoredFile(name, written.size, written.sha256)
        return stored

    def write_faiss(self, content: bytes) -> StoredFile:
        """Write the library's FAISS file under a new name and flush it to the disk; the
        manifest does not name it until :meth:`commit`."""
        name = f"library.{secrets.token_hex(8)}.vectors.faiss"
        file = self.store.path / DATA / name
        self._written.append(file)
        written = write_new_file(file, _filler(content))
        return StoredFile(name, written.size, written.sha256)

    def commit(self, entries: Mapping[str, Entry], faiss: FaissListing | None = None) -> None:
        """Replace the manifest with one listing ``entries`` (and ``faiss``, the library's
        FAISS file, when it keeps one), in one atomic rename."""
        try:
            fsync_directory(self.store.path / DATA)
        except OSError as exc:
            raise WriteError(self.store.path / DATA, exc) from None
        body: dict[str, Any] = {
            "format": FORMAT,
            "version": VERSION,
            "papers": {key: _row(entry) for key, entry in entries.items()},
        }
        if faiss is not None:
            body["faiss"] = _faiss_row(faiss)
        data = json.dumps(body, indent=1, ensure_ascii=False).encode("utf-8")
        try:
            write_bytes_atomic(self.store.manifest, data)
        except BaseException:
            # The rename may have happened before the error (flushing the folder failed):
            # then the new manifest names the new files, and they must stay.
            with suppress(OSError):
                if self.store.manifest.read_bytes() == data:
                    self._took(entries, faiss)
            raise
        self._took(entries, faiss)
        with suppress(OSError):  # committed already: the copy only helps a later repair
            write_bytes_atomic(self.store.path / COPY, data)

    def _took(self, entries: Mapping[str, Entry], faiss: FaissListing | None) -> None:
        self.entries = dict(entries)
        self.faiss = faiss
        self.committed = True

    def discard(self) -> None:
        for file in self._written:
            with suppress(OSError):
                file.unlink()


def _filler(content: bytes) -> Callable[[Sink], None]:
    def fill(sink: Sink) -> None:
        sink.write(content)

    return fill


def _remove_stale(
    path: Path, entries: Mapping[str, Entry], faiss: FaissListing | None = None
) -> None:
    """Remove per-paper files no paper names (replaced, removed, or left by a change that was
    killed), FAISS files the manifest does not name, and temporary manifests left by a killed
    commit. Best effort: the change is committed already, and a file left here is ignored and
    removed next time."""
    keep = {stored.name for entry in entries.values() for stored in entry.files.values()}
    if faiss is not None and faiss.file is not None:
        keep.add(faiss.file.name)
    with suppress(OSError):
        for file in (path / DATA).iterdir():
            if file.name in keep:
                continue
            if _DATA_FILE.fullmatch(file.name) or _FAISS_FILE.fullmatch(file.name):
                with suppress(OSError):
                    file.unlink()
    temporary = re.compile(rf"\.{re.escape(MANIFEST)}\..+\.tmp")
    with suppress(OSError):
        for file in path.iterdir():
            if temporary.fullmatch(file.name):
                with suppress(OSError):
                    file.unlink()


def _row(entry: Entry) -> dict[str, Any]:
    meta = entry.metadata
    row: dict[str, Any] = {
        "title": meta.title,
        "authors": list(meta.authors),
        "year": meta.year,
        "file": meta.file,
        "sha256": meta.sha256,
        "format": meta.format,
        "page_labels": list(meta.page_labels),
        "bib_file": entry.bib_file,
        "markdown": entry.markdown,
        "markers": entry.markers,
        "chunking": dict(entry.chunking),
        "vectors_by": entry.vectors_by,
        "source": entry.source,
        "files": {
            role: {"name": s.name, "size": s.size, "sha256": s.sha256}
            for role, s in entry.files.items()
        },
    }
    return row


def _entry(key: str, row: Mapping[str, Any]) -> Entry:
    files = {}
    for role, listed in row.get("files", {}).items():
        name = listed["name"]
        if not isinstance(name, str) or not _DATA_FILE.fullmatch(name):
            raise ValueError(f"paper {key!r}: a file name that is no per-paper file: {name!r}")
        files[str(role)] = StoredFile(name, int(listed["size"]), str(listed["sha256"]))
    metadata = PaperMetadata(
        key=key,
        title=_optional(row.get("title")),
        authors=tuple(str(a) for a in row.get("authors", ())),
        year=_optional(row.get("year")),
        file=_optional(row.get("file")),
        sha256=_optional(row.get("sha256")),
        format=_optional(row.get("format")),
        page_labels=tuple(str(label) for label in row.get("page_labels", ())),
    )
    return Entry(
        metadata,
        files,
        _optional(row.get("bib_file")),
        bool(row.get("markdown", False)),
        bool(row.get("markers", False)),
        dict(row.get("chunking", {})),
        _optional(row.get("vectors_by")),
        _optional(row.get("source")),
    )


def _faiss_row(listing: FaissListing) -> dict[str, Any]:
    file = listing.file
    return {
        "file": None
        if file is None
        else {"name": file.name, "size": file.size, "sha256": file.sha256},
        "embedder": listing.embedder,
        "held": [list(row) for row in listing.held],
    }


def _faiss_listing(row: object) -> FaissListing | None:
    """The FAISS file's listing in a manifest (``None``: none listed); raises ``ValueError`` or
    ``TypeError`` on a malformed one."""
    if row is None:
        return None
    if not isinstance(row, Mapping):
        raise TypeError(f"not an object: {row!r}")
    file = None
    listed = row.get("file")
    if listed is not None:
        name = listed["name"]
        if not isinstance(name, str) or not _FAISS_FILE.fullmatch(name):
            raise ValueError(f"a file name that is no FAISS file of the library: {name!r}")
        file = StoredFile(name, int(listed["size"]), str(listed["sha256"]))
    held = tuple((str(key), str(name), int(rows)) for key, name, rows in row.get("held", ()))
    if any(not _DATA_FILE.fullmatch(name) for _, name, _ in held):
        raise ValueError("the FAISS file is listed as holding a file that is no vectors file")
    return FaissListing(file, _optional(row.get("embedder")), held)


def _optional(value: object) -> str | None:
    return None if value is None else str(value)
