"""The vectors of a paper library: which embedder makes them, how they are stored, and how a
cosine of that embedder is read.

A library embeds each chunk once, when its paper is added, and stores the vectors with the
paper (``.npy``, no pickle), under the embedder's name: a reopened library embeds nothing, and
vectors of another model are never compared with this one's query (they are made again, once).

Cosines of different models live on different scales. all-MiniLM-L6-v2 scores an unrelated
pair near 0 and a paraphrase near 0.6; multilingual-e5 squeezes the same pairs into 0.72–0.90.
The claim-support model and its thresholds were fitted on MiniLM's scale, so a cosine of
another known model is first mapped onto it (:func:`on_support_scale`), by an affine map
fitted on training pairs by ``benchmarks/fit_cosine_scale.py``.

A library may also keep every paper's vectors in one FAISS index file (``PaperLibrary(faiss=True)``,
the ``faiss`` extra): :func:`faiss_bytes` builds it from the ``.npy`` matrices, exact (a flat
inner-product index of the unit vectors, so its scores are the cosines), and
:class:`FaissFile` searches it. The ``.npy`` files stay the truth; the FAISS file is written
again with them at every change of the library, in the same commit.
"""

from __future__ import annotations

import io
from bisect import bisect_right
from collections.abc import Sequence
from itertools import accumulate
from typing import TYPE_CHECKING, Any

from citecheck.embedders.scale import E5_TO_MINILM, embedder_name, on_support_scale
from citecheck.errors import MissingDependencyError, SavedIndexError
from citecheck.indexes.records import Hit

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

    from citecheck.protocols import Embedder

__all__ = [
    "E5_TO_MINILM",
    "FaissFile",
    "default_embedder",
    "embedder_name",
    "faiss_bytes",
    "from_npy",
    "import_faiss",
    "on_support_scale",
    "to_npy",
]


def default_embedder() -> Embedder | None:
    """The embedder a library uses when given none: the first installed of multilingual-e5
    (claims in any language), all-MiniLM-L6-v2 and its ONNX build, else ``None`` (search and
    checks by words only): :func:`citecheck.embedders.named.default_embedder`."""
    from citecheck.embedders.named import default_embedder as first_installed

    return first_installed()


def to_npy(matrix: npt.NDArray[np.float32]) -> bytes:
    """A float32 matrix as ``.npy`` bytes."""
    import numpy as np

    buffer = io.BytesIO()
    np.save(buffer, np.ascontiguousarray(matrix, dtype=np.float32), allow_pickle=False)
    return buffer.getvalue()


def from_npy(raw: bytes, rows: int | None) -> Any:
    """The matrix ``.npy`` bytes hold, checked to have ``rows`` rows (any number: ``None``)
    of float32."""
    import numpy as np

    try:
        matrix = np.load(io.BytesIO(raw), allow_pickle=False)
    except (ValueError, OSError) as exc:
        raise SavedIndexError(f"a vectors file is not a .npy matrix: {exc}") from None
    if (
        matrix.dtype != np.float32
        or matrix.ndim != 2
        or (rows is not None and matrix.shape[0] != rows)
    ):
        wanted = "float32 rows" if rows is None else f"{rows} float32 rows"
        raise SavedIndexError(f"a vectors file holds {matrix.dtype} {matrix.shape}, not {wanted}")
    return matrix


def import_faiss() -> Any:
    """The ``faiss`` module; :class:`~citecheck.errors.MissingDependencyError` naming the
    ``faiss`` extra when it is not installed."""
    try:
        import faiss
    except ImportError:
        raise MissingDependencyError("faiss-cpu", "faiss") from None
    return faiss


def faiss_bytes(matrices: Sequence[Any]) -> bytes:
    """One exact FAISS index (``IndexFlatIP``) of the rows of ``matrices`` in order, each row
    normalised to unit length so that its scores are cosines, as the bytes of a FAISS file."""
    import numpy as np

    faiss = import_faiss()
    vectors = np.ascontiguousarray(np.concatenate(matrices), dtype=np.float32)
    norms = np.linalg.norm(vectors, axis=1, keepdims=True)
    vectors /= np.where(norms > 0, norms, 1.0)
    index = faiss.IndexFlatIP(vectors.shape[1])
    index.add(vectors)
    return bytes(faiss.serialize_index(index))


class FaissFile:
    """A library's FAISS file, read: the vectors of the papers ``held`` (``(key, rows)``, in
    the file's order), searched exactly by inner product of unit vectors (a cosine). Its hits
    are the library's records, ``key#chunk``. Bytes that FAISS cannot read, or whose count or
    dimension are not those ``held`` and ``dimension`` say, are a
    :class:`~citecheck.errors.SavedIndexError` naming ``where``."""

    name = "faiss-file"

    def __init__(
        self, raw: bytes, held: Sequence[tuple[str, int]], dimension: int | None, where: str
    ) -> None:
        import numpy as np

        faiss = import_faiss()
        try:
            self._index = faiss.deserialize_index(np.frombuffer(raw, dtype=np.uint8))
        except RuntimeError as exc:
            raise SavedIndexError(f"{where}: cannot be read by FAISS: {exc}") from None
        self._keys = [key for key, _ in held]
        self._starts = [0, *accumulate(rows for _, rows in held)]
        total = self._starts[-1]
        if self._index.ntotal != total or (dimension is not None and self._index.d != dimension):
            raise SavedIndexError(
                f"{where}: holds {self._index.ntotal} vectors of dimension {self._index.d}, "
                f"not the {total} of dimension {dimension} the manifest lists: rebuild it with "
                "`citecheck papers reindex`"
            )

    def __len__(self) -> int:
        return int(self._index.ntotal)

    def search(self, vector: Sequence[float], k: int = 10) -> list[Hit]:
        """The ``k`` records closest to the unit ``vector``, closest first."""
        import numpy as np

        k = min(k, len(self))
        if k < 1:
            return []
        query = np.asarray(vector, dtype=np.float32).reshape(1, -1)
        scores, labels = self._index.search(query, k)
        hits = []
        for label, score in zip(labels[0].tolist(), scores[0].tolist(), strict=True):
            if label < 0:
                continue
            paper = bisect_right(self._starts, label) - 1
            key, chunk = self._keys[paper], label - self._starts[paper]
            hits.append(Hit(f"{key}#{chunk}", float(score), {"key": key, "chunk": chunk}))
        return hits
