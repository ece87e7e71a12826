"""Noise is noise: OCR slips, broken and joined words and any whitespace inside a quotation are
not changes of wording, while a dropped word is named and a negation or number OCR made or
unmade is still a change."""

from __future__ import annotations

import importlib.util
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import citecheck
from citecheck import Status
from citecheck.language.meaning import meaning_differences, ocr_distance

SOURCE = (
    "The harbour commission approved the western breakwater in 1951 after a long debate. "
    "Engineers reported that the foundations were not stable enough for heavier cranes, "
    "and the committee delayed the second phase by three years."
)
QUOTES = [
    "The harbour commission approved the western breakwater in 1951 after a long debate.",
    "Engineers reported that the foundations were not stable enough for heavier cranes",
    "the committee delayed the second phase by three years",
]
_CONFUSIONS = (
    ("rn", "m"), ("m", "rn"), ("cl", "d"), ("d", "cl"), ("l", "I"), ("i", "l"), ("e", "c"),
    ("c", "e"), ("n", "ri"), ("l", "1"), ("o", "0"), ("1", "l"),
)  # fmt: skip
_PROTECTED = ("not", "three", "1951")


def _ocr(text: str, rng: random.Random, slips: int) -> str:
    """``slips`` OCR confusions, broken or joined words, none inside a protected word."""
    protected = [(text.index(w), text.index(w) + len(w)) for w in _PROTECTED if w in text]
    sites = [
        (i, i + len(old), new)
        for old, new in _CONFUSIONS
        for i in range(len(text))
        if text.startswith(old, i)
    ]
    sites += [(i, i, " ") for i in range(3, len(text) - 3) if text[i - 3 : i + 3].isalpha()]
    sites += [(i, i + 1, "") for i, ch in enumerate(text) if ch == " " and 0 < i < len(text) - 1]
    rng.shuffle(sites)
    taken: list[tuple[int, int, str]] = []
    for start, end, new in sites:
        if len(taken) == slips:
            break
        near = any(start <= e and end >= s for s, e in protected)
        if not near and all(end < s or start > e for s, e, _ in taken):
            taken.append((start, end, new))
    for start, end, new in sorted(taken, reverse=True):
        text = text[:start] + new + text[end:]
    return text


@settings(max_examples=150, deadline=None)
@given(which=st.integers(0, len(QUOTES) - 1), seed=st.integers(0, 10**6), slips=st.integers(1, 4))
def test_ocr_slips_in_a_quote_are_noise(which: int, seed: int, slips: int) -> None:
    quote = _ocr(QUOTES[which], random.Random(seed), slips)
    [result] = citecheck.verify(f'"{quote}" [[doc]]', {"doc": SOURCE}).results
    assert result.status is Status.VERIFIED, (quote, result.reason)


@pytest.mark.parametrize(
    ("quote", "source"),
    [
        ("The harbour cornmission approved the wcstern breakwater", "The harbour commission "
         "approved the western breakwater"),
        ("approved the western break water in l95l", "approved the western breakwater in 1951"),
        ("the founda tions were not stab1e", "the foundations were not stable"),
        ("delayed thesecond phase by thrcc years", "delayed the second phase by three years"),
        ("the com mit teedela yed the second phase", "the committee delayed the second phase"),
        ("Datanet l only referred to the network", "Datanet 1 only referred to the network"),
        ("a population of 66 miilion", "a population of 66 million"),
        ("Die Bildriisse erithielten a1s sol chc", "Die Bildnisse enthielten als solche"),
    ],
)  # fmt: skip
def test_ocr_forms_of_words_digits_and_number_words_are_no_change(quote: str, source: str) -> None:
    assert meaning_differences(quote, source, omissions=True) == []


@pytest.mark.parametrize(
    ("quote", "source", "named"),
    [
        ("the foundations were n0 stable", "the foundations were not stable", "not"),
        ("delayed the second phase by four years", "delayed the second phase by three years",
         "four"),
        ("approved the breakwater in 1957", "approved the breakwater in 1951", "1957"),
        ("there was fast eine Siedlung", "there was fast keine Siedlung", "keine"),
        ("the new house", "the old house", "new"),
        ("on Tuesday", "on Thursday", "tuesday"),
    ],
)  # fmt: skip
def test_what_ocr_does_not_excuse(quote: str, source: str, named: str) -> None:
    found = meaning_differences(quote, source, omissions=True)
    assert any(named in difference for difference in found), found


