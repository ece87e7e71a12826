"""Issue 35: LangChain documents whose ``metadata["page"]`` counts from 0 (LangChain's PDF
loaders: ``PyPDFLoader`` gives the first page ``page=0``) are cited by the page a reader sees,
where the chunks show that count; where nothing does, the report says so in a warning. Skipped
without the ``langchain`` extra."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("langchain_core")

from langchain_core.documents import Document as LCDocument

import citecheck
from citecheck import Status
from citecheck.integrations.langchain import CitationCheck, CitecheckTool, PaperLibraryRetriever

EXAMPLES = Path(__file__).parents[1] / "examples"

COVER = "Annual report of the harbour board."
FERRIES = "The board bought two ferries in March."
BUDGET = "The budget rose by four percent."


def chunks(*pages: tuple[str, dict[str, Any]], source: str = "report.pdf") -> list[LCDocument]:
    return [LCDocument(page_content=text, metadata={"source": source, **m}) for text, m in pages]


def page_warnings(report: citecheck.Report) -> list[str]:
    return [w for w in report.warnings if "page" in w]


# -- pages counted from 0 ---------------------------------------------------------------------


def test_an_older_pdf_loaders_pages_from_zero_are_cited_from_one() -> None:
    """An older ``PyPDFLoader`` wrote ``source`` and ``page`` only, the first page as 0: the
    third page of the file (``page=2``) is p. 3, and nothing cites it as p. 2."""
    pdf = chunks((COVER, {"page": 0}), (FERRIES, {"page": 2}))
    report = citecheck.verify('The board "bought two ferries" [[report.pdf:p. 3]].', pdf)
    [result] = report.results
    assert result.status is Status.VERIFIED
    assert result.evidence[0].page == 3
    assert not page_warnings(report)
    [wrong] = citecheck.verify('The board "bought two ferries" [[report.pdf:p. 2]].', pdf).results
    assert wrong.status is not Status.VERIFIED


@pytest.mark.parametrize(
    "metadata",
    [
        # PyMuPDFLoader and the PDF parsers of langchain-community: total_pages and the PDF's
        # own metadata beside a page counted from 0
        {"file_path": "report.pdf", "total_pages": 9, "producer": "pdfTeX", "creator": "LaTeX"},
        # an older PDFPlumberLoader, which kept the PDF's keys as the file spells them
        {"file_path": "report.pdf", "total_pages": 9, "Producer": "Acrobat", "Creator": "Word"},
    ],
    ids=["pymupdf", "pdfplumber"],
)
def test_the_loaders_own_metadata_shows_pages_counted_from_zero(metadata: dict[str, Any]) -> None:
    pdf = chunks((FERRIES, {"page": 4, **metadata}), (BUDGET, {"page": 6, **metadata}))
    report = citecheck.verify('"The budget rose by four percent" [[report.pdf:p. 7]].', pdf)
    [result] = report.results
    assert result.status is Status.VERIFIED
    assert result.evidence[0].page == 7
    assert not page_warnings(report)


def test_a_page_as_high_as_the_count_shows_a_count_from_one() -> None:
    """A loader of its own that writes ``page`` from 1 with ``total_pages``: its last page
    equals the count, so its pages are taken as written."""
    pdf = chunks((FERRIES, {"page": 1, "total_pages": 2}), (BUDGET, {"page": 2, "total_pages": 2}))
    report = citecheck.verify('"The budget rose by four percent" [[report.pdf:p. 2]].', pdf)
    assert report.results[0].status is Status.VERIFIED
    assert not page_warnings(report)


# -- printed page labels ------------------------------------------------------------------------


def test_front_matter_labelled_in_roman_numerals_gets_no_page() -> None:
    """``page_label`` is the printed page. The front matter (``i``, ``ii``) keeps its text but
    no page: before, it took its ``page`` (0, 1) and shared p. 1 with the page printed 1."""
    pdf = chunks(
        ("Preface by the chair.", {"page": 0, "page_label": "i"}),
        ("Thanks to every member of staff.", {"page": 1, "page_label": "ii"}),
        (FERRIES, {"page": 2, "page_label": "1"}),
        (BUDGET, {"page": 3, "page_label": "2"}),
    )
    report = citecheck.verify(
        '"bought two ferries" [[report.pdf:p. 1]]. "every member of staff" [[report.pdf:p. 1]].',
        pdf,
    )
    printed, front = report.results
    assert printed.status is Status.VERIFIED
    assert printed.evidence[0].page == 1
    assert front.status is not Status.VERIFIED
    assert not page_warnings(report)


def test_labels_that_number_no_page_count_pages_from_one_with_a_warning() -> None:
    pdf = chunks(
        (COVER, {"page": 0, "page_label": "i"}),
        (FERRIES, {"page": 1, "page_label": "ii"}),
        (BUDGET, {"page": 2, "page_label": "iii"}),
    )
    report = citecheck.verify('"bought two ferries" [[report.pdf:p. 2]].', pdf)
    assert report.results[0].status is Status.VERIFIED
    [warning] = page_warnings(report)
    assert "'report.pdf'" in warning
    assert "'i', 'ii', 'iii'" in warning
    assert "counted from 1" in warning


# -- where nothing tells ------------------------------------------------------------------------

AMBIGUOUS = chunks((FERRIES, {"page": 3}), (BUDGET, {"page": 4}), source="notes.pdf")


def test_pages_that_may_count_from_zero_or_one_are_taken_as_written_with_a_warning() -> None:
    """No label, no page 0, no loader's metadata: the pages are taken as written, and the
    report (not Python's warnings, which a test suite may turn into errors) says that they may
    be one too low."""
    report = citecheck.verify('"bought two ferries" [[notes.pdf:p. 3]].', AMBIGUOUS)
    [result] = report.results
    assert result.status is Status.VERIFIED
    assert result.evidence[0].page == 3
    [warning] = page_warnings(report)
    assert "'notes.pdf'" in warning
    assert "count from 0" in warning
    assert 'metadata["page_label"]' in warning
    assert warning in report.to_text()


def test_the_warning_reaches_the_chain_step_and_the_tool() -> None:
    pytest.importorskip("bm25s")  # the tool's quote=true runs the quotes door
    answer = '"bought two ferries" [[notes.pdf:p. 3]].'
    report = CitationCheck().invoke({"answer": answer, "documents": AMBIGUOUS})
    assert page_warnings(report)
    tool = CitecheckTool(sources=AMBIGUOUS)
    message = tool.invoke(
        {"type": "tool_call", "id": "1", "name": "citecheck", "args": {"text": answer}}
    )
    assert "warning: the pages of 'notes.pdf'" in message.content
    quote = tool.invoke(
        {
            "type": "tool_call",
            "id": "2",
            "name": "citecheck",
            "args": {"text": "bought two ferries", "quote": True},
        }
    )
    assert quote.artifact.results[0].evidence[0].page == 3
    assert page_warnings(quote.artifact)


def test_verify_quotes_says_what_was_said_about_langchain_sources() -> None:
    pytest.importorskip("bm25s")
    report = citecheck.verify_quotes(["bought two ferries"], AMBIGUOUS)
    assert report.rows[0].evidence[0].page == 3
    assert page_warnings(report)
    derived = citecheck.verify_quotes([FERRIES], [LCDocument(page_content=FERRIES)])
    assert any("no id and no source metadata" in w for w in derived.warnings)


# -- citecheck's own retriever ------------------------------------------------------------------


def test_the_retrievers_pages_are_labelled_as_printed(tmp_path: Path) -> None:
    """The paper library's passages carry ``page_label`` (the printed page), so checking an
    answer against them needs no guess."""
    pytest.importorskip("bm25s")
    library = citecheck.PaperLibrary(tmp_path / "lib", embedder=None, judge=None)
    library.add(EXAMPLES / "papers" / "stoker2022.md")
    passages = PaperLibraryRetriever(library=library, mode="bm25", k=2).invoke(
        "how long the annotation took"
    )
    top = passages[0]
    assert top.metadata["page_label"] == str(top.metadata["page"])
    words = " ".join(top.page_content.split()[:6])
    answer = f'"{words}" [[stoker2022:p. {top.metadata["page"]}]]'
    report = CitationCheck().invoke({"answer": answer, "documents": passages})
    assert report.passed
    assert not page_warnings(report)
