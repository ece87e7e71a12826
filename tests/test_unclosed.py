"""A comment or a code fence that is never closed hides no citation, at any door that reads
citations, and the report says where it stands (issue 31)."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

import citecheck
from citecheck.cli import main
from citecheck.papers import PaperLibrary
from citecheck.references import ReferenceVerifier
from citecheck.syntax.scan import code_regions

SOURCES = {"s": "We approved the budget twice in March.\nThe second line."}
AFTER = 'Noted. The minutes say "approved the budget twice" [[s:L1]] and [[nosuch:L9]].'
OPENINGS = {
    "comment": "Intro <!-- draft note\n",
    "fence": "Intro\n```python\nx = 1\n",
    "tilde fence": "Intro\n~~~~\n",
}


@pytest.mark.parametrize("opening", OPENINGS.values(), ids=OPENINGS.keys())
def test_verify_reads_the_citations_after_an_unclosed_region(opening: str) -> None:
    report = citecheck.verify(opening + AFTER, SOURCES)
    assert [r.status.value for r in report.results] == ["verified", "not_found"]
    assert report.outcome == "FAIL"
    [warning] = [w for w in report.warnings if "never closed" in w]
    assert "at characters 6-" in warning


def test_the_command_line_fails_and_says_why(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    answer = tmp_path / "answer.md"
    answer.write_text(OPENINGS["comment"] + AFTER, encoding="utf-8")
    source = tmp_path / "s.txt"
    source.write_text(SOURCES["s"], encoding="utf-8")
    assert main(["verify", str(answer), str(source)]) == 1
    assert "never closed" in capsys.readouterr().out


def test_refs_check_reads_past_an_unclosed_comment() -> None:
    pytest.importorskip("pythonbible")
    report = ReferenceVerifier("bible").verify("Intro <!-- note\nAs in John 3:16 and Tobit 99:99.")
    assert [r.status.value for r in report.results] == ["verified", "not_found"]
    assert any("never closed" in w for w in report.warnings)


def test_a_draft_reads_past_an_unclosed_fence(tmp_path: Path) -> None:
    paper = tmp_path / "p.md"
    paper.write_text("[PAGE:1]\nRemote work is common.\n", encoding="utf-8")
    library = PaperLibrary(tmp_path / "lib", embedder=None)
    library.add(paper, key="p")
    report = library.validate_doc("# Draft\n\n```\ncode\n\nSee [@ghost, p. 1].\n")
    assert [r.status.value for r in report.results] == ["not_found"]
    assert any("never closed" in w for w in report.warnings)


def test_closed_regions_still_hide_what_they_hold() -> None:
    text = (
        "Fine <!-- [[nosuch:L1]] --> and\n```\n[[nosuch:L2]]\n```\n"
        '"approved the budget twice" [[s:L1]].'
    )
    report = citecheck.verify(text, SOURCES)
    assert [r.status.value for r in report.results] == ["verified"]
    assert not report.warnings


def test_a_citation_on_the_line_of_an_unclosed_comment_is_read() -> None:
    report = citecheck.verify(
        'Note <!-- "approved the budget twice" [[s:L1]] [[nosuch:L9]]', SOURCES
    )
    assert [r.status.value for r in report.results] == ["verified", "not_found"]


@given(st.text(alphabet="<!-`~\n ax[]", max_size=200))
def test_an_unclosed_opening_hides_no_more_than_its_own_line(text: str) -> None:
    for start, end, _ in code_regions(text).unclosed:
        assert "\n" not in text[start:end]
