"""What a scheme's patterns read in a text and what they miss, with the pattern to add for each
kind of miss: the report of ``citecheck refs coverage``.

The look-alikes (text that looks like a reference but that no pattern read) are grouped by
their shape — numbers as ``N``, a level's words as one (``Sarga 4`` and ``canto 5`` are one
group), brackets, separators and other words as written — and each group gets a regular
expression that matches every look-alike of it whole, the scheme setting that would read them
(``separators=('.', '/')``, a book's alias, ``numbered_top=True``) or ``None`` where no setting
can (a sarga without its kanda names no verse), and advice that says which.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from citecheck.documents.structure import find_line_starts
from citecheck.references.finder import (
    NOT_NAMES,
    PROSE_WORDS,
    Lookalike,
    Mention,
    ReferenceExtractor,
)
from citecheck.references.scheme import ReferenceScheme, fold

__all__ = ["Coverage", "LookalikeGroup", "group_lookalikes"]

_PIECE = re.compile(
    r"(?P<number>\d+)|(?P<word>[^\W\d_][\w'’\-]*)|(?P<space>[ \t]+)|(?P<mark>.)", re.DOTALL
)
"""The pieces of a look-alike: numbers, words, runs of spaces, and each other character."""


@dataclass(frozen=True, slots=True)
class LookalikeGroup:
    """Look-alikes of one shape (``Python N.N``, ``(N:N)``, ``Sarga N``) and what reads them.

    ``pattern`` is a regular expression (Python syntax) that matches each look-alike of the
    group whole: the pattern to add to an extraction that should find them. ``setting`` is the
    scheme setting that would make citecheck read them (``separators=('.', '/')``, an alias of
    a book, ``numbered_top=True``), ``None`` where no setting can (a sarga without its kanda
    names no verse: the answer must write it). ``advice`` says which, in a sentence.
    """

    shape: str
    pattern: str
    setting: str | None
    advice: str
    lookalikes: tuple[Lookalike, ...]

    def to_dict(self) -> dict[str, Any]:
        """The group as JSON data: its shape, pattern, setting, advice and look-alikes."""
        return {
            "shape": self.shape,
            "pattern": self.pattern,
            "setting": self.setting,
            "advice": self.advice,
            "lookalikes": [_lookalike(item) for item in self.lookalikes],
        }


@dataclass(frozen=True, slots=True)
class Coverage:
    """What the patterns of ``scheme`` read in a text (``mentions``, each at its line in
    ``lines``) and the look-alikes they missed, in ``groups`` with the pattern for each."""

    scheme: ReferenceScheme
    mentions: tuple[Mention, ...]
    lines: tuple[int, ...]
    lookalikes: tuple[Lookalike, ...]
    groups: tuple[LookalikeGroup, ...]

    @classmethod
    def of(cls, extractor: ReferenceExtractor, text: str) -> Coverage:
        """The coverage of ``text`` by ``extractor``'s patterns."""
        mentions, _ = extractor.extract(text)
        line_starts = find_line_starts(text)  # counting newlines per mention was quadratic
        lines = tuple(bisect_right(line_starts, m.span.start) for m in mentions)
        missed = tuple(extractor.lookalikes(text, mentions))
        groups = group_lookalikes(extractor.scheme, missed)
        return cls(extractor.scheme, tuple(mentions), lines, missed, groups)

    @property
    def references(self) -> int:
        """How many references the mentions that were read for sure expand to."""
        return sum(len(m.references) for m in self.mentions if m.doubt is None)

    @property
    def unknown_names(self) -> list[str]:
        """The names read as books that the scheme does not know, sorted."""
        return sorted(
            {r.book for m in self.mentions if m.doubt is None for r in m.references if not r.known}
        )

    def to_dict(self) -> dict[str, Any]:
        """The report as JSON data."""
        read = list(zip(self.lines, self.mentions, strict=True))
        return {
            "scheme": self.scheme.name,
            "references": self.references,
            "mentions": [
                {
                    "line": line,
                    "raw": m.raw,
                    "start": m.span.start,
                    "end": m.span.end,
                    "references": [r.canonical for r in m.references],
                    "problem": m.problem,
                }
                for line, m in read
                if m.doubt is None
            ],
            "unread": [
                {
                    "line": line,
                    "raw": m.raw,
                    "start": m.span.start,
                    "end": m.span.end,
                    "doubt": m.doubt,
                }
                for line, m in read
                if m.doubt is not None
            ],
            "unknown_names": self.unknown_names,
            "lookalikes": [_lookalike(item) for item in self.lookalikes],
            "lookalike_groups": [group.to_dict() for group in self.groups],
        }

    def to_text(self) -> str:
        """The report as ``refs coverage`` prints it."""
        out = [f"{self.references} references parsed in {len(self.mentions)} mentions"]
        read = list(zip(self.lines, self.mentions, strict=True))
        for line, m in read:
            if m.doubt is None:
                refs = ", ".join(r.canonical for r in m.references)
                out.append(f"  line {line}: {' '.join(m.raw.split())} -> {refs}")
        doubts = [(line, m) for line, m in read if m.doubt is not None]
        if doubts:
            out.append(f"{len(doubts)} could not be read:")
            out.extend(f"  line {line}: {m.raw}: {m.doubt}" for line, m in doubts)
        if self.unknown_names:
            top = self.scheme.levels[0]
            out.append(f"names that are not {top}s: {', '.join(self.unknown_names)}")
        out.append(f"{len(self.lookalikes)} look like references but were not parsed:")
        out.extend(f"  line {item.line}: {item.text}" for item in self.lookalikes)
        if self.groups:
            kinds = "kind" if len(self.groups) == 1 else "kinds"
            out.append(f"{len(self.groups)} {kinds} of look-alike, and the pattern for each:")
            for group in self.groups:
                out.append(f"  {group.shape} ({len(group.lookalikes)})")
                out.append(f"    regex:   {group.pattern}")
                if group.setting is not None:
                    out.append(f"    setting: {group.setting}")
                out.append(f"    advice:  {group.advice}")
        return "\n".join(out)


