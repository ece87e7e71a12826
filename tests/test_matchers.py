from __future__ import annotations

import pytest

from citecheck import ConfigError, Document
from citecheck.matchers import ExactMatcher, FuzzyMatcher
from citecheck.protocols import Matcher
from citecheck.testing import MatcherConformance


class TestExactConformance(MatcherConformance):
    @pytest.fixture
    def matcher(self) -> Matcher:
        return ExactMatcher()


class TestFuzzyConformance(MatcherConformance):
    @pytest.fixture
    def matcher(self) -> Matcher:
        return FuzzyMatcher()


def test_exact_reports_every_occurrence_on_word_boundaries() -> None:
    doc = Document("d", "The cat sat. A cat ran. Concatenate cats.")
    hits = ExactMatcher().find("cat", doc)
    assert [doc.text[h.start : h.end] for h in hits] == ["cat", "cat"]


def test_exact_maps_offsets_through_hyphenation_and_quotes() -> None:
    doc = Document("d", "We need verifi-\ncation of “all” claims.")
    [hit] = ExactMatcher().find('verification of "all" claims', doc)
    assert hit.text == "verifi-\ncation of “all” claims"


def test_fuzzy_tolerates_ocr_slips_and_reports_similarity() -> None:
    doc = Document(
        "d", "Intro.\nThe commission found no evidence of fraud in the 2019 accounts.\nEnd."
    )
    [hit] = FuzzyMatcher().find("The commision found no evidense of fraud in the 2019 acounts", doc)
    assert hit.text == "The commission found no evidence of fraud in the 2019 accounts"
    assert 0.9 < hit.score < 1.0
    assert hit.scores["fuzzy"] == hit.score


def test_fuzzy_never_matches_short_queries_by_chance() -> None:
    doc = Document("d", "Something about cats and dogs.")
    assert FuzzyMatcher().find("cots", doc) == []


def test_fuzzy_below_threshold_is_not_a_match() -> None:
    doc = Document("d", "The harbour opened in spring after the storms had passed.")
    assert FuzzyMatcher().find("The airport closed in winter before the rains came", doc) == []


def test_a_long_quote_does_not_match_a_short_passage_inside_it() -> None:
    doc = Document("d", "short passage here")
    quote = "this is a much longer quote that merely contains short passage here and more"
    assert FuzzyMatcher().find(quote, doc) == []


def test_fuzzy_threshold_is_validated() -> None:
    with pytest.raises(ConfigError):
        FuzzyMatcher(threshold=1.5)
