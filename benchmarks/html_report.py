"""HTML report benchmark: how big the page of a 10,000-citation report is, how long it takes to
build, and how long headless Chromium takes to open it, against a 100-citation report.

Each report comes from a real ``citecheck.verify`` run: ``N`` quotations cited by line against
an ``N``-line source, with a mix of verdicts so that the page has failures to open: every 7th
quote has a number changed and every 10th cites a line two lines off (both read as partial, as
the lines look alike), every 25th cites a source that does not exist. The page is built
``--repeat`` times (the fastest counts) and opened in Chromium ``--repeat`` times (the median
counts): the wall time of ``chromium --headless=new --dump-dom`` (browser start included), and
the page's own clock, ``performance.now()`` once the load event has run and a layout has been
forced, written into the DOM by a script appended to a copy of the page. Linear growth reads
as a ratio near 100 from 100 to 10,000 citations.

``--screenshot FILE`` also writes the docs' screenshot of a small example report
(``docs/_static/report.png``).

Run from the repository root::

    PYTHONPATH=src python benchmarks/html_report.py [--sizes 100,10000] [--repeat 3]
        [--out FILE.json] [--screenshot docs/_static/report.png]
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from _machine import machine

import citecheck
from citecheck import Document, Report

CLOCK = """<script>
window.addEventListener("load", function () {
  var height = document.body.offsetHeight;  // forces style and layout of the whole page
  var out = document.createElement("pre");
  out.id = "cc-clock";
  out.textContent = JSON.stringify({
    load_ms: performance.now(),
    cites: document.querySelectorAll(".cc-cite").length,
    height: height,
  });
  document.body.appendChild(out);
});
</script>"""


def report_of(size: int) -> Report:
    """A verify report of ``size`` citations with every kind of failure among them."""
    source = "\n".join(f"Sentence {i} says that {i % 97} samples were taken." for i in range(size))
    quotes = []
    for i in range(size):
        number = i % 97 + (1 if i % 7 == 3 else 0)
        line = i + 1 if i % 10 != 5 else (i + 2) % size + 1
        target = "missing" if i % 25 == 11 else "doc"
        quotes.append(f'"Sentence {i} says that {number} samples" [[{target}:L{line}]]')
    return citecheck.verify(" ".join(quotes), {"doc": source})


def chromium_run(chromium: str, page: Path, profile: Path) -> tuple[float, dict[str, Any]]:
    """Wall seconds of one headless run, and what the page's clock recorded."""
    start = time.perf_counter()
    done = subprocess.run(
        [
            chromium,
            "--headless=new",
            "--no-sandbox",
            "--disable-gpu",
            f"--user-data-dir={profile}",
            "--dump-dom",
            page.as_uri(),
        ],
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    )
    wall = time.perf_counter() - start
    match = re.search(r'<pre id="cc-clock">(.*?)</pre>', done.stdout, re.S)
    if match is None:
        raise SystemExit(f"the page's clock did not run: {done.stderr[-2000:]}")
    return wall, json.loads(match.group(1))


def measure(size: int, repeat: int, chromium: str, folder: Path) -> dict[str, Any]:
    report = report_of(size)
    builds = []
    for _ in range(repeat):
        start = time.perf_counter()
        page = report.to_html()
        builds.append(time.perf_counter() - start)
    path = folder / f"report-{size}.html"
    path.write_text(page.replace("</body>", CLOCK + "\n</body>", 1), "utf-8")
    runs = [chromium_run(chromium, path, folder / f"profile-{size}") for _ in range(repeat)]
    clocks = [clock for _, clock in runs]
    spans = sum(r.citation.span is not None for r in report)
    if any(clock["cites"] != spans for clock in clocks):
        raise SystemExit(f"{size}: the page shows {clocks[0]['cites']} of {spans} citations")
    return {
        "citations": len(report),
        "counts": {k: v for k, v in report.summary()["counts"].items() if v},
        "html_mb": len(page.encode("utf-8")) / 1e6,
        "build_s": min(builds),
        "chromium_wall_s": statistics.median(wall for wall, _ in runs),
        "page_load_ms": statistics.median(clock["load_ms"] for clock in clocks),
    }


