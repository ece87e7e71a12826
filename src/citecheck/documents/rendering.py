"""Markdown rendered to plain text, with a map from every character back to the original.

An embedding model should see what a reader sees, not Markdown syntax: ``**``, ``#``, link
targets and table pipes only add noise to a vector. So a Markdown source is rendered to plain
text with markdown-it-py's parser (the same CommonMark reading the rest of citecheck uses, plus
GFM tables and strikethrough), split into sentences, and every chunk keeps ``start, end`` into
the *original* text, because every place citecheck reports points into what the user passed.

What the rendering keeps and drops:

* paragraphs, list items, block quotes: their text, each paragraph a block of its own;
* headings: a block of their own, never split into sentences;
* tables: one block per row, the cells' text separated by spaces (the pipes go);
* links: the link text (the target goes); images: the alt text; autolinks: the address;
* inline code: its content; code blocks and fences: kept, one block each, not split into
  sentences (code is text a source can be cited for, so it is not thrown away);
* HTML blocks and inline tags: dropped (markup and comments, not prose); text between inline
  tags is kept;
* entities and backslash escapes: decoded (``&amp;`` reads ``&``, ``\\*`` reads ``*``).

Offsets are found by locating each rendered fragment in the original, in order, within the
lines markdown-it-py reports for its block (markdown-it-py gives no positions inside a line).
Fragments whose raw form is known (entities, escapes, inline code, autolinks, link targets and
titles, inline HTML) are matched by that form; a fragment that differs from its source in
other ways (an escaped pipe in a table cell) is matched loosely; one that still cannot be
found is mapped to the whole stretch between its located neighbours — less precise, never
wrong, because its words are in that stretch. Chunks never share original text: a sentence
boundary inside such a stretch is not cut.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING, Literal, NamedTuple

from citecheck.errors import InputError, SourceError

if TYPE_CHECKING:
    from markdown_it import MarkdownIt
    from markdown_it.token import Token

__all__ = ["Block", "BlockKind", "PlainText", "plain_text"]

BlockKind = Literal["paragraph", "heading", "table_row", "code"]


class Block(NamedTuple):
    """A paragraph, heading, table row or code block: ``PlainText.text[start:end]``."""

    start: int
    end: int
    kind: BlockKind


@dataclass(frozen=True, slots=True)
class PlainText:
    """Rendered plain text, its blocks (joined by ``"\\n"``), and the map back to the original.

    The map is a sorted list of segments; a *linear* segment maps character to character, any
    other maps as a whole (``&amp;`` → ``&``, a collapsed whitespace run, a fragment that could
    only be placed between its neighbours).
    """

    text: str
    blocks: tuple[Block, ...]
    original_length: int
    _plain_starts: tuple[int, ...]
    _orig_starts: tuple[int, ...]
    _orig_ends: tuple[int, ...]
    _linears: tuple[bool, ...]

    def to_original(self, start: int, end: int) -> tuple[int, int]:
        """The original range that ``text[start:end]`` was rendered from.

        Meant for ranges that begin and end on a word, as chunks do; a range that begins or
        ends on a separator space maps to the gap between the words around it."""
        if not 0 <= start <= end <= len(self.text):
            raise InputError(f"range {start}-{end} is outside the plain text of {len(self.text)}")
        if start == end:
            if start == len(self.text):
                return self.original_length, self.original_length
            point = self._char(start)[0]
            return point, point
        return self._char(start)[0], self._char(end - 1)[1]

    def _separable(self, end: int, start: int) -> bool:
        """Whether ``text[:end]`` and ``text[start:]`` map to original ranges that do not
        overlap: false only when both sides fall in one segment mapped as a whole."""
        if end <= 0 or start >= len(self.text):
            return True
        i = bisect_right(self._plain_starts, end - 1) - 1
        return self._linears[i] or bisect_right(self._plain_starts, start) - 1 != i

    def _char(self, position: int) -> tuple[int, int]:
        i = bisect_right(self._plain_starts, position) - 1
        if self._linears[i]:
            at = self._orig_starts[i] + position - self._plain_starts[i]
            return at, at + 1
        return self._orig_starts[i], self._orig_ends[i]


# -- rendering ---------------------------------------------------------------------------------

_SPACE_SITE = re.compile(r"\s{2,}|[^\S ]")
"""Whitespace that collapsing changes: runs, and any single whitespace other than a space."""
_ANY_LINE_END = re.compile(r"\r\n?|\n")
"""Line ends as markdown-it counts them, so its line numbers can be turned into offsets."""
_BLANK_LINES = re.compile(r"(?:\r\n?|\n)(?:[^\S\r\n]*(?:\r\n?|\n))+")
_LABEL = re.compile(r"\[(?:[^\[\]\\]|\\.){0,999}\]", re.DOTALL)
"""A link label, as in ``[text][label]``: no unescaped brackets inside."""
_SEARCH_WINDOW = 4096
"""How far past the cursor a fragment is looked for. Further is not worth scanning for: the
fragment is then placed between its neighbours, which is still correct."""


class _Builder:
    """Accumulates plain text and its segment map, collapsing whitespace as it goes."""

    def __init__(self, original_length: int) -> None:
        self.original_length = original_length
        self.parts: list[str] = []
        self.length = 0
        self.plain_starts: list[int] = []
        self.orig_starts: list[int] = []
        self.orig_ends: list[int] = []
        self.linears: list[bool] = []
        self.blocks: list[Block] = []
        self._kind: BlockKind = "paragraph"
        self._block_start = -1  # plain offset of the open block's first character, or -1
        self._space = False  # a space is owed before the next word
        self.last_end = 0  # original offset after the last emitted fragment

    def begin(self, kind: BlockKind) -> None:
        self._kind = kind
        self._block_start = -1
        self._space = False

    def end(self) -> None:
        if self._block_start >= 0:
            self.blocks.append(Block(self._block_start, self.length, self._kind))
        self._block_start = -1

    def emit(self, text: str, start: int, end: int, linear: bool) -> None:
        """Add ``text`` rendered from ``original[start:end]`` (character for character if
        ``linear``), collapsing whitespace."""
        if not text:
            return
        stripped = text.strip()
        if not stripped:
            self._space = True
            return
        if not linear:
            self._space = self._space or text[0].isspace()
            self._put(" ".join(stripped.split()), start, end, False)
            self._space = text[-1].isspace()
            return
        lead = len(text) - len(text.lstrip())
        stop = lead + len(stripped)
        self._space = self._space or lead > 0
        position = lead
        for site in _SPACE_SITE.finditer(text, lead, stop):
            self._put(text[position : site.start()], start + position, start + site.start(), True)
            self._space = True
            position = site.end()
        self._put(text[position:stop], start + position, start + stop, True)
        self._space = stop < len(text)

    def _put(self, text: str, start: int, end: int, linear: bool) -> None:
        if not text:
            return
        if self._block_start < 0:
            if self.length:
                self._segment("\n", min(self.last_end, start), start, False)
            self._block_start = self.length
        elif self._space:
            self._segment(" ", min(self.last_end, start), start, False)
        self._space = False
        self._segment(text, start, end, linear)
        self.last_end = max(self.last_end, end)

    def _segment(self, text: str, start: int, end: int, linear: bool) -> None:
        if (
            linear
            and self.linears
            and self.linears[-1]
            and self.orig_starts[-1] + self.length - self.plain_starts[-1] == start
        ):
            pass  # continues the last linear segment
        else:
            self.plain_starts.append(self.length)
            self.orig_starts.append(start)
            self.orig_ends.append(end)
            self.linears.append(linear)
        self.orig_ends[-1] = max(self.orig_ends[-1], end)
        self.parts.append(text)
        self.length += len(text)

    def result(self) -> PlainText:
        return PlainText(
            "".join(self.parts),
            tuple(self.blocks),
            self.original_length,
            tuple(self.plain_starts),
            tuple(self.orig_starts),
            tuple(self.orig_ends),
            tuple(self.linears),
        )


class _Locator:
    """Finds a block's rendered fragments in the original, in order.

    Fragments that cannot be found wait in a queue and are mapped, as a whole, to the stretch
    between the last fragment found and the next one (or the end of the block). While some
    wait, the next search starts past as many characters as they hold (whitespace aside): they
    are never shorter in the original than rendered (entities, escapes and percent-encoding
    only ever shrink), so the next fragment cannot be found inside their stretch."""

    def __init__(self, original: str, builder: _Builder, start: int, limit: int) -> None:
        self.original = original
        self.builder = builder
        self.cursor = start
        self.limit = limit
        self.last_end = start
        self.queue: list[str] = []
        self.queued = 0  # characters waiting in the queue

    @property
    def _from(self) -> int:
        return min(self.cursor + self.queued, self.limit)

    def _window(self, raw: str) -> int:
        return min(self.limit, self._from + 2 * len(raw) + _SEARCH_WINDOW)

    def _found(self, start: int, end: int) -> None:
        self._flush(start)
        self.cursor = end
        self.last_end = end

    def _wait(self, rendered: str) -> None:
        self.queue.append(rendered)
        self.queued += sum(1 for char in rendered if not char.isspace())  # tabs may expand

    def _flush(self, upto: int) -> None:
        if self.queue:
            # The words are somewhere in the gap, and not in its whitespace.
            start, end = min(self.last_end, upto), upto
            while start < end and self.original[start].isspace():
                start += 1
            while end > start and self.original[end - 1].isspace():
                end -= 1
            self.builder.emit("".join(self.queue), start, end, False)
            self.queue.clear()
            self.queued = 0

    def finish(self) -> None:
        self._flush(max(self.limit, self.last_end))

    def space(self) -> None:
        if self.queue:
            self._wait(" ")
        else:
            self.builder.emit(" ", self.last_end, self.last_end, False)

    def text(self, rendered: str, raw: str) -> None:
        """Emit ``rendered``, written ``raw`` in the original."""
        if not rendered:
            return
        if not rendered.strip():
            self.space()
            return
        at = self.original.find(raw, self._from, self._window(raw)) if raw else -1
        if at >= 0:
            self._found(at, at + len(raw))
            self.builder.emit(rendered, at, at + len(raw), rendered == raw)
            return
        match = _loose_pattern(rendered).search(self.original, self._from, self._window(raw))
        if match is None:
            self._wait(rendered)
            return
        self._found(*match.span())
        self._emit_within(rendered, match.start(), match.end())

    def _emit_within(self, rendered: str, start: int, end: int) -> None:
        """Emit ``rendered``, known to come from ``original[start:end]`` though not character
        for character: word by word while its words are found there in order, so that chunks
        can still be cut between them; the rest as a whole."""
        raw = self.original[start:end]
        if len(raw) == len(rendered) and all(
            r == c or (r.isspace() and c.isspace()) for r, c in zip(raw, rendered, strict=True)
        ):  # at most line ends turned into spaces
            self.builder.emit(rendered, start, end, True)
            return
        position = start
        for run in _RUNS.finditer(rendered):
            if run.group().isspace():
                self.builder.emit(" ", position, position, False)
                continue
            at = self.original.find(run.group(), position, end)
            if at < 0:
                self.builder.emit(rendered[run.start() :], position, end, False)
                return
            position = at + len(run.group())
            self.builder.emit(run.group(), at, position, True)

    def between(self, rendered: str, opening: str, closing: str) -> None:
        """Emit ``rendered``, found between the next ``opening`` and ``closing`` (autolinks,
        whose address markdown-it normalises)."""
        start = self.original.find(opening, self._from, self._window(rendered))
        end = self.original.find(closing, start + 1, self.limit) if start >= 0 else -1
        if start < 0 or end < 0 or not rendered.strip():
            self.text(rendered, rendered)
            return
        self._found(start, end + len(closing))
        self._emit_within(rendered, start + len(opening), end)

    def skip(self, raw: str) -> None:
        """Move past ``raw`` (an inline HTML tag) without emitting anything."""
        at = self.original.find(raw, self._from, self._window(raw))
        if at >= 0:
            self._found(at, at + len(raw))

    def code(self, content: str, fence: str) -> None:
        """Inline code: find its backtick runs, emit the content between them."""
        opening = _backticks(self.original, len(fence), self._from, self._window(content))
        closing = (
            _backticks(self.original, len(fence), opening.end(), self.limit)
            if opening is not None
            else None
        )
        if opening is None or closing is None:
            self.text(content, content)
            return
        start, end = opening.end(), closing.start()
        inner = self.original[start:end]
        if inner != content and len(inner) >= 2 and inner[1:-1] == content:
            start, end = start + 1, end - 1
        self._found(opening.start(), closing.end())
        self._emit_within(content, start, end)

    def link_tail(self) -> None:
        """Move past ``](target "title")`` or ``][label]``, so a title is not taken for text."""
        if self.queue:
            return
        close = self.original.find("]", self.cursor, self.limit)
        if close < 0:
            return
        position = close + 1
        if self.original.startswith("(", position):
            after = _skip_inline_target(self.original, position, self.limit)
            self.cursor = after if after is not None else position
        elif (label := _LABEL.match(self.original, position, self.limit)) is not None:
            self.cursor = label.end()
        else:
            self.cursor = position


_BACKTICKS = re.compile(r"`+")
_RUNS = re.compile(r"\s+|\S+")


def _backticks(text: str, length: int, start: int, limit: int) -> re.Match[str] | None:
    """The first run of exactly ``length`` backticks in ``text[start:limit]``."""
    for run in _BACKTICKS.finditer(text, start, limit):
        if len(run.group()) == length:
            return run
    return None


def _loose_pattern(rendered: str) -> re.Pattern[str]:
    """``rendered`` as a pattern that also matches escaped punctuation and any whitespace."""
    parts: list[str] = []
    for piece in re.split(r"(\s+)", rendered):
        if not piece:
            continue
        if piece[0].isspace():
            parts.append(r"\s+")
            continue
        for char in piece:
            if char == "\ufffd":  # what markdown-it makes of a NUL
                parts.append("[\\x00\ufffd]")
            elif char.isascii() and not char.isalnum():
                parts.append(r"\\?" + re.escape(char))
            else:
                parts.append(re.escape(char))
    return re.compile("".join(parts))


def _skip_inline_target(text: str, position: int, limit: int) -> int | None:
    """The offset after ``(destination "title")`` starting at ``position``, or None."""
    i = position + 1

    def skip_space(i: int) -> int:
        while i < limit and text[i].isspace():
            i += 1
        return i

    i = skip_space(i)
    if i < limit and text[i] == "<":
        close = text.find(">", i + 1, limit)
        if close < 0:
            return None
        i = close + 1
    else:
        depth = 0
        while i < limit:
            char = text[i]
            if char == "\\":
                i += 2
                continue
            if char.isspace() or (char == ")" and depth == 0):
                break
            depth += {"(": 1, ")": -1}.get(char, 0)
            i += 1
    i = skip_space(i)
    if i < limit and text[i] in "\"'(":
        closer = ")" if text[i] == "(" else text[i]
        i += 1
        while i < limit and text[i] != closer:
            i += 2 if text[i] == "\\" else 1
        i = skip_space(i + 1)
    if i < limit and text[i] == ")":
        return i + 1
    return None


def _walk_inline(tokens: Sequence[Token], locator: _Locator) -> None:
    autolink: list[str] | None = None  # the text of an autolink being read
    for token in tokens:
        kind = token.type
        if autolink is not None:
            if kind == "link_close":
                locator.between("".join(autolink), "<", ">")
                autolink = None
            else:
                autolink.append(token.content)
        elif kind == "link_open" and token.markup == "autolink":
            autolink = []
        elif kind == "text":
            locator.text(token.content, token.content)
        elif kind == "text_special":  # entities and backslash escapes
            locator.text(token.content, token.markup or token.content)
        elif kind == "code_inline":
            locator.code(token.content, token.markup or "`")
        elif kind in ("softbreak", "hardbreak"):
            locator.space()
        elif kind == "html_inline":
            locator.skip(token.content)
        elif kind == "image":
            _walk_inline(token.children or [], locator)
            locator.link_tail()
        elif kind == "link_close":
            locator.link_tail()
        elif token.children:
            _walk_inline(token.children, locator)


@cache
def _parser() -> MarkdownIt:
    """The one Markdown parser, built on first use (building one costs more than parsing a
    paragraph; parsing keeps its state per call, so it is shared safely)."""
    from markdown_it import MarkdownIt

    parser = MarkdownIt("commonmark").enable(["table", "strikethrough"])
    parser.disable("text_join")  # keep entities and escapes apart, with their raw form
    return parser


def _render_markdown(original: str, builder: _Builder) -> None:
    tokens = _parser().parse(original)
    line_starts = [0, *(m.end() for m in _ANY_LINE_END.finditer(original))]

    def offset(line: int) -> int:
        return line_starts[line] if line < len(line_starts) else len(original)

    def span(lines: list[int] | None, skip: int = 0) -> tuple[int, int]:
        # Blocks come in document order: none starts before the text already placed.
        floor = builder.last_end
        if lines is None:
            return floor, len(original)
        return max(floor, offset(lines[0] + skip)), max(floor, offset(lines[1]))

    locator: _Locator | None = None
    for token in tokens:
        kind = token.type
        if kind in ("paragraph_open", "heading_open", "tr_open"):
            builder.begin(
                "heading"
                if kind == "heading_open"
                else "table_row"
                if kind == "tr_open"
                else "paragraph"
            )
            locator = _Locator(original, builder, *span(token.map))
        elif kind == "inline" and locator is not None:
            locator.space()  # between table cells
            _walk_inline(token.children or [], locator)
        elif kind in ("paragraph_close", "heading_close", "tr_close") and locator is not None:
            locator.finish()
            builder.end()
            locator = None
        elif kind in ("fence", "code_block"):
            builder.begin("code")
            code = _Locator(original, builder, *span(token.map, 1 if kind == "fence" else 0))
            for line in token.content.split("\n"):
                code.text(line.strip(), line.strip())
                code.space()
            code.finish()
            builder.end()


def _render_plain(original: str, builder: _Builder) -> None:
    start = 0
    for blank in [*_BLANK_LINES.finditer(original), None]:
        end = blank.start() if blank is not None else len(original)
        builder.begin("paragraph")
        builder.emit(original[start:end], start, end, True)
        builder.end()
        if blank is not None:
            start = blank.end()


def plain_text(text: str, *, markdown: bool = True) -> PlainText:
    """Render ``text`` to plain text, remembering where every character came from.

    With ``markdown=False`` the text is taken as it is: paragraphs are split at blank lines and
    whitespace is collapsed, nothing else changes."""
    if not isinstance(text, str):
        raise SourceError(f"plain_text() needs the text as str, got {type(text).__name__}")
    builder = _Builder(len(text))
    (_render_markdown if markdown else _render_plain)(text, builder)
    return builder.result()
