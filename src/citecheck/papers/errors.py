"""The errors of the paper library, under citecheck's one tree (:mod:`citecheck.errors`)::

    SourceError (InputError, ValueError)
    ├── PaperFileError                a file that cannot be added: the message names it and why
    └── UnknownPaperError (LookupError)  no paper under that key

A damaged library folder (a per-paper file missing, truncated or changed) is a
:class:`~citecheck.errors.SavedIndexError`, as for a saved index.
"""

from __future__ import annotations

from os import PathLike

from citecheck.errors import SourceError

__all__ = ["PaperFileError", "UnknownPaperError"]


class PaperFileError(SourceError):
    """A file that cannot be added to a paper library (an encrypted PDF, a PDF with no text
    layer, a damaged PDF, text that is not UTF-8, a bibliography with a key twice). The message
    names the file; ``path`` is the file. The library is left exactly as it was."""

    def __init__(self, path: str | PathLike[str], message: str) -> None:
        super().__init__(message)
        self.path = str(path)


class UnknownPaperError(SourceError, LookupError):
    """No paper (and no bibliography entry) in the library has this key."""
