"""Hostile and merely large input: time grows linearly with the size, and offsets stay true.

Each case runs at a small and a ten times larger size and compares the work, not its
values: linear growth gives a ratio near 10, quadratic near 100. The work is the processor time
this process spends (``time.process_time``), not the time on the wall: other jobs on a busy
machine delay a run but do not add to its processor time, so a load of 16 on 2 cores leaves
the ratio where a quiet machine puts it. The bound of 30 leaves room for what load still
moves (caches shared with other jobs); the best of a few runs is kept, and a small time is
floored, so that timer noise on a few milliseconds cannot fail a test. Every case here was
quadratic or worse before it was fixed (issue 16), except the first group, which guards what
already held. The sizes a million characters long are in ``benchmarks/hostile.py``.
"""

from __future__ import annotations

import contextlib
import gc
import io
import time
from collections.abc import Callable
from pathlib import Path

import pytest

import citecheck
from citecheck import Document
from citecheck.cli import main
from citecheck.references import ReferenceVerifier, StructureMap, valmiki_ramayana
from citecheck.syntax.scan import is_link_label

SMALL = 10_000
MAX_RATIO = 30.0
FLOOR = 0.005
"""Seconds: a small size that runs faster than this is timed as this."""


def _best(run: Callable[[], object], repeats: int) -> float:
    """The least processor time of ``repeats`` runs, with the cyclic garbage collector paused:
    its passes cost more as live objects pile up, which is the collector's growth, not the
    code's."""
    best = float("inf")
    gc.collect()
    gc.disable()
    try:
        for _ in range(repeats):
            start = time.process_time()
            run()
            best = min(best, time.process_time() - start)
    finally:
        gc.enable()
    return best


def assert_linear(
    make: Callable[[int], Callable[[], object]], small: int = SMALL, factor: int = 10
) -> None:
    """``make(size)`` gives the call to time on input of about ``size`` characters."""
    make(small)()  # warm caches and lazy imports
    little = max(_best(make(small), 3), FLOOR)
    large = _best(make(small * factor), 2)
    ratio = large / little
    assert ratio < MAX_RATIO * factor / 10, (
        f"{small} -> {small * factor} characters: {little:.4f} s -> {large:.4f} s ({ratio:.0f}x)"
    )


