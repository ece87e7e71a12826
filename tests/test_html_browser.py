"""The HTML report in a real browser (headless Chromium): it renders, highlights every citation,
raises no error, fetches nothing, and runs no script that came in the report's texts.

The page cannot be driven from outside without a driver, so a copy of it gets two small inline
scripts (inline scripts are what its Content-Security-Policy allows): one at the top records
errors and policy violations, one at load counts the highlights, clicks a citation and writes
what it saw into a ``<pre id="cc-test">``, which ``--dump-dom`` hands back."""

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
    probe = PROBE.replace("CLICKED", str(clicked))
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
            path.as_uri(),
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
