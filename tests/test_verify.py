from __future__ import annotations

import copy
from collections.abc import Sequence

import pytest

import citecheck
from citecheck import (
    BackendError,
    Citation,
    ConfigError,
    Document,
    Evidence,
    InputError,
    SourceError,
    Span,
    Status,
    UnknownBackendError,
    Verifier,
    verify,
)

MINUTES = (
    "Attendance was full.\n"
    "The committee approved the new budget on Tuesday.\n"
    "The meeting ended at noon.\n"
    "The treasurer did not object to the 12 % increase.\n"
)
PAPER = Document.from_pages(
    "paper",
    [
        "Methods were standard.",
        "We recruited 40 patients in 2019. Recovery was not faster with the drug.",
        "The drug reduced pain in most patients.",
    ],
    first_page=12,
)
SOURCES = {"minutes": MINUTES, "paper": PAPER}


def only(report: citecheck.Report) -> citecheck.Result:
    assert len(report.results) == 1, report.to_text()
    return report.results[0]


def test_excerpt_at_the_cited_line_is_verified_with_high_confidence() -> None:
    result = only(verify('"the committee approved the new budget" [[minutes:L2]]', SOURCES))
    assert result.status is Status.VERIFIED
    assert result.excerpt_verified
    assert result.confidence_label == "high"
    assert result.confidence == 1.0
    evidence = result.evidence[0]
    assert MINUTES[evidence.start : evidence.end] == "The committee approved the new budget"
    assert (evidence.source_id, evidence.line, evidence.method) == ("minutes", 2, "exact")


def test_noisy_excerpt_is_verified_by_the_fuzzy_matcher() -> None:
    result = only(
        verify('"The comittee aproved the new budget on tuesday" [[minutes:L2]]', SOURCES)
    )
    assert result.status is Status.VERIFIED
    assert result.evidence[0].method == "fuzzy"
    assert 0.8 <= result.evidence[0].score < 1.0


def test_excerpt_elsewhere_in_the_source_is_wrong_location_with_the_page() -> None:
    result = only(verify('"The drug reduced pain in most patients" [[paper:p12]]', SOURCES))
    assert result.status is Status.WRONG_LOCATION
    assert result.confidence_label == "low"
    assert result.evidence[0].page == 14
    assert "found on p. 14, cited p. 12" in result.reason


def test_excerpt_in_another_source_is_wrong_location_naming_it() -> None:
    result = only(verify('"The meeting ended at noon" [[paper]]', SOURCES))
    assert result.status is Status.WRONG_LOCATION
    assert result.evidence[0].source_id == "minutes"
    assert "'minutes'" in result.reason
    assert "cited 'paper'" in result.reason


def test_fabricated_excerpt_is_unsupported() -> None:
    result = only(verify('"The committee rejected every proposal" [[minutes:L2]]', SOURCES))
    assert result.status is Status.UNSUPPORTED
    assert result.evidence == ()
    assert "line 2" in result.reason


def test_phantom_source_and_missing_location_are_not_found() -> None:
    report = verify("A fact [[ghost:L1]]. Another [[minutes:L900]]. Third [[paper:p3]].", SOURCES)
    assert [r.status for r in report.results] == [Status.NOT_FOUND] * 3
    assert all(r.confidence_label == "failed" and r.confidence == 0 for r in report.results)
    assert "'ghost'" in report.results[0].reason
    assert "line 900" in report.results[1].reason
    assert "p. 3" in report.results[2].reason


def test_a_location_that_cannot_be_read_is_never_a_phantom() -> None:
    result = only(verify('"The meeting ended at noon" [[minutes:banana]].', SOURCES))
    assert result.status is Status.UNCHECKED
    assert "'banana'" in result.reason
    assert result.evidence[0].line == 3
    missing = only(verify('"Nothing like this was said" [@minutes, chap. 3].', SOURCES))
    assert missing.status is Status.UNSUPPORTED
    assert "'chap. 3'" in missing.reason


