"""The numbers a claim states, as opposed to the digits in its names and reference markers.

A claim whose number does not stand near its evidence is at most partly supported (see
:mod:`citecheck.support`), so a digit that is not a quantity must not count: "SARS-CoV-2",
"CR3022" and "p53" are names, "[12]", "(3, 4)" and the "10" of "deaths.,10" point to a
reference list, and "Smith et al. (2019)" names another work. Read as numbers, they made the
verifier say "the number 2 is not in the passage" of a claim about SARS-CoV-2. On the evidence
side, a number written as a word ("ten patients") stands there as well as its digits.
"""

from __future__ import annotations

import re

from citecheck.meaning import number_list, numbers_with_offsets
from citecheck.text import normalize

__all__ = ["numbers_present", "stated_numbers", "without_references"]

_AUTHOR_PARENTHESIS = re.compile(
    r"\((?=[^()]*(?:\bet al\b|\b(?:1[6-9]|20)\d\d[a-z]?\b))(?=[^()]*[A-Z])[^()]*\)"
)
"""A parenthesis naming authors: "(Smith et al., 2011; Jones, 2020)", "(Koch et al.,)"."""
_ET_AL = re.compile(
    r"\b[A-Z][\w'\u2019-]*(?:\s+(?:and|&)\s+[A-Z][\w'\u2019-]*)?\s+et\s+al\b\.?"
    r"(?:,?\s*\(?(?:1[6-9]|20)\d\d[a-z]?\)?)?"
)
"""Authors in the running text: "Smith et al.", "Smith and Jones et al., 2020"."""
_MARKER = re.compile(
    r"[\[(]\s*[-\u2013\u2014]?\s*\d{1,3}(?:\s*[,;\u2013\u2014-]\s*\d{1,3})*\s*[\])]"
)
"""A bracket or parenthesis of small integers only: "[12]", "(3, 4)", "[5–7]", "[–11]"."""
_GLUED_CANDIDATE = re.compile(
    r"(?<=[^\s\d])(?:\d{1,3}(?:[,\u2013-]\d{1,3})*(?=\s|$)|[\u00b9\u00b2\u00b3\u2070-\u2079]+(?![.,]?\d))"
)
"""Digits or superscripts right after a word or a mark, which :func:`_glued_marker` judges."""
_BLANK = " ;"  # a separator, so that no number next to a blank gains a sign or a digit
_NAME = re.compile(r"(?<![\w.,-])[^\W\d_][\w.-]*\d[\w-]*")
"""A token that starts with a letter and holds a digit: SARS-CoV-2, CR3022, p53, COVA1-18."""
_SPELLED = {
    **{
        word: str(value)
        for value, word in enumerate(
            "zero one two three four five six seven eight nine ten eleven twelve thirteen "
            "fourteen fifteen sixteen seventeen eighteen nineteen twenty".split()
        )
    },
    **{
        word: str(10 * value)
        for value, word in enumerate(
            "thirty forty fifty sixty seventy eighty ninety".split(), start=3
        )
    },
    **{
        word: str(value)
        for value, word in enumerate(
            "first second third fourth fifth sixth seventh eighth ninth tenth eleventh twelfth "
            "thirteenth fourteenth fifteenth sixteenth seventeenth eighteenth nineteenth "
            "twentieth".split(),
            start=1,
        )
    },
    "dozen": "12",
    "hundred": "100",
    "thousand": "1000",
}
_LETTERS = re.compile(r"[^\W\d_]+")
_SPACED_THOUSANDS = re.compile(r"(?<![\d.,])\d{1,3}(?: \d{3})+(?![\d.,]\d|\d)")
"""Thousands set apart by spaces, as French and German write them: "5 000" (normalised text
has plain spaces)."""


def without_references(text: str) -> str:
    """``text`` with its author references and reference markers blanked out: they point to
    other works and are not what the claim says."""
    for pattern in (_AUTHOR_PARENTHESIS, _ET_AL, _MARKER):
        text = pattern.sub(_BLANK, text)
    return _GLUED_CANDIDATE.sub(lambda m: _BLANK if _glued_marker(m) else m.group(), text)


def _glued_marker(match: re.Match[str]) -> bool:
    """Whether ``match`` is a reference marker set on the line: "deaths.,10 This" and
    "[4]12 " (digits after a word and one or two marks, or after a bracket), "deaths¹⁰" and
    "deaths.¹⁰" (superscripts after a word and at most one mark). ``\\w`` would take "¹" or
    "½" for a letter, hence ``str.isalpha``."""
    before = match.string[max(0, match.start() - 3) : match.start()]  # a letter and two marks
    word = before.rstrip(".,;:")
    marks = len(before) - len(word)
    if match.group()[0].isdecimal():
        return before.endswith((")", "]")) or (1 <= marks <= 2 and word[-1:].isalpha())
    return marks <= 1 and word[-1:].isalpha()


def stated_numbers(text: str) -> list[str]:
    """The quantities of ``text`` in order, as :func:`~citecheck.meaning.number_list` writes
    them: no digit of a name, of a reference marker or of an author reference."""
    plain = normalize(without_references(text))
    names = [match.span() for match in _NAME.finditer(plain)]
    return [
        number
        for start, end, number in numbers_with_offsets(plain)
        if not any(s < end and start < e for s, e in names)
    ]


def numbers_present(normalized: str) -> set[str]:
    """Every number that stands in ``normalized`` (normalised text): in digits, with its
    thousands set apart by spaces ("5 000"), or as a word from zero to twenty, a ten, a
    dozen, a hundred, a thousand or an ordinal to the twentieth ("third" for the "3" of
    "3rd"). Only a claim's numbers are checked against this set, so a reading too many costs
    nothing."""
    found = set(number_list(normalized))
    found.update(_SPELLED[word] for word in _LETTERS.findall(normalized) if word in _SPELLED)
    found.update(m.group().replace(" ", "") for m in _SPACED_THOUSANDS.finditer(normalized))
    return found
