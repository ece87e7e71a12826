"""Issue 35, structured references: kandas cited by number (``[Kanda 2 Sarga 3 Shloka 4]``),
numbers alone (``(1.1.4)``, ``[2.3.4]``) without phantoms from versions, dates and decimals,
and a pattern recommended for every group of look-alikes in ``refs coverage``."""

from __future__ import annotations

import json
import re
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from citecheck.cli import main
from citecheck.references import (
    Coverage,
    ReferenceExtractor,
    bible,
    group_lookalikes,
    valmiki_ramayana,
    verify_references,
)

RAMAYANA = valmiki_ramayana()
EXTRACT = ReferenceExtractor(RAMAYANA)
GENERIC_BIBLE = ReferenceExtractor(replace(bible(), parser=None))
COUNTS = {"Bala": [100, 43, 39], "Ayodhya": [29, 41, 30], "Sundara": [10] * 14 + [60]}
DOCS = Path(__file__).parents[1] / "docs" / "references.md"


def canonicals(text: str, extractor: ReferenceExtractor = EXTRACT) -> list[list[str]]:
    return [[r.canonical for r in m.references] for m in extractor.extract(text)[0]]


# -- 1. a kanda cited by its number ------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "Dasharatha speaks [Kanda 2 Sarga 3 Shloka 4].",
        "Kanda 2, Sarga 3, Shloka 4",
        "[Kanda 2, Sarga 3, Shloka 4]",
        "kanda 2 sarga 3 shloka 4",
        "(KANDA 2, SARGA 3, SHLOKA 4)",
        "Kanda 2 Sarga 3, Shloka 4",
        "Kanda 2.3.4",
        "as narrated in Kanda 2.3.4",
        "Ayodhya Kanda 2, Sarga 3, Shloka 4",
    ],
)
def test_a_kanda_cited_by_number_is_verified(text: str) -> None:
    report = verify_references(text, against=COUNTS)
    assert [(r.citation.source_id, r.status.value) for r in report] == [("Ayodhya 3.4", "verified")]
    assert report.result == "PASS"
    mention = EXTRACT.extract(text)[0][0]
    assert text[mention.span.start : mention.span.end] == mention.raw


def test_a_missing_shloka_of_a_numbered_kanda_is_the_phantom() -> None:
    report = verify_references("[Kanda 2 Sarga 3 Shloka 99]", against=COUNTS)
    assert report.result == "FAIL"
    assert report.phantom_citations == ["Ayodhya 3.99"]
    assert report.results[0].reason == "Ayodhya sarga 3 has 30 shlokas"


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("Kanda 8, Sarga 1, Shloka 1", "the Valmiki Ramayana has 7 kandas"),
        ("Bala Kanda 2, Sarga 3, Shloka 4", "Bala is kanda 1, not 2"),
        ("Kanda 2, Sarga 0, Shloka 4", "numbering starts at 1; there is no number 0"),
    ],
)
def test_a_numbered_kanda_that_cannot_exist_fails_with_the_reason(text: str, reason: str) -> None:
    report = verify_references(text, against=COUNTS)
    assert report.result == "FAIL"
    assert [r.reason for r in report] == [reason]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Bala Kanda 3.4", [["Bala 3.4"]]),
        ("[Bala Kanda 1.1]", [["Bala 1.1"]]),
        ("Sundara Kanda, Sarga 15, Shloka 30", [["Sundara 15.30"]]),
        ("Sundara Kanda 5, Sarga 15, Shloka 30", [["Sundara 15.30"]]),
        ("Ramayana 5.15.30", [["Sundara 15.30"]]),
        ("[Mahabharata 1.1] and Xyz Kanda 4.5", [["Mahabharata 1.1"], ["Xyz Kanda 4.5"]]),
    ],
)
def test_named_kandas_keep_working(text: str, expected: list[list[str]]) -> None:
    assert canonicals(text) == expected


@pytest.mark.parametrize(
    "text",
    ["(Sarga 3, Shloka 4)", "[Sarga 3]", "[Kanda 2]", "[Kanda 2.3]", "the Kanda 4.5"],
)
def test_level_words_are_never_the_name_of_a_phantom_kanda(text: str) -> None:
    report = verify_references(text, against=COUNTS)
    assert report.phantom_citations == []
    assert report.results == ()
    assert EXTRACT.lookalikes(text)  # listed by coverage instead


def test_the_top_word_and_a_number_name_the_kanda() -> None:
    names = ("Kanda 2", "kanda 7", "Kanda-1", "Sundara Kanda 5")
    assert [getattr(RAMAYANA.book(n), "name", None) for n in names] == [
        "Ayodhya",
        "Uttara",
        "Bala",
        "Sundara",
    ]
    assert RAMAYANA.book("Kanda 8") is None
    assert RAMAYANA.book("Bala Kanda 2") is None
    assert bible().book("Book 2") is None  # the Bible does not number its books in citations


