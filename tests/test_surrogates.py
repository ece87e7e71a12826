"""Text decoded from JSON escapes may hold a lone surrogate (``"\\ud800"``), which UTF-8
cannot write. Every report file is still written: JSON keeps the escape, the formats for
people show U+FFFD, and Excel leaves it out; the command line never crashes on it."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

import citecheck
from citecheck.cli import main
from citecheck.exports import FORMATS, to_tip

LONE = "\ud800"


@pytest.fixture
def report() -> citecheck.Report:
    text = f'"The river {LONE} flows" [[doc:L1]] and "absent {LONE}" [[ghost{LONE}]]'
    return citecheck.verify(text, {"doc": f"The river {LONE} flows north."})


@pytest.mark.parametrize("fmt", sorted(set(FORMATS) - {"xlsx"}))
def test_every_text_format_writes_a_lone_surrogate(
    report: citecheck.Report, fmt: str, tmp_path: Path
) -> None:
    path = tmp_path / f"report{FORMATS[fmt]}"
    report.save(path)
    text = path.read_text(encoding="utf-8")
    if fmt == "json":
        assert json.loads(text) == json.loads(report.to_json())  # the escape, lossless
    elif fmt == "jsonl":
        assert [json.loads(line) for line in text.splitlines()] == [
            r.to_dict() for r in report.results
        ]
    elif fmt == "tip":  # JSON too: the escape, lossless
        assert json.loads(text) == json.loads(to_tip(report))
    elif fmt == "junit":
        ET.fromstring(text.encode("utf-8"))
    else:
        assert "\ufffd" in text


def test_excel_leaves_it_out(report: citecheck.Report, tmp_path: Path) -> None:
    openpyxl = pytest.importorskip("openpyxl")
    report.save(tmp_path / "report.xlsx")
    sheet = openpyxl.load_workbook(tmp_path / "report.xlsx")["results"]
    assert sheet.max_row == 1 + len(report.results)


def test_a_dataset_with_a_lone_surrogate_is_evaluated_and_logged(tmp_path: Path) -> None:
    golden = tmp_path / "golden.jsonl"
    golden.write_text('{"id": "a\\ud800", "answer": "[Bala 1.2]", "template": "T1"}\n')
    structure = tmp_path / "map.json"
    structure.write_text(json.dumps({"Bala": [100]}), encoding="utf-8")
    log = tmp_path / "log.jsonl"
    code = main(["refs", "eval", str(golden), "--map", str(structure), "--log", str(log)])
    assert code == 0
    assert json.loads(log.read_text(encoding="utf-8"))["id"] == "a\ud800"
