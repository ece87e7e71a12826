"""Which source a citation means: the first step of the cascade.

A TIP marker or a pandoc key names a source id; a key that is no source id may be one of the
sources' ``key`` metadata, or an entry of the bibliography whose file, key or title is a
source. A number ``[n]`` means, in this order: what ``numeric_sources`` maps it to; the source
whose id is ``n``; the entry ``n`` of the text's reference list, matched to a source by id or
file name, key, title, or author and year; and, only when there is neither a mapping nor a
reference list, the n-th source in the order given — a guess, which the report names in a
warning. An author–year citation (``Smith & Jones 2020``) means the one work of the
bibliography and of the sources' metadata (``author``/``authors``, ``year``/``date``, ``title``,
``key``) by those authors in that year, or else the one source whose id names the first author
and the year (``smith2020``).

Every way of failing is said: a number or author–year that matches nothing is ``NOT_FOUND``
with what was looked for and the nearest candidates, but only when every source is known well
enough to rule it out. One that matches several, a work known only from the bibliography, one
that a source nothing is known about could be (no author, year or title, an id that names no
author and year), and any citation at all when no sources were given, is ``UNCHECKED`` — it
could not be checked, which is not the same as not existing.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import PurePath
from typing import Any

from citecheck import registry
from citecheck.documents import Document
from citecheck.documents.bibliography import BibEntry, Bibliography
from citecheck.errors import UnknownBackendError
from citecheck.language.meaning import abbreviates
from citecheck.model import Citation, Span, Status
from citecheck.syntax.author_year import AuthorYear
from citecheck.syntax.reference_list import ReferenceEntry, ReferenceList

__all__ = [
    "Resolved",
    "SourceMapping",
    "SourceResolver",
    "Unresolved",
    "known_ids",
    "syntax_trait",
]

_MAX_QUOTED = 120
"""Longest reference-list entry quoted whole in a reason; a longer one ends with '…'."""
_WORD = re.compile(r"[^\W_]+")
_YEAR = re.compile(r"(?<!\d)(?:1[5-9]|20)\d\d(?!\d)")
_CAPITALISED = re.compile(r"(?<![\w'’-])[^\W\d_][\w'’-]+")
_KEY_LIKE = re.compile(r"[\w.:/+-]*[\d_\-:][\w.:/+-]*")
"""A source id or citation key that is unlikely to be an ordinary word: ``smith2020``,
``ctx-1``; such an id standing in a reference-list entry names the source."""
_ARTICLE = re.compile(r"^(?:the|a|an)\s+", re.IGNORECASE)
_MAX_NAMED = 5
"""Most sources a reason names one by one; the rest are counted."""


@dataclass(frozen=True, slots=True)
class SourceMapping:
    """How a cited key that is no source id was mapped to a source: ``cited`` as the citation
    wrote it (``1``, ``Smith 2020``, ``lee2019``), its ``syntax``, the ``source_id`` it means,
    ``by`` what (``numeric_sources``, ``reference list``, ``order``, ``bibliography``,
    ``metadata``, ``id``, ``file name``, ``url`` or ``description``), the ``detail`` that
    decided (the entry, the key), and the source's file ``path`` when it has one."""

    cited: str
    syntax: str
    source_id: str
    by: str
    detail: str = ""
    path: str | None = None

    @property
    def label(self) -> str:
        """The cited key as a reader knows it: ``[1]``, ``(Smith 2020)``, ``@lee2019``,
        ``[[ctx-1]]``."""
        form: str = syntax_trait(self.syntax, "cited_as", "{!r}")
        return form.format(self.cited)

    def describe(self) -> str:
        """One line: ``[1] = 'smith' (papers/smith.pdf), by the reference list: 'Smith, J.…'``."""
        where = f" ({self.path})" if self.path else ""
        how = {
            "numeric_sources": "the mapping given (numeric_sources, --map-numbers)",
            "reference list": "the text's reference list",
            "order": "the order of the sources (a guess)",
            "bibliography": "the bibliography",
            "metadata": "the sources' metadata",
            "id": "the source's id",
            "file name": "the source's file name",
            "url": "the source's url",
            "description": "the sources' titles, file names, authors and years",
        }.get(self.by, self.by)
        detail = f": {self.detail}" if self.detail else ""
        return f"{self.label} = {self.source_id!r}{where}, by {how}{detail}"

    def to_dict(self) -> dict[str, Any]:
        return {
            "cited": self.cited,
            "syntax": self.syntax,
            "source_id": self.source_id,
            "by": self.by,
            "detail": self.detail,
            "path": self.path,
        }


