"""Vector indexes behind one protocol (:class:`citecheck.protocols.Index`): ``"memory"``
(numpy, exact), ``"faiss"`` (extra ``faiss``) and ``"pinecone"`` (extra ``pinecone``).

Backends load when first used, so importing this package pulls in no numpy, FAISS or Pinecone.
``citecheck.registry.create("indexes", "memory", dimension=384)`` builds one by name.
"""

from citecheck.indexes.filters import Filter, check_filter, matches
from citecheck.indexes.records import Hit, MetadataValue, Record

__all__ = ["Filter", "Hit", "MetadataValue", "Record", "check_filter", "matches"]
