"""Text normalisation that remembers where every character came from, and sentence splitting.

Matching runs on normalised text — Unicode NFKC, case-folded, typographic quotes and dashes
made plain, whitespace runs collapsed, soft hyphens and end-of-line hyphenation removed — but
every offset citecheck reports is into the *original* text. :class:`NormalizedText` keeps a
piecewise map between the two. Plain ASCII stretches are copied in one piece, so the map stays
small (one segment per change of length) and normalising megabytes is a few regex passes.
"""

from __future__ import annotations

import re
import sys
import unicodedata
from array import array
from bisect import bisect_left, bisect_right
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import pairwise
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import numpy as np

__all__ = [
    "CJK",
    "CONTENT_WORD",
    "HYPHENATED",
    "KEY_WORD",
    "LETTERS",
    "NAME",
    "SIGN",
    "SIGNS",
    "SURROGATE",
    "WORD",
    "NormalizedText",
    "WordPairs",
    "json_escaped",
    "normalize",
    "pair_hashes",
    "sentence_spans",
    "uncased",
    "without_surrogates",
]

CJK = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
"""Chinese and Japanese characters (kana and Han): written without spaces, each is a word."""
WORD = re.compile(rf"[^\W{CJK}]+|[{CJK}]")
"""A word of normalised text, as the word indexes read it (one pattern, so that they agree)."""
LETTERS = re.compile(r"[^\W\d_]+")
"""A word of letters only: what tells a text's language, or a word a twin may change."""
CONTENT_WORD = re.compile(r"[^\W\d_]{4,}")
"""A word of four letters or more: the words of a claim that say what it is about, counted
where they stand near a passage (the support signals, the lexical look)."""
KEY_WORD = re.compile(r"\w{3,}")
"""A word of three characters or more, digits too: what a lexical pre-selection keys on."""
HYPHENATED = re.compile(r"[^\W_][\w-]*")
"""A word with its hyphens, as a name is written: "GPT-4", "SARS-CoV-2"."""
NAME = re.compile(r"[^\W_][\w-]*?(?:[A-Z]|\d)[\w-]*")
"""A name as a document writes it: a word with a capital or a digit after its first letter
(``PubLayNet``, ``GPT-4``, ``H5N1``)."""
SIGNS = "<>≤≥±‰%$€£¥"
"""Signs that carry meaning words do not: a comparison, a percent, a currency."""
SIGN = re.compile(f"[{re.escape(SIGNS)}]")
"""A sign of :data:`SIGNS`."""


def uncased(text: str) -> str:
    """``text`` in lower case, character for character (a letter whose lower case is longer,
    as "İ", is kept): what a claim is embedded as, so that its capitals never change a
    verdict, whatever the model's tokenizer does with case."""
    lowered = text.lower()
    if len(lowered) == len(text):
        return lowered
    return "".join(c if len(c.lower()) != 1 else c.lower() for c in text)


def pair_hashes(words: Iterable[str]) -> frozenset[int]:
    """Hashes of the pairs of consecutive ``words``: a text that holds a passage holds all of
    the passage's pairs, so one missing pair rules the text out."""
    return frozenset(_hashed_pairs(words))


def _hashed_pairs(words: Iterable[str]) -> Iterator[int]:
    return (hash(pair) for pair in pairwise(words))


@dataclass(frozen=True, slots=True)
class WordPairs:
    """The distinct :func:`pair_hashes` of a long text, sorted in one array of 64-bit integers.

    A frozenset of them costs about 80 bytes a word (an int object and a table slot each):
    3 GB for a 50 MB source. Sorted in an array they cost 8, and a lookup is a bisection.
    ``hashes`` is a view of that array (a numpy array's memory)."""

    hashes: memoryview

    @classmethod
    def of(cls, words: Sequence[str]) -> WordPairs:
        """The pairs of consecutive ``words``, hashed as :func:`pair_hashes` hashes them."""
        import numpy as np

        found = np.fromiter(_hashed_pairs(words), dtype=np.int64, count=max(0, len(words) - 1))
        found.sort()  # in place, then one pass drops repeats: no second copy while sorting
        keep = np.empty(len(found), dtype=bool)
        keep[:1] = True
        np.not_equal(found[1:], found[:-1], out=keep[1:])
        return cls(found[keep].data)

    def __contains__(self, pair: object) -> bool:
        if not isinstance(pair, int):
            return False
        index = bisect_left(self.hashes, pair)
        return index < len(self.hashes) and self.hashes[index] == pair

    def count(self, keys: np.ndarray[Any, Any]) -> int:
        """How many hashes of the sorted int64 array ``keys`` are here: one search for all,
        where a bisection each would cost more than the rest of a search for a quote."""
        import numpy as np

        hashes = np.frombuffer(self.hashes, dtype=np.int64)
        if not len(hashes):
            return 0
        return int(
            np.count_nonzero(hashes.take(np.searchsorted(hashes, keys), mode="clip") == keys)
        )

    def __iter__(self) -> Iterator[int]:
        return iter(self.hashes)

    def __len__(self) -> int:
        return len(self.hashes)