@dataclass(frozen=True, slots=True)
class Resolved:
    """The citation means the source ``source_id``; ``mapping`` says how, unless it named it."""

    source_id: str
    mapping: SourceMapping | None = None


@dataclass(frozen=True, slots=True)
class Unresolved:
    """No source could be decided: ``NOT_FOUND`` or ``UNCHECKED``, and why."""

    status: Status
    reason: str


@dataclass(frozen=True, slots=True)
class _Work:
    """A work known from the bibliography or a source's metadata, and its source, if given."""

    entry: BibEntry
    source_id: str | None
    origin: str  # "bibliography" or "metadata"

    def describe(self) -> str:
        """``Smith & Jones 2020 (source 'smith2020')``."""
        authors = self.entry.authors
        names = f"{authors[0]} et al." if len(authors) > 2 else " & ".join(authors) or "?"
        when = self.entry.year or "n.d."
        if self.source_id is not None:
            return f"{names} {when} (source {self.source_id!r})"
        return f"{names} {when} (bibliography key {self.entry.key!r}, text not given)"


_Hit = tuple[str, str | None, str]
"""What a way of resolving found: the source id, by what (``None``: the citation named it),
and the detail that decided."""


def known_ids(documents: Mapping[str, Document], bibliography: Bibliography | None) -> set[str]:
    """The keys a citation may name: source ids, ``key`` metadata and bibliography keys (a bare
    ``@key`` naming one of these is a citation)."""
    keys = set(documents)
    keys.update(str(d.metadata["key"]) for d in documents.values() if d.metadata.get("key"))
    if bibliography is not None:
        keys.update(bibliography.keys)
    return keys


