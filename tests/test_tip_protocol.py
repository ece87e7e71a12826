"""The TIP protocol as a mode (``protocol="tip"``, ``--protocol tip``, ``--format tip``).

The first twelve tests are the protocol's own test cases, written out from its document
(seed 000, "Testing"): basic verification, line and line-range locations, an out-of-range
line, a page, a section, an exact quote, a paraphrase by 80 % word overlap, a claim that does
not match, a citation without an excerpt and several citations in one answer, each asserted
in the protocol's shape (``verificationStatus``, ``confidence``, ``excerptVerified``). The
rest hold what the issue found wrong, and the promise the protocol's rule alone cannot keep:
a changed number, negation, quantifier or direction is never ``verified``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import citecheck
from citecheck import ConfigError, Document, Status, Verifier
from citecheck.cli import main
from citecheck.documents.structure import find_inline_times
from citecheck.exports import tip_citation, to_tip

# A context item of 120 lines: the deadline on line 42, a range of lines 10-15, a section, a
# second page (lines 51-100 at 50 lines a page).
_LINES = [f"Filler line {n} of the meeting notes." for n in range(1, 121)]
_LINES[0] = "# Intro"
_LINES[1] = "The team met to plan the spring release of the scheduling product."
_LINES[2] = "# Budget"
_LINES[9] = "Delivery times rose sharply during the winter months."
_LINES[10] = "Customers complained about the delays in their weekly reports."
_LINES[41] = "The project deadline is March 15th, as John Doe confirmed."
_LINES[59] = "We will improve delivery times substantially next quarter."
CONTEXT = {
    "ctx-001": "\n".join(_LINES) + "\n",
    "ctx-002": "Support tickets fell by a third after the new help pages went live.\n",
}


def tip(answer: str, context: dict[str, str] | None = None) -> list[dict[str, Any]]:
    """The answer's citations in TIP's shape, checked by TIP's rules."""
    report = Verifier(protocol="tip").verify(answer, context or CONTEXT)
    data: list[dict[str, Any]] = json.loads(to_tip(report))
    return data


def shape(citation: dict[str, Any]) -> tuple[str, str, bool]:
    return (
        citation["verificationStatus"],
        citation["confidence"],
        citation["excerptVerified"],
    )


VERIFIED = ("verified", "high", True)
FAILED = ("failed", "low", False)
NO_EXCERPT = ("unverified", "medium", False)
NOT_MATCHED = ("unverified", "low", False)


# -- the protocol's twelve test cases ------------------------------------------------------


def test_1_an_existing_item_is_verified() -> None:
    (only,) = tip("Support tickets fell by a third after the new help pages went live [[ctx-002]]")
    assert shape(only) == VERIFIED
    assert only["contextItemId"] == "ctx-002"
    assert only["location"] == "general"


def test_2_a_non_existent_item_fails() -> None:
    (only,) = tip("Support tickets fell by a third [[ctx-404]]")
    assert shape(only) == FAILED
    assert only["status"] == "not_found"


def test_3_a_line_reference() -> None:
    (only,) = tip('"The project deadline is March 15th" [[ctx-001:L42]]')
    assert shape(only) == VERIFIED
    assert only["location"] == "L42"
    assert only["evidence"]["line"] == 42


def test_4_a_line_range() -> None:
    (only,) = tip(
        "Customers complained about the delays in their weekly reports [[ctx-001:L10-15]]"
    )
    assert shape(only) == VERIFIED
    assert only["evidence"]["line"] == 11


def test_5_an_out_of_range_line_fails() -> None:
    (only,) = tip('"The project deadline is March 15th" [[ctx-001:L500]]')
    assert shape(only) == FAILED
    assert "does not exist" in only["reason"]


def test_6_a_page_reference_is_read_as_50_lines_a_page() -> None:
    (only,) = tip('"We will improve delivery times substantially" [[ctx-001:p2]]')
    assert shape(only) == VERIFIED
    assert "approximated as lines 51-100" in only["reason"]


def test_7_a_section_reference() -> None:
    (only,) = tip('"plan the spring release" [[ctx-001:sec-intro]]')
    assert shape(only) == VERIFIED


def test_8_an_exact_quote() -> None:
    (only,) = tip('The notes say "The project deadline is March 15th" [[ctx-001:L42]].')
    assert shape(only) == VERIFIED
    assert only["excerpt"] == "The project deadline is March 15th"
    assert "verbatim" in only["reason"]


def test_9_a_paraphrase_with_80_percent_word_overlap() -> None:
    """The issue's case: a quoted paraphrase whose significant words all stand there, two by
    prefix ("improved" / "improve"), in another order."""
    answer = '"Substantially improved delivery times are expected next quarter" [[ctx-001:L60]]'
    (only,) = tip(answer)
    assert shape(only) == VERIFIED
    assert "word overlap" in only["reason"]


def test_10_a_claim_that_does_not_match_fails_verification() -> None:
    (only,) = tip('"The budget doubled after the spring release" [[ctx-001:L42]]')
    assert shape(only) == NOT_MATCHED


