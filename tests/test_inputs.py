"""Bad input, everywhere: unreadable source files are named and skipped, empty sources are an
error, a quotes file that is binary or lacks its quote field is an error naming the line, and a
reader that stops early ends a command quietly."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

import citecheck
from citecheck.cli import main
from citecheck.documents.files import decode_text, load_paths
from citecheck.errors import SourceError
from citecheck.quotes.inputs import Unreadable, read_quotes

ROOT = Path(__file__).parents[1]
PNG = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x10"


@pytest.fixture
def messy(tmp_path: Path) -> Path:
    """A source folder with one good file and three that cannot be read."""
    folder = tmp_path / "sources"
    folder.mkdir()
    (folder / "notes.md").write_text("# Notes\nThe ferry runs daily.\n", encoding="utf-8")
    (folder / "logo.png").write_bytes(PNG)
    (folder / "latin.txt").write_bytes("caf\xe9 au lait".encode("latin-1"))
    (folder / "broken.pdf").write_bytes(b"%PDF-1.4 this is not a pdf")
    return folder


def test_load_paths_skips_unreadable_files_by_name(messy: Path) -> None:
    loaded = load_paths(messy)
    assert [d.id for d in loaded] == ["notes"]
    assert len(loaded) == 1
    skipped = {s.path.name: s.reason for s in loaded.skipped}
    assert set(skipped) == {"logo.png", "latin.txt", "broken.pdf"}
    for name, reason in skipped.items():
        assert name in reason  # each reason names its file, the PDF's too
    assert "not a text file" in skipped["logo.png"]
    assert "not UTF-8" in skipped["latin.txt"]
    assert [s.id for s in loaded.skipped] == ["broken", "latin", "logo"]
    assert all(w.startswith("skipped a source file: ") for w in loaded.warnings)


def test_load_paths_is_sources_for_verify(messy: Path) -> None:
    report = citecheck.verify('"runs daily" [[notes:L2]]', citecheck.load_paths(str(messy)))
    assert report.passed


def test_utf16_text_is_not_read_as_text(tmp_path: Path) -> None:
    """UTF-16 ASCII is valid UTF-8 with NUL bytes between the letters: read as text, every quote
    in it would look unsupported."""
    (tmp_path / "a.txt").write_text("The ferry runs daily.", encoding="utf-8")
    (tmp_path / "b.txt").write_bytes("The ferry runs daily.".encode("utf-16-le"))
    loaded = load_paths(tmp_path)
    assert [d.id for d in loaded] == ["a"]
    assert "0x00" in loaded.skipped[0].reason


def test_a_pdf_without_a_text_layer_is_skipped(tmp_path: Path) -> None:
    pytest.importorskip("pypdf")
    from test_pdf import make_pdf

    (tmp_path / "scan.pdf").write_bytes(make_pdf([""]))
    (tmp_path / "notes.txt").write_text("The ferry runs daily.", encoding="utf-8")
    loaded = load_paths(tmp_path)
    assert [d.id for d in loaded] == ["notes"]
    assert "no text layer" in loaded.skipped[0].reason


def test_a_pdf_without_the_pdf_extra_is_skipped(
    messy: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "pypdf", None)
    loaded = load_paths(messy)
    reason = next(s.reason for s in loaded.skipped if s.path.name == "broken.pdf")
    assert "broken.pdf" in reason
    assert 'pip install "pycitecheck[pdf]"' in reason


def test_a_damaged_pdf_error_names_the_file(tmp_path: Path) -> None:
    pytest.importorskip("pypdf")
    path = tmp_path / "broken.pdf"
    path.write_bytes(b"%PDF-1.4 this is not a pdf")
    with pytest.raises(SourceError, match=r"broken\.pdf"):
        citecheck.Document.from_pdf("broken", path)


def test_empty_or_unreadable_sources_are_an_error(tmp_path: Path, messy: Path) -> None:
    empty = tmp_path / "empty"
    empty.mkdir()
    with pytest.raises(SourceError, match=r"no source files in .*empty"):
        load_paths(empty)
    with pytest.raises(SourceError, match="no source files"):
        load_paths([])
    with pytest.raises(SourceError, match=r"no readable source file .*logo\.png is not a text"):
        load_paths([messy / "logo.png", messy / "latin.txt"])


@given(st.binary(max_size=200))
def test_decode_text_gives_text_or_an_error_naming_the_file(raw: bytes) -> None:
    try:
        text = decode_text(raw, "x.txt")
    except SourceError as exc:
        message = str(exc)
    else:
        assert text.encode("utf-8") == raw
        return
    assert message.startswith("x.txt is not")
    assert " line " in message


def test_verify_reports_skipped_files_and_goes_on(
    messy: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    answer = messy.parent / "answer.md"
    answer.write_text(
        '"runs daily" [[notes:L2]]. "a quote" [[logo]]. "text" [[broken:p2]]. "x" [[ghost]].'
    )
    assert main(["verify", str(answer), str(messy), "--json"]) == 1
    captured = capsys.readouterr()
    warned = [line for line in captured.err.splitlines() if line.startswith("warning: skipped")]
    for name in ("logo.png", "latin.txt", "broken.pdf"):
        assert sum(str(messy / name) in line for line in warned) == 1
    data = json.loads(captured.out)
    assert sum("skipped a source file" in w for w in data["warnings"]) == 3
    statuses = [(r["citation"]["source_id"], r["status"]) for r in data["results"]]
    assert statuses == [
        ("notes", "verified"),
        ("logo", "unchecked"),  # the file exists but could not be read: no phantom
        ("broken", "unchecked"),
        ("ghost", "not_found"),
    ]
    assert "logo.png is not a text file" in data["results"][1]["reason"]


def test_the_python_api_reports_a_skipped_file_as_unchecked_too(messy: Path) -> None:
    import citecheck

    text = '"runs daily" [[notes:L2]]. "a quote" [[latin]]. "x" [[ghost]].'
    report = citecheck.verify(text, citecheck.load_paths(messy))
    assert [r.status.value for r in report] == ["verified", "unchecked", "not_found"]
    assert "latin.txt is not UTF-8" in report.results[1].reason
    assert sum("skipped a source file" in w for w in report.warnings) == 3


def test_verify_with_an_empty_source_folder_exits_two(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "empty").mkdir()
    (tmp_path / "answer.md").write_text('"x y" [[a]]')
    assert main(["verify", str(tmp_path / "answer.md"), str(tmp_path / "empty")]) == 2
    assert "no source files in" in capsys.readouterr().err


def test_an_answer_that_is_not_utf8_is_named(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "answer.md").write_bytes(b"caf\xe9 [[a]]")
    (tmp_path / "a.txt").write_text("text")
    assert main(["verify", str(tmp_path / "answer.md"), str(tmp_path / "a.txt")]) == 2
    assert "answer.md is not UTF-8 text" in capsys.readouterr().err


def test_quotes_command_skips_unreadable_sources_and_rejects_empty_ones(
    messy: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pytest.importorskip("bm25s")
    quotes = tmp_path / "q.txt"
    quotes.write_text("The ferry runs daily.\n")
    out = tmp_path / "rows.json"
    assert main(["quotes", str(quotes), str(messy), "-o", str(out)]) == 0
    err = capsys.readouterr().err
    assert all(name in err for name in ("logo.png", "latin.txt", "broken.pdf"))
    assert json.loads(out.read_text())["rows"][0]["status"] == "verified"
    (tmp_path / "empty").mkdir()
    assert main(["quotes", str(quotes), str(tmp_path / "empty"), "-o", str(out)]) == 2
    assert "no source files in" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("name", "content", "message"),
    [
        ("q.txt", PNG, r"q.txt is not a text file: line 2 holds the byte 0x1a"),
        ("q.txt", b"a quote\nanother\n\x00\x01binary", r"q.txt is not a text file: line 3"),
        ("q.json", b'["caf\xe9"]', r"q.json is not UTF-8 text .*on line 1"),
        ("q.csv", PNG, r"q.csv is not a text file"),
    ],
)
def test_bad_quotes_files_are_errors_naming_the_line(
    tmp_path: Path, name: str, content: bytes, message: str
) -> None:
    path = tmp_path / name
    path.write_bytes(content)
    with pytest.raises(SourceError, match=message):
        read_quotes(path)


@pytest.mark.parametrize(
    ("name", "content", "message"),
    [
        ("q.jsonl", b'"a quote"\n{"quote": "b"}\n{"text": "c"}\n', r"q.jsonl, line 3: .*'quote'"),
        ("q.jsonl", b'{"quote": null}\n"a quote"\n', r"q.jsonl, line 1: .*'quote'"),
        ("q.jsonl", b'"a quote"\n{"quote": \n', r"q.jsonl is not valid JSON on line 2"),
        ("q.json", b'["a quote", {"text": "b"}]', r"q.json, item 2 of the list: .*'quote'"),
        ("q.csv", b"id,quote\n1,a quote\n2\n", r"q.csv, line 3: the row has no 'quote' cell"),
    ],
)
def test_one_bad_row_is_that_rows_problem(
    tmp_path: Path, name: str, content: bytes, message: str
) -> None:
    """Issue 31: a record without a quote, or a JSON Lines line that is not JSON, is one
    unreadable row naming its line; the other rows are read."""
    path = tmp_path / name
    path.write_bytes(content)
    rows = read_quotes(path)
    bad = [row for row in rows if isinstance(row, Unreadable)]
    assert len(bad) == 1
    assert re.search(message, bad[0].reason)
    assert "a quote" in rows


def test_quotes_command_checks_the_other_rows_of_a_file_with_a_bad_one(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pytest.importorskip("bm25s")  # the quotes command's search
    (tmp_path / "talk.txt").write_text("We will build the bridge before winter.\n")
    (tmp_path / "q.jsonl").write_text('{"quote": "build the bridge"}\n{"text": "winter"}\n')
    out = tmp_path / "rows.json"
    args = ["quotes", str(tmp_path / "q.jsonl"), str(tmp_path / "talk.txt"), "-o", str(out)]
    assert main(args) == 2  # one row could not be read: not a pass
    assert "q.jsonl, line 2" in capsys.readouterr().err
    rows = json.loads(out.read_text())["rows"]
    assert [row["status"] for row in rows] == ["verified", "unchecked"]
    assert "q.jsonl, line 2" in rows[1]["reason"]


def test_one_undecodable_line_of_a_text_file_is_still_a_row(tmp_path: Path) -> None:
    path = tmp_path / "q.txt"
    path.write_bytes(b"a quote\n\xff\xfe bad line\n")
    assert read_quotes(path) == ["a quote", b"\xff\xfe bad line"]


def _closed_pipe(args: list[str], tmp_path: Path) -> subprocess.CompletedProcess[bytes]:
    """Run ``python -m citecheck ARGS | head -1`` (a real pipe whose reader leaves early)."""
    env = {"PYTHONPATH": str(ROOT / "src"), "PATH": "/usr/bin:/bin"}
    command = " ".join([f"'{sys.executable}'", "-m", "citecheck", *args])
    return subprocess.run(
        ["bash", "-c", f"set -o pipefail; {command} | head -1"],
        capture_output=True,
        cwd=tmp_path,
        env=env,
        timeout=120,
    )


@pytest.mark.skipif(sys.platform == "win32", reason="a POSIX shell pipe")
def test_a_reader_that_stops_early_ends_verify_quietly(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("The ferry runs daily.\n")
    # enough output (a few MB of JSON) that most of it is written after head has left
    (tmp_path / "answer.md").write_text('"runs daily" [[notes:L1]].\n' * 4000)
    done = _closed_pipe(["verify", "answer.md", "notes.txt", "--json"], tmp_path)
    assert done.stdout == b"{\n"
    assert done.stderr == b""
    assert done.returncode == 141


@pytest.mark.skipif(sys.platform == "win32", reason="a POSIX shell pipe")
def test_a_reader_that_stops_early_ends_refs_quietly(tmp_path: Path) -> None:
    (tmp_path / "answer.md").write_text("Narada answers [Bala 1.1]. Then Bala 2.3.\n" * 4000)
    (tmp_path / "other.md").write_text("As in Mahabharata 3.4 and in [12.4].\n" * 4000)
    bala = str(ROOT / "examples" / "ramayan_map_bala.json")
    check = ["refs", "check", "answer.md", "--json", "--map", bala]
    for args in (check, ["refs", "coverage", "other.md"]):
        done = _closed_pipe(args, tmp_path)
        assert done.stderr == b"", args
        assert done.returncode == 141, args


@pytest.mark.parametrize(
    ("answer", "status", "error"),
    [
        (b'"runs daily" [[notes:L1]]', 0, ""),
        (b'"caf\xe9" [[notes:L1]]', 2, "standard input is not UTF-8 text"),
    ],
)
def test_the_answer_on_standard_input(
    tmp_path: Path, answer: bytes, status: int, error: str
) -> None:
    (tmp_path / "notes.txt").write_text("The ferry runs daily.\n")
    done = subprocess.run(
        [sys.executable, "-m", "citecheck", "verify", "-", "notes.txt"],
        input=answer,
        capture_output=True,
        cwd=tmp_path,
        env={"PYTHONPATH": str(ROOT / "src")},
    )
    assert done.returncode == status
    assert error in done.stderr.decode()


def test_python_dash_m_citecheck_runs_the_command_line() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "citecheck", "--version"],
        capture_output=True,
        text=True,
        env={"PYTHONPATH": str(ROOT / "src")},
        check=True,
    )
    assert done.stdout.strip() == f"citecheck {citecheck.__version__}"