def test_a_page_of_an_unpaged_source_cannot_be_checked() -> None:
    result = only(verify('"The meeting ended at noon" [[minutes:p4]].', SOURCES))
    assert result.status is Status.UNCHECKED
    assert "no page numbers" in result.reason


def test_nothing_to_check_is_unchecked_with_medium_confidence() -> None:
    result = only(verify("[[minutes:L2]]", SOURCES))
    assert result.status is Status.UNCHECKED
    assert result.confidence_label == "medium"
    assert not result.excerpt_verified


def test_claim_without_location_searches_the_whole_source() -> None:
    result = only(verify("The meeting ended at noon [[minutes]].", SOURCES))
    assert result.status is Status.VERIFIED
    assert result.evidence[0].line == 3


@pytest.mark.parametrize(
    ("quote", "difference"),
    [
        ("The treasurer did object to the 12 % increase", "'not'"),
        ("The treasurer did not object to the 15 % increase", "15"),
        ("Recovery was faster with the drug", "'not'"),
        ("We recruited 400 patients in 2019", "400"),
    ],
)
def test_a_change_of_meaning_is_partial_never_verified(quote: str, difference: str) -> None:
    result = only(
        verify(f'"{quote}" [[{"minutes" if "treasurer" in quote else "paper"}]]', SOURCES)
    )
    assert result.status is Status.PARTIAL
    assert difference in result.reason
    assert result.evidence


def test_an_added_negation_is_partial() -> None:
    result = only(verify('"The meeting never ended at noon" [[minutes:L3]]', SOURCES))
    assert result.status is Status.PARTIAL
    assert "'never'" in result.reason


def test_ellipsis_quote_matches_fragments_in_order() -> None:
    result = only(
        verify('"We recruited 40 patients … Recovery was not faster" [[paper:p13]]', SOURCES)
    )
    assert result.status is Status.VERIFIED
    evidence = result.evidence[0]
    assert evidence.text.startswith("We recruited 40 patients")
    assert evidence.text.endswith("Recovery was not faster")


def test_an_ellipsis_that_elides_a_negation_is_partial() -> None:
    result = only(verify('"Recovery was [...] faster with the drug" [[paper:p13]]', SOURCES))
    assert result.status is Status.PARTIAL
    assert "leaves out 'not'" in result.reason


def test_ellipsis_fragments_out_of_order_are_not_verified() -> None:
    result = only(
        verify('"Recovery was not faster ... We recruited 40 patients" [[paper:p13]]', SOURCES)
    )
    assert result.status is not Status.VERIFIED


def test_ellipsis_gap_is_bounded() -> None:
    doc = {"d": "Alpha begins here. " + "filler words " * 50 + "Omega ends there."}
    quote = '"Alpha begins here ... Omega ends there" [[d]]'
    assert only(verify(quote, doc)).status is Status.VERIFIED
    assert only(verify(quote, doc, ellipsis_max_gap=100)).status is not Status.VERIFIED


def test_sections_and_transcripts_are_checked_at_their_location() -> None:
    sources = {
        "notes": Document.from_markdown(
            "notes", "# Introduction\nWe study bees.\n# Methods\nWe counted bees.\n"
        ),
        "talk": Document.from_transcript(
            "talk", [(0, 60, "Hello all."), (60, 180, "Bees are declining.")]
        ),
    }
    report = verify(
        '"We counted bees" [[notes:sec-methods]] "Bees are declining" [[talk:2:15]] '
        '"We study bees" [[notes:sec-methods]]',
        sources,
    )
    assert [r.status for r in report.results] == [
        Status.VERIFIED,
        Status.VERIFIED,
        Status.WRONG_LOCATION,
    ]
    assert report.results[2].evidence[0].section == "Introduction"


def test_numeric_citations_map_by_order_or_by_mapping() -> None:
    text = '"The meeting ended at noon" [1]. "The drug reduced pain in most patients" [2].'
    assert verify(text, SOURCES).passed
    remapped = verify(text, SOURCES, numeric_sources={"1": "paper", "2": "minutes"})
    assert [r.status for r in remapped.results] == [Status.WRONG_LOCATION] * 2
    missing = only(verify('"x y z" [7]', SOURCES))
    assert missing.status is Status.NOT_FOUND


