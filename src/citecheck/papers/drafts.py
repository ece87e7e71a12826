"""Reading a Markdown draft for :class:`~citecheck.papers.PaperLibrary`: which paper each
citation names, on which line it stands, and the claim it vouches for.

The markers are found by :func:`~citecheck.syntax.extract.extract_text` (pandoc ``[@key]``,
``[@a; @b, pp. 3-4]``, bare ``@key`` and ``@key [p. 12]``, numeric ``[1]``, TIP ``[[key]]``),
with the library's keys as the known ids: a bare ``@word`` naming no paper may be a mention,
so it is a warning, while a bracketed ``[@unknown]`` is plainly a citation and is kept, with
``key=None`` and a problem, for the caller to report as not found. Numbers are matched to
papers through the draft's reference list by the verifier's own matching (key, title, or
author and year; :class:`~citecheck.verification.resolution.SourceResolver`); a draft with
no list leaves them unmatched rather than guessing by order, as a library is no ordered list.

The claim is the extractor's (the words since the previous sentence boundary or marker),
except for a marker that opens its sentence's words: an in-text key (``@key found that X``,
``As @key [p. 4] shows, X``), or a bracketed marker that starts its text, paragraph, list
item or the line under a heading (``[@key] shows X``). Those vouch for their sentence, which
is taken with the markup removed, bounded by the markers around it, so a claim is never empty
while the draft has words for it.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from citecheck.documents import Document
from citecheck.language.text import sentence_spans
from citecheck.model import Citation, Span
from citecheck.papers.values import PaperMetadata
from citecheck.syntax.extract import extract_text
from citecheck.syntax.reference_list import ReferenceList
from citecheck.verification.resolution import Resolved, SourceResolver, syntax_trait

__all__ = ["Draft", "DraftCitation", "read_draft"]

_SYNTAXES = ("tip", "pandoc", "numeric")
"""What a draft cites with; author–year prose (``Smith (2020)``) is not read."""
_WHERE = re.compile(r"at characters (\d+)-\d+")
"""How an extraction warning names its place; the draft's warnings name the line instead."""
_JOINED = re.compile(r"[\s,;]*+(?:(?:and|&|or)\s++)?")
"""What may stand between in-text keys that share the words after them (``@a and @b find``)."""
_LEADING = re.compile(r"(?:\s++|[*+>\u2022-](?=\s)|\d{1,3}[.)](?=\s)|[,;:.!?)\]}\u2013\u2014])*+")
"""Bullets, quote marks and connecting punctuation left before a claim's words."""
_TRAILING = ",;:.!?([{\u2013\u2014"
_WORD = re.compile(r"\w")
_BLOCK_OPENER = re.compile(r"[ \t]*(?:(?:[*+>\u2022-]|\d{1,9}[.)])[ \t]+)*")
"""What may stand before a marker that starts its line: indentation, bullets, quote marks."""
_BULLET = re.compile(r"[ \t]*(?:[*+>\u2022-]|\d{1,9}[.)])[ \t]")
_HEADING = re.compile(r"[ \t]*#{1,6}(?:[ \t]|$)")


@dataclass(frozen=True, slots=True)
class DraftCitation:
    """One citation of a draft.

    ``citation.source_id`` is the library key it names, or the key or number as written when
    it names none; ``cited`` is always the key or number as written (``"3"`` for ``[3]``).
    ``key`` is ``None`` when no paper of the library is cited, and ``problem`` then says why
    (an unknown key, a number its reference list does not match to a paper). ``line`` is the
    1-based line where the marker starts; ``claim`` is ``citation.claim``, ``None`` only when
    the draft has no words for it.
    """

    citation: Citation
    cited: str
    key: str | None
    line: int
    claim: str | None
    problem: str | None = None


@dataclass(frozen=True, slots=True)
class Draft:
    """A draft's text, its citations in text order, and its warnings, each starting with the
    line it is about (``line 12: …``): marker-like text that cites nothing the library knows (a
    bare ``@word``), malformed markers, locators that are no location."""

    text: str
    citations: tuple[DraftCitation, ...]
    warnings: tuple[str, ...]
    unread: int = 0
    """The malformed markers and marker-like places no syntax read (each has a warning)."""


