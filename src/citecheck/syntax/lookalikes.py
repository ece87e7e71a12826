"""Marker-like text: what a reader would take for a citation, whether or not a syntax read it.

The extractor warns about every such span that no marker covers, so a citation is never
skipped in silence. The rules are narrow enough that prose brackets stay quiet:

- brackets that open with a number and hold more (``[1, x]``, ``[3 apples]``); not ``[1.5]``,
  not a number of ten digits, not an index (``a[1]``) or a link label;
- brackets with an ``@`` that starts a key (``[@]``, ``[see @x]``); not ``[jane@example.com]``;
- brackets with a name and a year (``[Smith 2020]``) or with a page (``[stoker2022, p.213]``);
- parentheses with a name and a year in them (``(see Figure 3 in Smith 2020)``); not
  ``(March 2020)``, ``(in 2020)`` or ``(2020)`` alone;
- a name right before a year in parentheses (``Smith (2020)``);
- a bare ``@key`` after a space, ``(``, ``[``, ``;`` or ``-`` (``@doe99``, ``@doe99 [p. 33]``);
- a footnote reference (``[^1]``) that the footnote syntax did not read, whose note cites
  something (a year, an ``@key``, a link, a page) or that has no note in the text; a note of
  remarks (``[^1]: I think so.``) is not a citation;
- superscript numbers that read as a note or citation marker (``blue¹``, ``blue.²³``,
  ``blue¹⁻³``, ``“…”⁴``): after a full stop, comma, colon, semicolon, quotation mark or
  bracket, or after a word of three or more letters that stands on its own. Not an exponent:
  ``x²``, ``m²``, ``km²`` (a word of one or two letters), ``10⁶`` (a number), ``m/s²``,
  ``kg·m²`` (a unit joined to another), ``sin²`` (a function), ``(a+b)²``, ``x²y`` (a
  superscript with a letter or digit right after it).

Code, Markdown links and the text's reference list are never marker-like. ``[[`` needs no rule
here: the TIP syntax reads every one, as a marker or as a malformed one that it reports. Each
rule belongs to the syntax that reads such text, so a caller who leaves a syntax out is not
warned about its markers (footnotes are the footnote syntax's, superscripts belong with the
numeric markers that write the same citations in brackets); the bracketed author–year and
page rules belong to none and always count.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from citecheck.model import Span
from citecheck.syntax.author_year import NAME, NAME_YEAR, YEAR
from citecheck.syntax.numeric import stands_alone
from citecheck.syntax.pandoc import in_text_markers
from citecheck.syntax.reference_list import find_reference_list
from citecheck.syntax.scan import code_regions

__all__ = ["Lookalike", "find_lookalikes", "marker_like_spans"]

_BRACKET = re.compile(r"\[(?P<body>[^\[\]\n]{1,200})\]")
_NUMBER_AND_MORE = re.compile(r"[ \t]*\d{1,9}(?![\d.])[^\]]*[^\d\s\]]")
_AT_KEY = re.compile(r"(?<![^\s\-;\[])-?@(?:[\w{]|[ \t]*(?:[,;\]]|$))")
_PAGE = re.compile(r"\b(?:pp?|pages?)\.?[ \t]*\d", re.IGNORECASE)
_PARENTHESES = re.compile(r"\((?P<body>[^()\n]{1,300})\)")
_YEAR_IN_PARENTHESES = re.compile(rf"(?<![ \t])[ \t]++\([ \t]*+{YEAR}[^()\n]{{0,100}}\)")
"""It starts where a run of spaces starts, which it takes whole: restarting inside the run
after each failure made a long run quadratic."""
_NAME_BEFORE = re.compile(rf"{NAME}(?:[ \t]+et[ \t]+al\.?)?(?:['’]s)?$")
_REACH = 100
"""How far before a year in parentheses the name may start."""
_LINK_LABEL = re.compile(r"!?\[[^\[\]\n]*\](?=\()|^[ \t]*\[[^\[\]\n]*\]:", re.MULTILINE)
_FOOTNOTE = re.compile(r"\^(?P<label>[^\s\[\]^]+)")
_NOTE = re.compile(
    r"^[ \t]*\[\^(?P<label>[^\s\[\]^]+)\]:"
    r"(?P<note>.*(?:\n(?![ \t]*\n)(?![ \t]*\[\^[^\s\[\]^]+\]:).*)*)",
    re.MULTILINE,
)
"""A footnote's note: up to the next blank line or the next note."""
_NOTE_CITES = re.compile(rf"{YEAR}|@\w|https?://|\b(?:pp?|pages?)\.?[ \t]*\d", re.IGNORECASE)
_SUPERSCRIPT = re.compile(
    r"(?<![⁰¹²³⁴⁵⁶⁷⁸⁹])[⁰¹²³⁴⁵⁶⁷⁸⁹]++(?:[⁻,\u2013-][⁰¹²³⁴⁵⁶⁷⁸⁹]++)*(?![^\W_])"
)
"""Digits are taken whole and only from the start of their run (a digit given back or a start
inside the run cannot help, as a digit is a word character): linear on a long run."""
_MARK_BEFORE = frozenset(".,;:!?\"'”’»]")
_OPERATOR = re.compile(r"[+\-*/^=<>×·−]")
_LONGEST_WORD = 40
_MAX_NOTE = 60
"""Longest note quoted whole in a warning; a longer one ends with '…'."""
_WORD_BEFORE = re.compile(r"(?:^|(?<=[\s(\"'“‘«—–-]))[^\W\d_]{3,}$")
_FUNCTIONS = frozenset(
    "sin cos tan cot sec csc sinh cosh tanh arcsin arccos arctan exp log".split()
)
"""Functions whose superscript is an exponent: ``sin² x``."""


