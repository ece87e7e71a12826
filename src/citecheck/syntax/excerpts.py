"""Which words a citation marker vouches for: the quoted excerpt before it and its claim.

The rules come from how people and LLMs place markers. A quotation standing right before a
marker (``"…" [1]``, ``“…”``, ``„…“``, ``«…»``) is an excerpt the source must contain verbatim.
The claim is the text since the previous sentence boundary or the previous marker, whichever is
nearer; a marker after the full stop (``capital. [1]``) takes the sentence before it. Markers
standing together (``[1][2]``, ``[1], [3]``) vouch for the same words.

An in-text citation is part of its sentence (``Smith (2020) found that …``, ``@doe99 says
…``): it vouches for the rest of the sentence after it, with a leading reporting verb ("found
that", "says") left out, and a quotation there is its excerpt. In-text citations joined by
"and" or a comma (``Smith (2020) and Lee (2019) found …``) share those words; one with no
words after it (``as shown by Smith (2020).``) takes the words before it, like any marker.

Sentences are split on a copy of the text in which markers are blanked out, so offsets stay
those of the text and marker brackets never disturb the splitting or leak into a claim.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections.abc import Sequence
from dataclasses import dataclass

from citecheck.language.text import sentence_spans
from citecheck.model import Marker, Span

__all__ = ["REPORTING_VERBS", "Attachment", "attach", "quoted_markers"]

_OPENERS = {'"': '"', "\u201d": "\u201c\u201e", "\u201c": "\u201e", "\u00bb": "\u00ab"}
"""Closing quote mark → the opening marks that pair with it."""
_BETWEEN_QUOTE_AND_MARKER = " \t\r\n,:;"
_BLANK_LINE_START = re.compile(r"\n(?=[ \t]*+\n)")
"""Where a blank line (a newline, spaces or tabs, a newline) starts."""
_QUOTE_MARK = re.compile('["\u201c\u201d\u201e\u00ab\u00bb]')
_TOGETHER = re.compile(r"[^\w\n]*+\n?+[^\w\n]*+")
"""What may stand between markers that share a claim: punctuation, no words, no blank line.
Possessive, so that a long run of punctuation that ends in a word fails at once: backtracking
into the two runs made it quadratic (10,000 dashes between two markers took seconds)."""
_LEADING = re.compile(
    r"(?:\s++|#{1,6}(?=\s)|[*+\u2022>](?=\s)|\d{1,3}[.)](?=\s)"
    r"|[,;:.!?)\]}\u2013\u2014-]++)*+"
)
"""List bullets, heading hashes and connecting punctuation left before a claim's words."""
_TRAILING = ",;:([{\u2013\u2014"
_WORD = re.compile(r"\w")
"""A claim without a letter or digit (a lone quote mark, '…') is no claim."""
_JOINED = re.compile(r"[\s,;]*+(?:(?:and|&|or)\s++)?")
"""What may stand between in-text citations that share the words after them."""
REPORTING_VERBS = frozenset(
    (
        *"found finds find showed shows show shown reported reports report argued argues argue "
        "stated states state wrote writes write noted notes note observed observes observe "
        "claimed claims claim suggested suggests suggest demonstrated demonstrates demonstrate "
        "concluded concludes conclude said says say explained explains explain described "
        "describes describe estimated estimates estimate proposed proposes propose confirmed "
        "confirms confirm indicated indicates indicate emphasised emphasises emphasise "
        "emphasized emphasizes emphasize added adds add told tells tell".split(),
        "pointed out",
        "points out",
        "point out",
    )
)
"""Verbs that report what a source says ("found that", "wrote", "pointed out")."""
_REPORTING = re.compile(
    r"[\s,;:\u2013\u2014-]*+(?:(?:has|have|had|also|further|recently|previously|first)\s++)*+"
    r"(?:(?:"
    + "|".join(
        re.escape(verb).replace(r"\ ", r"\s+")
        for verb in sorted(REPORTING_VERBS, key=lambda verb: (-len(verb), verb))
    )
    + r")\b[\s,:]*+(?:that\b\s*+)?)?"
)
"""Leading punctuation and a reporting verb after an in-text citation: not part of its claim."""
_QUOTATION = re.compile(
    r'"([^"\n]+)"|\u201c([^\u201d\n]+)\u201d|\u201e([^\u201c\n]+)\u201c'
    r"|\u00ab([^\u00bb\n]+)\u00bb"
)


@dataclass(frozen=True, slots=True)
class Attachment:
    """The excerpt and claim of one marker; ``text_span`` is where the excerpt (else claim) is."""

    excerpt: str | None = None
    claim: str | None = None
    text_span: Span | None = None


