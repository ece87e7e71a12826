"""A FAISS index: exact by default, an HNSW graph for large corpora (extra ``faiss``).

Vectors live in FAISS under int64 labels handed out in order and never reused; ids, metadata
and lengths stay beside them in Python. Deleting or replacing a record only marks its label
dead (an HNSW graph cannot drop a node); dead labels are left out of every search by a FAISS
ID selector, and once a quarter of the stored vectors are dead the index is rebuilt from the
live ones. Filters are evaluated in Python to a bitmap of passing labels, so FAISS ranks only
records that pass: the top ``k`` are the best passing records, not what survives a
post-filter. Evaluating a filter visits every record in Python (2-3 s per million on 2 cores);
the last few filters' bitmaps are kept until the next write, so a filter repeated over many
queries (one document's chunks) is evaluated once and costs milliseconds after that.
"""

from __future__ import annotations

import json
import math
import os
from collections import OrderedDict
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from citecheck.errors import ConfigError, InputError, MissingDependencyError, SavedIndexError
from citecheck.indexes.filters import Filter, check_filter, matches
from citecheck.indexes.records import (
    METRICS,
    Hit,
    MetadataValue,
    Record,
    check_count,
    check_ids,
    check_k,
    check_metadata,
    check_records,
    check_vector,
    copy_metadata,
)
from citecheck.indexes.saved import read_saved, reading, write_saved

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

__all__ = ["FaissIndex"]

_FORMAT = "citecheck-faiss-index"
_VECTORS = "vectors.faiss"
_COMPACT_SHARE = 0.25  # rebuild once this share of the stored vectors is dead
_GRAPH_MIN_SHARE = 0.5  # the graph is trusted only when at least this share of records pass
_CACHED_FILTERS = 16


def _import_faiss() -> Any:
    try:
        import faiss
    except ImportError:
        raise MissingDependencyError("faiss-cpu", "faiss") from None
    return faiss