@dataclass(frozen=True, slots=True)
class Lookalike:
    """A marker-like span, the syntax that would read it (``None``: none would) and why it
    looks like a citation."""

    span: Span
    syntax: str | None
    why: str


def marker_like_spans(text: str) -> list[Span]:
    """Every marker-like span of ``text`` (see the module), in text order."""
    reference_list = find_reference_list(text)
    skip = [] if reference_list is None else [reference_list.span]
    return [lookalike.span for lookalike in find_lookalikes(text, skip)]


def find_lookalikes(text: str, skip: Sequence[Span] = ()) -> list[Lookalike]:
    """The marker-like spans of ``text`` outside code, links and ``skip`` (its reference list,
    the notes of its cited footnotes), in text order."""
    code = code_regions(text)
    labels = [m.span() for m in _LINK_LABEL.finditer(text)]  # in order, never overlapping
    label_ends = [end for _, end in labels]

    def hidden(span: Span) -> bool:
        index = bisect_right(label_ends, span.start)
        in_label = index < len(labels) and labels[index][0] < span.end
        return (
            in_label or code.overlaps(span.start, span.end) or any(s.overlaps(span) for s in skip)
        )

    candidates = sorted(
        (lookalike for lookalike in _candidates(text) if not hidden(lookalike.span)),
        key=lambda lookalike: (lookalike.span.start, -len(lookalike.span)),
    )
    found: list[Lookalike] = []  # one per region: none inside another
    reach = -1  # the furthest end of those kept, all of which start no later
    for lookalike in candidates:
        if lookalike.span.end > reach:
            found.append(lookalike)
            reach = lookalike.span.end
    return found


