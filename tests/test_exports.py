"""The report's file formats (citecheck.exports): every format from real reports, escaping of
hostile text, atomic saves, and the shapes the CLI and notebooks rely on."""

from __future__ import annotations

import csv
import html
import io
import json
import os
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import citecheck
from citecheck import exports
from citecheck.errors import ConfigError, MissingDependencyError
from citecheck.model import Citation, Evidence, Result, Span, Status
from citecheck.report import Report

TEXT = '"The sky is blue" [[doc:L1]] and "<script>alert(1)</script>" [[doc:L1]] [[ghost]]'
SOURCES = {"doc": "The sky is blue.\nGrass is green."}
OUR_TAGS = (
    "html head meta title style body header h1 h2 main footer div span a b ul li details "
    "summary p code blockquote mark dl dt dd pre script strong table thead tbody tr th td ol"
).split()
FOREIGN_TAG = re.compile(r"<(?!!DOCTYPE html>|/?(?:" + "|".join(OUR_TAGS) + r")[\s>])")
"""A ``<`` that does not open or close one of the page's own elements: user text let through."""


@pytest.fixture(scope="module")
def report() -> Report:
    return citecheck.verify(TEXT, SOURCES)


def failures(report: Report) -> int:
    return sum(
        1 for r in report.results if r.status not in report.accepted and r.status != "unchecked"
    )


def hand_made(*results: Result, text: str | None = None, **options: object) -> Report:
    return Report(results=results, text=text, **options)  # type: ignore[arg-type]


def result(
    source: str = "doc",
    status: Status = Status.VERIFIED,
    *,
    confidence: float = 1.0,
    span: tuple[int, int] | None = None,
    text_span: tuple[int, int] | None = None,
    excerpt: str | None = "words",
    evidence: tuple[Evidence, ...] = (),
    reason: str = "a reason",
    details: dict[str, object] | None = None,
) -> Result:
    citation = Citation(
        source,
        excerpt=excerpt,
        span=None if span is None else Span(*span),
        text_span=None if text_span is None else Span(*text_span),
        raw=f"[[{source}]]",
    )
    return Result(citation, status, confidence, evidence, reason, details or {})


def evidence(text: str, **options: object) -> Evidence:
    return Evidence("doc", 0, len(text), text, 0.9, "fuzzy", **options)  # type: ignore[arg-type]


def text_panel(page: str) -> str:
    """The citing text as the page shows it, markup removed and entities decoded."""
    match = re.search(r'id="cc-text">(.*?)</div>', page, re.S)
    assert match is not None
    return html.unescape(re.sub(r"<[^>]+>", "", match.group(1)))


# -- every format -----------------------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(exports.FORMATS))
def test_every_format_is_saved_by_its_suffix(report: Report, tmp_path: Path, name: str) -> None:
    if name == "xlsx":
        pytest.importorskip("openpyxl")
    path = tmp_path / f"report{exports.FORMATS[name]}"
    report.save(path)
    assert path.is_file()
    assert path.stat().st_size > 0
    assert sorted(p.name for p in tmp_path.iterdir()) == [path.name]  # no temporary file left
    if name != "xlsx":
        assert path.read_bytes().decode("utf-8") == exports.render(report, name)


@pytest.mark.parametrize(
    ("suffix", "name"),
    [(".markdown", "md"), (".htm", "html"), (".ndjson", "jsonl"), (".HTML", "html")],
)
def test_other_suffixes_and_any_case_name_a_format(suffix: str, name: str) -> None:
    assert exports.format_for(f"out{suffix}") == name


def test_the_format_argument_wins_over_the_suffix(report: Report, tmp_path: Path) -> None:
    path = tmp_path / "report.txt"
    report.save(path, "junit")
    ET.fromstring(path.read_bytes())
    assert exports.format_for("x.json", "Markdown") == "md"


def test_json_is_the_reports_own(report: Report, tmp_path: Path) -> None:
    path = tmp_path / "r.json"
    report.save(path)
    assert json.loads(path.read_text("utf-8")) == report.to_dict()


