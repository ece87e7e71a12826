"""The paper library: papers with printed page numbers, kept in a folder on disk.

:class:`PaperLibrary` is the front of this package. It reads a file through
:mod:`~citecheck.papers.readers`, cuts it into chunks (:mod:`~citecheck.papers.chunks`) and
keeps everything through :mod:`~citecheck.papers.store`, whose every change is one atomic
commit. Opening a library reads its manifest only; a paper's text, pages and chunks are read
when first asked for, and kept for the next question about the same paper.
"""

from __future__ import annotations

import hashlib
import json
from collections import OrderedDict
from collections.abc import Iterator, Sequence
from contextlib import suppress
from dataclasses import asdict, replace
from importlib.util import find_spec
from os import PathLike
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from citecheck.documents.bibliography import read_bibliography
from citecheck.documents.chunking import builtin_splitter, default_splitter
from citecheck.documents.document import Document
from citecheck.documents.structure import Page
from citecheck.errors import (
    CitecheckError,
    ConfigError,
    MissingDependencyError,
    PaperFileError,
    SavedIndexError,
    SourceError,
    UnknownPaperError,
)
from citecheck.judging.support import SupportAssessor
from citecheck.judging.support_judge import SupportJudge, default_judge
from citecheck.language.text import WORD, normalize, uncased
from citecheck.papers.chunks import ChunkOptions, paper_chunks
from citecheck.papers.library_bibliography import check_unique_keys, entry_file
from citecheck.papers.readers import PageRecord, PaperText, read_paper
from citecheck.papers.search import FusionOptions, LibrarySearch, PaperHit
from citecheck.papers.store import DATA, Entry, FaissListing, Repair, Store, Transaction
from citecheck.papers.validation import Quote, Reviser, cite, quote_reviser, validate, validate_doc
from citecheck.papers.values import (
    BibliographyImport,
    PaperChunk,
    PaperMetadata,
    PaperPage,
    Reindex,
)
from citecheck.papers.vectors import (
    FaissFile,
    default_embedder,
    embedder_name,
    faiss_bytes,
    from_npy,
    import_faiss,
    to_npy,
)

if TYPE_CHECKING:
    from citecheck.model import Result
    from citecheck.protocols import Embedder, Index
    from citecheck.report import Report

__all__ = ["PaperLibrary"]

_STORED_TEXT = "its stored text"
"""Where ``reindex(with_pages=True)`` says it read the pages of a paper whose file is gone."""

_CACHED = 64
"""Files kept parsed in memory: enough for the papers one draft cites, bounded for a library
of thousands."""


class _Prepared:
    """A paper read and chunked, ready to be written: nothing of it is on disk yet."""

    __slots__ = ("contents", "entry")

    def __init__(self, entry: Entry, contents: dict[str, bytes]) -> None:
        self.entry = entry
        self.contents = contents


