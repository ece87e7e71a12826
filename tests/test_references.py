"""Reference schemes and extraction: names normalised, every written form parsed, offsets kept."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from citecheck import registry
from citecheck.errors import ConfigError, UnknownBackendError
from citecheck.references import (
    Book,
    ReferenceExtractor,
    ReferenceScheme,
    bible,
    fold,
    scheme_named,
    valmiki_ramayana,
)

RAMAYANA = valmiki_ramayana()
BIBLE = bible()
EXTRACT = ReferenceExtractor(RAMAYANA)
EXTRACT_BIBLE = ReferenceExtractor(BIBLE)


def canonicals(text: str, extractor: ReferenceExtractor = EXTRACT) -> list[list[str]]:
    mentions, _ = extractor.extract(text)
    return [[r.canonical for r in m.references] for m in mentions]


# -- schemes ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("written", "canonical"),
    [
        ("Bala", "Bala"),
        ("bk", "Bala"),
        ("1", "Bala"),
        ("bala kanda", "Bala"),
        ("Bālakāṇḍa", "Bala"),
        ("BALA-KANDA", "Bala"),
        ("Balakandam", "Bala"),
        ("Lanka", "Yuddha"),
        ("Lanka Kanda", "Yuddha"),
        ("Yuddhakanda", "Yuddha"),
        ("Kishkinda", "Kishkindha"),
        ("Aranyakanda", "Aranya"),
        ("7", "Uttara"),
    ],
)
def test_ramayana_names_normalise_to_their_canonical_kanda(written: str, canonical: str) -> None:
    book = RAMAYANA.book(written)
    assert book is not None
    assert book.name == canonical


def test_the_seven_kandas_in_order() -> None:
    assert [b.name for b in RAMAYANA.books] == [
        "Bala",
        "Ayodhya",
        "Aranya",
        "Kishkindha",
        "Sundara",
        "Yuddha",
        "Uttara",
    ]
    assert [b.number for b in RAMAYANA.books] == list(range(1, 8))


def test_an_unknown_name_is_kept_as_written_and_marked_unknown() -> None:
    assert RAMAYANA.book("Mahabharata") is None
    ref = RAMAYANA.reference("Maha  Bharata", (1, 1))
    assert (ref.book, ref.known, ref.canonical) == ("Maha Bharata", False, "Maha Bharata 1.1")
    assert RAMAYANA.reference("bk", (1, 999)).canonical == "Bala 1.999"


@pytest.mark.parametrize(
    ("written", "canonical"),
    [("Jn", "John"), ("1 John", "1 John"), ("I John", "1 John"), ("First John", "1 John")],
)
def test_bible_names(written: str, canonical: str) -> None:
    book = BIBLE.book(written)
    assert book is not None
    assert book.name == canonical
    assert len(BIBLE.books) == 66


def test_bible_canonical_strings_use_a_colon() -> None:
    assert BIBLE.reference("jn", (3, 16)).canonical == "John 3:16"
    assert BIBLE.reference("Ps", (23,)).canonical == "Psalms 23"


def test_schemes_are_registered_by_name() -> None:
    assert registry.available("schemes")[:2] == ["valmiki_ramayana", "bible"]
    assert scheme_named("bible").levels == ("book", "chapter", "verse")
    with pytest.raises(UnknownBackendError, match="valmiki_ramayana"):
        scheme_named("mahabharata")


def test_a_scheme_refuses_a_name_that_stands_for_two_books() -> None:
    with pytest.raises(ConfigError, match="both"):
        ReferenceScheme("x", "X", ("book", "part"), (Book("Ab", 1, ("A",)), Book("Ac", 2, ("a",))))
    with pytest.raises(ConfigError, match="two levels"):
        ReferenceScheme("x", "X", ("book",), (Book("Ab", 1),))
    with pytest.raises(ConfigError, match="separators"):
        ReferenceScheme("x", "X", ("book", "part"), (Book("Ab", 1),), separators=("a",))


@given(st.text(max_size=40))
def test_fold_is_idempotent_and_alphanumeric(name: str) -> None:
    folded = fold(name)
    assert fold(folded) == folded
    assert all(ch.isalnum() for ch in folded)


# -- extraction ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("as told [Bala Kanda 1.1].", [["Bala 1.1"]]),
        ("as told (Ayodhya 2.3).", [["Ayodhya 2.3"]]),
        ("see Sundara 15.30 for it", [["Sundara 15.30"]]),
        ("see Bala 1.1.5 for it", [["Bala 1.5"]]),
        ("Sundara Kanda, Sarga 15, Shloka 30 says", [["Sundara 15.30"]]),
        ("in Sundara Kanda, Sarga 15 it says", [["Sundara 15"]]),
        ("(Ayodhya 2.3-5)", [["Ayodhya 2.3", "Ayodhya 2.4", "Ayodhya 2.5"]]),
        ("(Ayodhya 2.3–5)", [["Ayodhya 2.3", "Ayodhya 2.4", "Ayodhya 2.5"]]),
        ("(Ayodhya 2.3, 2.5)", [["Ayodhya 2.3", "Ayodhya 2.5"]]),
        ("(Ayodhya 2.3, 5)", [["Ayodhya 2.3", "Ayodhya 2.5"]]),
        ("Bala 1.1 and 1.5 agree", [["Bala 1.1", "Bala 1.5"]]),
        ("Bālakāṇḍa 2.4 and Lanka Kanda 3.4", [["Bala 2.4"], ["Yuddha 3.4"]]),
        ("the Ramayana 5.15.30 says", [["Sundara 15.30"]]),
        ("[Bala 1.1; Ayodhya 2.3]", [["Bala 1.1"], ["Ayodhya 2.3"]]),
        ("Bala 1.1, 2 brothers", [["Bala 1.1"]]),
    ],
)
def test_ramayana_forms(text: str, expected: list[list[str]]) -> None:
    assert canonicals(text) == expected


def test_offsets_point_at_the_reference_as_written() -> None:
    text = "Rama left [Bala Kanda 1.1] and (Ayodhya 2.3-5)."
    mentions, _ = EXTRACT.extract(text)
    assert [text[m.span.start : m.span.end] for m in mentions] == [
        "Bala Kanda 1.1",
        "Ayodhya 2.3-5",
    ]
    assert [m.raw for m in mentions] == ["Bala Kanda 1.1", "Ayodhya 2.3-5"]


def test_unknown_names_only_where_a_reference_was_clearly_meant() -> None:
    assert canonicals("[Mahabharata 1.1] and Xyz Kanda 4.5") == [
        ["Mahabharata 1.1"],
        ["Xyz Kanda 4.5"],
    ]
    mentions, _ = EXTRACT.extract("[Mahabharata 1.1]")
    assert not mentions[0].references[0].known
    # Prose that merely has a capitalised word before numbers is no reference.
    assert canonicals("Python 3.11 and (Figure 2.3) and Table 1.2 and version 2.3") == []


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("Bala 0.4", "starts at 1"),
        ("Bala -1.5", "negative"),
        ("[Ayodhya −2.3]", "negative"),
        ("Bala 1.12345678901234567890123", "23 digits"),
        ("Bala 1.5-3", "backwards"),
        ("Sundara 3.15.30", "Sundara is kanda 5, not 3"),
        ("Ramayana 9.1.1", "has 7 kandas"),
    ],
)
def test_impossible_references_carry_a_problem(text: str, problem: str) -> None:
    mentions, _ = EXTRACT.extract(text)
    assert len(mentions) == 1
    assert mentions[0].problem is not None
    assert problem in mentions[0].problem


def test_a_huge_number_is_not_converted() -> None:
    digits = "9" * 5000  # int() refuses more than 4300 digits
    mentions, _ = EXTRACT.extract(f"Bala 1.{digits}")
    assert mentions[0].problem is not None
    assert "5000 digits" in mentions[0].problem
    assert len(mentions[0].references[0].canonical) < 60 + len(digits)


def test_ranges_across_sargas_and_long_ranges_are_checked_at_their_ends() -> None:
    mentions, warnings = EXTRACT.extract("Bala 1.1-2.5")
    assert [r.canonical for r in mentions[0].references] == ["Bala 1.1", "Bala 2.5"]
    assert "crosses a sarga" in warnings[0]
    short = ReferenceExtractor(RAMAYANA, max_range=3)
    mentions, warnings = short.extract("Bala 1.1-10")
    assert [r.canonical for r in mentions[0].references] == ["Bala 1.1", "Bala 1.10"]
    assert "max_range=3" in warnings[0]
    with pytest.raises(ConfigError):
        ReferenceExtractor(RAMAYANA, max_range=0)


def test_references_in_code_are_not_read() -> None:
    assert canonicals("`Bala 1.1` and\n```\nAyodhya 2.3\n```\nSundara 1.1") == [["Sundara 1.1"]]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("John 3:16", [["John 3:16"]]),
        ("1 John 3:1-3", [["1 John 3:1", "1 John 3:2", "1 John 3:3"]]),
        ("(Gen. 1:1, 3)", [["Genesis 1:1", "Genesis 1:3"]]),
        ("Song of Solomon 2:1", [["Song of Solomon 2:1"]]),
        ("Ps 23 is loved", [["Psalms 23"]]),
        ("John 3-4", [["John 3", "John 4"]]),
        ("John chapter 3 verse 16", [["John 3:16"]]),
        ("John 3:16; 4:2", [["John 3:16", "John 4:2"]]),
        ("(Hezekiah 3:4)", [["Hezekiah 3:4"]]),
        ("The score is 3:1 at 10:30", []),
    ],
)
def test_bible_forms(text: str, expected: list[list[str]]) -> None:
    assert canonicals(text, EXTRACT_BIBLE) == expected


def test_lookalikes_list_what_the_patterns_missed() -> None:
    text = "Bala 1.1 is parsed.\nPython 3.11 is not, nor (Figure 2.3), nor Sarga 4 of the Bala."
    missed = [(item.line, item.text) for item in EXTRACT.lookalikes(text)]
    assert missed == [(2, "Python 3.11"), (2, "(Figure 2.3)"), (2, "Sarga 4")]


@given(st.text(alphabet="Bala Kanda Sundara[]()0123456789.,;-– \n:", max_size=80))
def test_extraction_never_crashes_and_spans_are_the_text(text: str) -> None:
    mentions, _ = EXTRACT.extract(text)
    end = -1
    for mention in mentions:
        assert text[mention.span.start : mention.span.end] == mention.raw
        assert mention.span.start >= end
        end = mention.span.end
        assert mention.references
        for ref in mention.references:
            assert all(n >= 1 for n in ref.numbers)
    for item in EXTRACT.lookalikes(text, mentions):
        assert text[item.span.start : item.span.end] == item.text
