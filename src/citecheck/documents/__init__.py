"""Source documents and their structure: lines, pages, sections, transcripts."""

from citecheck.documents.document import Document
from citecheck.documents.split import Sources, as_documents, split_sources
from citecheck.documents.structure import Page, Section, Segment

__all__ = ["Document", "Page", "Section", "Segment", "Sources", "as_documents", "split_sources"]