def read_draft(text: str, papers: Mapping[str, PaperMetadata]) -> Draft:
    """The citations of the Markdown draft ``text`` against the library's ``papers`` (key →
    metadata): see the module. Code, e-mail addresses, links and the draft's reference list
    cite nothing; bad input yields warnings, never an exception."""
    extraction = extract_text(text, _SYNTAXES, known_ids=papers.keys())
    lines = _Lines(text)
    claims = _Claims(text, extraction.citations)
    numbers = _numbers(papers, extraction.reference_list)
    citations = tuple(
        _draft_citation(claims.fixed(index), papers, numbers, lines)
        for index in range(len(extraction.citations))
    )
    warnings = tuple(_on_line(warning, lines) for warning in extraction.warnings)
    return Draft(text, citations, warnings, extraction.unread)


class _Lines:
    """The line of an offset, by bisecting the newlines: counting them per citation made a
    long draft quadratic."""

    __slots__ = ("_newlines",)

    def __init__(self, text: str) -> None:
        self._newlines = [index for index, char in enumerate(text) if char == "\n"]

    def of(self, offset: int) -> int:
        """The 1-based line of ``text[offset]``."""
        return bisect_right(self._newlines, offset - 1) + 1


def _on_line(warning: str, lines: _Lines) -> str:
    """``warning`` led by the line of the first place it names."""
    where = _WHERE.search(warning)
    return warning if where is None else f"line {lines.of(int(where.group(1)))}: {warning}"


def _numbers(
    papers: Mapping[str, PaperMetadata], reference_list: ReferenceList | None
) -> SourceResolver | None:
    """The verifier's resolver over the papers' metadata, to match the numbered entries of the
    draft's reference list; ``None`` when the draft has no numbered list."""
    if reference_list is None or not reference_list.numbers:
        return None
    documents = {
        key: Document(key, "", metadata=_fields(key, paper))
        for key, paper in papers.items()
        if key.strip()
    }
    return SourceResolver(documents, reference_list=reference_list)


def _fields(key: str, paper: PaperMetadata) -> dict[str, object]:
    """A paper's metadata as the fields the resolver reads; family names go in as CSL name
    objects, which are kept whole (``van der Berg``), where a plain name would be parsed."""
    fields: dict[str, object] = {"key": key, "authors": [{"family": a} for a in paper.authors]}
    if paper.title:
        fields["title"] = paper.title
    if paper.year:
        fields["year"] = paper.year
    return fields


def _draft_citation(
    citation: Citation,
    papers: Mapping[str, PaperMetadata],
    numbers: SourceResolver | None,
    lines: _Lines,
) -> DraftCitation:
    cited = citation.source_id
    key, problem = _resolve(citation, papers, numbers)
    assert citation.span is not None  # the extractor gives every citation its span
    return DraftCitation(
        citation if key is None else replace(citation, source_id=key),
        cited,
        key,
        lines.of(citation.span.start),
        citation.claim,
        problem,
    )


def _resolve(
    citation: Citation, papers: Mapping[str, PaperMetadata], numbers: SourceResolver | None
) -> tuple[str | None, str | None]:
    """The library key ``citation`` names, else ``None`` and why."""
    cited = citation.source_id
    if syntax_trait(citation.syntax, "names_by", "key") != "number":
        if cited in papers:
            return cited, None
        return None, f"unknown key {cited!r}: no paper of the library has it"
    if numbers is None:
        return None, f"[{cited}] names no paper: the draft has no numbered reference list"
    outcome = numbers.resolve(citation)
    if isinstance(outcome, Resolved):
        return outcome.source_id, None
    return None, outcome.reason


