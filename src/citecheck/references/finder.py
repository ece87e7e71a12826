"""Structured references in free text: ``[Bala Kanda 1.1]``, ``(Ayodhya 2:3-5)``, ``John 3:16``.

The patterns come from the scheme: its level words make the long form (``Sundara Kanda, Sarga
15, Shloka 30``); numbers are joined by ``.``, ``:`` (a space may follow it: ``Luke 3: 5``) or
a separator the scheme lists. A number tail is a reference when the words just before it name
a book of the scheme — by any alias or spelling, longest name first, a number word read as its
number (``Song of Solomon 2:1``, ``1 John 3:1``, ``1John``, ``I Sa``, ``First Sam``) — or name
the whole work with a numbered top level (``Ramayana 5.15.30``). A name the scheme does not
know is taken as a reference, to fail, only where the writer clearly meant one: inside
brackets (``[Mahabharata 1.1]``) or before the top level's word (``Xyz Kanda 1.1``). Everything
else that merely looks like a reference is left for :meth:`ReferenceExtractor.lookalikes`.
Level words never make a name (``[Sarga 3]`` cites no book called Sarga).

Where the scheme numbers its top level (:attr:`~ReferenceScheme.numbered_top`: the Valmiki
Ramayana), the top level's word and a number name that book (``Kanda 2, Sarga 3, Shloka 4``,
``[Kanda 2 Sarga 3 Shloka 4]``, ``Kanda 2.3.4``; ``Bala Kanda 2, Sarga 3`` is a contradiction,
reported), and a bracket that holds nothing but a full reference's numbers is a reference
(``(1.1.4)``, ``[2.3.4]``, with ranges and lists: ``(1.1.4-6)``). Numbers alone are read only
so: joined by the scheme's own separators (not ``:``: ``(1:30:45)`` is a time), each of one to
three digits with no zero and no leading zero (``(2.3.2024)`` is a date, ``(1.0.4)`` a
version), filling their bracket (``(version 1.1.4)``; not a link's label, ``[1.1.4](…)``; not an
index, ``a[1.1.4]``), and not after a word such as ``version`` or ``section``. A decimal or a
pair (``3.14``, ``(2.3)``) names no top level and is never read; outside brackets numbers alone
are prose (``version 1.1.4``, ``on 2.3.2024``).

Ranges expand (``2.3-5`` is 2.3, 2.4, 2.5; ``John 3-4`` two chapters); a range across a chapter
(``29:32-30:10``) or a book (``Genesis 50:3 - Exodus 1:14``) is checked at its two ends, and
its end may repeat the book (``1 Samuel 1:1-1 Samuel 31:13``). Lists keep the level of their
last number (``3:16, 18`` keeps the chapter; after ``29:32-30:10``, ``11`` is 30:11); an item or
a range's end with more numbers names its levels (``John 3, 4:5``, ``John 3-4:5``). A book of
one chapter is cited by verse (``Obadiah 3-6``). Code in Markdown is never read.

A reference is never cut short: numbers joined by a character that is not a separator
(``Sundara 15/30``), or a name that stands for several books (``AK 2.3``: Ayodhya or Aranya),
make a mention with a :attr:`~Mention.doubt`, reported unchecked, not a shorter reference. A
number joined to a reference by a comma or a dash that is not read as part of it (``Bala 1.1,
2 brothers``: shloka 2, or two brothers?) is a doubted mention of its own, never dropped.
Where the scheme names an outside parser (the Bible: ``pythonbible``) and it is installed, its
references are read first and this reading is checked against its parse: what the parser takes
as part of a reference is read so (``Gen 1:1, 32 says`` cites Genesis 1:32, which then fails),
what it drops as impossible is kept, and a number it leaves out that this reading cannot
supply makes the mention doubted.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from itertools import accumulate

from citecheck.documents.structure import find_line_starts
from citecheck.errors import ConfigError, MissingDependencyError
from citecheck.model import Span
from citecheck.references.pythonbible_parser import Passage, PythonBibleParser, cleaned
from citecheck.references.scheme import (
    NO_ZERO,
    Book,
    ReferenceScheme,
    StructuredReference,
    fold,
    number_word,
)
from citecheck.syntax.scan import DASHES, CodeRegions, unclosed_warnings

__all__ = ["NOT_NAMES", "PROSE_WORDS", "Lookalike", "Mention", "ReferenceExtractor"]

MAX_DIGITS = 9
"""A number with more digits than this cites nothing; it is reported, not converted."""

_TOKEN = re.compile(r"\d+|[^\W\d_][\w'’\-]*\.?")
_NAME_WORDS = 5
_NAME_REACH = 24 * _NAME_WORDS
"""How far before a number a name may start, in characters."""
NOT_NAMES = frozenset(
    fold(word)
    for word in (
        "figure fig table tab equation eq eqn section sec page p pp version v step appendix "
        "note line lines chapter chap part item items rule rules article art clause paragraph "
        "para volume vol no number issue"
    ).split()
)
"""Words that precede numbers in ordinary prose (``(Table 2.3)``): never an unknown book."""
PROSE_WORDS = frozenset(
    fold(word)
    for word in (
        "the a an in of see cf and or at from to per as by on with its this that which also "
        "about e.g. i.e. ca circa approx approximately around nearly over under"
    ).split()
)
"""Words of prose that start no name: before the top level's word (``in Kanda 2.3.4``), or
first in a bracket (``(see 2.3.4)``, ``(see Xyz 1.1)`` names Xyz)."""
_NOT_BEFORE_BARE = NOT_NAMES | frozenset(
    fold(word)
    for word in "release build patch revision rev ver edition ed update sections pages".split()
)
"""Words after which a bracket of bare numbers is prose: ``version (1.1.4)``, ``(see) section
(2.3.4)``."""
_BARE_DIGITS = 3
"""A bracket of bare numbers (``(1.1.4)``) is read only when every number has at most this many
digits, no leading zero and no zero: ``(2.3.2024)`` is a date, ``(1.0.4)`` a version."""
_CLOSERS = frozenset("])")
_OPENERS = frozenset("[(")
_DASH_CLASS = DASHES.replace("-", "\\-")
"""The dashes, for inside a regex class anywhere (a bare ``-`` there would make a range)."""
_NOT_JOINERS = "\\s\\w,;()\\[\\]{}<>\"'“”‘’«»" + _DASH_CLASS
"""Characters that never join two numbers into one reference (for a negated regex class):
space, letters and digits, list and range punctuation, brackets, quotes. Any other character
between two numbers (``15.30``, ``15:30``, ``15/30``, ``15_30``) makes them one reference, read
when the scheme accepts it as a separator and doubted when it does not."""
_LOOKALIKE_JOINERS = "[.:/_·|]"
_BEFORE_ITEM = re.compile(r"[ \t]*[,;][ \t]*(?:and[ \t]+)?(?=\d)")
"""A list separator before a number (the start of an item, or of a book's name)."""
_LOCATION_NUMBER = re.compile(r"\d+(?![ \t]*[^\W\d_])")
"""A number that is no part of a name (``1 John``, ``3rd John``, ``1John``)."""
_PLAIN = re.compile(r"[ \t]*\d+(?:[:.]\d+)?(?:-\d+)?")
"""A plain ``chapter[:verse][-number]`` after a book's name: pythonbible and this extractor
read it alike (one-chapter books included; the parity test over pythonbible's own test
suite holds them to it), so pythonbible's slower parse is asked only for the other forms."""


@dataclass(frozen=True, slots=True)
class Mention:
    """One reference as written: where it stands, the text, and the references it expands to.

    ``ranges`` are the spans cited, as written, each (first, last) — one reference is (ref,
    ref), ``Genesis 1:1-3:4`` one range whose verses ``references`` gives at its two ends.

    ``problem`` is set for a mention that cannot cite anything whatever the corpus (a zero, a
    20-digit number, a range that runs backwards, a number that contradicts the book's name);
    its one reference is then reported ``NOT_FOUND`` with the problem as the reason. ``doubt``
    is set for a mention that cannot be read for sure (a name that stands for several books, a
    separator the scheme does not use): it is reported ``UNCHECKED`` with the doubt as the
    reason, never resolved by a guess.
    """

    span: Span
    raw: str
    references: tuple[StructuredReference, ...]
    problem: str | None = None
    doubt: str | None = None
    ranges: tuple[tuple[StructuredReference, StructuredReference], ...] = ()


@dataclass(frozen=True, slots=True)
class Lookalike:
    """Text that looks like a reference but was not parsed as one (for coverage reports)."""

    span: Span
    text: str
    line: int


@dataclass(frozen=True, slots=True)
class _Name:
    """A name before numbers: a known ``book``, an unknown name as ``written``, an ambiguous
    one with its ``candidates``, or (none of them) the name of the whole work. ``doubt`` says
    why a known book may not be the one meant (``1 Joh``: 1 John, or John?)."""

    start: int
    end: int
    book: Book | None = None
    written: str | None = None
    candidates: tuple[Book, ...] = ()
    doubt: str | None = None


@dataclass(frozen=True, slots=True)
class _Part:
    """One item of a mention as written: a reference, or a range with its end (which may name
    its own book)."""

    name: _Name
    start: list[str]
    end: list[str] | None = None
    end_name: _Name | None = None


@dataclass(slots=True)
class _Read:
    """A mention being read: its parts, and the separators met that the scheme does not use."""

    parts: list[_Part] = field(default_factory=list)
    strange: list[str] = field(default_factory=list)


class _Impossible(Exception):
    """A part that cannot cite anything (``problem``) or cannot be read for sure (``doubt``)."""

    def __init__(self, reason: str, *, doubt: bool = False) -> None:
        super().__init__(reason)
        self.reason = reason
        self.doubt = doubt


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
        self._accepted = frozenset(scheme.accepted_separators)
        spaced = "".join(re.escape(s) for s in scheme.accepted_separators if s != ".")
        joiner = rf"(?:[{spaced}][ \t]*|[^{_NOT_JOINERS}{spaced}]|_)"
        tail = rf"\d+(?:{joiner}\d+)*"
        self._tail = re.compile(
            rf"(?<!\w)(?<!\d[^{_NOT_JOINERS}])(?P<minus>(?<=\s)[-\u2212])?(?P<tail>{tail})"
        )
        self._joiners = re.compile(r"[^\d \t]")
        self._range_start = re.compile(rf"[ \t]*[{_DASH_CLASS}][ \t]*")
        self._list_item = re.compile(
            rf"[ \t]*[,;][ \t]*(?:and[ \t]+)?({tail})|[ \t]+and[ \t]+({tail})"
        )
        self._short_item_end = re.compile(
            rf"[ \t]*(?:[,;.\])}}{_DASH_CLASS}]|and\b|$)", re.MULTILINE
        )
        self._dangling = re.compile(
            rf"[ \t]*(?:[,;][ \t]*(?:and[ \t]+)?|[{_DASH_CLASS}][ \t]*|(?<=[ \t])and[ \t]+)"
            rf"(?P<tail>{tail})"
        )
        words = [
            "|".join(
                re.escape(w)
                for w in sorted({level, *scheme.level_words.get(level, ())}, key=len, reverse=True)
            )
            for level in scheme.levels[1:]
        ]
        parts = [rf"\b(?:{w})\.?[ \t]*(\d+)" for w in words]
        long_form = parts[0] + "".join(rf"(?:[ \t]*,?[ \t]*{part})?" for part in parts[1:])
        self._long = re.compile(rf"(?i:{long_form})(?!{joiner}?\d)")
        self._works = frozenset(fold(name) for name in scheme.work_names)
        top_words = (scheme.levels[0], *scheme.level_words.get(scheme.levels[0], ()))
        self._top_words = frozenset(fold(w) for w in top_words)
        self._lower_words = frozenset(
            fold(w)
            for level in scheme.levels[1:]
            for w in (level, *scheme.level_words.get(level, ()))
        )
        self._top_number: re.Pattern[str] | None = None
        if scheme.numbered_top:  # ``Kanda 2`` names kanda 2, and looks like a reference
            top_alternatives = "|".join(
                re.escape(w) for w in sorted(top_words, key=len, reverse=True)
            )
            self._top_number = re.compile(rf"(?<![\w'’\-])(?i:{top_alternatives})\.?[ \t]*(\d+)\Z")
            words.append(top_alternatives)
        self._lookalikes = re.compile(
            rf"[\[(][^\[\]()\n]{{0,60}}?\d+{_LOOKALIKE_JOINERS}\d+[^\[\]()\n]{{0,30}}?[\])]"
            # a word starts where no word, hyphen or apostrophe stands before it, and is taken
            # whole (possessive): a run of "a-a-a-…" is read once, not from every letter of it
            rf"|(?<![\w'’\-])[^\W\d_][\w'’\-]*+\.?[ \t]+\d+(?:{_LOOKALIKE_JOINERS}\d+)+"
            rf"|(?i:\b(?:{'|'.join(words)})\.?[ \t]*\d+)"
        )
        self._parser = _outside_parser(scheme)

    # -- public ---------------------------------------------------------------------------

    def extract(self, text: str) -> tuple[list[Mention], list[str]]:
        """The mentions in ``text`` in order, and warnings about ranges checked at their ends."""
        clean, offsets = text, None
        outside: list[tuple[Mention, list[str]]] = []
        if self._parser is not None:
            clean, offsets = cleaned(text)
            outside = list(self._outside_mentions(clean))
        taken = [m.span for m, _ in outside]
        own = sorted(
            (*self._tails(clean, taken), *self._long_forms(clean)),
            key=lambda c: (c[0].span.start, -len(c[0].span)),
        )
        code = CodeRegions(text)
        starts: list[int] = []  # the chosen mentions, by start; they never overlap
        chosen: list[tuple[Mention, list[str]]] = []
        for candidate in (*outside, *own):  # the outside parser's mentions win any overlap
            mention = candidate[0]
            if offsets is not None and offsets.changed:
                start = offsets.original(mention.span.start)
                end = offsets.original(mention.span.end, end=True)
                mention = _moved(mention, Span(start, end), text[start:end])
            span = mention.span
            index = bisect_left(starts, span.start)
            if (
                code.overlaps(span.start, span.end)
                or (index and chosen[index - 1][0].span.end > span.start)
                or (index < len(starts) and starts[index] < span.end)
            ):
                continue
            starts.insert(index, span.start)
            chosen.insert(index, (mention, candidate[1]))
        mentions = [m for m, _ in chosen]
        doubted = self._dangling_numbers(text, mentions, code)
        if doubted:
            mentions = sorted((*mentions, *doubted), key=lambda m: m.span.start)
        return mentions, [note for _, notes in chosen for note in notes] + unclosed_warnings(text)

    def lookalikes(self, text: str, mentions: list[Mention] | None = None) -> list[Lookalike]:
        """Strings that look like references but are not among ``mentions``: the gaps of the
        patterns, or prose that only looks like a citation."""
        if mentions is None:
            mentions, _ = self.extract(text)
        spans = sorted(m.span for m in mentions)
        starts = [s.start for s in spans]
        reach = list(accumulate((s.end for s in spans), max))  # furthest end so far
        line_starts = find_line_starts(text)
        code = CodeRegions(text)
        out = []
        for match in self._lookalikes.finditer(text):
            span = Span(*match.span())
            before = bisect_left(starts, span.end)  # the mentions that start before it ends
            if (before and reach[before - 1] > span.start) or code.overlaps(span.start, span.end):
                continue
            out.append(Lookalike(span, match.group(), bisect_right(line_starts, span.start)))
        return out

    def _dangling_numbers(
        self, text: str, mentions: Sequence[Mention], code: CodeRegions
    ) -> list[Mention]:
        """The numbers joined to the end of a mention by a list comma, a dash or "and" that no
        reading took (``Bala 1.1, 2 brothers``: shloka 2, or two brothers?), each a mention of
        its own with the doubt: a number written after a reference is never dropped in silence. A
        number that starts a book's name (``John 3:16, 1 John 2:3``) is that book's."""
        doubted = []
        for index, mention in enumerate(mentions):
            match = self._dangling.match(text, mention.span.end)
            if match is None:
                continue
            start, end = match.span("tail")
            following = mentions[index + 1].span.start if index + 1 < len(mentions) else len(text)
            if following < end or code.overlaps(start, end) or self._names_book(text, start):
                continue
            doubted.append(self._doubted_number(text, mention, Span(start, end)))
        return doubted

    def _doubted_number(self, text: str, after: Mention, span: Span) -> Mention:
        """The doubted mention of the number at ``span`` after the mention ``after``: the
        reference it would be as an item of ``after``'s list (``Bala 1.2``), with the doubt."""
        raw = text[span.start : span.end]
        written = tuple(int(n) for n in self._split(raw)[0])
        last = after.ranges[-1][1] if after.ranges else after.references[-1]
        shown = " ".join(after.raw.split())
        if last.numbers and len(written) <= self.scheme.depth:
            numbers = last.numbers[: max(len(last.numbers) - len(written), 0)] + written
            ref = self.scheme.reference(last.book, numbers)
            doubt = (
                f"{raw!r} after {shown!r} may cite {ref.canonical} or be a number of the "
                f"sentence, so it was not checked (write {ref.canonical!r} to cite it)"
            )
        else:
            ref = StructuredReference(self.scheme.name, last.book, (), False, raw)
            doubt = (
                f"{raw!r} after {shown!r} may continue that reference or be a number of the "
                "sentence, so it was not checked"
            )
        return Mention(span, raw, (ref,), doubt=doubt, ranges=((ref, ref),))

    def _names_book(self, text: str, position: int) -> bool:
        """Whether a book's name starts at ``position`` (``1 John``, ``2 Kings``)."""
        if self._parser is not None and self._parser.book_at(text, position) is not None:
            return True
        line_end = text.find("\n", position)
        words: list[re.Match[str]] = []
        for token in _TOKEN.finditer(text, position, len(text) if line_end < 0 else line_end):
            boundary = words[-1].end() if words else position
            if len(words) == _NAME_WORDS or text[boundary : token.start()].strip(" \t"):
                break
            words.append(token)
        names = (text[position : word.end()] for word in words[1:])
        return any(self.scheme.book(n) is not None or self.scheme.candidates(n) for n in names)

    # -- the number-tail form -------------------------------------------------------------

    def _tails(self, text: str, taken: Sequence[Span] = ()) -> Iterator[tuple[Mention, list[str]]]:
        """The number-tail mentions; a tail within ``taken`` (the outside parser's mentions, in
        order) is skipped: the parser's mention would win it anyway."""
        position = 0
        next_taken = 0
        while (match := self._tail.search(text, position)) is not None:
            position = match.end()
            while next_taken < len(taken) and taken[next_taken].end <= match.start():
                next_taken += 1
            if next_taken < len(taken) and taken[next_taken].start <= match.start():
                continue
            name = self._name_before(text, match.start())
            bare = name is None and self._bare_start(text, match)
            if bare:
                name = _Name(match.start(), match.start())  # the work's: its first number's book
            if name is None:
                continue
            read = self._read_numbers(text, name, match)
            if read is None:
                continue
            mention_end, parts = read
            span = Span(name.start, mention_end)
            if bare and not self._bare_end(text, span):
                continue
            unknown = name.book is None and name.written is not None and not name.candidates
            if unknown and not self._unknown_allowed(text, span):
                continue
            position = max(position, mention_end)
            if match.group("minus"):
                problem = "a negative number cannot cite anything"
                yield self._impossible(text, span, name, (), problem), []
                continue
            yield self._mention(text, span, parts)

    def _bare_start(self, text: str, match: re.Match[str]) -> bool:
        """Whether the tail ``match`` may start a reference of numbers alone (``(1.1.4)``,
        ``[2.3.4]``): the scheme numbers its top level, the tail stands first in a bracket
        that no word touches and no prose word (``version (1.1.4)``) precedes, and it is a full
        reference's numbers joined by the scheme's separators, each of one to three digits
        with no leading zero and no zero. A version (``1.0.4``), a date (``2.3.2024``), a
        time (``1:30:45``) or a decimal (``3.14``) is never read so."""
        scheme = self.scheme
        if not scheme.numbered_top or match.group("minus"):
            return False
        opening = _space_before(text, match.start()) - 1
        if opening < 0 or text[opening] not in _OPENERS:
            return False
        if opening and (text[opening - 1].isalnum() or text[opening - 1] in "_!"):
            return False  # an index (``a[1.1.4]``), an image's label (``![1.1.4]``)
        before = text[max(0, opening - _NAME_REACH) : opening].split()
        if before and fold(before[-1]) in _NOT_BEFORE_BARE:
            return False
        numbers = re.findall(r"\d+", match.group("tail"))
        joiners = re.findall(r"[^\d \t]", match.group("tail"))
        return (
            len(numbers) == scheme.depth + 1
            and all(joiner in scheme.separators for joiner in joiners)
            and all(_bare_number(number) for number in numbers)
        )

    def _bare_end(self, text: str, span: Span) -> bool:
        """Whether a reference of numbers alone at ``span`` fills its bracket: the bracket
        closes right after it, with no link after it (``[1.1.4](…)``, ``[1.1.4]: …``), and every
        number of its ranges and lists is a small one (see :meth:`_bare_start`)."""
        opening = text[_space_before(text, span.start) - 1]
        after = _skip_space(text, span.end)
        closer = {"[": "]", "(": ")"}[opening]
        if text[after : after + 1] != closer or text[after + 1 : after + 2] in {"(", ":"}:
            return False
        return all(_bare_number(n) for n in re.findall(r"\d+", text[span.start : span.end]))

    def _read_numbers(
        self, text: str, name: _Name, match: re.Match[str]
    ) -> tuple[int, _Read] | None:
        """The numbers after ``name``, from the tail ``match`` on: where they end and the parts
        they make; ``None`` when the tail cannot cite anything under that name."""
        full, strange = self._split(match.group("tail"))
        depth = self.scheme.depth
        if _is_work(name):  # a work name: the first number is the book
            if len(full) != depth + 1:
                return None
        elif not 1 <= len(full) <= depth + 1:
            return None
        read = _Read(strange=strange)
        end = self._continuation(text, match.end(), name, full, read)
        return end, read

    def _name_before(self, text: str, end: int, *, adjacent: bool = False) -> _Name | None:
        """The book named right before ``end``; ``None`` when no name stands there. Before a
        number the name must be followed by a space, or end in a full stop (``Gen.1:1``);
        ``adjacent`` lifts that. Within a name, a number may touch the word after it
        (``1John``) and initials may touch (``A.K.``)."""
        line_start = text.rfind("\n", 0, end) + 1
        low = max(line_start, end - _NAME_REACH)
        tokens = list(_TOKEN.finditer(text, low, end))
        words: list[re.Match[str]] = []
        boundary = end
        for token in reversed(tokens):
            gap = text[token.end() : boundary]
            if gap.strip(" \t"):
                break
            if not gap:
                if boundary == end:
                    if not (adjacent or token.group()[-1] == "."):
                        break
                elif not (token.group().isdigit() or token.group()[-1] == "."):
                    break
            words.append(token)
            boundary = token.start()
            if len(words) == _NAME_WORDS:
                break
        words.reverse()
        scheme = self.scheme
        for k in range(len(words), 0, -1):
            first = words[-k]
            name = text[first.start() : words[-1].end()]
            if not any(ch.isalpha() for ch in name):
                continue
            if first.group().isdigit() and k == 1:
                continue
            name_end = words[-1].end()
            book = scheme.book(name)
            if book is not None:
                doubt = self._doubt_before(words[:-k], name, book)
                if doubt is not None:
                    return _Name(doubt[1], name_end, book=book, doubt=doubt[0])
                return _Name(first.start(), name_end, book=book)
            candidates = scheme.candidates(name)
            if candidates:
                return _Name(first.start(), name_end, written=name.strip(), candidates=candidates)
            if fold(name) in self._works:
                return _Name(first.start(), name_end)
        if not words:
            return None
        if fold(words[-1].group()) in self._top_words and (
            len(words) == 1 or _prose(words[-2].group())
        ):
            # The top level's word without a name (``Kanda 2.3.4``, ``in Kanda 2.3.4``): the
            # number after it is the book's where the scheme numbers them, else nothing is named.
            return _Name(words[-1].start(), words[-1].end()) if scheme.numbered_top else None
        if any(fold(word.group()) in self._lower_words for word in words):
            return None  # level words (``[Sarga 3``, ``Kanda 2 Sarga 3 Shloka``) name no book
        # An unknown name: the words from an opening bracket, or before the top level's word.
        opening = text[max(line_start, words[0].start() - 2) : words[0].start()].strip(" \t")
        if opening[-1:] in _OPENERS:
            named = list(words)
            while named and fold(named[0].group()) in PROSE_WORDS:  # ``(see 2.3.4)``: no name
                named.pop(0)
            name = text[named[0].start() : named[-1].end()].rstrip(".") if named else ""
            if name and fold(named[0].group()) not in NOT_NAMES and any(map(str.isalpha, name)):
                return _Name(words[0].start(), words[-1].end(), written=name)
        if (
            len(words) >= 2
            and fold(words[-1].group()) in self._top_words
            and fold(words[-2].group()) not in NOT_NAMES
            and words[-2].group()[0].isalpha()
        ):
            start = words[-2].start()
            return _Name(start, words[-1].end(), written=text[start : words[-1].end()])
        return None

    def _doubt_before(
        self, before: list[re.Match[str]], name: str, book: Book
    ) -> tuple[str, int] | None:
        """Why the words ``before`` a name may make it another book, and where those words
        start: a number word that, put before the book, names a numbered one (``1 Joh``, ``The
        First Epistle of John``: 1 John?), or ``X of`` where X is a book (``The Revelation of
        John``: Revelation?). A digit or ``I`` counts only right before the name (``as I read
        John 3:16`` is prose)."""
        scheme = self.scheme
        words = [w.group() for w in before]
        for distance, word in enumerate(reversed(words)):
            number = number_word(word)
            if number is None or (distance and (word.isdigit() or word.upper() == "I")):
                continue
            siblings = [scheme.book(f"{number} {alias}") for alias in (book.name, *book.aliases)]
            sibling = next((b for b in siblings if b is not None and b is not book), None)
            if sibling is not None:
                first = len(words) - distance - 1
                phrase = " ".join([*words[first:], name])
                reason = f"{phrase!r} may be {sibling.name} or {book.name}: write the book's name"
                return reason, before[first].start()
        trimmed = list(words)
        while trimmed and fold(trimmed[-1]) == "the":
            trimmed.pop()
        if len(trimmed) >= 2 and fold(trimmed[-1]) == "of":
            head = trimmed[:-1]
            for k in range(min(3, len(head)), 0, -1):
                other = scheme.book(" ".join(head[-k:]))
                if other is not None and other is not book:
                    phrase = f"{' '.join(head[-k:])} of {name}"
                    reason = f"{phrase!r} may be {other.name} or {book.name}: write the book's name"
                    return reason, before[len(head) - k].start()
        return None

    def _name_after(self, text: str, position: int) -> tuple[_Name, re.Match[str]] | None:
        """A book named from ``position`` on and the number tail after it, for a range end that
        names its book (``1 Samuel 1:1-1 Samuel 31:13``, ``Genesis 50:3 - Exodus 1:14``)."""
        if self._parser is not None:
            found = self._parser.book_at(text, position)
            if found is not None:
                number, name_end = found
                tail = self._tail.match(text, _skip_space(text, name_end))
                book = self.scheme.book_by_number(number)
                if tail is not None and book is not None:
                    return _Name(position, name_end, book=book), tail
        for tail in self._tail.finditer(text, position):
            if tail.start() - position > _NAME_REACH or "\n" in text[position : tail.start()]:
                return None
            name = self._name_before(text, tail.start())
            if name is not None and name.start == position and name.book is not None:
                return name, tail
            if tail.start() > position:
                return None
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
        self, text: str, position: int, name: _Name, first: list[str], read: _Read
    ) -> int:
        """Where the mention ends: its first tail, a range end after it, then list items (each
        with its range end); the parts go to ``read``. A list item keeps the level of the last
        number before it, a range's end included (after ``29:32-30:10``, ``11`` is 30:11), and
        the book of a range's end (after ``Genesis 50:3 - Exodus 1:14``, ``2:3`` is Exodus);
        one with more numbers names its levels (``John 3, 4:5``). A short item before a word
        (``Bala 1.1, 2 brothers``) or after ``and`` is prose; :meth:`extract` doubts the
        first."""
        part, position = self._range(text, position, _Part(name, first), read)
        read.parts.append(part)
        previous = _last_numbers(part)
        while (item := self._list_item.match(text, position)) is not None:
            numbers, strange = self._split(item.group(1) or item.group(2))
            if len(numbers) > self.scheme.depth + 1:
                break
            if len(numbers) < len(previous) and (
                item.group(2) or not self._short_item_end.match(text, item.end())
            ):
                break
            read.strange.extend(strange)
            full = previous[: max(len(previous) - len(numbers), 0)] + numbers
            part, position = self._range(
                text, item.end(), _Part(part.end_name or part.name, full), read
            )
            read.parts.append(part)
            previous = _last_numbers(part)
        return position

    def _range(self, text: str, position: int, part: _Part, read: _Read) -> tuple[_Part, int]:
        """``part`` with the end of a range after ``position`` if one stands there, and where
        the part ends."""
        dash = self._range_start.match(text, position)
        if dash is None:
            return part, position
        qualified = self._name_after(text, dash.end())
        if qualified is not None:
            end_name, named_tail = qualified
            numbers, strange = self._split(named_tail.group("tail"))
            if 1 <= len(numbers) <= self.scheme.depth + 1:
                read.strange.extend(strange)
                return _Part(part.name, part.start, numbers, end_name), named_tail.end()
        tail = self._tail.match(text, dash.end())
        if tail is None or tail.group("minus"):
            return part, position
        numbers, strange = self._split(tail.group("tail"))
        if len(numbers) > max(len(part.start), self.scheme.depth):
            return part, position
        read.strange.extend(strange)
        return _Part(part.name, part.start, numbers), tail.end()

    def _split(self, tail: str) -> tuple[list[str], list[str]]:
        """The numbers of a tail, and the joiners in it that the scheme does not accept."""
        joiners = self._joiners.findall(tail)
        return re.findall(r"\d+", tail), [j for j in joiners if j not in self._accepted]

    # -- the long form --------------------------------------------------------------------

    def _long_forms(self, text: str) -> Iterator[tuple[Mention, list[str]]]:
        for match in self._long.finditer(text):
            prefix_end = match.start()
            while prefix_end > 0 and text[prefix_end - 1] in " \t,":
                prefix_end -= 1
            if prefix_end == match.start():
                continue
            numbers = [g for g in match.groups() if g is not None]
            top = None
            if self._top_number is not None:
                top = self._top_number.search(text, max(0, prefix_end - _NAME_REACH), prefix_end)
            if top is not None:
                yield self._numbered_long_form(text, top, numbers, match.end())
                continue
            name = self._name_before(text, prefix_end, adjacent=True)
            if name is None or name.book is None:
                continue  # the long form names a known book: it is too wordy to guess at
            read = _Read([_Part(name, numbers)])
            yield self._mention(text, Span(name.start, match.end()), read)

    def _numbered_long_form(
        self, text: str, top: re.Match[str], numbers: list[str], end: int
    ) -> tuple[Mention, list[str]]:
        """A long form whose top level is given by number (``Kanda 2, Sarga 3, Shloka 4``,
        ``top`` the ``Kanda 2``), after the book's name or not (``Sundara Kanda 5, Sarga 15``):
        a name that is not the number's book (``Bala Kanda 2, Sarga 3``) makes it a problem,
        never a reading of one of them."""
        number = top.group(1)
        before = self._name_before(text, top.start())
        book = before.book if before is not None else None
        if before is None or book is None:
            work = _Name(top.start(), top.start())  # the top level by its number, as a work's
            return self._mention(
                text, Span(top.start(), end), _Read([_Part(work, [number, *numbers])])
            )
        span = Span(before.start, end)
        name = _Name(before.start, top.end(), book=book, doubt=before.doubt)
        if int(number) != book.number:
            top_level = self.scheme.levels[0]
            reason = f"{book.name} is {top_level} {book.number}, not {int(number)}"
            return self._impossible(text, span, name, (), reason), []
        return self._mention(text, span, _Read([_Part(name, numbers)]))

    # -- the outside parser (pythonbible for the Bible) -----------------------------------

    def _outside_mentions(self, text: str) -> Iterator[tuple[Mention, list[str]]]:
        """The references the outside parser finds, each read by this extractor from the
        parser's book name on and checked against the parser's reading: where the parser reads
        an existing verse this reading misses, the parser's reading is taken, with the
        references of this one it does not cover (those that do not exist, which the parser
        drops, among them). A parser that reads a whole book where numbers are written
        (``Psalm.30: 3`` is all of Psalms to it) misread them: this reading is taken."""
        parser = self._parser
        assert parser is not None
        for start, found_end in parser.find(text):
            found = parser.book_at(text, start)
            if found is None:
                continue
            end = self._before_next_book(text, found[1], found_end)
            if not any(ch.isdigit() for ch in text[found[1] : end]):
                continue  # a book without a number (``1 Sam``) is prose as often as not
            book = self.scheme.book_by_number(found[0])
            name = (
                _Name(start, found[1], book=book)
                if book is not None
                else _Name(start, found[1], written=text[start : found[1]].rstrip(". \t"))
            )
            own: tuple[Mention, list[str]] | None = None
            tail = self._tail.match(text, _skip_space(text, found[1]))
            if tail is not None and not tail.group("minus"):
                numbers = self._read_numbers(text, name, tail)
                if numbers is not None and numbers[0] < end:
                    # The parser took what follows as the reference's (``Gen 1:1, 32 says``):
                    # read so too, to its end, or a verse it drops as impossible would vanish.
                    numbers = self._read_numbers(text[:end], name, tail) or numbers
                if numbers is not None:
                    own = self._mention(text, Span(start, numbers[0]), numbers[1])
            if own is not None and (
                book is None  # a book pythonbible knows and the scheme does not: it fails
                or own[0].problem
                or own[0].doubt
                or (own[0].span.end == end and _PLAIN.fullmatch(text, found[1], end))
            ):
                yield own
                continue
            theirs = parser.read(text[start:end])
            if theirs and any(p[1] is None and (tail is not None or p[3] is None) for p in theirs):
                theirs = None  # whole books where numbers are written: it misread them
            if own is not None and (
                theirs is None
                or (own[0].span.end >= end and parser.covers(theirs, self._passages(own[0])))
            ):
                yield own
            elif theirs and (mention := self._from_passages(text, Span(start, end), theirs, own)):
                yield mention

    def _before_next_book(self, text: str, position: int, end: int) -> int:
        """``end``, or the end of the parser's reference before a book named after a list
        separator in it: pythonbible reads the ``1`` of ``John 3:16, 1 John 2:3`` as a verse
        and loses 1 John 2:3. A book named after a dash ends a range and stays."""
        parser = self._parser
        assert parser is not None
        for match in _BEFORE_ITEM.finditer(text, position, end):
            if parser.book_at(text, match.end()) is not None:
                return match.start()
        return end

    def _passages(self, mention: Mention) -> list[Passage]:
        """The ranges of ``mention`` that name known books, as pythonbible passages."""
        return [p for first, last in mention.ranges if (p := self._passage(first, last))]

    def _passage(self, first: StructuredReference, last: StructuredReference) -> Passage | None:
        """The range ``first``-``last`` as a pythonbible passage (``None`` for the levels a
        reference does not give); ``None`` when a book is unknown or a number too deep."""
        book, end_book = self.scheme.book(first.book), self.scheme.book(last.book)
        if book is None or end_book is None or not (first.known and last.known):
            return None
        if max(len(first.numbers), len(last.numbers)) > self.scheme.depth:
            return None
        start: tuple[int | None, ...] = (*first.numbers, None, None)
        stop: tuple[int | None, ...] = (*last.numbers, None, None)
        return book.number, start[0], start[1], stop[0], stop[1], end_book.number

    def _from_passages(
        self,
        text: str,
        span: Span,
        passages: Sequence[Passage],
        own: tuple[Mention, list[str]] | None,
    ) -> tuple[Mention, list[str]] | None:
        """A mention of the parser's passages, plus the ranges of ``own`` that do not exist
        (the parser leaves those out; they must still fail), or all of them where ``own``
        reads on after the parser stopped (``Gen 1:1.2``: Genesis 1:1 to the parser, 1:2 here,
        book 1 first); ``None`` when the passages name no book of the scheme. A number written
        that is in none of them makes the mention doubted (:func:`_unread_numbers`)."""
        parser = self._parser
        assert parser is not None
        scheme = self.scheme
        ranges: list[tuple[StructuredReference, StructuredReference]] = []
        references: list[StructuredReference] = []
        notes: list[str] = []
        for book_number, chapter, verse, end_chapter, end_verse, end_book_number in passages:
            book = scheme.book_by_number(book_number)
            end_book = scheme.book_by_number(end_book_number)
            if book is None or end_book is None:
                continue
            first = tuple(n for n in (chapter, verse) if n is not None)
            last = tuple(n for n in (end_chapter, end_verse) if n is not None)
            if 0 in first + last:  # pythonbible takes a verse 0 for "no verse": never a verse
                name = _Name(span.start, span.start, book)
                return self._impossible(text, span, name, (), NO_ZERO), []
            try:
                refs, note = self._span(book, first, end_book, last)
            except _Impossible:
                continue  # pythonbible validated it: it cannot run backwards
            ranges.append((refs[0], refs[-1]))
            references.extend(refs)
            notes.extend([note] if note else [])
        if own is not None:
            further = own[0].span.end > span.end
            for first_ref, last_ref in own[0].ranges:
                passage = self._passage(first_ref, last_ref)
                if further or passage is None or parser.span(passage) is None:
                    ranges.append((first_ref, last_ref))
                    references.extend((first_ref, last_ref))
            span = Span(span.start, max(span.end, own[0].span.end))
        if not references:
            return None
        raw = text[span.start : span.end]
        unread = _unread_numbers(raw, references, scheme)
        if unread:
            name = _Name(span.start, span.start, scheme.book_by_number(passages[0][0]))
            read = ", ".join(dict.fromkeys(r.canonical for r in references))
            doubt = (
                f"{' '.join(raw.split())!r} was read as {read}, which leaves out "
                f"{', '.join(unread)}, so it was not checked"
            )
            return self._impossible(text, span, name, (), doubt, doubt=True), []
        return Mention(span, raw, tuple(dict.fromkeys(references)), ranges=tuple(ranges)), notes

    # -- building mentions ----------------------------------------------------------------

    def _mention(self, text: str, span: Span, read: _Read) -> tuple[Mention, list[str]]:
        """The mention of ``read``'s parts and the warnings about its ranges."""
        raw = text[span.start : span.end]
        first_name = read.parts[0].name
        if first_name.doubt is not None:
            return self._impossible(text, span, first_name, (), first_name.doubt, doubt=True), []
        if read.strange:
            joiners = ", ".join(repr(j) for j in dict.fromkeys(read.strange))
            accepted = " and ".join(repr(s) for s in self.scheme.accepted_separators)
            doubt = (
                f"{joiners} is not a separator of {self.scheme.title} references "
                f"({accepted} are), so {' '.join(raw.split())!r} was not read"
            )
            return self._impossible(text, span, first_name, (), doubt, doubt=True), []
        references: list[StructuredReference] = []
        ranges: list[tuple[StructuredReference, StructuredReference]] = []
        notes: list[str] = []
        for part in read.parts:
            try:
                refs, note = self._part(part)
            except _Impossible as impossible:
                mention = self._impossible(
                    text, span, part.name, (), impossible.reason, doubt=impossible.doubt
                )
                return mention, []
            ranges.append((refs[0], refs[-1]))
            references.extend(refs)
            notes.extend([note] if note else [])
        return Mention(span, raw, tuple(dict.fromkeys(references)), ranges=tuple(ranges)), notes

    def _part(self, part: _Part) -> tuple[list[StructuredReference], str | None]:
        """The references of one part (a range: its references, or its two ends with a note)."""
        self._check(part.start + (part.end or []))
        book, start = self._resolve(part.name, part.start)
        if part.end is None:
            return [self._reference(book, part.name, start)], None
        if part.end_name is not None:
            end_book, end = self._resolve(part.end_name, part.end)
        else:
            end_book, end = book, self._relative_end(part, book, start)
        if book is not None and end_book is not None:
            return self._span(book, start, end_book, end)
        if part.end_name is not None:
            raise _Impossible("a range may not run between a known and an unknown book")
        return self._expand(part.name.written or "?", start, end)

    def _span(
        self, book: Book, start: tuple[int, ...], end_book: Book, end: tuple[int, ...]
    ) -> tuple[list[StructuredReference], str | None]:
        """A range from ``start`` in ``book`` to ``end`` in ``end_book``: its references, or
        its two ends and a note when it crosses a book."""
        if end_book is book:
            return self._expand(book.name, start, end)
        first = self.scheme.reference(book.name, start)
        last = self.scheme.reference(end_book.name, end)
        shown = f"{first.canonical}-{last.canonical}"
        if end_book.number < book.number:
            raise _Impossible(f"the range {shown} runs backwards")
        top = self.scheme.levels[0]
        return [first, last], f"the range {shown} crosses a {top}; only its two ends are checked"

    def _check(self, numbers: list[str]) -> None:
        """Numbers that cannot cite anything: too many digits, or a zero."""
        for number in numbers:
            if len(number) > MAX_DIGITS:
                shown = number if len(number) <= 20 else number[:20] + "…"
                raise _Impossible(f"the number {shown} ({len(number)} digits) cannot cite anything")
            if int(number) == 0:
                raise _Impossible(NO_ZERO)

    def _resolve(self, name: _Name, written: list[str]) -> tuple[Book | None, tuple[int, ...]]:
        """The book and the numbers below it of a reference written ``name written``: a work
        name or a repeated book number gives the book by its first number; a book of one part
        is cited one level lower; an ambiguous name is resolved by its number or doubted."""
        scheme, top = self.scheme, self.scheme.levels[0]
        numbers = tuple(int(n) for n in written)
        full = len(numbers) == scheme.depth + 1
        if name.candidates:
            if not full:
                books = " or ".join(b.name for b in name.candidates)
                raise _Impossible(
                    f"{name.written!r} may be {books}: write the {top}'s name, or its number "
                    f"first ({name.written} {name.candidates[0].number}.…)",
                    doubt=True,
                )
            chosen = [b for b in name.candidates if b.number == numbers[0]]
            if not chosen:
                numbered = _numbered(name.candidates, top)
                raise _Impossible(f"{name.written!r}: {numbered}, not {numbers[0]}")
            return chosen[0], numbers[1:]
        if _is_work(name):
            book = scheme.book_by_number(numbers[0])
            if book is None:
                count = len(scheme.books)
                raise _Impossible(f"the {scheme.title} has {count} {scheme.plural(top)}")
            return book, numbers[1:]
        if full:
            if name.book is None:
                shown = ".".join(written)
                raise _Impossible(f"{name.written} is not a {top}, so {shown} cannot be read")
            if numbers[0] != name.book.number:
                raise _Impossible(f"{name.book.name} is {top} {name.book.number}, not {numbers[0]}")
            return name.book, numbers[1:]
        if name.book is not None and name.book.single_part and len(numbers) < scheme.depth:
            return name.book, (1, *numbers)
        return name.book, numbers

    def _relative_end(
        self, part: _Part, book: Book | None, start: tuple[int, ...]
    ) -> tuple[int, ...]:
        """The end of a range written without its book: its last numbers (``2.3-5``), all of
        them with the book's or work's number first (``Bala 1.1.1-1.1.5``), or more levels
        than its start (``John 3-4:5``)."""
        assert part.end is not None
        end = tuple(int(n) for n in part.end)
        written_start = len(part.start)
        if written_start == self.scheme.depth + 1 and len(end) == written_start:
            if book is None or end[0] != book.number:
                raise _Impossible("a range may not run across two books")
            end = end[1:]
        return start[: max(len(start) - len(end), 0)] + end

    def _reference(
        self, book: Book | None, name: _Name, numbers: tuple[int, ...]
    ) -> StructuredReference:
        return self.scheme.reference(
            book.name if book is not None else name.written or "?", numbers
        )

    def _impossible(
        self,
        text: str,
        span: Span,
        name: _Name,
        numbers: tuple[int, ...],
        reason: str,
        *,
        doubt: bool = False,
    ) -> Mention:
        """A mention that cannot cite anything, or cannot be read for sure: one reference, as
        written, with the reason."""
        raw = text[span.start : span.end]
        known = name.book is not None and not doubt
        book = name.book.name if name.book is not None else (name.written or "?")
        shown = " ".join(raw.split())
        ref = StructuredReference(self.scheme.name, book, numbers, known, shown)
        if doubt:
            return Mention(span, raw, (ref,), doubt=reason, ranges=((ref, ref),))
        return Mention(span, raw, (ref,), reason, ranges=((ref, ref),))

    def _expand(
        self, book: str, start: tuple[int, ...], end: tuple[int, ...]
    ) -> tuple[list[StructuredReference], str | None]:
        """The references of the range ``start``-``end`` in one book: every one when they
        differ only in the last number, else the two ends with a note."""
        scheme = self.scheme
        first = scheme.reference(book, start)
        last = scheme.reference(book, end)
        same = next((i for i, (a, b) in enumerate(zip(start, end, strict=False)) if a != b), None)
        written = end[same if same is not None else min(len(start), len(end)) - 1 :] or end
        shown = f"{first.canonical}-{scheme.separators[0].join(str(n) for n in written)}"
        if start == end:
            return [first], None
        common = min(len(start), len(end))
        if end[:common] < start[:common]:
            raise _Impossible(f"the range {shown} runs backwards")
        if len(end) != len(start) or end[:-1] != start[:-1]:
            differ = next((i for i in range(common) if start[i] != end[i]), common - 1)
            level = scheme.levels[differ + 1]
            note = f"the range {shown} crosses a {level}; only its two ends are checked"
            return [first, last], note
        count = end[-1] - start[-1] + 1
        if count > self.max_range:
            note = (
                f"the range {shown} spans {count} references, more "
                f"than max_range={self.max_range}; only its two ends are checked"
            )
            return [first, last], note
        prefix = start[:-1]
        return [scheme.reference(book, (*prefix, n)) for n in range(start[-1], end[-1] + 1)], None


