"""The exception tree.

Every error citecheck raises on purpose derives from :class:`CitecheckError`, so callers can
catch one class. Subclasses also derive from the matching built-in exception, so code written
against ``ValueError`` or ``ImportError`` keeps working::

    CitecheckError
    ├── InputError (ValueError)             something the caller passed is malformed
    │   ├── LocationError                   a location that cannot be parsed or does not exist
    │   │   └── LocationKindError           the source has no pages / sections / timings at all
    │   ├── SourceError                     sources that are not text, duplicate document ids, …
    │   │   ├── PaperFileError              a file a paper library cannot add: names it and why
    │   │   └── UnknownPaperError (LookupError) no paper under that key
    │   ├── StructureMapError               a structure map (or its file) that is malformed
    │   ├── ConfigError                     an unknown or invalid option
    │   ├── RecordError                     an index record (id, vector, metadata) that is malformed
    │   ├── SavedIndexError                 a saved index with a file missing, changed or swapped
    │   ├── ModelFileError                  a model file (the support judge's) missing or unreadable
    │   └── FilterError                     a metadata filter that is malformed
    ├── UnknownBackendError (LookupError)   no backend registered under that name
    ├── MissingDependencyError (ImportError) an optional extra is not installed
    ├── BackendError                        a backend failed while working (never means "not found")
    ├── WriteError (OSError)                a file citecheck writes cannot be written: names it
    └── CitationsFailed                     a checked text failed where the caller asked to stop
"""

from __future__ import annotations

from os import PathLike
from pathlib import Path
from typing import Any

DISTRIBUTION = "pycitecheck"
"""The name to ``pip install``: ``citecheck`` on PyPI is an unrelated project, so the import
name and the distribution name differ."""

__all__ = [
    "CPU_TORCH_INDEX",
    "DISTRIBUTION",
    "TORCH_EXTRAS",
    "BackendError",
    "CitationsFailed",
    "CitecheckError",
    "ConfigError",
    "FilterError",
    "InputError",
    "LocationError",
    "LocationKindError",
    "MissingDependencyError",
    "ModelFileError",
    "PaperFileError",
    "RecordError",
    "SavedIndexError",
    "SourceError",
    "StructureMapError",
    "UnknownBackendError",
    "UnknownPaperError",
    "WriteError",
    "install_hint",
]


TORCH_EXTRAS = frozenset({"embeddings", "judges", "train", "all"})
"""The extras that install PyTorch (sentence-transformers needs it): their install command takes
torch from :data:`CPU_TORCH_INDEX`."""

CPU_TORCH_INDEX = "https://download.pytorch.org/whl/cpu"
"""PyTorch's index of CPU builds."""


class CitecheckError(Exception):
    """Root of every error citecheck raises on purpose."""


class InputError(CitecheckError, ValueError):
    """Something the caller passed is malformed; the message says what and where."""


class LocationError(InputError):
    """A location string cannot be parsed, or names a place the document does not have."""


class LocationKindError(LocationError):
    """The source has no structure of the kind cited: no page numbers, no sections, no timed
    segments. The place cannot be checked, which is not the same as not existing."""


class SourceError(InputError):
    """The sources are unusable: not text, duplicate ids, a key that disagrees with its document."""


class PaperFileError(SourceError):
    """A file that cannot be added to a paper library (an encrypted PDF, a PDF with no text
    layer, a damaged PDF, text that is not UTF-8, a bibliography with a key twice). The message
    names the file; ``path`` is the file. The library is left exactly as it was. (A damaged
    library folder is a :class:`SavedIndexError`, as for a saved index.)"""

    def __init__(self, path: str | PathLike[str], message: str) -> None:
        super().__init__(message)
        self.path = str(path)


class UnknownPaperError(SourceError, LookupError):
    """No paper (and no bibliography entry) in the library has this key."""


class StructureMapError(InputError):
    """A structure map of a reference scheme (or its file) is malformed: a book the scheme does
    not know, a count that is not a non-negative integer, sargas out of order."""


class ConfigError(InputError):
    """An option is unknown or has an invalid value."""


class RecordError(InputError):
    """An index record is malformed: an id that is not a non-empty string, a vector of the wrong
    dimension or with no direction, metadata that is null, nested or of another type."""