def group_lookalikes(
    scheme: ReferenceScheme, lookalikes: Sequence[Lookalike]
) -> tuple[LookalikeGroup, ...]:
    """``lookalikes`` grouped by shape, in the order each shape first appears, each group with
    its pattern, setting and advice (see the module)."""
    levels = {
        fold(word): level
        for level in scheme.levels
        for word in (level, *scheme.level_words.get(level, ()))
    }
    grouped: dict[tuple[tuple[str, str], ...], list[Lookalike]] = {}
    for item in lookalikes:
        grouped.setdefault(_key(item.text, levels), []).append(item)
    return tuple(_group(scheme, key, tuple(items)) for key, items in grouped.items())


def _key(text: str, levels: dict[str, str]) -> tuple[tuple[str, str], ...]:
    """The shape of ``text``: each piece as (kind, value), numbers without their value, a
    level's word as its level, another word in lower case."""
    key = []
    for piece in _PIECE.finditer(text):
        kind = piece.lastgroup or "mark"
        value = piece.group()
        if kind == "number":
            value = "N"
        elif kind == "space":
            value = " "
        elif kind == "word":
            folded = fold(value)
            kind, value = ("level", levels[folded]) if folded in levels else ("word", value.lower())
        key.append((kind, value))
    return tuple(key)


def _group(
    scheme: ReferenceScheme, key: tuple[tuple[str, str], ...], items: tuple[Lookalike, ...]
) -> LookalikeGroup:
    pieces = [[piece.group() for piece in _PIECE.finditer(item.text)] for item in items]
    shape = "".join(
        "N" if kind == "number" else text for (kind, _), text in zip(key, pieces[0], strict=True)
    )
    forms = [dict.fromkeys(written[i] for written in pieces) for i in range(len(key))]
    pattern = _pattern(scheme, key, forms)
    setting, advice = _advice(scheme, key, items)
    return LookalikeGroup(shape, pattern, setting, advice, items)


def _pattern(
    scheme: ReferenceScheme, key: tuple[tuple[str, str], ...], forms: list[dict[str, None]]
) -> str:
    """A regular expression that matches every look-alike of the shape ``key`` whole (``forms``
    are the ways each piece is written in them): a level's word as any word of that level, any
    number as ``\\d+``, case ignored."""
    parts = []
    for (kind, value), written in zip(key, forms, strict=True):
        if kind == "number":
            parts.append(r"\d+")
        elif kind == "space":
            parts.append(r"[ \t]+")
        elif kind in ("level", "word"):
            words = {*written}
            if kind == "level":
                words |= {value, *scheme.level_words.get(value, ())}
            kept: list[str] = []  # one spelling of the words that differ only in case
            for word in sorted(words, key=lambda w: (-len(w), w != w.lower(), w)):
                if not any(re.fullmatch(re.escape(k), word, re.IGNORECASE) for k in kept):
                    kept.append(word)
            escaped = [re.escape(w) for w in kept]
            parts.append(escaped[0] if len(escaped) == 1 else "(?:" + "|".join(escaped) + ")")
        else:
            parts.append(re.escape(value))
    start = r"\b" if key and key[0][0] in ("level", "word") else ""
    return "(?i)" + start + "".join(parts)