def test_11_a_citation_without_an_explicit_excerpt() -> None:
    (only,) = tip("[[ctx-001:L42]]")
    assert shape(only) == NO_EXCERPT


def test_12_several_citations_in_one_answer() -> None:
    answer = (
        "The project deadline is March 15th [[ctx-001:L42]] and support tickets fell by a "
        "third after the new help pages went live [[ctx-002]]. The budget doubled [[ctx-009]]."
    )
    first, second, third = tip(answer)
    assert shape(first) == VERIFIED
    assert first["excerpt"] == "The project deadline is March 15th"
    assert shape(second) == VERIFIED
    assert second["excerpt"].startswith("and support tickets")  # text after the last marker
    assert shape(third) == FAILED


# -- the findings ------------------------------------------------------------------

SOURCE = {
    "ctx-001": "Quarterly plan.\nWe will improve delivery times substantially next quarter and "
    "reduce support tickets considerably.\nOther things follow here.\n"
}


@pytest.mark.parametrize(
    "answer",
    [
        '"Substantially improved delivery times are expected next quarter" [[ctx-001:L2]]',
        "An improvement of delivery times is expected next quarter [[ctx-001:L2]]",
    ],
)
def test_the_overlap_rule_verifies_what_it_passes_when_the_user_chose_it(answer: str) -> None:
    """Before: ``partial`` 0.47, "the quote has 'substantially improved' where the source has
    'we will improve'", though the rule passes it."""
    (result,) = citecheck.verify(answer, SOURCE, matchers=["exact", "overlap"]).results
    assert result.status is Status.VERIFIED, result.reason


def test_a_moved_word_is_not_reported_as_added() -> None:
    """Before: "the claim adds 'considerably'", which the source has (after "tickets")."""
    claim = (
        "We will improve delivery times substantially next quarter and considerably reduce "
        "support tickets [[ctx-001:L2]]"
    )
    (result,) = citecheck.verify(claim, SOURCE).results
    assert result.status is Status.VERIFIED, result.reason
    (quoted,) = citecheck.verify(claim.replace("We", '"We').replace(" [[", '" [['), SOURCE).results
    assert quoted.status is Status.PARTIAL  # a quotation keeps the source's order
    assert "adds" not in quoted.reason
    assert "puts 'considerably' in another place" in quoted.reason


def test_a_page_past_the_end_of_a_text_without_page_markers_fails() -> None:
    """Before: ``unchecked``. TIP fails a location that does not exist; citecheck's own rules
    keep it unchecked (a text without page markers may hold a book in few long lines), with
    the quote looked for in the whole text."""
    answer = '"We will improve delivery times" [[ctx-001:p3]]'
    (only,) = tip(answer, SOURCE)
    assert shape(only) == FAILED
    assert "past its 3 lines (1 page at that length)" in only["reason"]
    (own,) = citecheck.verify(answer, SOURCE).results
    assert own.status is Status.UNCHECKED
    assert "stands at line 2" in own.reason


TRANSCRIPT = (
    "Weekly sync, transcript\n"
    "0:00 Anna: Welcome everyone.\n"
    "1:40 Ben: The build is green again.\n"
    "[2:10] Anna: We will ship the release on Friday.\n"
    "(3:05) Ben: Then we plan the next sprint.\n"
)


@pytest.mark.parametrize(
    ("locator", "status"),
    [
        ("2:15", Status.VERIFIED),  # inside the segment that starts at 2:10
        ("2:10", Status.VERIFIED),
        ("1:50-2:20", Status.VERIFIED),
        ("0:30", Status.WRONG_LOCATION),  # the segment at 0:00 does not say it
    ],
)
def test_inline_timestamps_in_a_plain_text_transcript(locator: str, status: Status) -> None:
    answer = f'"We will ship the release on Friday" [[talk:{locator}]]'
    (result,) = citecheck.verify(answer, {"talk": TRANSCRIPT}).results
    assert result.status is status, result.reason


def test_a_time_before_the_first_timestamp_does_not_exist() -> None:
    text = "Intro music\n1:00 Host: Hello.\n"
    (result,) = citecheck.verify('"Hello" [[talk:0:30]]', {"talk": text}).results
    assert result.status is Status.NOT_FOUND
    assert "before the first time" in result.reason


def test_inline_times_are_offsets_into_the_text() -> None:
    segments = find_inline_times(TRANSCRIPT)
    assert [s.start_seconds for s in segments] == [0, 100, 130, 185]
    assert [TRANSCRIPT[s.start : s.end] for s in segments][2] == (
        "[2:10] Anna: We will ship the release on Friday."
    )
    assert segments[-1].end_seconds == float("inf")


@given(
    st.lists(
        st.tuples(st.integers(0, 7199), st.text(st.characters(codec="utf-8"), max_size=20)),
        max_size=8,
    )
)
@settings(max_examples=150, deadline=None)
def test_inline_times_cover_their_lines(lines: list[tuple[int, str]]) -> None:
    """Every line that begins with a time is a segment holding exactly that line (and the
    untimed lines after it), whatever the rest of the text."""
    written = []
    for seconds, words in lines:
        minutes, secs = divmod(seconds, 60)
        safe = words.replace("\n", " ").replace("\r", " ")
        written.append(f"{minutes}:{secs:02d} {safe}")
    text = "\n".join(written)
    segments = find_inline_times(text)
    assert [s.start_seconds for s in segments] == [float(s) for s, _ in lines]
    for segment, line in zip(segments, written, strict=True):
        assert text[segment.start : segment.end].rstrip() == line.rstrip()


