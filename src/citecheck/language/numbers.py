"""Numbers in text: in digits or in English words, with the scale word or unit that follows.

Every check that refuses a verdict because a number changed reads numbers here, so that a
quote, a claim and a record agree on what a number is. "six months" and "6 months" state the
same quantity; "5 million" and "5 billion" do not, and neither do "6 months" and "6 weeks": a
scale word is part of the value and a unit part of the quantity. A unit glued to its number
("12km", "5mg", "40%") is read apart from it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = [
    "NUMBER_WORDS",
    "PERIODS",
    "SCALE_WORDS",
    "SPACED_THOUSANDS",
    "Quantity",
    "number_list",
    "numbers_present",
    "numbers_with_offsets",
    "quantities_at",
    "quantities_present",
    "singular",
    "spelled_numbers",
    "unit_named",
]

_NUMBER = re.compile(r"\d{1,4}/\d{1,2}/\d{1,4}(?![\d/])|(?:(?<=[\s(\[=])-|^-)?\d+(?:[.,]\d+)*")
"""A number: a date written with slashes is one ("3/4/2020": its order is its meaning)."""
_THOUSANDS = re.compile(r",(?=\d{3}(?!\d))")
_DIGIT = re.compile(r"\d")
SPACED_THOUSANDS = re.compile(r"(?<![\d.,^_])\d{1,3}(?: \d{3})+(?![.,]\d|\d)")
"""Thousands set apart by spaces, as French and German write them: "5 000" (normalised text
has plain spaces)."""

_UNITS_WORDS = "zero one two three four five six seven eight nine".split()
_TEENS = "ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen nineteen".split()
_TENS = "twenty thirty forty fifty sixty seventy eighty ninety".split()
_ORDINALS = (
    "third fourth fifth sixth seventh eighth ninth tenth eleventh twelfth thirteenth "
    "fourteenth fifteenth sixteenth seventeenth eighteenth nineteenth twentieth".split()
)
_VALUES = {
    **{word: value for value, word in enumerate(_UNITS_WORDS + _TEENS)},
    **{word: 20 + 10 * index for index, word in enumerate(_TENS)},
    **{word: 3 + index for index, word in enumerate(_ORDINALS)},
    "dozen": 12,
    "hundred": 100,
    "thousand": 1000,
    "twice": 2,
    "thrice": 3,
}
_FRACTIONS = {
    "half": 2, "halves": 2, "third": 3, "thirds": 3, "quarter": 4, "quarters": 4, "fifth": 5,
    "fifths": 5,
}  # fmt: skip
_SPELLED_NUMBER = re.compile(
    r"\b(?:(?P<numerator>a|one|two|three|four) (?P<denominator>halves|half|thirds?|quarters?"
    r"|fifths?)|(?P<alone>half|quarter))\b"
    rf"|\b(?:(?P<tens>{'|'.join(_TENS)})(?:[- ](?P<unit>{'|'.join(_UNITS_WORDS[1:])}))?"
    rf"|(?P<small>{'|'.join(_UNITS_WORDS + _TEENS)}))"
    r"(?:[- ](?P<times>hundred|thousand|million|billion))?\b"
    rf"|\b(?P<ordinal>{'|'.join(_ORDINALS)})\b(?! of\b)"
    r"|\b(?P<bare>dozen|hundred|thousand|twice|thrice)\b"
    r"|(?<![\d.,])(?<![\d.,] )\b(?P<scale>million|billion|trillion)\b"
    r"|\b(?:a |one )?(?P<period>decade|century|fortnight)\b"
)
"""Numbers in English words: "ten", "twenty-one", "two hundred", "a dozen", "the third" (not
"a third of", a fraction), "twice"; "a decade" is ten years. "One", "first" and "second" are
left out: "one of them", "a second trial" say no number."""
NUMBER_WORDS = frozenset(_VALUES) - {"one"} | frozenset(_FRACTIONS)
"""Words that :func:`spelled_numbers` may read as a number (alone or in a compound)."""

PERIODS = {"decade": (10, "year"), "century": (100, "year"), "fortnight": (14, "day")}
"""Words that are a number of a unit: "over the decade" says ten years."""
_SCALES = {"thousand": 3, "million": 6, "mln": 6, "billion": 9, "bn": 9, "trillion": 12}
SCALE_WORDS = frozenset(_SCALES)
"""Words that scale the number before them: part of its value, not a word of their own."""
_UNIT_NAMES = {
    "%": "percent", "percent": "percent", "pct": "percent", "percentage": "percent",
    "ms": "millisecond", "millisecond": "millisecond",
    "s": "second", "sec": "second", "second": "second",
    "min": "minute", "minute": "minute", "h": "hour", "hr": "hour", "hour": "hour",
    "day": "day", "week": "week", "wk": "week", "month": "month", "mo": "month",
    "year": "year", "yr": "year",
    "nm": "nanometre", "µm": "micrometre", "um": "micrometre", "mm": "millimetre",
    "cm": "centimetre", "m": "metre", "metre": "metre", "meter": "metre", "km": "kilometre",
    "kilometre": "kilometre", "kilometer": "kilometre", "mi": "mile", "mile": "mile",
    "ft": "foot", "foot": "foot", "feet": "foot",
    "ng": "nanogram", "µg": "microgram", "ug": "microgram", "mcg": "microgram",
    "mg": "milligram", "milligram": "milligram", "g": "gram", "gram": "gram",
    "kg": "kilogram", "kilogram": "kilogram", "lb": "pound", "lbs": "pound", "oz": "ounce",
    "ton": "tonne", "tonne": "tonne",
    "ml": "millilitre", "millilitre": "millilitre", "milliliter": "millilitre",
    "l": "litre", "litre": "litre", "liter": "litre",
    "°c": "celsius", "°f": "fahrenheit", "celsius": "celsius", "fahrenheit": "fahrenheit",
    "kelvin": "kelvin", "degree": "degree",
    "hz": "hertz", "khz": "kilohertz", "mhz": "megahertz", "ghz": "gigahertz",
    "kb": "kilobyte", "mb": "megabyte", "gb": "gigabyte", "tb": "terabyte",
    "kwh": "kilowatt-hour", "mw": "megawatt", "gw": "gigawatt", "kw": "kilowatt",
    "kcal": "kilocalorie", "mph": "mile per hour",
    "dollar": "dollar", "usd": "dollar", "euro": "euro", "eur": "euro", "gbp": "pound",
    "yen": "yen", "rupee": "rupee", "inr": "rupee",
    # Dutch, German, French, Spanish (plurals not ending in "s" are listed)
    "procent": "percent", "prozent": "percent", "pourcent": "percent",
    "seconde": "second", "seconden": "second", "sekunde": "second", "sekunden": "second",
    "segundo": "second",
    "minuut": "minute", "minuten": "minute", "minuto": "minute",
    "uur": "hour", "uren": "hour", "stunde": "hour", "stunden": "hour", "heure": "hour",
    "dag": "day", "dagen": "day", "tag": "day", "tage": "day", "tagen": "day", "jour": "day",
    "dia": "day", "día": "day",
    "weken": "week", "woche": "week", "wochen": "week", "semaine": "week", "semana": "week",
    "maand": "month", "maanden": "month", "monat": "month", "monate": "month",
    "monaten": "month", "mois": "month", "mes": "month", "meses": "month",
    "jaar": "year", "jaren": "year", "jahr": "year", "jahre": "year", "jahren": "year",
    "ans": "year", "année": "year", "annee": "year", "año": "year", "ano": "year",
}  # fmt: skip
"""Units that tell one quantity from another ("6 months" is not "6 weeks"), by their
canonical name; plurals are read through :func:`singular`."""
_CURRENCIES = {"$": "dollar", "€": "euro", "£": "pound", "¥": "yen", "₹": "rupee"}
_CURRENCY_SCALES = {"k": 3, "m": 6, "b": 9}
"""Scales written after an amount of money: "$5m" is five million dollars, not five metres."""
_AFTER = re.compile(r"[ \t]?(%|°[cf]|[^\W\d_]\w*)")


@dataclass(frozen=True, slots=True)
class Quantity:
    """A number as stated: its value (scale applied: "5 million" is ``"5000000"``), the unit
    that follows or the currency that precedes it, if any, how it is written, and the words
    next to it."""

    value: str
    unit: str | None
    written: str
    before: str = ""
    """The word right before it ("february" in "February 8"), lower-case, if any."""
    after: str = ""
    """The word right after it, lower-case, if any."""


def number_list(text: str) -> list[str]:
    """Numbers in digits, in order: ``-5`` and ``(-5)`` keep their sign (a hyphen inside
    ``10-20`` does not make one), ``1,000`` is a thousand and ``1,5`` a decimal."""
    if not _DIGIT.search(text):
        return []
    return [_number(n) for n in _NUMBER.findall(text)]


def numbers_with_offsets(text: str) -> list[tuple[int, int, str]]:
    """The numbers of :func:`number_list` with the span of ``text`` each one stands in."""
    if not _DIGIT.search(text):
        return []
    return [(m.start(), m.end(), _number(m.group())) for m in _NUMBER.finditer(text)]


def _number(written: str) -> str:
    if "," not in written:
        return written
    return _THOUSANDS.sub("", written).replace(",", ".")


_LETTERS = re.compile(r"[a-z]+")
_SPELLED_WORDS = (
    frozenset(_VALUES) | frozenset(_FRACTIONS) | frozenset(_SCALES) | frozenset(PERIODS)
)
"""A word every match of :data:`_SPELLED_NUMBER` holds."""


def spelled_numbers(normalized: str) -> list[tuple[int, int, str]]:
    """Numbers in English words in ``normalized`` (lower-case) text, with their spans: "ten",
    "twenty-one", "two hundred", "the third" (3), "a dozen", "twice". A lone "one" is no
    number. "A decade" stands for "10" (years: :func:`quantities_at` reads the unit)."""
    if _SPELLED_WORDS.isdisjoint(_LETTERS.findall(normalized)):
        return []  # the common case, settled without the long pattern
    found = []
    for match in _SPELLED_NUMBER.finditer(normalized):
        value = _spelled_value(match)
        if value is not None:
            found.append((match.start(), match.end(), str(value)))
    return found


def _spelled_value(match: re.Match[str]) -> int | str | None:
    """The value of a :data:`_SPELLED_NUMBER` match; ``None`` for a lone "one"."""
    if match["period"]:
        return PERIODS[match["period"]][0]
    if match["denominator"] or match["alone"]:
        numerator = 1 if match["numerator"] in (None, "a") else _VALUES[match["numerator"]]
        return f"{numerator / _FRACTIONS[match['denominator'] or match['alone']]:.3f}"
    if match["scale"]:
        return int(10 ** _SCALES[match["scale"]])
    if match["ordinal"] or match["bare"]:
        return _VALUES[match["ordinal"] or match["bare"]]
    if match["tens"]:
        value = _VALUES[match["tens"]] + (_VALUES[match["unit"]] if match["unit"] else 0)
    elif match["small"] == "one" and not match["times"]:
        return None
    else:
        value = _VALUES[match["small"]]
    if match["times"] in _SCALES:
        return int(value * 10 ** _SCALES[match["times"]])
    return value * _VALUES[match["times"]] if match["times"] else value


def numbers_present(normalized: str) -> set[str]:
    """The values of every number that stands in ``normalized`` (normalised text): see
    :func:`quantities_present`."""
    return {quantity.value for quantity in quantities_present(normalized)}


def quantities_present(normalized: str) -> list[Quantity]:
    """Every quantity that stands in ``normalized`` (normalised text): numbers in digits, with
    their thousands set apart by spaces ("5 000"), or in English words ("ten", "twenty-one",
    "two hundred", "the third" for the "3" of "3rd"), with scale and unit as
    :func:`quantities_at` reads them. A reading too many could hide a number a claim gets
    wrong, so words that often say no number ("one of", "a second trial", "a third of") are
    not read."""
    spaced = [
        (m.start(), m.end(), m[0].replace(" ", "")) for m in SPACED_THOUSANDS.finditer(normalized)
    ]
    numbers = numbers_with_offsets(normalized) + spaced + spelled_numbers(normalized)
    return quantities_at(normalized, sorted(numbers))


def quantities_at(normalized: str, numbers: list[tuple[int, int, str]]) -> list[Quantity]:
    """The quantities that ``numbers`` (spans of ``normalized`` with their values, in order)
    state: each value scaled by a scale word right after it ("5 million"), with the unit after
    it ("6 months", "12km", "40%") or the currency sign before it ("$5")."""
    quantities = []
    for start, end, value in numbers:
        period = PERIODS.get(normalized[start:end].rsplit(" ", 1)[-1])
        if period is not None:
            written = normalized[start:end]
            quantities.append(
                Quantity(value, period[1], written, *_neighbours(normalized, start, end))
            )
            continue
        unit = _CURRENCIES.get(normalized[start - 1 : start]) if start else None
        after = _AFTER.match(normalized, end)
        stop = end
        if after is not None:
            word = after[1]
            exponent = _SCALES.get(word) or (_CURRENCY_SCALES.get(word) if unit else None)
            if exponent is not None:
                value = _scaled(value, exponent)
                stop = after.end()
                after = _AFTER.match(normalized, stop)
                word = after[1] if after is not None else ""
            named = _UNIT_NAMES.get(word) or _UNIT_NAMES.get(singular(word))
            if named is not None and after is not None:
                unit, stop = named, after.end()
        quantities.append(
            Quantity(value, unit, normalized[start:stop], *_neighbours(normalized, start, stop))
        )
    return quantities


_WORD_AFTER = re.compile(r"[ \t]*([^\W\d_]+)")


def _neighbours(text: str, start: int, end: int) -> tuple[str, str]:
    """The words right before ``start`` and right after ``end`` (letters only; "" if none)."""
    low, stop = max(0, start - _REACH), start
    while stop > low and text[stop - 1] in " \t":
        stop -= 1
    begin = stop
    while begin > low and _letter(text[begin - 1]):
        begin -= 1
    after = _WORD_AFTER.match(text, end)
    return text[begin:stop].lower(), after[1].lower() if after is not None else ""


_REACH = 40
"""How far back the word before a number is looked for, spaces included."""


def _letter(character: str) -> bool:
    """What ``[^\\W\\d_]`` matches: a letter (a character of a word, not a digit or "_")."""
    return character.isalnum() and not character.isdecimal() and character != "_"


def unit_named(word: str) -> str | None:
    """The canonical unit ``word`` names ("ml" and "millilitres" are "millilitre"), if any."""
    return _UNIT_NAMES.get(word) or _UNIT_NAMES.get(singular(word))


def singular(word: str) -> str:
    """An English plural's singular, by its ending ("studies": "study", "rates": "rate"); any
    other word as it is."""
    if word.endswith("ies") and len(word) > 4:
        return word[:-3] + "y"
    return word[:-1] if word.endswith("s") and len(word) > 3 else word


def _scaled(value: str, exponent: int) -> str:
    """``value`` × 10^``exponent``, written as :func:`number_list` writes numbers."""
    whole, _, fraction = value.partition(".")
    digits = whole.lstrip("-") + fraction.ljust(exponent, "0")[:exponent]
    rest = fraction[exponent:]
    scaled = digits.lstrip("0") or "0"
    sign = "-" if whole.startswith("-") else ""
    return f"{sign}{scaled}.{rest}" if rest else f"{sign}{scaled}"
