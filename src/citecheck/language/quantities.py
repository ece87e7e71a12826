"""The numbers a claim states, as opposed to the digits in its names and reference markers.

A claim whose number does not stand near its evidence is at most partly supported (see
:mod:`citecheck.judging.support`), so a digit that is not a quantity must not count: "SARS-CoV-2",
"CR3022" and "p53" are names, "[12]", "(3, 4)" and the "10" of "deaths.,10" point to a
reference list, and "Smith et al. (2019)" names another work. Read as numbers, they made the
verifier say "the number 2 is not in the passage" of a claim about SARS-CoV-2. On the evidence
side, a number written as a word ("ten patients") stands there as well as its digits.

The rules lean towards keeping a number: a quantity wrongly left out hides a wrong number from
the user, while a marker wrongly kept only costs a claim its "supported" grade, with a reason
the user can check. Known limits: a bracket of small integers after a word is taken for a
marker even when it is a range ("a scale (1-10)"); two numbers in a row read as one with
its thousands set apart ("Figure 3 100 patients" states 3100). Number words are read in
English here and in Dutch, German, French and Spanish by the ``text2num`` library
(:func:`~citecheck.language.lexicon.foreign_digits`), in a text whose language
:func:`~citecheck.language.lexicon.guess_language` reads as one of them.
"""

from __future__ import annotations

import re
from bisect import bisect_right

from citecheck.language.lexicon import foreign_digits, guess_language
from citecheck.language.numbers import (
    SPACED_THOUSANDS,
    Quantity,
    numbers_with_offsets,
    quantities_at,
    spelled_numbers,
)
from citecheck.language.text import normalize

__all__ = ["quantities_in", "stated_numbers", "stated_quantities", "without_references"]

_YEAR = r"(?:1[6-9]|20)\d\d[a-z]?"
_YEARS = re.compile(rf"\b{_YEAR}\b")
_MONTHS = frozenset(
    "january february march april may june july august september october november december "
    "jan feb mar apr jun jul aug sep sept oct nov dec".split()
)
_PARENTHESIS = re.compile(r"\(([^()]*)\)")
_WORDS = re.compile(r"[^\W\d_][\w'\u2019-]*")
_NOT_AUTHORS = re.compile(r"[\d%=$\u20ac\u00a3<>+\u00d7/:]")
_AUTHOR_PARTICLES = frozenset(
    "et al and van der den de von la le du da del di see cf also in press eg e.g".split()
)
_NARRATIVE = re.compile(
    rf"(?<![\w'\u2019-])[A-Z][^\W\d_][\w'\u2019-]*(?:\s+(?:and|&)\s+[A-Z][\w'\u2019-]+)?"
    rf"\s+\({_YEAR}\)"
)
"""Authors cited in the running text: "Jones (2020)", "Smith and Jones (2019)"."""
_ET_AL = re.compile(
    r"(?<![\w'\u2019-])[A-Z][\w'\u2019-]*(?:\s+(?:and|&)\s+[A-Z][\w'\u2019-]*)?\s+et\s+al\b\.?"
    rf"(?:\d{{1,3}}(?:[,\u2013-]\d{{1,3}})*(?=[\s.,;:]|$)|,?\s*\(?{_YEAR}\)?)?"
)
"""Authors in the running text: "Smith et al.", "Smith and Jones et al., 2020", and a marker
glued to them, "Smith et al.12"."""
_MARKER = re.compile(
    r"[\[(]\s*[-\u2013\u2014]?\s*\d{1,3}(?:\s*[,;\u2013\u2014-]\s*\d{1,3})*\s*[\])]"
)
"""A bracket or parenthesis of small integers only: "[12]", "(3, 4)", "[5–7]", "[–11]";
:func:`_is_marker` judges it."""
_GROUPS = re.compile(r"\d+")
_GLUED_CANDIDATE = re.compile(
    r"(?<=[^\s\d])(?<!\d[,\u2013-])"
    r"(?:\d{1,3}(?:[,\u2013-]\d{1,3})*(?=\s|$)|[\u00b9\u00b2\u00b3\u2070-\u2079]+(?![.,]?\d))"
)
"""Digits or superscripts right after a word or a mark, which :func:`_glued_marker` judges."""
_ABBREVIATIONS = frozenset(
    "no nos nr vol p pp fig figs eq eqs ch sec art approx ca rs inr usd eur "
    "jan feb mar apr jun jul aug sep sept oct nov dec".split()
)
"""Words that a number follows after a full stop without being a marker: "Nov.10", "Rs.500"."""
_BLANK = " ;"  # a separator, so that no number next to a blank gains a sign or a digit
_NAME = re.compile(
    r"(?<![\w.,-])(?!(?:mid|pre|post|early|late)-\d|v\d|q[1-4]\b"
    rf"|(?:{'|'.join(sorted(_ABBREVIATIONS))})\.\d)"
    r"[^\W\d_][\w.-]*\d[\w-]*"
)
"""A token that starts with a letter and holds a digit: SARS-CoV-2, CR3022, p53, COVA1-18.
Not "mid-2020", "v2.0", "Q3", "Rs.500", "Nov.10" or "No.5": dates, versions and amounts."""


