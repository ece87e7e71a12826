"""Embeddings are computed once per (model, text): in memory, and optionally on disk.

The key is the model's name and the SHA-256 of the text, so a source that did not change is
never embedded again, across calls and (with a directory) across runs. The disk store is one
SQLite file of float32 vectors: no pickle, a vector either written whole or not at all, and
safe for several processes at once (write-ahead log, writers wait for each other up to
:data:`BUSY_SECONDS`). It is bounded: past ``max_disk_bytes`` the vectors used longest ago are
dropped (and embedded again if asked for), so a cache left on by default never fills a disk.
:func:`default_cache_dir` is where the command line keeps it.
"""

from __future__ import annotations

import hashlib
import os
import sqlite3
import sys
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Sequence
from contextlib import suppress
from os import PathLike
from pathlib import Path
from typing import TYPE_CHECKING, Any

from citecheck.errors import BackendError, ConfigError, MissingDependencyError
from citecheck.language.tokens import DEFAULT_MAX_TOKENS, TokenBudget, estimate_token_spans

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

    from citecheck.protocols import Embedder

__all__ = [
    "CachedEmbedder",
    "CachedModelEmbedder",
    "ModelCall",
    "as_matrix",
    "default_cache_dir",
    "embed_texts",
    "token_budget",
]

_DATABASE = "embeddings-v2.sqlite"
"""The store's file; ``embeddings-v1.sqlite`` (no use times, unbounded) is left as it is."""
BUSY_SECONDS = 30.0
"""How long a writer waits for another process's write before the store is said to fail."""
DEFAULT_MAX_DISK_BYTES = 1 << 30
"""The disk store's default bound: 1 GiB, about 650,000 vectors of 384 dimensions."""
_TRIM_TO = 0.9
"""A store past its bound is trimmed to this share of it, so it is not trimmed at every write."""


def default_cache_dir() -> Path | None:
    """Where the command line keeps embeddings between runs: ``CITECHECK_CACHE_DIR`` when set
    (empty, ``0``, ``off`` or ``none``: no disk cache), else the user's cache folder:
    ``$XDG_CACHE_HOME/citecheck`` or ``~/.cache/citecheck`` (``~/Library/Caches/citecheck`` on
    macOS, ``%LOCALAPPDATA%\\citecheck\\Cache`` on Windows)."""
    chosen = os.environ.get("CITECHECK_CACHE_DIR")
    if chosen is not None:
        if chosen.strip().lower() in ("", "0", "off", "none", "false"):
            return None
        return Path(chosen).expanduser()
    if sys.platform == "win32" and os.environ.get("LOCALAPPDATA"):
        return Path(os.environ["LOCALAPPDATA"]) / "citecheck" / "Cache"
    if sys.platform == "darwin":
        return Path.home() / "Library" / "Caches" / "citecheck"
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "citecheck"


def _numpy() -> Any:
    try:
        import numpy
    except ImportError:  # pragma: no cover - numpy is a core dependency
        raise MissingDependencyError("numpy", "embeddings") from None
    return numpy


def as_matrix(vectors: Any) -> npt.NDArray[np.float32]:
    """What an embedder returned (lists, an array, a tensor) as a float32 matrix, one row per
    text. A ragged or non-numeric answer is a :class:`~citecheck.errors.BackendError`: a
    broken embedder must not pass for a dissimilar text."""
    np = _numpy()
    try:
        matrix = np.asarray(vectors, dtype=np.float32)
    except (TypeError, ValueError) as exc:
        raise BackendError(f"the embedder returned something that is not vectors: {exc}") from exc
    if matrix.ndim == 1 and matrix.size == 0:
        return matrix.reshape(0, 0)  # type: ignore[no-any-return]
    if matrix.ndim != 2:
        raise BackendError(f"the embedder returned an array of shape {matrix.shape}, not a matrix")
    if not np.isfinite(matrix).all():
        raise BackendError("the embedder returned vectors with NaN or infinite values")
    return matrix  # type: ignore[no-any-return]


def _now() -> int:
    """A use time for the store: milliseconds since the epoch."""
    return time.time_ns() // 1_000_000


def _digest(text: str) -> bytes:
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).digest()


