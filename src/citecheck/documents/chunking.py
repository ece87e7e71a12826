"""Sources cut into sentence-sized chunks for semantic (embedding) checks, with their offsets.

Markdown is rendered to plain text with offsets back to the original by
:mod:`citecheck.documents.rendering`.

Sentences come from a pluggable :data:`Splitter`. The default is sentencex (Wikimedia's
rule-based splitter for some 300 languages, the ``embeddings`` extra) when it is installed,
else citecheck's own rule-based :func:`citecheck.language.text.sentence_spans`; neither downloads
anything at run time, and both are imported only when first used.
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from itertools import pairwise
from typing import Any, cast

from citecheck.documents.rendering import Block, BlockKind, PlainText, plain_text
from citecheck.errors import ConfigError, InputError, MissingDependencyError, SourceError
from citecheck.language.text import sentence_spans
from citecheck.language.tokens import TokenBudget, token_windows

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
    """citecheck's own rule-based splitter (:func:`citecheck.language.text.sentence_spans`),
    refined.

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
    windows that fit it (:func:`citecheck.language.tokens.token_windows`); ``windowed[i]`` says
    whether ``chunks[i]`` is such a window. Every chunk keeps its offsets into the original text,
    and every rendered word is in some chunk: the model is never handed more than it reads.
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
