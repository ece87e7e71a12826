"""The Bible scheme read by pythonbible's parser: every reference string of pythonbible's own
test suite (tests/data/pythonbible_references.txt) is read as pythonbible reads it, offsets
point at the text as written (roman numerals included), and what pythonbible drops as
impossible (``John 3:99``) is kept, so that it fails instead of vanishing."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from citecheck.model import Status
from citecheck.references import (
    Mention,
    ReferenceExtractor,
    ReferenceVerifier,
    StructuredReference,
    bible,
    verify_references,
)

pb = pytest.importorskip("pythonbible")
from pythonbible.roman_numeral_util import convert_all_roman_numerals_to_integers  # noqa: E402

from citecheck.references.pythonbible_parser import cleaned  # noqa: E402

SCHEME = bible()
EXTRACT = ReferenceExtractor(SCHEME)
DATA = Path(__file__).parent / "data" / "pythonbible_references.txt"
STRINGS = [
    line.rstrip("\n")
    for line in DATA.read_text(encoding="utf-8").splitlines()
    if line.strip() and not line.startswith("#")
]
BOOK_ONLY = {
    "Genesis": "a book without a number is prose as often as a reference (Mark, Acts, Job)",
    "Genesis - Exodus": "a range of whole books",
    "Genesis - Deuteronomy": "a range of whole books",
    "The books of the law are Genesis - Deuteronomy": "a range of whole books",
}
"""The strings read differently from pythonbible, on purpose: whole books are not read."""


def pythonbible_verses(text: str) -> set[int]:
    verses: set[int] = set()
    for ref in pb.get_references(text):
        verses.update(pb.convert_reference_to_verse_ids(ref))
    return verses


def _bounds(ref: StructuredReference) -> tuple[object, int | None, int | None]:
    book = SCHEME.book(ref.book)
    assert book is not None, ref
    chapter = ref.numbers[0] if ref.numbers else None
    verse = ref.numbers[1] if len(ref.numbers) > 1 else None
    return pb.Book(book.number), chapter, verse


def citecheck_verses(mentions: list[Mention]) -> set[int] | str:
    """The verses the mentions cite, or why they cite none that exists."""
    verses: set[int] = set()
    for mention in mentions:
        if mention.problem or mention.doubt:
            return f"{mention.raw}: {mention.problem or mention.doubt}"
        for first, last in mention.ranges:
            if not (first.known and last.known):
                return f"{first.canonical} is not a book"
            book, chapter, verse = _bounds(first)
            end_book, end_chapter, end_verse = _bounds(last)
            ref = pb.NormalizedReference(book, chapter, verse, end_chapter, end_verse, end_book)
            if not pb.is_valid_reference(ref):
                return f"{first.canonical}-{last.canonical} does not exist"
            verses.update(pb.convert_reference_to_verse_ids(ref))
    return verses


def test_the_one_chapter_books_are_pythonbibles() -> None:
    assert [b.number for b in SCHEME.books if b.single_part] == [
        book.value for book in pb.Book if pb.get_number_of_chapters(book) == 1
    ]
    assert [SCHEME.book(b.title).number for b in pb.Book] == [b.value for b in pb.Book]  # type: ignore[union-attr]


def test_the_test_set_is_pythonbibles_own() -> None:
    assert len(STRINGS) == len(set(STRINGS)) == 837
    assert "Obadiah 3-6" in STRINGS
    assert "1 Samuel 1:1-1 Samuel 31:13" in STRINGS


def test_every_reference_of_pythonbibles_tests_is_read_as_pythonbible_reads_it() -> None:
    differ = {}
    for text in STRINGS:
        expected = pythonbible_verses(text)
        got = citecheck_verses(EXTRACT.extract(text)[0])
        if got != expected:
            differ[text] = got if isinstance(got, str) else sorted(got ^ expected)[:4]
    assert set(differ) == set(BOOK_ONLY), {k: v for k, v in differ.items() if k not in BOOK_ONLY}


def test_no_misread_reference_passes() -> None:
    for text in STRINGS:
        got = citecheck_verses(EXTRACT.extract(text)[0])
        if got != pythonbible_verses(text) and got:
            report = verify_references(text, scheme="bible", against="pythonbible")
            assert report.result != "PASS", (text, got)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("I Sa 3:4", ["1 Samuel 3:4"]),
        ("Isa 3:4", ["Isaiah 3:4"]),
        ("1John 2:3", ["1 John 2:3"]),
        ("1Jn 1:1", ["1 John 1:1"]),
        ("1st Sam 2:3", ["1 Samuel 2:3"]),
        ("2nd Kings 1:1", ["2 Kings 1:1"]),
        ("3rd John 1:2", ["3 John 1:2"]),
        ("First Sam 2:2", ["1 Samuel 2:2"]),
        ("The First Epistle of John 1:1", ["1 John 1:1"]),
        ("Obadiah 3-6", ["Obadiah 1:3", "Obadiah 1:4", "Obadiah 1:5", "Obadiah 1:6"]),
        ("Luke 3: 5-7", ["Luke 3:5", "Luke 3:6", "Luke 3:7"]),
        ("1 Samuel 1:1-1 Samuel 31:13", ["1 Samuel 1:1", "1 Samuel 31:13"]),
        ("Jeremiah 29:32-30:10,11", ["Jeremiah 29:32", "Jeremiah 30:10", "Jeremiah 30:11"]),
        ("John 3:16; 4:2", ["John 3:16", "John 4:2"]),
        ("[Hezekiah 3:4]", ["Hezekiah 3:4"]),
        ("John chapter 3 verse 16", ["John 3:16"]),
    ],
)
def test_the_misreadings_of_issue_15(text: str, expected: list[str]) -> None:
    mentions, _ = EXTRACT.extract(text)
    assert [r.canonical for m in mentions for r in m.references] == expected


def test_offsets_point_at_the_text_as_written_roman_numerals_too() -> None:
    text = (
        "Psalm cxxx.4,8, Jeremiah xxix. 32 - xxx. 10, xxxi. 12, "
        "Matthew i. 18 - ii. 18, and Luke iii. 5-7."
    )
    mentions, _ = EXTRACT.extract(text)
    assert [text[m.span.start : m.span.end] for m in mentions] == [
        "Psalm cxxx.4,8",
        "Jeremiah xxix. 32 - xxx. 10, xxxi. 12",
        "Matthew i. 18 - ii. 18",
        "Luke iii. 5-7",
    ]
    assert [m.raw for m in mentions] == [text[m.span.start : m.span.end] for m in mentions]
    assert citecheck_verses(mentions) == pythonbible_verses(text)


def test_offsets_after_html_dashes_and_numerals_in_prose() -> None:
    text = "I think, as in civil law, that John 3:16&ndash;18 and I John 1:1 agree."
    mentions, _ = EXTRACT.extract(text)
    assert [m.raw for m in mentions] == ["John 3:16&ndash;18", "I John 1:1"]
    assert [text[m.span.start : m.span.end] for m in mentions] == [m.raw for m in mentions]
    assert [r.canonical for r in mentions[1].references] == ["1 John 1:1"]


@pytest.mark.parametrize(
    ("text", "phantoms"),
    [
        ("John 3:99", ["John 3:99"]),
        ("Obadiah 25", ["Obadiah 1:25"]),
        ("John 3:16, 99", ["John 3:99"]),
        ("Genesis 1:1-3:99", ["Genesis 3:99"]),
        ("1 Samuel 1:1-1 Samuel 31:99", ["1 Samuel 31:99"]),
        ("Jude 1:30 and Tobit 15:1", ["Jude 1:30", "Tobit 15:1"]),
    ],
)
def test_what_pythonbible_drops_as_impossible_is_kept_and_fails(
    text: str, phantoms: list[str]
) -> None:
    report = verify_references(text, scheme="bible", against="pythonbible")
    assert report.result == "FAIL"
    assert report.phantom_citations == phantoms


def test_an_unlisted_separator_after_a_pythonbible_reference_is_not_truncated() -> None:
    report = verify_references("As Job 3/4 says.", scheme="bible", against="pythonbible")
    assert [r.status for r in report] == [Status.UNCHECKED]
    assert "'/'" in report.results[0].reason
    assert report.result == "UNCHECKED"


_WORDS = st.sampled_from(
    ["I", "II", "iii", "xxix.", "civil", "ill", "John", "1 Sam", "Jude", "Psalm", "&ndash;", "-"]
)
_PIECES = st.one_of(_WORDS, st.from_regex(r"[0-9]{1,3}(:[0-9]{1,2})?", fullmatch=True))


@given(st.lists(st.tuples(_PIECES, st.sampled_from([" ", ", ", ". ", ":", ""])), max_size=12))
def test_spans_point_at_the_original_text_whatever_was_converted(
    pieces: list[tuple[str, str]],
) -> None:
    text = "".join(word + gap for word, gap in pieces)
    mentions, _ = EXTRACT.extract(text)
    end = -1
    for mention in mentions:
        assert text[mention.span.start : mention.span.end] == mention.raw
        assert mention.span.start >= end
        end = mention.span.end
    clean, _ = cleaned(text)
    expected = convert_all_roman_numerals_to_integers(text)
    assert clean == expected.replace("&ndash;", "-").replace("&mdash;", "-")


def test_a_verse_zero_that_pythonbible_reads_as_no_verse_is_impossible() -> None:
    mentions, _ = EXTRACT.extract("Exodus xxix. 0 says")
    assert [m.raw for m in mentions] == ["Exodus xxix. 0"]
    assert mentions[0].problem is not None
    assert "starts at 1" in mentions[0].problem


def test_a_book_pythonbible_knows_and_the_scheme_does_not_fails_by_name() -> None:
    protestant = replace(SCHEME, books=SCHEME.books[:66])
    mentions, _ = ReferenceExtractor(protestant).extract("Tobit 1:1 and John 3:16")
    refs = [r for m in mentions for r in m.references]
    assert [(r.canonical, r.known) for r in refs] == [("Tobit 1:1", False), ("John 3:16", True)]


@pytest.mark.parametrize(
    ("text", "raw", "phantoms"),
    [
        ("Gen 1:1, 32 says", "Gen 1:1, 32", ["Genesis 1:32"]),
        ("John 3:16, 99 says", "John 3:16, 99", ["John 3:99"]),
        ("Gen 1:1, 3, 99 says", "Gen 1:1, 3, 99", ["Genesis 1:99"]),
        ("John 3:16-18, 99 (KJV)", "John 3:16-18, 99", ["John 3:99"]),
        ("John 3:16, 35-37 says", "John 3:16, 35-37", ["John 3:37"]),
        ("John 1, 30:1 says", "John 1, 30:1", ["John 30:1"]),
        ("Psalm cxxx.4, 999 says", "Psalm cxxx.4, 999", ["Psalms 130:999"]),
    ],
)
def test_a_phantom_in_a_list_that_pythonbible_drops_is_kept_and_fails(
    text: str, raw: str, phantoms: list[str]
) -> None:
    mentions, _ = EXTRACT.extract(text)
    assert [m.raw for m in mentions] == [raw]
    assert set(phantoms) <= {r.canonical for r in mentions[0].references}
    report = verify_references(text, scheme="bible", against="pythonbible")
    assert report.result == "FAIL"
    assert report.phantom_citations == phantoms


def test_a_book_named_after_a_list_comma_is_not_read_as_a_verse() -> None:
    mentions, _ = EXTRACT.extract("John 3:16, 1 John 2:3 and 2 Kings 1:1")
    assert [[r.canonical for r in m.references] for m in mentions] == [
        ["John 3:16"],
        ["1 John 2:3"],
        ["2 Kings 1:1"],
    ]
    mentions, _ = EXTRACT.extract("Genesis 50:3 - 1 Samuel 2:1")
    assert [r.canonical for m in mentions for r in m.references] == ["Genesis 50:3", "1 Samuel 2:1"]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Psalm.30: 3", ["Psalms 30:3"]),
        ("Psalm.50:2, 1", ["Psalms 50:2", "Psalms 50:1"]),
        ("Exodus.12: 30; 1.1", ["Exodus 12:30", "Exodus 1:1"]),
        ("Gen 1:1.2", ["Genesis 1:1", "Genesis 1:2"]),
    ],
)
def test_numbers_pythonbible_misreads_as_a_whole_book_or_leaves_out_are_read(
    text: str, expected: list[str]
) -> None:
    mentions, _ = EXTRACT.extract(text)
    assert [m.raw for m in mentions] == [text]
    assert [r.canonical for r in mentions[0].references] == expected


def test_a_number_pythonbible_drops_where_citecheck_cannot_read_it_is_doubted() -> None:
    report = verify_references("Genesis - Exodus 2, 99", scheme="bible", against="pythonbible")
    assert report.result == "UNCHECKED"
    assert [r.status for r in report] == [Status.UNCHECKED]
    assert "leaves out 99" in report.results[0].reason


def test_a_whole_chapter_past_the_end_in_a_range_is_a_phantom_not_a_crash() -> None:
    report = verify_references("1 Sam 2–50– says", scheme="bible", against="pythonbible")
    assert report.result == "FAIL"
    assert report.phantom_citations == ["1 Samuel 50"]


def test_one_reference_the_catalog_cannot_look_up_blanks_no_other() -> None:
    """Tobit is not in the King James Version: its references are unchecked with the catalog's
    reason, and every other reference of the batch is still checked (issue 31)."""
    verifier = ReferenceVerifier("bible")
    first, second = verifier.verify_many(["John 3:16, I Sa 3:4 and Obadiah 3-6", "Tobit 1:1-2"])
    assert {r.status for r in first.results} == {Status.VERIFIED}
    assert first.outcome == "PASS"
    assert {r.status for r in second.results} == {Status.UNCHECKED}
    assert all("could not check" in r.reason for r in second.results)


def test_a_failing_backend_checks_nothing_it_was_asked_about() -> None:
    from citecheck.errors import BackendError

    class Down:
        def lookup(self, references: object) -> object:
            raise BackendError("the catalog server is down")

    verifier = ReferenceVerifier("bible", Down())
    [report] = verifier.verify_many(["John 3:16 and Obadiah 3"])
    assert {r.status for r in report.results} == {Status.UNCHECKED}
    assert all("server is down" in r.reason for r in report.results)