class CachedEmbedder:
    """Wraps any embedder so that each distinct text is embedded once.

    ``key`` names the model (vectors of different models never mix); ``directory``, when given,
    keeps the vectors on disk as well, so a second run over the same sources embeds nothing.
    The memory keeps the ``max_items`` vectors used last (200,000 of 384 dimensions take about
    300 MB), so a long-running service does not grow without bound; the disk keeps at most
    ``max_disk_bytes`` (``None``: no bound), dropping the vectors used longest ago. ``hits`` and
    ``misses`` count texts served from the cache and texts embedded; ``trimmed`` the vectors
    this process dropped from the disk to keep its bound.

    ``fold``, when given, maps a text to the form the model actually reads (its tokenizer's
    normaliser: lower case, accents and control characters gone): texts with the same form are
    the same input to the model, so they share one key and are embedded once. An uncased model's
    claim written in capitals and the source sentence it copies then cost one vector, not two.
    """

    def __init__(
        self,
        embedder: Embedder,
        key: str,
        directory: str | PathLike[str] | None = None,
        *,
        max_items: int = 200_000,
        max_disk_bytes: int | None = DEFAULT_MAX_DISK_BYTES,
        fold: Callable[[str], str] | None = None,
    ) -> None:
        if not key:
            raise ConfigError("a cache key (the model's name) is required")
        if max_items < 1:
            raise ConfigError(f"max_items must be positive, got {max_items}")
        if max_disk_bytes is not None and max_disk_bytes < 1:
            raise ConfigError(f"max_disk_bytes must be positive or None, got {max_disk_bytes}")
        self.max_items = max_items
        self.max_disk_bytes = max_disk_bytes
        self.trimmed = 0
        self.embedder = embedder
        self.key = key
        self.fold = fold
        self.directory = None if directory is None else Path(directory)
        self.hits = 0
        self.misses = 0
        self._memory: OrderedDict[bytes, Any] = OrderedDict()
        self._lock = threading.Lock()
        self._database: sqlite3.Connection | None = None

    # -- the Embedder protocol ----------------------------------------------------------------

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        result: list[list[float]] = self.embed_matrix(texts).tolist()
        return result

    def embed_query(self, text: str) -> list[float]:
        result: list[float] = self.embed_matrix([text])[0].tolist()
        return result

    # -- the fast path --------------------------------------------------------------------------

    def embed_matrix(self, texts: Sequence[str]) -> npt.NDArray[np.float32]:
        """The vectors of ``texts`` as one float32 matrix, embedding only the texts not seen
        before (each distinct text once, even when repeated in ``texts``)."""
        np = _numpy()
        fold = self.fold
        digests = [_digest(text if fold is None else fold(text)) for text in texts]
        with self._lock:
            found = {d: self._memory[d] for d in digests if d in self._memory}
            wanted = {d: t for d, t in zip(digests, texts, strict=True) if d not in found}
            if wanted and self.directory is not None:
                stored = self._read(list(wanted))
                found.update(stored)
                for digest in stored:
                    del wanted[digest]
            self.hits += len(texts) - len(wanted)
        if wanted:
            order = list(wanted)
            computed = as_matrix(self.embedder.embed_documents([wanted[d] for d in order]))
            if computed.shape[0] != len(order):
                raise BackendError(
                    f"the embedder returned {computed.shape[0]} vectors for {len(order)} texts"
                )
            fresh = dict(zip(order, computed, strict=True))
            with self._lock:
                self.misses += len(order)
                if self.directory is not None:
                    self._write(fresh)
                found.update(fresh)
        with self._lock:
            for digest in digests:
                self._memory[digest] = found[digest]
                self._memory.move_to_end(digest)
            while len(self._memory) > self.max_items:
                self._memory.popitem(last=False)
        if not digests:
            return np.zeros((0, 0), dtype=np.float32)  # type: ignore[no-any-return]
        return np.stack([found[d] for d in digests]).astype(np.float32, copy=False)  # type: ignore[no-any-return]

    # -- the disk store -------------------------------------------------------------------------

    def _connection(self) -> sqlite3.Connection:
        if self._database is None:
            assert self.directory is not None
            try:
                self.directory.mkdir(parents=True, exist_ok=True)
                database = sqlite3.connect(
                    self.directory / _DATABASE, timeout=BUSY_SECONDS, check_same_thread=False
                )
                with suppress(sqlite3.Error):  # a file system without shared memory keeps DELETE
                    database.execute("PRAGMA journal_mode=WAL")
                with database:
                    database.execute(
                        "CREATE TABLE IF NOT EXISTS vectors (model TEXT, digest BLOB, "
                        "vector BLOB, used INTEGER, PRIMARY KEY (model, digest))"
                    )
                    database.execute("CREATE INDEX IF NOT EXISTS vectors_used ON vectors (used)")
            except (OSError, sqlite3.Error) as exc:
                raise BackendError(
                    f"cannot use the embedding cache in {self.directory}: {exc}"
                ) from exc
            self._database = database
        return self._database

    def _read(self, digests: list[bytes]) -> dict[bytes, Any]:
        """The stored vectors of ``digests``, each marked as used now (the bound drops the
        vectors used longest ago)."""
        np = _numpy()
        database = self._connection()
        found: dict[bytes, Any] = {}
        try:
            for first in range(0, len(digests), 500):  # SQLite caps the number of parameters
                batch = digests[first : first + 500]
                rows = database.execute(
                    f"SELECT digest, vector FROM vectors WHERE model = ? AND digest IN "
                    f"({','.join('?' * len(batch))})",
                    [self.key, *batch],
                )
                for digest, blob in rows:
                    found[digest] = np.frombuffer(blob, dtype="<f4").astype(np.float32)
            if found and self.max_disk_bytes is not None:
                with database:
                    database.executemany(
                        "UPDATE vectors SET used = ? WHERE model = ? AND digest = ?",
                        [(_now(), self.key, d) for d in found],
                    )
        except sqlite3.Error as exc:
            raise BackendError(
                f"cannot read the embedding cache in {self.directory}: {exc}"
            ) from exc
        return found

    def _write(self, vectors: dict[bytes, Any]) -> None:
        database = self._connection()
        now = _now()
        try:
            with database:
                database.executemany(
                    "INSERT OR REPLACE INTO vectors VALUES (?, ?, ?, ?)",
                    [(self.key, d, v.astype("<f4").tobytes(), now) for d, v in vectors.items()],
                )
            if self.max_disk_bytes is not None:
                self._trim(database, self.max_disk_bytes)
        except sqlite3.Error as exc:
            raise BackendError(
                f"cannot write the embedding cache in {self.directory}: {exc}"
            ) from exc

    def _trim(self, database: sqlite3.Connection, bound: int) -> None:
        """Drop the vectors used longest ago (of any model) while the pages in use exceed
        ``bound``: to :data:`_TRIM_TO` of it, rows estimated from the mean row's share."""
        page_size = database.execute("PRAGMA page_size").fetchone()[0]
        pages, free = (
            database.execute("PRAGMA page_count").fetchone()[0],
            database.execute("PRAGMA freelist_count").fetchone()[0],
        )
        used_bytes = (pages - free) * page_size
        if used_bytes <= bound:
            return
        rows = database.execute("SELECT COUNT(*) FROM vectors").fetchone()[0]
        if not rows:
            return
        excess = used_bytes - bound * _TRIM_TO
        drop = min(rows, max(1, int(rows * excess / used_bytes) + 1))
        with database:
            database.execute(
                "DELETE FROM vectors WHERE rowid IN "
                "(SELECT rowid FROM vectors ORDER BY used LIMIT ?)",
                (drop,),
            )
        self.trimmed += drop

    def close(self) -> None:
        """Close the disk store (it reopens when needed)."""
        with self._lock:
            if self._database is not None:
                self._database.close()
                self._database = None


