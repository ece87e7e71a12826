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
    # the bare claim is too short to check: unchecked, exit 3 (never "failed")
    assert main(["verify", str(answer), str(corpus / "sources")]) == 3
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


def test_quotes_command_writes_rows_and_stats(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pytest.importorskip("bm25s")
    sources = tmp_path / "sources"
    sources.mkdir()
    (sources / "talk.txt").write_text("We will build the bridge before winter. Taxes stay low.\n")
    (sources / "broken.txt").write_bytes(b"caf\xe9 au lait")
    quotes = tmp_path / "quotes.txt"
    quotes.write_bytes(
        b"We will build the bridge before winter\nTaxes will rise sharply\n\xff\xfe bad line\n"
    )
    out = tmp_path / "rows.json"
    stats = tmp_path / "stats.csv"
    code = main(["quotes", str(quotes), str(sources), "-o", str(out), "--stats", str(stats)])
    assert code == 1  # one quote verified, one not: some failed
    captured = capsys.readouterr()
    assert "3 quotes: 1 verified" in captured.out
    assert "skipped" in captured.err
    assert "broken.txt" in captured.err
    rows = json.loads(out.read_text())["rows"]
    assert [r["status"] for r in rows] == ["verified", "unsupported", "unchecked"]
    assert "UTF-8" in rows[2]["reason"]
    assert stats.read_text().startswith("variable,value")


@pytest.mark.parametrize(
    ("name", "content"),
    [
        ("q.json", '["We will build the bridge before winter", {"quote": "Taxes stay low"}]'),
        ("q.jsonl", '"We will build the bridge before winter"\n{"quote": "Taxes stay low"}\n'),
        ("q.csv", "id,quote\n1,We will build the bridge before winter\n2,Taxes stay low\n"),
    ],
)
def test_quotes_files_in_every_format(tmp_path: Path, name: str, content: str) -> None:
    pytest.importorskip("bm25s")
    (tmp_path / "talk.txt").write_text("We will build the bridge before winter. Taxes stay low.\n")
    (tmp_path / name).write_text(content)
    out = tmp_path / "rows.csv"
    assert main(["quotes", str(tmp_path / name), str(tmp_path / "talk.txt"), "-o", str(out)]) == 0
    assert out.read_text().count("verified") == 2


def test_quotes_command_rejects_bad_input(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "talk.txt").write_text("text")
    (tmp_path / "q.json").write_text('{"not": "a list"}')
    out = str(tmp_path / "rows.csv")
    assert main(["quotes", str(tmp_path / "q.json"), str(tmp_path / "talk.txt"), "-o", out]) == 2
    assert "JSON list" in capsys.readouterr().err
    (tmp_path / "q.txt").write_text("a quote")
    (tmp_path / "cfg.toml").write_text("nonsense_option = 3\n")
    args = ["quotes", str(tmp_path / "q.txt"), str(tmp_path / "talk.txt"), "-o", out]
    assert main([*args, "--config", str(tmp_path / "cfg.toml")]) == 2
    assert "nonsense_option" in capsys.readouterr().err


def test_quotes_command_checks_the_output_name_first(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "talk.txt").write_text("text")
    (tmp_path / "q.txt").write_text("a quote")
    args = ["quotes", str(tmp_path / "q.txt"), str(tmp_path / "talk.txt")]
    assert main([*args, "-o", str(tmp_path / "rows.docx")]) == 2
    assert "cannot tell the report format" in capsys.readouterr().err


def test_pages_of_unpaged_sources_and_the_matchers_are_chosen_on_the_command_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    lines = [f"Filler line {n}." for n in range(1, 121)]
    lines[76] = "The cormorant nested on the western cliff."
    (tmp_path / "notes.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
    answer = tmp_path / "answer.md"
    answer.write_text('"The cormorant nested on the western cliff" [[notes:p2]]')
    assert main(["verify", str(answer), str(tmp_path / "notes.txt")]) == 0
    assert "approximated as lines 51-100 at 50 lines a page" in capsys.readouterr().out
    assert main(["verify", str(answer), str(tmp_path / "notes.txt"), "--lines-per-page", "0"]) == 3
    assert "has no page numbers" in capsys.readouterr().out
    answer.write_text("Cormorants nested on the western cliff [[notes:L77]]")
    assert (
        main(["verify", str(answer), str(tmp_path / "notes.txt"), "--matchers", "exact,overlap"])
        == 0
    )
    assert main(["verify", str(answer), str(tmp_path / "notes.txt"), "--matchers", "nope"]) == 2
    assert "no matcher named 'nope'" in capsys.readouterr().err


def test_ctrl_c_exits_130_with_one_line(
    corpus: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Ctrl-C during ``verify`` or ``quotes``: exit 130 and one line, no traceback (issue 31)."""
    import citecheck.cli.verify_command as cli

    def interrupted(*args: object, **kwargs: object) -> object:
        raise KeyboardInterrupt

    monkeypatch.setattr(cli, "load_paths", interrupted)
    answer = corpus / "answer.md"
    answer.write_text('"x" [[a]]', encoding="utf-8")
    assert main(["verify", str(answer), str(corpus)]) == 130
    assert capsys.readouterr().err == "citecheck: interrupted\n"


def test_quotes_nested_too_deeply_is_an_error_naming_the_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    quotes = tmp_path / "quotes.json"
    quotes.write_text("[" * 100_000 + "]" * 100_000, encoding="utf-8")
    source = tmp_path / "s.txt"
    source.write_text("hello", encoding="utf-8")
    assert main(["quotes", str(quotes), str(source), "-o", str(tmp_path / "out.json")]) == 2
    err = capsys.readouterr().err
    assert "quotes.json" in err
    assert "nested too deeply" in err
    assert not (tmp_path / "out.json").exists()