def test_pandoc_citation_with_page_locator() -> None:
    result = only(
        verify('As shown, "The drug reduced pain in most patients" [@paper, p. 14].', SOURCES)
    )
    assert result.status is Status.VERIFIED
    assert result.evidence[0].page == 14


def test_report_pass_policy_summary_and_json() -> None:
    text = '"The meeting ended at noon" [[minutes:L3]] "Nothing like this" [[minutes:L3]]'
    report = verify(text, SOURCES)
    assert not report.passed
    summary = report.summary()
    assert summary["total"] == 2
    assert summary["counts"]["verified"] == 1
    assert summary["counts"]["unsupported"] == 1
    assert summary["pass_rate"] == 0.5
    assert 0 < summary["mean_confidence"] < 1
    data = report.to_dict()
    assert data["results"][0]["status"] == "verified"
    assert data["results"][0]["evidence"][0]["line"] == 3
    assert '"passed": false' in report.to_json()
    lenient = verify(text, SOURCES, accept={"verified", "unsupported"})
    assert lenient.passed


def test_empty_text_passes_unless_citations_are_required() -> None:
    assert verify("", SOURCES).passed
    assert verify("No citations here.", SOURCES).passed
    strict = verify("No citations here.", SOURCES, require_citations=True)
    assert not strict.passed
    assert any("no citations" in w for w in strict.warnings)


def test_malformed_markers_become_warnings_not_crashes() -> None:
    report = verify("A claim [[minutes:L2 that never closes. Fine [[minutes:L3]].", SOURCES)
    assert report.warnings
    assert all(r.citation.source_id == "minutes" for r in report.results)


def test_bad_input_raises_citecheck_errors() -> None:
    with pytest.raises(InputError):
        verify(b"bytes", SOURCES)  # type: ignore[arg-type]
    with pytest.raises(SourceError):
        verify("x", {"a": 3})  # type: ignore[dict-item]
    with pytest.raises(SourceError):
        verify("x", [Document("a", "1"), Document("a", "2")])
    with pytest.raises(UnknownBackendError, match="exact, fuzzy"):
        Verifier(matchers=("nope",))
    with pytest.raises(ConfigError):
        Verifier(accept=["great"])
    with pytest.raises(ConfigError):
        Verifier(matchers=(object(),))  # type: ignore[arg-type]


def test_nothing_the_caller_passed_is_mutated() -> None:
    sources = {"minutes": MINUTES, "paper": PAPER}
    before = copy.deepcopy({"minutes": MINUTES})
    text = '"The meeting ended at noon" [[minutes:L3]]'
    verify(text, sources)
    assert sources["minutes"] == before["minutes"]
    assert sources["paper"] is PAPER
    assert list(sources) == ["minutes", "paper"]


class ExplodingMatcher:
    name = "exploding"

    def find(
        self, query: str, document: Document, within: Span | None = None
    ) -> Sequence[Evidence]:
        raise BackendError("service unavailable")


def test_a_backend_failure_is_unchecked_never_not_found() -> None:
    report = Verifier(matchers=(ExplodingMatcher(),)).verify(
        '"The meeting ended at noon" [[minutes:L3]] "x y" [[ghost]]', SOURCES
    )
    assert report.results[0].status is Status.UNCHECKED
    assert "service unavailable" in report.results[0].reason
    assert report.results[1].status is Status.NOT_FOUND


def test_locate_finds_a_quote_anywhere_best_first() -> None:
    found = citecheck.locate("the drug reduced pain in most patients", SOURCES)
    assert found[0].source_id == "paper"
    assert found[0].page == 14
    assert citecheck.locate("nowhere to be seen at all", SOURCES) == []


