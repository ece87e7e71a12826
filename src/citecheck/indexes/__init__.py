"""Vector indexes behind one protocol (:class:`citecheck.protocols.Index`): ``"memory"``
(numpy, exact), ``"faiss"`` (extra ``faiss``) and ``"pinecone"`` (extra ``pinecone``).

Backends load when first used, so importing this package pulls in no numpy, FAISS or Pinecone;
``from citecheck.indexes import FaissIndex`` (or ``MemoryIndex``, ``PineconeIndex``) imports
that backend then.
``citecheck.registry.create("indexes", "memory", dimension=384)`` builds one by name.
"""

from citecheck.indexes.filters import Filter, check_filter, matches
from citecheck.indexes.records import Hit, MetadataValue, Record

__all__ = [
    "FaissIndex",
    "Filter",
    "Hit",
    "MemoryIndex",
    "MetadataValue",
    "PineconeIndex",
    "Record",
    "check_filter",
    "matches",
]

_BACKENDS = {
    "FaissIndex": "citecheck.indexes.faiss",
    "MemoryIndex": "citecheck.indexes.memory",
    "PineconeIndex": "citecheck.indexes.pinecone",
}
"""The backends, imported when first asked for (``from citecheck.indexes import FaissIndex``):
each module loads its library (numpy, FAISS, the Pinecone SDK) only when an index is built."""


def __getattr__(name: str) -> object:
    if name in _BACKENDS:
        from importlib import import_module

        return getattr(import_module(_BACKENDS[name]), name)
    raise AttributeError(f"module 'citecheck.indexes' has no attribute {name!r}")
