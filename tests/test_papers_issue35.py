"""Issue 35, papers and drafts: ``citecheck papers reindex [--with-pages]`` rebuilds a library's
index from the files it holds, atomically; ``validate --semantic/--no-semantic`` turns vector
search on and off; ``validate`` says the BM25 match, the vector match and the qualifying
passages in words, as the seed lays them out; a library can keep a FAISS file of its vectors,
searched when present and written again with them."""

from __future__ import annotations

import importlib.util
import json
import re
import shlex
from pathlib import Path
from typing import Any

import pytest

from citecheck import PaperLibrary, Status
from citecheck.cli import main
from citecheck.errors import ConfigError, SavedIndexError
from citecheck.testing.fakes import HashingEmbedder
from papers_texts import PAPER

HAS_BM25 = importlib.util.find_spec("bm25s") is not None
UNMARKED = PAPER.replace("[PAGE:1]\n", "").replace("[PAGE:2]\n", "").replace("[PAGE:3]\n", "")


class CountingEmbedder(HashingEmbedder):
    """The fake embedder, counting the texts it embeds (under a name of its own)."""

    def __init__(self, name: str = "counting-hash") -> None:
        super().__init__()
        self.texts: list[str] = []
        self.name = name

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        self.texts.extend(texts)
        return super().embed_documents(texts)


def snapshot(folder: Path) -> dict[str, bytes]:
    """Every file under ``folder`` with its content: what "left exactly as it was" compares."""
    return {
        str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()
    }


def manifest(library: Path) -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads((library / "manifest.json").read_text(encoding="utf-8"))
    return loaded


@pytest.fixture
def paper(tmp_path: Path) -> Path:
    path = tmp_path / "stoker2022.md"
    path.write_text(PAPER, encoding="utf-8")
    return path


@pytest.fixture
def fake_embedder(monkeypatch: pytest.MonkeyPatch) -> None:
    """The command line's ``--embedder`` gives the fake embedder: no model to load."""
    import citecheck.cli.common as common

    monkeypatch.setattr(common, "make_embedder", lambda choice, args=None: HashingEmbedder())


# -- 1. papers reindex [--with-pages] ---------------------------------------------------------


def test_reindex_rebuilds_chunks_and_vectors_from_the_stored_files(
    tmp_path: Path, paper: Path
) -> None:
    PaperLibrary(tmp_path / "lib", embedder=CountingEmbedder()).add(paper)
    paper.unlink()  # nothing outside the library is read
    before = manifest(tmp_path / "lib")["papers"]["stoker2022"]["files"]
    embedder = CountingEmbedder()
    library = PaperLibrary(tmp_path / "lib", embedder=embedder, max_chunk_chars=40)
    done = library.reindex()
    chunks = library.chunks("stoker2022")
    assert done.keys == ("stoker2022",)
    assert done.chunks == len(chunks)
    assert done.vectors_by == "counting-hash"
    assert embedder.texts == [c.text for c in chunks]  # each new chunk embedded once
    assert done.pages == ()
    assert done.warnings == ()
    after = manifest(tmp_path / "lib")["papers"]["stoker2022"]
    assert set(after["files"]) == set(before)
    assert all(after["files"][r]["name"] != before[r]["name"] for r in before)  # all rebuilt
    assert after["chunking"]["max_chunk_chars"] == 40
    text = library.text("stoker2022")
    assert all(text[c.start : c.end].strip() for c in chunks)
    assert [p.number for p in library.pages("stoker2022")] == [1, 2, 3]  # kept
    reopened = CountingEmbedder()
    again = PaperLibrary(tmp_path / "lib", embedder=reopened)
    hits = again.search("annotated by 32 people", key="stoker2022", k=1, mode="vector")
    assert reopened.texts == ["annotated by 32 people"]  # the vectors were stored
    assert hits[0].page_start == 2
    if HAS_BM25:
        assert done.words == len(chunks)
        assert again.search("annotated", mode="bm25", k=1)[0].page_start == 2