class ModelCall:
    """What a cache calls on a miss: the model itself, through ``encode`` (texts to one
    matrix of vectors), uncached. It makes a model's encoding function an embedder."""

    def __init__(self, encode: Callable[[list[str]], Any]) -> None:
        self.encode = encode

    def embed_documents(self, texts: list[str]) -> Any:
        return self.encode(texts)

    def embed_query(self, text: str) -> Any:
        return self.encode([text])[0]


class CachedModelEmbedder:
    """The Embedder protocol over :attr:`cache`, each distinct text embedded once: what the
    embedders citecheck ships share. A subclass sets ``cache`` to a :class:`CachedEmbedder`
    over its model (a :class:`ModelCall`)."""

    cache: CachedEmbedder

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        return self.cache.embed_documents(texts)

    def embed_query(self, text: str) -> list[float]:
        return self.cache.embed_query(text)

    def embed_matrix(self, texts: Sequence[str]) -> npt.NDArray[np.float32]:
        """The vectors of ``texts`` as one float32 matrix (the fast path citecheck uses)."""
        return self.cache.embed_matrix(texts)


def embed_texts(embedder: Embedder, texts: Sequence[str]) -> npt.NDArray[np.float32]:
    """The vectors of ``texts`` from any embedder, as one float32 matrix: through its
    ``embed_matrix`` fast path when it has one, else through ``embed_documents``."""
    fast = getattr(embedder, "embed_matrix", None)
    try:
        vectors = fast(texts) if callable(fast) else embedder.embed_documents(list(texts))
    except (BackendError, MissingDependencyError):
        raise
    except Exception as exc:  # a remote embedder's network error, a model's runtime error
        raise BackendError(f"the embedder failed: {type(exc).__name__}: {exc}") from exc
    matrix = as_matrix(vectors)
    if len(texts) and matrix.shape[0] != len(texts):
        raise BackendError(
            f"the embedder returned {matrix.shape[0]} vectors for {len(texts)} texts"
        )
    return matrix


def token_budget(embedder: Embedder) -> TokenBudget:
    """How much of a text ``embedder`` reads (:class:`~citecheck.language.tokens.TokenBudget`), from
    its optional ``max_tokens`` and ``token_spans`` (see :class:`~citecheck.protocols.
    TokenLimited`; a :class:`CachedEmbedder` answers for the embedder it wraps).

    An embedder that does not say is taken to read
    :data:`~citecheck.language.tokens.DEFAULT_MAX_TOKENS` tokens, and one with no ``token_spans`` is
    measured with :func:`~citecheck.language.tokens.estimate_token_spans`, which overcounts: texts
    are then cut finer than needed, never longer than the model reads."""
    inner: object = embedder
    while isinstance(inner, CachedEmbedder):  # a cache may wrap a cache (records, matchers)
        inner = inner.embedder
    limit = getattr(inner, "max_tokens", None)
    spans = getattr(inner, "token_spans", None)
    return TokenBudget(
        DEFAULT_MAX_TOKENS if limit is None else limit,
        spans if callable(spans) else estimate_token_spans,
    )