def repeat(unit: str, size: int) -> str:
    return (unit * (size // len(unit) + 1))[:size]


def verify_answer(answer: str, sources: dict[str, str]) -> Callable[[], object]:
    return lambda: citecheck.verify(answer, sources)


# -- what held already: guards -------------------------------------------------------------

HELD = {
    "open brackets": "[",
    "double brackets": "[[",
    "bracket at": "[@",
    "numeric markers": "x [1] ",
    "tip markers": "a [[d]] ",
    "nul bytes": "a\x00 ",
    "rtl and zero width": "\u05d0\u200f\u200b\u202e ",
}


@pytest.mark.parametrize("unit", HELD.values(), ids=HELD.keys())
def test_hostile_answer_stays_linear(unit: str) -> None:
    assert_linear(lambda n: verify_answer(repeat(unit, n) + " [[d]]", {"d": "a source."}))


def test_deep_nesting_stays_linear() -> None:
    assert_linear(lambda n: verify_answer("[" * (n // 2) + "]" * (n // 2), {"d": "x"}))


# -- what was quadratic --------------------------------------------------------------------


@pytest.mark.parametrize("run", [" -", " ", "\u2014"], ids=["dashes", "spaces", "em dashes"])
def test_punctuation_between_two_markers(run: str) -> None:
    """A marker, a long run of punctuation or spaces, a word, a marker: the pattern for
    markers that share a claim backtracked through the run (100k characters took minutes)."""
    assert_linear(
        lambda n: verify_answer(f"A claim [1]{repeat(run, n)}\n\nx [2] end.", {"1": "A claim."})
    )


def test_punctuation_between_two_references() -> None:
    scheme = valmiki_ramayana()
    verifier = ReferenceVerifier(scheme, StructureMap(scheme, {"Bala": [10] * 10}))
    assert_linear(
        lambda n: lambda: verifier.verify(f"A claim [Bala 1.1]{repeat(' -', n)}x [Bala 1.2].")
    )


def test_one_quote_in_many_sections() -> None:
    """A quote found in every section: each found place looked its section up in all."""

    def make(size: int) -> Callable[[], object]:
        sections = "".join(
            f"{'#' * (1 + i % 3)} S{i}\n\nw{i} alpha beta.\n\n" for i in range(size // 25)
        )
        return lambda: citecheck.verify(
            '"alpha beta." [[d]]', [Document.from_markdown("d", sections)]
        )

    assert_linear(make, small=30_000)


def test_page_citations_into_many_pages() -> None:
    """One citation per page: resolving each page built a table of all pages."""

    def make(size: int) -> Callable[[], object]:
        count = size // 30
        source = Document.from_pages("d", [f"Words on page {i}." for i in range(1, count + 1)])
        answer = " ".join(f"Words on page {i} [[d:p{i}]]." for i in range(1, count + 1))
        return lambda: citecheck.verify(answer, [source])

    assert_linear(make, small=30_000)


def test_line_of_link_label_lookalikes() -> None:
    """``[1]: x`` many times on one line: each looked back to the start of its line. The
    quadratic part is a fast scan: the next test shows it."""
    assert_linear(lambda n: lambda: citecheck.extract(repeat("[1]: ", n)), small=30_000)


def test_a_link_label_costs_the_same_on_a_long_line() -> None:
    """What made that line quadratic, measured where timing can show it: telling whether
    ``[1]:`` opens its line looked back to the line's start, so the cost of one label grew
    with the line (the scan is fast, so the whole line shows it only from a megabyte on)."""

    def label_at_end(size: int) -> Callable[[], object]:
        text = repeat("[1]: ", size)
        start = text.rindex("[")
        return lambda: [is_link_label(text, start, start + 3) for _ in range(300)]

    short, long = (max(_best(label_at_end(size), 3), 1e-4) for size in (100_000, 1_000_000))
    assert long / short < 3, f"{short:.5f} s -> {long:.5f} s"


def test_refs_coverage_with_many_references(tmp_path: Path) -> None:
    """Each reference's line number counted the newlines before it."""

    def make(size: int) -> Callable[[], object]:
        path = tmp_path / f"answer-{size}.txt"
        line = "See [Bala Kanda 1.1] and Bala 9 x.y here.\n"
        path.write_text(repeat(line, size), encoding="utf-8")

        def run() -> None:
            with contextlib.redirect_stdout(io.StringIO()):
                main(["refs", "coverage", str(path)])

        return run

    assert_linear(make, small=30_000)


@pytest.mark.parametrize("where", ["source", "quote"])
def test_alternating_combining_marks(where: str) -> None:
    """Unicode normalisation sorts a run of combining marks in quadratic time."""

    def make(size: int) -> Callable[[], object]:
        marks = "a" + repeat("\u0301\u0316", size)
        if where == "source":
            return verify_answer('"word end" [[d]]', {"d": f"word {marks} end"})
        return verify_answer(f'"{marks}" [[d]]', {"d": "plain words"})

    assert_linear(make)


def test_joined_author_year_citations() -> None:
    """In-text citations joined to each other: each followed the chain to its end."""
    assert_linear(lambda n: lambda: citecheck.extract(repeat("Smith (2020) ", n) + "found it."))


HOSTILE_RUNS = {
    "full stops": ("A claim" + "{run}" + " [1].", "."),
    "superscripts": ("word" + "{run}" + "a [1].", "\u00b9"),
    "spaces before a year": ("Smith" + "{run}" + "x (2020) [1].", " "),
    "spaces in an ellipsis quote": ('"a' + "{run}" + 'b ... c" [1].', " "),
    "superscripts after brackets": ("(" + "{run}" + " [1].", "word)\u00b9 "),
}


@pytest.mark.parametrize(("template", "unit"), HOSTILE_RUNS.values(), ids=HOSTILE_RUNS.keys())
def test_long_runs_in_an_answer(template: str, unit: str) -> None:
    """Patterns that retried a failed match from every character of a long run."""
    assert_linear(
        lambda n: verify_answer(template.format(run=repeat(unit, n)), {"1": "A claim. a b c"})
    )


# -- offsets -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "noise", ["\x00", "\u200b\u200f", "\u0301\u0316" * 40, "  -- ", "[[", "\u202e"]
)
def test_offsets_stay_true_around_hostile_text(noise: str) -> None:
    source = f"{noise * 50}The exact words stand here.{noise * 50}"
    answer = f'{noise * 20}"The exact words stand here." [[d]]{noise * 20}'
    report = citecheck.verify(answer, {"d": source})
    (result,) = report.results
    assert result.status == "verified"
    evidence = result.evidence[0]
    assert source[evidence.start : evidence.end] == evidence.text
    assert evidence.text.startswith("The exact words stand here")
    span = result.citation.span
    assert answer[span.start : span.end] == "[[d]]"


def test_offsets_stay_true_in_many_sections_and_pages() -> None:
    sections = "".join(f"# S{i}\n\nalpha beta {i}.\n\n" for i in range(2000))
    document = Document.from_markdown("d", sections)
    (result,) = citecheck.verify('"alpha beta 1234." [[d:sec-s1234]]', [document]).results
    assert result.status == "verified"
    evidence = result.evidence[0]
    assert sections[evidence.start : evidence.end].startswith("alpha beta 1234")
    assert evidence.section == "S1234"
    pages = Document.from_pages("p", [f"Words on page {i}." for i in range(1, 3001)])
    (result,) = citecheck.verify('"Words on page 2999." [[p:p2999]]', [pages]).results
    assert result.status == "verified"
    assert result.evidence[0].page == 2999
    found = pages.text[result.evidence[0].start : result.evidence[0].end]
    assert found.startswith("Words on page 2999")


# -- issue 31: shapes that were quadratic ---------------------------------------------------


def test_refs_coverage_on_a_run_of_hyphenated_letters(tmp_path: Path) -> None:
    """The look-alike pattern once restarted at every letter of ``a-a-a-…``."""

    def make(size: int) -> Callable[[], object]:
        path = tmp_path / f"run-{size}.txt"
        path.write_text(repeat("a-", size), encoding="utf-8")

        def run() -> None:
            with contextlib.redirect_stdout(io.StringIO()):
                main(["refs", "coverage", str(path)])

        return run

    assert_linear(make)


def test_footnote_references_to_one_long_note() -> None:
    """Each ``[^1]`` once read its whole note again."""
    assert_linear(lambda n: verify_answer(repeat("[^1]: x\n", n), {"d": "a source."}))


def test_a_section_citation_per_section() -> None:
    """Each section citation once scanned every heading of the source."""

    def make(size: int) -> Callable[[], object]:
        count = size // 40
        source = Document.from_markdown(
            "d", "".join(f"# Part {i}\n\nalpha beta {i}.\n\n" for i in range(count))
        )
        answer = " ".join(f'"alpha beta {i}." [[d:sec-part-{i}]]' for i in range(count))
        return lambda: citecheck.verify(answer, [source])

    assert_linear(make, small=20_000)
