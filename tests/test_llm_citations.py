"""The citations LLM answers write: OpenAI file-search markers, sources named in brackets,
footnotes, numbered lists of sources; file-name resolution; and an answer that looks cited but
of which nothing could be read is never a pass."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import citecheck
from citecheck.syntax import extract_citations
from citecheck.syntax.file_search import FileSearchSyntax
from citecheck.syntax.footnotes import FootnoteSyntax
from citecheck.syntax.source_names import NamedSourceSyntax

ROOT = Path(__file__).parents[1]
CLAIM = "Drug A lowered blood pressure by 12 mmHg"
TRIAL = citecheck.Document(
    "trial", f"Enrolment of 120 adults.\f{CLAIM} after eight weeks.", {"path": "in/trial.pdf"}
)
NOTES = citecheck.Document("notes", "The centrifuge was calibrated.", {"path": "in/notes.md"})
SOURCES = [TRIAL, NOTES]


def cited(text: str, syntax: object = "auto") -> list[tuple[str, str | None, str]]:
    found, _ = extract_citations(text, syntax, known_ids={"trial", "notes"})  # type: ignore[arg-type]
    return [(c.source_id, c.locator, c.syntax) for c in found]


# -- each style is read ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (f"{CLAIM}【4:0†trial.pdf】.", [("trial.pdf", None, "openai")]),
        (f"{CLAIM}【4:0†trial.pdf†L10-L20】.", [("trial.pdf", "L10-L20", "openai")]),
        (f"{CLAIM} 【12†notes.md】.", [("notes.md", None, "openai")]),
        (f"{CLAIM} (trial.pdf, p. 2).", [("trial.pdf", "p. 2", "source")]),
        (f"{CLAIM} (trial.pdf p. 2).", [("trial.pdf", "p. 2", "source")]),
        (f"{CLAIM} [trial.pdf: pp. 2-3].", [("trial.pdf", "pp. 2-3", "source")]),
        (f"{CLAIM} (see trial.pdf).", [("trial.pdf", None, "source")]),
        (f"{CLAIM} [Source: trial, page 2].", [("trial", "page 2", "source")]),
        (f"{CLAIM} (Ref: trial).", [("trial", None, "source")]),
        (
            f"{CLAIM} (Sources: trial.pdf, p. 2; see also notes.md).",
            [("trial.pdf", "p. 2", "source"), ("notes.md", None, "source")],
        ),
        (
            f"{CLAIM} (Source: Hypertension trial report, p. 2).",
            [("Hypertension trial report", "p. 2", "source")],
        ),
        (f"{CLAIM}.[^1]\n\n[^1]: trial.pdf, p. 2\n", [("trial.pdf", "p. 2", "footnote")]),
        (f"{CLAIM}.[^a]\n\n[^a]: Source: trial, page 2.\n", [("trial", "page 2", "footnote")]),
        (f"{CLAIM}.[^1]\n\n[^1]: trial, p. 2\n", [("trial", "p. 2", "footnote")]),
        (f"{CLAIM}.[^1]\n\n[^1]: See [[trial:p2]].\n", [("trial", "p2", "footnote")]),
        (
            f"{CLAIM}.[^1]\n\n[^1]: https://example.org/trial\n",
            [("https://example.org/trial", None, "footnote")],
        ),
        (f"{CLAIM} [1].\n\nSources:\n1. trial.pdf\n", [("1", None, "numeric")]),
    ],
)
def test_each_style_is_read(text: str, expected: list[tuple[str, str | None, str]]) -> None:
    assert cited(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "It costs (2 mg) less (see p. 2) in 【注意】 (v1.2) and (e.g. this) (Node.js).",
        "A remark.[^1]\n\n[^1]: I think so.\n",
        "Mail (jane@example.com) or see (March 2020).",
        "Run `cat (trial.pdf, p. 2)` and this:\n```\n(trial.pdf)\n```\n",
        "A link [trial.pdf](https://example.org/trial.pdf).",
    ],
)
def test_prose_code_and_links_are_no_citations(text: str) -> None:
    found, warnings = extract_citations(text)
    assert found == []
    assert warnings == []


def test_a_footnote_note_is_read_not_checked() -> None:
    text = f"{CLAIM}.[^1]\n\n[^1]: See [[trial:p2]] and @notes.\n"
    found, warnings = extract_citations(text, known_ids={"trial", "notes"})
    # the note's own markers are the footnote's sources, not citations of the note's words
    assert [(c.source_id, c.locator, c.syntax, c.raw) for c in found] == [
        ("trial", "p2", "footnote", "[^1]"),
        ("notes", None, "footnote", "[^1]"),
    ]
    assert {c.claim for c in found} == {f"{CLAIM}."}
    assert warnings == []


def test_an_author_and_year_in_a_note_is_matched_by_the_sources_authors() -> None:
    smith = citecheck.Document("s1", f"{CLAIM}.", {"author": "Smith", "year": 2020})
    text = f"{CLAIM}.[^1]\n\n[^1]: Smith (2020).\n"
    report = citecheck.verify(text, [smith, NOTES])
    assert [(r.citation.syntax, r.status.value) for r in report.results] == [
        ("footnote", "verified")
    ]
    assert report.mappings[0].source_id == "s1"


def test_an_openai_placeholder_is_reported_never_read() -> None:
    found, warnings = extract_citations(f"{CLAIM}【4:0†source】.")
    assert found == []
    assert "placeholder" in warnings[0]
    assert "characters 40-52" in warnings[0]


# -- file names resolve -----------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        f"{CLAIM} [[trial.pdf:p. 2]].",
        f"{CLAIM}【4:0†trial.pdf】.",
        f"{CLAIM} (trial.pdf, p. 2).",
        f"{CLAIM} (TRIAL.PDF, p. 2).",
        f"{CLAIM} [Source: Trial, p. 2].",
        f"{CLAIM}.[^1]\n\n[^1]: trial.pdf, p. 2\n",
    ],
)
def test_a_source_cited_by_its_file_name_is_that_source(text: str) -> None:
    report = citecheck.verify(text, SOURCES)
    assert [r.status.value for r in report.results] == ["verified"]
    assert report.mappings[0].source_id == "trial"
    assert report.mappings[0].by in ("file name", "id")
    assert report.outcome == "PASS"


def test_a_file_of_another_extension_is_the_source_of_that_name() -> None:
    report = citecheck.verify(f"{CLAIM} (trial.docx, p. 2).", SOURCES)
    assert report.results[0].status.value == "verified"
    assert report.mappings[0].describe().endswith("by the source's file name")


def test_a_url_names_the_source_with_that_url() -> None:
    page = citecheck.Document("page", f"{CLAIM}.", {"url": "https://example.org/trial/"})
    report = citecheck.verify(f"{CLAIM} [Source: https://example.org/trial].", [page])
    assert report.results[0].status.value == "verified"
    assert report.mappings[0].by == "url"


def test_a_name_that_fits_several_sources_is_unchecked_not_a_guess() -> None:
    twins = [
        citecheck.Document("a", f"{CLAIM}.", {"path": "x/trial.pdf"}),
        citecheck.Document("b", f"{CLAIM}.", {"path": "y/trial.pdf"}),
    ]
    result = citecheck.verify(f"{CLAIM} (trial.pdf).", twins).results[0]
    assert result.status.value == "unchecked"
    assert "'a', 'b'" in result.reason


def test_a_description_matches_a_title_and_an_unknown_one_is_not_a_phantom_guess() -> None:
    titled = citecheck.Document("t1", f"{CLAIM}.", {"title": "Hypertension trial report"})
    report = citecheck.verify(f"{CLAIM} (Source: Hypertension trial report).", [titled])
    assert report.results[0].status.value == "verified"
    assert report.mappings[0].by == "description"
    # a source nothing is known about could be the work described: unchecked, not not_found
    bare = citecheck.verify(f"{CLAIM} (Source: Another report).", [NOTES]).results[0]
    assert bare.status.value == "unchecked"


def test_a_phantom_suggests_the_nearest_source() -> None:
    result = citecheck.verify(f"{CLAIM} [[trail.pdf:p. 2]].", SOURCES).results[0]
    assert result.status.value == "not_found"
    assert result.reason.endswith("did you mean 'trial' (trial.pdf)?")
    far = citecheck.verify(f"{CLAIM} [[zebra]].", SOURCES).results[0]
    assert "did you mean" not in far.reason


# -- nothing read is never a pass -------------------------------------------------------------


@pytest.mark.parametrize("required", [False, True])
@pytest.mark.parametrize(
    "text",
    [
        f"{CLAIM}【4:0†source】.",
        f"{CLAIM} [Smith 2020].",
        f"{CLAIM}.[^1]\n\n[^1]: As discussed in 2020.\n",
        f"{CLAIM} [[trial",
    ],
)
def test_citation_like_text_with_nothing_read_is_unchecked(text: str, required: bool) -> None:
    report = citecheck.verify(text, SOURCES, require_citations=required)
    assert report.results == ()
    assert report.unread >= 1
    assert report.outcome == "UNCHECKED"
    assert report.summary()["unread"] == report.unread
    assert report.to_dict()["outcome"] == "UNCHECKED"


def test_a_text_without_anything_citation_like_keeps_its_outcome() -> None:
    assert citecheck.verify(f"{CLAIM}.", SOURCES).outcome == "PASS"
    assert citecheck.verify(f"{CLAIM}.", SOURCES, require_citations=True).outcome == "FAIL"


def test_unread_places_beside_read_citations_leave_the_outcome_to_the_results() -> None:
    report = citecheck.verify(f"{CLAIM} (trial.pdf, p. 2). Also [Smith 2020].", SOURCES)
    assert report.unread == 1
    assert report.outcome == "PASS"
    assert any("[Smith 2020]" in w for w in report.warnings)


def test_the_command_line_exits_3_for_an_answer_it_could_not_read(tmp_path: Path) -> None:
    (tmp_path / "trial.txt").write_text(f"Enrolment.\f{CLAIM}.\n", encoding="utf-8")
    answer = tmp_path / "answer.md"
    answer.write_text(f"{CLAIM}【4:0†source】.\n", encoding="utf-8")
    for extra in ([], ["--require-citations"]):
        run = subprocess.run(
            [
                sys.executable,
                "-m",
                "citecheck",
                "verify",
                str(answer),
                str(tmp_path / "trial.txt"),
                *extra,
            ],
            capture_output=True,
            text=True,
            check=False,
        )
        assert run.returncode == 3, run.stderr
        assert "1 citation-like place unread (see the warnings)" in run.stdout
        assert "UNCHECKED" in run.stdout
    answer.write_text(f"{CLAIM} (trial.txt, p. 2).\n", encoding="utf-8")
    run = subprocess.run(
        [sys.executable, "-m", "citecheck", "verify", str(answer), str(tmp_path / "trial.txt")],
        capture_output=True,
        text=True,
        check=False,
    )
    assert run.returncode == 0, run.stdout + run.stderr


# -- the set of LLM answers (benchmarks/llm_answers) ------------------------------------------


def test_every_citation_of_the_llm_answers_is_read_and_resolved() -> None:
    sys.path.insert(0, str(ROOT / "benchmarks"))
    try:
        from llm_citations import measure  # type: ignore[import-not-found]
    finally:
        sys.path.remove(str(ROOT / "benchmarks"))
    counts = measure()
    assert set(counts) >= {"openai", "file name", "source label", "footnote", "numbered list"}
    total = sum(c["answers"] for c in counts.values())
    assert total >= 40
    for style, count in counts.items():
        assert count["read"] == count["citations"], style
        assert count["resolved"] == count["citations"], style
        assert count["unread flagged"] == count["unread expected"], style
        assert count["passed unread"] == 0, style
        assert count["extra citations"] == 0, style


# -- the parsers never crash, and their spans are the text's ----------------------------------

PIECES = st.sampled_from(
    [
        "【",
        "】",
        "†",
        "4:0",
        "source",
        "trial.pdf",
        "(",
        ")",
        "[",
        "]",
        "[^1]",
        "[^1]:",
        "\n",
        ", p. 2",
        "Source:",
        ";",
        " ",
        "see also ",
        "L10-L20",
        "`",
        "https://x.org",
        "notes",
        ".",
    ]
)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.one_of(PIECES, st.text(max_size=4)), max_size=30).map("".join))
def test_the_llm_syntaxes_never_crash_and_give_the_texts_spans(text: str) -> None:
    for syntax in (FileSearchSyntax(), NamedSourceSyntax(), FootnoteSyntax({"notes"})):
        for marker in syntax.scan(text):
            assert text[marker.span.start : marker.span.end] == marker.raw
            assert (marker.error is None) == bool(marker.references)
    found, _ = extract_citations(text, known_ids={"notes"})
    for citation in found:
        assert citation.span is not None
        assert text[citation.span.start : citation.span.end] == citation.raw