def test_extract_returns_citations_in_order() -> None:
    citations = citecheck.extract('One [[a:L1]], "two" [@b, p. 3] and [1].')
    assert [(c.source_id, c.locator) for c in citations] == [
        ("a", "L1"),
        ("b", "p. 3"),
        ("1", None),
    ]
    assert citations[1].excerpt == "two"


def test_huge_documents_are_processed_whole() -> None:
    filler = "Lorem ipsum dolor sit amet. " * 200_000  # about 5.6 MB
    text = filler + "The needle sentence stands at the very end."
    result = only(verify('"The needle sentence stands at the very end" [[hay]]', {"hay": text}))
    assert result.status is Status.VERIFIED
    assert result.evidence[0].start == len(filler)


FERRY = {"n": "Timetable.\nThe ferry runs daily between the two islands.\n"}


def test_a_quote_with_a_changed_word_is_partial() -> None:
    result = only(verify('"The ferry runs weekly between the two islands" [[n]]', FERRY))
    assert result.status is Status.PARTIAL
    assert "'weekly' where the source has 'daily'" in result.reason


def test_a_quote_that_drops_a_word_is_partial() -> None:
    result = only(verify('"The ferry runs between the two islands" [[n]]', FERRY))
    assert result.status is Status.PARTIAL
    assert "leaves out 'daily'" in result.reason


def test_misspellings_in_a_quote_are_noise_not_a_change() -> None:
    result = only(verify('"The ferry runs daly between the two islnds" [[n]]', FERRY))
    assert result.status is Status.VERIFIED


def test_a_claim_may_leave_out_words_a_quote_may_not() -> None:
    result = only(verify("The ferry runs between the two islands [[n]].", FERRY))
    assert result.status is Status.VERIFIED


def test_a_claim_with_a_changed_word_is_partial() -> None:
    sources = {"a": "Adverse events were rare in the first year."}
    result = only(verify("Adverse events were common in the first year [[a]].", sources))
    assert result.status is Status.PARTIAL
    assert "'common' where the source has 'rare'" in result.reason


def test_evidence_never_cuts_a_word_and_so_never_hides_a_negation() -> None:
    sources = {"paper": "Intro.\nIt did not reduce mortality in the first year.\n"}
    result = only(verify("It did reduce mortality in the first year [[paper:L2]].", sources))
    assert result.status is Status.PARTIAL
    assert result.evidence[0].text.startswith("It did not")


def test_invalid_verifier_options_are_config_errors() -> None:
    with pytest.raises(ConfigError):
        Verifier(threshold=0)
    with pytest.raises(ConfigError):
        Verifier(min_claim_words=-1)
    with pytest.raises(ConfigError):
        Verifier(ellipsis_max_gap=-5)


@pytest.mark.parametrize(
    ("claim", "source"),
    [
        ("Recovery is likely within a week", "Recovery is unlikely within a week."),
        ("Costs decreased in the second year", "Costs increased in the second year."),
        ("The effect was significant in adults", "The effect was insignificant in adults."),
    ],
)
def test_a_word_turned_into_its_opposite_is_never_a_slip(claim: str, source: str) -> None:
    result = only(verify(f'"{claim}" [[s]]', {"s": source}))
    assert result.status is Status.PARTIAL


def test_a_claim_may_reorder_its_words() -> None:
    result = only(verify("On Tuesday the committee approved the new budget [[m:L2]].", MEETING))
    assert result.status is Status.VERIFIED


def test_a_passage_overlapping_the_cited_line_is_not_a_wrong_location() -> None:
    result = only(verify("The committee approved, on Tuesday, the new budget [[m:L2]].", MEETING))
    assert result.status is not Status.WRONG_LOCATION
    assert result.evidence[0].line == 2


def test_a_quote_never_starts_inside_a_contracted_word() -> None:
    result = only(
        verify('"t approve the new budget" [[s]]', {"s": "They didn't approve the new budget."})
    )
    assert result.status is not Status.VERIFIED or result.evidence[0].method != "exact"