class FaissIndex:
    """Nearest-neighbour search with FAISS: exact (flat) by default, HNSW when ``approximate``.

    ``metric`` is ``"cosine"`` (vectors are normalised and compared by inner product; scores in
    [-1, 1]) or ``"dotproduct"``; ``dimension`` is fixed by the first upsert when not given.

    ``approximate=True`` searches an HNSW graph (``IndexHNSWFlat``): ``m`` links per node
    (32; more is better recall for more memory and build time), ``ef_construction`` (40, FAISS'
    default) candidates while linking, ``ef_search`` (128) candidates while searching, the knob
    that trades speed for recall. On 1M clustered 384-d vectors these defaults give recall@10
    of 0.965 at 300x the speed of exact search, after a build of 3 minutes on 2 cores
    (``docs/benchmarks.md``); on 200k, ``ef_construction=80`` lifted recall from 0.98 to 0.999
    for 2.3x the build time. A search that can return at most ``exact_up_to`` records (a small
    index or a selective filter), or whose filter passes fewer than half the stored records,
    scans those records exactly instead: the graph's recall collapses when a filter excludes the
    query's neighbourhood, and the exact scan scores only the records that pass, so it costs in
    proportion to them. So does a graph search that finds fewer than ``k`` passing records.
    Rebuilding after many deletes costs as much as building the graph again.

    ``save`` and ``load`` keep the index in a directory (``faiss.write_index`` for the vectors,
    a JSON manifest with each file's size and SHA-256, metadata as JSON lines; no pickle), saved
    atomically and checked on load (:mod:`citecheck.indexes.saved`).
    """

    name = "faiss"

    def __init__(
        self,
        dimension: int | None = None,
        metric: str = "cosine",
        *,
        approximate: bool = False,
        m: int = 32,
        ef_construction: int = 40,
        ef_search: int = 128,
        exact_up_to: int = 10_000,
    ) -> None:
        import numpy as np

        self._faiss = _import_faiss()
        if metric not in METRICS:
            raise ConfigError(f"metric must be one of {METRICS}, got {metric!r}")
        if dimension is not None:
            check_count("dimension", dimension)
        if not isinstance(approximate, bool):
            raise ConfigError(f"approximate must be True or False, got {approximate!r}")
        self.dimension = dimension
        self.metric = metric
        self.approximate = approximate
        self.m = check_count("m", m, 2)
        self.ef_construction = check_count("ef_construction", ef_construction)
        self.ef_search = check_count("ef_search", ef_search)
        self.exact_up_to = check_count("exact_up_to", exact_up_to, 0)
        self._graph: Any = None  # the IndexHNSWFlat when approximate
        self._flat: Any = None  # the vectors by label: the flat index, or the graph's storage
        self._ids: list[str | None] = []  # by label; None once dead
        self._metadata: list[dict[str, MetadataValue] | None] = []
        self._labels: dict[str, int] = {}
        self._scales: NDArray[np.float32] = np.zeros(0, dtype=np.float32)
        self._live: NDArray[np.bool_] = np.zeros(0, dtype=bool)
        self._selections: OrderedDict[str, tuple[NDArray[np.uint8], int]] = OrderedDict()
        if dimension is not None:
            self._create(dimension)

    def __repr__(self) -> str:
        kind = "hnsw" if self.approximate else "flat"
        return (
            f"FaissIndex(dimension={self.dimension}, metric={self.metric!r}, kind={kind!r}, "
            f"count={self.count()})"
        )

    @property
    def _index(self) -> Any:
        """The FAISS index vectors are added to and saved from: the graph, or the flat index."""
        return self._flat if self._graph is None else self._graph

    @property
    def _parameters(self) -> dict[str, int]:
        return {
            "m": self.m,
            "ef_construction": self.ef_construction,
            "ef_search": self.ef_search,
            "exact_up_to": self.exact_up_to,
        }

    def _create(self, dimension: int) -> None:
        """Empty FAISS structures of ``dimension``, by inner product (cosine after normalising)."""
        faiss = self._faiss
        self.dimension = dimension
        if self.approximate:
            self._graph = faiss.IndexHNSWFlat(dimension, self.m, faiss.METRIC_INNER_PRODUCT)
            self._graph.hnsw.efConstruction = self.ef_construction
            self._flat = faiss.downcast_index(self._graph.storage)
        else:
            self._graph = None
            self._flat = faiss.IndexFlatIP(dimension)

    # -- writing ------------------------------------------------------------------------------

    def upsert(
        self, records: Iterable[Record | tuple[str, Sequence[float], Mapping[str, Any]]]
    ) -> int:
        import numpy as np

        ids, matrix, metadata = check_records(records, self.dimension)
        if not ids:
            return 0
        if self.dimension is None:
            self._create(matrix.shape[1])
        vectors, scales = self._normalised(matrix)
        self._bury([self._labels[rid] for rid in ids if rid in self._labels])
        start = len(self._ids)
        self._index.add(vectors)
        self._ids.extend(ids)
        self._metadata.extend(metadata)
        self._scales = np.concatenate([self._scales, scales])
        self._live = np.concatenate([self._live, np.ones(len(ids), dtype=bool)])
        self._labels.update(zip(ids, range(start, start + len(ids)), strict=True))
        self._selections.clear()
        self._compact_if_sparse()
        return len(ids)

    def _normalised(
        self, matrix: NDArray[np.float32]
    ) -> tuple[NDArray[np.float32], NDArray[np.float32]]:
        """The vectors FAISS stores and the lengths that give the written vectors back."""
        import numpy as np

        if self.metric == "dotproduct":
            return np.ascontiguousarray(matrix), np.ones(len(matrix), dtype=np.float32)
        norms = np.linalg.norm(matrix, axis=1).astype(np.float32)
        return np.ascontiguousarray(matrix / norms[:, None]), norms

    def delete(self, ids: Iterable[str] | None = None, *, filter: Filter | None = None) -> None:
        if (ids is None) == (filter is None):
            raise InputError("delete needs either ids or a filter, not both and not neither")
        if filter is not None:
            doomed = self._matching(check_filter(filter))
        else:
            doomed = [self._labels[rid] for rid in set(check_ids(ids or ())) if rid in self._labels]
        self._bury(doomed)
        self._compact_if_sparse()

    def _bury(self, labels: list[int]) -> None:
        """Mark ``labels`` dead: searches skip them, and no record answers to them any more."""
        if not labels:
            return
        for label in labels:
            del self._labels[self._ids[label]]  # type: ignore[arg-type]
            self._ids[label] = None
            self._metadata[label] = None
        self._live[labels] = False
        self._selections.clear()

    def _compact_if_sparse(self) -> None:
        """Rebuild from the live vectors once many are dead: dead ones cost memory and time,
        and a graph whose results are mostly filtered out finds fewer true neighbours."""
        import numpy as np

        dead = len(self._ids) - len(self._labels)
        if dead == 0 or dead < _COMPACT_SHARE * len(self._ids):
            return
        keep = np.flatnonzero(self._live)
        vectors = self._flat.reconstruct_batch(keep) if keep.size else None
        self._create(self.dimension)  # type: ignore[arg-type]
        if vectors is not None:
            self._index.add(vectors)
        self._ids = [self._ids[label] for label in keep]
        self._metadata = [self._metadata[label] for label in keep]
        self._scales = self._scales[keep]
        self._live = np.ones(len(keep), dtype=bool)
        self._labels = {rid: label for label, rid in enumerate(self._ids)}  # type: ignore[misc]
        self._selections.clear()

    # -- reading ------------------------------------------------------------------------------

    def search(
        self, vector: Sequence[float], k: int = 10, filter: Filter | None = None
    ) -> list[Hit]:
        k = check_k(k)
        if filter is not None:
            check_filter(filter)
        query = check_vector(vector, self.dimension, "query")
        if not self._labels:
            return []
        bitmap, passing = self._selection(filter)
        if passing == 0:
            return []
        if self.metric == "cosine":
            query = query / query.dot(query) ** 0.5
        labels, scores = self._nearest(query, min(k, passing), bitmap, passing)
        return [
            Hit(self._ids[label], float(score), copy_metadata(self._metadata[label]))
            for label, score in zip(labels.tolist(), scores.tolist(), strict=True)
        ]

    def _selection(self, filter: Filter | None) -> tuple[NDArray[np.uint8] | None, int]:
        """A bitmap of the live labels passing ``filter`` (``None``: all pass, none dead) and how
        many pass; recent filters' bitmaps are reused until the next write."""
        import numpy as np

        if filter is None and len(self._labels) == len(self._ids):
            return None, len(self._labels)
        key = "" if filter is None else json.dumps(filter, sort_keys=True, default=dict)
        if key in self._selections:
            self._selections.move_to_end(key)
            return self._selections[key]
        if filter is None:
            passing = self._live
        else:
            passing = np.zeros(len(self._ids), dtype=bool)
            passing[self._matching(filter)] = True
        selection = np.packbits(passing, bitorder="little"), int(np.count_nonzero(passing))
        self._selections[key] = selection
        if len(self._selections) > _CACHED_FILTERS:
            self._selections.popitem(last=False)
        return selection

    def _matching(self, filter: Filter) -> list[int]:
        """The live labels whose metadata passes ``filter``."""
        return [
            label
            for label, metadata in enumerate(self._metadata)
            if metadata is not None and matches(metadata, filter)
        ]

    def _nearest(
        self, query: NDArray[np.float32], k: int, bitmap: NDArray[np.uint8] | None, passing: int
    ) -> tuple[NDArray[np.int64], NDArray[np.float32]]:
        """Labels and scores of the best ``k`` among ``passing`` records (``k <= passing``):
        from the graph when it can be trusted and finds ``k``, else by an exact scan."""
        faiss = self._faiss
        selector = None
        if bitmap is not None:
            selector = faiss.IDSelectorBitmap(len(bitmap), faiss.swig_ptr(bitmap))
        stored = len(self._ids)
        if (
            self._graph is not None
            and passing > self.exact_up_to
            and passing >= _GRAPH_MIN_SHARE * stored
        ):
            # Dead or filtered labels take room among the candidates: widen the beam to match.
            params = faiss.SearchParametersHNSW(
                efSearch=math.ceil(max(self.ef_search, k) * stored / passing)
            )
            if selector is not None:
                params.sel = selector
            scores, labels = self._graph.search(query[None], k, params=params)
            if (labels[0] >= 0).all():
                return labels[0], scores[0]
        params = faiss.SearchParameters()
        if selector is not None:
            params.sel = selector
        scores, labels = self._flat.search(query[None], k, params=params)
        found = labels[0] >= 0
        return labels[0][found], scores[0][found]

    def fetch(self, ids: Iterable[str]) -> dict[str, Record]:
        import numpy as np

        wanted = {rid: self._labels[rid] for rid in check_ids(ids) if rid in self._labels}
        if not wanted:
            return {}
        labels = np.fromiter(wanted.values(), dtype=np.int64, count=len(wanted))
        vectors = self._flat.reconstruct_batch(labels) * self._scales[labels, None]
        return {
            rid: Record(rid, vector, copy_metadata(self._metadata[label]))  # type: ignore[arg-type]
            for (rid, label), vector in zip(wanted.items(), vectors.tolist(), strict=True)
        }

    def count(self) -> int:
        return len(self._labels)

    # -- persistence --------------------------------------------------------------------------

    def save(self, directory: str | os.PathLike[str]) -> None:
        """Write the index to ``directory`` (created if needed), atomically: a save that fails
        or is killed half way leaves the index saved there before as it was.

        Dead labels are kept as they are, so saving never rebuilds a graph.
        """
        faiss = self._faiss
        index = self._index
        rows = (
            {
                "id": rid,
                "label": label,
                "scale": float(self._scales[label]),
                "metadata": self._metadata[label],
            }
            for label, rid in enumerate(self._ids)
            if rid is not None
        )
        manifest = {
            "format": _FORMAT,
            "dimension": self.dimension,
            "metric": self.metric,
            "kind": "hnsw" if self.approximate else "flat",
            "parameters": self._parameters,
            "count": self.count(),
            "stored": len(self._ids),
        }
        files = {}
        if self._flat is not None:
            files[_VECTORS] = lambda sink: faiss.write_index(
                index, faiss.PyCallbackIOWriter(sink.write)
            )
        write_saved(Path(directory), manifest, rows, files)

    @classmethod
    def load(cls, directory: str | os.PathLike[str]) -> FaissIndex:
        """The index saved in ``directory``; a missing, changed, foreign or inconsistent file
        is a :class:`~citecheck.errors.SavedIndexError` naming it."""
        path = Path(directory)
        manifest, rows, files = read_saved(path, "FaissIndex", _FORMAT, (_VECTORS,))
        with reading(path):
            index = cls(
                manifest["dimension"],
                manifest["metric"],
                approximate={"flat": False, "hnsw": True}[manifest["kind"]],
                **manifest["parameters"],
            )
            index._restore(path, manifest, rows, files)
        return index

    def _restore(
        self, path: Path, manifest: dict[str, Any], rows: list[Any], files: dict[str, Path]
    ) -> None:
        """Take over the saved vectors and records after checking they agree with the manifest."""
        import numpy as np

        stored = manifest["stored"]
        if len(rows) != manifest["count"] or not isinstance(stored, int) or stored < len(rows):
            raise SavedIndexError(
                f"{path}: {len(rows)} records, the manifest says {manifest['count']}"
            )
        if self.dimension is not None:
            self._adopt_vectors(files[_VECTORS], stored)
        elif stored:
            raise SavedIndexError(f"{path}: {stored} vectors stored without a dimension")
        self._ids = [None] * stored
        self._metadata = [None] * stored
        self._scales = np.zeros(stored, dtype=np.float32)
        self._live = np.zeros(stored, dtype=bool)
        for row in rows:
            label = row["label"]
            if not isinstance(label, int) or not 0 <= label < stored or self._live[label]:
                raise SavedIndexError(f"{path}: record {row['id']!r} has a bad or repeated label")
            [rid] = check_ids([row["id"]])
            if rid in self._labels:
                raise SavedIndexError(f"{path}: record {rid!r} is saved twice")
            self._ids[label] = rid
            self._metadata[label] = check_metadata(row["metadata"], f"{path}: record {rid!r}")
            self._scales[label] = row["scale"]
            self._live[label] = True
            self._labels[rid] = label

    def _adopt_vectors(self, file: Path, stored: int) -> None:
        """Read the saved vectors in place of the empty structures, if they are what was saved."""
        faiss = self._faiss
        try:
            loaded = faiss.read_index(str(file))
        except RuntimeError as exc:
            raise SavedIndexError(f"{file}: cannot be read by FAISS: {exc}") from None
        expected = faiss.IndexHNSWFlat if self.approximate else faiss.IndexFlat
        agrees = (
            isinstance(loaded, expected)
            and loaded.d == self.dimension
            and loaded.metric_type == faiss.METRIC_INNER_PRODUCT
            and loaded.ntotal == stored
            and (
                not self.approximate
                or (loaded.hnsw.nb_neighbors(1), loaded.hnsw.efConstruction)
                == (self.m, self.ef_construction)
            )
        )
        if not agrees:
            raise SavedIndexError(f"{file}: the vectors do not match the manifest")
        self._graph = loaded if self.approximate else None
        self._flat = faiss.downcast_index(loaded.storage) if self.approximate else loaded