class _Claims:
    """The citations with their claims: the extractor's, or, for a marker that opens its
    sentence's words (see the module), the sentence with the markup removed."""

    __slots__ = (
        "_chains",
        "_citations",
        "_index",
        "_markers",
        "_masked",
        "_sentence_ends",
        "_sentences",
        "_text",
    )

    def __init__(self, text: str, citations: Sequence[Citation]) -> None:
        self._text = text
        self._citations = citations
        # the markers, once each ([@a; @b] is two citations of one marker), in text order
        self._markers = sorted({c.span for c in citations if c.span is not None})
        self._index = {span: index for index, span in enumerate(self._markers)}
        self._masked = _blank(text, self._markers)
        self._sentences = sentence_spans(self._masked)
        self._sentence_ends = [end for _, end in self._sentences]
        self._chains = self._joined_chains()

    def fixed(self, index: int) -> Citation:
        """The ``index``-th citation, with its claim fixed when it opens its sentence."""
        citation = self._citations[index]
        assert citation.span is not None
        marker = self._index[citation.span]
        if _in_text(citation):
            first, last = self._chains[marker]
        elif citation.claim is None or self._starts_block(citation.span.start):
            first = last = marker
        else:
            return citation
        claim, span = self._sentence_of(first, last)
        if citation.excerpt is not None:  # a quotation after the key stays its excerpt
            return replace(citation, claim=claim)
        return replace(citation, claim=claim, text_span=span)

    def _joined_chains(self) -> list[tuple[int, int]]:
        """For each marker, the first and last of the in-text keys joined to it (``@a and @b
        find``; itself when none): found in two passes, where walking the chain from each of
        its keys made a long chain quadratic."""
        firsts = list(range(len(self._markers)))
        lasts = list(firsts)
        for index in range(1, len(firsts)):
            if self._joined(index - 1, index):
                firsts[index] = firsts[index - 1]
        for index in range(len(lasts) - 2, -1, -1):
            if self._joined(index, index + 1):
                lasts[index] = lasts[index + 1]
        return list(zip(firsts, lasts, strict=True))

    def _joined(self, left: int, right: int) -> bool:
        start, end = self._markers[left].end, self._markers[right].start
        both_in_text = not self._text.startswith("[", self._markers[left].start) and (
            not self._text.startswith("[", self._markers[right].start)
        )
        return both_in_text and _JOINED.fullmatch(self._text, start, end) is not None

    def _starts_block(self, start: int) -> bool:
        """Whether a marker at ``start`` opens the text, a paragraph, a list item or the line
        under a heading: only indentation, bullets or quote marks stand before it on its line."""
        line_start = self._text.rfind("\n", 0, start) + 1
        opener = _BLOCK_OPENER.match(self._text, line_start, start)
        if opener is None or opener.end() != start:
            return False
        if line_start == 0 or _BULLET.match(self._text, line_start, start):
            return True
        previous = self._text[self._text.rfind("\n", 0, line_start - 1) + 1 : line_start - 1]
        return not previous.strip() or _HEADING.match(previous) is not None

    def _sentence_of(self, first: int, last: int) -> tuple[str | None, Span | None]:
        """The sentence holding ``markers[first:last + 1]``, markup removed, bounded by the
        markers before and after them; ``None`` when it has no words."""
        start, end = self._markers[first].start, self._markers[last].end
        sentence = min(bisect_right(self._sentence_ends, start), len(self._sentences) - 1)
        low, high = self._sentences[sentence] if self._sentences else (0, len(self._text))
        if first > 0:
            low = max(low, self._markers[first - 1].end)
        if last + 1 < len(self._markers):
            high = min(high, self._markers[last + 1].start)
        low, high = min(low, start), max(high, end)
        words = self._masked[low:start] + " " + self._masked[end:high]
        leading = _LEADING.match(words)
        assert leading is not None  # the pattern matches the empty string
        claim = " ".join(words[leading.end() :].split()).rstrip(_TRAILING + " ")
        if _WORD.search(claim) is None:
            return None, None
        if _WORD.search(self._masked, low, start) is None:
            low = end  # the words all follow the markers (and the "and" joining them)
        if _WORD.search(self._masked, end, high) is None:
            high = start
        while self._masked[low].isspace():
            low += 1  # a word stands between low and high, so this stops before high
        while self._masked[high - 1].isspace():
            high -= 1
        return claim, Span(low, high)


def _in_text(citation: Citation) -> bool:
    """A bare ``@key`` (``@key [p. 4]``) is part of its sentence; a bracketed marker is not."""
    return citation.syntax == "pandoc" and not citation.raw.startswith("[")


def _blank(text: str, spans: Sequence[Span]) -> str:
    """``text`` with ``spans`` (in order, not overlapping) blanked out: offsets stay those of
    the text, and the markup never reaches a claim or disturbs the sentence splitting."""
    parts: list[str] = []
    position = 0
    for span in spans:
        parts += [text[position : span.start], " " * len(span)]
        position = span.end
    parts.append(text[position:])
    return "".join(parts)
