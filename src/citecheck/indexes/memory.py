"""An exact index in process memory: numpy, cosine or dot product, nothing to install.

The right choice up to a few hundred thousand chunks: search is one matrix product, so 100k
384-d vectors answer in milliseconds (see ``docs/benchmarks.md``). Filters are evaluated in
Python per record, so a filtered search costs more on a large index than an unfiltered one.

One index may be shared by threads: every method takes the index's lock, so a search while
another thread upserts sees the index before or after that upsert, never half of it.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from citecheck.errors import ConfigError, InputError, SavedIndexError
from citecheck.indexes.filters import Filter, check_filter, matches
from citecheck.indexes.records import (
    METRICS,
    Hit,
    MetadataValue,
    Record,
    check_count,
    check_ids,
    check_k,
    check_records,
    check_vector,
    copy_metadata,
)
from citecheck.indexes.saved import read_saved, reading, write_saved

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

__all__ = ["MemoryIndex"]

_FORMAT = "citecheck-memory-index"
_VECTORS = "vectors.npy"


class MemoryIndex:
    """Exact nearest-neighbour search over vectors kept in a numpy matrix.

    ``metric`` is ``"cosine"`` (scores in [-1, 1]) or ``"dotproduct"``; ``dimension`` is fixed
    by the first upsert when not given. ``save`` and ``load`` keep it in a directory (a JSON
    manifest with each file's size and SHA-256, the vectors as ``.npy``, the metadata as JSON
    lines; no pickle), saved atomically and checked on load (:mod:`citecheck.indexes.saved`).
    """

    name = "memory"

    def __init__(self, dimension: int | None = None, metric: str = "cosine") -> None:
        import numpy as np

        if metric not in METRICS:
            raise ConfigError(f"metric must be one of {METRICS}, got {metric!r}")
        if dimension is not None:
            check_count("dimension", dimension)
        self.dimension = dimension
        self.metric = metric
        self._ids: list[str] = []
        self._rows: dict[str, int] = {}
        self._metadata: list[dict[str, MetadataValue]] = []
        self._vectors: NDArray[np.float32] = np.zeros((0, dimension or 0), dtype=np.float32)
        self._norms: NDArray[np.float32] = np.zeros(0, dtype=np.float32)
        self._lock = threading.RLock()

    def __repr__(self) -> str:
        return (
            f"MemoryIndex(dimension={self.dimension}, metric={self.metric!r}, count={self.count()})"
        )

    def _upsert(
        self, records: Iterable[Record | tuple[str, Sequence[float], Mapping[str, Any]]]
    ) -> int:
        import numpy as np

        ids, matrix, metadata = check_records(records, self.dimension)
        if not ids:
            return 0
        if self.dimension is None:
            self.dimension = matrix.shape[1]
            self._vectors = np.zeros((0, self.dimension), dtype=np.float32)
        fresh = [i for i, rid in enumerate(ids) if rid not in self._rows]
        for i, rid in enumerate(ids):
            row = self._rows.get(rid)
            if row is not None:
                self._vectors[row] = matrix[i]
                self._norms[row] = np.linalg.norm(matrix[i])
                self._metadata[row] = metadata[i]
        if fresh:
            start = len(self._ids)
            self._vectors = np.concatenate([self._vectors, matrix[fresh]])
            self._norms = np.concatenate([self._norms, np.linalg.norm(matrix[fresh], axis=1)])
            for offset, i in enumerate(fresh):
                self._rows[ids[i]] = start + offset
                self._ids.append(ids[i])
                self._metadata.append(metadata[i])
        return len(ids)

    def _search(
        self, vector: Sequence[float], k: int = 10, filter: Filter | None = None
    ) -> list[Hit]:
        import numpy as np

        k = check_k(k)
        if filter is not None:
            check_filter(filter)
        if self.dimension is None:
            check_vector(vector, None, "query")
            return []
        query = check_vector(vector, self.dimension, "query")
        scores = self._vectors @ query
        if self.metric == "cosine":
            scores = scores / (self._norms * np.linalg.norm(query))
        rows = np.arange(len(self._ids))
        if filter is not None:
            keep = [row for row in rows if matches(self._metadata[row], filter)]
            rows = np.asarray(keep, dtype=np.int64)
            scores = scores[rows]
        order = np.argsort(-scores, kind="stable")[:k]
        return [
            Hit(self._ids[rows[i]], float(scores[i]), copy_metadata(self._metadata[rows[i]]))
            for i in order
        ]

    def _fetch(self, ids: Iterable[str]) -> dict[str, Record]:
        found = {}
        for rid in check_ids(ids):
            row = self._rows.get(rid)
            if row is not None:
                vector = [float(v) for v in self._vectors[row]]
                found[rid] = Record(rid, vector, copy_metadata(self._metadata[row]))
        return found

    def _delete(self, ids: Iterable[str] | None = None, *, filter: Filter | None = None) -> None:
        if (ids is None) == (filter is None):
            raise InputError("delete needs either ids or a filter, not both and not neither")
        if filter is not None:
            check_filter(filter)
            pairs = zip(self._ids, self._metadata, strict=True)
            doomed = [rid for rid, meta in pairs if matches(meta, filter)]
        else:
            doomed = [rid for rid in check_ids(ids or ()) if rid in self._rows]
        for rid in doomed:
            self._remove(rid)

    def _remove(self, rid: str) -> None:
        """Move the last row into the hole: deleting stays O(1) per record."""
        row = self._rows.pop(rid)
        last = len(self._ids) - 1
        if row != last:
            moved = self._ids[last]
            self._ids[row] = moved
            self._metadata[row] = self._metadata[last]
            self._vectors[row] = self._vectors[last]
            self._norms[row] = self._norms[last]
            self._rows[moved] = row
        self._ids.pop()
        self._metadata.pop()
        self._vectors = self._vectors[:last]
        self._norms = self._norms[:last]

    def count(self) -> int:
        return len(self._ids)

    # -- the protocol, under the lock ----------------------------------------------------------

    def upsert(
        self, records: Iterable[Record | tuple[str, Sequence[float], Mapping[str, Any]]]
    ) -> int:
        with self._lock:
            return self._upsert(records)

    def search(
        self, vector: Sequence[float], k: int = 10, filter: Filter | None = None
    ) -> list[Hit]:
        with self._lock:
            return self._search(vector, k, filter)

    def fetch(self, ids: Iterable[str]) -> dict[str, Record]:
        with self._lock:
            return self._fetch(ids)

    def delete(self, ids: Iterable[str] | None = None, *, filter: Filter | None = None) -> None:
        with self._lock:
            self._delete(ids, filter=filter)

    def save(self, directory: str | os.PathLike[str]) -> None:
        """Write the index to ``directory`` (created if needed), atomically: a save that fails
        or is killed half way leaves the index saved there before as it was."""
        import numpy as np

        with self._lock:  # a copy of the index as it stands, written outside the lock
            vectors = self._vectors.copy()
            listed = list(zip(self._ids, [dict(m) for m in self._metadata], strict=True))
            count = self.count()
        rows = ({"id": rid, "metadata": meta} for rid, meta in listed)
        manifest = {
            "format": _FORMAT,
            "dimension": self.dimension,
            "metric": self.metric,
            "count": count,
        }
        write_saved(
            Path(directory),
            manifest,
            rows,
            {_VECTORS: lambda sink: np.save(sink, vectors, allow_pickle=False)},
        )

    @classmethod
    def load(cls, directory: str | os.PathLike[str]) -> MemoryIndex:
        """The index saved in ``directory``; a missing, changed or inconsistent file is a
        :class:`~citecheck.errors.SavedIndexError` naming it."""
        import numpy as np

        path = Path(directory)
        manifest, rows, files = read_saved(path, "MemoryIndex", _FORMAT, (_VECTORS,))
        with reading(path):
            vectors = np.load(files[_VECTORS], allow_pickle=False)
            if len(rows) != len(vectors) or len(rows) != manifest["count"]:
                raise SavedIndexError(f"{path}: {len(rows)} records for {len(vectors)} vectors")
            index = cls(manifest["dimension"], manifest["metric"])
            pairs = zip(rows, vectors, strict=True)
            index.upsert((row["id"], vector, row["metadata"]) for row, vector in pairs)
        return index