COLUMNS = {
    "html_mb": ("HTML (MB)", "{:.2f}"),
    "build_s": ("to_html (s)", "{:.3f}"),
    "page_load_ms": ("page load + layout (ms)", "{:.0f}"),
    "chromium_wall_s": ("chromium wall (s)", "{:.2f}"),
}


def table(results: dict[int, dict[str, Any]]) -> str:
    """A Markdown table: one line per size, then the ratio of the largest to the smallest."""
    sizes = sorted(results)
    lines = [
        "| citations | " + " | ".join(title for title, _ in COLUMNS.values()) + " |",
        "|---:|" + "---:|" * len(COLUMNS),
    ]
    for size in sizes:
        cells = [form.format(results[size][key]) for key, (_, form) in COLUMNS.items()]
        lines.append(f"| {size:,} | " + " | ".join(cells) + " |")
    if len(sizes) > 1:
        small, large = results[sizes[0]], results[sizes[-1]]
        ratios = [f"{large[key] / small[key]:.1f}x" for key in COLUMNS]
        lines.append(f"| ratio {sizes[-1]:,} / {sizes[0]:,} | " + " | ".join(ratios) + " |")
    return "\n".join(lines)


def example_report() -> Report:
    """The docs' example: a partial quote, a wrong page, a verified one and a phantom source."""
    paper = Document.from_pages(
        "smith2020",
        [
            "Methods. The trial enrolled 112 patients across four sites in 2018.",
            "Results. The effect was not significant at the 5% level. "
            "Follow-up lasted two years at every site.",
        ],
    )
    text = (
        'Smith reports that "the trial enrolled 120 patients" [[smith2020:p1]] and that '
        '"the effect was not significant" [[smith2020:p1]]. The follow-up "lasted two years" '
        "[[smith2020:p2]] [[lee2019]]."
    )
    return citecheck.verify(text, [paper])


def screenshot(chromium: str, target: Path, folder: Path) -> None:
    page = folder / "example.html"
    page.write_text(example_report().to_html(), "utf-8")
    subprocess.run(
        [
            chromium,
            "--headless=new",
            "--no-sandbox",
            "--disable-gpu",
            "--hide-scrollbars",
            f"--user-data-dir={folder / 'profile-example'}",
            "--virtual-time-budget=2000",
            f"--screenshot={target}",
            "--window-size=1100,700",
            page.as_uri(),
        ],
        capture_output=True,
        timeout=120,
        check=True,
    )
    print(f"screenshot: {target} ({target.stat().st_size / 1000:.0f} kB)")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="100,10000", help="citations per report")
    parser.add_argument("--repeat", type=int, default=3, help="builds and browser runs per size")
    parser.add_argument("--out", type=Path, help="write the results as JSON here")
    parser.add_argument("--screenshot", type=Path, help="write the docs' screenshot here")
    args = parser.parse_args()
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if chromium is None:
        raise SystemExit("needs chromium on the PATH")
    results: dict[str, Any] = {
        "command": " ".join([Path(sys.executable).name, *sys.argv]),
        "machine": machine(),
        "chromium": subprocess.run(
            [chromium, "--version"], capture_output=True, text=True, check=True
        ).stdout.strip(),
    }
    print(f"# {results['command']}\n# {results['machine']}\n# {results['chromium']}")
    with tempfile.TemporaryDirectory() as folder:
        sizes = [int(s) for s in args.sizes.split(",")]
        measured = {size: measure(size, args.repeat, chromium, Path(folder)) for size in sizes}
        if args.screenshot:
            screenshot(chromium, args.screenshot, Path(folder))
    for size, row in measured.items():
        print(f"# {size:,} citations: {row['counts']}")
    print(table(measured))
    results["sizes"] = {str(size): row for size, row in measured.items()}
    if args.out:
        args.out.write_text(json.dumps(results, indent=2), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
