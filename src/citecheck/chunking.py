"""Sources cut into sentence-sized chunks for semantic (embedding) checks, with their offsets.

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

Sentences come from a pluggable :data:`Splitter`. The default is sentencex (Wikimedia's
rule-based splitter for some 300 languages, the ``embeddings`` extra) when it is installed,
else citecheck's own rule-based :func:`citecheck.text.sentence_spans`; neither downloads
anything at run time, and both are imported only when first used.
"""

from __future__ import annotations

import importlib
import re
from bisect import bisect_right
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from itertools import pairwise
from typing import TYPE_CHECKING, Any, Literal, NamedTuple, cast

from citecheck.errors import ConfigError, InputError, MissingDependencyError, SourceError
from citecheck.text import sentence_spans
from citecheck.tokens import TokenBudget, token_windows

if TYPE_CHECKING:
    from markdown_it.token import Token

__all__ = [
    "Block",
    "BlockKind",
    "Chunk",
    "ModelChunks",
    "PlainText",
    "Splitter",
    "builtin_splitter",
    "chunk_text",
    "count_words",
    "default_splitter",
    "model_chunks",
    "plain_text",
    "sentencex_splitter",
]

Splitter = Callable[[str], Iterable[tuple[int, int]]]
"""A sentence splitter: text in, ``(start, end)`` of its sentences out.

Only the boundaries are used: whatever lies between two boundaries becomes one sentence, so a
splitter that skips text cannot make chunking lose it."""

BlockKind = Literal["paragraph", "heading", "table_row", "code"]


@dataclass(frozen=True, slots=True)
class Chunk:
    """One chunk of a source.

    ``text`` is the rendered plain text (markup removed, whitespace runs collapsed to one space,
    a line break where the chunk joins two blocks); ``original[start:end]`` is the passage it
    was rendered from: tight around the rendered text (``**bold** word`` starts at ``b``),
    including any markup between its words.
    """

    start: int
    end: int
    text: str


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


def _render_markdown(original: str, builder: _Builder) -> None:
    from markdown_it import MarkdownIt

    parser = MarkdownIt("commonmark").enable(["table", "strikethrough"])
    parser.disable("text_join")  # keep entities and escapes apart, with their raw form
    tokens = parser.parse(original)
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
    _check_text(text, "plain_text")
    builder = _Builder(len(text))
    (_render_markdown if markdown else _render_plain)(text, builder)
    return builder.result()


# -- sentences ---------------------------------------------------------------------------------

_FIRST_WORD_CHAR = re.compile(r"[\W_]*(\w)")
_WORD_BEFORE_PERIOD = re.compile(r"(\w+)\.\W*$")
_NUMBERED = frozenset(
    "abb art bd blz cf ch chap col eq eqs fig figs hft nr no nos p pp para ref refs s sec sect "
    "tab vgl vol vols".split()
)
"""Abbreviations that stand before a number ("Fig. 3", "Abb. 3", "blz. 12", "Eq. 4")."""


def _glue(text: str, spans: Iterable[tuple[int, int]]) -> list[tuple[int, int]]:
    """Rejoin splits no sentence starts after: one whose next part begins with a lower-case
    letter (``"Is it?" she asked``, ``o.a. te laat``) or with a number after an abbreviation
    that precedes numbers (``vol. 2``). Both splitters make these mistakes; a chunk that holds
    two sentences does less harm than a sentence cut in two."""
    out: list[tuple[int, int]] = []
    for start, end in _segments(text, spans):
        if out:
            first = _FIRST_WORD_CHAR.match(text, start)
            char = first.group(1) if first is not None else ""
            before = _WORD_BEFORE_PERIOD.search(text, max(out[-1][0], out[-1][1] - 40), out[-1][1])
            numbered = before is not None and (
                before.group(1).lower() in _NUMBERED
                or (len(before.group(1)) == 1 and before.group(1).isalpha())
            )
            if char.islower() or (char.isdigit() and numbered):
                out[-1] = (out[-1][0], end)
                continue
        out.append((start, end))
    return out


def _segments(text: str, spans: Iterable[tuple[int, int]]) -> list[tuple[int, int]]:
    """Cut ``text`` at every boundary in ``spans``; trimmed, non-empty, covering all words."""
    try:
        cuts = sorted({p for span in spans for p in (int(span[0]), int(span[1]))})
    except (TypeError, ValueError, IndexError) as error:
        raise ConfigError(
            f"a sentence splitter must return (start, end) pairs of ints: {error}"
        ) from error
    bounds = [0, *(c for c in cuts if 0 < c < len(text)), len(text)]
    out: list[tuple[int, int]] = []
    for start, end in pairwise(bounds):
        while start < end and text[start].isspace():
            start += 1
        while end > start and text[end - 1].isspace():
            end -= 1
        if end > start:
            out.append((start, end))
    return out


