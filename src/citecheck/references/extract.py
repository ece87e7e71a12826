"""Structured references in free text: ``[Bala Kanda 1.1]``, ``(Ayodhya 2.3-5)``, ``John 3:16``.

The patterns come from the scheme: its separators make the number tail (``15.30``, ``3:16``),
its level words the long form (``Sundara Kanda, Sarga 15, Shloka 30``). A tail is a reference
when the words just before it name a book of the scheme — by any alias or spelling, longest
name first, so ``Song of Solomon 2:1`` and ``1 John 3:1`` resolve — or name the whole work
with a numbered top level (``Ramayana 5.15.30``). A name the scheme does not know is taken as
a reference, to fail, only where the writer clearly meant one: inside brackets
(``[Mahabharata 1.1]``) or before the top level's word (``Lanka-kand 2.3`` spelled oddly,
``Xyz Kanda 1.1``). Everything else that merely looks like a reference is left for
:func:`coverage` to list.

Ranges expand (``2.3-5`` is 2.3, 2.4, 2.5; ``John 3-4`` two chapters), lists too
(``2.3, 2.5``; ``3:16, 18`` keeps the chapter). Code in Markdown is never read.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from citecheck.errors import ConfigError
from citecheck.model import Span
from citecheck.references.scheme import Book, ReferenceScheme, StructuredReference, fold
from citecheck.syntax._scan import DASHES, CodeRegions

__all__ = ["Lookalike", "Mention", "ReferenceExtractor"]

MAX_DIGITS = 9
"""A number with more digits than this cites nothing; it is reported, not converted."""

_TOKEN = re.compile(r"\d|[^\W\d_][\w'’\-]*\.?")
_NAME_WORDS = 5
_NOT_NAMES = frozenset(
    fold(word)
    for word in (
        "figure fig table tab equation eq eqn section sec page p pp version v step appendix "
        "note line lines chapter chap part item items rule rules article art clause paragraph "
        "para volume vol no number issue"
    ).split()
)
"""Words that precede numbers in ordinary prose (``(Table 2.3)``): never an unknown book."""
_CLOSERS = frozenset("])")
_OPENERS = frozenset("[(")


@dataclass(frozen=True, slots=True)
class Mention:
    """One reference as written: where it stands, the text, and the references it expands to.

    ``problem`` is set for a mention that cannot cite anything whatever the corpus (a zero, a
    20-digit number, a range that runs backwards, a number that contradicts the book's name);
    its one reference is then reported ``NOT_FOUND`` with the problem as the reason.
    """

    span: Span
    raw: str
    references: tuple[StructuredReference, ...]
    problem: str | None = None


@dataclass(frozen=True, slots=True)
class Lookalike:
    """Text that looks like a reference but was not parsed as one (for coverage reports)."""

    span: Span
    text: str
    line: int


class ReferenceExtractor:
    """Finds the references of one scheme in texts; build once, use for many texts.

    ``max_range`` bounds how many references one range expands to; a longer range is checked
    at its two ends only, with a warning.
    """

    def __init__(self, scheme: ReferenceScheme, *, max_range: int = 1000) -> None:
        if max_range < 1:
            raise ConfigError(f"max_range must be positive, got {max_range}")
        self.scheme = scheme
        self.max_range = max_range
        seps = "".join(re.escape(s) for s in scheme.separators)
        tail = rf"\d+(?:[{seps}]\d+)*"
        self._separator = re.compile(f"[{seps}]")
        self._tail = re.compile(
            rf"(?<![\w{seps}])(?P<minus>(?<=\s)[-\u2212])?(?P<tail>{tail})(?![{seps}]?\d)"
        )
        self._range_end = re.compile(rf"[ \t]?[{DASHES}][ \t]?({tail})(?![{seps}]?\d)")
        self._list_item = re.compile(
            rf"[ \t]?[,;][ \t]?(?:and[ \t]+)?({tail})(?![{seps}]?\d)|[ \t]+and[ \t]+({tail})"
            rf"(?![{seps}]?\d)"
        )
        self._short_item_end = re.compile(rf"[ \t]*(?:[,;.\])}}{DASHES}]|and\b|$)", re.MULTILINE)
        words = [
            "|".join(
                re.escape(w)
                for w in sorted({level, *scheme.level_words.get(level, ())}, key=len, reverse=True)
            )
            for level in scheme.levels[1:]
        ]
        parts = [rf"\b(?:{w})\.?[ \t]*(\d+)" for w in words]
        long_form = parts[0] + "".join(rf"(?:[ \t]*,?[ \t]*{part})?" for part in parts[1:])
        self._long = re.compile(rf"(?i:{long_form})(?![{seps}]?\d)")
        self._works = frozenset(fold(name) for name in scheme.work_names)
        self._top_words = frozenset(
            fold(w) for w in (scheme.levels[0], *scheme.level_words.get(scheme.levels[0], ()))
        )
        self._lookalikes = re.compile(
            rf"[\[(][^\[\]()\n]{{0,60}}?\d+[{seps}]\d+[^\[\]()\n]{{0,30}}?[\])]"
            rf"|\b[^\W\d_][\w'’\-]*\.?[ \t]+\d+(?:[{seps}]\d+)+"
            rf"|(?i:\b(?:{'|'.join(words)})\.?[ \t]*\d+)"
        )

    # -- public ---------------------------------------------------------------------------

    def extract(self, text: str) -> tuple[list[Mention], list[str]]:
        """The mentions in ``text`` in order, and warnings about ranges checked at their ends."""
        code = CodeRegions(text)
        found: list[tuple[Mention, list[str]]] = []
        for candidate in (*self._tails(text), *self._long_forms(text)):
            mention, _ = candidate
            if not code.overlaps(mention.span.start, mention.span.end):
                found.append(candidate)
        mentions: list[Mention] = []
        warnings: list[str] = []
        end = -1
        for mention, notes in sorted(found, key=lambda c: (c[0].span.start, -len(c[0].span))):
            if mention.span.start >= end:
                mentions.append(mention)
                warnings.extend(notes)
                end = mention.span.end
        return mentions, warnings

    def lookalikes(self, text: str, mentions: list[Mention] | None = None) -> list[Lookalike]:
        """Strings that look like references but are not among ``mentions``: the gaps of the
        patterns, or prose that only looks like a citation."""
        if mentions is None:
            mentions, _ = self.extract(text)
        spans = [m.span for m in mentions]
        code = CodeRegions(text)
        out = []
        for match in self._lookalikes.finditer(text):
            span = Span(*match.span())
            if any(span.overlaps(s) for s in spans) or code.overlaps(span.start, span.end):
                continue
            out.append(Lookalike(span, match.group(), text.count("\n", 0, span.start) + 1))
        return out

    # -- the number-tail form -------------------------------------------------------------

    def _tails(self, text: str) -> Iterator[tuple[Mention, list[str]]]:
        position = 0
        while (match := self._tail.search(text, position)) is not None:
            position = match.end()
            named = self._name_before(text, match.start())
            if named is None:
                continue
            name_start, book, written = named
            full = self._split(match.group("tail"))
            depth = self.scheme.depth
            if book is None and written is None:  # a work name: the first number is the book
                if len(full) != depth + 1:
                    continue
            elif not 1 <= len(full) <= depth + 1:
                continue
            mention_end, items = self._continuation(text, match.end(), full)
            span = Span(name_start, mention_end)
            if book is None and written is not None and not self._unknown_allowed(text, span):
                continue
            position = max(position, mention_end)
            if match.group("minus"):
                problem = "a negative number cannot cite anything"
                yield self._impossible(text, span, book, written, (), problem), []
                continue
            yield self._mention(text, span, book, written, [full, *items])

    def _name_before(
        self, text: str, end: int, *, adjacent: bool = False
    ) -> tuple[int, Book | None, str | None] | None:
        """The book named right before ``end``: (where the name starts, the book or None,
        the name as written when unknown). ``None`` when no name stands there; a work name
        (``Ramayana``) gives ``(start, None, None)``. Before a number the name must be
        followed by a space, or end in a full stop where ``.`` is not a separator (``Gen.1:1``
        in a scheme of ``:`` alone); ``adjacent`` lifts that."""
        line_start = text.rfind("\n", 0, end) + 1
        low = max(line_start, end - 24 * _NAME_WORDS)
        tokens = list(_TOKEN.finditer(text, low, end))
        words: list[re.Match[str]] = []
        boundary = end
        for token in reversed(tokens):
            gap = text[token.end() : boundary]
            touching = not gap and not (boundary == end and (adjacent or token.group()[-1] == "."))
            if gap.strip(" \t") or touching:
                break
            words.append(token)
            boundary = token.start()
            if len(words) == _NAME_WORDS:
                break
        words.reverse()
        for k in range(len(words), 0, -1):
            first = words[-k]
            name = text[first.start() : words[-1].end()]
            if not any(ch.isalpha() for ch in name):
                continue
            if first.group().isdigit() and k == 1:
                continue
            book = self.scheme.book(name)
            if book is not None:
                return first.start(), book, None
            if fold(name) in self._works:
                return first.start(), None, None
        if not words:
            return None
        # An unknown name: the words from an opening bracket, or before the top level's word.
        opening = text[max(line_start, words[0].start() - 2) : words[0].start()].strip(" \t")
        if opening[-1:] in _OPENERS:
            name = text[words[0].start() : words[-1].end()].rstrip(".")
            if fold(words[0].group()) not in _NOT_NAMES and any(ch.isalpha() for ch in name):
                return words[0].start(), None, name
        if (
            len(words) >= 2
            and fold(words[-1].group()) in self._top_words
            and fold(words[-2].group()) not in _NOT_NAMES
            and words[-2].group()[0].isalpha()
        ):
            return words[-2].start(), None, text[words[-2].start() : words[-1].end()]
        return None

    def _unknown_allowed(self, text: str, span: Span) -> bool:
        """An unknown name stands in brackets, or before the top-level word (checked when the
        name was read); here: a bracketed one must also be closed after its numbers."""
        before = text[: span.start].rstrip(" \t")[-1:]
        if before not in _OPENERS:
            return True  # the top-level-word case
        after = text[span.end :].lstrip(" \t")[:1]
        return after in _CLOSERS or after in {",", ";"}

    def _continuation(
        self, text: str, position: int, first: list[str]
    ) -> tuple[int, list[list[str] | tuple[list[str], list[str]]]]:
        """Where the mention ends, with a range end after the first tail and the list items
        after that."""
        items: list[list[str] | tuple[list[str], list[str]]] = []
        previous = first
        if (found := self._range_end.match(text, position)) is not None:
            end_numbers = self._split(found.group(1))
            if len(end_numbers) <= len(previous):
                items.append((previous, end_numbers))
                position = found.end()
        while (item := self._list_item.match(text, position)) is not None:
            numbers = self._split(item.group(1) or item.group(2))
            if len(numbers) > len(first) or (item.group(2) and len(numbers) < len(first)):
                break
            if len(numbers) < len(first) and not self._short_item_end.match(text, item.end()):
                break
            full = previous[: len(previous) - len(numbers)] + numbers
            position = item.end()
            if (found := self._range_end.match(text, position)) is not None:
                end_numbers = self._split(found.group(1))
                if len(end_numbers) <= len(full):
                    items.append((full, end_numbers))
                    position = found.end()
                    previous = full
                    continue
            items.append(full)
            previous = full
        return position, items

    def _split(self, tail: str) -> list[str]:
        return self._separator.split(tail)

    # -- the long form --------------------------------------------------------------------

    def _long_forms(self, text: str) -> Iterator[tuple[Mention, list[str]]]:
        for match in self._long.finditer(text):
            prefix_end = match.start()
            while prefix_end > 0 and text[prefix_end - 1] in " \t,":
                prefix_end -= 1
            if prefix_end == match.start():
                continue
            named = self._name_before(text, prefix_end, adjacent=True)
            if named is None:
                continue
            name_start, book, _ = named
            if book is None:
                continue  # the long form names a known book: it is too wordy to guess at
            numbers = [g for g in match.groups() if g is not None]
            yield self._mention(text, Span(name_start, match.end()), book, None, [numbers])

    # -- building mentions ----------------------------------------------------------------

    def _mention(
        self,
        text: str,
        span: Span,
        book: Book | None,
        written: str | None,
        items: list[list[str] | tuple[list[str], list[str]]],
    ) -> tuple[Mention, list[str]]:
        """The mention and the warnings about its ranges."""
        raw = text[span.start : span.end]
        scheme = self.scheme
        references: list[StructuredReference] = []
        notes: list[str] = []
        for item in items:
            start, end = item if isinstance(item, tuple) else (item, None)
            problem = self._problem(start + (end or []))
            if problem is None and book is None and written is None:
                book, start, end, problem = self._numbered_by_work(start, end)
            elif problem is None and len(start) == scheme.depth + 1:
                start, end, problem = self._drop_book_number(book, written, start, end)
            if problem is not None:
                return self._impossible(text, span, book, written, (), problem), notes
            name = book.name if book is not None else (written or "?")
            numbers = tuple(int(n) for n in start)
            if end is None:
                references.append(scheme.reference(name, numbers))
                continue
            expanded, problem, note = self._expand(name, numbers, tuple(int(n) for n in end))
            if problem is not None:
                return self._impossible(text, span, book, written, numbers, problem), notes
            references.extend(expanded)
            if note:
                notes.append(note)
        unique = tuple(dict.fromkeys(references))
        return Mention(span, raw, unique), notes

    def _impossible(
        self,
        text: str,
        span: Span,
        book: Book | None,
        written: str | None,
        numbers: tuple[int, ...],
        problem: str,
    ) -> Mention:
        """A mention that cannot cite anything: one reference, as written, with the problem."""
        raw = text[span.start : span.end]
        name = book.name if book is not None else (written or "?")
        shown = " ".join(raw.split())
        ref = StructuredReference(self.scheme.name, name, numbers, book is not None, shown)
        return Mention(span, raw, (ref,), problem)

    def _problem(self, numbers: list[str]) -> str | None:
        for number in numbers:
            if len(number) > MAX_DIGITS:
                shown = number if len(number) <= 20 else number[:20] + "…"
                return f"the number {shown} ({len(number)} digits) cannot cite anything"
            if int(number) == 0:
                return "numbering starts at 1; there is no number 0"
        return None

    def _numbered_by_work(
        self, start: list[str], end: list[str] | None
    ) -> tuple[Book | None, list[str], list[str] | None, str | None]:
        scheme = self.scheme
        book = scheme.book_by_number(int(start[0]))
        if book is None:
            top = scheme.levels[0]
            count = len(scheme.books)
            return None, start, end, f"the {scheme.title} has {count} {scheme.plural(top)}"
        if end is not None and len(end) == len(start):
            if end[0] != start[0]:
                return book, start, end, "a range may not run across two books"
            end = end[1:]
        return book, start[1:], end, None

    def _drop_book_number(
        self, book: Book | None, written: str | None, start: list[str], end: list[str] | None
    ) -> tuple[list[str], list[str] | None, str | None]:
        """``Sundara 5.15.30``: the first number repeats the book's, and must agree."""
        top = self.scheme.levels[0]
        if book is None:
            return start, end, f"{written} is not a {top}, so {'.'.join(start)} cannot be read"
        if int(start[0]) != book.number:
            return start, end, f"{book.name} is {top} {book.number}, not {int(start[0])}"
        if end is not None and len(end) == len(start):
            if int(end[0]) != book.number:
                return start, end, "a range may not run across two books"
            end = end[1:]
        return start[1:], end, None

    def _expand(
        self, book: str, start: tuple[int, ...], end: tuple[int, ...]
    ) -> tuple[list[StructuredReference], str | None, str | None]:
        """The references of the range ``start``-``end`` (``end`` may give only its last
        numbers): every one when they differ only in the last number, else the two ends."""
        scheme = self.scheme
        full_end = start[: len(start) - len(end)] + end
        first = scheme.reference(book, start)
        last = scheme.reference(book, full_end)
        shown = f"{first.canonical}-{scheme.separators[0].join(str(n) for n in end)}"
        if full_end < start:
            return [], f"the range {shown} runs backwards", None
        if full_end[:-1] != start[:-1]:
            note = (
                f"the range {shown} crosses a "
                f"{scheme.levels[len(start) - 1]}; only its two ends are checked"
            )
            return [first, last], None, note
        count = full_end[-1] - start[-1] + 1
        if count > self.max_range:
            note = (
                f"the range {shown} spans {count} references, more "
                f"than max_range={self.max_range}; only its two ends are checked"
            )
            return [first, last], None, note
        prefix = start[:-1]
        refs = [scheme.reference(book, (*prefix, n)) for n in range(start[-1], full_end[-1] + 1)]
        return refs, None, None