_TYPOGRAPHIC = str.maketrans(
    {
        **dict.fromkeys("\u2018\u2019\u201a\u201b\u2032\u02bc", "'"),
        **dict.fromkeys("\u201c\u201d\u201e\u201f\u2033\u00ab\u00bb", '"'),
        **dict.fromkeys("\u2010\u2011\u2012\u2013\u2014\u2015\u2212", "-"),
    }
)
_INVISIBLE = "\u00ad\u200b\u200c\u200d\u2060\ufeff"
_EDIT_SITES = re.compile(
    rf"(?P<hyphen>(?<=[^\W\d_])[-\u00ad][ \t]*(?:\r?\n|\f|\n\f)[ \t]*(?=[^\W\d_]))"
    rf"|(?P<space>\s{{2,}}|[^\S ])"
    rf"|(?P<drop>[{_INVISIBLE}]+)"
    rf"|(?P<unicode>[\x21-\x7e]?[^\x00-\x7f\s{_INVISIBLE}]+)"
)


_SCRIPTS = str.maketrans(
    {
        **{
            sup: f"^{n}"
            for n, sup in enumerate("\u2070\u00b9\u00b2\u00b3\u2074\u2075\u2076\u2077\u2078\u2079")
        },
        **{
            sub: f"_{n}"
            for n, sub in enumerate("\u2080\u2081\u2082\u2083\u2084\u2085\u2086\u2087\u2088\u2089")
        },
    }
)
"""Superscript and subscript digits keep a mark: NFKC alone would make 10⁶ read as 106."""


def _fold(cluster: str) -> str:
    return (
        unicodedata.normalize("NFKC", cluster.translate(_SCRIPTS))
        .translate(_TYPOGRAPHIC)
        .casefold()
    )


_JOINED_PARTS = 4096
"""Pieces of normalised text kept apart before they are joined into one string."""

_MAX_MARKS = 30
"""The most combining marks folded with one base character, as in Unicode's stream-safe
format (UAX #15): NFKC sorts a run of marks in time quadratic in its length, and no script
stacks more than a few, so a longer run is folded 30 marks at a time."""


@lru_cache(maxsize=1)
def _long_mark_run() -> re.Pattern[str]:
    """More than :data:`_MAX_MARKS` combining marks in a row (built on first use: it reads the
    combining class of every code point once)."""
    marks = [chr(c) for c in range(sys.maxunicode + 1) if unicodedata.combining(chr(c))]
    return re.compile(f"[{''.join(re.escape(m) for m in marks)}]{{{_MAX_MARKS + 1}}}")


def _clusters(run: str) -> list[str]:
    """Split a run into base characters with their combining marks (so NFKC can compose), at
    most :data:`_MAX_MARKS` marks each."""
    out: list[str] = []
    start = marks = 0
    for index, char in enumerate(run):
        if index and marks < _MAX_MARKS and unicodedata.combining(char):
            marks += 1
            continue
        if index:
            out.append(run[start:index])
        start, marks = index, 0
    if run:
        out.append(run[start:])
    return out


