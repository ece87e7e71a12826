"""PDF documents (the ``pdf`` extra). Skipped when pypdf is not installed."""

from __future__ import annotations

from pathlib import Path

import pytest

from pdfs import make_pdf

pytest.importorskip("pypdf")

import citecheck
from citecheck import Document, SourceError, Status

SHARED_PDF = (
    Path(__file__).parents[1]
    / ".."
    / "shared"
    / "data"
    / "pages"
    / "geotopo"
    / "GeoTopo-komprimiert.pdf"
)


def test_pdf_pages_are_numbered_from_one_by_default() -> None:
    doc = Document.from_pdf("paper", make_pdf(["First page words.", "Second page words."]))
    assert [p.number for p in doc.page_list] == [1, 2]
    span = doc.resolve("p2")
    assert "Second page words." in doc.text[span.start : span.end]


def test_printed_page_labels_win_over_file_order() -> None:
    labels = "/PageLabels << /Nums [0 << /S /r >> 1 << /S /D /St 1 >>] >>"
    doc = Document.from_pdf(
        "book", make_pdf(["Preface text.", "Chapter one text.", "More text."], labels)
    )
    assert [p.number for p in doc.page_list] == [1, 2]
    span = doc.resolve("p1")
    assert "Chapter one text." in doc.text[span.start : span.end]
    assert "Preface" in doc.text  # front matter keeps its text but has no page number


def test_first_page_overrides_labels() -> None:
    doc = Document.from_pdf("p", make_pdf(["a text", "b text"]), first_page=208)
    assert [p.number for p in doc.page_list] == [208, 209]


def test_a_quote_on_the_wrong_pdf_page_is_reported_with_the_right_one() -> None:
    doc = Document.from_pdf("paper", make_pdf(["Nothing here.", "The effect was large."]))
    result = citecheck.verify('"The effect was large" [[paper:p1]]', [doc]).results[0]
    assert result.status is Status.WRONG_LOCATION
    assert "found on p. 2, cited p. 1" in result.reason


def test_a_broken_pdf_is_a_source_error() -> None:
    with pytest.raises(SourceError, match="PDF"):
        Document.from_pdf("bad", b"%PDF-1.4 this is not a pdf")


@pytest.mark.skipif(not SHARED_PDF.exists(), reason="shared data not present")
def test_real_lecture_notes_use_printed_page_numbers() -> None:
    doc = Document.from_pdf("geotopo", SHARED_PDF)
    assert len(doc.page_list) >= 100
    first = doc.resolve("p1")
    assert doc.page_at(first.start) == 1
    assert doc.text.index(doc.text[first.start : first.end]) > 0  # front matter comes first