def attach(text: str, markers: Sequence[Marker]) -> list[Attachment]:
    """One :class:`Attachment` per marker, in order.

    ``markers`` must be in text order and must not overlap; they are all treated as markers
    (leave malformed ones out: they are ordinary text).
    """
    masked = _blank_out(text, markers)
    marks = _Marks(text)
    sentences = sentence_spans(masked)
    sentence_starts = [start for start, _ in sentences]
    sentence_ends = [end for _, end in sentences]
    last_joined = _last_joined(masked, markers)
    after_chain: dict[int, Attachment | None] = {}  # last joined marker → the words after it
    attachments: list[Attachment] = []
    previous_end = 0
    for index, marker in enumerate(markers):
        start = marker.span.start
        after = None
        if marker.in_text:
            last = last_joined[index]
            if last not in after_chain:
                after_chain[last] = _after(masked, sentence_ends, markers, last)
            after = after_chain[last]
        if after is not None:
            attachments.append(after)
        elif not attachments or not _TOGETHER.fullmatch(text, previous_end, start):
            attachments.append(
                _attachment(text, masked, marks, sentence_starts, previous_end, start)
            )
        else:
            attachments.append(attachments[-1])
        previous_end = marker.span.end
    return attachments


def _last_joined(masked: str, markers: Sequence[Marker]) -> list[int]:
    """For each marker, the last in-text citation it is joined to (``Smith (2020) and Lee
    (2019)``; itself when none): found once from the right, where following the chain from
    every marker of it made a long chain quadratic."""
    last = list(range(len(markers)))
    for index in range(len(markers) - 2, -1, -1):
        following = markers[index + 1]
        if following.in_text and _JOINED.fullmatch(
            masked, markers[index].span.end, following.span.start
        ):
            last[index] = last[index + 1]
    return last


def _after(
    masked: str, sentence_ends: list[int], markers: Sequence[Marker], last: int
) -> Attachment | None:
    """The words after the in-text citation ``markers[last]`` (the last of those joined to
    each other), up to the end of their sentence or the next marker; ``None`` when there are
    none."""
    position = markers[last].span.end
    following = last + 1
    sentence = bisect_right(sentence_ends, position)
    end = sentence_ends[sentence] if sentence < len(sentence_ends) else len(masked)
    if following < len(markers):
        end = min(end, markers[following].span.start)
    reporting = _REPORTING.match(masked, position, end)
    start = position if reporting is None else reporting.end()
    while end > start and (masked[end - 1].isspace() or masked[end - 1] in _TRAILING):
        end -= 1
    if _WORD.search(masked, start, end) is None:
        return None
    claim = " ".join(masked[start:end].split())
    quotation = _QUOTATION.search(masked, start, end)
    if quotation is not None:
        group = next(g for g in range(1, 5) if quotation.group(g) is not None)
        excerpt_span = Span(quotation.start(group), quotation.end(group))
        return Attachment(quotation.group(group), claim, excerpt_span)
    return Attachment(None, claim, Span(start, end))


def quoted_markers(text: str, markers: Sequence[Marker]) -> dict[int, int]:
    """The markers that stand inside a quotation a later marker cites: index → that marker's.

    ``"… The Horns of Nimon (1979). He also …" [1]`` quotes a text that holds what reads as an
    author–year citation; a quoted paper's ``[12]`` is its own reference, not the writer's.
    Read as citations, they would cut the quotation in two, and ``[1]`` would vouch only for
    the words after the last of them: a changed word before it would go unchecked. The
    quotation must open where a quotation opens, and a straight ``"`` must be an opening one
    (an even number of them before it in its paragraph), so a stray mark swallows nothing.
    """
    inside: dict[int, int] = {}
    marks = _Marks(text)
    for index, marker in enumerate(markers):
        if index == 0:
            continue
        quoted = _quotation(text, marks, 0, marker.span.start)
        if quoted is None or markers[index - 1].span.start < quoted.start:
            continue
        opening = quoted.start - 1
        if not _opens(text, opening):
            continue
        if text[opening] == '"' and marks.count('"', marks.paragraph_start(opening), opening) % 2:
            continue
        for earlier in range(index - 1, -1, -1):
            if markers[earlier].span.start < quoted.start:
                break
            inside[earlier] = index
    return inside