def test_reindex_with_pages_reads_the_markers_written_into_the_file_since(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    draft = tmp_path / "stoker2022.md"
    draft.write_text(UNMARKED, encoding="utf-8")
    library = PaperLibrary(tmp_path / "lib", embedder=None)
    library.add(draft)
    assert library.pages("stoker2022") == []
    draft.write_text(PAPER, encoding="utf-8")  # the seed's phase 1: [PAGE:N] markers added
    assert library.reindex().pages == ()
    assert library.pages("stoker2022") == []  # without --with-pages, the pages are kept
    capsys.readouterr()
    code = main(
        [
            "papers",
            "reindex",
            "--with-pages",
            "--library",
            str(tmp_path / "lib"),
            "--embedder",
            "none",
        ]
    )
    assert code == 0
    out = capsys.readouterr().out
    assert f"{tmp_path / 'lib'}: 1 paper reindexed: " in out
    assert f"  stoker2022: pages read again from {draft.resolve()} (the file changed" in out
    reopened = PaperLibrary(tmp_path / "lib", embedder=None)
    assert [p.number for p in reopened.pages("stoker2022")] == [1, 2, 3]
    assert reopened.text("stoker2022") == PAPER
    assert reopened.metadata("stoker2022").page_labels == ("1", "2", "3")
    found = [c for c in reopened.chunks("stoker2022") if "32 people" in c.text]
    assert (found[0].page_start, found[0].section) == (2, "Results")


def test_reindex_with_pages_reads_the_stored_text_when_the_file_is_gone(
    tmp_path: Path, paper: Path
) -> None:
    library = PaperLibrary(tmp_path / "lib", embedder=None)
    library.add(paper)
    paper.unlink()
    done = library.reindex(with_pages=True)
    assert done.pages == (("stoker2022", "its stored text"),)
    assert done.replaced == ()
    assert done.warnings == ()
    assert [p.number for p in library.pages("stoker2022")] == [1, 2, 3]


def test_reindex_with_pages_keeps_a_pdfs_pages_when_its_file_is_gone(tmp_path: Path) -> None:
    pytest.importorskip("pypdf")
    from pdfs import make_pdf

    pdf = tmp_path / "book.pdf"
    labels = "/PageLabels << /Nums [0 << /S /r >> 2 << /S /D /St 12 >>] >>"
    pdf.write_bytes(make_pdf(["Preface text.", "More preface.", "Chapter one text."], labels))
    library = PaperLibrary(tmp_path / "lib", embedder=None)
    library.add(pdf)
    pdf.unlink()
    done = library.reindex(with_pages=True)
    assert done.pages == ()
    assert (
        "book: its stored pages are kept: the pdf file it was read from is not at"
        in (done.warnings[0])
    )
    assert [p.label for p in library.pages("book")] == ["i", "ii", "12"]  # printed labels kept


def test_a_reindex_that_fails_before_its_commit_leaves_the_library_as_it_was(
    tmp_path: Path, paper: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import citecheck.papers.store as store

    library = PaperLibrary(tmp_path / "lib", embedder=HashingEmbedder())
    library.add(paper)
    before = snapshot(tmp_path / "lib")

    def die(*args: object, **kwargs: object) -> None:
        raise OSError("the disk is full")

    monkeypatch.setattr(store, "write_bytes_atomic", die)
    with pytest.raises(OSError, match="the disk is full"):
        library.reindex(with_pages=True)
    assert snapshot(tmp_path / "lib") == before
    monkeypatch.undo()
    assert PaperLibrary(tmp_path / "lib", embedder=None).chunks("stoker2022")


def test_reindex_without_an_embedder_drops_the_old_vectors_and_says_so(
    tmp_path: Path, paper: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    PaperLibrary(tmp_path / "lib", embedder=HashingEmbedder()).add(paper)
    capsys.readouterr()
    assert (
        main(["papers", "reindex", "--library", str(tmp_path / "lib"), "--embedder", "none"]) == 0
    )
    assert "no vectors (no embedder: they are made when the library is opened with one)" in (
        capsys.readouterr().out
    )
    entry = manifest(tmp_path / "lib")["papers"]["stoker2022"]
    assert "vectors" not in entry["files"]
    assert entry["vectors_by"] is None


def test_reindex_needs_an_existing_library(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(["papers", "reindex", "--library", str(tmp_path / "none"), "--embedder", "none"])
    assert code == 2
    assert "no library at" in capsys.readouterr().err
    assert not (tmp_path / "none").exists()


# -- validate --semantic / --no-semantic ------------------------------------------------------


@pytest.fixture
def hashed(tmp_path: Path, paper: Path) -> PaperLibrary:
    library = PaperLibrary(tmp_path / "lib", embedder=HashingEmbedder())
    library.add(paper)
    return library


def test_validate_searches_by_vector_by_default_and_not_with_semantic_off(
    hashed: PaperLibrary,
) -> None:
    pytest.importorskip("bm25s")
    claim = "Telecommuting lessens supervisory oversight."  # no word of the paper
    default = hashed.validate("stoker2022", claim)
    on = hashed.validate("stoker2022", claim, semantic=True)
    off = hashed.validate("stoker2022", claim, semantic=False)
    assert [m["by"] for m in default.details["matches"]] == ["bm25", "vector"]
    assert default.details["matches"][1]["text"]  # the vector finds the closest passage
    assert default.details["matches"] == on.details["matches"]
    assert off.status is Status.UNSUPPORTED
    assert off.reason.endswith("shares a word with the claim (vector search is off)")
    assert off.details["matches"] == [
        {"by": "bm25", "none": "no passage shares a word with the claim"},
        {"by": "vector", "none": "not searched: vector search is off"},
    ]


def test_a_sentence_after_a_page_marker_is_cited_with_its_own_section(
    hashed: PaperLibrary,
) -> None:
    """The sentence that carries the claim starts at the page marker and heading before it,
    which no chunk holds: its section is the one it stands in, not the first chunk's."""
    result = hashed.validate("stoker2022", "The corpus was annotated by 32 people", 2)
    assert result.status is Status.VERIFIED
    assert result.reason.startswith("supported in 'stoker2022', p. 2 (Results): ")


def test_semantic_search_needs_an_embedder(tmp_path: Path, paper: Path) -> None:
    library = PaperLibrary(tmp_path / "lib", embedder=None)
    library.add(paper)
    with pytest.raises(ConfigError, match=r"vector search \(semantic\) needs an embedder"):
        library.validate("stoker2022", "Managers delegate more.", semantic=True)
    assert library.validate("stoker2022", "Managers delegate more.").status is Status.UNCHECKED


def test_the_semantic_options_of_the_command(
    tmp_path: Path,
    paper: Path,
    fake_embedder: None,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    pytest.importorskip("bm25s")
    library = str(tmp_path / "lib")
    assert main(["papers", "add", str(paper), "--library", library]) == 0
    claim = "Telecommuting lessens supervisory oversight."
    capsys.readouterr()
    code = main(["validate", "stoker2022", claim, "--library", library, "--no-semantic", "--json"])
    assert code == 1
    matches = json.loads(capsys.readouterr().out)["results"][0]["details"]["matches"]
    assert matches[1] == {"by": "vector", "none": "not searched: vector search is off"}
    code = main(["validate", "stoker2022", claim, "--library", library, "--semantic", "--json"])
    matches = json.loads(capsys.readouterr().out)["results"][0]["details"]["matches"]
    assert matches[1]["by"] == "vector"
    assert matches[1]["text"]
    monkeypatch.undo()  # the real --embedder: none
    argv = ["validate", "stoker2022", claim, "--library", library, "--semantic"]
    assert main([*argv, "--embedder", "none"]) == 2
    assert "needs an embedder" in capsys.readouterr().err


# -- 2. validate says the BM25 match, the vector match and the qualifying passages ------------


def test_validate_prints_both_matches_the_qualifying_passage_and_the_revision(
    tmp_path: Path, paper: Path, fake_embedder: None, capsys: pytest.CaptureFixture[str]
) -> None:
    library = str(tmp_path / "lib")
    assert main(["papers", "add", str(paper), "--library", library]) == 0
    capsys.readouterr()
    claim = "Managers perceive they delegate more."
    assert main(["validate", "stoker2022", claim, "--page", "1", "--library", library]) == 0
    out = capsys.readouterr().out
    assert out.startswith(
        "Claim: \u201cManagers perceive they delegate more.\u201d [@stoker2022, p. 1]\n\n"
        "VALIDATION RESULT: SUPPORTED\n"
    )
    passage = "\u201cManagers perceive they delegate more when employees work from home.\u201d\n"
    bm25 = out.index("BM25 Match")
    vector = out.index("Vector Match [p. 1] (Introduction):\n")
    qualifying = out.index(
        "Qualifying [p. 2]:\n  \u201cEmployees do not agree that managers delegate more.\u201d\n"
        "  \u2192 the source has the negation 'not'"
    )
    assert bm25 < vector < qualifying
    assert passage in out[vector:qualifying]
    assert "\u2713" in out[vector:qualifying]
    if HAS_BM25:
        assert out[bm25:].startswith("BM25 Match [p. 1] (Introduction):\n")
        assert passage in out[bm25:vector]
        assert "\u2192 supports the claim: " in out[bm25:vector]
        assert "\u2713" in out[bm25:vector]
    else:  # could not search by words: said, never "none found"
        assert out[bm25:].startswith("BM25 Match: none (could not search: 'bm25s' is not")
    claim = "The corpus was annotated by 32 people over six months."
    assert main(["validate", "stoker2022", claim, "--page", "2", "--library", library]) == 1
    out = capsys.readouterr().out
    assert "VALIDATION RESULT: CONTRADICTED\n" in out
    assert "\u2192 contradicts the claim: " in out
    assert "\u2717" in out
    assert "Fix: the claim has the number 'six months' where the source has '32', 'three" in out
    assert out.endswith(
        "Suggested revision:\n  \u201cThe corpus was annotated by 32 people over three "
        "months.\u201d [@stoker2022, p. 2]\n"
    )


def test_a_result_without_passages_is_said_with_its_fix(
    tmp_path: Path, paper: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    library = str(tmp_path / "lib")
    assert main(["papers", "add", str(paper), "--library", library, "--embedder", "none"]) == 0
    capsys.readouterr()
    argv = ["validate", "ghost", "A claim.", "--library", library, "--embedder", "none"]
    assert main(argv) == 1
    assert capsys.readouterr().out.splitlines() == [
        "Claim: \u201cA claim.\u201d [@ghost]",
        "",
        "VALIDATION RESULT: NOT FOUND",
        "  not_found 0.00: the paper library has no paper 'ghost' (keys: 'stoker2022')",
        "",
        "Fix: add the paper as 'ghost' (citecheck papers add FILE --key ghost), or fix the key",
    ]


# -- 3. a FAISS file beside the .npy vectors --------------------------------------------------


def test_a_library_keeps_a_faiss_file_searched_and_written_again_with_its_vectors(
    tmp_path: Path, paper: Path
) -> None:
    pytest.importorskip("faiss")
    from citecheck.papers.vectors import FaissFile

    folder = tmp_path / "lib"
    library = PaperLibrary(folder, embedder=HashingEmbedder(), faiss=True)
    library.add(paper)
    first = library.faiss_file
    assert first is not None
    assert first.is_file()
    listed = manifest(folder)["faiss"]
    assert listed["held"] == [
        ["stoker2022", manifest(folder)["papers"]["stoker2022"]["files"]["vectors"]["name"], 5]
    ]
    # a library opened later, with no option, searches the file and keeps it up to date
    reopened = PaperLibrary(folder, embedder=HashingEmbedder())
    assert isinstance(reopened.searcher().index, FaissFile)
    plain = PaperLibrary(folder, embedder=HashingEmbedder(), faiss=False)  # the .npy in memory
    assert not isinstance(plain.searcher().index, FaissFile)
    query = "managers control employees from home"
    assert [(h.key, h.chunk, h.cosine) for h in reopened.search(query, mode="vector")] == [
        (h.key, h.chunk, h.cosine) for h in plain.search(query, mode="vector")
    ]
    other = tmp_path / "lee.txt"
    other.write_text("First page on delegation.\fSecond page on control.\n", encoding="utf-8")
    reopened.add(other)
    second = reopened.faiss_file
    assert second is not None
    assert second != first
    assert not first.exists()
    assert [row[0] for row in manifest(folder)["faiss"]["held"]] == ["stoker2022", "lee"]
    hits = reopened.search("second page on control", k=1, mode="vector")
    assert (hits[0].key, hits[0].page_start) == ("lee", 2)
    done = reopened.reindex()
    assert done.faiss is not None
    assert Path(done.faiss) != second
    assert not second.exists()
    reopened.remove("lee")
    assert [row[0] for row in manifest(folder)["faiss"]["held"]] == ["stoker2022"]
    # another embedder makes the vectors again, and the FAISS file with them
    renamed = CountingEmbedder("another-model")
    again = PaperLibrary(folder, embedder=renamed)
    assert isinstance(again.searcher().index, FaissFile)
    assert manifest(folder)["faiss"]["embedder"] == "another-model"
    assert reopened.reindex(faiss=False).faiss is None
    assert "faiss" not in manifest(folder)
    assert not list((folder / "papers").glob("*.faiss"))


def test_the_faiss_file_is_written_in_the_commit_of_its_vectors(
    tmp_path: Path, paper: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pytest.importorskip("faiss")
    import citecheck.papers.store as store

    folder = tmp_path / "lib"
    library = PaperLibrary(folder, embedder=HashingEmbedder(), faiss=True)
    library.add(paper)
    before = snapshot(folder)

    def die(*args: object, **kwargs: object) -> None:
        raise OSError("killed")

    monkeypatch.setattr(store, "write_bytes_atomic", die)
    with pytest.raises(OSError, match="killed"):
        library.reindex()
    assert snapshot(folder) == before  # the new FAISS file and vectors were removed


def test_a_changed_faiss_file_is_named(tmp_path: Path, paper: Path) -> None:
    pytest.importorskip("faiss")
    folder = tmp_path / "lib"
    library = PaperLibrary(folder, embedder=HashingEmbedder(), faiss=True)
    library.add(paper)
    file = library.faiss_file
    assert file is not None
    file.write_bytes(file.read_bytes()[:-8] + b"\0" * 8)
    with pytest.raises(SavedIndexError, match=r"vectors\.faiss"):
        PaperLibrary(folder, embedder=HashingEmbedder()).search("managers", mode="vector")


def test_without_faiss_installed_a_search_reads_the_npy_and_a_change_is_refused(
    tmp_path: Path, paper: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pytest.importorskip("faiss")
    import citecheck.papers.library as library_module
    from citecheck.errors import MissingDependencyError
    from citecheck.papers.vectors import FaissFile

    folder = tmp_path / "lib"
    PaperLibrary(folder, embedder=HashingEmbedder(), faiss=True).add(paper)
    before = snapshot(folder)

    def missing() -> None:
        raise MissingDependencyError("faiss-cpu", "faiss")

    real = library_module.find_spec
    monkeypatch.setattr(library_module, "find_spec", lambda n: None if n == "faiss" else real(n))
    monkeypatch.setattr(library_module, "import_faiss", missing)
    library = PaperLibrary(folder, embedder=HashingEmbedder())
    assert not isinstance(library.searcher().index, FaissFile)
    assert library.search("annotated by 32 people", k=1, mode="vector")[0].page_start == 2
    other = tmp_path / "lee.txt"
    other.write_text("One page.\n", encoding="utf-8")
    with pytest.raises(ConfigError, match=r"keeps a FAISS file .*'faiss-cpu' is not installed"):
        library.add(other)
    assert snapshot(folder) == before
    library.reindex(faiss=False)  # turning it off needs no faiss
    assert "faiss" not in manifest(folder)


def test_papers_reindex_faiss_writes_the_file_and_says_so(
    tmp_path: Path, paper: Path, fake_embedder: None, capsys: pytest.CaptureFixture[str]
) -> None:
    pytest.importorskip("faiss")
    library = tmp_path / "lib"
    assert main(["papers", "add", str(paper), "--library", str(library)]) == 0
    capsys.readouterr()
    assert main(["papers", "reindex", "--faiss", "--library", str(library)]) == 0
    out = capsys.readouterr().out.splitlines()
    [file] = (library / "papers").glob("library.*.vectors.faiss")
    assert out[1] == f"  FAISS file: {file}"
    assert main(["papers", "reindex", "--no-faiss", "--library", str(library)]) == 0
    assert capsys.readouterr().out.splitlines()[1] == "  no FAISS file"
    assert not file.exists()


def test_repair_from_the_copy_survives_a_lost_faiss_file(tmp_path: Path, paper: Path) -> None:
    pytest.importorskip("faiss")
    folder = tmp_path / "lib"
    library = PaperLibrary(folder, embedder=HashingEmbedder(), faiss=True)
    library.add(paper)
    file = library.faiss_file
    assert file is not None
    file.unlink()
    (folder / "manifest.json").unlink()
    repaired = PaperLibrary.repair(folder)
    assert (repaired.how, repaired.keys) == ("copy", ("stoker2022",))  # nothing else lost
    assert manifest(folder)["faiss"]["file"] is None  # still kept: written at the next change
    reopened = PaperLibrary(folder, embedder=HashingEmbedder())
    assert reopened.reindex().faiss is not None


# -- the console examples of docs/papers.md ---------------------------------------------------


def _console_blocks(page: str) -> list[list[str]]:
    """The lines of each ``console`` block of a docs page."""
    blocks = page.split("```console\n")[1:]
    return [block.split("```", 1)[0].splitlines() for block in blocks]


def _commands(lines: list[str]) -> list[tuple[str, list[str]]]:
    """Each ``$ command`` of a console block with the lines it prints (or, for ``cat``, the
    file's lines)."""
    out: list[tuple[str, list[str]]] = []
    for line in lines:
        if line.startswith("$ "):
            out.append((line[2:], []))
        else:
            out[-1][1].append(line)
    return out


def _said(expected: str, printed: str) -> bool:
    """Whether ``printed`` is ``expected``, where ``...`` in a line stands for any text."""
    pattern = ".*?".join(re.escape(part) for part in expected.split("..."))
    return re.fullmatch(pattern, printed) is not None


def test_the_console_examples_of_the_papers_page_print_what_it_says(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """docs/papers.md's ``validate`` and ``papers reindex`` examples, run in order: the file
    the page shows, the model it names (all-MiniLM-L6-v2's int8 ONNX build) and the shipped
    judge."""
    for module in ("onnxruntime", "tokenizers", "bm25s", "faiss"):
        pytest.importorskip(module)
    page = (Path(__file__).parents[1] / "docs" / "papers.md").read_text(encoding="utf-8")
    blocks = _console_blocks(page)
    validating = next(b for b in blocks if any("citecheck validate " in line for line in b))
    reindexing = next(b for b in blocks if any("papers reindex" in line for line in b))
    monkeypatch.chdir(tmp_path)
    for command, said in _commands(validating) + _commands(reindexing):
        argv = shlex.split(command)
        if argv[0] == "cat":
            Path(argv[1]).write_text("\n".join(said) + "\n", encoding="utf-8")
            continue
        assert argv[0] == "citecheck"
        capsys.readouterr()
        main(argv[1:])
        printed = capsys.readouterr().out.rstrip("\n").split("\n")
        assert len(printed) == len(said), (command, printed)
        for expected, line in zip(said, printed, strict=True):
            assert _said(expected, line), (command, expected, line)


# -- a claim that carries its own citation ------------------------------------------------------


@pytest.mark.parametrize(
    ("written", "checked"),
    [
        ("@stoker2022 found that managers delegate more.", "found that managers delegate more."),
        ("Managers delegate more [@stoker2022, p. 2].", "Managers delegate more."),
        ("Managers delegate more (@stoker2022 [p. 2]).", "Managers delegate more."),
        ("As @stoker2022b shows, they do.", "As @stoker2022b shows, they do."),  # another key
        ("Write to me@stoker2022.org.", "Write to me@stoker2022.org."),  # no citation
    ],
)
def test_a_claim_is_checked_without_the_citation_of_its_own_paper(
    written: str, checked: str
) -> None:
    from citecheck.papers.validation import without_own_citation

    assert without_own_citation(written, "stoker2022") == checked


def test_validate_reads_a_claim_written_with_its_key_as_the_claim_alone(
    hashed: PaperLibrary,
) -> None:
    """The seed's "@stoker2022 toont aan dat …": the key is the citation, not a name the paper
    must give (before: contradicted, "the claim names 'stoker2022'")."""
    pytest.importorskip("bm25s")
    claim = "managers perceive that they delegate more when their employees work from home"
    alone = hashed.validate("stoker2022", claim)
    keyed = hashed.validate("stoker2022", f"@stoker2022 found that {claim}")
    assert keyed.status is alone.status
    assert keyed.details["support"] == alone.details["support"]
    assert "stoker2022'" not in keyed.reason.replace("in 'stoker2022'", "")
