"""Reference schemes and extraction: names normalised, every written form parsed, offsets kept."""

from __future__ import annotations

import re
from dataclasses import replace

import pytest
from hypothesis import example, given
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
    verify_references,
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


def test_the_bible_has_pythonbibles_72_books_numbered_as_there() -> None:
    assert len(BIBLE.books) == 72
    assert [(b.number, b.name) for b in BIBLE.books[65:67]] == [
        (66, "Revelation"),
        (67, "1 Esdras"),
    ]
    assert [b.name for b in BIBLE.books if b.single_part] == [
        "Obadiah",
        "Philemon",
        "2 John",
        "3 John",
        "Jude",
    ]


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


# -- issue 15: separators, short forms, the generic machinery learning from pythonbible ------

GENERIC_BIBLE = ReferenceExtractor(replace(BIBLE, parser=None))
"""The Bible through the generic machinery alone, as without the ``bible`` extra."""


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("[Sundara Kanda 15:999]", [["Sundara 15.999"]]),
        ("(Ayodhya 2:999)", [["Ayodhya 2.999"]]),
        ("Sundara 5:15:30", [["Sundara 15.30"]]),
        ("(Ayodhya 2:3-5)", [["Ayodhya 2.3", "Ayodhya 2.4", "Ayodhya 2.5"]]),
        ("Bala 1:1 and 1:5 agree", [["Bala 1.1", "Bala 1.5"]]),
        ("Sundara 15: 30", [["Sundara 15.30"]]),
    ],
)
def test_a_colon_between_levels_is_read(text: str, expected: list[list[str]]) -> None:
    assert canonicals(text) == expected


def test_a_colon_is_read_in_a_scheme_that_lists_only_the_full_stop() -> None:
    code = ReferenceScheme("code", "Code", ("book", "article", "paragraph"), (Book("Civil", 1),))
    assert canonicals("Civil 3:4 and Civil 5.6", ReferenceExtractor(code)) == [
        ["Civil 3.4"],
        ["Civil 5.6"],
    ]


@pytest.mark.parametrize("text", ["Sundara 15/30", "[Sundara Kanda 15_30]", "(Ayodhya 2·3)"])
def test_an_unlisted_separator_never_truncates_the_reference(text: str) -> None:
    mentions, _ = EXTRACT.extract(text)
    assert len(mentions) == 1
    mention = mentions[0]
    assert mention.doubt is not None
    assert "not a separator" in mention.doubt
    assert [r.canonical for r in mention.references] != ["Sundara 15"]
    assert all(r.numbers != (15,) for r in mention.references)


@pytest.mark.parametrize(
    ("text", "kanda"),
    [
        ("BK 1.1", "Bala"),
        ("AyK 2.3", "Ayodhya"),
        ("Ay 2.3", "Ayodhya"),
        ("ArK 3.4", "Aranya"),
        ("KK 4.1", "Kishkindha"),
        ("kk 4.1", "Kishkindha"),
        ("SK 5.3", "Sundara"),
        ("sk 5.3", "Sundara"),
        ("S.K. 5.3", "Sundara"),
        ("[SK 5.3]", "Sundara"),
        ("YK 6.1", "Yuddha"),
        ("LK 6.1", "Yuddha"),
        ("UK 7.1", "Uttara"),
        ("uk 7.1", "Uttara"),
        ("U.K. 7.1", "Uttara"),
    ],
)
def test_short_kanda_forms(text: str, kanda: str) -> None:
    mentions, _ = EXTRACT.extract(text)
    assert [r.book for m in mentions for r in m.references] == [kanda]
    assert mentions[0].doubt is None


@pytest.mark.parametrize("text", ["AK 2.3", "ak 2.3", "A.K. 2.3", "[AK 2.3]", "AK Kanda 2.3"])
def test_an_ambiguous_short_form_never_silently_picks_a_kanda(text: str) -> None:
    mentions, _ = EXTRACT.extract(text)
    assert len(mentions) == 1
    doubt = mentions[0].doubt
    assert doubt is not None
    assert "Ayodhya" in doubt
    assert "Aranya" in doubt
    assert all(not r.known for r in mentions[0].references)