def without_references(text: str) -> str:
    """``text`` with its author references and reference markers blanked out: they point to
    other works and are not what the claim says."""
    text = _PARENTHESIS.sub(lambda m: _BLANK if _names_authors(m[1]) else m[0], text)
    text = _NARRATIVE.sub(lambda m: m[0] if _starts_with_month(m[0]) else _BLANK, text)
    text = _ET_AL.sub(_BLANK, text)
    text = _MARKER.sub(lambda m: _BLANK if _is_marker(m) else m[0], text)
    return _GLUED_CANDIDATE.sub(lambda m: _BLANK if _glued_marker(m) else m[0], text)


def _names_authors(inside: str) -> bool:
    """Whether a parenthesis holds author references only: "Smith et al., 2011; Jones, 2020",
    "Koch et al.,". Any other number or sign, a month or a lower-case word keeps it: "N = 2000",
    "March 2020", "up 12% from 2022, according to Reuters"."""
    if "et al" not in inside and not _YEARS.search(inside):
        return False
    rest = _YEARS.sub(" ", inside)
    if _NOT_AUTHORS.search(rest):
        return False
    words = _WORDS.findall(rest)
    return (
        any(word[0].isupper() for word in words)
        and not any(word.lower().rstrip(".") in _MONTHS for word in words)
        and all(word[0].isupper() or word.rstrip(".") in _AUTHOR_PARTICLES for word in words)
    )


def _starts_with_month(cited: str) -> bool:
    return cited.split(None, 1)[0].lower() in _MONTHS


def _is_marker(match: re.Match[str]) -> bool:
    """Whether a bracket of small integers is a reference marker: not after a number ("45
    (30-60)", "2 (1, 4)"), and no group is 0 or starts with it ("[0, 1]", "(1,000)")."""
    before = match.string[max(0, match.start() - 8) : match.start()].rstrip()
    if before[-1:].isdigit():
        return False
    return not any(group.startswith("0") for group in _GROUPS.findall(match[0]))


def _glued_marker(match: re.Match[str]) -> bool:
    """Whether ``match`` is a reference marker set on the line: "deaths.,10 This" and
    "[4]12 " (digits after a word and one or two of "." and ",", or after a bracket),
    "deaths¹⁰" and "deaths.¹⁰" (superscripts after a word and at most one mark). Not after an
    abbreviation ("Nov.10", "Rs.500") or a colon ("Total:100"). ``\\w`` would take "¹" or "½"
    for a letter, hence ``str.isalpha``."""
    before = match.string[max(0, match.start() - 12) : match.start()]
    word = before.rstrip(".,")
    marks = len(before) - len(word)
    if not word[-1:].isalpha():
        return match[0][0].isdecimal() and before.endswith((")", "]"))
    letters = len(word) - len(word.rstrip("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"))
    if word[len(word) - letters :].lower() in _ABBREVIATIONS:
        return False
    if match[0][0].isdecimal():
        return 1 <= marks <= 2
    return marks <= 1


def stated_numbers(text: str) -> list[str]:
    """The values of :func:`stated_quantities`, in order."""
    return [quantity.value for quantity in stated_quantities(text)]


def stated_quantities(text: str) -> list[Quantity]:
    """The quantities ``text`` states, in order (offsets into its normalised form, with its
    references blanked): numbers in digits or words, with their scale and unit
    (:func:`~citecheck.language.numbers.quantities_at`), but no digit of a name, of a reference
    marker or of an author reference."""
    return quantities_in(normalize(without_references(text)))


def quantities_in(own_words: str) -> list[Quantity]:
    """:func:`stated_quantities` of a text already passed through :func:`without_references`
    and normalised, for a caller that needs that text too."""
    own_words = foreign_digits(own_words, guess_language(own_words))
    plain = SPACED_THOUSANDS.sub(lambda m: m[0].replace(" ", ""), own_words)
    names = [match.span() for match in _NAME.finditer(plain)]  # in order, apart
    ends = [end for _, end in names]
    stated = []
    for start, end, number in numbers_with_offsets(plain):
        index = bisect_right(ends, start)  # the first name ending after the number starts
        if index == len(names) or names[index][0] >= end:
            stated.append((start, end, number))
    return quantities_at(plain, sorted(stated + spelled_numbers(plain)))