class PaperLibrary:
    """Papers with their pages, in the folder ``path`` (created on the first add).

    ``add(file)`` stores a PDF, a Markdown or text file with ``[PAGE:N]`` markers or form
    feeds, or a docling JSON document; ``add_bibliography(bib)`` stores a BibTeX or CSL JSON
    bibliography's entries and the files they name. A paper is then read back by key:
    ``metadata``, ``pages`` (with printed labels), ``chunks`` and ``document`` (a
    :class:`~citecheck.Document` whose ``p. 12`` is printed page 12).

    ``language`` picks the sentence rules chunks are cut with, ``max_chunk_chars`` bounds a
    chunk; both are stored with each paper added.

    ``embedder`` embeds each chunk once, when its paper is added (``"auto"``: multilingual-e5
    with the ``multilingual`` extra, so a claim in another language than the paper works with
    no option; else all-MiniLM-L6-v2 with ``embeddings``; ``None``: words only). The vectors
    are stored with the paper under the embedder's name, so a reopened library embeds nothing
    but queries. ``index`` is the :class:`~citecheck.protocols.Index` vector search goes
    through (a fresh :class:`~citecheck.indexes.MemoryIndex` by default; a FAISS or Pinecone
    index is filled with the vectors it lacks), ``search`` how hits are ranked and fused.
    ``judge`` reads the passages ``validate`` weighs (``"auto"``: citecheck's trained judge when
    the ``judge`` extra is installed and the library has an embedder; ``None``: the signals
    alone; see :mod:`citecheck.papers.validation`).

    ``faiss=True`` makes the library keep every paper's vectors in one FAISS index file too
    (the ``faiss`` extra), beside the ``.npy`` files: written at the library's next change
    (``reindex`` writes it now) and again at every change after it, in the same atomic commit
    as the vectors it copies, and searched instead of an in-memory index when the library is
    searched as a whole (an ``index`` given wins; one paper is searched in its own ``.npy``
    matrix, exactly, either way). The choice is kept in the library (its manifest), so a
    library opened later keeps the file up to date with no option; ``faiss=False`` drops it
    at the next change, ``None`` keeps what the library has.
    """

    __slots__ = (
        "_cache",
        "_embedder",
        "_faiss",
        "_held",
        "_index",
        "_judge",
        "_listing",
        "_options",
        "_search",
        "_searcher",
        "_seen",
        "_store",
        "_support",
    )

    def __init__(
        self,
        path: str | PathLike[str],
        *,
        language: str = "en",
        max_chunk_chars: int | None = 1000,
        embedder: Embedder | Literal["auto"] | None = "auto",
        index: Index | None = None,
        search: FusionOptions | None = None,
        judge: SupportJudge | Literal["auto"] | None = "auto",
        faiss: bool | None = None,
    ) -> None:
        if faiss is not None and not isinstance(faiss, bool):
            raise ConfigError(f"faiss must be True, False or None, got {faiss!r}")
        if faiss and find_spec("faiss") is None:
            raise MissingDependencyError("faiss-cpu", "faiss")
        self._store = Store(Path(path))
        self._options = ChunkOptions(language=language, max_chunk_chars=max_chunk_chars)
        self._held: dict[str, Entry] = {}
        self._listing: FaissListing | None = None
        self._seen: object = ()
        self._faiss = faiss
        self._refresh()
        self._cache: OrderedDict[str, Any] = OrderedDict()
        self._embedder = default_embedder() if embedder == "auto" else embedder
        self._index = index
        self._search = search or FusionOptions()
        self._judge = judge
        self._searcher: tuple[tuple[Any, ...], LibrarySearch] | None = None
        self._support: SupportAssessor | None = None

    @property
    def _entries(self) -> dict[str, Entry]:
        """The papers, as the manifest on disk lists them now: read again (with its FAISS
        file's listing) when another library object (or process) committed a change since."""
        seen = self._store.signature()
        if seen != self._seen:
            (self._held, self._listing), self._seen = self._store.read_all(), seen
        return self._held

    def _refresh(self) -> None:
        """Read the manifest on disk now."""
        (self._held, self._listing), self._seen = self._store.read_all(), self._store.signature()

    def _took(self, transaction: Transaction) -> None:
        """Hold what ``transaction`` committed."""
        self._held, self._listing = transaction.entries, transaction.faiss
        self._seen = self._store.signature()

    @property
    def embedder(self) -> Embedder | None:
        """The embedder of this library's vectors and queries (``None``: words only)."""
        return self._embedder

    @property
    def search_options(self) -> FusionOptions:
        """How the library ranks and fuses hits (its ``search`` option)."""
        return self._search

    @property
    def faiss_file(self) -> Path | None:
        """The library's FAISS file as its manifest lists it now (``None``: it keeps none, or
        no paper has vectors yet)."""
        _ = self._entries
        listing = self._listing
        if listing is None or listing.file is None:
            return None
        return self.path / DATA / listing.file.name

    @property
    def judge(self) -> SupportJudge | None:
        """The trained judge ``validate`` reads passages with, loaded on first use (``None``:
        the signals alone)."""
        if self._judge == "auto":
            self._judge = None if self._embedder is None else default_judge()
        return self._judge

    @property
    def support(self) -> SupportAssessor | None:
        """The claim-support engine ``validate`` grades passages with (the library's embedder
        and :attr:`judge`), built on first use; ``None`` without an embedder."""
        if self._support is None and self._embedder is not None:
            self._support = SupportAssessor(self._embedder, self.judge)
        return self._support

    def __repr__(self) -> str:
        return f"PaperLibrary({str(self.path)!r}, {len(self)} papers)"

    @property
    def path(self) -> Path:
        """The library's folder."""
        return self._store.path

    # -- reading ---------------------------------------------------------------------------

    def keys(self) -> list[str]:
        """Every key, papers and bibliography entries without text alike, in the order added."""
        return list(self._entries)

    def __contains__(self, key: object) -> bool:
        return key in self._entries

    def __len__(self) -> int:
        return len(self._entries)

    def __iter__(self) -> Iterator[str]:
        return iter(self.keys())

    def metadata(self, key: str) -> PaperMetadata:
        """What the library knows of ``key`` without reading its text."""
        return self._entry(key).metadata

    def pages(self, key: str) -> list[PaperPage]:
        """The pages of ``key`` in file order, each with its printed label, its number, its
        range in the paper's text and its text; empty for an entry with no text."""
        records = self._records(key)
        if not records:
            return []
        text = self._text(key)
        return [
            PaperPage(index, r.label, r.number, r.start, r.end, text[r.start : r.end])
            for index, r in enumerate(records)
        ]

    def chunks(self, key: str) -> list[PaperChunk]:
        """The chunks of ``key``, in text order; empty for an entry with no text."""
        stored = self._entry(key).files.get("chunks")
        if stored is None:
            return []
        rows = self._parsed(key, "chunks", _parse_chunks)
        return list(rows)

    def text(self, key: str) -> str:
        """The text of ``key`` (empty for an entry with no text); offsets of pages and chunks
        point into it."""
        return self._text(key)

    def document(self, key: str) -> Document:
        """``key`` as a :class:`~citecheck.Document`: its text, its numbered pages (so
        ``document.resolve(Location.parse("p. 12"))`` is printed page 12), its sections, and
        its metadata. An entry with no text is a document with no text and no pages, so a
        page of it resolves to :class:`~citecheck.LocationKindError`: it cannot be checked."""
        entry = self._entry(key)
        cached = self._cache.get(f"document:{key}")
        if isinstance(cached, tuple) and cached[0] == entry.files.get("text"):
            document: Document = cached[1]
            return document
        meta = entry.metadata
        pages = tuple(
            Page(r.number, r.start, r.end) for r in self._records(key) if r.number is not None
        )
        details: dict[str, Any] = {"key": key, "title": meta.title, "authors": list(meta.authors)}
        details.update(year=meta.year, file=meta.file, format=meta.format, sha256=meta.sha256)
        if entry.markdown:
            details["format"] = "markdown"
        metadata = {name: value for name, value in details.items() if value is not None}
        document = Document(key, self._text(key), metadata, pages=pages)
        self._remember(f"document:{key}", (entry.files.get("text"), document))
        return document

    # -- searching -------------------------------------------------------------------------

    def search(
        self,
        text: str,
        *,
        key: str | None = None,
        k: int = 10,
        mode: str | None = None,
        vector: Any = None,
    ) -> list[PaperHit]:
        """The ``k`` passages of the library (of the paper ``key`` when given) that best match
        ``text``, best first, each with its paper, pages, section, span and scores. ``mode``
        overrides the library's :class:`~citecheck.papers.FusionOptions` mode:
        ``hybrid`` (BM25 and vectors fused by reciprocal rank), ``bm25`` or ``vector``.
        ``vector`` is the query's unit vector (:meth:`query_vector`) when the caller has it
        already, so that it is not embedded twice."""
        if key is not None:
            self._entry(key)
        if k < 1:
            raise ConfigError(f"k must be positive, got {k}")
        options = self._search if mode is None else replace(self._search, mode=mode)
        searcher = self.searcher()
        if vector is None and options.mode != "bm25":
            vector = self.query_vector(text)
        return searcher.search(text, vector, key=key, k=k, options=options)

    def cite(self, key: str, text: str, k: int = 3) -> list[Quote]:
        """The ``k`` best quotes of the paper ``key`` for a claim or search terms, best first:
        each the passage that carries it, with its pages, section and confidence
        (``str(quote)`` reads ``[key, p. 213–214] "…" (Results) confidence 0.87``)."""
        return cite(self, key, text, k)

    def validate(
        self,
        key: str,
        claim: str,
        page: int | None = None,
        *,
        reviser: Reviser | Literal["builtin"] | None = "builtin",
        semantic: bool | None = None,
    ) -> Result:
        """Whether the paper ``key`` (on ``page`` when given) supports ``claim``: a
        :class:`~citecheck.Result` whose ``details["support"]`` is ``supported``, ``partially
        supported``, ``not supported`` or ``contradicted``, whose evidence is the supporting
        passage(s), ``details["qualifying"]`` the passages that qualify or contradict it,
        ``details["matches"]`` the best passage by BM25 and the best by vector, each with what
        the engine reads in it, and ``details["correction"]`` the fix when it fails (the right
        page, the paper's words). ``reviser`` rewrites the claim from the correction
        (``"builtin"``: :func:`~citecheck.papers.validation.quote_reviser`; ``None``: no
        revision). ``semantic`` turns vector search on (``True``: BM25 and vectors fused; an
        error without an embedder) or off (``False``: the candidates are found by BM25 alone);
        ``None`` searches as the library's ``search`` option says (both, by default).
        :func:`~citecheck.papers.validation.explain` says the result in words."""
        chosen = quote_reviser if reviser == "builtin" else reviser
        return validate(self, key, claim, page, reviser=chosen, semantic=semantic, matches=True)

    def validate_doc(
        self,
        draft: str | PathLike[str],
        *,
        reviser: Reviser | Literal["builtin"] | None = "builtin",
    ) -> Report:
        """Every citation of a Markdown draft (its text, or a path) checked as :meth:`validate`
        checks one: pandoc ``[@key]``, ``[@key, p. 12]``, ``[@a; @b, pp. 3-4]``, bare ``@key``
        and ``@key [p. 12]``, and ``[1]`` with the draft's reference list; each result has
        the draft's ``line`` in its details. Unknown keys are ``NOT_FOUND``, a page past the
        end too; the report exports as every report does (Markdown, HTML, JSON, JUnit)."""
        chosen = quote_reviser if reviser == "builtin" else reviser
        return validate_doc(self, draft, reviser=chosen)

    def vocabulary(self, key: str) -> frozenset[str]:
        """The words of the paper ``key`` (lowercased, normalised), kept once read."""
        cached = self._cache.get(f"vocabulary:{key}")
        if isinstance(cached, tuple) and cached[0] == self._entry(key).files.get("text"):
            words: frozenset[str] = cached[1]
            return words
        words = frozenset(WORD.findall(normalize(self._text(key))))
        self._remember(f"vocabulary:{key}", (self._entry(key).files.get("text"), words))
        return words

    def query_vector(self, text: str) -> Any:
        """The unit vector of ``text`` from the library's embedder (``None`` without one),
        embedded in lower case (:func:`~citecheck.language.text.uncased`): a claim's capitals
        never change what it finds or how it is judged."""
        if self._embedder is None:
            return None
        return self._vectors_of([uncased(text)])[0]

    def prefetch(self, texts: Sequence[str]) -> None:
        """Embed the query vectors of ``texts`` in one call now (the draft's claims, before
        :func:`~citecheck.papers.validation.validate_doc` checks them one by one): a model
        embeds one batch far faster than the same texts one at a time. A failing embedder is
        left for each claim's own check to report."""
        if self._embedder is None or not texts:
            return
        with suppress(CitecheckError):
            self._vectors_of(list(dict.fromkeys(uncased(text) for text in texts if text)))

    def searcher(self) -> LibrarySearch:
        """The in-memory search over the stored chunks and vectors, built once per state of
        the library (vectors the embedder lacks are made and stored first)."""
        self._ensure_vectors()
        files = tuple(
            (key, tuple(sorted((r, f.name) for r, f in e.files.items())))
            for key, e in self._entries.items()
        )
        state = (*files, self.faiss_file)
        if self._searcher is not None and self._searcher[0] == state:
            return self._searcher[1]
        from citecheck.indexes.memory import MemoryIndex

        papers = {
            key: (self.chunks(key), self._stored_vectors(key), entry.metadata.sha256 or "")
            for key, entry in self._entries.items()
            if entry.metadata.has_text
        }
        index: Index | FaissFile | None = self._index
        if index is None:
            index = self._faiss_index(papers) or MemoryIndex(metric="cosine")
        searcher = LibrarySearch(papers, index)
        self._searcher = (state, searcher)
        return searcher

    def _faiss_index(self, papers: dict[str, tuple[Any, Any, str]]) -> FaissFile | None:
        """The library's FAISS file, read (once), when it holds exactly the vectors of this
        library's embedder that the manifest lists and ``faiss`` is installed; else ``None``
        (the stored ``.npy`` vectors are searched in memory, as they always can be)."""
        listing = self._listing
        if (
            self._faiss is False
            or self._embedder is None
            or listing is None
            or listing.file is None
            or listing.embedder != embedder_name(self._embedder)
            or find_spec("faiss") is None
        ):
            return None
        held = [(key, name) for key, name, _ in listing.held]
        if held != self._vector_files(self._entries, listing.embedder):
            return None  # not the vectors the manifest lists: the next change writes it again
        stored = listing.file
        cached = self._cache.get(stored.name)
        if isinstance(cached, FaissFile):
            return cached
        try:
            raw = self._store.read_file(stored)
        except FileNotFoundError:
            raise SavedIndexError(
                f"{self.path}: {stored.name}, listed in the manifest, is missing"
            ) from None
        dimensions = {m.shape[1] for _, m, _ in papers.values() if m is not None and len(m)}
        file = FaissFile(
            raw,
            [(key, rows) for key, _, rows in listing.held],
            dimensions.pop() if len(dimensions) == 1 else None,
            str(self.path / DATA / stored.name),
        )
        self._remember(stored.name, file)
        return file

    @staticmethod
    def _vector_files(entries: dict[str, Entry], embedder: str | None) -> list[tuple[str, str]]:
        """Each paper's vectors file made by ``embedder``, in the library's order."""
        return [
            (key, entry.files["vectors"].name)
            for key, entry in entries.items()
            if embedder is not None and entry.vectors_by == embedder and "vectors" in entry.files
        ]

    def _commit(self, transaction: Transaction, entries: dict[str, Entry]) -> None:
        """Commit ``entries`` in ``transaction``, with the library's FAISS file written again
        for them when it keeps one (and taken over unchanged when its vectors are the same)."""
        keep = self._faiss if self._faiss is not None else transaction.faiss is not None
        listing = self._faiss_listing(transaction, entries) if keep else None
        transaction.commit(entries, listing)
        self._took(transaction)

    def _faiss_listing(self, transaction: Transaction, entries: dict[str, Entry]) -> FaissListing:
        """The FAISS file for ``entries``: every vectors file of the library's embedder (of
        the file's, for a library opened without one), in the library's order, written in
        ``transaction``."""
        old = transaction.faiss
        name = (
            embedder_name(self._embedder)
            if self._embedder is not None
            else (old.embedder if old is not None else None)
        )
        files = self._vector_files(entries, name)
        if (
            old is not None
            and old.file is not None
            and old.embedder == name
            and [(key, file) for key, file, _ in old.held] == files
        ):
            return old
        if not files:
            return FaissListing(None, name, ())
        try:
            import_faiss()
        except MissingDependencyError as exc:
            raise ConfigError(
                f"{self.path} keeps a FAISS file of its vectors, and {exc}; or turn the file "
                "off (PaperLibrary(path, faiss=False), citecheck papers reindex --no-faiss)"
            ) from None
        matrices = [
            from_npy(self._store.read_file(entries[key].files["vectors"]), None) for key, _ in files
        ]
        filled = [m for m in matrices if len(m)]
        stored = transaction.write_faiss(faiss_bytes(filled)) if filled else None
        held = tuple((key, file, len(m)) for (key, file), m in zip(files, matrices, strict=True))
        return FaissListing(stored, name, held if stored is not None else ())

    def _vectors_of(self, texts: list[str]) -> Any:
        from citecheck.embedders import token_budget
        from citecheck.matchers.embedding import whole_text_vectors

        assert self._embedder is not None
        import numpy as np

        if not texts:
            return np.zeros((0, 0), dtype=np.float32)
        matrix, _ = whole_text_vectors(self._embedder, token_budget(self._embedder), texts)
        return np.asarray(matrix, dtype=np.float32)

    def _stored_vectors(self, key: str) -> Any:
        entry = self._entry(key)
        if self._embedder is None or "vectors" not in entry.files:
            return None
        if entry.vectors_by != embedder_name(self._embedder):
            return None
        rows = len(self.chunks(key))
        return self._parsed(key, "vectors", lambda raw: from_npy(raw, rows))

    def _ensure_vectors(self) -> None:
        """Embed and store, in one commit, the chunks of papers whose vectors another embedder
        made (or none did): once, so that the next open embeds nothing."""
        if self._embedder is None:
            return
        name = embedder_name(self._embedder)
        stale = [
            key
            for key, entry in self._entries.items()
            if entry.metadata.has_text and entry.vectors_by != name and self.chunks(key)
        ]
        if not stale:
            return
        vectors = {
            key: to_npy(self._vectors_of([c.text for c in self.chunks(key)])) for key in stale
        }
        with self._store.transaction() as transaction:
            entries = dict(transaction.entries)
            for key in stale:
                entry = entries.get(key)
                if entry is None or entry.metadata.sha256 != self._entries[key].metadata.sha256:
                    continue  # changed meanwhile: its next search embeds it
                written = transaction.write(key, {"vectors": vectors[key]})
                entries[key] = replace(entry, files={**entry.files, **written}, vectors_by=name)
            self._commit(transaction, entries)

    # -- changing --------------------------------------------------------------------------

    def add(self, file: str | PathLike[str], key: str | None = None) -> str:
        """Store the paper in ``file`` and return its key.

        The key is ``key``, else that of the bibliography entry whose ``file`` names this file,
        else the file's name without its extension. The same content added again under its
        key changes nothing, and under another key raises
        :class:`~citecheck.papers.PaperFileError` (one paper under two keys would split its
        citations); changed content replaces that paper only. A file that cannot be read raises
        :class:`~citecheck.papers.PaperFileError` naming it, and leaves the library exactly as
        it was."""
        path = Path(file)
        data = _read_bytes(path)
        self._refresh()
        key = _checked_key(key) if key is not None else self._key_for(path)
        sha256 = hashlib.sha256(data).hexdigest()
        current = self._entries.get(key)
        if current is not None and current.metadata.sha256 == sha256:
            return key
        twin = next(
            (k for k, e in self._entries.items() if k != key and e.metadata.sha256 == sha256), None
        )
        if twin is not None:
            raise PaperFileError(
                path,
                f"{path} is already in the library as {twin!r}: one paper under two keys would "
                f"split its citations (remove {twin!r} first to re-key it)",
            )
        prepared = self._prepare(key, path, data, sha256)
        with self._store.transaction() as transaction:
            entries = dict(transaction.entries)
            entries[key] = _stored(transaction, prepared, entries.get(key), None)
            self._commit(transaction, entries)
        return key

    def add_bibliography(self, bib: str | PathLike[str]) -> BibliographyImport:
        """Store the entries of a BibTeX (``bib`` extra) or CSL JSON bibliography, and the paper
        of each entry whose ``file`` (relative to the bibliography) exists and can be read, all
        in one commit.

        An entry without a file, or whose file is missing or unreadable, is kept with its
        metadata only (no pages) and named in the result's ``warnings``; a key already in the
        library gets the entry's metadata and keeps its text unless the entry's file replaces
        it. Two entries with one key are a :class:`~citecheck.papers.PaperFileError` naming
        both, and nothing is stored."""
        path = Path(bib)
        bibliography = read_bibliography(path)
        check_unique_keys(path)
        warnings = list(bibliography.warnings)
        self._refresh()
        prepared: dict[str, _Prepared] = {}
        files: dict[str, Path | None] = {}
        for item in bibliography:
            file = files[item.key] = entry_file(path, item.file)
            current = self._entries.get(item.key)
            has_text = current is not None and current.metadata.has_text
            if file is None:
                if not has_text:
                    warnings.append(
                        f"{path}: the entry {item.key!r} names no file: its metadata is kept, "
                        "and it has no pages"
                    )
                continue
            try:
                data = _read_bytes(file)
                sha256 = hashlib.sha256(data).hexdigest()
                if current is None or current.metadata.sha256 != sha256:
                    prepared[item.key] = self._prepare(item.key, file, data, sha256)
            except (PaperFileError, MissingDependencyError) as exc:
                kept = "its earlier text is kept" if has_text else "it has no pages"
                warnings.append(f"{path}: the entry {item.key!r}: {exc}; {kept}")
        with self._store.transaction() as transaction:
            entries = dict(transaction.entries)
            for item in bibliography:
                old = entries.get(item.key)
                if item.key in prepared:
                    entry = _stored(transaction, prepared[item.key], old, None)
                else:
                    entry = old or Entry(PaperMetadata(item.key))
                metadata = replace(
                    entry.metadata,
                    title=item.title or entry.metadata.title,
                    authors=item.authors or entry.metadata.authors,
                    year=item.year or entry.metadata.year,
                )
                bib_file = files[item.key]
                entries[item.key] = replace(
                    entry, metadata=metadata, bib_file=str(bib_file) if bib_file else None
                )
            self._commit(transaction, entries)
        return BibliographyImport(
            tuple(bibliography.keys), tuple(prepared), tuple(dict.fromkeys(warnings))
        )

    @staticmethod
    def repair(path: str | PathLike[str]) -> Repair:
        """Rebuild the manifest of the library at ``path`` when it was lost or cannot be read
        (:meth:`Store.repair <citecheck.papers.store.Store.repair>`): from its copy when every
        file it lists is intact, else from the paper files (keys, text, pages and chunks;
        titles, authors and bibliography entries are lost, vectors are made again). Nothing is
        deleted. A library whose manifest reads is left alone (``how == "intact"``)."""
        return Store(Path(path)).repair()

    def remove(self, key: str) -> None:
        """Remove ``key``: its metadata and its files."""
        with self._store.transaction() as transaction:
            entries = dict(transaction.entries)
            if key not in entries:
                raise UnknownPaperError(_unknown(key, entries))
            del entries[key]
            self._commit(transaction, entries)

    def reindex(self, *, with_pages: bool = False, faiss: bool | None = None) -> Reindex:
        """Rebuild every paper's index from the files the library holds, in one atomic commit:
        its chunks, cut again from its stored text and pages under the library's options (as
        ``add`` cuts them now), their vectors, made again by the library's embedder (none
        without one: they are made when the library is next opened with one), the word (BM25)
        index built from the new chunks, and the FAISS file when the library keeps one
        (``faiss``: turn it on or off, as the constructor's option does). A reindex that fails
        or is killed leaves the library as it was.

        ``with_pages`` reads each paper's page numbers again: from the file its text was read
        from when that file is still there (the path it was added from, or its bibliography
        entry's file), as ``add`` reads it, so the ``[PAGE:N]`` markers written into a
        Markdown file since are taken (a file whose content changed replaces the paper's text,
        as adding it again would); else, for a Markdown or text paper, from the ``[PAGE:N]``
        markers or form feeds of its stored text. A PDF or docling paper whose file is gone
        keeps its stored pages (its printed labels are not in its text), and a warning says so.
        """
        if faiss is not None and not isinstance(faiss, bool):
            raise ConfigError(f"faiss must be True, False or None, got {faiss!r}")
        if faiss:
            import_faiss()
        self._refresh()
        if not self._store.manifest.is_file():
            return Reindex()  # nothing added yet: nothing to rebuild, and nothing is written
        before = dict(self._entries)
        planned: dict[str, _Prepared] = {}
        pages: list[tuple[str, str]] = []
        replaced: list[str] = []
        warnings: list[str] = []
        for key, entry in before.items():
            if not entry.metadata.has_text or "text" not in entry.files:
                continue
            paper = PaperText(
                self._text(key),
                self._records(key),
                entry.metadata.format or "text",
                entry.markdown,
                entry.markers,
            )
            metadata, source = entry.metadata, entry.source
            if with_pages:
                read = self._pages_again(key, entry, paper, before, warnings)
                if read is not None:
                    paper, where, sha256 = read
                    pages.append((key, where))
                    if where != _STORED_TEXT:
                        source = where
                    if sha256 != entry.metadata.sha256:
                        replaced.append(key)
                        metadata = replace(
                            metadata, file=Path(where).name, sha256=sha256, format=paper.format
                        )
            planned[key] = self._prepared(key, paper, metadata, source)
        if faiss is not None:
            self._faiss = faiss
        done: list[str] = []
        with self._store.transaction() as transaction:
            entries = dict(transaction.entries)
            for key, prepared in planned.items():
                current = entries.get(key)
                seen = before[key]
                if current is None or (current.files, current.metadata) != (
                    seen.files,
                    seen.metadata,
                ):
                    warnings.append(f"{key}: changed by another change meanwhile: left as it is")
                    continue
                entries[key] = _stored(transaction, prepared, current, None)
                done.append(key)
            self._commit(transaction, entries)
        searcher = self.searcher()  # the word index and the vectors, built from the new files
        return Reindex(
            keys=tuple(done),
            chunks=sum(len(self.chunks(key)) for key in done),
            vectors_by=None if self._embedder is None else embedder_name(self._embedder),
            words=searcher.words,
            pages=tuple(item for item in pages if item[0] in done),
            replaced=tuple(key for key in replaced if key in done),
            skipped=tuple(key for key, e in before.items() if key not in planned),
            faiss=None if self.faiss_file is None else str(self.faiss_file),
            warnings=tuple(warnings),
        )

    def _pages_again(
        self,
        key: str,
        entry: Entry,
        stored: PaperText,
        entries: dict[str, Entry],
        warnings: list[str],
    ) -> tuple[PaperText, str, str | None] | None:
        """``key`` read again for ``reindex(with_pages=True)``: the paper, where its pages
        were read (a file's path, or ``"its stored text"``) and the hash of what was read;
        ``None`` (and a warning) when its stored pages are kept."""
        for candidate in dict.fromkeys(c for c in (entry.source, entry.bib_file) if c):
            path = Path(candidate)
            if not path.is_file():
                continue
            try:
                data = _read_bytes(path)
                sha256 = hashlib.sha256(data).hexdigest()
                twin = next(
                    (k for k, e in entries.items() if k != key and e.metadata.sha256 == sha256),
                    None,
                )
                if twin is not None:
                    warnings.append(
                        f"{key}: its file {path} now holds the paper {twin!r}: its stored pages "
                        "are kept"
                    )
                    return None
                return read_paper(path, data), str(path), sha256
            except (PaperFileError, MissingDependencyError) as exc:
                warnings.append(f"{key}: {exc}; its stored pages are kept")
                return None
        if entry.metadata.format in ("text", "markdown"):
            suffix = ".md" if entry.markdown else ".txt"
            paper = read_paper(Path(f"{key}{suffix}"), stored.text.encode("utf-8"))
            return paper, _STORED_TEXT, entry.metadata.sha256
        where = entry.source or entry.bib_file
        said = f"is not at {where}" if where else "is not known"
        warnings.append(
            f"{key}: its stored pages are kept: the {entry.metadata.format or 'source'} file it "
            f"was read from {said}, and its stored text does not hold its page labels"
        )
        return None

    # -- inside ----------------------------------------------------------------------------

    def _entry(self, key: str) -> Entry:
        entry = self._entries.get(key)
        if entry is None:
            raise UnknownPaperError(_unknown(key, self._entries))
        return entry

    def _key_for(self, path: Path) -> str:
        """The key of the bibliography entry whose file is ``path``, else its stem."""
        resolved = str(path.resolve())
        for key, entry in self._entries.items():
            if entry.bib_file == resolved:
                return key
        return _checked_key(path.stem)

    def _prepare(self, key: str, path: Path, data: bytes, sha256: str) -> _Prepared:
        """Read and chunk a paper, and encode its files; everything that can fail on its
        content fails here, before the library is touched."""
        paper = read_paper(path, data)
        metadata = PaperMetadata(key, file=path.name, sha256=sha256, format=paper.format)
        return self._prepared(key, paper, metadata, str(path.resolve()))

    def _prepared(
        self, key: str, paper: PaperText, metadata: PaperMetadata, source: str | None
    ) -> _Prepared:
        """A paper's text and pages chunked, embedded and encoded as its files, under
        ``metadata`` (its page labels taken from ``paper``); ``source`` is the file it was
        read from."""
        path = Path(source or key)
        pages = tuple(Page(r.number, r.start, r.end) for r in paper.pages if r.number is not None)
        document = Document(key, paper.text, pages=pages)
        chunks = paper_chunks(
            document, markdown=paper.markdown, markers=paper.markers, options=self._options
        )
        try:
            text = paper.text.encode("utf-8")
        except UnicodeEncodeError as exc:
            raise PaperFileError(path, f"{path} holds text that cannot be stored: {exc}") from None
        contents = {
            "text": text,
            "pages": json.dumps([asdict(r) for r in paper.pages]).encode("utf-8"),
            "chunks": "".join(
                json.dumps(asdict(c), ensure_ascii=False) + "\n" for c in chunks
            ).encode("utf-8"),
        }
        if self._embedder is not None:
            contents["vectors"] = to_npy(self._vectors_of([c.text for c in chunks]))
        metadata = replace(metadata, page_labels=tuple(r.label for r in paper.pages))
        chunking = {**asdict(self._options), "splitter": _splitter_name(self._options.language)}
        vectors_by = None if self._embedder is None else embedder_name(self._embedder)
        entry = Entry(
            metadata, {}, None, paper.markdown, paper.markers, chunking, vectors_by, source
        )
        return _Prepared(entry, contents)

    def _text(self, key: str) -> str:
        if "text" not in self._entry(key).files:
            return ""
        text: str = self._parsed(key, "text", lambda raw: raw.decode("utf-8"))
        return text

    def _records(self, key: str) -> tuple[PageRecord, ...]:
        if "pages" not in self._entry(key).files:
            return ()
        records: tuple[PageRecord, ...] = self._parsed(key, "pages", _parse_pages)
        return records

    def _parsed(self, key: str, role: str, parse: Any) -> Any:
        """A per-paper file, read, checked and parsed once (cached by its name, which no later
        change reuses). A file that a change committed meanwhile removed is looked up again
        in the manifest on disk."""
        for attempt in (1, 2):
            stored = self._entry(key).files[role]
            if stored.name in self._cache:
                self._cache.move_to_end(stored.name)
                return self._cache[stored.name]
            try:
                raw = self._store.read_file(stored)
            except FileNotFoundError:
                if attempt == 2:
                    raise SavedIndexError(
                        f"{self.path}: {stored.name}, listed in the manifest, is missing"
                    ) from None
                self._refresh()
                continue
            try:
                value = parse(raw)
            except (ValueError, KeyError, TypeError) as exc:
                raise SavedIndexError(
                    f"{self.path}: {stored.name} is malformed ({exc!r})"
                ) from None
            self._remember(stored.name, value)
            return value
        raise AssertionError("unreachable")  # pragma: no cover

    def _remember(self, name: str, value: Any) -> None:
        self._cache[name] = value
        self._cache.move_to_end(name)
        while len(self._cache) > _CACHED:
            self._cache.popitem(last=False)