# -- the promise the rule alone cannot keep --------------------------------------------------

GUARDED = {
    "ctx-001": "Quarterly plan.\nWe will improve delivery times substantially next quarter for "
    "some customers.\nSales rose 12 percent in 2024.\n"
}


@pytest.mark.parametrize(
    "answer",
    [
        '"We will not improve delivery times substantially next quarter for some customers" '
        "[[ctx-001:L2]]",
        "Delivery times will substantially worsen next quarter for some customers [[ctx-001:L2]]",
        "We will improve delivery times substantially next quarter for all customers "
        "[[ctx-001:L2]]",
        '"Sales rose 15 percent in 2024" [[ctx-001:L3]]',
    ],
)
def test_a_change_of_meaning_the_overlap_rule_passes_is_never_verified(answer: str) -> None:
    (only,) = tip(answer, GUARDED)
    assert shape(only) == NOT_MATCHED
    assert only["status"] == "partial"
    assert "change of meaning" in only["reason"]


# -- the mode, its options and its shape ----------------------------------------------------


def test_the_protocol_chooses_the_matchers_unless_they_are_given() -> None:
    assert [m.name for m in Verifier(protocol="tip").matchers] == ["exact", "overlap"]
    assert [m.name for m in Verifier().matchers] == ["exact", "fuzzy"]
    assert [m.name for m in Verifier(["exact"], protocol="tip").matchers] == ["exact"]
    assert Verifier.from_config({"protocol": "tip"}).protocol == "tip"
    with pytest.raises(ConfigError, match="protocol must be one of citecheck, tip"):
        Verifier(protocol="tezit")  # type: ignore[arg-type]


def test_every_status_has_a_tip_shape() -> None:
    document = Document("d", "The sky is blue today.")
    for status in Status:
        citation = citecheck.Citation("d", excerpt="The sky is blue")
        result = citecheck.Result(citation, status, 0.5, (), "why")
        data = tip_citation(result)
        assert data["verificationStatus"] in ("verified", "unverified", "failed")
        assert data["confidence"] in ("high", "medium", "low")
        assert data["excerptVerified"] is (status is Status.VERIFIED)
        assert (data["verificationStatus"] == "failed") is (status is Status.NOT_FOUND)
    assert document.id == "d"


def test_the_tip_format_by_name_and_by_compound_suffix(tmp_path: Path) -> None:
    report = Verifier(protocol="tip").verify('"The project deadline" [[ctx-001:L42]]', CONTEXT)
    report.save(tmp_path / "answer.tip.json")
    (written,) = json.loads((tmp_path / "answer.tip.json").read_text(encoding="utf-8"))
    assert set(written) >= {
        "contextItemId",
        "location",
        "excerpt",
        "claim",
        "confidence",
        "verificationStatus",
        "excerptVerified",
    }
    report.save(tmp_path / "plain.json")  # .json alone stays citecheck's own JSON
    assert "results" in json.loads((tmp_path / "plain.json").read_text(encoding="utf-8"))
    assert citecheck.exports.format_for("x.json", "tip") == "tip"


def test_the_command_line_protocol_tip(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    Path("ctx-001.md").write_text(SOURCE["ctx-001"], encoding="utf-8")
    Path("answer.md").write_text(
        '"Substantially improved delivery times are expected next quarter" [[ctx-001:L2]] '
        "and more [[ctx-002]].\n",
        encoding="utf-8",
    )
    code = main(["verify", "answer.md", "ctx-001.md", "--protocol", "tip"])
    first, second = json.loads(capsys.readouterr().out)
    assert code == 1
    assert shape(first) == VERIFIED
    assert shape(second) == FAILED
    assert main(["verify", "answer.md", "ctx-001.md", "--protocol", "tip", "--json"]) == 1
    assert "results" in json.loads(capsys.readouterr().out)  # --json: citecheck's own shape


@pytest.mark.parametrize(
    ("source", "claim"),
    [
        (
            "Farms in the district switched to wheat after the drought, as almost all did.",
            "Farms in the district all switched to wheat after the drought [[d]].",
        ),
        (
            "Prices in the region rose after the storm and then fell sharply.",
            "Prices in the region sharply rose after the storm [[d]].",
        ),
        (
            "The committee approved the plan in March; it always meets on Tuesdays.",
            "The committee always approved the plan in March [[d]].",
        ),
    ],
)
def test_a_word_added_to_a_claim_is_moved_only_from_right_beside_the_passage(
    source: str, claim: str
) -> None:
    """ "considerably" standing right after the passage was moved; "all", "sharply" or "always"
    a few words away (or a quantifier anywhere) is a word the claim adds."""
    (result,) = citecheck.verify(claim, {"d": source}).results
    assert result.status is Status.PARTIAL
    assert "adds" in result.reason