def test_words_just_outside_the_matched_passage_are_not_added() -> None:
    sources = {"s": "Intro.\nSide effects were rare in the treated group of patients.\n"}
    result = only(verify('"Side effects were rare in the treated group" [[s:L2]]', sources))
    assert result.status is Status.VERIFIED


MEETING = {"m": "Attendance was full.\nThe committee approved the new budget on Tuesday.\nEnd.\n"}


@pytest.mark.parametrize(
    ("quote", "source"),
    [
        ("Es gab einen Grund dafür", "Es gab keinen Grund dafür."),
        ("He was ever late for work", "He was never late for work."),
    ],
)
def test_a_dropped_negation_is_never_taken_for_a_slip(quote: str, source: str) -> None:
    assert only(verify(f'"{quote}" [[s]]', {"s": source})).status is Status.PARTIAL


def test_an_ocr_slip_in_a_negation_is_a_slip() -> None:
    result = only(
        verify('"Das war nlcht der Fall im Jahr" [[s]]', {"s": "Das war nicht der Fall im Jahr."})
    )
    assert result.status is Status.VERIFIED


def test_a_negation_said_twice_and_quoted_once_is_partial() -> None:
    source = {"s": "Wenn P nicht gleich NP ist, dann ist auch P nicht gleich PSPACE."}
    quote = '"Wenn P nicht gleich NP ist, dann ist auch P gleich PSPACE" [[s]]'
    assert only(verify(quote, source)).status is Status.PARTIAL


@pytest.mark.parametrize(
    ("quote", "source"),
    [
        ("hypotension was common in the group", "Hypertension was common in the group."),
        ("troops entered Iraq in the spring", "Troops entered Iran in the spring."),
        ("they met on Tuesday at noon again", "They met on Thursday at noon again."),
        ("prices rose from 20 to 10 dollars", "Prices rose from 10 to 20 dollars."),
        ("the drug is safe but not effective", "The drug is not safe but effective."),
        ("the lake dropped to 5 degrees", "The lake dropped to -5 degrees."),
        ("it was 15 times larger than before", "It was 1,5 times larger than before."),
    ],
)
def test_another_real_word_or_number_order_is_a_change(quote: str, source: str) -> None:
    assert only(verify(f'"{quote}" [[s]]', {"s": source})).status is Status.PARTIAL


def test_a_source_with_carriage_returns_does_not_crash() -> None:
    sources = {"d": "Title\r\r\r\r\r\n# Methods\r\nThe sky is blue today.\r\n"}
    result = only(verify('"The sky is blue today" [[d]]', sources))
    assert result.status is Status.VERIFIED
    assert result.evidence[0].section == "Methods"


def test_a_failing_plug_in_is_unchecked_and_the_batch_goes_on() -> None:
    class Broken:
        name = "broken"

        def find(
            self, query: str, document: Document, within: Span | None = None
        ) -> list[Evidence]:
            raise RuntimeError("boom")

    report = Verifier(matchers=(Broken(),)).verify('"a b c" [[minutes]] "d e f" [[paper]]', SOURCES)
    assert [r.status for r in report.results] == [Status.UNCHECKED] * 2
    assert "RuntimeError" in report.results[0].reason


def test_unhashable_matcher_objects_are_accepted() -> None:
    from dataclasses import dataclass

    from citecheck.matchers import ExactMatcher

    @dataclass
    class Plain:
        name: str = "plain"

        def find(
            self, query: str, document: Document, within: Span | None = None
        ) -> list[Evidence]:
            return ExactMatcher().find(query, document, within)

    assert (
        Verifier(matchers=(Plain(),))
        .verify('"The meeting ended at noon" [[minutes]]', SOURCES)
        .passed
    )


def test_bad_values_are_citecheck_errors() -> None:
    from citecheck import Location, LocationError

    with pytest.raises(LocationError):
        Location("lines", 1.5)  # type: ignore[arg-type]
    with pytest.raises(LocationError):
        Location("section", name=3)  # type: ignore[arg-type]
    with pytest.raises(InputError):
        citecheck.locate(None, SOURCES)  # type: ignore[arg-type]
    with pytest.raises(ConfigError):
        Verifier(threshold="0.8")  # type: ignore[arg-type]
    with pytest.raises(InputError):
        Evidence("d", 0, 1, "x", 1.5, "exact")


