"""The quotes door's trim methods against each other: ``sliding_bm25`` against ``fuzzy``.

``trim_method="sliding_bm25"`` slides a run of as many words as the quote has over the region
around a window and keeps the run sharing the most words with the quote. It was about 20 times
slower than ``fuzzy`` (issue 35): the run's shared words were counted again at every step, with
a multiset intersection whose size grew with every distinct word the run had passed. It now
counts every run in one pass over the region's words. This benchmark times both methods (and
``hybrid``) on the same quotes and corpus, in the same run, and times the old count too, kept
here only for the comparison, checking that it gives every row the same result as the new one.

The quotes are those of ``quotes.py`` (SQuAD v2.0 dev and XQuAD en/de sentences, perturbed in
the 15 ways of that benchmark, ``--per-variant`` of each), and the corpus is the same contexts
joined by article into 84 documents (about 10,000 characters each, as interview transcripts or
chapters are): the region after an elided quote's first fragment is the rest of its document,
which is where the old count was slowest. Each method's locator runs over every quote once
untimed (its index, and the caches a run fills); the time is the best of ``--repeats`` runs
after that.

Run from the repository root (it needs the ``bm25`` extra and ``../shared/data/quotes``)::

    PYTHONPATH=src:benchmarks python benchmarks/quotes_sliding.py [--per-variant 30]
        [--repeats 3] [--seed S] [--data PATH]
"""

from __future__ import annotations

import argparse
import os
import shlex
import sys
import time
from collections import Counter
from collections.abc import Iterator, Sequence
from contextlib import contextmanager, nullcontext
from pathlib import Path

import quotes as qb
from _machine import machine

from citecheck import Document
from citecheck.documents import as_documents
from citecheck.language.text import WORD
from citecheck.matchers import bm25
from citecheck.matchers.alignment import Alignment
from citecheck.quotes import QuoteLocator, QuoteReport

METHODS = ("fuzzy", "sliding_bm25", "hybrid")
OLD = "sliding_bm25, the old count"


def old_sliding_words(target: str, haystack: str) -> Alignment | None:
    """The count as it was before issue 35, for the comparison only: the shared words of the
    run summed again (``window & wanted``) at every step."""
    from rapidfuzz import fuzz

    wanted = Counter(WORD.findall(target))
    words = list(WORD.finditer(haystack))
    n = sum(wanted.values())
    if not words or not n:
        return None
    n = min(n, len(words))
    window = Counter(m.group() for m in words[:n])
    best_shared, best_at = sum((window & wanted).values()), 0
    for i in range(1, len(words) - n + 1):
        window[words[i - 1].group()] -= 1
        window[words[i + n - 1].group()] += 1
        shared = sum((window & wanted).values())
        if shared > best_shared:
            best_shared, best_at = shared, i
    start, end = words[best_at].start(), words[best_at + n - 1].end()
    return Alignment(fuzz.ratio(target, haystack[start:end]) / 100, start, end)


@contextmanager
def old_count() -> Iterator[None]:
    """The old count in place of the new one, for as long as the block runs."""
    new = bm25._sliding_words
    bm25._sliding_words = old_sliding_words
    try:
        yield
    finally:
        bm25._sliding_words = new


def corpus_by_article(contexts: Sequence[qb.Context]) -> list[Document]:
    """The contexts of each article (per language) joined by blank lines: one document each."""
    articles: dict[str, list[str]] = {}
    for context in contexts:
        articles.setdefault(f"{context.lang}:{context.title}", []).append(context.text)
    return list(as_documents({k: "\n\n".join(v) for k, v in articles.items()}).values())


def rows_of(report: QuoteReport) -> list[tuple[object, ...]]:
    """What a row says, to compare two runs: status, place and every number."""
    fields = ("status", "source_doc", "global_start", "global_end", "match_ratio", "reason")
    return [
        tuple(getattr(r, f) for f in (*fields, "bm25_score", "bm25_ratio")) for r in report.rows
    ]


def timed(
    locator: QuoteLocator, quotes: list[str], documents: list[Document], repeats: int
) -> tuple[float, QuoteReport]:
    """The best of ``repeats`` runs of ``locator`` over every quote, and its report."""
    best, report = float("inf"), None
    for _ in range(repeats):
        began = time.perf_counter()
        report = locator.run(quotes, documents)
        best = min(best, time.perf_counter() - began)
    assert report is not None
    return best, report


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--data", type=Path, default=qb.DEFAULT_DATA)
    parser.add_argument("--seed", type=int, default=qb.DEFAULT_SEED)
    parser.add_argument("--per-variant", type=int, default=30)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args(argv)
    print(f"command: PYTHONPATH=src:benchmarks {shlex.join(['python', *sys.argv])}")
    info = machine()
    print("machine: " + ", ".join(f"{k}={v}" for k, v in info.items()), end="")
    print(f", load average {os.getloadavg()[0]:.2f}")
    options = ["--data", str(args.data), "--seed", str(args.seed)]
    cases, contexts = qb.build_cases(
        qb.parse_args([*options, "--per-variant", str(args.per_variant)])
    )
    quotes = [case.quote for found in cases.values() for case in found]
    documents = corpus_by_article(contexts)
    characters = sum(len(d.text) for d in documents)
    print(f"corpus: {len(documents)} documents, {characters:,} characters; {len(quotes)} quotes")
    seconds: dict[str, float] = {}
    reports: dict[str, QuoteReport] = {}
    for method in (*METHODS, OLD):
        locator = QuoteLocator(trim_method=method.split(",")[0])
        with old_count() if method == OLD else nullcontext():
            locator.run(quotes, documents)  # the index and what is kept between runs
            seconds[method], reports[method] = timed(locator, quotes, documents, args.repeats)
    print()
    print("| trim method | s | quotes/s | × fuzzy's time |")
    print("|---|--:|--:|--:|")
    for method, took in seconds.items():
        print(
            f"| {method} | {took:.2f} | {len(quotes) / took:,.0f} | {took / seconds['fuzzy']:.2f} |"
        )
    same = sum(
        a == b for a, b in zip(rows_of(reports["sliding_bm25"]), rows_of(reports[OLD]), strict=True)
    )
    print(f"\nsliding_bm25, new count against the old: {same} of {len(quotes)} rows identical")
    print(f"speed-up of sliding_bm25: {seconds[OLD] / seconds['sliding_bm25']:.1f}×")
    return 0 if same == len(quotes) else 1


if __name__ == "__main__":
    sys.exit(main())