class _Marks:
    """Where the quote marks and blank lines of a text stand, so that finding the quotation
    before a marker takes a few bisections: scanning back through the text once per marker
    made a text with many markers quadratic."""

    __slots__ = ("_at", "_blank_ends", "_blank_starts")

    def __init__(self, text: str) -> None:
        self._at: dict[str, list[int]] = {}
        for mark in _QUOTE_MARK.finditer(text):
            self._at.setdefault(mark.group(), []).append(mark.start())
        self._blank_starts = [blank.start() for blank in _BLANK_LINE_START.finditer(text)]
        self._blank_ends = [text.index("\n", start + 1) + 1 for start in self._blank_starts]

    def last(self, mark: str, low: int, high: int) -> int:
        """Like ``text.rfind(mark, low, high)``."""
        positions = self._at.get(mark, [])
        index = bisect_left(positions, high) - 1
        return positions[index] if index >= 0 and positions[index] >= low else -1

    def count(self, mark: str, low: int, high: int) -> int:
        """Like ``text.count(mark, low, high)``."""
        positions = self._at.get(mark, [])
        return bisect_left(positions, high) - bisect_left(positions, low)

    def blank_line_in(self, low: int, high: int) -> bool:
        """Whether a blank line stands wholly inside ``text[low:high]``."""
        index = bisect_left(self._blank_starts, low)
        return index < len(self._blank_starts) and self._blank_ends[index] <= high

    def paragraph_start(self, at: int) -> int:
        """Where the paragraph holding ``at`` starts: after the last blank line before it."""
        index = bisect_right(self._blank_ends, at) - 1
        return self._blank_ends[index] if index >= 0 else 0


def _blank_out(text: str, markers: Sequence[Marker]) -> str:
    parts: list[str] = []
    position = 0
    for marker in markers:
        parts += [text[position : marker.span.start], " " * len(marker.span)]
        position = marker.span.end
    parts.append(text[position:])
    return "".join(parts)


def _attachment(
    text: str, masked: str, marks: _Marks, sentence_starts: list[int], low: int, marker_start: int
) -> Attachment:
    """The attachment of a marker at ``marker_start`` whose previous marker ends at ``low``."""
    before = masked[low:marker_start].rstrip()
    if not before:
        return Attachment()
    last = low + len(before)  # end of the text the marker follows
    quoted = _quotation(text, marks, low, marker_start)
    anchor = last - 1 if quoted is None else quoted.start - 1
    index = bisect_right(sentence_starts, anchor) - 1
    sentence_start = sentence_starts[index] if index >= 0 else 0
    claim_start, claim_end = _trim(masked, max(low, sentence_start), last)
    has_words = _WORD.search(masked, claim_start, claim_end) is not None
    claim = " ".join(masked[claim_start:claim_end].split()) if has_words else None
    if quoted is not None:
        return Attachment(text[quoted.start : quoted.end], claim, quoted)
    return Attachment(None, claim, Span(claim_start, claim_end) if claim else None)


def _quotation(text: str, marks: _Marks, low: int, marker_start: int) -> Span | None:
    """The span inside the quote marks that close right before the marker, if any.

    Of each kind of opening mark, only the last before the closing one can open the quotation:
    one closed already (``„Cash Card" vor, … konnte.”``) opens a quotation inside, and so does
    every earlier mark of its kind, as the mark that closes it closes them too."""
    close = marker_start
    while close > low and text[close - 1] in _BETWEEN_QUOTE_AND_MARKER:
        close -= 1
    close -= 1
    if close <= low or text[close] not in _OPENERS:
        return None
    open_ = -1
    for mark in _OPENERS[text[close]]:
        at = marks.last(mark, low, close)
        if at > open_ and not _closed_before(text, marks, at, close):
            open_ = at
    if open_ < 0 or open_ + 1 == close:
        return None
    if marks.blank_line_in(open_, close) and not _opens(text, open_):
        return None  # a stray mark in an earlier paragraph; a quotation may span blank lines
    if text[close] == '"' and (text[open_ + 1].isspace() or text[close - 1].isspace()):
        return None  # '" a b "' pairs a closing quote with an opening one
    return Span(open_ + 1, close)


_CLOSERS = {"\u201e": '\u201c"', "\u201c": "\u201d", "\u00ab": "\u00bb"}
"""Opening mark → the marks that close it when it opens a quotation of its own: German „…“
(or „…" as typed), English “…”, French «…»."""


def _closed_before(text: str, marks: _Marks, at: int, close: int) -> bool:
    """Whether the opening mark at ``at`` is closed before ``close`` by a mark of its own
    convention: then it opens a quotation inside, not the one that ends at ``close``."""
    closers = _CLOSERS.get(text[at], "")
    return any(marks.count(mark, at + 1, close) for mark in closers)


def _opens(text: str, at: int) -> bool:
    """Whether the quote mark at ``at`` stands where a quotation opens: at the start of the
    text or of a word (after a space, a bracket, a colon or a dash)."""
    return at == 0 or text[at - 1].isspace() or text[at - 1] in "([{:\u2013\u2014-"


def _trim(masked: str, start: int, end: int) -> tuple[int, int]:
    leading = _LEADING.match(masked, start, end)
    assert leading is not None  # the pattern matches the empty string
    start = leading.end()
    while end > start and (masked[end - 1].isspace() or masked[end - 1] in _TRAILING):
        end -= 1
    return start, end