class SourceResolver:
    """Resolves the citations of one text against its sources; keeps the mappings it used and
    the warnings to report (reference-list entries that match no source, numbers mapped by
    order, citations met with no sources). One resolver per text.

    ``sources_given=False`` says the caller was given no sources at all (no documents, and no
    index holding any): every citation is then ``UNCHECKED``, and one warning says why. It
    cannot be told from ``documents`` alone, which a search index may leave empty while it
    holds the sources. ``order`` is the source id of each item the caller gave, by position,
    when that differs from the documents' order (chunks of one source merged into one
    document): ``[n]`` guessed by order is then the n-th item's source.
    """

    def __init__(
        self,
        documents: Mapping[str, Document],
        *,
        bibliography: Bibliography | None = None,
        numbers: Mapping[str, str] | None = None,
        reference_list: ReferenceList | None = None,
        sources_given: bool = True,
        order: Sequence[str] | None = None,
    ) -> None:
        self.documents = documents
        self.order = list(documents) if order is None else list(order)
        self.sources_given = sources_given
        self.bibliography = bibliography
        self.numbers = numbers
        self.reference_list = (
            reference_list if reference_list is not None and reference_list.numbers else None
        )
        self._works: list[_Work] | None = None
        self._described: dict[str, list[BibEntry]] | None = None  # source id → its works
        self._mappings: dict[tuple[str, str], SourceMapping] = {}
        self._by_order: list[str] = []
        self._entries: dict[str, tuple[str | None, str]] | None = None
        self._unsourced = 0  # citations met while no sources were given

    # -- public ---------------------------------------------------------------------------

    def resolve(self, citation: Citation) -> Resolved | Unresolved:
        """The source ``citation`` means, or why none could be decided."""
        if not self.sources_given:
            self._unsourced += 1
            return Unresolved(
                Status.UNCHECKED, "no sources were given, so there is nothing to check it against"
            )
        names_by = syntax_trait(citation.syntax, "names_by", "key")
        if names_by == "number" and citation.source_id.isdigit():
            outcome = self._number(citation.source_id)
        elif names_by == "author_year":
            outcome = self._author_year(AuthorYear.parse(citation.source_id))
        else:
            outcome = self._key(citation.source_id)
        if isinstance(outcome, Unresolved):
            return outcome
        source_id, by, detail = outcome
        if by is None:
            return Resolved(source_id)
        mapping = self._mappings.setdefault(
            (citation.syntax, citation.source_id),
            SourceMapping(
                citation.source_id, citation.syntax, source_id, by, detail, self._path(source_id)
            ),
        )
        return Resolved(source_id, mapping)

    @property
    def mappings(self) -> list[SourceMapping]:
        """The mappings used so far, in the order first used."""
        return list(self._mappings.values())

    @property
    def warnings(self) -> list[str]:
        """Reference-list entries that match no source, the numbers mapped by order, and
        citations met when no sources were given."""
        warnings = []
        if self._unsourced:
            count = self._unsourced
            what = "the citation" if count == 1 else f"none of the {count} citations"
            could = "could not" if count == 1 else "could"
            warnings.append(f"No sources were given, so {what} {could} be checked.")
        if self.reference_list is not None:
            matches = self._reference_matches()
            for entry in self.reference_list.entries:
                if entry.number is not None and matches[entry.number][0] is None:
                    warnings.append(
                        f"Entry [{entry.number}] of the reference list at characters "
                        f"{entry.span.start}-{entry.span.end}, {_quoted(entry)}, "
                        f"{matches[entry.number][1]}."
                    )
        if self._by_order:
            ids = self.order
            pairs = ", ".join(f"[{n}] = {ids[int(n) - 1]!r}" for n in self._by_order)
            warnings.append(
                f"Numbers were mapped to sources by the order the sources were given, which "
                f"is a guess: {pairs}. Say which is which with numeric_sources (--map-numbers) "
                "or a reference list at the end of the text."
            )
        return warnings

    # -- numbers ----------------------------------------------------------------------------

    def _number(self, number: str) -> _Hit | Unresolved:
        if self.numbers is not None:
            target = self.numbers.get(number)
            if target is None:
                mapped = ", ".join(f"[{n}]" for n in self.numbers) or "nothing"
                return Unresolved(
                    Status.NOT_FOUND, f"[{number}] is not in numeric_sources (it maps {mapped})"
                )
            if target not in self.documents:
                return Unresolved(
                    Status.NOT_FOUND,
                    f"numeric_sources maps [{number}] to {target!r}, which is not among the "
                    f"sources ({_listed(self.documents)})",
                )
            return target, "numeric_sources", ""
        if number in self.documents:
            return number, None, ""
        if self.reference_list is not None:
            return self._listed_number(number, self.reference_list)
        ids = self.order
        index = int(number) - 1
        if not 0 <= index < len(ids):
            return Unresolved(
                Status.NOT_FOUND,
                f"[{number}] names no source: the text has no reference list, and "
                f"{len(ids)} source{'' if len(ids) == 1 else 's'} were given ({_listed(ids)})",
            )
        if number not in self._by_order:
            self._by_order.append(number)
        return ids[index], "order", ""

    def _listed_number(self, number: str, reference_list: ReferenceList) -> _Hit | Unresolved:
        entry = reference_list.entry(number)
        if entry is None:
            numbers = ", ".join(reference_list.numbers)
            return Unresolved(
                Status.NOT_FOUND,
                f"[{number}] is not in the text's reference list (its entries are {numbers})",
            )
        source_id, how = self._reference_matches()[number]
        if source_id is not None:
            return source_id, "reference list", _quoted(entry)
        reason = f"[{number}] is {_quoted(entry)} in the text's reference list, which {how}"
        if how.startswith("matches several"):
            return Unresolved(Status.UNCHECKED, reason)
        # A phantom only when every source is ruled out: named by another entry of the list,
        # or described (author, year, title, id) in a way this entry contradicts.
        taken = {found for found, _ in self._reference_matches().values() if found}
        words, years = _words(entry.text), set(_YEAR.findall(entry.text))
        undecided = [
            source_id
            for source_id in self.documents
            if source_id not in taken
            and self._could_be(source_id, lambda e: _entry_agrees(e, words, years))
        ]
        if undecided:
            return Unresolved(Status.UNCHECKED, f"{reason}; but {_unknown(undecided)}")
        return Unresolved(Status.NOT_FOUND, reason)

    def _reference_matches(self) -> dict[str, tuple[str | None, str]]:
        """Number → (the source its entry means, else ``None`` and why), computed once."""
        if self._entries is None:
            assert self.reference_list is not None
            self._entries = {}
            for entry in self.reference_list.entries:
                if entry.number is not None and entry.number not in self._entries:
                    self._entries[entry.number] = self._match_entry(entry)
        return self._entries

    def _match_entry(self, entry: ReferenceEntry) -> tuple[str | None, str]:
        """The one source an entry names, by id or file name, key, title, or author and year;
        ``None`` with why when no way finds exactly one."""
        text = entry.text
        words = _words(text)
        years = set(_YEAR.findall(text))
        ambiguous: set[str] = set()
        works = self._catalog()
        for found in (
            self._by_file(text),
            {
                w.source_id
                for w in works
                if w.source_id
                and _KEY_LIKE.fullmatch(w.entry.key)
                and _stands_in(w.entry.key, text)
            },
            {
                w.source_id
                for w in works
                if w.source_id and w.entry.title and _contains(words, w.entry.title)
            },
            {
                w.source_id
                for w in works
                if w.source_id
                and w.entry.authors
                and (w.entry.year or "")[:4] in years
                and _contains(words, w.entry.authors[0])
            },
            self._ids_naming(
                [_fold(w) for w in _CAPITALISED.findall(text[: _first_year(text)])], years
            ),
        ):
            if len(found) == 1:
                return next(iter(found)), ""
            ambiguous |= found
        if ambiguous:
            return None, f"matches several sources ({_listed(sorted(ambiguous))})"
        return (
            None,
            "matches none of the sources (by id, file name, key, title, or author and year)",
        )

    def _by_file(self, text: str) -> set[str]:
        """Sources whose file name (``smith2020.pdf``), ``url`` metadata or key-like id
        (``smith2020``) stands in ``text``."""
        lowered = text.casefold()
        found = set()
        for source_id, document in self.documents.items():
            path, url = document.metadata.get("path"), document.metadata.get("url")
            names = [rf"{re.escape(source_id.casefold())}\.\w{{1,5}}"]
            if path:
                names.append(re.escape(PurePath(str(path)).name.casefold()))
            if url:
                names.append(re.escape(str(url).casefold().rstrip("/")))
            if any(re.search(rf"(?<![\w.-]){name}\b", lowered) for name in names) or (
                _KEY_LIKE.fullmatch(source_id) and _stands_in(source_id, text)
            ):
                found.add(source_id)
        return found

    # -- keys -------------------------------------------------------------------------------

    def _key(self, key: str) -> _Hit | Unresolved:
        if key in self.documents:
            return key, None, ""
        by_metadata = [d.id for d in self.documents.values() if d.metadata.get("key") == key]
        if len(by_metadata) == 1:
            return by_metadata[0], "metadata", ""
        entry = None if self.bibliography is None else self.bibliography.get(key)
        if entry is None:
            by_name = self._by_name(key)
            if by_name is not None:
                return by_name
            if " " in key.strip():  # words, not a key: a description of the work
                return self._described_as(key)
            return key, None, ""  # the cascade says it does not exist (or is in the index)
        target = self._source_of(entry)
        if target is None:
            title = f" ({entry.title!r})" if entry.title else ""
            return Unresolved(
                Status.UNCHECKED,
                f"{key!r} is in the bibliography{title}, but its text is not among the sources",
            )
        return target, "bibliography", f"key {key!r}"

    def _by_name(self, key: str) -> _Hit | Unresolved | None:
        """The source a key names by its file name (``trial.pdf``, or ``trial.pdf`` for the
        source ``trial`` read from another file), its ``url``, or its id in another case
        (``Trial``); ``None`` when it names none of them."""
        folded = key.casefold().rstrip("/")
        stem, dot, extension = folded.rpartition(".")
        ways = (
            ("file name", lambda i, d: _file_name(d) == folded),
            ("url", lambda i, d: str(d.metadata.get("url") or "").casefold().rstrip("/") == folded),
            ("file name", lambda i, d: bool(dot) and extension.isalnum() and i.casefold() == stem),
            ("id", lambda i, d: i.casefold() == folded),
        )
        for by, names in ways:
            found = [i for i, d in self.documents.items() if names(i, d)]
            if len(found) == 1:
                return found[0], by, ""
            if found:
                return Unresolved(
                    Status.UNCHECKED,
                    f"{key!r} may be any of several sources ({_listed(found)}): cite one by its id",
                )
        return None

    def _described_as(self, description: str) -> _Hit | Unresolved:
        """The one source that words such as ``Smith et al., Nature 2020`` or ``Lab notes``
        describe, matched as a reference-list entry is; a phantom only when every source is
        ruled out."""
        entry = ReferenceEntry(None, description, Span(0, len(description)))
        source_id, how = self._match_entry(entry)
        if source_id is not None:
            return source_id, "description", _quoted(entry)
        reason = f"{_quoted(entry)} {how}"
        if how.startswith("matches several"):
            return Unresolved(Status.UNCHECKED, reason)
        words, years = _words(description), set(_YEAR.findall(description))
        undecided = [
            i for i in self.documents if self._could_be(i, lambda e: _entry_agrees(e, words, years))
        ]
        if undecided:
            return Unresolved(Status.UNCHECKED, f"{reason}; but {_unknown(undecided)}")
        return Unresolved(Status.NOT_FOUND, reason)

    # -- author and year --------------------------------------------------------------------

    def _author_year(self, cited: AuthorYear) -> _Hit | Unresolved:
        label = f"({cited})"
        works = [w for w in self._catalog() if _same_work(cited, w.entry)]
        chosen = _by_suffix(cited, _distinct(works))
        if len(chosen) == 1:
            work = chosen[0]
            if work.source_id is None:
                title = f" ({work.entry.title!r})" if work.entry.title else ""
                return Unresolved(
                    Status.UNCHECKED,
                    f"{label} is {work.entry.key!r} in the bibliography{title}, but its text is "
                    "not among the sources",
                )
            detail = f"key {work.entry.key!r}" if work.origin == "bibliography" else ""
            return work.source_id, work.origin, detail
        if len(chosen) > 1:
            return Unresolved(Status.UNCHECKED, _ambiguous(label, [w.describe() for w in chosen]))
        if cited.year is not None:
            ids = sorted(self._ids_naming([_surname(cited.names[0])], {cited.year}, cited.suffix))
            if len(ids) == 1:
                return ids[0], "id", ""
            if ids:
                return Unresolved(Status.UNCHECKED, _ambiguous(label, [repr(i) for i in ids]))
        missing = (
            f"no work by {' & '.join(cited.names)} from {cited.year or 'n.d.'} in the "
            "bibliography, the sources' metadata or their ids"
        )
        undecided = [i for i in self.documents if self._could_be(i, lambda e: _agrees(cited, e))]
        if undecided:
            return Unresolved(
                Status.UNCHECKED,
                f"cannot tell whether a source is {label}: {missing}; but {_unknown(undecided)}",
            )
        nearest = self._nearest(cited)
        known = f"; the nearest: {', '.join(nearest)}" if nearest else ""
        return Unresolved(Status.NOT_FOUND, f"no source is {label}: {missing}{known}")

    def _nearest(self, cited: AuthorYear) -> list[str]:
        """Works by the same first author in another year (and source ids naming that author),
        then works of the same year."""
        first = cited.names[0]
        by_author = [
            w for w in self._catalog() if w.entry.authors and _same_name(first, w.entry.authors[0])
        ]
        described = {w.source_id for w in by_author}
        nearest = [w.describe() for w in by_author]
        ids = sorted(self._ids_naming([_surname(first)], None))
        nearest += [repr(i) for i in ids if i not in described]
        nearest += [
            w.describe()
            for w in self._catalog()
            if cited.year is not None and (w.entry.year or "")[:4] == cited.year
        ]
        return list(dict.fromkeys(nearest))[:5]

    def _ids_naming(
        self, names: Iterable[str], years: Collection[str] | None, suffix: str = ""
    ) -> set[str]:
        """Source ids holding one of the folded ``names`` and one of the ``years`` (any year
        when ``None``), with the letter ``suffix`` right after it when one is given."""
        found = set()
        for source_id in self.documents:
            folded = _fold(source_id)
            id_years = [m.group() for m in _YEAR.finditer(folded)]
            if not id_years or not any(name and name in folded for name in names):
                continue
            for year in id_years:
                if years is None or year in years:
                    after = folded[folded.index(year) + 4 : folded.index(year) + 5]
                    if not suffix or after == suffix:
                        found.add(source_id)
        return found

    def _could_be(self, source_id: str, agrees: Callable[[BibEntry], bool]) -> bool:
        """True when nothing known about the source rules it out as the work cited: every work
        that describes it (its metadata, a bibliography entry whose text it is) ``agrees`` with
        the citation, or none does and its id names no author and year (``smith2020`` does)."""
        if self._described is None:
            self._described = {}
            for work in self._catalog():
                if work.source_id is not None:
                    self._described.setdefault(work.source_id, []).append(work.entry)
        described = self._described.get(source_id)
        if described:
            return all(agrees(entry) for entry in described)
        return not (_YEAR.search(source_id) and re.search(r"[^\W\d_]{2}", source_id))

    # -- the catalogue of works --------------------------------------------------------------

    def _catalog(self) -> list[_Work]:
        """The works of the bibliography (each with its source, if given) and of the sources'
        metadata, built on first use."""
        if self._works is None:
            works = []
            if self.bibliography is not None:
                works = [_Work(e, self._source_of(e), "bibliography") for e in self.bibliography]
            for document in self.documents.values():
                entry = BibEntry.from_fields(
                    str(document.metadata.get("key") or document.id), document.metadata
                )
                if entry.authors or entry.year or entry.title:
                    works.append(_Work(entry, document.id, "metadata"))
            self._works = works
        return self._works

    def _source_of(self, entry: BibEntry) -> str | None:
        """The source that holds an entry's text: by key, ``key`` metadata, file, or title."""
        if entry.key in self.documents:
            return entry.key
        ways: list[list[str]] = [
            [d.id for d in self.documents.values() if d.metadata.get("key") == entry.key]
        ]
        if entry.file:
            name = PurePath(entry.file.replace("\\", "/")).name
            ways.append(
                [
                    d.id
                    for d in self.documents.values()
                    if d.id == PurePath(name).stem
                    or PurePath(str(d.metadata.get("path", ""))).name.casefold() == name.casefold()
                ]
            )
        if entry.title:
            ways.append(
                [
                    d.id
                    for d in self.documents.values()
                    if isinstance(d.metadata.get("title"), str)
                    and _words(d.metadata["title"]) == _words(entry.title)
                ]
            )
        return next((found[0] for found in ways if len(set(found)) == 1), None)

    def _path(self, source_id: str) -> str | None:
        document = self.documents.get(source_id)
        path = None if document is None else document.metadata.get("path")
        return str(path) if path else None