# -- 2. numbers alone ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Narada answers (1.1.4).", [["Bala 1.4"]]),
        ("[2.3.4]", [["Ayodhya 3.4"]]),
        ("( 1.1.4 )", [["Bala 1.4"]]),
        ("(1.1.4-6)", [["Bala 1.4", "Bala 1.5", "Bala 1.6"]]),
        ("(1.1.4, 2.3.4)", [["Bala 1.4", "Ayodhya 3.4"]]),
        ("(1.1.4; 5)", [["Bala 1.4", "Bala 1.5"]]),
        ("see (1.1.4) and [2.3.4]", [["Bala 1.4"], ["Ayodhya 3.4"]]),
    ],
)
def test_numbers_alone_in_a_bracket_are_a_kanda_sarga_shloka(
    text: str, expected: list[list[str]]
) -> None:
    assert canonicals(text) == expected
    assert verify_references(text, against=COUNTS).result == "PASS"


def test_numbers_alone_with_a_kanda_the_work_lacks_fail() -> None:
    report = verify_references("(8.1.1)", against=COUNTS)
    assert report.result == "FAIL"
    assert report.results[0].reason == "the Valmiki Ramayana has 7 kandas"


@pytest.mark.parametrize(
    "text",
    [
        "Upgrade to version 1.1.4 today.",
        "(version 1.1.4)",
        "version (1.1.4)",
        "release (2.3.4) and section (2.3.4)",
        "pi is 3.14, or (3.14)",
        "(2.3)",
        "on 2.3.2024",
        "(2.3.2024)",
        "[01.02.03]",
        "(1.0.4)",
        "(10.0.0.1)",
        "(1:30:45)",
        "(see 2.3.4)",
        "(see also 1.1.4)",
        "(1.1.4 and more)",
        "[1.1.4](https://example.com/releases) and [1.1.4]: https://example.com",
        "a[1.1.4] or ![1.1.4]",
        "see 2.3.4 in the manual",
        "(-1.1.4)",
    ],
)
def test_versions_dates_decimals_and_sections_are_never_phantoms(text: str) -> None:
    report = verify_references(text, against=COUNTS, template="T3")
    assert report.results == ()
    assert report.result == "PASS"


def test_numbers_alone_are_not_read_in_a_scheme_that_does_not_number_its_books() -> None:
    assert canonicals("(1.1.4) and [2.3.4]", GENERIC_BIBLE) == []
    assert canonicals("(1.1.4)", ReferenceExtractor(bible())) == []


@given(
    st.integers(1, 7),
    st.integers(1, 999),
    st.integers(1, 999),
    st.sampled_from(["(", "["]),
    st.sampled_from(["", " "]),
)
def test_any_small_triple_alone_in_brackets_reads_as_its_kanda(
    kanda: int, sarga: int, shloka: int, opening: str, space: str
) -> None:
    closing = {"(": ")", "[": "]"}[opening]
    text = f"Rama{space} {opening}{space}{kanda}.{sarga}.{shloka}{space}{closing}."
    book = RAMAYANA.book_by_number(kanda)
    assert book is not None
    (mention,) = EXTRACT.extract(text)[0]
    assert [r.canonical for r in mention.references] == [f"{book.name} {sarga}.{shloka}"]
    assert text[mention.span.start : mention.span.end] == mention.raw == f"{kanda}.{sarga}.{shloka}"


@given(
    st.lists(st.integers(0, 99999), min_size=3, max_size=3),
    st.sampled_from(["{}", "0{}"]),
)
def test_a_triple_with_a_zero_or_a_long_number_is_never_read(numbers: list[int], form: str) -> None:
    written = [form.format(n) for n in numbers]
    small = all(len(w) <= 3 and not w.startswith("0") for w in written)
    text = f"({'.'.join(written)})"
    assert (canonicals(text) != []) == small


# -- 3. a pattern for every group of look-alikes -------------------------------------------------


