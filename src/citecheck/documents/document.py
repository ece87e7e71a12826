"""A source document: its text, where its lines, pages, sections and timed segments are, and how
a :class:`~citecheck.locations.Location` resolves to a span of it."""

from __future__ import annotations

from array import array
from bisect import bisect_left, bisect_right
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from os import PathLike
from types import MappingProxyType
from typing import Any, BinaryIO

from citecheck.documents.structure import (
    Page,
    Section,
    Segment,
    find_inline_times,
    find_line_starts,
    find_pages,
    find_sections,
    line_count,
    page_at,
    section_parents,
    slugify,
)
from citecheck.errors import InputError, LocationError, LocationKindError, SourceError
from citecheck.language.text import WORD, NormalizedText, WordPairs
from citecheck.locations import Location
from citecheck.model import CONTEXT_CHARS, Evidence, Span

__all__ = ["Document"]


@dataclass(frozen=True, slots=True)
class Document:
    """A source that citations point into.

    ``Document(id, text)`` finds ``[PAGE:N]`` markers and form feeds in ``text`` itself, and
    Markdown headings when a section is asked for. Pages given explicitly (``from_pages``) and
    timed segments (``from_transcript``) are kept as passed. Structure and the normalised text
    are computed on first use and cached, so a document costs nothing until it is consulted.
    """

    id: str
    text: str
    metadata: Mapping[str, Any] = field(default_factory=dict, hash=False)
    pages: tuple[Page, ...] | None = field(default=None, kw_only=True)
    segments: tuple[Segment, ...] = field(default=(), kw_only=True)
    _cache: dict[str, Any] = field(
        default_factory=dict, init=False, repr=False, compare=False, hash=False
    )

    def __post_init__(self) -> None:
        if not isinstance(self.id, str) or not self.id.strip():
            raise SourceError(f"a document id must be a non-empty string, got {self.id!r}")
        if not isinstance(self.text, str):
            raise SourceError(
                f"document {self.id!r}: text must be str, got {type(self.text).__name__}"
                + (" (decode bytes first)" if isinstance(self.text, bytes | bytearray) else "")
            )
        if self.metadata is None:
            object.__setattr__(self, "metadata", {})
        if not isinstance(self.metadata, Mapping):
            raise SourceError(f"document {self.id!r}: metadata must be a mapping")
        object.__setattr__(self, "metadata", MappingProxyType(dict(self.metadata)))
        if self.pages is not None:
            object.__setattr__(self, "pages", tuple(self.pages))
            _check_ranges(self.id, "page", self.pages, len(self.text))
        object.__setattr__(self, "segments", tuple(self.segments))
        _check_ranges(self.id, "segment", self.segments, len(self.text))

    # -- constructors ---------------------------------------------------------------------

    @classmethod
    def from_pages(
        cls,
        id: str,
        pages: Sequence[str],
        first_page: int = 1,
        metadata: Mapping[str, Any] | None = None,
    ) -> Document:
        """One document from page texts; pages are numbered from ``first_page`` and joined by
        form feeds, so offsets run through the whole document."""
        texts = list(pages)
        numbers = range(first_page, first_page + len(texts))
        return cls.from_numbered_pages(id, zip(numbers, texts, strict=True), metadata)

    @classmethod
    def from_numbered_pages(
        cls,
        id: str,
        pages: Iterable[tuple[int | None, str]],
        metadata: Mapping[str, Any] | None = None,
    ) -> Document:
        """One document from ``(page number, text)`` pairs, for numbering with gaps or jumps
        (a printed numbering that starts mid-file). A page numbered ``None`` keeps its text
        but cannot be cited by page (front matter labelled ``iii``)."""
        records = []
        texts = []
        start = 0
        for index, (number, page) in enumerate(pages):
            if not isinstance(page, str):
                raise SourceError(
                    f"document {id!r}: page {index} is {type(page).__name__}, not str"
                )
            if number is not None:
                records.append(Page(int(number), start, start + len(page)))
            texts.append(page)
            start += len(page) + 1
        return cls(id, "\f".join(texts), metadata or {}, pages=tuple(records))

    @classmethod
    def from_pdf(
        cls,
        id: str,
        source: str | PathLike[str] | bytes | BinaryIO,
        *,
        first_page: int | None = None,
        metadata: Mapping[str, Any] | None = None,
    ) -> Document:
        """A PDF's text, page by page (needs the ``pdf`` extra: pypdf).

        Pages are numbered by the PDF's printed page labels (so printed page 12 is ``p12`` even
        when it is the 15th page of the file); pages labelled otherwise, such as front matter in
        roman numerals, keep their text but no page number. When the labels give no usable
        numbering, or ``first_page`` is given, pages count from ``first_page`` (default 1).
        """
        from citecheck.documents.pdf import read_pdf_pages

        return cls.from_numbered_pages(id, read_pdf_pages(source, first_page), metadata)

    @classmethod
    def from_markdown(
        cls, id: str, text: str, metadata: Mapping[str, Any] | None = None
    ) -> Document:
        """A Markdown document: its headings are sections (``sec-intro``, ``§ Methods``)."""
        return cls(id, text, {"format": "markdown", **(metadata or {})})

    @classmethod
    def from_transcript(
        cls,
        id: str,
        segments: Iterable[tuple[float, float, str]],
        metadata: Mapping[str, Any] | None = None,
    ) -> Document:
        """A transcript from ``(start_seconds, end_seconds, text)`` segments, one per line, so
        ``2:15`` resolves to the segment spoken at that time."""
        records = []
        texts = []
        start = 0
        for index, item in enumerate(segments):
            try:
                begin, end, text = item
                begin, end = float(begin), float(end)
            except (TypeError, ValueError):
                raise SourceError(
                    f"document {id!r}: segment {index} must be (start_seconds, end_seconds, text)"
                ) from None
            if not isinstance(text, str):
                raise SourceError(f"document {id!r}: segment {index} text is not a string")
            records.append(Segment(begin, end, start, start + len(text)))
            texts.append(text)
            start += len(text) + 1
        return cls(id, "\n".join(texts), metadata or {}, segments=tuple(records))

    # -- structure ------------------------------------------------------------------------

    def _cached(self, key: str, compute: Any) -> Any:
        if key not in self._cache:
            self._cache[key] = compute()
        return self._cache[key]

    @property
    def normalized(self) -> NormalizedText:
        """The normalised text with its offset map (computed once)."""
        result: NormalizedText = self._cached("normalized", lambda: NormalizedText.of(self.text))
        return result

    @property
    def line_starts(self) -> Sequence[int]:
        """Offsets where each line begins (line 1 at index 0)."""
        result: Sequence[int] = self._cached("lines", lambda: find_line_starts(self.text))
        return result

    @property
    def line_count(self) -> int:
        return line_count(self.text, self.line_starts)

    @property
    def page_list(self) -> tuple[Page, ...]:
        """The pages, given or found in the text (empty when the document has none)."""
        if self.pages is not None:
            return self.pages
        result: tuple[Page, ...] = self._cached("pages", lambda: find_pages(self.text))
        return result

    @property
    def sections(self) -> tuple[Section, ...]:
        """Markdown sections in document order."""
        result: tuple[Section, ...] = self._cached("sections", lambda: find_sections(self.text))
        return result

    def line_at(self, offset: int) -> int:
        """The 1-based line holding ``offset``."""
        return bisect_right(self.line_starts, offset)

    def page_at(self, offset: int) -> int | None:
        """The number of the page holding ``offset``, if the document has pages."""
        pages = self.page_list
        if not pages:
            return None
        starts: list[int] = self._cached("page_starts", lambda: [p.start for p in pages])
        return page_at(pages, starts, offset)

    @property
    def words(self) -> tuple[Sequence[int], list[str]]:
        """The words of the normalised text, in order, with their start offsets in it (an
        ``array('q')``). Repeated words are one string object, so the list costs a pointer a
        word: a long source repeats a small vocabulary."""
        result: tuple[Sequence[int], list[str]] = self._cached("words", self._find_words)
        return result

    def _find_words(self) -> tuple[Sequence[int], list[str]]:
        starts = array("q")
        words: list[str] = []
        vocabulary: dict[str, str] = {}
        for match in WORD.finditer(self.normalized.text):
            starts.append(match.start())
            word = match.group()
            words.append(vocabulary.setdefault(word, word))
        return starts, words

    def words_in(self, start: int, end: int) -> list[str]:
        """The normalised words that start inside the original range ``[start, end)``."""
        n_start, n_end = self.normalized.to_normalized(start, end)
        starts, words = self.words
        return words[bisect_left(starts, n_start) : bisect_left(starts, n_end)]

    @property
    def word_positions(self) -> Mapping[str, array[int]]:
        """Every word of the normalised text with the offsets (in the normalised text) where it
        starts, sorted in an ``array('q')``: an index for finding a quote in a long document
        without scanning all of it."""
        result: Mapping[str, array[int]] = self._cached("word_positions", self._index_words)
        return result

    def _index_words(self) -> dict[str, array[int]]:
        positions: dict[str, array[int]] = {}
        for start, word in zip(*self.words, strict=True):
            found = positions.get(word)
            if found is None:
                positions[word] = found = array("q")
            found.append(start)
        return positions

    @property
    def word_pairs(self) -> WordPairs:
        """Hashes of every pair of consecutive normalised words, as
        :func:`~citecheck.language.text.pair_hashes` makes them: a compact way to rule a long
        document out before searching it (a passage it holds shares its word pairs). ``pair in
        document.word_pairs`` asks whether it holds one."""
        result: WordPairs = self._cached("pairs", lambda: WordPairs.of(self.words[1]))
        return result

    def section_at(self, offset: int) -> str | None:
        """The title of the innermost section holding ``offset``: the last section to start
        at or before it, or the nearest of its parents that reaches it."""
        sections = self.sections
        starts, parents = self._cached("section_tree", lambda: self._section_tree(sections))
        index = bisect_right(starts, offset) - 1
        while index >= 0 and sections[index].end <= offset:
            index = parents[index]
        return sections[index].title if index >= 0 else None

    @staticmethod
    def _section_tree(sections: tuple[Section, ...]) -> tuple[list[int], list[int]]:
        return [s.start for s in sections], section_parents(sections)

    def evidence(
        self,
        start: int,
        end: int,
        score: float,
        method: str,
        scores: Mapping[str, float] | None = None,
        *,
        context: int = CONTEXT_CHARS,
    ) -> Evidence:
        """Evidence for ``text[start:end]``, annotated with its page, line and section, and
        ``context`` characters of the text on either side."""
        return Evidence(
            source_id=self.id,
            start=start,
            end=end,
            text=self.text[start:end],
            score=score,
            method=method,
            page=self.page_at(start),
            line=self.line_at(start),
            section=self.section_at(start),
            scores=scores or {},
            context_before=self.text[max(0, start - context) : start],
            context_after=self.text[end : end + context],
        )

    # -- locations ------------------------------------------------------------------------

    def resolve(self, location: Location | str) -> Span:
        """The span a location covers; :class:`LocationError` when the document lacks it."""
        if isinstance(location, str):
            location = Location.parse(location)
        kind = location.kind
        if kind == "general":
            return Span(0, len(self.text))
        if kind == "chars":
            return self._resolve_chars(location)
        if kind == "lines":
            return self._resolve_lines(location)
        if kind == "pages":
            return self._resolve_pages(location)
        if kind == "section":
            return self._resolve_section(location)
        return self._resolve_time(location)

    def _resolve_chars(self, location: Location) -> Span:
        start, end = location.start or 0, location.end or 0
        if end > len(self.text):
            raise LocationError(
                f"{self.id!r} has {len(self.text)} characters; "
                f"{location.describe()} is past the end"
            )
        return Span(start, end)

    def _resolve_lines(self, location: Location) -> Span:
        count = self.line_count
        first, last = location.start or 1, location.end or 1
        if last > count:
            raise LocationError(
                f"{self.id!r} has {count} line{'' if count == 1 else 's'}; "
                f"{location.describe()} does not exist"
            )
        starts = self.line_starts
        end = starts[last] - 1 if last < len(starts) else len(self.text)
        if end > starts[first - 1] and self.text[end - 1] == "\r":
            end -= 1
        return Span(starts[first - 1], end)

    def _resolve_pages(self, location: Location) -> Span:
        pages = self.page_list
        if not pages:
            raise LocationKindError(
                f"{self.id!r} has no page numbers; cannot resolve {location.describe()}"
            )
        by_number: list[Page] = self._cached(
            "pages_by_number", lambda: sorted(pages, key=lambda p: p.number)
        )  # once per document: a dictionary built per citation made many citations quadratic
        numbers: list[int] = self._cached("page_numbers", lambda: [p.number for p in by_number])
        first, last = location.start or 0, location.end or 0
        low, high = bisect_left(numbers, first), bisect_right(numbers, last)
        for number, index in ((first, low), (last, high - 1)):
            if not 0 <= index < len(numbers) or numbers[index] != number:
                known = self._cached("page_ranges", lambda: _ranges(numbers))
                raise LocationError(f"{self.id!r} has no p. {number} (pages {known})")
        covered = by_number[low:high]
        return Span(min(p.start for p in covered), max(p.end for p in covered))

    def _resolve_section(self, location: Location) -> Span:
        section = self.find_section(location.name or "")
        return Span(section.start, section.end)

    def find_section(self, name: str) -> Section:
        """The section a name points to: by slug (``intro`` or ``introduction``), by title, by
        number (``3.2``), or by the first slug that starts with it."""
        sections = self.sections
        key = slugify(name)
        folded = name.strip().casefold()
        index: _SectionIndex = self._cached("section_index", lambda: _SectionIndex(sections))
        found = index.find(key, folded)
        if found is not None:
            return sections[found]
        if not sections:
            raise LocationKindError(f"{self.id!r} has no sections; cannot resolve section {name!r}")
        known = ", ".join(repr(s.title) for s in sections[:10])
        raise LocationError(f"{self.id!r} has no section {name!r} (sections: {known})")

    def _resolve_time(self, location: Location) -> Span:
        first, last = float(location.start or 0), float(location.end or 0)
        if not self.segments:
            return self._resolve_inline_time(location, first, last)
        hit = [s for s in self.segments if s.start_seconds <= last and first <= s.end_seconds]
        if not hit:
            final = max(s.end_seconds for s in self.segments)
            where = "past the end" if first > final else "in no segment"
            raise LocationError(f"{location} is {where} of {self.id!r} (it runs to {final:g} s)")
        return Span(min(s.start for s in hit), max(s.end for s in hit))

    def _resolve_inline_time(self, location: Location, first: float, last: float) -> Span:
        """A time in a plain-text transcript whose lines begin with their times
        (:func:`~citecheck.documents.structure.find_inline_times`): the lines from the time
        at or before ``first`` to the one at or before ``last``."""
        timed: tuple[Segment, ...] = self._cached(
            "inline_times", lambda: find_inline_times(self.text)
        )
        if not timed:
            raise LocationKindError(
                f"{self.id!r} has no timed segments and no line that begins with a time; "
                f"cannot resolve {location}"
            )
        starts: list[float] = self._cached(
            "inline_starts", lambda: [s.start_seconds for s in timed]
        )
        low, high = bisect_right(starts, first) - 1, bisect_right(starts, last) - 1
        if high < 0 or low < 0:
            raise LocationError(
                f"{location} is before the first time in {self.id!r} ({_clock(starts[0])})"
            )
        return Span(timed[low].start, timed[high].end)