def _same_work(cited: AuthorYear, entry: BibEntry) -> bool:
    """``cited`` names ``entry``'s first author (and the others it names) and its year."""
    known_year = entry.year is not None or cited.year is None
    return bool(entry.authors) and known_year and _agrees(cited, entry)


def _agrees(cited: AuthorYear, entry: BibEntry) -> bool:
    """Nothing ``entry`` says contradicts ``cited``: its authors, when known, start with the
    first name cited and hold the others; its year, when known, is the year cited."""
    if entry.authors and (
        not _same_name(cited.names[0], entry.authors[0])
        or not all(any(_same_name(n, a) for a in entry.authors) for n in cited.names[1:])
    ):
        return False
    return entry.year is None or (cited.year is not None and entry.year[:4] == cited.year)


def _entry_agrees(work: BibEntry, words: list[str], years: set[str]) -> bool:
    """Nothing ``work`` says contradicts a reference-list entry of ``words`` and ``years``: its
    first author's family name, its year and its title, each when known, stand in the entry."""
    if work.authors and _surname(work.authors[0]) not in words:
        return False
    if work.year is not None and work.year[:4] not in years:
        return False
    title = "".join(_words(work.title or ""))
    return len(title) < 4 or _contains(words, work.title or "")


def _same_name(cited: str, family: str) -> bool:
    """Family names agree, accents, case and particles aside; ``WHO`` stands for ``World Health
    Organization``."""
    if _surname(cited) == _surname(family):
        return True
    return cited.isupper() and len(cited) > 1 and abbreviates(cited, family.split())