def _prose(word: str) -> bool:
    """A word of prose before the top level's word, not a name: a function word, or one
    written in lower case (names of books are capitalised: ``Xyz Kanda`` names one)."""
    return fold(word) in PROSE_WORDS or word[:1].islower()


def _bare_number(number: str) -> bool:
    """A number that may stand in a reference of numbers alone: one to three digits, no
    leading zero, no zero."""
    return len(number) <= _BARE_DIGITS and not number.startswith("0")


def _is_work(name: _Name) -> bool:
    return name.book is None and name.written is None and not name.candidates


def _last_numbers(part: _Part) -> list[str]:
    """The numbers a list item after ``part`` continues from: its range's end, else its own."""
    if part.end is None:
        return part.start
    if part.end_name is not None:
        return part.end
    return part.start[: len(part.start) - len(part.end)] + part.end


def _numbered(books: tuple[Book, ...], top: str) -> str:
    """``Ayodhya is kanda 2 and Aranya kanda 3``."""
    first, *rest = books
    return f"{first.name} is {top} {first.number}" + "".join(
        f" and {b.name} {top} {b.number}" for b in rest
    )


def _unread_numbers(
    raw: str, references: Sequence[StructuredReference], scheme: ReferenceScheme
) -> list[str]:
    """The numbers written in ``raw`` (those of a name, ``1 John``, aside) that are neither a
    number of ``references`` nor the number of their books: the outside parser dropped them
    (it leaves out what does not exist, and misreads some forms), and a number written is
    never dropped in silence."""
    read = {n for ref in references for n in ref.numbers}
    read.update(book.number for ref in references if (book := scheme.book(ref.book)))
    written = _LOCATION_NUMBER.findall(raw)
    return list(dict.fromkeys(n for n in written if int(n) not in read))


def _skip_space(text: str, position: int) -> int:
    while position < len(text) and text[position] in " \t\n":
        position += 1
    return position


def _space_before(text: str, position: int) -> int:
    """Where the spaces and tabs right before ``position`` start."""
    while position and text[position - 1] in " \t":
        position -= 1
    return position


def _moved(mention: Mention, span: Span, raw: str) -> Mention:
    """``mention`` at its place in the original text (it was read in a cleaned copy)."""
    return Mention(span, raw, mention.references, mention.problem, mention.doubt, mention.ranges)


def _outside_parser(scheme: ReferenceScheme) -> PythonBibleParser | None:
    """The outside parser the scheme names, where it is installed (the scheme is read by its
    own names and numbers otherwise)."""
    if scheme.parser != "pythonbible":
        return None
    try:
        return PythonBibleParser()
    except MissingDependencyError:
        return None