def builtin_splitter(text: str) -> list[tuple[int, int]]:
    """citecheck's own rule-based splitter (:func:`citecheck.text.sentence_spans`), refined.

    Needs nothing installed. It knows fewer abbreviations than sentencex, mostly English ones;
    in doubt it keeps sentences together."""
    return _glue(text, sentence_spans(text))


def sentencex_splitter(language: str = "en") -> Splitter:
    """A splitter backed by sentencex (``pip install "pycitecheck[embeddings]"``).

    ``language`` is an ISO 639 code; sentencex knows the abbreviations of many languages and
    falls back to related ones, or to generic rules, for the others."""
    _check_language(language)
    try:
        sentencex: Any = importlib.import_module("sentencex")
    except ImportError as error:
        raise MissingDependencyError("sentencex", "embeddings") from error

    def split(text: str) -> list[tuple[int, int]]:
        found = sentencex.get_sentence_boundaries(language, text)
        return _glue(text, ((b["start_index"], b["end_index"]) for b in found))

    return split


def default_splitter(language: str = "en") -> Splitter:
    """sentencex for ``language`` if it is installed, else :func:`builtin_splitter`."""
    try:
        return sentencex_splitter(language)
    except MissingDependencyError:
        return builtin_splitter


# -- chunks ------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Draft:
    start: int  # plain-text offsets
    end: int
    heading: bool  # starts with a heading: joins forward
    first_block: int
    last_block: int

    def join(self, other: _Draft) -> _Draft:
        return _Draft(self.start, other.end, self.heading, self.first_block, other.last_block)


def chunk_text(
    text: str,
    *,
    markdown: bool = True,
    min_chunk_length_chars: int = 20,
    max_chunk_chars: int | None = None,
    language: str = "en",
    splitter: Splitter | None = None,
) -> list[Chunk]:
    """Cut a source into sentence chunks, each with its offsets into ``text``.

    Every rendered word ends up in exactly one chunk, in order; nothing is dropped or
    truncated, and no two chunks share original text. Headings and code blocks are not split
    into sentences, and a sentence never spans two blocks; but a chunk shorter than
    ``min_chunk_length_chars`` (a stray fragment, a one-word list item, a heading) is joined to
    a neighbour, since a few words make a poor embedding:

    * a heading joins the chunk after it (it introduces what follows);
    * the first sentence of a paragraph joins the next sentence of that paragraph;
    * any other short chunk joins the chunk before it; one that cannot (the very first chunk,
      or a join that would exceed ``max_chunk_chars``) joins the one after, or stays as it is.

    Joined chunks read a line break where they cross from one block to the next.
    ``max_chunk_chars``, if given, bounds every chunk: a longer sentence is cut between words.
    Only a single longer word stays whole, or words the rendering could only place in the
    original as a whole (see :class:`PlainText`).

    ``language`` (an ISO 639 code) chooses the default splitter's rules; ``splitter``
    replaces the default splitter (see :data:`Splitter`). With ``markdown=False`` the text is
    taken as plain text: paragraphs at blank lines, whitespace collapsed, nothing removed.
    """
    _check_text(text, "chunk_text")
    splitter = _checked(min_chunk_length_chars, max_chunk_chars, language, splitter)
    plain, drafts = _drafts(text, markdown, min_chunk_length_chars, max_chunk_chars, splitter)
    return [_chunk(plain, draft.start, draft.end) for draft in drafts]


def _checked(
    min_chunk_length_chars: int, max_chunk_chars: int | None, language: str, splitter: object
) -> Splitter:
    """The splitter to use, once the chunking options are checked."""
    _check_count(min_chunk_length_chars, "min_chunk_length_chars", 0)
    if max_chunk_chars is not None:
        _check_count(max_chunk_chars, "max_chunk_chars", 1)
        if min_chunk_length_chars > max_chunk_chars:
            raise ConfigError(
                f"min_chunk_length_chars ({min_chunk_length_chars}) is larger than "
                f"max_chunk_chars ({max_chunk_chars})"
            )
    if splitter is None:
        return default_splitter(language)
    if not callable(splitter):
        raise ConfigError(f"splitter must be callable, got {type(splitter).__name__}")
    return cast(Splitter, splitter)