def _distinct(works: list[_Work]) -> list[_Work]:
    """One work per source (a bibliography entry and a source's metadata may describe the
    same one), and per key for works whose text was not given."""
    seen: dict[str, _Work] = {}
    for work in works:
        seen.setdefault(work.source_id or f"key:{work.entry.key}", work)
    return list(seen.values())


def _by_suffix(cited: AuthorYear, works: list[_Work]) -> list[_Work]:
    """Of several works of one author and year, the one ``cited``'s letter picks: the work whose
    own year has that letter, else the letter's place among them ordered by title (APA)."""
    if len(works) < 2 or not cited.suffix:
        return works
    own = [w for w in works if (w.entry.year or "")[4:] == cited.suffix]
    if len(own) == 1:
        return own
    ordered = sorted(works, key=lambda w: _ARTICLE.sub("", (w.entry.title or "").casefold()))
    index = ord(cited.suffix) - ord("a")
    return [ordered[index]] if index < len(ordered) else []


def _ambiguous(label: str, candidates: list[str]) -> str:
    return (
        f"{label} is ambiguous: it matches {', '.join(candidates)}; add the letter that tells "
        "them apart (2020a, 2020b) or cite a key"
    )


@lru_cache(maxsize=4096)
def _surname(name: str) -> str:
    """The folded last word of a family name, particles left out: ``van der Berg`` → ``berg``."""
    return _fold(name.split()[-1]) if name.split() else ""


