"""The values a paper library hands out: a paper's metadata, its pages and its chunks.

They are frozen, slotted and plain (strings and numbers), so they can be written to the
library's files and read back unchanged, and a caller cannot change a stored paper by changing
what it was given.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["BibliographyImport", "PaperChunk", "PaperMetadata", "PaperPage", "Reindex"]


@dataclass(frozen=True, slots=True)
class PaperMetadata:
    """What the library knows of a paper without reading its text.

    ``title``, ``authors`` (family names) and ``year`` come from a bibliography when one named
    the key. ``file`` is the name of the file the text was read from, ``sha256`` its content's
    hash (the same file added again is recognised by it), ``format`` how it was read (``pdf``,
    ``markdown``, ``text``, ``docling``) and ``page_labels`` the printed label of every page in
    order. A bibliography entry with no readable file has ``file``, ``sha256`` and ``format``
    ``None`` and no page labels: its metadata is known, its text is not.
    """

    key: str
    title: str | None = None
    authors: tuple[str, ...] = ()
    year: str | None = None
    file: str | None = None
    sha256: str | None = None
    format: str | None = None
    page_labels: tuple[str, ...] = ()

    @property
    def has_text(self) -> bool:
        """Whether the library holds the paper's text (not only its bibliographic entry)."""
        return self.sha256 is not None


@dataclass(frozen=True, slots=True)
class PaperPage:
    """One page of a paper: ``text`` is ``paper_text[start:end]``.

    ``label`` is the page's printed label as the file gives it (``"12"``, ``"iii"``);
    ``number`` is the page number a citation such as ``p. 12`` means, or ``None`` for a page
    that cannot be cited by number (front matter in roman numerals). ``index`` is the page's
    place in the file, from 0: printed page 1 of a book is often not its first sheet.
    """

    index: int
    label: str
    number: int | None
    start: int
    end: int
    text: str


@dataclass(frozen=True, slots=True)
class PaperChunk:
    """A sentence-sized passage of a paper, the unit later search ranks.

    ``start`` and ``end`` are offsets into the paper's text (``document(key).text``);
    ``text`` is the passage as a reader sees it (Markdown rendered, page markers removed,
    whitespace collapsed), so search needs no re-reading. ``page_start`` and ``page_end`` are
    the page numbers of its first and last character (they differ for a passage that crosses a
    page break; ``None`` off the numbered pages), ``section`` the title of the innermost
    section holding its start.
    """

    start: int
    end: int
    page_start: int | None
    page_end: int | None
    section: str | None
    text: str


@dataclass(frozen=True, slots=True)
class BibliographyImport:
    """What :meth:`PaperLibrary.add_bibliography <citecheck.papers.PaperLibrary.add_bibliography>`
    did: every entry's key in file order, the keys whose text was read and stored (new or
    changed files), and one warning per thing left out: an entry with no file (kept with its
    metadata only), a file that is missing or cannot be read, an entry the reader skipped."""

    keys: tuple[str, ...] = ()
    added: tuple[str, ...] = ()
    warnings: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Reindex:
    """What :meth:`PaperLibrary.reindex <citecheck.papers.PaperLibrary.reindex>` did.

    ``keys``: the papers whose chunks and vectors it rebuilt, in the library's order;
    ``chunks``: how many chunks they have now; ``vectors_by``: the embedder that made their
    vectors (``None``: the library has none, so they have no vectors until it is opened with
    one); ``words``: how many chunks the word (BM25) index holds (0 without the ``bm25``
    extra). With ``with_pages``, ``pages`` says where each paper's pages were read (``(key,
    where)``: a file's path, or ``"its stored text"``), and ``replaced`` names the papers whose
    file had changed since it was added (their text was read again from it, as ``add`` reads
    it). ``skipped``: the bibliography entries without text, left as they are; ``faiss``: the
    FAISS file written (``None``: the library keeps none); ``warnings``: one per paper whose
    pages could not be read again (its stored pages kept) or that another change replaced
    meanwhile (left as it is).
    """

    keys: tuple[str, ...] = ()
    chunks: int = 0
    vectors_by: str | None = None
    words: int = 0
    pages: tuple[tuple[str, str], ...] = ()
    replaced: tuple[str, ...] = ()
    skipped: tuple[str, ...] = ()
    faiss: str | None = None
    warnings: tuple[str, ...] = ()
