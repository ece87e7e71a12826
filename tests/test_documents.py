from __future__ import annotations

import pytest

from citecheck import Document, InputError, LocationError, SourceError, Span, split_sources
from citecheck.documents import as_documents

FORTY_LINES = "\n".join(f"line {n}" for n in range(1, 41)) + "\n"


def test_lines_are_one_based_and_inclusive() -> None:
    doc = Document("d", FORTY_LINES)
    assert doc.line_count == 40
    span = doc.resolve("L2-3")
    assert doc.text[span.start : span.end] == "line 2\nline 3"
    last = doc.resolve("L40")
    assert doc.text[last.start : last.end] == "line 40"


def test_a_line_past_the_end_is_a_location_error() -> None:
    with pytest.raises(LocationError, match="40 lines"):
        Document("d", FORTY_LINES).resolve("L900")


def test_crlf_line_endings_are_not_part_of_the_line() -> None:
    doc = Document("d", "one\r\ntwo\r\n")
    span = doc.resolve("L1")
    assert doc.text[span.start : span.end] == "one"


def test_page_markers_number_pages_by_their_label() -> None:
    doc = Document("paper", "[PAGE:208]\nFirst page text.\n[PAGE:209]\nSecond page text.\n")
    assert [p.number for p in doc.page_list] == [208, 209]
    span = doc.resolve("p. 209")
    assert "Second page text." in doc.text[span.start : span.end]
    assert "First" not in doc.text[span.start : span.end]
    both = doc.resolve("pp. 208-209")
    assert both == Span(0, len(doc.text))
    with pytest.raises(LocationError, match=r"no p\. 3 \(pages 208-209\)"):
        doc.resolve("p3")


def test_form_feeds_are_page_breaks_numbered_from_one() -> None:
    doc = Document("d", "page one\fpage two")
    span = doc.resolve("p2")
    assert doc.text[span.start : span.end] == "page two"


def test_from_pages_keeps_labels_and_offsets() -> None:
    doc = Document.from_pages("book", ["alpha", "beta", "gamma"], first_page=208)
    span = doc.resolve("p. 209")
    assert doc.text[span.start : span.end] == "beta"
    assert doc.page_at(span.start) == 209
    with pytest.raises(LocationError):
        doc.resolve("p1")


def test_a_document_without_pages_cannot_resolve_a_page() -> None:
    with pytest.raises(LocationError, match="no page numbers"):
        Document("d", "plain text").resolve("p1")


MARKDOWN = """# Introduction
Intro text.

## Background
Background text.

# 2. Methods
Method text.

```
# not a heading
```
"""


def test_sections_by_slug_title_prefix_and_number() -> None:
    doc = Document.from_markdown("paper", MARKDOWN)
    intro = doc.resolve("sec-intro")
    assert doc.text[intro.start : intro.end].startswith("# Introduction")
    assert "Background text." in doc.text[intro.start : intro.end]  # subsections included
    assert "Method text." not in doc.text[intro.start : intro.end]
    methods = doc.resolve("§ Methods")
    assert doc.text[methods.start : methods.end].startswith("# 2. Methods")
    assert doc.resolve("sec-methods") == methods
    assert doc.resolve("§ 2") == methods
    assert doc.resolve("sec-background").start == MARKDOWN.index("## Background")
    assert [s.title for s in doc.sections] == ["Introduction", "Background", "2. Methods"]


def test_an_unknown_section_names_the_known_ones() -> None:
    with pytest.raises(LocationError, match="'Introduction'"):
        Document.from_markdown("paper", MARKDOWN).resolve("sec-results")


def test_transcript_times_resolve_to_their_segment() -> None:
    doc = Document.from_transcript(
        "talk", [(0, 60, "Welcome."), (60, 150, "Budgets rose."), (150, 200, "Bye.")]
    )
    span = doc.resolve("2:15")
    assert doc.text[span.start : span.end] == "Budgets rose."
    wide = doc.resolve("0:30-2:40")
    assert doc.text[wide.start : wide.end] == "Welcome.\nBudgets rose.\nBye."
    with pytest.raises(LocationError, match="past the end"):
        doc.resolve("01:02:03")


def test_character_ranges_are_python_slices() -> None:
    doc = Document("d", "0123456789")
    assert doc.resolve("c2-5") == Span(2, 5)
    with pytest.raises(LocationError, match="past the end"):
        doc.resolve("c5-50")


def test_evidence_is_annotated_with_page_line_and_section() -> None:
    doc = Document("d", "[PAGE:4]\n# Results\nThe effect was large.\n")
    start = doc.text.index("The effect")
    evidence = doc.evidence(start, start + 10, 1.0, "exact")
    assert (evidence.page, evidence.line, evidence.section) == (4, 3, "Results")
    assert evidence.text == "The effect"


def test_bad_documents_are_source_errors() -> None:
    with pytest.raises(SourceError, match="bytes"):
        Document("d", b"raw")  # type: ignore[arg-type]
    with pytest.raises(SourceError, match="non-empty"):
        Document("", "text")
    with pytest.raises(InputError):
        Document.from_transcript("t", [(5, 1, "backwards")])


def test_split_sources_keeps_offsets_into_the_combined_text() -> None:
    combined = "Content from a.md\nAlpha text.\nContent from b.md:\nBeta text.\n"
    docs = split_sources(combined)
    assert [d.id for d in docs] == ["a.md", "b.md"]
    for doc in docs:
        offset = doc.metadata["offset"]
        assert combined[offset : offset + len(doc.text)] == doc.text
    assert docs[1].text == "Beta text.\n"


def test_split_sources_names_duplicates_and_preamble() -> None:
    docs = split_sources("intro\nContent from x\n1\nContent from x\n2\nContent from \n3")
    assert [d.id for d in docs] == ["source-0", "x", "x-2", "source-3"]


def test_as_documents_rejects_bad_sources_and_never_mutates() -> None:
    sources = {"a": "text", "b": Document("b", "more")}
    snapshot = dict(sources)
    assert list(as_documents(sources)) == ["a", "b"]
    assert sources == snapshot
    with pytest.raises(SourceError, match="bytes"):
        as_documents({"a": b"x"})  # type: ignore[dict-item]
    with pytest.raises(SourceError, match="duplicate"):
        as_documents([Document("a", "x"), Document("a", "y")])
    with pytest.raises(SourceError, match="ids must agree"):
        as_documents({"a": Document("b", "x")})
    with pytest.raises(SourceError, match="single str"):
        as_documents("just text")  # type: ignore[arg-type]
    with pytest.raises(SourceError, match="Document objects"):
        as_documents(["text"])  # type: ignore[list-item]