def test_the_kanda_number_settles_an_ambiguous_short_form() -> None:
    assert canonicals("AK 2.5.3 and AK 3.5.3") == [["Ayodhya 5.3"], ["Aranya 5.3"]]
    mentions, _ = EXTRACT.extract("AK 4.1.1")
    assert mentions[0].problem is not None
    assert "Ayodhya is kanda 2 and Aranya kanda 3, not 4" in mentions[0].problem


def test_ambiguous_names_are_declared_and_checked() -> None:
    scheme = RAMAYANA
    assert scheme.book("AK") is None
    assert [b.name for b in scheme.candidates("A.K.")] == ["Ayodhya", "Aranya"]
    books = (Book("Ab", 1), Book("Ac", 2))
    with pytest.raises(ConfigError, match="not a book"):
        ReferenceScheme("x", "X", ("book", "part"), books, ambiguous={"A": ("Ab", "Zz")})
    with pytest.raises(ConfigError, match="two"):
        ReferenceScheme("x", "X", ("book", "part"), books, ambiguous={"A": ("Ab",)})
    with pytest.raises(ConfigError, match="also the name of"):
        ReferenceScheme("x", "X", ("book", "part"), books, ambiguous={"Ab": ("Ab", "Ac")})


@pytest.mark.parametrize(
    ("written", "canonical"),
    [
        ("I Sa", "1 Samuel"),
        ("Isa", "Isaiah"),
        ("1John", "1 John"),
        ("1Jn", "1 John"),
        ("1st Sam", "1 Samuel"),
        ("First Sam", "1 Samuel"),
        ("2nd Kings", "2 Kings"),
        ("II Kings", "2 Kings"),
        ("IISam", "2 Samuel"),
        ("3rd John", "3 John"),
        ("III Jn", "3 John"),
        ("1Thess", "1 Thessalonians"),
        ("1Th", "1 Thessalonians"),
    ],
)
def test_numbered_books_by_digits_ordinals_and_roman_numerals(written: str, canonical: str) -> None:
    book = BIBLE.book(written)
    assert book is not None
    assert book.name == canonical


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("I Sa 3:4", [["1 Samuel 3:4"]]),
        ("Isa 3:4", [["Isaiah 3:4"]]),
        ("1John 2:3", [["1 John 2:3"]]),
        ("see 1Jn 1:1", [["1 John 1:1"]]),
        ("1st Sam 1:1", [["1 Samuel 1:1"]]),
        ("First Sam 2:2", [["1 Samuel 2:2"]]),
        ("Obadiah 3-6", [["Obadiah 1:3", "Obadiah 1:4", "Obadiah 1:5", "Obadiah 1:6"]]),
        ("Jude 3", [["Jude 1:3"]]),
        ("Jude 1:3", [["Jude 1:3"]]),
        ("Luke 3: 5-7", [["Luke 3:5", "Luke 3:6", "Luke 3:7"]]),
        ("Jeremiah 29:32-30:10,11", [["Jeremiah 29:32", "Jeremiah 30:10", "Jeremiah 30:11"]]),
        ("1 Samuel 1:1-1 Samuel 31:13", [["1 Samuel 1:1", "1 Samuel 31:13"]]),
        ("John 3:16-John 3:18", [["John 3:16", "John 3:17", "John 3:18"]]),
        ("Genesis 50:3 - Exodus 1:14, 2:3", [["Genesis 50:3", "Exodus 1:14", "Exodus 2:3"]]),
        ("Psalm 130:4,8", [["Psalms 130:4", "Psalms 130:8"]]),
    ],
)
def test_the_generic_machinery_learned_from_pythonbible(
    text: str, expected: list[list[str]]
) -> None:
    assert canonicals(text, GENERIC_BIBLE) == expected