class SavedIndexError(InputError):
    """A saved index cannot be loaded as it was saved: its manifest is of another format or
    version, or a file it lists is missing, truncated, changed or swapped in from another save
    (its size or SHA-256 differs from the manifest's). The message names the file."""


class ModelFileError(InputError):
    """A model file that citecheck ships (the support judge's weights, its tokenizer or its
    description) is missing or unreadable; the message names the file and how to get it back."""


class FilterError(InputError):
    """A metadata filter is malformed: empty, an unknown operator, a range over a non-number."""


class UnknownBackendError(CitecheckError, LookupError):
    """No backend is registered under the requested name; the message lists the known ones."""


class MissingDependencyError(CitecheckError, ImportError):
    """An optional dependency is missing; the message names the extra to install."""

    def __init__(self, package: str, extra: str) -> None:
        super().__init__(f"{package!r} is not installed; install it with: {install_hint(extra)}")
        self.package = package
        self.extra = extra


def install_hint(extra: str) -> str:
    """The command that installs ``extra`` where this citecheck came from: from the package
    index, ``pip install "pycitecheck[pdf]"``; from a folder (a clone, pip's record of where it
    was installed from, PEP 610), ``pip install -c FOLDER/constraints.txt "FOLDER[pdf]"``, with
    the index's command after it. An extra that needs PyTorch (:data:`TORCH_EXTRAS`) adds
    PyTorch's CPU index: without it pip takes the newest torch on PyPI, on Linux the CUDA build
    (several GB a CPU run never uses); the constraints pin the version whose CPU wheel it takes."""
    cpu = f" --extra-index-url {CPU_TORCH_INDEX}" if extra in TORCH_EXTRAS else ""
    note = "the extra index gives PyTorch's CPU build; leave it out for the CUDA build"
    from_index = f'pip install "{DISTRIBUTION}[{extra}]"{cpu}'
    folder = _installed_from()
    if folder is None:
        return f"{from_index} ({note})" if cpu else from_index
    constraints = folder / "constraints.txt"
    pinned = f"-c {constraints} " if constraints.is_file() else ""
    return (
        f'pip install {pinned}"{folder}[{extra}]"{cpu} (the folder it was installed from; from '
        f"the package index: {from_index}{f'; {note}' if cpu else ''})"
    )


def _installed_from() -> Path | None:
    """The local folder pip installed citecheck from, when it did (its ``direct_url.json``)."""
    import json
    from importlib import metadata
    from urllib.parse import unquote, urlparse

    try:
        recorded = metadata.distribution(DISTRIBUTION).read_text("direct_url.json")
        url = json.loads(recorded or "null")["url"]
    except (metadata.PackageNotFoundError, ValueError, TypeError, KeyError):
        return None
    parsed = urlparse(url) if isinstance(url, str) else None
    if parsed is None or parsed.scheme != "file":
        return None
    folder = Path(unquote(parsed.path))
    return folder if folder.is_dir() else None


class BackendError(CitecheckError):
    """A backend failed while working. The verifier reports such citations as UNCHECKED."""


class WriteError(CitecheckError, OSError):
    """A file citecheck writes (a report, an output, an index or library save) cannot be
    written: the disk is full, the file too large, the folder read-only. The message names the
    file and the cause; ``errno`` and ``filename`` are the system's. Nothing is left half
    written: the old file, if any, is as it was."""

    def __init__(self, path: object, cause: OSError) -> None:
        reason = cause.strerror or str(cause) or type(cause).__name__
        super().__init__(cause.errno, f"cannot write {path}: {reason}", str(path))
        self.message = f"cannot write {path}: {reason}"

    def __str__(self) -> str:
        return self.message


class CitationsFailed(CitecheckError):
    """A checked text failed, and the caller asked for an exception rather than a report (a
    LangChain ``CitationCheck(on_fail="raise")`` stopping its chain). ``report`` is the whole
    :class:`~citecheck.Report`; the message names the failing citations."""

    def __init__(self, report: Any) -> None:
        failing = [
            r
            for r in report.results
            if r.status not in report.accepted and r.status.value != "unchecked"
        ]
        named = "; ".join(
            f"{r.citation.raw or r.citation.source_id}: {r.status.value} ({r.reason})"
            for r in failing[:5]
        )
        more = f"; and {len(failing) - 5} more" if len(failing) > 5 else ""
        what = named + more if failing else "the text has no citations, and citations are required"
        super().__init__(f"citations failed: {what}")
        self.report = report
