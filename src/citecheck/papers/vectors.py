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
"""

from __future__ import annotations

import io
from typing import TYPE_CHECKING, Any

from citecheck.embedders.scale import E5_TO_MINILM, embedder_name, on_support_scale
from citecheck.errors import SavedIndexError

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

    from citecheck.protocols import Embedder

__all__ = [
    "E5_TO_MINILM",
    "default_embedder",
    "embedder_name",
    "from_npy",
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


def from_npy(raw: bytes, rows: int) -> Any:
    """The matrix ``.npy`` bytes hold, checked to have ``rows`` rows of float32."""
    import numpy as np

    try:
        matrix = np.load(io.BytesIO(raw), allow_pickle=False)
    except (ValueError, OSError) as exc:
        raise SavedIndexError(f"a vectors file is not a .npy matrix: {exc}") from None
    if matrix.dtype != np.float32 or matrix.ndim != 2 or matrix.shape[0] != rows:
        raise SavedIndexError(
            f"a vectors file holds {matrix.dtype} {matrix.shape}, not {rows} float32 rows"
        )
    return matrix
