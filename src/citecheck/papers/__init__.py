"""The paper library: papers with printed page numbers, kept on disk, for claims to be checked
against (the fifth job of the design).

This first step stores papers: their text, pages with printed labels, page- and section-aware
sentence chunks and bibliographic metadata, in one folder that a crash cannot leave half
written. Search, ``cite`` and ``validate`` read what is stored here and come in later steps.

Importing this package imports no optional dependency: pypdf (``pdf``) and bibtexparser
(``bib``) are imported only when a PDF or a BibTeX file is read.
"""

from citecheck.papers.errors import PaperFileError, UnknownPaperError
from citecheck.papers.library import PaperLibrary
from citecheck.papers.model import BibliographyImport, PaperChunk, PaperMetadata, PaperPage

__all__ = [
    "BibliographyImport",
    "PaperChunk",
    "PaperFileError",
    "PaperLibrary",
    "PaperMetadata",
    "PaperPage",
    "UnknownPaperError",
]