def _fold(text: str) -> str:
    """Lower case, no accents, letters and digits only: how names and ids are compared."""
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    return "".join(ch for ch in decomposed if ch.isalnum())


def _words(text: str) -> list[str]:
    return [_fold(word) for word in _WORD.findall(text)]


def _contains(words: list[str], phrase: str) -> bool:
    """True when the words of ``phrase`` stand together, in order, among ``words``."""
    wanted = _words(phrase)
    if not wanted or len("".join(wanted)) < 4:
        return False
    return any(words[i : i + len(wanted)] == wanted for i in range(len(words) - len(wanted) + 1))


def _stands_in(key: str, text: str) -> bool:
    return re.search(rf"(?<![\w.-]){re.escape(key)}(?![\w-])", text) is not None


def _first_year(text: str) -> int:
    found = _YEAR.search(text)
    return len(text) if found is None else found.start()


def _quoted(entry: ReferenceEntry) -> str:
    text = " ".join(entry.text.split())
    return repr(text if len(text) <= _MAX_QUOTED else text[: _MAX_QUOTED - 1] + "…")


def _file_name(document: Document) -> str:
    """The folded name of the file a document was read from, ``""`` when it has none."""
    path = document.metadata.get("path")
    return PurePath(str(path)).name.casefold() if path else ""


def _listed(ids: Iterable[str]) -> str:
    return ", ".join(repr(i) for i in ids) or "none"


def _unknown(ids: list[str]) -> str:
    """Which sources could be the work cited: ``'b' could be it: nothing in its metadata, a
    bibliography entry or its id rules it out``."""
    named = _listed(ids[:_MAX_NAMED])
    if len(ids) > _MAX_NAMED:
        named += f" and {len(ids) - _MAX_NAMED} more"
    their, it = ("its", "it") if len(ids) == 1 else ("their", "them")
    return (
        f"{named} could be it: nothing in {their} metadata, a bibliography entry or {their} id "
        f"rules {it} out"
    )


@lru_cache(maxsize=64)
def syntax_trait(syntax: str, name: str, default: Any) -> Any:
    """What the syntax registered as ``syntax`` says of itself (``cited_as``, ``names_by``),
    else ``default``: a syntax object given directly, not registered, says nothing."""
    try:
        return getattr(registry.load("syntaxes", syntax), name, default)
    except UnknownBackendError:
        return default