def test_ocr_distance_counts_only_what_ocr_does_not_confuse() -> None:
    assert ocr_distance("cornmission", "commission") == 0
    assert ocr_distance("wor1d", "world") == 0
    assert ocr_distance("modren", "modern") == 1
    assert ocr_distance("iraq", "iran") == 1


@pytest.mark.parametrize("drop", range(1, 11))
def test_a_dropped_word_is_located_and_named(drop: int) -> None:
    words = QUOTES[0].split()
    quote = " ".join(words[:drop] + words[drop + 1 :])
    [result] = citecheck.verify(f'"{quote}" [[doc]]', {"doc": SOURCE}).results
    assert result.status is Status.PARTIAL, result.reason
    dropped = words[drop].strip(".").lower()
    said = f"leaves out {dropped!r}" if dropped.isalpha() else f"where the source has {dropped}"
    assert said in result.reason
    evidence, end = result.evidence[0], len(QUOTES[0]) - 1
    overlap = min(end, evidence.end) - max(0, evidence.start)
    assert overlap / (max(end, evidence.end) - min(0, evidence.start)) >= 0.8


@settings(max_examples=100, deadline=None)
@given(
    which=st.integers(0, len(QUOTES) - 1),
    spaces=st.lists(st.sampled_from([" ", "  ", "\t", "\n", "\r\n", " \n ", "\n\n", "\u00a0"])),
)
def test_whitespace_of_any_kind_inside_a_cited_quote_is_noise(
    which: int, spaces: list[str]
) -> None:
    words = QUOTES[which].split(" ")
    quote = words[0] + "".join(
        (spaces[i % len(spaces)] if spaces else " ") + word for i, word in enumerate(words[1:])
    )
    [result] = citecheck.verify(f'"{quote}" [[doc]]', {"doc": SOURCE}).results
    assert result.status is Status.VERIFIED, (quote, result.reason)
    assert result.citation.excerpt is not None


PARAGRAPH = (
    "Polonia's home venue is located at Konwiktorska Street, a ten-minute walk north from "
    "the Old Town. Polonia was relegated from the country's top flight in 2013 because of "
    "their disastrous financial situation. They are now playing in the 4th league."
)


@pytest.mark.parametrize(
    ("quote", "dropped"),
    [
        (
            "Polonia was relegated from the country's top flight in 2013 because of their "
            "disastrous situation.",
            "financial",
        ),
        (
            "Polonia relegated from the country's top flight in 2013 because of their "
            "disastrous financial situation.",
            "was",
        ),
    ],
)
def test_a_word_dropped_next_to_a_quotes_end_is_named(quote: str, dropped: str) -> None:
    """The passage found for such a quote ends (starts) at the word before the one it left
    out: the quote's last (first) word stands just outside it. The word is still inside the
    quotation, and leaving it out is a change."""
    [result] = citecheck.verify(f'"{quote}" [[doc]]', {"doc": PARAGRAPH}).results
    assert result.status is Status.PARTIAL, result.reason
    assert f"leaves out {dropped!r}" in result.reason
    if importlib.util.find_spec("bm25s") is not None:
        [row] = citecheck.verify_quotes([quote], {"doc": PARAGRAPH}).rows
        assert row.status is Status.PARTIAL, row.reason
        assert f"leaves out {dropped!r}" in row.reason


@pytest.mark.parametrize(
    ("quote", "source"),
    [
        (
            "Acht Jahre spater gab es 2.818 Mariaviten (0,4%).",
            "Damals. Acht Jahre später gab es 2.818 Mariaviten (0,4%). Danach kam der Krieg.",
        ),
        (
            "It cost $5 rnillion.",
            "The report said it cost $5 million. Nobody objected.",
        ),
    ],
)
def test_a_sign_at_a_quotes_edge_is_part_of_its_passage(quote: str, source: str) -> None:
    """A passage ends and starts on words, but a percent or currency sign beside its edge word
    is part of it: without it, the slipped quote would read as one that adds the sign."""
    [result] = citecheck.verify(f'"{quote}" [[doc]]', {"doc": source}).results
    assert result.status is Status.VERIFIED, result.reason
    evidence = result.evidence[0]
    assert evidence.text.strip(").").endswith(("%", "million"))
    assert "%" in evidence.text or "$" in evidence.text