def _chunk(plain: PlainText, start: int, end: int) -> Chunk:
    """The chunk of ``plain.text[start:end]``, with its range in the original."""
    return Chunk(*plain.to_original(start, end), plain.text[start:end])


def _drafts(
    text: str,
    markdown: bool,
    min_chunk_length_chars: int,
    max_chunk_chars: int | None,
    splitter: Splitter,
) -> tuple[PlainText, list[_Draft]]:
    """The plain text of ``text`` and its chunks as ranges of it (see :func:`chunk_text`)."""
    plain = plain_text(text, markdown=markdown)
    drafts: list[_Draft] = []
    for index, block in enumerate(plain.blocks):
        body = plain.text[block.start : block.end]
        sentences = _segments(body, [] if block.kind in ("heading", "code") else splitter(body))

        def separable(end: int, start: int, offset: int = block.start) -> bool:
            return plain._separable(offset + end, offset + start)

        for start, end in _keep_apart(sentences, separable):
            for s, e in _fit(body, start, end, max_chunk_chars, separable):
                heading = block.kind == "heading"
                drafts.append(_Draft(block.start + s, block.start + e, heading, index, index))
    return plain, _merge(drafts, min_chunk_length_chars, max_chunk_chars)


# -- chunks a model reads whole ---------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ModelChunks:
    """A source cut for a model that reads at most ``budget.max_tokens`` tokens of a text.

    ``chunks`` are the sentence chunks of :func:`chunk_text`, except that a chunk longer than
    the budget (a transcript with no punctuation, a run-on sentence) is replaced by overlapping
    windows that fit it (:func:`citecheck.tokens.token_windows`); ``windowed[i]`` says whether
    ``chunks[i]`` is such a window. Every chunk keeps its offsets into the original text, and
    every rendered word is in some chunk: the model is never handed more than it reads.
    """

    chunks: tuple[Chunk, ...]
    windowed: tuple[bool, ...]
    budget: TokenBudget
    _plain: PlainText
    _ranges: tuple[tuple[int, int], ...]  # each chunk's range in the plain text

    def within(self, index: int, tokens: int) -> list[Chunk]:
        """Windows of about ``tokens`` tokens inside ``chunks[index]``, a quarter of that
        apart, covering it.

        A window of a long passage holds a sentence among much else, and its vector, the mean
        of its tokens, says less of that sentence than the sentence's own would. Windows the
        length of a citation let a caller find the stretch that says what it says, as sentence
        chunks do where the text has sentences."""
        if not 0 <= index < len(self.chunks):
            raise InputError(f"there is no chunk {index} among {len(self.chunks)}")
        if isinstance(tokens, bool) or not isinstance(tokens, int) or tokens < 1:
            raise ConfigError(f"tokens must be a positive int, got {tokens!r}")
        start, end = self._ranges[index]
        [spans] = self.budget.spans([self._plain.text[start:end]])
        size = min(self.budget.max_tokens, tokens + tokens // 4)
        overlap = size - max(1, tokens // 4) if size > 1 else 0
        return [
            _chunk(self._plain, *_window(start, end, spans, first, stop))
            for first, stop in token_windows(spans, size, max(0, overlap))
        ]


def model_chunks(
    text: str,
    budget: TokenBudget | None = None,
    *,
    markdown: bool = True,
    min_chunk_length_chars: int = 20,
    language: str = "en",
    splitter: Splitter | None = None,
) -> ModelChunks:
    """Cut a source into chunks a model reads whole: :func:`chunk_text`'s sentence chunks,
    with windows in place of any longer than ``budget`` (the default :class:`TokenBudget`
    estimates tokens and allows 254). See :class:`ModelChunks`."""
    _check_text(text, "model_chunks")
    budget = TokenBudget() if budget is None else budget
    if not isinstance(budget, TokenBudget):
        raise ConfigError(f"budget must be a TokenBudget, got {type(budget).__name__}")
    splitter = _checked(min_chunk_length_chars, None, language, splitter)
    plain, drafts = _drafts(text, markdown, min_chunk_length_chars, None, splitter)
    counted = budget.spans([plain.text[d.start : d.end] for d in drafts])
    chunks: list[Chunk] = []
    windowed: list[bool] = []
    ranges: list[tuple[int, int]] = []
    size = budget.window
    for draft, spans in zip(drafts, counted, strict=True):
        fits = len(spans) <= budget.max_tokens
        pieces = (
            [(draft.start, draft.end)]
            if fits
            else [
                _window(draft.start, draft.end, spans, first, stop)
                for first, stop in token_windows(spans, size, size // 2)
            ]
        )
        for start, end in pieces:
            chunks.append(_chunk(plain, start, end))
            windowed.append(not fits)
            ranges.append((start, end))
    return ModelChunks(tuple(chunks), tuple(windowed), budget, plain, tuple(ranges))


def _window(
    start: int, end: int, spans: Sequence[tuple[int, int]], first: int, stop: int
) -> tuple[int, int]:
    """The plain range of tokens ``first`` to ``stop`` of ``text[start:end]``; the first window
    starts, and the last ends, with the text itself, so that no character is left out."""
    return (
        start if first == 0 else start + spans[first][0],
        end if stop == len(spans) else start + spans[stop - 1][1],
    )


_NON_SPACE = re.compile(r"\S+")


def _keep_apart(
    ranges: list[tuple[int, int]], separable: Callable[[int, int], bool]
) -> list[tuple[int, int]]:
    """Rejoin neighbouring ranges whose original ranges would overlap."""
    out: list[tuple[int, int]] = []
    for start, end in ranges:
        if out and not separable(out[-1][1], start):
            out[-1] = (out[-1][0], end)
        else:
            out.append((start, end))
    return out


def _fit(
    text: str, start: int, end: int, limit: int | None, separable: Callable[[int, int], bool]
) -> list[tuple[int, int]]:
    """Cut ``text[start:end]`` between words into pieces of at most ``limit`` characters.

    A piece is longer only where one word is, or where the words could only be placed in the
    original as a whole (a cut there would make two chunks share their passage)."""
    if limit is None or end - start <= limit:
        return [(start, end)]
    pieces: list[tuple[int, int]] = []
    piece_start = piece_end = -1
    for word in _NON_SPACE.finditer(text, start, end):
        if piece_start < 0:
            piece_start, piece_end = word.span()
        elif word.end() - piece_start <= limit or not separable(piece_end, word.start()):
            piece_end = word.end()
        else:
            pieces.append((piece_start, piece_end))
            piece_start, piece_end = word.span()
    pieces.append((piece_start, piece_end))
    return pieces


def _merge(drafts: list[_Draft], minimum: int, maximum: int | None) -> list[_Draft]:
    """Join chunks shorter than ``minimum`` to a neighbour (see :func:`chunk_text`)."""
    out: list[_Draft] = []
    carry: _Draft | None = None  # a short chunk waiting to join the next one

    def fits(first: _Draft, last: _Draft) -> bool:
        return maximum is None or last.end - first.start <= maximum

    def join_back(draft: _Draft) -> bool:
        if out and fits(out[-1], draft):
            out[-1] = out[-1].join(draft)
            return True
        return False

    for index, draft in enumerate(drafts):
        if carry is not None:
            if fits(carry, draft):
                draft = carry.join(draft)
            elif not join_back(carry):
                out.append(carry)
            carry = None
        if draft.end - draft.start >= minimum:
            out.append(draft)
            continue
        following = drafts[index + 1] if index + 1 < len(drafts) else None
        # Within its own block first: the first sentence of a paragraph joins the second.
        forward = draft.heading or (
            (not out or out[-1].last_block != draft.first_block)
            and following is not None
            and following.first_block == draft.last_block
        )
        if forward or not join_back(draft):
            carry = draft
    if carry is not None and not join_back(carry):
        out.append(carry)
    return out


# -- words and checks --------------------------------------------------------------------------

_WORD = re.compile(r"[^\W_]+(?:['’.\-][^\W_]+)*")


def count_words(text: str) -> int:
    """The number of words in ``text``, for ``min_citation_length_words``.

    A word is a run of letters and digits; an apostrophe, hyphen or period inside it does not
    end it (``don't``, ``state-of-the-art``, ``3.5`` and ``e.g.`` are one word each). Scripts
    written without spaces count a run as one word."""
    _check_text(text, "count_words")
    return sum(1 for _ in _WORD.finditer(text))


def _check_text(text: object, caller: str) -> None:
    if not isinstance(text, str):
        raise SourceError(f"{caller}() needs the text as str, got {type(text).__name__}")


def _check_count(value: object, name: str, least: int) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or value < least:
        raise ConfigError(f"{name} must be an int of at least {least}, got {value!r}")


def _check_language(language: object) -> None:
    if not isinstance(language, str) or not language.strip():
        raise ConfigError(f"language must be a language code such as 'en', got {language!r}")
