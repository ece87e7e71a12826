"""Every reporting command writes any format, to standard output or a file, and exits by one
rule: 0 passed, 1 failed, 2 usage or input error, 3 something could not be checked."""

from __future__ import annotations

import csv
import io
import json
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

import citecheck
from citecheck.cli import main

SOURCE = "Line one.\nThe ferry runs daily.\n"


@pytest.fixture
def files(tmp_path: Path) -> Path:
    (tmp_path / "notes.txt").write_text(SOURCE, encoding="utf-8")
    (tmp_path / "good.md").write_text('"The ferry runs daily" [[notes:L2]]', encoding="utf-8")
    (tmp_path / "bad.md").write_text(
        '"The ferry runs daily" [[notes:L2]] and "<b>never</b> said" [[notes:L1]]',
        encoding="utf-8",
    )
    (tmp_path / "unplaced.md").write_text(
        '"The ferry runs daily" [[notes:chap. 3]]', encoding="utf-8"
    )
    return tmp_path


def verify(files: Path, answer: str, *options: str) -> int:
    return main(["verify", str(files / answer), str(files / "notes.txt"), *options])


def test_the_exit_status_says_passed_failed_or_unchecked(files: Path) -> None:
    assert verify(files, "good.md") == 0
    assert verify(files, "bad.md") == 1
    assert verify(files, "unplaced.md") == 3  # could not check the place: never "failed"
    assert verify(files, "missing.md") == 2


@pytest.mark.parametrize("fmt", ["json", "jsonl", "csv", "md", "html", "junit"])
def test_every_text_format_goes_to_standard_output(
    files: Path, fmt: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert verify(files, "bad.md", "--format", fmt) == 1
    out = capsys.readouterr().out
    if fmt == "json":
        assert json.loads(out)["outcome"] == "FAIL"
    elif fmt == "jsonl":
        assert [json.loads(line)["status"] for line in out.splitlines()] == [
            "verified",
            "unsupported",
        ]
    elif fmt == "csv":
        assert len(list(csv.DictReader(io.StringIO(out)))) == 2
    elif fmt == "junit":
        assert len(ET.fromstring(out).findall(".//failure")) == 1
    elif fmt == "html":
        assert "<b>never</b>" not in out
        assert "&lt;b&gt;never" in out
    else:
        assert "unsupported" in out


@pytest.mark.parametrize("suffix", [".json", ".jsonl", ".csv", ".md", ".html", ".xml"])
def test_a_file_gets_the_format_its_suffix_names(files: Path, suffix: str) -> None:
    target = files / f"report{suffix}"
    assert verify(files, "good.md", "-o", str(target)) == 0
    assert target.read_text(encoding="utf-8").strip()


def test_excel_needs_a_file_and_bad_targets_are_input_errors(
    files: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert verify(files, "good.md", "--format", "xlsx") == 2
    assert "-o" in capsys.readouterr().err
    assert verify(files, "good.md", "-o", str(files / "nowhere" / "report.html")) == 2
    assert not (files / "nowhere").exists()
    assert verify(files, "good.md", "-o", str(files)) == 2  # a directory
    assert verify(files, "good.md", "-o", str(files / "report.docx")) == 2
    assert "citecheck: error" in capsys.readouterr().err


def test_quotes_exit_by_the_same_rule(files: Path) -> None:
    pytest.importorskip("bm25s")  # the quotes command needs the bm25 extra
    quotes = files / "quotes.txt"
    quotes.write_text("The ferry runs daily\n", encoding="utf-8")
    out = files / "rows.csv"
    assert main(["quotes", str(quotes), str(files / "notes.txt"), "-o", str(out)]) == 0
    quotes.write_text("The ferry runs daily\nThe ferry never sails at all today\n")
    assert main(["quotes", str(quotes), str(files / "notes.txt"), "-o", str(out)]) == 1
    rows = list(csv.DictReader(io.StringIO(out.read_text(encoding="utf-8"))))
    assert [row["status"] for row in rows] == ["verified", "unsupported"]
    report = files / "quotes.html"
    code = main(["quotes", str(quotes), str(files / "notes.txt"), "-o", str(report)])
    assert code == 1
    assert "ferry never sails" in report.read_text(encoding="utf-8")


def test_refs_check_writes_junit(files: Path, capsys: pytest.CaptureFixture[str]) -> None:
    answer = files / "answer.md"
    answer.write_text("Narada answers [Bala 1.1] and [Bala 1.999].", encoding="utf-8")
    structure = files / "map.json"
    structure.write_text(json.dumps({"Bala": [100]}), encoding="utf-8")
    code = main(["refs", "check", str(answer), "--map", str(structure), "--format", "junit"])
    assert code == 1
    suite = ET.fromstring(capsys.readouterr().out)
    assert len(suite.findall(".//testcase")) == 2
    assert len(suite.findall(".//failure")) == 1


def test_no_progress_bar_off_a_terminal(files: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("bm25s")  # the quotes command needs the bm25 extra
    quotes = files / "quotes.txt"
    quotes.write_text("The ferry runs daily\n" * 50, encoding="utf-8")
    main(["quotes", str(quotes), str(files / "notes.txt"), "-o", str(files / "rows.json")])
    assert "%|" not in capsys.readouterr().err


def test_an_empty_accept_policy_is_a_usage_error(
    files: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert verify(files, "good.md", "--accept", " , ") == 2
    assert "--accept names no status" in capsys.readouterr().err


def test_a_terminal_gets_a_progress_bar(
    files: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)
    assert verify(files, "bad.md") == 1
    bar = capsys.readouterr().err
    assert "100%" in bar
    assert "2/2" in bar  # the total is learnt once the text's citations are found


def test_verify_reports_its_progress(files: Path) -> None:
    seen: list[tuple[int, int]] = []
    text = (files / "bad.md").read_text(encoding="utf-8")
    citecheck.Verifier().verify(
        text, {"notes": SOURCE}, progress=lambda done, total: seen.append((done, total))
    )
    assert seen == [(1, 2), (2, 2)]
