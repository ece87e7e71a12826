from __future__ import annotations

import re
from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from citecheck.judging.support_model import support_signals
from citecheck.language.numbers import number_list, numbers_present, numbers_with_offsets
from citecheck.language.quantities import stated_numbers, without_references
from citecheck.language.text import normalize
from citecheck.model import Span


@pytest.mark.parametrize(
    ("claim", "numbers"),
    [
        (
            "Remdesivir reduced mortality by 70% (RR 0.30; 95% CI 0.14-0.64).",
            ["70", "0.30", "95", "0.14", "0.64"],
        ),
        ("At least 50,000 lncRNAs are expressed", ["50000"]),
        ("scores below \u22121.86 were removed", ["-1.86"]),
        ("patients aged 13\u201329 years", ["13", "29"]),
        ("HOTAIR, a 2.2-kb-long transcript", ["2.2"]),
        ("Apollo 11 landed in 1969", ["11", "1969"]),
        ("10\u2076 cells per ml", ["10", "6"]),
        ("Participants (N = 2000) completed the survey.", ["2000"]),
        (
            "Revenue reached $5 billion (up 12% from 2022, according to Reuters).",
            ["5000000000", "12", "2022"],  # a scale word is part of the value
        ),
        ("Cases rose 40% (March 2020).", ["40", "2020"]),
        ("Revenue was $3M (FY 2023: $5M).", ["3000000", "2023", "5000000"]),
        ("Mean age was 45 (30-60) years.", ["45", "30", "60"]),
        ("The odds ratio was 2 (1, 4).", ["2", "1", "4"]),
        ("Values lie in [0, 1].", ["0", "1"]),
        ("many people (1,000).", ["1000"]),
        ("Answer:42, Total:100 patients", ["42", "100"]),
        ("On Nov.10 it cost Rs.500", ["10", "500"]),
        ("It started in mid-2020, as in the mid-1990s", ["2020", "1990"]),
        ("Released v2.0 in Q3", ["2.0", "3"]),
        ("The effect was (\u22120.5).", ["-0.5"]),
        ("About 5 000 people attended.", ["5000"]),
        ("In 2019 200 people came", ["2019", "200"]),
    ],
)
def test_quantities_are_kept(claim: str, numbers: list[str]) -> None:
    assert stated_numbers(claim) == numbers


@pytest.mark.parametrize(
    "claim",
    [
        "SARS-CoV-2 infects cells expressing ACE2",  # names
        "The antibody CR3022 binds p53 and miR-211 in K18-hACE2 mice",
        "Data came from GSE147507 and COVA1-18",
        "Neutralizing antibodies protect macaques (10).",  # reference markers
        "Neutralizing antibodies protect macaques [12, 14\u201316].",
        "as shown before [\u201311], infected patients",
        "mortality from the same causes of death.,10 This means",
        "mortality from the same causes of death.\u00b9\u2070 This means",
        "Korpal et al. (2019) showed it",  # author references
        "it is a risk factor (Ronksley et al. 2011)",
        "as described by Winkler et al., 2020.",
        "it plays a role (Guarente, 2005; Wang et al., 2012)",
        "Jones (2020) found that the drug works.",
        "According to Smith and Jones (2019), it works.",
        "Smith et al.12 found that the drug works.",
        "a risk named by the (World Health Organization, 2020)",
    ],
)
def test_names_markers_and_author_references_state_no_number(claim: str) -> None:
    assert stated_numbers(claim) == []


def test_references_are_blanked_without_touching_the_claim() -> None:
    claim = "Korpal et al. showed that miR-200 drives metastasis (Smith, 2019) [12]."
    words = without_references(claim)
    assert "Korpal" not in words
    assert "Smith" not in words
    assert "12" not in words
    assert "showed that miR-200 drives metastasis" in words


@pytest.mark.parametrize(
    ("passage", "number"),
    [
        ("ten patients", "10"),
        ("in the third quarter", "3"),
        ("5 000 people", "5000"),
        ("12 345 678 cells", "12345678"),
        ("a dozen farms", "12"),
        ("Twenty-one controls", "21"),
        ("thirty five sites", "35"),
        ("Two hundred patients", "200"),
    ],
)
def test_numbers_present_read_words_and_spaced_thousands(passage: str, number: str) -> None:
    assert number in numbers_present(normalize(passage))


@pytest.mark.parametrize(
    ("passage", "number"),
    [("one of the highest rates", "1"), ("a second trial", "2"), ("a third of the time", "3")],
)
def test_words_that_say_no_number_are_not_read(passage: str, number: str) -> None:
    assert number not in numbers_present(normalize(passage))


def test_spaced_digits_that_are_not_thousands_stay_apart() -> None:
    assert numbers_present(normalize("in 2019 200 people, 1.5 000")) == {
        "2019",
        "200",
        "1.5",
        "000",
    }


def test_a_spelled_number_stands_for_its_digits() -> None:
    assert numbers_present(normalize("Ten patients, twenty-one controls and 15 more")) >= {
        "10",
        "21",
        "15",
    }
    signals = support_signals(
        "10 patients were enrolled", Span(0, 24), "Ten patients enrolled.", 0.8
    )
    assert signals.missing_number is None


def test_a_name_in_the_claim_is_not_a_missing_number() -> None:
    text = "The coronavirus binds the receptor through its spike protein."
    signals = support_signals("SARS-CoV-2 binds the receptor [4]", Span(0, len(text)), text, 0.8)
    assert signals.missing_number is None


_PIECES = st.sampled_from(
    [
        " ",
        "  ",
        ",",
        ".",
        ";",
        "-",
        "\u2013",
        "(",
        ")",
        "[",
        "]",
        "et al",
        "Smith",
        "and",
        "SARS-CoV-",
        "p",
        "x",
        "%",
        "\u00b9",
        "\u2212",
        "19",
        "2",
        "2020",
        "3.5",
        "1,000",
        "0",
    ]
)


@given(st.lists(_PIECES, max_size=30).map("".join))
def test_stated_numbers_are_some_of_the_numbers_in_order(text: str) -> None:
    stated = stated_numbers(text)
    plain = normalize(text)
    spaced_thousands_joined = re.sub(r"(?<=\d) (?=\d{3})", "", plain)
    assert not Counter(stated) - Counter(number_list(plain) + number_list(spaced_thousands_joined))


@given(
    st.lists(
        st.sampled_from([", ", "; ", " and ", " or  ", "19", "2", "3.5", "1,000", "-4"]),
        max_size=30,
    ).map("".join)
)
def test_numbers_in_plain_prose_are_all_stated(text: str) -> None:
    """Plain prose: numbers apart from letters, brackets and bare spaces (which may set apart
    thousands)."""
    assert stated_numbers(text) == number_list(normalize(text))


@given(st.text(max_size=60))
def test_numbers_with_offsets_point_at_the_numbers(text: str) -> None:
    found = numbers_with_offsets(text)
    assert [number for _, _, number in found] == number_list(text)
    assert all(text[start:end] and text[start:end][-1].isdigit() for start, end, _ in found)