def test_coverage_recommends_a_pattern_for_each_group_of_lookalikes() -> None:
    text = (
        "Bala 1.1 is read.\n"
        "Sarga 4, canto 5, Python 3.11 and python 3.12, (15:30), verse 4/5, Kanda 2, (2.3.2024)."
    )
    coverage = Coverage.of(EXTRACT, text)
    groups = {group.shape: group for group in coverage.groups}
    assert list(groups) == ["Sarga N", "Python N.N", "(N:N)", "verse N/N", "Kanda N", "(N.N.N)"]
    assert [item.text for item in groups["Sarga N"].lookalikes] == ["Sarga 4", "canto 5"]
    assert [item.text for item in groups["Python N.N"].lookalikes] == ["Python 3.11", "python 3.12"]
    for group in coverage.groups:
        assert group.pattern
        assert group.advice
        for item in group.lookalikes:
            assert re.fullmatch(group.pattern, item.text), (group.pattern, item.text)
    assert sum(len(g.lookalikes) for g in coverage.groups) == len(coverage.lookalikes)
    assert groups["Python N.N"].setting == "Book(\"<kanda>\", <number>, aliases=(…, 'Python'))"
    assert groups["Sarga N"].setting is None
    assert "must name the kanda (Bala Kanda, Sarga 4" in groups["Sarga N"].advice
    assert "(1.15.30)" in groups["(N:N)"].advice
    assert "Kanda 2, Sarga 3, Shloka 4" in groups["Kanda N"].advice
    assert "a date or a version" in groups["(N.N.N)"].advice
    data = coverage.to_dict()
    assert [g["pattern"] for g in data["lookalike_groups"]] == [g.pattern for g in coverage.groups]
    assert data["lookalike_groups"][1]["lookalikes"][0] == {
        "line": 2,
        "text": "Python 3.11",
        "start": text.index("Python"),
        "end": text.index("Python") + len("Python 3.11"),
    }


def test_the_recommended_setting_reads_what_it_was_recommended_for() -> None:
    slashes = "Rama (1/1/4) and Sita (2/3/4)."
    (group,) = Coverage.of(EXTRACT, slashes).groups
    assert group.setting == "separators=('.', '/')"
    with_slash = ReferenceExtractor(replace(RAMAYANA, separators=(".", "/")))
    assert canonicals(slashes, with_slash) == [["Bala 1.4"], ["Ayodhya 3.4"]]

    (group,) = Coverage.of(GENERIC_BIBLE, "In the beginning (1.1.4).").groups
    assert group.setting == "numbered_top=True"
    numbered = ReferenceExtractor(replace(bible(), parser=None, numbered_top=True))
    assert canonicals("In the beginning (1.1.4).", numbered) == [["Genesis 1:4"]]

    (group,) = Coverage.of(EXTRACT, "Prathama 1.2 begins").groups
    assert group.setting is not None
    assert "aliases=(…, 'Prathama')" in group.setting
    books = tuple(
        replace(b, aliases=(*b.aliases, "Prathama")) if b.name == "Bala" else b
        for b in RAMAYANA.books
    )
    named = ReferenceExtractor(replace(RAMAYANA, books=books))
    assert canonicals("Prathama 1.2 begins", named) == [["Bala 1.2"]]


_LOOKALIKE_TEXT = st.text(
    alphabet="Bala Kanda Sarga canto verse Python sĀ ẞ İ[]()0123456789.:/,;- \n", max_size=120
)


@given(_LOOKALIKE_TEXT)
def test_every_lookalike_is_in_one_group_whose_pattern_matches_it(text: str) -> None:
    for extractor in (EXTRACT, GENERIC_BIBLE):
        lookalikes = extractor.lookalikes(text)
        groups = group_lookalikes(extractor.scheme, lookalikes)
        grouped = [item for group in groups for item in group.lookalikes]
        assert sorted(grouped, key=lambda i: i.span.start) == lookalikes
        for group in groups:
            assert group.advice
            for item in group.lookalikes:
                assert re.fullmatch(group.pattern, item.text), (group.pattern, item.text)


def test_cli_coverage_prints_and_gives_json_with_the_patterns(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    answer = tmp_path / "answer.md"
    answer.write_text("Bala 1.1 and [Kanda 2 Sarga 3 Shloka 4].\nSee Sarga 4 and Python 3.11.\n")
    assert main(["refs", "coverage", str(answer)]) == 0
    out = capsys.readouterr().out
    assert "line 1: Kanda 2 Sarga 3 Shloka 4 -> Ayodhya 3.4" in out
    assert "2 kinds of look-alike, and the pattern for each:" in out
    assert "    regex:   (?i)\\bPython[ \\t]+\\d+\\.\\d+" in out
    assert "    setting: Book(\"<kanda>\", <number>, aliases=(…, 'Python'))" in out
    assert main(["refs", "coverage", str(answer), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert [g["shape"] for g in data["lookalike_groups"]] == ["Sarga N", "Python N.N"]
    assert data["mentions"][1]["references"] == ["Ayodhya 3.4"]


def test_the_coverage_example_of_the_docs_prints_what_the_page_says(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    page = DOCS.read_text(encoding="utf-8")
    found = re.search(
        r"```text\n(?P<answer>.*?)```\n\n```console\n\$ citecheck refs coverage answer.md\n"
        r"(?P<output>.*?)```",
        page,
        re.DOTALL,
    )
    assert found is not None, "the coverage example is missing from docs/references.md"
    (tmp_path / "answer.md").write_text(found.group("answer"), encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    assert main(["refs", "coverage", "answer.md"]) == 0
    assert capsys.readouterr().out == found.group("output")
