"""What a newcomer's terminal shows (issue 35, first items): ``--help`` says what citecheck
does, every command that writes a file says so, and the index backends import by name."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from citecheck.cli import main

EXAMPLES = Path(__file__).parents[1] / "examples"


def test_help_says_what_citecheck_does() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "citecheck", "--help"], capture_output=True, text=True, check=True
    )
    assert "Check the citations of a text" in done.stdout
    assert "``" not in done.stdout


def test_verify_with_o_says_what_it_wrote(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    target = tmp_path / "report.html"
    status = main(
        ["verify", str(EXAMPLES / "answer.md"), str(EXAMPLES / "corpus"), "-o", str(target)]
    )
    assert target.exists()
    out = capsys.readouterr().out.strip()
    assert out.endswith(f"; written to {target}")
    assert out.split(":")[0].endswith("citations")
    assert ("FAIL" in out) == (status == 1)


def test_validate_doc_with_o_says_what_it_wrote(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    library = tmp_path / "library"
    paper = EXAMPLES / "papers" / "stoker2022.md"
    assert main(["papers", "add", str(paper), "--library", str(library), "--embedder", "none"]) == 0
    capsys.readouterr()
    target = tmp_path / "draft.json"
    argv = ["validate-doc", str(EXAMPLES / "draft.md"), "--library", str(library)]
    main([*argv, "-o", str(target)])
    assert target.exists()
    assert capsys.readouterr().out.strip().endswith(f"; written to {target}")


def test_index_backends_import_by_name_and_only_when_asked() -> None:
    code = (
        "import sys, citecheck.indexes as i; "
        "assert 'citecheck.indexes.faiss' not in sys.modules; "
        "from citecheck.indexes import FaissIndex, MemoryIndex, PineconeIndex; "
        "print(FaissIndex.__module__, MemoryIndex.__module__, PineconeIndex.__module__); "
        "print('faiss' in sys.modules, 'pinecone' in sys.modules)"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.split() == [
        "citecheck.indexes.faiss",
        "citecheck.indexes.memory",
        "citecheck.indexes.pinecone",
        "False",
        "False",
    ]
    import citecheck.indexes

    with pytest.raises(AttributeError, match="Nothing"):
        _ = citecheck.indexes.Nothing  # type: ignore[attr-defined]