def test_jsonl_and_csv_have_one_record_per_result(report: Report) -> None:
    lines = report.to_jsonl().splitlines()
    assert [json.loads(line) for line in lines] == [r.to_dict() for r in report.results]
    text = report.to_csv()
    assert text is not None
    table = list(csv.DictReader(io.StringIO(text)))
    assert len(table) == len(report.results)
    assert [row["status"] for row in table] == ["verified", "unsupported", "not_found"]
    assert table[1]["excerpt"] == "<script>alert(1)</script>"
    assert list(table[0]) == exports.columns(report)


def test_csv_goes_to_a_path_a_stream_or_a_projection(report: Report, tmp_path: Path) -> None:
    path = tmp_path / "rows.csv"
    assert exports.to_csv(report, path) is None
    assert path.read_bytes().decode("utf-8") == report.to_csv()
    stream = io.StringIO()
    exports.to_csv(report, stream, columns=("a", "b"), rows=[{"a": 1, "b": [1, 2]}, {"a": 2}])
    assert stream.getvalue().splitlines() == ["a,b", '1,"[1, 2]"', "2,"]


def test_rows_flatten_the_best_evidence_scores_and_details() -> None:
    best = evidence("the passage", scores={"bm25_score": 3.5}, context_before="before ")
    other = evidence("another", scores={"cosine": 0.2})
    details = {"index": 4, "spans": [1, 2], "label": {"a": 1}}
    report = hand_made(
        result(evidence=(best, other), details=details), result("ghost", Status.NOT_FOUND)
    )
    first, second = exports.rows(report)
    assert first["evidence_text"] == "the passage"
    assert first["context"] == "before the passage"
    assert first["score_bm25_score"] == 3.5
    assert "score_cosine" not in first
    assert first["detail_spans"] == "[1, 2]"
    assert first["detail_label"] == '{"a": 1}'
    assert first["detail_index"] == 4
    assert second["evidence_text"] is None
    assert second["score"] is None
    assert exports.columns(report)[-4:] == [
        "detail_index",
        "detail_label",
        "detail_spans",
        "score_bm25_score",
    ]
    assert list(first)[:21] == exports.columns(report)[:21]


# -- a report without citations ---------------------------------------------------------------


def test_a_report_without_citations_in_every_format() -> None:
    report = citecheck.verify("No citation in this text.", SOURCES)
    assert report.results == ()
    assert report.to_jsonl() == ""
    assert (report.to_csv() or "").splitlines() == [",".join(exports.columns(report))]
    assert "No citations were found." in report.to_markdown()
    assert "No citations were found." in report.to_html()
    (case,) = ET.fromstring(report.to_junit()).iter("testcase")
    assert case.get("name") == "no citations"
    assert len(case) == 0
    required = citecheck.verify("No citation in this text.", SOURCES, require_citations=True)
    suite = ET.fromstring(required.to_junit()).find("testsuite")
    assert suite is not None
    assert suite.get("failures") == "1"


# -- JUnit ------------------------------------------------------------------------------------


def test_junit_fails_rejected_results_and_skips_unchecked_ones(report: Report) -> None:
    root = ET.fromstring(report.to_junit())
    suite = root.find("testsuite")
    assert suite is not None
    cases = list(suite.iter("testcase"))
    assert len(cases) == len(report.results) == int(suite.get("tests", "0"))
    failed = [c for c in cases if c.find("failure") is not None]
    assert len(failed) == failures(report) == int(suite.get("failures", "0")) == 2
    assert cases[0].get("name") == "0: doc:L1 The sky is blue"
    assert cases[0].get("classname") == "citecheck.verify"
    failure = failed[1].find("failure")
    assert failure is not None
    assert failure.get("type") == "not_found"
    assert (failure.get("message") or "").startswith("not_found: the cited source 'ghost'")

    unchecked = hand_made(result(status=Status.UNCHECKED, confidence=0.5, reason="backend down"))
    (case,) = ET.fromstring(unchecked.to_junit()).iter("testcase")
    skipped = case.find("skipped")
    assert skipped is not None
    assert skipped.get("message") == "backend down"
    accepted = hand_made(
        result(status=Status.PARTIAL, confidence=0.6),
        accepted={Status.VERIFIED, Status.PARTIAL},
    )
    (case,) = ET.fromstring(accepted.to_junit()).iter("testcase")
    assert len(case) == 0