def _stored(
    transaction: Transaction, prepared: _Prepared, old: Entry | None, bib_file: str | None
) -> Entry:
    """The entry of a prepared paper, its files written in ``transaction``; the bibliographic
    metadata and file of the entry it replaces are kept."""
    files = transaction.write(prepared.entry.metadata.key, prepared.contents)
    entry = replace(prepared.entry, files=files, bib_file=bib_file)
    if old is None:
        return entry
    meta = replace(
        entry.metadata,
        title=old.metadata.title,
        authors=old.metadata.authors,
        year=old.metadata.year,
    )
    return replace(entry, metadata=meta, bib_file=old.bib_file)


def _parse_pages(raw: bytes) -> tuple[PageRecord, ...]:
    return tuple(PageRecord(**row) for row in json.loads(raw.decode("utf-8")))


def _parse_chunks(raw: bytes) -> tuple[PaperChunk, ...]:
    return tuple(PaperChunk(**json.loads(line)) for line in raw.decode("utf-8").splitlines())


def _read_bytes(path: Path) -> bytes:
    try:
        return path.read_bytes()
    except FileNotFoundError:
        raise PaperFileError(path, f"no such file: {path}") from None
    except IsADirectoryError:
        raise PaperFileError(path, f"{path} is a folder, not a paper file") from None
    except OSError as exc:
        raise PaperFileError(path, f"cannot read {path}: {exc.strerror}") from None


def _checked_key(key: object) -> str:
    if not isinstance(key, str) or not key.strip():
        raise SourceError(f"a paper key must be a non-empty string, got {key!r}")
    return key


def _unknown(key: str, entries: dict[str, Entry]) -> str:
    known = ", ".join(repr(k) for k in list(entries)[:10]) or "none"
    return f"the paper library has no paper {key!r} (keys: {known})"


def _splitter_name(language: str) -> str:
    return "builtin" if default_splitter(language) is builtin_splitter else "sentencex"
