"""The contract every :class:`~citecheck.protocols.Matcher` keeps, as a pytest suite."""

from __future__ import annotations

import pytest

from citecheck.documents import Document
from citecheck.model import Evidence, Span
from citecheck.protocols import Matcher

_TEXT = (
    "Citations need checking.\n"
    "The committee approved the \u201cnew budget\u201d on Tuesday after a long debate.\n"
    "Nothing else was decided at the meeting, which ended at noon.\n"
)
_QUOTE = 'The committee approved the "new budget" on Tuesday after a long debate'


class MatcherConformance:
    """Behaviour any matcher must show. Provide a ``matcher`` fixture in a subclass."""

    @pytest.fixture
    def matcher(self) -> Matcher:
        raise NotImplementedError("provide a `matcher` fixture")

    @pytest.fixture
    def document(self) -> Document:
        return Document("minutes", _TEXT)

    def test_is_a_matcher_with_a_name(self, matcher: Matcher) -> None:
        assert isinstance(matcher, Matcher)
        assert isinstance(matcher.name, str)
        assert matcher.name

    def test_finds_text_that_stands_in_the_document(
        self, matcher: Matcher, document: Document
    ) -> None:
        hits = matcher.find(_QUOTE, document)
        assert hits, "a verbatim sentence must be found"
        assert "committee approved" in hits[0].text

    def test_evidence_offsets_index_the_original_text(
        self, matcher: Matcher, document: Document
    ) -> None:
        for hit in matcher.find(_QUOTE, document):
            assert isinstance(hit, Evidence)
            assert hit.source_id == document.id
            assert document.text[hit.start : hit.end] == hit.text
            assert 0.0 <= hit.score <= 1.0

    def test_absorbs_case_whitespace_and_typographic_quotes(
        self, matcher: Matcher, document: Document
    ) -> None:
        noisy = 'the  COMMITTEE approved\nthe "new budget" on Tuesday after a long debate'
        hits = matcher.find(noisy, document)
        assert hits
        assert hits[0].line == 2

    def test_stays_inside_the_given_span(self, matcher: Matcher, document: Document) -> None:
        line_one = document.resolve("L1")
        assert not matcher.find(_QUOTE, document, line_one)
        line_two = document.resolve("L2")
        for hit in matcher.find(_QUOTE, document, line_two):
            assert line_two.start <= hit.start <= hit.end <= line_two.end

    def test_text_that_is_not_there_is_not_found(
        self, matcher: Matcher, document: Document
    ) -> None:
        assert not matcher.find("The board rejected every proposal about the harbour", document)

    def test_empty_query_finds_nothing(self, matcher: Matcher, document: Document) -> None:
        assert not matcher.find("", document)
        assert not matcher.find("   ", document)

    def test_results_are_best_first(self, matcher: Matcher) -> None:
        doc = Document("d", "alpha beta gamma delta epsilon. alpha beta gamma delta epsilon zeta.")
        scores = [hit.score for hit in matcher.find("alpha beta gamma delta epsilon", doc)]
        assert scores == sorted(scores, reverse=True)

    def test_does_not_change_the_document(self, matcher: Matcher, document: Document) -> None:
        before = (document.id, document.text, dict(document.metadata))
        matcher.find(_QUOTE, document, Span(0, len(document.text)))
        assert (document.id, document.text, dict(document.metadata)) == before