@dataclass(frozen=True, slots=True)
class NormalizedText:
    """Normalised text plus the map back to the original.

    The map is a sorted list of segments ``(norm_start, norm_end, orig_start, orig_end)``; a
    segment is *linear* when its characters correspond one to one, and otherwise maps as a
    block (``…`` → ``...``, a whitespace run → one space, a letter with its accents). Its
    columns are arrays of 64-bit integers: a long source has a segment every few lines.
    """

    text: str
    original_length: int
    _norm_starts: array[int]
    _norm_ends: array[int]
    _orig_starts: array[int]
    _orig_ends: array[int]
    _linears: array[int]

    @classmethod
    def of(cls, original: str) -> NormalizedText:
        """Normalise ``original`` and build the offset map."""
        chunks: list[str] = []  # joined from ``parts`` now and then: a str per word is heavy
        parts: list[str] = []
        norm_starts, norm_ends, orig_starts, orig_ends, linears = (array("q") for _ in range(5))
        length = 0

        def emit(out: str, orig_start: int, orig_end: int, one_to_one: bool = True) -> None:
            nonlocal length
            if not out:
                return
            linear = one_to_one and len(out) == orig_end - orig_start
            parts.append(out)
            if len(parts) == _JOINED_PARTS:
                chunks.append("".join(parts))
                parts.clear()
            if linear and linears and linears[-1] and orig_ends[-1] == orig_start:
                norm_ends[-1] += len(out)  # one more stretch of the same linear segment
                orig_ends[-1] = orig_end
            else:
                norm_starts.append(length)
                norm_ends.append(length + len(out))
                orig_starts.append(orig_start)
                orig_ends.append(orig_end)
                linears.append(int(linear))
            length += len(out)

        position = 0
        for site in _EDIT_SITES.finditer(original):
            start, end = site.span()
            if start > position:
                emit(original[position:start].lower(), position, start)
            kind = site.lastgroup
            if kind == "space":
                emit(" ", start, end)
            elif kind == "unicode":
                run = site.group()
                stacked = len(run) > _MAX_MARKS and _long_mark_run().search(run) is not None
                folded = "" if stacked else _fold(run)
                if len(folded) == len(run) and unicodedata.is_normalized("NFKC", run):
                    emit(folded, start, end)  # letters that fold one to one, like "ü"
                    position = end
                    continue
                offset = start
                for cluster in _clusters(run):
                    # A letter with combining marks maps as a block even when NFKC keeps
                    # its length ("ﬁ" + accent -> "fí"): no output letter is one input letter.
                    emit(_fold(cluster), offset, offset + len(cluster), len(cluster) == 1)
                    offset += len(cluster)
            position = end  # "hyphen" and "drop" sites emit nothing
        if position < len(original):
            emit(original[position:].lower(), position, len(original))
        text = "".join(chunks + parts)
        return cls(text, len(original), norm_starts, norm_ends, orig_starts, orig_ends, linears)

    def __len__(self) -> int:
        return len(self.text)

    def _linear(self, index: int) -> bool:
        return bool(self._linears[index])

    def to_original(self, start: int, end: int) -> tuple[int, int]:
        """Map a normalised range ``[start, end)`` to the original range it came from."""
        if not 0 <= start <= end <= len(self.text):
            raise ValueError(f"range {start}-{end} outside normalised text of {len(self.text)}")
        if start == end:
            point = self._start_to_original(start)
            return point, point
        return self._start_to_original(start), self._end_to_original(end)

    def _start_to_original(self, position: int) -> int:
        if position >= len(self.text):
            return self.original_length
        i = bisect_right(self._norm_starts, position) - 1
        if self._linear(i):
            return self._orig_starts[i] + (position - self._norm_starts[i])
        return self._orig_starts[i]

    def _end_to_original(self, position: int) -> int:
        i = bisect_left(self._norm_ends, position)
        if self._linear(i):
            return self._orig_starts[i] + (position - self._norm_starts[i])
        return self._orig_ends[i]

    def to_normalized(self, start: int, end: int) -> tuple[int, int]:
        """Map an original range to the smallest normalised range that covers it."""
        if not 0 <= start <= end <= self.original_length:
            raise ValueError(f"range {start}-{end} outside original text of {self.original_length}")
        n_start = self._orig_start_to_norm(start)
        return n_start, max(n_start, self._orig_end_to_norm(end))

    def _orig_start_to_norm(self, position: int) -> int:
        i = bisect_right(self._orig_ends, position)  # first segment ending after position
        if i >= len(self._orig_ends):
            return len(self.text)
        if self._linear(i) and self._orig_starts[i] <= position:
            return self._norm_starts[i] + (position - self._orig_starts[i])
        return self._norm_starts[i]

    def _orig_end_to_norm(self, position: int) -> int:
        i = bisect_left(self._orig_starts, position) - 1  # last segment starting before position
        if i < 0:
            return 0
        if self._linear(i):
            return self._norm_starts[i] + min(position, self._orig_ends[i]) - self._orig_starts[i]
        return self._norm_ends[i]