def test_junit_holds_control_characters_xml_cannot() -> None:
    report = hand_made(
        result(
            "d\x00c",
            Status.PARTIAL,
            confidence=0.4,
            excerpt="bad \x00\x07 bytes",
            reason="reason \x00\x07",
            evidence=(evidence("passage \x00\x07 here"),),
        ),
        warnings=("warned \x1b",),
    )
    root = ET.fromstring(report.to_junit())
    failure = root.find("testsuite/testcase/failure")
    assert failure is not None
    assert failure.get("message") == "partial: reason \ufffd\ufffd"
    assert "passage \ufffd\ufffd here" in (failure.text or "")


# -- Markdown ---------------------------------------------------------------------------------


def test_markdown_escapes_cells_and_says_what_it_shortened() -> None:
    hostile = "a | b\nc <img src=x onerror=alert(1)> & [x](javascript:alert(1)) *bold*"
    long = "word " * 60
    report = hand_made(
        result(excerpt=hostile, reason="why | not\nhere"),
        result("ghost", Status.NOT_FOUND, confidence=0.0, excerpt=long),
        warnings=("a <b>warning</b>",),
    )
    text = report.to_markdown()
    assert "<img" not in text
    assert "<b>" not in text
    escaped = "&lt;img src=x onerror=alert(1)&gt; &amp; \\[x\\](javascript:alert(1)) \\*bold\\*"
    assert escaped in text
    assert "a \\| b c" in text
    assert "why \\| not here" in text
    table = [line for line in text.splitlines() if line.startswith("| ")]
    assert len(table) == 3  # the header and one line per result: no newline split a row
    assert all(line.count(" | ") == 5 for line in table)
    assert "…" in table[2]
    assert len(table[2]) < 250
    assert "shortened to 120 characters" in text
    assert "## Phantom citations\n\n- ghost" in text
    assert "- a &lt;b&gt;warning&lt;/b&gt;" in text


def test_markdown_says_nothing_of_shortening_when_nothing_was(report: Report) -> None:
    text = report.to_markdown()
    assert text.startswith("# citecheck report: verify\n\n**FAIL**: 3 citations")
    assert "shortened" not in text


# -- HTML -------------------------------------------------------------------------------------


def test_html_is_one_self_contained_page(report: Report) -> None:
    page = report.to_html()
    assert page.startswith("<!DOCTYPE html>")
    assert '<meta charset="utf-8">' in page
    assert "default-src &#x27;none&#x27;" in page  # the CSP, escaped in its attribute
    assert not re.search(r"\b(?:src|href)=\"(?!#)", page)  # nothing fetched, only anchors
    assert "http://" not in page
    assert "https://" not in page
    assert "@import" not in page
    assert "<script>alert" not in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert not FOREIGN_TAG.search(page)


def test_html_highlights_every_citation_with_a_span(report: Report) -> None:
    page = report.to_html()
    assert page.count('class="cc-cite ') == sum(r.citation.span is not None for r in report) == 3
    for index, r in enumerate(report):
        assert f'data-result="{index}"' in page
        assert f'class="cc-cite cc-{r.status.value}" data-result="{index}"' in page
    assert text_panel(page) == TEXT  # the text whole, nothing dropped or doubled
    # The excerpt both markers after it vouch for is one tinted stretch naming both.
    assert 'class="cc-claim cc-not_found" data-results="2 1"' in page


