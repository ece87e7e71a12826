"""Markdown footnotes that cite: ``…eight weeks.[^1]`` with ``[^1]: trial.pdf, p. 2``.

A footnote reference ``[^label]`` is a citation when its note (the definition ``[^label]:`` at
the start of a line, up to the next blank line or note) names a source: a file name or a
``Source:`` label (``trial.pdf, p. 2``, ``Source: trial, page 2``, read as
:mod:`citecheck.syntax.source_names` reads brackets), a known source id or an address (``trial``,
``trial, p. 2``, ``https://…``), or a citation marker of another syntax (``See
[[trial:p2]].``, ``[@smith2020, p. 4]``, ``Smith (2020)``: an author and year named in a note
are matched as a description of the work, by the sources' authors and years). The reference
carries the note's sources, so the claim checked is the sentence the reference stands in, not
the note. A note of remarks (``[^2]: I think so.``) is no citation.

The notes that were read are where the citation's sources are named, as a reference list is:
:func:`read_note_spans` gives them to the extractor, which takes no citations from them.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable, Iterator
from typing import ClassVar

from citecheck.model import Marker, Reference, Span
from citecheck.protocols import NamesBy
from citecheck.syntax.author_year import AuthorYearSyntax
from citecheck.syntax.pandoc import PandocSyntax
from citecheck.syntax.scan import code_regions
from citecheck.syntax.source_names import read_named
from citecheck.syntax.tip import TipSyntax

__all__ = ["FootnoteSyntax", "footnote_notes", "read_note_spans"]

_REFERENCE = re.compile(r"\[\^(?P<label>[^\s\[\]^]+)\](?![ \t]*:)")
_NOTE = re.compile(
    r"^[ \t]*\[\^(?P<label>[^\s\[\]^]+)\]:[ \t]*"
    r"(?P<note>.*(?:\n(?![ \t]*\n)(?![ \t]*\[\^[^\s\[\]^]+\]:).*)*)",
    re.MULTILINE,
)
"""A footnote's note: up to the next blank line or the next note."""
_FIRST_WORD = re.compile(r"[,:;\s]")
"""What ends a note's first word (``trial`` of ``trial, p. 2``)."""
_URL = re.compile(r"https?://\S")


def footnote_notes(text: str) -> dict[str, tuple[str, Span]]:
    """Each footnote label of ``text``: its note (whitespace collapsed) and where the whole
    definition stands; the first definition of a label counts."""
    notes: dict[str, tuple[str, Span]] = {}
    for match in _NOTE.finditer(text):
        note = " ".join(match.group("note").split())
        notes.setdefault(match.group("label"), (note, Span(*match.span())))
    return notes


class FootnoteSyntax:
    """Finds footnote references whose note names a source, outside Markdown code.

    ``known`` are the ids of the sources (the extractor names them through :meth:`knowing`):
    a note that is one of them alone (``[^1]: trial``) cites it.
    """

    name: str = "footnote"
    cited_as: ClassVar[str] = "{!r} (a footnote's note)"
    """How a reader writes a cited key in this syntax, for reasons."""
    names_by: ClassVar[NamesBy] = "key"
    """What a cited name is: a source ``key`` or file name, as the note writes it."""

    def __init__(self, known: Iterable[str] = ()) -> None:
        self.known = frozenset(known)

    def knowing(self, keys: Iterable[str]) -> FootnoteSyntax:
        """This syntax, reading notes that name one of ``keys`` alone."""
        return FootnoteSyntax(self.known | frozenset(keys))

    def scan(self, text: str) -> Iterator[Marker]:
        """The footnote references whose note cites, in order; one whose note starts as a
        citation but cannot be read carries an ``error``."""
        if "[^" not in text:
            return
        notes = footnote_notes(text)
        code = code_regions(text)
        read: dict[str, tuple[Reference, ...] | str | None] = {}
        for match in _REFERENCE.finditer(text):
            start, end = match.span()
            label = match.group("label")
            if code.overlaps(start, end) or label not in notes:
                continue
            if label not in read:
                read[label] = note_references(notes[label][0], self.known)
            references = read[label]
            if references is None:
                continue
            span = Span(start, end)
            if isinstance(references, str):
                yield Marker(span, match.group(), "footnote", error=references)
            else:
                yield Marker(span, match.group(), "footnote", references)


def note_references(note: str, known: Collection[str] = ()) -> tuple[Reference, ...] | str | None:
    """The sources a footnote's note names, an error when it starts as a citation but names
    nothing readable, ``None`` for a note of remarks (see the module)."""
    markers = [
        marker
        for syntax in (TipSyntax(), PandocSyntax(known), AuthorYearSyntax())
        for marker in syntax.scan(note)
        if marker.error is None
    ]
    if markers:
        return tuple(r for marker in markers for r in marker.references)
    body = note.strip().rstrip(".").strip()
    named = read_named(body)
    if named is not None:
        return named
    if _URL.match(body) or _FIRST_WORD.split(body, maxsplit=1)[0] in known:
        return read_named(body, labelled=True)
    return None


def read_note_spans(text: str, markers: Iterable[Marker]) -> list[Span]:
    """Where the notes of the footnote ``markers`` read as citations stand in ``text``."""
    labels = {m.raw[2:-1] for m in markers if m.syntax == "footnote" and m.error is None}
    if not labels:
        return []
    return [span for label, (_, span) in footnote_notes(text).items() if label in labels]
