"""The TIP word-overlap matcher: the protocol's rule, real offsets, the meaning guard above it."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from citecheck import ConfigError, Document, Status, Verifier, registry
from citecheck.matchers import OverlapMatcher
from citecheck.matchers.overlap import significant_words
from citecheck.model import Span
from citecheck.protocols import Matcher
from citecheck.testing import MatcherConformance

_STRIPPED = str.maketrans("", "", ".,!?;:\"'()[]{}")


def tip_ratio(claim: str, location: str) -> float:
    """The rule as the seed writes it, straight from its five steps (ASCII text only)."""

    def words(text: str) -> list[str]:
        return [w for w in (t.translate(_STRIPPED) for t in text.lower().split()) if len(w) > 3]

    def counts(word: str, there: list[str]) -> bool:
        return any(
            word == other
            or (len(word) >= 5 and other.startswith(word))
            or (len(other) >= 5 and word.startswith(other))
            for other in there
        )

    claimed, there = words(claim), words(location)
    return sum(counts(w, there) for w in claimed) / len(claimed) if claimed else 0.0


class TestOverlapConformance(MatcherConformance):
    @pytest.fixture
    def matcher(self) -> Matcher:
        return OverlapMatcher()


def test_it_is_registered_as_overlap() -> None:
    assert "overlap" in registry.available("matchers")
    assert isinstance(registry.create("matchers", "overlap"), OverlapMatcher)
    verifier = Verifier(matchers=("exact", "overlap"))
    assert [m.name for m in verifier.matchers] == ["exact", "overlap"]


def test_significant_words_are_longer_than_three_letters_without_punctuation() -> None:
    assert significant_words('The "new" budget, (approved) on Tuesday; it\'s final!') == [
        "budget",
        "approved",
        "tuesday",
        "final",
    ]
    assert significant_words("Don't stop") == ["dont", "stop"]


@pytest.mark.parametrize(
    ("claim", "source", "counts"),
    [
        ("improve", "we must improve", True),
        ("improve", "an improvement", True),  # claimed word is a prefix of the source's
        ("improvement", "we must improve", True),  # the source's word is a prefix of the claim's
        ("improved", "an improvement", False),  # neither begins the other
        ("cats", "category", False),  # a prefix of four letters is too short
        ("impro", "improvement", True),  # five letters is enough
        ("Budget", "the BUDGET.", True),
    ],
)
def test_a_word_counts_exactly_or_by_a_prefix_of_five_letters_either_way(
    claim: str, source: str, counts: bool
) -> None:
    found = OverlapMatcher().find(claim, Document("d", source))
    assert bool(found) is counts


def test_it_passes_at_eighty_percent_and_the_threshold_is_configurable() -> None:
    source = Document("d", "alpha bravo charlie delta echos foxtrot.")
    four_of_five = "alpha bravo charlie delta zulu"
    three_of_four = "alpha bravo charlie zulu"
    [hit] = OverlapMatcher().find(four_of_five, source)
    assert hit.score == 0.8
    assert hit.scores == {"overlap": 0.8}
    assert hit.method == "overlap"
    assert OverlapMatcher().find(three_of_four, source) == []
    [lower] = OverlapMatcher(threshold=0.7).find(three_of_four, source)
    assert lower.score == 0.75


@pytest.mark.parametrize("threshold", [0, -0.1, 1.5, "0.8"])
def test_the_threshold_is_validated(threshold: object) -> None:
    with pytest.raises(ConfigError, match="overlap threshold"):
        OverlapMatcher(threshold=threshold)  # type: ignore[arg-type]


def test_a_query_without_significant_words_matches_nothing() -> None:
    text = "the cat sat on a mat"
    assert OverlapMatcher().find(text, Document("d", text)) == []


def test_evidence_is_the_smallest_stretch_holding_the_words_widened_to_sentences() -> None:
    text = (
        "Minutes of the meeting.\n"
        "The board heard the report. After a long debate, the committee approved the\n"
        "“new budget” on Tuesday. Nothing else was decided.\n"
        "The budget will be published in May.\n"
    )
    document = Document("m", text)
    [hit] = OverlapMatcher().find("committee approved new budget Tuesday", document)
    expected = "After a long debate, the committee approved the\n“new budget” on Tuesday."
    assert hit.text == expected
    assert (hit.start, hit.end) == (text.index(expected), text.index(expected) + len(expected))
    assert hit.line == 2
    assert hit.score == 1.0


def test_evidence_stays_inside_the_cited_span() -> None:
    text = "Alpha bravo charlie. Delta echos foxtrot golfs. Hotel india."
    document = Document("d", text)
    within = Span(text.index("echos"), text.index("golfs") + len("golfs"))
    [hit] = OverlapMatcher().find("echos foxtrot", document, within)
    assert within.start <= hit.start <= hit.end <= within.end
    assert hit.text == "echos foxtrot golfs"


def test_words_far_apart_give_a_passage_from_the_first_to_the_last() -> None:
    text = "Budget talks began. Unrelated news followed. The committee agreed at last.\n"
    [hit] = OverlapMatcher().find("committee budget", Document("d", text))
    assert hit.text == text.strip()


_VOCABULARY = [
    "improve", "improvement", "improved", "impro", "cats", "category", "budget", "the",
    "Budget", "not", "mortality", "morta", "deadline", "a", "over",
]  # fmt: skip


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.tuples(st.sampled_from(_VOCABULARY), st.sampled_from(["", ",", ".", '"', "'s", "!)"])),
        min_size=1,
        max_size=8,
    ),
    st.lists(
        st.tuples(st.sampled_from(_VOCABULARY), st.sampled_from(["", ",", ".", "\n", "  "])),
        max_size=30,
    ),
)
def test_the_ratio_is_the_seed_rule_and_offsets_index_the_original(
    claim_words: list[tuple[str, str]], source_words: list[tuple[str, str]]
) -> None:
    claim = " ".join(w + p for w, p in claim_words)
    source = " ".join(w + p for w, p in source_words)
    document = Document("d", source)
    expected = tip_ratio(claim, source)
    found = OverlapMatcher(threshold=0.01).find(claim, document)
    if expected == 0.0:
        assert found == []
        return
    [hit] = found
    assert hit.score == round(expected, 4)
    assert hit.scores == {"overlap": hit.score}
    assert 0.0 <= hit.score <= 1.0
    assert source[hit.start : hit.end] == hit.text
    assert hit.text.strip() == hit.text


# -- the meaning guard stands above the overlap rule -------------------------------------------

_TRIAL = {
    "trial": (
        "Background.\n"
        "The drug did not reduce mortality in the trial, the authors wrote.\n"
        "Mortality fell by 40 percent in 2020 across the region.\n"
    )
}


@pytest.mark.parametrize(
    ("text", "named"),
    [
        ("The drug reduced mortality in the trial [[trial:L2]].", "'not'"),
        ("Mortality fell by 12 percent in 2020 across the region [[trial:L3]].", "12"),
        ('"Mortality fell by 12 percent in 2020 across the region" [[trial:L3]]', "12"),
        ("The drug reduced mortality in the trial [[trial]].", "'not'"),
    ],
)
def test_a_word_overlap_match_that_changes_the_meaning_is_never_verified(
    text: str, named: str
) -> None:
    verifier = Verifier(matchers=("exact", "overlap"))
    [result] = verifier.verify(text, _TRIAL).results
    assert result.evidence, "the overlap rule finds the passage"
    assert result.evidence[0].method == "overlap"
    assert result.evidence[0].score == 1.0, "every significant word is there"
    assert result.status is Status.PARTIAL
    assert named in result.reason


def test_a_paraphrase_that_keeps_the_facts_is_verified_by_overlap() -> None:
    source = {"ctx": "Notes.\nThe project deadline has been set to March 15th by John.\n"}
    text = "The project deadline is March 15th [[ctx:L2]]."
    [default] = Verifier().verify(text, source).results
    [result] = Verifier(matchers=("exact", "overlap")).verify(text, source).results
    assert default.status is not Status.VERIFIED, "the default cascade reads the words in order"
    assert result.status is Status.VERIFIED
    assert result.evidence[0].text == "The project deadline has been set to March 15th by John."
