from __future__ import annotations

import json
from pathlib import Path

import pytest

from citecheck.cli import main

EXAMPLES = Path(__file__).parents[1] / "examples"


@pytest.fixture
def corpus(tmp_path: Path) -> Path:
    (tmp_path / "sources").mkdir()
    (tmp_path / "sources" / "minutes.md").write_text("# Decisions\nThe budget was approved.\n")
    (tmp_path / "sources" / "notes.txt").write_text("Line one.\nThe ferry runs daily.\n")
    return tmp_path


def test_passing_report_exits_zero(corpus: Path, capsys: pytest.CaptureFixture[str]) -> None:
    answer = corpus / "answer.md"
    answer.write_text('"The budget was approved" [[minutes:sec-decisions]] and [[notes:L2]].')
    assert main(["verify", str(answer), str(corpus / "sources")]) == 1  # the bare claim fails
    answer.write_text(
        '"The budget was approved" [[minutes:sec-decisions]]. "runs daily" [[notes:L2]]'
    )
    assert main(["verify", str(answer), str(corpus / "sources")]) == 0
    assert "PASSED" in capsys.readouterr().out


def test_json_output_is_the_report(corpus: Path, capsys: pytest.CaptureFixture[str]) -> None:
    answer = corpus / "answer.md"
    answer.write_text('"The ferry runs weekly" [[notes:L2]]')
    assert main(["verify", str(answer), str(corpus / "sources" / "notes.txt"), "--json"]) == 1
    data = json.loads(capsys.readouterr().out)
    assert data["passed"] is False
    assert data["results"][0]["status"] == "partial"
    assert "weekly" in data["results"][0]["reason"]


def test_bad_input_exits_two_with_a_message(
    corpus: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    answer = corpus / "answer.md"
    answer.write_text("[[a]]")
    assert main(["verify", str(answer), str(corpus / "missing")]) == 2
    assert "no such file" in capsys.readouterr().err
    (corpus / "latin1.txt").write_bytes("caf\xe9".encode("latin-1"))
    assert main(["verify", str(answer), str(corpus / "latin1.txt")]) == 2
    assert "not UTF-8" in capsys.readouterr().err
    assert main(["verify", str(answer), str(corpus / "sources"), "--accept", "bogus"]) == 2


def test_duplicate_source_names_are_rejected(
    corpus: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (corpus / "other").mkdir()
    (corpus / "other" / "notes.md").write_text("again")
    answer = corpus / "answer.md"
    answer.write_text("[[notes]]")
    assert main(["verify", str(answer), str(corpus / "sources"), str(corpus / "other")]) == 2
    assert "two sources named 'notes'" in capsys.readouterr().err


def test_the_bundled_example_runs(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["verify", str(EXAMPLES / "answer.md"), str(EXAMPLES / "corpus")]) == 1
    out = capsys.readouterr().out
    for status in (
        "VERIFIED",
        "PARTIAL",
        "WRONG_LOCATION",
        "UNSUPPORTED",
        "NOT_FOUND",
        "UNCHECKED",
    ):
        assert status in out
