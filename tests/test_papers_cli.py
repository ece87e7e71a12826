"""``citecheck papers add`` and ``citecheck papers list``: papers and bibliographies into a
library folder, a failure said per file and the others still added."""

from __future__ import annotations

from pathlib import Path

import pytest

from citecheck.cli import main
from citecheck.papers import PaperLibrary


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    (tmp_path / "smith.md").write_text(
        "[PAGE:12]\nThe trial enrolled 120 patients.\n[PAGE:13]\nThe effect was not significant.\n",
        encoding="utf-8",
    )
    (tmp_path / "lee.txt").write_text("First page.\fSecond page.\n", encoding="utf-8")
    (tmp_path / "broken.md").write_bytes(b"caf\xe9")
    return tmp_path


def papers(*argv: str) -> int:
    return main(["papers", *argv])


def test_papers_are_added_and_listed(folder: Path, capsys: pytest.CaptureFixture[str]) -> None:
    library = folder / "library"
    code = papers(
        "add", str(folder / "smith.md"), str(folder / "lee.txt"), "--library", str(library)
    )
    assert code == 0
    assert "smith.md: smith, 2 pages" in capsys.readouterr().out
    assert PaperLibrary(library).keys() == ["smith", "lee"]  # in the order added
    assert papers("list", "--library", str(library)) == 0
    listing = capsys.readouterr().out.splitlines()
    assert [line.split("\t")[:3] for line in listing] == [
        ["smith", "markdown", "pp. 12-13"],
        ["lee", "text", "pp. 1-2"],
    ]


def test_a_failing_file_is_said_and_the_others_are_added(
    folder: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    library = folder / "library"
    argv = [str(folder / "broken.md"), str(folder / "smith.md"), "--library", str(library)]
    assert papers("add", *argv) == 2
    assert "broken.md" in capsys.readouterr().err
    assert PaperLibrary(library).keys() == ["smith"]


def test_a_bibliography_names_the_keys(folder: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("bibtexparser")
    (folder / "refs.bib").write_text(
        "@article{smith2020, title={A Trial}, author={Smith, Ann}, year={2020}, "
        "file={smith.md}}\n@book{nofile, title={Elsewhere}, year={1999}}\n",
        encoding="utf-8",
    )
    library = folder / "library"
    assert papers("add", "--bib", str(folder / "refs.bib"), "--library", str(library)) == 0
    captured = capsys.readouterr()
    assert "2 entries, 1 papers read" in captured.out
    assert "nofile" in captured.err  # kept with its metadata only, and said
    assert PaperLibrary(library).metadata("smith2020").title == "A Trial"


def test_usage_errors(folder: Path, capsys: pytest.CaptureFixture[str]) -> None:
    library = str(folder / "library")
    argv = ["add", str(folder / "smith.md"), str(folder / "lee.txt"), "--key", "x"]
    assert papers(*argv, "--library", library) == 2
    assert "--key names one paper" in capsys.readouterr().err
    assert papers("list", "--library", str(folder / "nowhere")) == 2
    assert "no library" in capsys.readouterr().err