def _clock(seconds: float) -> str:
    """Seconds as a transcript writes them: ``2:15``, ``1:02:03``."""
    return str(Location("time", int(seconds), int(seconds)))


class _SectionIndex:
    """A document's sections by slug, by title and by leading number, built once: each section
    citation is found in a few lookups, not a pass over every heading (a citation per section
    of a long document was quadratic). :meth:`find` applies the rules of
    :meth:`Document.find_section` in their order, each giving the first section in document
    order that it matches."""

    __slots__ = ("_by_number", "_by_slug", "_by_title", "_prefixes", "_titles")

    def __init__(self, sections: Sequence[Section]) -> None:
        self._by_slug: dict[str, int] = {}
        self._by_title: dict[str, int] = {}
        self._by_number: dict[str, int] = {}
        self._titles = [section.title.casefold() for section in sections]
        slugs: list[tuple[str, int]] = []
        for position, section in enumerate(sections):
            slug, bare = section.slug, section.bare_slug
            title = section.title.casefold()
            for name in (slug, bare):
                self._by_slug.setdefault(name, position)
                slugs.append((name, position))
            self._by_title.setdefault(title, position)
            head, _, rest = title.partition(" ")
            if head[:1].isdigit() and rest:
                self._by_number.setdefault(head, position)
        self._prefixes = sorted(slugs)

    def find(self, key: str, folded: str) -> int | None:
        if key in self._by_slug:
            return self._by_slug[key]
        if folded in self._by_title:
            return self._by_title[folded]
        if folded[:1].isdigit() and folded in self._by_number:
            return self._by_number[folded]
        if folded[:1].isdigit() and " " in folded:  # a number of several words: rare, read all
            number = next(
                (p for p, t in enumerate(self._titles) if t.startswith(folded + " ")), None
            )
            if number is not None:
                return number
        if not key:
            return None
        at = bisect_left(self._prefixes, (key, -1))
        matches = []
        while at < len(self._prefixes) and self._prefixes[at][0].startswith(key):
            matches.append(self._prefixes[at][1])
            at += 1
        return min(matches) if matches else None


def _check_ranges(
    doc_id: str, what: str, records: Sequence[Page] | Sequence[Segment], size: int
) -> None:
    for record in records:
        if not 0 <= record.start <= record.end <= size:
            raise InputError(
                f"document {doc_id!r}: {what} range {record.start}-{record.end} "
                f"is outside its text of {size} characters"
            )


def _ranges(numbers: list[int]) -> str:
    """``[1, 2, 3, 7]`` → ``1-3, 7``."""
    out: list[str] = []
    for n in sorted(set(numbers)):
        if out and n == int(out[-1].split("-")[-1]) + 1:
            out[-1] = f"{out[-1].split('-')[0]}-{n}"
        else:
            out.append(str(n))
    return ", ".join(out)