def test_html_nests_markers_that_share_or_overlap_a_span() -> None:
    text = "Claim one [1, 2] and two [3][4]."
    report = hand_made(
        result("a", span=(10, 16), text_span=(0, 9)),
        result("b", Status.UNSUPPORTED, confidence=0.1, span=(10, 16), text_span=(0, 9)),
        result("c", Status.PARTIAL, confidence=0.5, span=(25, 28), text_span=(17, 24)),
        result("d", span=(26, 31), text_span=(20, 27)),  # overlaps c's marker and claim
        result("e", span=(31, 31)),  # an empty marker
        result("f", span=(40, 50)),  # past the end of the text
        result("g"),  # no span: in the results list only
        text=text,
    )
    page = report.to_html()
    assert page.count('class="cc-cite ') == 6
    assert all(f'data-result="{i}"' in page for i in range(6))
    assert 'id="cc-r6"' in page
    assert 'data-result="6"' not in page
    assert text_panel(page) == text
    # The worst status innermost: its colour is the one seen.
    outer = '<span class="cc-cite cc-verified" data-result="0" id="cc-c0" tabindex="0" '
    inner = '<span class="cc-cite cc-unsupported" data-result="1" id="cc-c1" tabindex="0" '
    nested = f'{outer}title="verified 1.00: a reason">{inner}title="unsupported 0.10: a reason">'
    assert nested in page


spans = st.tuples(st.integers(0, 40), st.integers(0, 12)).map(lambda p: (p[0], p[0] + p[1]))


@settings(max_examples=150, deadline=None)
@given(
    st.text(alphabet="ab<&\n ", max_size=40),
    st.lists(st.tuples(st.none() | spans, st.none() | spans), max_size=8),
)
def test_any_spans_keep_the_text_whole_and_every_marker(
    text: str, cited: list[tuple[tuple[int, int] | None, tuple[int, int] | None]]
) -> None:
    statuses = list(Status)
    made = hand_made(
        *(
            result(f"s{i}", statuses[i % 6], confidence=0.5, span=span, text_span=claim)
            for i, (span, claim) in enumerate(cited)
        ),
        text=text,
    )
    page = made.to_html()
    assert page.count('class="cc-cite ') == sum(span is not None for span, _ in cited)
    assert text_panel(page) == text


def test_html_shows_evidence_in_context_escaped() -> None:
    passage = evidence(
        "<b>bold</b> \x07 text",
        context_before="x" * 300,
        context_after=" & after",
        page=3,
        line=7,
        section="Intro <i>",
        scores={"match_ratio": 0.87654},
    )
    report = hand_made(
        result(status=Status.PARTIAL, confidence=0.6, evidence=(passage,), details={"n": [1]})
    )
    page = report.to_html()
    assert "<mark>&lt;b&gt;bold&lt;/b&gt; \x07 text</mark> &amp; after</blockquote>" in page
    assert ">…" + "x" * 160 + "<mark>" in page  # the context was cut: an ellipsis says so
    words = hand_made(
        result(evidence=(evidence("mid", context_before="word " * 70, context_after=" end" * 90),))
    )
    match = re.search(r'"cc-passage">(.*?)</blockquote>', words.to_html(), re.S)
    assert match is not None
    shown = match.group(1)
    assert shown.startswith("…word word ")  # cut at word boundaries
    assert shown.endswith(" end end…")
    assert len(shown) <= 2 * (160 + len("…")) + len("<mark>mid</mark>")
    assert "p. 3, section &#x27;Intro &lt;i&gt;&#x27;, line 7" in page
    assert "match_ratio 0.877" in page
    assert "<dt>n</dt><dd>[1]</dd>" in page
    assert not FOREIGN_TAG.search(page)


def test_html_opens_failures_only_and_caps_what_it_expands() -> None:
    results = [result(f"s{i}", Status.UNSUPPORTED, confidence=0.1) for i in range(30)]
    report = hand_made(*results, result("ok"))
    page = report.to_html()
    assert '<details class="cc-group" id="cc-g-unsupported" open>' in page
    assert '<details class="cc-group" id="cc-g-verified">' in page
    assert page.count('<details class="cc-result cc-unsupported" id="cc-r') == 30
    assert len(re.findall(r'<details class="cc-result [^"]+" id="cc-r\d+" open>', page)) == 20
    assert "<h2>Text</h2>" not in page  # no citing text