def test_a_garbled_quote_is_found_in_another_small_source() -> None:
    """Most words misspelt (as after OCR): no word votes for a place, yet a small source that
    holds the passage is still aligned whole, so the quote is not called fabricated."""
    filler = "Lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod tempor. " * 20
    passage = (
        "Municipal pension reserves increased substantially following legislative reforms "
        "enacted during eighteen ninety"
    )
    garbled = (
        "Munieipal pencion resecves incrcased substactially follcwing legiscative refcrms "
        "enaeted durcng eighceen nincty"
    )
    sources = {"a": Document("a", filler), "b": Document("b", f"{filler}{passage}. {filler}")}
    result = Verifier().check(Citation(source_id="a", excerpt=garbled), sources)
    assert result.status is Status.WRONG_LOCATION
    assert result.evidence[0].source_id == "b"


def test_no_marker_of_a_draft_is_skipped_in_silence() -> None:
    # Issue 15: a draft with nine markers gave six results and no warning.
    paper = Document.from_pages(
        "smith2020",
        ["Methods.", "Water boils at 100 degrees at sea level."],
        first_page=11,
        metadata={"author": "Smith, J.", "year": 2020},
    )
    draft = (
        'Water "boils at 100 degrees" (Smith, 2020, p. 12). '
        'Smith (2020, p. 12) wrote that "water boils at 100 degrees". '
        '"Water boils at 100 degrees" [1, p. 12]. '
        "@smith2020 says that water boils at 100 degrees at sea level. "
        '"At sea level" [[smith2020:p12]]. "At sea level" [@smith2020, p. 12]. '
        '"Boils" [1]. Odd [1, x] and [Smith 2020] and @nobody.'
    )
    report = verify(draft, [paper])
    assert [r.citation.syntax for r in report.results] == [
        "author_year",
        "author_year",
        "numeric",
        "pandoc",
        "tip",
        "pandoc",
        "numeric",
    ]
    assert all(r.status is Status.VERIFIED for r in report.results), report.to_text()
    unread = [w for w in report.warnings if "no syntax read it" in w]
    assert [w.split(" at characters")[0] for w in unread] == [
        "'[1, x]'",
        "'[Smith 2020]'",
        "'@nobody'",
    ]


@pytest.mark.parametrize(
    "changed",
    [
        "score was not Planet of Giants (1964)",  # a negation added before the inner year
        "score was Planet of Giants (1965)",  # a number changed before it
    ],
)
def test_a_quotation_holding_a_name_and_a_year_is_checked_whole(changed: str) -> None:
    """``Giants (1964)`` and ``Nimon (1979)`` read as author–year citations; inside the
    quotation that ``[[tv]]`` cites, they are quoted text, so the change before them is seen."""
    source = (
        "Simpson's first score was Planet of Giants (1964) and he went on to write music, "
        "ending with The Horns of Nimon (1979). He also made a cameo appearance."
    )
    quote = source.replace("score was Planet of Giants (1964)", changed)
    report = verify(f'The notes say "{quote}" [[tv]]', {"tv": source})
    (result,) = report.results
    assert result.citation.excerpt == quote
    assert result.status is Status.PARTIAL, result.reason
    assert any("stands inside the quotation" in warning for warning in report.warnings)


def test_a_claim_that_turns_a_word_into_its_opposite_is_never_verified() -> None:
    """The opposite word standing later in the source ("fell in April") is no licence to say
    "fell" where the cited passage says "rose"."""
    source = "Prices rose by 2.5 percent in March and fell in April."
    result = citecheck.verify("Prices fell by 2.5 percent in March [[doc]].", {"doc": source})
    (only,) = result.results
    assert only.status is Status.PARTIAL
    assert "'fell' where the source has 'rose'" in only.reason
