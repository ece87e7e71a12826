"""The paper library: papers with printed page numbers, kept on disk, for claims and drafts to
be checked against (the fifth job of the design).

A :class:`PaperLibrary` stores papers (their text, pages with printed labels, page- and
section-aware sentence chunks, the chunks' vectors and bibliographic metadata) in one folder
that a crash cannot leave half written. It searches them (BM25 and vectors fused,
:mod:`~citecheck.papers.search`), quotes them (``cite``), and checks claims and whole drafts
against them (``validate``, ``validate_doc``, :mod:`~citecheck.papers.validation`), with a
suggested correction for each citation that fails.

Importing this package imports no optional dependency: pypdf (``pdf``), bibtexparser
(``bib``), bm25s (``bm25``) and the embedders are imported only when used.
"""

from citecheck.errors import PaperFileError, UnknownPaperError
from citecheck.papers.draft_verifier import DraftVerifier
from citecheck.papers.drafts import Draft, DraftCitation, read_draft
from citecheck.papers.library import PaperLibrary
from citecheck.papers.search import FusionOptions, PaperHit
from citecheck.papers.validation import (
    SUPPORT_LABELS,
    Correction,
    Quote,
    Reviser,
    quote_reviser,
)
from citecheck.papers.values import BibliographyImport, PaperChunk, PaperMetadata, PaperPage

__all__ = [
    "SUPPORT_LABELS",
    "BibliographyImport",
    "Correction",
    "Draft",
    "DraftCitation",
    "DraftVerifier",
    "FusionOptions",
    "PaperChunk",
    "PaperFileError",
    "PaperHit",
    "PaperLibrary",
    "PaperMetadata",
    "PaperPage",
    "Quote",
    "Reviser",
    "UnknownPaperError",
    "quote_reviser",
    "read_draft",
]