def test_repr_html_caps_the_table_at_fifty_rows() -> None:
    text = " ".join(f'"<i>Sky {i}</i>" [[doc:L1]]' for i in range(60))
    report = citecheck.verify(text, {"doc": "The sky"})
    fragment = report._repr_html_()
    assert fragment.count("<tr><td") == 50
    assert "… and 10 more" in fragment
    assert "<i>" not in fragment
    assert "&lt;i&gt;" in fragment
    small = citecheck.verify(TEXT, SOURCES)._repr_html_()
    assert small.count("<tr><td") == 3
    assert "more" not in small
    assert "<script>alert" not in small


def test_results_and_evidence_render_in_a_notebook() -> None:
    report = citecheck.verify(TEXT, SOURCES)
    verified, _, phantom = report.results
    fragment = verified._repr_html_()
    assert "verified" in fragment
    assert "doc:L1" in fragment
    assert "<mark>The sky is blue</mark>" in fragment
    assert "line 1" in fragment
    assert "characters 0–15" in fragment
    assert "No evidence." in phantom._repr_html_()
    assert "not found" in phantom._repr_html_()
    assert verified.evidence[0]._repr_html_().count("<mark>") == 1


@settings(max_examples=60, deadline=None)
@given(st.text())
def test_user_text_never_becomes_markup(text: str) -> None:
    passage = Evidence("doc", 0, len(text), text, 0.5, "fuzzy", context_after=text)
    made = hand_made(
        result(
            text or "x",
            Status.PARTIAL,
            confidence=0.5,
            excerpt=text,
            reason=text,
            span=(0, len(text)),
            evidence=(passage,),
            details={text: text},
        ),
        text=text,
        warnings=(text,),
    )
    verified = citecheck.verify(f'"{text}" [[doc]] {text}', {"doc": text or "x"})
    for report in (made, verified):
        assert not FOREIGN_TAG.search(report.to_html())
        assert not FOREIGN_TAG.search(report._repr_html_())
        for one in report.results:
            assert not FOREIGN_TAG.search(one._repr_html_())
            for evidence in one.evidence:
                assert not FOREIGN_TAG.search(evidence._repr_html_())
        ET.fromstring(report.to_junit())
    assert text_panel(made.to_html()) == text


# -- tables: Excel and pandas -----------------------------------------------------------------


def test_excel_sorts_for_review_and_never_holds_formulas(tmp_path: Path) -> None:
    openpyxl = pytest.importorskip("openpyxl")
    report = hand_made(
        result("a", excerpt="=HYPERLINK(1)", reason="@sum \x07 bell"),
        result("b", Status.NOT_FOUND, confidence=0.0),
        result("c", Status.PARTIAL, confidence=0.5, excerpt="-1 point"),
        result("d", Status.UNSUPPORTED, confidence=0.0),
    )
    path = tmp_path / "review.xlsx"
    report.to_excel(path)
    book = openpyxl.load_workbook(path)
    sheet = book["results"]
    header = [c.value for c in sheet[1]]
    values = list(sheet.iter_rows(min_row=2, values_only=True))
    assert [row[header.index("source_id")] for row in values] == ["b", "d", "c", "a"]
    last = values[-1]
    assert last[header.index("excerpt")] == "'=HYPERLINK(1)"
    assert last[header.index("reason")] == "'@sum   bell"
    assert values[2][header.index("excerpt")] == "'-1 point"
    assert all(cell.data_type != "f" for row in sheet.iter_rows() for cell in row)
    assert sheet.freeze_panes == "A2"
    assert sheet["A1"].font.bold
    letter = sheet.cell(row=1, column=header.index("reason") + 1).column_letter
    assert sheet.column_dimensions[letter].width == 80
    assert sheet[f"{letter}2"].alignment.wrap_text
    assert sheet.column_dimensions["A"].width == 15
    summary = dict(book["summary"].iter_rows(min_row=2, values_only=True))
    assert summary["total"] == 4
    assert summary["count_not_found"] == 1
    assert summary["outcome"] == "FAIL"