def test_ranges_keep_what_was_written() -> None:
    mentions, warnings = GENERIC_BIBLE.extract(
        "Jeremiah 29:32-30:10,11 and Genesis 50:3 - Exodus 1:14"
    )
    ranges = [[(a.canonical, b.canonical) for a, b in m.ranges] for m in mentions]
    assert ranges == [
        [("Jeremiah 29:32", "Jeremiah 30:10"), ("Jeremiah 30:11", "Jeremiah 30:11")],
        [("Genesis 50:3", "Exodus 1:14")],
    ]
    assert "crosses a chapter" in warnings[0]
    assert "crosses a book" in warnings[1]


def test_a_scheme_declares_single_part_books() -> None:
    scheme = ReferenceScheme(
        "letters",
        "Letters",
        ("letter", "chapter", "verse"),
        (Book("Long", 1), Book("Short", 2, single_part=True)),
    )
    extract = ReferenceExtractor(scheme)
    assert canonicals("Short 3-4 and Long 3-4", extract) == [
        ["Short 1.3", "Short 1.4"],
        ["Long 3", "Long 4"],
    ]


def test_book_names_alone_are_not_references() -> None:
    text = "Mark said the numbers in Acts and Job were right; see Genesis - Exodus."
    assert canonicals(text, EXTRACT_BIBLE) == []
    assert canonicals(text, GENERIC_BIBLE) == []


def test_lookalikes_list_colon_and_other_forms_the_patterns_miss() -> None:
    text = "Parsed: Bala 1:1.\nMissed: (15:30) and Python 3:11 and verse 4/5."
    missed = [item.text for item in EXTRACT.lookalikes(text)]
    assert missed == ["(15:30)", "Python 3:11", "verse 4/5"]


@given(st.text(max_size=120))
def test_extraction_never_crashes_on_any_text(text: str) -> None:
    for extractor in (EXTRACT, GENERIC_BIBLE, EXTRACT_BIBLE):
        mentions, _ = extractor.extract(text)
        end = -1
        for mention in mentions:
            assert text[mention.span.start : mention.span.end] == mention.raw
            assert mention.span.start >= end
            end = mention.span.end
            assert mention.references
            assert mention.ranges


_REFERENCE_LIKE = st.text(
    alphabet="Bala Kanda Sundara AKSU.John1Sa I[]()0123456789.,;:/-– \n", max_size=100
)


@given(_REFERENCE_LIKE)
def test_reference_like_text_keeps_offsets_and_numbers(text: str) -> None:
    for extractor in (EXTRACT, GENERIC_BIBLE, EXTRACT_BIBLE):
        mentions, _ = extractor.extract(text)
        for mention in mentions:
            assert text[mention.span.start : mention.span.end] == mention.raw
            for ref in mention.references:
                assert all(n >= 1 for n in ref.numbers)
        for item in extractor.lookalikes(text, mentions):
            assert text[item.span.start : item.span.end] == item.text


# -- review of issue 15: no number read after a reference disappears ----------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("John 3, 4:5", [["John 3", "John 4:5"]]),
        ("John 3 and 4:5 agree", [["John 3", "John 4:5"]]),
        ("John 3:16, 18-20 says", [["John 3:16", "John 3:18", "John 3:19", "John 3:20"]]),
        ("John 3:16, 18–20 says", [["John 3:16", "John 3:18", "John 3:19", "John 3:20"]]),
        ("John 3 - 4:5", [["John 3", "John 4:5"]]),
    ],
)
def test_list_items_and_range_ends_that_name_more_levels_are_read(
    text: str, expected: list[list[str]]
) -> None:
    assert canonicals(text, GENERIC_BIBLE) == expected
    assert canonicals(text, EXTRACT_BIBLE) == expected


def test_a_longer_item_is_read_in_the_ramayana_too() -> None:
    assert canonicals("(Bala 1, 2.3)") == [["Bala 1", "Bala 2.3"]]
    assert canonicals("Sundara 15, 5.15.30 says") == [["Sundara 15", "Sundara 15.30"]]


