"""Hostile-input benchmark: time at 10k, 100k and 1M characters per case, and memory.

The cases are those of ``tests/test_hostile.py`` (issue 16), at sizes too long for CI: a run of
punctuation between two markers, one quote in a Markdown document of many sections, a page
citation per page of a long paged source, a line of ``[1]: x`` link-label look-alikes,
``refs coverage`` over many references, alternating combining marks, and the inputs that held
already (``[``, ``[[``, ``[@``, markers, NUL bytes, RTL and zero-width text). Linear growth
reads as a ratio near 10 from one size to the next. The memory figure is the peak resident
size of building a :class:`~citecheck.Document` from a source of ``--memory-mb`` megabytes of
English-like words and verifying one quote in it (exact and fuzzy matching), in a child process
so that nothing else counts: once cited where it stands, once cited at the first thousand
characters, so that it is searched for in the whole source (found elsewhere).

Run from the repository root::

    PYTHONPATH=src python benchmarks/hostile.py [--sizes 10000,100000,1000000] [--cases NAME]
        [--memory-mb 50] [--out FILE.json]
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import random
import resource
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from itertools import pairwise
from pathlib import Path
from typing import Any

from _machine import machine

import citecheck
from citecheck import Document
from citecheck.cli import main as cli_main


def repeat(unit: str, size: int) -> str:
    return (unit * (size // len(unit) + 1))[:size]


def _coverage_of(unit: str) -> Callable[[int], Callable[[], object]]:
    """``citecheck refs coverage`` of a file of ``unit`` repeated to the size."""

    def make(size: int) -> Callable[[], object]:
        path = Path(tempfile.mkdtemp()) / "answer.txt"
        path.write_text(repeat(unit, size), "utf-8")

        def run() -> None:
            with contextlib.redirect_stdout(io.StringIO()):
                cli_main(["refs", "coverage", str(path)])

        return run

    return make


def _section_citations(size: int) -> Callable[[], object]:
    count = size // 40
    text = "".join(f"# Part {i}\n\nalpha beta {i}.\n\n" for i in range(count))
    source = Document.from_markdown("d", text)
    answer = " ".join(f'"alpha beta {i}." [[d:sec-part-{i}]]' for i in range(count))
    return lambda: citecheck.verify(answer, [source])


def _sections(size: int) -> Callable[[], object]:
    text = "".join(f"{'#' * (1 + i % 3)} S{i}\n\nalpha beta.\n\n" for i in range(size // 25))
    return lambda: citecheck.verify('"alpha beta." [[d]]', [Document.from_markdown("d", text)])


def _pages(size: int) -> Callable[[], object]:
    count = size // 30
    source = Document.from_pages("d", [f"Words on page {i}." for i in range(1, count + 1)])
    answer = " ".join(f"Words on page {i} [[d:p{i}]]." for i in range(1, count + 1))
    return lambda: citecheck.verify(answer, [source])


def _answer_of(unit: str) -> Callable[[int], Callable[[], object]]:
    return lambda n: lambda: citecheck.verify(repeat(unit, n), {"d": "a source."})


def _answer(unit: str) -> Callable[[int], Callable[[], object]]:
    return lambda n: lambda: citecheck.verify(repeat(unit, n) + " [[d]]", {"d": "a source."})


CASES: dict[str, Callable[[int], Callable[[], object]]] = {
    "dashes between two markers": lambda n: (
        lambda: citecheck.verify(f"A claim [1]{repeat(' -', n)}\n\nx [2] end.", {"1": "A claim."})
    ),
    "one quote, many sections": _sections,
    "a page citation per page": _pages,
    "line of [1]: x look-alikes": lambda n: lambda: citecheck.extract(repeat("[1]: x ", n)),
    "refs coverage": _coverage_of("See [Bala Kanda 1.1] and Bala 9 x.y here.\n"),
    "refs coverage on a-a-a-…": _coverage_of("a-"),
    "footnote references to one note": _answer_of("[^1]: x\n"),
    "a section citation per section": _section_citations,
    "alternating combining marks": lambda n: (
        lambda: citecheck.verify(
            '"word end" [[d]]', {"d": "word a" + repeat("\u0301\u0316", n) + " end"}
        )
    ),
    "joined author-year citations": lambda n: (
        lambda: citecheck.extract(repeat("Smith (2020) ", n) + "found it.")
    ),
    "1 MB of [": _answer("["),
    "[[": _answer("[["),
    "[@": _answer("[@"),
    "markers [1]": _answer("x [1] "),
    "NUL bytes": _answer("a\x00 "),
    "RTL and zero-width": _answer("\u05d0\u200f\u200b\u202e "),
}


def best(run: Callable[[], object], repeats: int) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return min(times)


def source_text(size: int, seed: int = 1) -> str:
    rng = random.Random(seed)
    letters = "abcdefghijklmnopqrstuvwxyz"
    words = ["".join(rng.choices(letters, k=rng.randint(2, 9))) for _ in range(5000)]
    parts, length = [], 0
    while length < size:
        sentence = " ".join(rng.choices(words, k=rng.randint(5, 20))).capitalize() + ". "
        parts.append(sentence)
        length += len(sentence)
    return "".join(parts)[:size]


def memory_child(megabytes: int, where: str = "") -> None:
    """Run in a child: build the source, then measure the document and one verify of a quote
    cited at ``where`` (a location, or the whole source)."""
    size = megabytes * 1_000_000
    text = source_text(size)
    middle = text[size // 2 : size // 2 + 200]
    quote = middle[middle.index(" ") + 1 : middle.rindex(" ")]
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    start = time.perf_counter()
    document = Document("d", text)
    answer = f'"{quote}" [[d{where and ":" + where}]]'
    report = citecheck.verify(answer, [document], matchers=("exact", "fuzzy"))
    seconds = time.perf_counter() - start
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    print(
        json.dumps(
            {
                "source_bytes": size,
                "status": report.results[0].status,
                "seconds": round(seconds, 2),
                "peak_rss_bytes": peak,
                "rss_before_bytes": before,
                "growth_over_source": round((peak - before) / size, 1),
            }
        )
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="10000,100000,1000000")
    parser.add_argument("--repeats", type=int, default=3, help="best of R at the smaller sizes")
    parser.add_argument("--memory-mb", type=int, default=50, help="0 skips the memory figure")
    parser.add_argument("--out", type=Path)
    parser.add_argument("--cases", default="", help="only the cases whose names hold this")
    parser.add_argument("--memory-child", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--memory-where", default="", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.memory_child:
        memory_child(args.memory_child, args.memory_where)
        return 0
    sizes = [int(s) for s in args.sizes.split(",")]
    results: dict[str, Any] = {
        "command": " ".join([Path(sys.executable).name, *sys.argv]),
        "machine": machine(),
        "cases": {},
    }
    print(f"# {results['command']}\n# {results['machine']}")
    print(f"{'case':32}" + "".join(f"{size:>12,}" for size in sizes) + "   ratios")
    for name, make in CASES.items():
        if args.cases not in name:
            continue
        make(sizes[0])()  # warm-up: lazy imports, caches
        times = [best(make(size), args.repeats if size < 1_000_000 else 1) for size in sizes]
        ratios = [later / max(earlier, 1e-4) for earlier, later in pairwise(times)]
        results["cases"][name] = {"sizes": sizes, "seconds": times, "ratios": ratios}
        row = "".join(f"{t:>11.3f}s" for t in times)
        print(f"{name:32}{row}   " + " ".join(f"{r:.1f}x" for r in ratios), flush=True)
    for key, where in (("memory", ""), ("memory_found_elsewhere", "c0-1000")):
        if not args.memory_mb:
            break
        child = subprocess.run(
            [
                sys.executable,
                __file__,
                f"--memory-child={args.memory_mb}",
                f"--memory-where={where}",
            ],
            capture_output=True,
            text=True,
            check=True,
        )
        results[key] = json.loads(child.stdout)
        print(f"{key}: {results[key]}")
    if args.out:
        args.out.write_text(json.dumps(results, indent=2), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