def _advice(
    scheme: ReferenceScheme, key: tuple[tuple[str, str], ...], items: tuple[Lookalike, ...]
) -> tuple[str | None, str]:
    """The setting that reads look-alikes of the shape ``key`` (``None`` where none can), and
    the advice."""
    top, last, depth = scheme.levels[0], scheme.levels[-1], scheme.depth
    first = next((i for i, (kind, _) in enumerate(key) if kind == "number"), len(key))
    before = [(kind, value) for kind, value in key[:first] if kind in ("word", "level")]
    joiners = {
        value
        for i, (kind, value) in enumerate(key)
        if kind == "mark" and 0 < i < len(key) - 1 and key[i - 1][0] == key[i + 1][0] == "number"
    }
    new = sorted(joiners - set(scheme.accepted_separators))
    numbers = sum(1 for kind, _ in key if kind == "number")
    example = items[0].text.strip("[]() \t")
    written = re.findall(r"\d+", example)
    book, cap = scheme.books[0], top.capitalize()
    full = ".".join(str(n) for n in range(2, depth + 3))
    labelled = ", ".join(
        f"{level.capitalize()} {n}"
        for level, n in zip(scheme.levels, range(2, depth + 3), strict=True)
    )
    separators = f"separators={(*scheme.separators, *new)!r}"
    joined = " and ".join(repr(j) for j in new)
    if before and before[-1] == ("level", top):
        return None, (
            f"a {top}'s number alone, or with fewer numbers than a full reference, names no "
            f"{last}: write them all ({labelled}, or {cap} {full})"
        )
    if before and before[-1][0] == "level":
        level = before[-1][1]
        named = f"{book.name}, {example}"
        if scheme.level_words.get(top):  # readers write the top level's word: Bala Kanda, …
            named = f"{book.name} {cap}, {example}"
        by_number = f", or {cap} {book.number}, {example}" if scheme.numbered_top else ""
        odd = f" ({joined} is no separator of it either: {separators})" if new else ""
        return None, (
            f"a {level} cited without its {top} cannot be checked, and no setting of the scheme "
            f"reads them{odd}: the answer must name the {top} ({named}{by_number})"
        )
    if before:
        word = before[-1][1]
        name = next((w for w in re.findall(r"[^\W\d_][\w'’\-]*", example) if fold(w) == word), word)
        prose = (
            f"{name!r} is a word of prose before numbers, so it is never taken for a {top}; "
            if word in NOT_NAMES or word in PROSE_WORDS
            else ""
        )
        alias = f'Book("<{top}>", <number>, aliases=(…, {name!r}))'
        also = f", and {joined} to its separators ({separators})" if new else ""
        return alias + (f"; {separators}" if new else ""), (
            f"{prose}if {name!r} names a {top} of the {scheme.title}, add it to that {top}'s "
            f"aliases{also} to read these references"
        )
    if numbers > depth + 1:
        return None, (
            f"more numbers than a {scheme.title} reference has ({depth + 1} at most): not a "
            "reference of this scheme"
        )
    if numbers <= depth:
        by_number = ""
        if scheme.numbered_top and numbers == depth:
            by_number = f", or give its number first: ({book.number}.{'.'.join(written)})"
        return None, (
            f"numbers without a {top} cannot be checked, and no setting of the scheme reads "
            f"them: the answer must name the {top} ({book.name} {example}{by_number})"
        )
    if not scheme.numbered_top:
        return "numbered_top=True", (
            f"numbers alone are read as {'.'.join(scheme.levels)} only where the scheme numbers "
            f"its {scheme.plural(top)}: set numbered_top=True on it to read them"
        )
    bare = set(scheme.separators)
    if joiners - bare:
        odd = " and ".join(repr(j) for j in sorted(joiners - bare))
        setting = f"separators={(*scheme.separators, *sorted(joiners - bare))!r}"
        return setting, (
            f"numbers alone are read only when joined by the scheme's separators "
            f"({', '.join(repr(s) for s in scheme.separators)}): add {odd} to them to read "
            "these, if they cite (a time such as 1:30:45 would be read too)"
        )
    numbers_of = [n for item in items for n in re.findall(r"\d+", item.text)]
    if any(len(n) > 3 or n.startswith("0") for n in numbers_of):
        why = (
            f"a zero, a leading zero or a number of four digits makes them a date or a version "
            f"(no {last} is numbered so), so they are not read"
        )
    else:
        why = (
            "numbers alone are read only in a bracket of their own, not after a word such as "
            "'version' or 'section', nor with other text beside them"
        )
    shown = scheme.canonical(book.name, tuple(range(3, depth + 3)))
    return None, f"{why}; a reference must name its {top} there ({shown})"


def _lookalike(item: Lookalike) -> dict[str, Any]:
    return {
        "line": item.line,
        "text": item.text,
        "start": item.span.start,
        "end": item.span.end,
    }