@pytest.mark.parametrize(
    ("text", "extractor", "read", "doubted", "meant"),
    [
        ("Bala 1.1, 2 brothers", EXTRACT, "Bala 1.1", "2", "Bala 1.2"),
        ("Gen 1:1, 32 says", GENERIC_BIBLE, "Gen 1:1", "32", "Genesis 1:32"),
        ("John 3:16; 99 says", GENERIC_BIBLE, "John 3:16", "99", "John 3:99"),
        ("John 3:16; 99 says", EXTRACT_BIBLE, "John 3:16", "99", "John 3:99"),
        ("Gen 1:1 and 5 here", GENERIC_BIBLE, "Gen 1:1", "5", "Genesis 1:5"),
        ("Bala 1.1 and 2 brothers", EXTRACT, "Bala 1.1", "2", "Bala 1.2"),
        (
            "Sundara Kanda, Sarga 15, Shloka 30, 31 says",
            EXTRACT,
            "Sundara Kanda, Sarga 15, Shloka 30",
            "31",
            "Sundara 15.31",
        ),
    ],
)
def test_a_number_after_a_list_that_may_be_prose_is_doubted_never_dropped(
    text: str, extractor: ReferenceExtractor, read: str, doubted: str, meant: str
) -> None:
    mentions, _ = extractor.extract(text)
    assert len(mentions) == 2
    first, second = mentions
    assert first.raw == read
    assert first.doubt is None
    assert second.raw == doubted
    assert text[second.span.start : second.span.end] == doubted
    assert second.doubt is not None
    assert meant in second.doubt
    assert [r.canonical for r in second.references] == [meant]


def test_a_number_that_starts_the_next_books_name_is_no_doubt() -> None:
    for extractor in (GENERIC_BIBLE, EXTRACT_BIBLE):
        assert canonicals("John 3:16, 1 John 2:3", extractor) == [["John 3:16"], ["1 John 2:3"]]
        mentions, _ = extractor.extract("John 3:16, 2 Kings says")
        assert [m.raw for m in mentions] == ["John 3:16"]


def test_a_number_after_a_list_in_prose_makes_the_answer_unchecked_not_a_pass() -> None:
    report = verify_references(
        "Gen 1:1, 32 says", scheme=GENERIC_BIBLE.scheme, against={"Genesis": [31]}
    )
    assert report.result == "UNCHECKED"
    assert [(r.citation.source_id, r.status.value) for r in report] == [
        ("Genesis 1:1", "verified"),
        ("Genesis 1:32", "unchecked"),
    ]


_BIBLE_PIECES = st.one_of(
    st.sampled_from(["John", "Gen", "Jude", "Psalm", "1 Sam", "Exodus", "says", "and"]),
    st.from_regex(r"[1-9][0-9]{0,2}([:.][1-9][0-9]{0,2}){0,2}", fullmatch=True),
)
_NAME_NUMBER = re.compile(r"\d+(?=[ \t]*[^\W\d_])")
"""A number that belongs to a name (``1 Sam``), not to a location."""


@example([("Gen", " "), ("1:1", ", "), ("32", " "), ("says", " ")])
@example([("John", " "), ("1", ", "), ("30:1", " ")])
@given(
    st.lists(st.tuples(_BIBLE_PIECES, st.sampled_from([" ", ", ", "; ", "-", " - "])), max_size=10)
)
def test_every_number_of_a_mention_is_in_its_references(pieces: list[tuple[str, str]]) -> None:
    text = "".join(word + gap for word, gap in pieces)
    for extractor in (GENERIC_BIBLE, EXTRACT_BIBLE):
        mentions, _ = extractor.extract(text)
        for mention in mentions:
            if mention.problem or mention.doubt:
                continue
            written = {int(n) for n in re.findall(r"\d+", _NAME_NUMBER.sub("", mention.raw))}
            books = {BIBLE.book(r.book) for r in mention.references}
            cited = {n for r in mention.references for n in r.numbers}
            cited |= {b.number for b in books if b is not None}
            assert written <= cited, (text, mention.raw, [r.canonical for r in mention.references])
