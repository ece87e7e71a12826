"""A folder that is not a paper library, or a library that lost its manifest, is named as such
and never emptied; ``papers repair`` rebuilds the manifest (issue 31)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from citecheck.cli import main
from citecheck.errors import SavedIndexError
from citecheck.papers import PaperLibrary
from citecheck.testing import HashingEmbedder

MARKED = (
    "[PAGE:1]\n# Intro\n\nRemote work is common.\n[PAGE:2]\n# Results\n\nManagers delegate more.\n"
)
OTHER = "[PAGE:5]\nThe survey ran for three months.\n[PAGE:6]\nIt had 40 answers.\n"


def _snapshot(folder: Path) -> dict[str, bytes]:
    return {
        str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()
    }


@pytest.fixture
def library(tmp_path: Path) -> Path:
    (tmp_path / "a.md").write_text(MARKED, encoding="utf-8")
    (tmp_path / "b.md").write_text(OTHER, encoding="utf-8")
    folder = tmp_path / "lib"
    made = PaperLibrary(folder, embedder=HashingEmbedder())
    made.add(tmp_path / "a.md")
    made.add(tmp_path / "b.md")
    made.searcher()  # vectors stored
    return folder


def test_a_folder_of_other_files_is_not_a_library(tmp_path: Path) -> None:
    pdfs = tmp_path / "pdfs"
    pdfs.mkdir()
    (pdfs / "paper.pdf").write_bytes(b"%PDF-1.4 not really")
    before = _snapshot(pdfs)
    with pytest.raises(SavedIndexError, match=r"is not a paper library: it has no manifest\.json"):
        PaperLibrary(pdfs, embedder=None)
    assert main(["papers", "list", "--library", str(pdfs)]) == 2
    (tmp_path / "c.md").write_text(MARKED, encoding="utf-8")
    assert main(["papers", "add", str(tmp_path / "c.md"), "--library", str(pdfs)]) == 2
    assert _snapshot(pdfs) == before


def test_an_empty_folder_is_a_new_library_but_lists_as_none(tmp_path: Path) -> None:
    empty = tmp_path / "empty"
    empty.mkdir()
    assert PaperLibrary(empty, embedder=None).keys() == []
    assert main(["papers", "list", "--library", str(empty)]) == 2  # nothing to list: said


def test_a_lost_manifest_is_named_and_nothing_is_deleted(
    library: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (library / "manifest.json").unlink()
    before = _snapshot(library)
    with pytest.raises(SavedIndexError, match=r"manifest\.json is missing.*papers repair"):
        PaperLibrary(library, embedder=None)
    (tmp_path / "c.md").write_text("[PAGE:1]\nA third paper.\n", encoding="utf-8")
    assert main(["papers", "add", str(tmp_path / "c.md"), "--library", str(library)]) == 2
    assert main(["papers", "list", "--library", str(library)]) == 2
    draft = tmp_path / "draft.md"
    draft.write_text("Managers delegate more [@a, p. 2].\n", encoding="utf-8")
    code = main(["validate-doc", str(draft), "--library", str(library), "--embedder", "none"])
    assert code == 2  # an error, not a phantom citation
    assert "papers repair" in capsys.readouterr().err
    assert _snapshot(library) == before


def test_repair_restores_the_manifest_from_its_copy(library: Path) -> None:
    manifest = library / "manifest.json"
    original = json.loads(manifest.read_text())
    manifest.unlink()
    repaired = PaperLibrary.repair(library)
    assert repaired.how == "copy"
    assert repaired.keys == ("a", "b")
    assert json.loads(manifest.read_text()) == original
    reopened = PaperLibrary(library, embedder=HashingEmbedder())
    assert reopened.metadata("b").page_labels == ("5", "6")
    assert PaperLibrary.repair(library).how == "intact"


def test_repair_keeps_an_unreadable_manifest_beside_the_restored_one(library: Path) -> None:
    manifest = library / "manifest.json"
    manifest.write_text("{ truncated", encoding="utf-8")
    with pytest.raises(SavedIndexError, match="not JSON"):
        PaperLibrary(library, embedder=None)
    assert PaperLibrary.repair(library).how == "copy"
    assert (library / "manifest.json.damaged").read_text() == "{ truncated"
    assert PaperLibrary(library, embedder=None).keys() == ["a", "b"]


def test_repair_rebuilds_from_the_paper_files_without_a_copy(
    library: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (library / "manifest.json").unlink()
    (library / "manifest.copy.json").unlink()
    files = _snapshot(library / "papers")
    assert main(["papers", "repair", "--library", str(library)]) == 0
    assert "rebuilt from the paper files" in capsys.readouterr().out
    for name, content in files.items():  # nothing deleted or changed by the repair
        assert (library / "papers" / name).read_bytes() == content
    reopened = PaperLibrary(library, embedder=HashingEmbedder())
    assert sorted(reopened.keys()) == ["a", "b"]
    assert "Managers delegate more." in reopened.text("a")
    assert [p.number for p in reopened.pages("b")] == [5, 6]
    result = reopened.validate("a", "Managers delegate more.", 2)
    assert result.status.value == "verified", result.reason


def test_repair_skips_an_incomplete_generation(library: Path) -> None:
    (library / "manifest.json").unlink()
    (library / "manifest.copy.json").unlink()
    [chunks] = (library / "papers").glob("b.*.chunks.jsonl")
    chunks.write_text("{ not json\n", encoding="utf-8")
    repaired = PaperLibrary.repair(library)
    assert repaired.keys == ("a",)
    assert any(name.startswith("b.") for name in repaired.skipped)


def test_repair_of_a_folder_with_nothing_to_rebuild_from(tmp_path: Path) -> None:
    (tmp_path / "lib").mkdir()
    with pytest.raises(SavedIndexError, match="nothing to rebuild"):
        PaperLibrary.repair(tmp_path / "lib")
