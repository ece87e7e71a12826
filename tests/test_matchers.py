from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from citecheck import ConfigError, Document, Status, verify
from citecheck.matchers import ExactMatcher, FuzzyMatcher
from citecheck.matchers.alignment import align, widen_to_words
from citecheck.model import Span
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


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet="ab '.\n", max_size=40), st.data())
def test_a_widened_range_cuts_no_word_and_keeps_its_range(text: str, data: st.DataObject) -> None:
    start = data.draw(st.integers(0, len(text)))
    end = data.draw(st.integers(start, len(text)))
    a, b = widen_to_words(text, start, end)
    assert a <= start <= end <= b
    for edge in (a, b):
        assert edge in (0, len(text)) or not (text[edge - 1] in "ab'" and text[edge] in "ab'")


def test_a_quote_missing_a_word_is_not_cut_mid_word_at_the_region_edge() -> None:
    text = "In the city, the FSO Car Factory was established in 1951. Other firms followed."
    document = Document("warsaw", text)
    cut = text.index("establi") + len("establi")  # a span that ends inside a word
    [found] = FuzzyMatcher(threshold=0.7).find(
        "The FSO Car Factory was in 1951", document, Span(0, cut)
    )
    assert not found.text.endswith("establi")


def test_an_alignment_never_ends_inside_a_word() -> None:
    haystack = "the fso car factory was established in 1951. a number of vehicles were built"
    found = align("the fso car factory was in 1951", haystack)
    assert found is not None
    assert haystack[found.end - 1].isalnum()
    assert not haystack[found.end].isalnum()


def test_a_long_quote_whose_ends_are_quoted_elsewhere_is_still_found_where_it_stands() -> None:
    quote = (
        "the committee found that the regional water authority had failed to maintain the "
        "northern reservoir for more than a decade and recommended that its board be replaced "
        "by an independent trustee"
    )
    real = quote.replace("more than a decade", "over ten years")
    filler = " some unrelated words about other topics fill this part of the report. " * 3
    haystack = f"summary: {quote[:80]}.{filler}{real}.{filler}finally, {quote[-90:]}.{filler}"
    found = align(quote, haystack)
    assert found is not None
    assert haystack[found.start : found.end] == real


# -- the marks at a quote's ends (issue 35: "(EEC)" lost its bracket) --------------------------

_MARKED_WORDS = [
    "the",
    "Council",
    "(EEC)",
    "signed",
    "it.",
    '"Northern',
    'bandits".',
    "(after",
    "a",
    "vote).",
]


@given(st.lists(st.sampled_from(_MARKED_WORDS), min_size=1, max_size=12), st.data())
@settings(max_examples=200, deadline=None)
def test_an_exact_piece_of_a_text_gets_its_own_span_marks_and_all(
    words: list[str], data: st.DataObject
) -> None:
    """Any whole-word piece of a text, with the brackets, quotation marks and full stops at its
    ends, is found by the exact and the fuzzy matcher with a span that is that piece: the marks
    are matched without, then taken where the text has them."""
    text = "Preface. " + " ".join(words) + " Afterword."
    first = data.draw(st.integers(0, len(words) - 1))
    last = data.draw(st.integers(first, len(words) - 1))
    piece = " ".join(words[first : last + 1])
    if not any(ch.isalnum() for ch in piece):
        return
    document = Document("d", text)
    at = len("Preface. ") + len(" ".join(words[:first])) + (1 if first else 0)
    for matcher in (ExactMatcher(), FuzzyMatcher()):
        spans = {(e.start, e.end) for e in matcher.find(piece, document)}
        if isinstance(matcher, ExactMatcher):
            assert (at, at + len(piece)) in spans, (matcher.name, piece, text)
        else:
            assert all(text[a:b].strip() for a, b in spans)


def test_a_quoted_excerpt_ending_in_a_bracket_keeps_it_through_the_verifier() -> None:
    source = {"d": "It was signed by the Council (EEC). Then the end came."}
    for excerpt in ("signed by the Council (EEC)", "signed by the Council (EEC).", "(EEC). Then"):
        (result,) = verify(f'"{excerpt}" [[d]]', source).results
        assert result.status is Status.VERIFIED
        assert result.evidence[0].text == excerpt
