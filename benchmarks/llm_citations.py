"""How many of the citations LLM answers write does citecheck read and resolve, per style?

    python benchmarks/llm_citations.py [--before]

Runs the markers door (``citecheck.Verifier``, lexical matchers, ``syntax="auto"``) on every
answer of ``benchmarks/llm_answers/answers.py`` against the four files of
``benchmarks/llm_answers/sources`` (with the titles and the web page's address a caller
knows) and counts, per style: the citations a reader sees, those citecheck **read** (found,
with the locator written), those it **resolved** to the right source, and the answers whose
outcome is a pass although something in them was not read (must be none). ``--before`` runs
the syntaxes of the second wave alone (tip, pandoc, numeric, author–year) for comparison.
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
from collections import Counter, defaultdict
from dataclasses import replace
from pathlib import Path
from typing import Any

HERE = Path(__file__).parent
sys.path.insert(0, str(HERE))

from llm_answers.answers import ANSWERS, SOURCE_METADATA  # noqa: E402

import citecheck  # noqa: E402
from citecheck.documents.files import load_paths  # noqa: E402

BEFORE = ("tip", "pandoc", "numeric", "author_year")


def documents() -> list[citecheck.Document]:
    """The sources as a caller gives them: read from their files, with what is known of each."""
    loaded = load_paths([HERE / "llm_answers" / "sources"]).documents
    listed = loaded.values() if isinstance(loaded, dict) else loaded
    return [replace(d, metadata={**d.metadata, **SOURCE_METADATA.get(d.id, {})}) for d in listed]


def measure(syntax: Any = "auto") -> dict[str, Counter[str]]:
    """Per style: answers, citations expected, read, resolved, unread places expected and
    flagged, and answers that passed with something unread."""
    verifier = citecheck.Verifier(syntax=syntax)
    sources = documents()
    counts: dict[str, Counter[str]] = defaultdict(Counter)
    for answer in ANSWERS:
        count = counts[answer["style"]]
        report = verifier.verify(answer["answer"], sources)
        mapped = {(m.syntax, m.cited): m.source_id for m in report.mappings}
        seen = [
            (r.citation.syntax, r.citation.source_id, r.citation.locator, r.status)
            for r in report.results
        ]
        expected = [tuple(e) for e in answer["expected"]]
        count["answers"] += 1
        count["citations"] += len(expected)
        count["unread expected"] += answer.get("unread", 0)
        count["unread flagged"] += min(report.unread, answer.get("unread", 0))
        for (source_id, locator), found in zip(expected, seen, strict=False):
            syntax_name, cited, written, status = found
            if written == locator:
                count["read"] += 1
                resolved = mapped.get((syntax_name, cited), cited)
                if resolved == source_id and status is not citecheck.Status.NOT_FOUND:
                    count["resolved"] += 1
        count["extra citations"] += max(0, len(seen) - len(expected))
        if report.unread and report.passed:
            count["passed unread"] += 1
        count[f"outcome {report.outcome}"] += 1
    return counts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", action="store_true", help="also the second wave's syntaxes")
    args = parser.parse_args()
    print(f"command: python benchmarks/llm_citations.py{' --before' if args.before else ''}")
    machine = f"{platform.platform()}, {os.cpu_count()} CPUs"
    print(f"machine: {machine}, Python {platform.python_version()}")
    print(f"citecheck {citecheck.__version__}, {len(ANSWERS)} answers")
    runs = [("auto", "auto")] + ([("before", BEFORE)] if args.before else [])
    for label, syntax in runs:
        counts = measure(syntax)
        print(f"\nsyntaxes: {label}")
        print(
            f"{'style':<14} {'answers':>7} {'cited':>6} {'read':>6} {'resolved':>9} "
            f"{'unread':>7} {'flagged':>8} {'passed unread':>14}"
        )
        total: Counter[str] = Counter()
        for style, count in counts.items():
            total.update(count)
            _row(style, count)
        _row("all", total)
        outcomes = ", ".join(
            f"{k[8:]} {v}" for k, v in sorted(total.items()) if k.startswith("outcome")
        )
        print(f"outcomes: {outcomes}; extra citations: {total['extra citations']}")


def _row(style: str, count: Counter[str]) -> None:
    cited = count["citations"] or 1
    print(
        f"{style:<14} {count['answers']:>7} {count['citations']:>6} "
        f"{count['read'] / cited:>6.0%} {count['resolved'] / cited:>9.0%} "
        f"{count['unread expected']:>7} {count['unread flagged']:>8} {count['passed unread']:>14}"
    )


if __name__ == "__main__":
    main()
