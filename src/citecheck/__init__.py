"""citecheck: verify that citations point at real sources, real places, and real words.

>>> import citecheck
>>> report = citecheck.verify('"The sky is blue" [[doc:L1]]', {"doc": "The sky is blue."})
>>> report.passed
True
"""

from citecheck import _moved
from citecheck._api import extract, locate, verify, verify_quotes
from citecheck._version import __version__
from citecheck.documents import Document, Page, Section, Segment, split_sources
from citecheck.documents.files import load_paths
from citecheck.errors import (
    BackendError,
    CitecheckError,
    ConfigError,
    InputError,
    LocationError,
    LocationKindError,
    MissingDependencyError,
    SourceError,
    StructureMapError,
    UnknownBackendError,
)
from citecheck.indexes.corpus import Corpus
from citecheck.locations import Location
from citecheck.model import Citation, Evidence, Result, Span, Status
from citecheck.records import validate_records, verify_records
from citecheck.references import evaluate_dataset, verify_references
from citecheck.report import Report
from citecheck.verification.verifier import Verifier

__all__ = [
    "BackendError",
    "Citation",
    "CitecheckError",
    "ConfigError",
    "Corpus",
    "Document",
    "Evidence",
    "InputError",
    "Location",
    "LocationError",
    "LocationKindError",
    "MissingDependencyError",
    "Page",
    "PaperLibrary",
    "Report",
    "Result",
    "Section",
    "Segment",
    "SourceError",
    "Span",
    "Status",
    "StructureMapError",
    "UnknownBackendError",
    "Verifier",
    "__version__",
    "evaluate_dataset",
    "extract",
    "load_paths",
    "locate",
    "split_sources",
    "validate_records",
    "verify",
    "verify_api_citations",
    "verify_quotes",
    "verify_records",
    "verify_references",
]


def __getattr__(name: str) -> object:
    """:class:`PaperLibrary` and :func:`verify_api_citations` are imported when first asked
    for: they bring the paper readers, the sentence chunking and the API response readers,
    which ``import citecheck`` does not need."""
    if name == "PaperLibrary":
        from citecheck.papers import PaperLibrary

        return PaperLibrary
    if name == "verify_api_citations":
        from citecheck.api_citations import verify_api_citations

        return verify_api_citations
    raise AttributeError(f"module 'citecheck' has no attribute {name!r}")


_moved.install()  # the old module names, for one release
