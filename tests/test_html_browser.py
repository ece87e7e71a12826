"""The HTML report in a real browser (headless Chromium): it renders, highlights every citation,
raises no error, fetches nothing, and runs no script that came in the report's texts.

The page cannot be driven from outside without a driver, so a copy of it gets two small inline
scripts (inline scripts are what its Content-Security-Policy allows): one at the top records
errors and policy violations, one at load counts the highlights, clicks a citation and writes
what it saw into a ``<pre id="cc-test">``, which ``--dump-dom`` hands back.

A large report's results past the first page of each group are data that the page's script
turns into elements: the last tests check that it builds exactly the elements _html.py writes
for the same results, and that a click on a citation whose result is not shown yet shows it."""

from __future__ import annotations

import html
import json
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

import citecheck
from citecheck.exports import _html
from citecheck.model import Citation, Evidence, Result, Span, Status
from citecheck.report import Report

CHROMIUM = shutil.which("chromium")
pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="needs chromium on the PATH")

INJECTED = "<script>document.title='pwned'</script>"
"""Text an LLM may write: it must show as text, never run."""

RECORD_ERRORS = """<script>
window.ccErrors = [];
window.addEventListener("error", function (e) { window.ccErrors.push(String(e.message)); });
document.addEventListener("securitypolicyviolation", function (e) {
  window.ccErrors.push("CSP " + e.violatedDirective + " " + e.blockedURI);
});
</script>"""

PROBE = """<script>
window.addEventListener("load", function () {
  var seen = {
    title: document.title,
    cites: document.querySelectorAll(".cc-cite").length,
    summary: document.querySelector(".cc-bar").textContent,
  };
  try {
    var marker = document.querySelector('.cc-cite[data-result="CLICKED"]');
    marker.click();
    var pop = document.getElementById("cc-pop");
    seen.popoverShown = !pop.hidden;
    seen.popoverLines = pop.querySelectorAll("[data-reveal]").length;
    pop.querySelector("[data-reveal]").click();
    var entry = document.querySelector(".cc-focus");
    seen.revealed = entry ? entry.id : null;
    seen.revealedOpen = entry ? entry.open : null;
    seen.popoverHidden = pop.hidden;
  } catch (error) {
    window.ccErrors.push("probe: " + error);
  }
  seen.errors = window.ccErrors;
  var out = document.createElement("pre");
  out.id = "cc-test";
  out.textContent = JSON.stringify(seen);
  document.body.appendChild(out);
});
</script>"""


def render(page: str, tmp_path: Path, clicked: int = 0) -> tuple[dict[str, Any], str, str]:
    """What the probe saw (having clicked the marker of result ``clicked``, then the first
    line of its popover), the dumped DOM, and the browser's console lines."""
    return run(page, tmp_path, PROBE.replace("CLICKED", str(clicked)))