_ASCII_HYPHEN = re.compile(r"(?<=[^\W\d_])-[ \t]*(?:\r?\n|\f|\n\f)[ \t]*(?=[^\W\d_])")
_ASCII_SPACE = re.compile(r"\s{2,}|[^\S ]")


def normalize(text: str) -> str:
    """The normalised form of ``text``, without the offset map (for needles and keys).

    Plain ASCII text, the common case, takes a fast path with the same result; other short
    texts (quotes, passages) are remembered, since the same ones are compared again and again."""
    if text.isascii():
        if text.isprintable() and "  " not in text:  # single spaces only: nothing to fold
            return text.lower()
        return _ASCII_SPACE.sub(" ", _ASCII_HYPHEN.sub("", text)).lower()
    if len(text) <= _REMEMBERED_LENGTH:
        return _normalize_unicode(text)
    return NormalizedText.of(text).text


_REMEMBERED_LENGTH = 2000


@lru_cache(maxsize=8192)
def _normalize_unicode(text: str) -> str:
    return NormalizedText.of(text).text


_ABBREVIATIONS = frozenset(
    "al approx art cf ch chap col dr e.g eq eqs etc fig figs i.e inc jr ltd mr mrs ms no nos "
    "p pp para prof sec sect sr st vol vols vs".split()
)
_BOUNDARY = re.compile(
    r"(?<![.!?\u2026])[.!?\u2026]++[\"'\u201d\u2019)\]]*+(?=\s++[\"'\u201c\u2018(\[]?[\w\d])"
    r"|\n[ \t]*+\n"
)
"""Punctuation is taken whole and only from the start of its run: a run that ends no sentence
fails at once instead of being retried from each of its characters (quadratic)."""
_WORD_BEFORE = re.compile(r"([\w.]+)$")


def sentence_spans(text: str) -> list[tuple[int, int]]:
    """Split ``text`` into sentences and return their ``(start, end)`` offsets, whitespace trimmed.

    A rule-based splitter: sentence punctuation followed by space and a word, or a blank line.
    It keeps common abbreviations (``e.g.``, ``Dr.``, ``p.``), dotted ones (``U.S.``,
    ``Ph.D.``), initials (``J. Smith``) and decimals together. Offsets are into ``text`` itself.
    """
    spans: list[tuple[int, int]] = []
    start = 0
    for match in _BOUNDARY.finditer(text):
        if match.group().startswith((".",)) and _is_abbreviation(text, match.start()):
            continue
        end = match.end() if not match.group().startswith("\n") else match.start()
        _append_trimmed(spans, text, start, end)
        start = match.end()
    _append_trimmed(spans, text, start, len(text))
    return spans


def _is_abbreviation(text: str, period: int) -> bool:
    word = _WORD_BEFORE.search(text, max(0, period - 12), period)
    if word is None:
        return False
    token = word.group(1).lower().rstrip(".")
    return token in _ABBREVIATIONS or (len(token) == 1 and token.isalpha()) or _dotted(token)


def _dotted(token: str) -> bool:
    """Whether ``token`` (lower case, its last period taken off) is a dotted abbreviation of
    letters, one or two between the periods: "u.s", "u.k", "ph.d", "a.m". "The U.S. Supreme
    Court" is one sentence; cut there, a claim loses its subject and its negation ("Sotomayor
    was not appointed to the U.S. Supreme Court" read as "Supreme Court by ..."). A sentence
    that ends with such an abbreviation is kept with the next one: in doubt, together."""
    parts = token.split(".")
    return len(parts) > 1 and all(1 <= len(p) <= 2 and p.isalpha() for p in parts)


def _append_trimmed(spans: list[tuple[int, int]], text: str, start: int, end: int) -> None:
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    if end > start:
        spans.append((start, end))


SURROGATE = re.compile("[\ud800-\udfff]")
"""A lone surrogate: text decoded from JSON escapes (``"\\ud800"``) may hold one, and UTF-8
cannot encode it."""


def json_escaped(text: str) -> str:
    """JSON text with each lone surrogate written as its ``\\uXXXX`` escape, as
    ``json.dumps(..., ensure_ascii=True)`` writes it: the same JSON, now writable as UTF-8.
    Outside string literals JSON holds no such character, so nothing else changes."""
    return SURROGATE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


def without_surrogates(text: str) -> str:
    """Text for people (HTML, Markdown, CSV) with each lone surrogate shown as U+FFFD: UTF-8
    cannot encode it, and no reader could show it."""
    return SURROGATE.sub("\ufffd", text)