def _candidates(text: str) -> Iterator[Lookalike]:
    notes: dict[str, str] | None = None  # footnote label → its note, read at the first footnote
    whys: dict[str, str | None] = {}  # footnote label → why it looks like a citation, once
    for match in _BRACKET.finditer(text):
        start, end = match.span()
        if text.startswith("[", start - 1) and text.startswith("]", end) and start:
            continue  # the inside of [[…]]: the TIP syntax's
        body = match.group("body")
        span = Span(start, end)
        if _NUMBER_AND_MORE.match(body) and stands_alone(text, start, -1):
            yield Lookalike(span, "numeric", "numbers in brackets stand with other text")
        elif _AT_KEY.search(body):
            yield Lookalike(span, "pandoc", "it holds an '@' but no key that could be read")
        elif NAME_YEAR.search(body):
            yield Lookalike(
                span,
                None,
                "an author and year in square brackets; write them in "
                "parentheses, (Smith 2020), or cite a key, [@smith2020]",
            )
        elif _PAGE.search(body):
            yield Lookalike(span, None, "a page in brackets, with no source citecheck can read")
        elif (footnote := _FOOTNOTE.fullmatch(body)) is not None:
            notes = _footnote_notes(text) if notes is None else notes
            label = footnote.group("label")
            if label not in whys:  # each label's note read once, however often it is cited
                whys[label] = _footnote_cites(notes.get(label))
            why = whys[label]
            if why is not None:
                yield Lookalike(span, "footnote", why)
    for match in _PARENTHESES.finditer(text):
        if NAME_YEAR.search(match.group("body")):
            why = "an author and year that could not be read as an author–year citation"
            yield Lookalike(Span(*match.span()), "author_year", why)
    for year in _YEAR_IN_PARENTHESES.finditer(text):
        name = _NAME_BEFORE.search(text, max(0, year.start() - _REACH), year.start())
        if name is not None:
            why = "a name before a year that could not be read as an author–year citation"
            yield Lookalike(Span(name.start(), year.end()), "author_year", why)
    for marker in in_text_markers(text):
        why = "a bare @key is a citation only when it names a known source"
        yield Lookalike(marker.span, "pandoc", why)
    for superscript in _SUPERSCRIPT.finditer(text):
        if _marks_a_note(text, superscript.start()):
            why = (
                "a superscript number reads as a note or citation marker, which citecheck "
                "does not read; cite with [1] or [[id]]"
            )
            yield Lookalike(Span(*superscript.span()), "numeric", why)


def _footnote_notes(text: str) -> dict[str, str]:
    """Each footnote label of ``text`` and its note (``[^1]: Smith 2020.``, up to the next
    blank line or note), whitespace collapsed; the first note of a label counts."""
    notes: dict[str, str] = {}
    for note in _NOTE.finditer(text):
        notes.setdefault(note.group("label"), " ".join(note.group("note").split()))
    return notes


def _footnote_cites(note: str | None) -> str | None:
    """Why a footnote reference with this ``note`` looks like a citation: the note cites
    something, or there is none; ``None`` for a note of remarks."""
    if note is None:
        return "a footnote reference with no note in the text, so no source to check it against"
    if not _NOTE_CITES.search(note):
        return None
    quoted = note if len(note) <= _MAX_NOTE else note[: _MAX_NOTE - 1] + "…"
    return (
        f"a footnote whose note ({quoted!r}) cites a source that citecheck cannot read: "
        "name the source's file or id in the note ('[^1]: trial.pdf, p. 2'), or cite in the "
        "sentence, with [1] or [[id]]"
    )


_FORMULA_REACH = 200
"""How far back a closing bracket before a superscript looks for its opening one."""


def _marks_a_note(text: str, start: int) -> bool:
    """True when the superscript at ``start`` follows what a note marker follows (see the
    module): sentence punctuation, a quotation mark, a bracket that closes no formula, or a
    word of three or more letters standing on its own that is no function name."""
    before = text[start - 1] if start else ""
    if before == ")":
        # a formula's brackets are short: looking further back would cost a scan per mark
        opening = text.rfind("(", max(0, start - _FORMULA_REACH), start)
        return opening >= 0 and _OPERATOR.search(text, opening, start) is None
    if before in _MARK_BEFORE:
        return True
    word = _WORD_BEFORE.search(text, max(0, start - _LONGEST_WORD), start)
    return word is not None and word.group().casefold() not in _FUNCTIONS