def run(
    page: str, tmp_path: Path, probe: str, fragment: str = ""
) -> tuple[dict[str, Any], str, str]:
    """The page with the error recorder and ``probe`` (which writes ``#cc-test``) opened in
    Chromium (at ``fragment``): what the probe wrote, the dumped DOM, the console lines."""
    probed = page.replace("<head>", "<head>\n" + RECORD_ERRORS, 1).replace(
        "</body>", probe + "\n</body>", 1
    )
    path = tmp_path / "report.html"
    path.write_text(probed, "utf-8")
    assert CHROMIUM is not None
    done = subprocess.run(
        [
            CHROMIUM,
            "--headless=new",
            "--no-sandbox",
            "--disable-gpu",
            f"--user-data-dir={tmp_path / 'profile'}",
            "--virtual-time-budget=2000",
            "--enable-logging=stderr",
            "--v=0",
            "--dump-dom",
            path.as_uri() + fragment,
        ],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    match = re.search(r'<pre id="cc-test">(.*?)</pre>', done.stdout, re.S)
    assert match is not None, done.stderr[-2000:]
    console = [line for line in done.stderr.splitlines() if "CONSOLE" in line]
    return json.loads(html.unescape(match.group(1))), done.stdout, "\n".join(console)


def hostile_report() -> Report:
    text = (
        f'Smith says "{INJECTED}" [[doc:L2]], and "The sky is blue" [[doc:L1]] [[ghost]]. '
        "A claim with no quote [[doc]]."
    )
    return citecheck.verify(text, {"doc": f"The sky is blue.\n{INJECTED}\nGrass is green."})


def test_the_report_renders_with_every_citation_and_no_error(tmp_path: Path) -> None:
    report = hostile_report()
    seen, dom, console = render(report.to_html(), tmp_path, clicked=2)
    assert seen["errors"] == []
    assert console == ""
    assert "FAIL" in seen["summary"]
    assert "pass rate" in seen["summary"]
    spans = sum(r.citation.span is not None for r in report)
    assert seen["cites"] == spans == len(report) == 4
    assert seen["title"] != "pwned"
    assert "<title>pwned</title>" not in dom
    assert seen["popoverShown"]
    assert seen["popoverLines"] == 1
    assert seen["revealed"] == "cc-r2"
    assert seen["revealedOpen"] is True
    assert seen["popoverHidden"] is True


def test_a_marker_citing_two_sources_shows_both_verdicts(tmp_path: Path) -> None:
    report = citecheck.verify(
        "The sky is blue [@doc; @ghost]. Grass is green [@doc].",
        {"doc": "The sky is blue.\nGrass is green."},
    )
    first, second, _ = report.results
    assert first.citation.span == second.citation.span  # one marker, two results
    seen, _, console = render(report.to_html(), tmp_path, clicked=0)
    assert seen["errors"] == []
    assert console == ""
    assert seen["cites"] == 3
    assert seen["popoverLines"] == 2
    assert seen["revealed"] == "cc-r1"  # the worst first: the phantom source


def test_a_large_report_renders(tmp_path: Path) -> None:
    count = 1000
    text = " ".join(f'"Sentence {i} here" [[doc:L{i + 1}]]' for i in range(count))
    source = "\n".join(f"Sentence {i} here." for i in range(count))
    report = citecheck.verify(text, {"doc": source})
    seen, _, console = render(report.to_html(), tmp_path)
    assert seen["errors"] == []
    assert console == ""
    assert seen["cites"] == count


# -- results the script builds from the page's data -------------------------------------------

LAZY_PROBE = """<script>
window.addEventListener("load", function () {
  var seen = { mismatched: [] };
  try {
    var pop = document.getElementById("cc-pop");
    seen.shownAtLoad = document.querySelectorAll(".cc-result").length;
    seen.moreLines = document.querySelectorAll(".cc-more").length;
    document.querySelector('.cc-cite[data-result="LATE"]').click();
    seen.popoverText = pop.textContent;
    pop.querySelector("[data-reveal]").click();
    var entry = document.querySelector(".cc-focus");
    seen.revealed = entry.id;
    seen.revealedOpen = entry.open;
    seen.revealedText = entry.textContent;
    seen.afterReveal = document.querySelectorAll(".cc-result").length;
    document.querySelector('.cc-more [data-more="more"]').click();
    seen.afterMore = document.querySelectorAll(".cc-result").length;
    document.querySelectorAll('.cc-more [data-more="all"]').forEach(function (button) {
      button.click();
    });
    seen.afterAll = document.querySelectorAll(".cc-result").length;
    seen.moreLeft = document.querySelectorAll(".cc-more").length;
    seen.order = Array.prototype.map.call(document.querySelectorAll(".cc-group"), function (g) {
      return Array.prototype.map.call(g.querySelectorAll(".cc-result"), function (r) {
        return Number(r.id.slice(4));
      });
    });
    var expected = EXPECTED;
    Object.keys(expected).forEach(function (index) {
      var node = document.getElementById("cc-r" + index);
      node.querySelector("summary").click();  // builds its details, and opens it
      node.open = false;
      node.classList.remove("cc-focus");
      var written = document.createElement("template");
      written.innerHTML = expected[index];
      if (!written.content.firstChild.isEqualNode(node)) {
        seen.mismatched.push([index, node.outerHTML, written.innerHTML]);
      }
    });
  } catch (error) {
    window.ccErrors.push("probe: " + error);
  }
  seen.title = document.title;
  seen.errors = window.ccErrors;
  var out = document.createElement("pre");
  out.id = "cc-test";
  out.textContent = JSON.stringify(seen);
  document.body.appendChild(out);
});
</script>"""

HOSTILE = "</script><script>document.title='pwned'</script> & <b>"


def passage(lines: list[str], line: int, seed: int, *, offset: int = 0) -> Evidence:
    """A line of the source as evidence, with a context of a length that varies with ``seed``
    (over :data:`~citecheck.exports._html.CONTEXT_SHOWN` for some), and offsets moved by
    ``offset``."""
    source = "".join(lines)
    start = source.index(lines[line])
    end = start + len(lines[line]) - 1
    return Evidence(
        "doc",
        start + offset,
        end + offset,
        source[start:end],
        0.75,
        "fuzzy",
        line=line + 1,
        section=f"Part {HOSTILE}",
        scores={"fuzzy": 0.7512, "rank": 2},
        context_before=source[max(0, start - 100 * (seed % 4)) : start],
        context_after=source[end : end + 90 * (seed % 3)],
    )


def varied_report(count: int) -> Report:
    """A hand-made report whose results show every part of a result's details: the excerpt or
    the claim, a marker or none, no evidence, one passage with its context cut, passages that
    share their source's text, more than are shown, offsets that do not fit, details, and
    hostile text in all of them."""
    lines = [f"Line {i} of the source, with {HOSTILE} in it.\n" for i in range(count + 10)]
    text = ""
    results = []
    for i in range(count):
        evidence: tuple[Evidence, ...] = ()
        if i % 5 == 1:
            evidence = (passage(lines, i + 5, i),)
        elif i % 5 == 2:
            evidence = tuple(passage(lines, i + k, i) for k in range(5))
        elif i % 5 == 3:  # the first does not fit its offsets
            evidence = (passage(lines, i + 5, i, offset=3), passage(lines, i + 6, i))
        quote = f"Line {i} {HOSTILE}"
        start = len(text) + 1
        text += f'"{quote}" '
        marker = f"[[doc:L{i + 6}]]"
        span = None if i % 7 == 4 else Span(len(text), len(text) + len(marker))
        text += f"{marker} "
        citation = Citation(
            "doc" if i % 6 else f"src {HOSTILE}",
            excerpt=None if i % 4 == 3 else quote,
            claim=quote if i % 4 == 3 else None,
            span=span,
            text_span=Span(start, start + len(quote)),
            raw="" if i % 8 == 5 else marker,
            locator=f"L{i + 6}",
        )
        status = Status.PARTIAL if i % 3 else Status.VERIFIED
        details = {f"key {HOSTILE}": [i, HOSTILE], "n": 1.5} if i % 4 == 2 else {}
        reason = f"reason {i} {HOSTILE}"
        results.append(Result(citation, status, 0.5 + (i % 3) / 10, evidence, reason, details))
    return Report(results=tuple(results), text=text)  # type: ignore[arg-type]


def test_results_past_the_first_page_are_built_as_the_page_writes_them(tmp_path: Path) -> None:
    page_size = _html.RESULTS_PAGE
    report = varied_report(3 * page_size + 40)
    groups = {status: [i for i, r in enumerate(report) if r.status is status] for status in Status}
    later = [i for indices in groups.values() for i in indices[page_size:]]
    assert len(later) > page_size
    late = groups[Status.PARTIAL][page_size + 37]
    assert report.results[late].citation.span is not None
    expected = {i: _html._entry(i, report.results[i], expanded=False) for i in later}
    page = report.to_html()
    assert 'type="application/json" id="cc-data"' in page
    assert "</script><script>document.title" not in page
    probe = LAZY_PROBE.replace("LATE", str(late)).replace(
        "EXPECTED", json.dumps(expected).replace("<", "\\u003c")
    )
    seen, _, console = run(page, tmp_path, probe)
    assert seen["errors"] == []
    assert console == ""
    assert seen["title"] != "pwned"
    assert seen["shownAtLoad"] == sum(min(len(g), page_size) for g in groups.values())
    assert seen["moreLines"] == sum(len(g) > page_size for g in groups.values())
    assert f"#{late} partial" in seen["popoverText"]
    assert seen["revealed"] == f"cc-r{late}"
    assert seen["revealedOpen"] is True
    assert f"reason {late} {HOSTILE}" in seen["revealedText"]
    assert seen["afterReveal"] == seen["shownAtLoad"] + 1
    assert seen["afterMore"] == seen["afterReveal"] + page_size
    assert seen["afterAll"] == len(report)
    assert seen["moreLeft"] == 0
    assert all(ids == sorted(ids) for ids in seen["order"])
    assert seen["mismatched"] == []


def test_a_link_to_a_result_not_shown_yet_opens_it(tmp_path: Path) -> None:
    report = varied_report(_html.RESULTS_PAGE * 2 + 10)
    last = len(report) - 1
    probe = """<script>
window.addEventListener("load", function () {
  var entry = document.querySelector(".cc-focus");
  var out = document.createElement("pre");
  out.id = "cc-test";
  out.textContent = JSON.stringify({
    errors: window.ccErrors, focus: entry ? entry.id : null, open: entry ? entry.open : null
  });
  document.body.appendChild(out);
});
</script>"""
    page = report.to_html()
    seen, _, console = run(page, tmp_path, probe, fragment=f"#cc-r{last}")
    assert seen["errors"] == []
    assert console == ""
    assert seen["focus"] == f"cc-r{last}"
    assert seen["open"] is True
