"""The same quote gets the same verdict through every front door.

A quotation checked with a marker (``verify``), located without one (``locate``,
``verify_quotes``) or quoted after a structured reference (``verify_references``) must come
out with the same status, the same confidence and the same evidence span: one verdict policy
(:mod:`citecheck.judging.verdict`), whichever door it came through. Where a door has no cited place
(the quotes job), a quote standing in another source is simply found there, so its expected status
is the one of a marker citing that source.
"""

from __future__ import annotations

import json

import pytest

import citecheck
from citecheck.model import Result, Status
from citecheck.references import ReferenceVerifier

A = (
    "The committee met on 3 May 1998 in Leiden. It did not approve the new road after a long "
    "debate. Members agreed that the harbour should be dredged every year."
)
B = "The river floods in spring. Nobody expected the bridge to survive 42 winters."
SOURCES = {"a": A, "b": B}
VERSES = {"Bala 1.5": A, "Bala 1.6": B}  # the same texts as two verses of one sarga
VERSE_OF = {"a": "Bala 1.5", "b": "Bala 1.6"}

CASES = {
    # name: (quote, status when cited at 'a', status when located anywhere)
    "verbatim": (
        "Members agreed that the harbour should be dredged every year",
        Status.VERIFIED,
        Status.VERIFIED,
    ),
    "noisy": (
        "members  agreed that the Harbour should be dreged every year",
        Status.VERIFIED,
        Status.VERIFIED,
    ),
    "negation dropped": (
        "It did approve the new road after a long debate",
        Status.PARTIAL,
        Status.PARTIAL,
    ),
    "number changed": (
        "The committee met on 3 May 1999 in Leiden",
        Status.PARTIAL,
        Status.PARTIAL,
    ),
    "elsewhere": (
        "Nobody expected the bridge to survive 42 winters",
        Status.WRONG_LOCATION,
        Status.VERIFIED,
    ),
    "absent": (
        "The orchestra played until dawn in the empty square",
        Status.UNSUPPORTED,
        Status.UNSUPPORTED,
    ),
}


def through_verify(quote: str, source: str = "a") -> Result:
    (result,) = citecheck.verify(f'"{quote}" [[{source}]]', SOURCES).results
    return result


def through_references(quote: str, source: str = "a") -> Result:
    verifier = ReferenceVerifier("valmiki_ramayana", {"Bala": [10]}, texts=VERSES)
    (result,) = verifier.verify(f'"{quote}" [{VERSE_OF[source]}]').results
    return result


def through_quotes(quote: str) -> Result:
    pytest.importorskip("bm25s")  # the quotes door needs the bm25 extra
    (result,) = citecheck.verify_quotes([quote], SOURCES).results
    return result


def span(result: Result) -> tuple[str, int, int] | None:
    if not result.evidence:
        return None
    best = result.evidence[0]
    return best.source_id, best.start, best.end


@pytest.mark.parametrize("name", CASES)
def test_a_cited_quote_gets_one_verdict_through_every_door(name: str) -> None:
    quote, cited_status, _ = CASES[name]
    by_marker = through_verify(quote)
    by_reference = through_references(quote)
    assert by_marker.status is cited_status, by_marker.reason
    assert by_reference.status is cited_status, by_reference.reason
    assert by_reference.confidence == by_marker.confidence
    evidence = span(by_reference)
    expected = span(by_marker)
    if evidence is not None and expected is not None:  # verses are named by their reference
        assert evidence[1:] == expected[1:]


@pytest.mark.parametrize("name", CASES)
def test_a_located_quote_gets_the_verdict_of_a_marker_citing_where_it_stands(name: str) -> None:
    quote, _, located_status = CASES[name]
    by_quotes = through_quotes(quote)
    assert by_quotes.status is located_status, by_quotes.reason
    found = citecheck.locate(quote, SOURCES)
    if located_status is Status.UNSUPPORTED:
        assert found == []
        assert by_quotes.confidence == through_verify(quote).confidence
        return
    best = found[0]
    assert span(by_quotes) == (best.source_id, best.start, best.end)
    by_marker = through_verify(quote, best.source_id)
    assert by_marker.status is located_status
    assert by_quotes.confidence == by_marker.confidence
    assert span(by_marker) == span(by_quotes)


@pytest.mark.parametrize("name", CASES)
def test_every_door_returns_the_one_report(name: str) -> None:
    quote = CASES[name][0]
    pytest.importorskip("bm25s")  # the quotes door needs the bm25 extra
    reports = [
        citecheck.verify(f'"{quote}" [[a]]', SOURCES),
        citecheck.verify_quotes([quote], SOURCES),
        citecheck.verify_references(f'"{quote}" [Bala 1.5]', against={"Bala": [10]}, texts=VERSES),
    ]
    keys = {frozenset(report.summary()) for report in reports}
    assert all(isinstance(report, citecheck.Report) for report in reports)
    assert len(keys) == 1
    for report in reports:
        assert report.passed == (report.outcome == "PASS")
        assert report.to_dict()["outcome"] == report.outcome


@pytest.mark.parametrize("name", CASES)
def test_a_result_read_back_from_its_json_is_the_same_result(name: str) -> None:
    quote = CASES[name][0]
    report = citecheck.verify(f'"{quote}" [[a:L1]] and [[b:p9]] "x y z" [[ghost]]', SOURCES)
    for result in report.results:
        again = Result.from_dict(json.loads(json.dumps(result.to_dict())))
        assert again.to_dict() == result.to_dict()
        assert again.status is result.status
        assert again.evidence == result.evidence


def test_every_door_s_report_pickles_and_copies() -> None:
    """Reports travel between processes (multiprocessing, caches): their read-only mappings
    are pickled as plain dicts and made read-only again."""
    import copy
    import pickle

    reports = [
        citecheck.verify('"Nobody expected the bridge" [[b]] and [[ghost]]', SOURCES),
        citecheck.verify_references('"x" [Bala 1.5] [Bala 1.99]', against={"Bala": [10]}),
        citecheck.evaluate_dataset(
            [{"id": "q", "answer": "[Bala 1.1]", "template": "T1"}], against={"Bala": [10]}
        ),
    ]
    for report in reports:
        for again in (pickle.loads(pickle.dumps(report)), copy.deepcopy(report)):
            assert type(again) is type(report)
            assert again.to_dict() == report.to_dict()