def test_excel_takes_a_projection_and_its_text_columns(report: Report, tmp_path: Path) -> None:
    openpyxl = pytest.importorskip("openpyxl")
    path = tmp_path / "q.xlsx"
    rows = [{"quote": "b", "confidence": 0.9}, {"quote": "a", "confidence": 0.1}]
    exports.to_excel(
        report, path, columns=["quote", "confidence"], rows=rows, sheet="quotes",
        summary_sheet="stats", text_columns=("quote",),
    )  # fmt: skip
    book = openpyxl.load_workbook(path)
    assert book.sheetnames == ["quotes", "stats"]
    assert [r[0] for r in book["quotes"].iter_rows(min_row=2, values_only=True)] == ["a", "b"]
    assert book["quotes"].column_dimensions["A"].width == 80


def test_excel_and_pandas_name_the_extra_when_missing(
    report: Report, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "openpyxl", None)
    monkeypatch.setitem(sys.modules, "pandas", None)
    with pytest.raises(MissingDependencyError, match=r"pycitecheck\[excel\]"):
        report.to_excel(tmp_path / "x.xlsx")
    with pytest.raises(MissingDependencyError, match=r"pycitecheck\[pandas\]"):
        report.to_pandas()
    assert list(tmp_path.iterdir()) == []


def test_to_pandas_has_a_row_per_result_and_every_column(report: Report) -> None:
    pytest.importorskip("pandas")
    frame = report.to_pandas()
    assert frame.shape == (3, len(exports.columns(report)))
    assert list(frame.columns) == exports.columns(report)
    assert list(frame["status"]) == ["verified", "unsupported", "not_found"]


# -- saving -----------------------------------------------------------------------------------


def test_save_refuses_a_missing_folder_and_a_folder(report: Report, tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="does not exist"):
        report.save(tmp_path / "missing" / "report.html")
    (tmp_path / "out.html").mkdir()
    with pytest.raises(ConfigError, match="is a folder"):
        report.save(tmp_path / "out.html")
    assert [p.name for p in tmp_path.iterdir()] == ["out.html"]
    assert list((tmp_path / "out.html").iterdir()) == []


def test_save_refuses_an_unknown_format(report: Report, tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match=r"report\.docx.*json, jsonl, csv, xlsx, md, html, junit"):
        report.save(tmp_path / "report.docx")
    with pytest.raises(ConfigError, match="'pdf'"):
        report.save(tmp_path / "report.json", "pdf")
    with pytest.raises(ConfigError, match="file, not text"):
        exports.render(report, "xlsx")
    assert list(tmp_path.iterdir()) == []


def test_a_save_that_fails_leaves_the_old_file_whole(
    report: Report, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    target = tmp_path / "report.html"
    report.save(target)
    before = target.read_bytes()

    def refuse(*args: object) -> None:
        raise OSError("disk full")

    monkeypatch.setattr(os, "replace", refuse)
    with pytest.raises(OSError, match="disk full"):
        citecheck.verify('"Grass is green" [[doc:L2]]', SOURCES).save(target)
    assert target.read_bytes() == before
    assert [p.name for p in tmp_path.iterdir()] == ["report.html"]


def test_quote_reports_have_no_text_to_highlight() -> None:
    pytest.importorskip("bm25s")
    report = citecheck.verify_quotes(["The sky is blue", "pigs fly <b>"], SOURCES)
    page = report.to_html()
    assert "<h2>Text</h2>" not in page
    assert 'class="cc-cite' not in page
    assert page.count('<details class="cc-result') == 2
    assert not FOREIGN_TAG.search(page)


def test_import_citecheck_stays_light() -> None:
    code = (
        "import sys, citecheck; assert 'citecheck.exports' not in sys.modules; "
        "import citecheck.exports; "
        "assert not {'pandas', 'openpyxl'} & set(sys.modules), sorted(sys.modules)"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


def test_shared_passages_mark_the_right_words_after_an_emoji() -> None:
    """The page's script slices the stored stretches of a source with JavaScript's
    ``String.slice``, which counts UTF-16 units: an emoji or a mathematical letter is two of
    them, so the offsets written for it must count that way too."""
    from citecheck.exports._html import RESULTS_PAGE, _passage

    source = "".join(f"Sentence {i} has an emoji 😀 and math 𝑥 here. " for i in range(400))
    results = []
    for i in range(150):
        needle = f"Sentence {i} has"
        start = source.index(needle)
        end = start + len(needle)
        evidence = Evidence(
            "s",
            start,
            end,
            source[start:end],
            0.9,
            "fuzzy",
            context_before=source[max(0, start - 300) : start],
            context_after=source[end : end + 300],
        )
        citation = Citation("s", excerpt=needle)
        results.append(Result(citation, Status.UNSUPPORTED, 0.1, (evidence,), "r"))
    page = Report(tuple(results)).to_html()
    blob = re.search(r'<script type="application/json" id="cc-data">(.*?)</script>', page, re.S)
    assert blob is not None
    data = json.loads(blob.group(1))

    def js_slice(text: str, start: int, end: int) -> str:
        units = text.encode("utf-16-le")
        return units[2 * start : 2 * end].decode("utf-16-le")

    shared = 0
    for item in data["groups"]["unsupported"]:
        passage = item[8][0]
        if not isinstance(passage[1], int):
            continue
        shared += 1
        stretch = data["texts"][passage[1]]
        marked = js_slice(stretch, passage[3], passage[4])
        assert marked == _passage(results[item[0]].evidence[0])[2]
    assert shared == 150 - RESULTS_PAGE


def test_csv_escapes_cells_a_spreadsheet_would_run_as_formulas() -> None:
    """A quoted excerpt or claim may start with ``=``: in a spreadsheet it would run (issue
    31). Escaped by default with an apostrophe; ``formulas="keep"`` writes it as it is."""
    payloads = ['=HYPERLINK("http://x")', "+1+1", "-2+3", "@SUM(A1)", "\tx", "plain text"]
    results = tuple(
        Result(Citation("s", excerpt=payload), Status.VERIFIED, 0.9, reason="ok")
        for payload in payloads
    )
    report = Report(results)
    read = list(csv.DictReader(io.StringIO(report.to_csv())))
    excerpts = [row["excerpt"] for row in read]
    assert excerpts[:5] == ["'" + p for p in payloads[:5]]
    assert excerpts[5] == "plain text"
    assert [row["confidence"] for row in read] == ["0.9"] * 6  # numbers stay numbers
    kept = list(csv.DictReader(io.StringIO(report.to_csv(formulas="keep"))))
    assert [row["excerpt"] for row in kept] == payloads
    with pytest.raises(ConfigError, match="formulas"):
        report.to_csv(formulas="run")  # type: ignore[arg-type]


def test_a_full_disk_names_the_file_it_could_not_write(
    report: Report, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``[Errno 28] No space left on device`` alone names no file (issue 31): every save path
    raises a WriteError (a CitecheckError and an OSError) naming it, and leaves no half file."""
    import errno

    from citecheck import _atomic
    from citecheck.errors import CitecheckError, WriteError
    from citecheck.indexes.memory import MemoryIndex
    from citecheck.indexes.records import Record

    def full(descriptor: int) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(_atomic.os, "fsync", full)
    target = tmp_path / "report.json"
    with pytest.raises(WriteError, match=r"cannot write .*report\.json: No space left") as caught:
        report.save(target)
    assert isinstance(caught.value, CitecheckError)
    assert isinstance(caught.value, OSError)
    assert caught.value.errno == errno.ENOSPC
    assert not target.exists()
    assert [p.name for p in tmp_path.iterdir()] == []  # no temporary file left
    index = MemoryIndex(2)
    index.upsert([Record("a", [1.0, 0.0], {})])
    with pytest.raises(WriteError, match="No space left"):
        index.save(tmp_path / "index")
    missing = tmp_path / "no" / "such" / "folder" / "report.json"
    monkeypatch.undo()
    with pytest.raises(CitecheckError, match=r"report\.json"):
        report.save(missing)
