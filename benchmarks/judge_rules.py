"""How the default path reads the judge's second opinion: the shipped rule against the one before.

Every door reads the trained judge's look at a passage by one rule
(:attr:`citecheck.judging.support.Look.outcome`). Since 29 November a look whose contradiction
is :data:`~citecheck.thresholds.CONTRADICTION` or more never confirms a claim, even with support
above the judge's ``partial`` bound; before, such a look confirmed it. This script grades the
default path (the fitted signals, the meaning guard, the judge's second opinion) under each
rule, on Citation-Integrity **train** (the set citecheck may fit on) and on the five reported
sets, and prints balanced accuracy and the share of supported claims each rule verifies.

Run from the repository root (embeddings from ``benchmarks/claims.py``'s cache)::

    PYTHONPATH=src:benchmarks python benchmarks/judge_rules.py [--data DIR] [--cache DIR]
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import sys
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any, Literal

import claims_data as cd
from _machine import machine
from claims import CacheEmbedder, support_scores

from citecheck.judging.support import Look, SupportAssessor
from citecheck.judging.support_judge import SupportJudge
from citecheck.thresholds import CONTRADICTION

Outcome = Literal["confirms", "doubts", "refutes", "unread"]


def before(look: Look) -> Outcome:
    """The rule until 29 November: support at the ``partial`` bound or above confirms,
    whatever the contradiction."""
    if look.unread:
        return "unread"
    if look.supported >= look.partial:
        return "confirms"
    return "refutes" if look.contradicted >= CONTRADICTION else "doubts"


RULES: dict[str, Callable[[Look], Outcome] | None] = {
    "contradiction never confirms (shipped)": None,  # Look.outcome as it is
    "support above the bound confirms (before)": before,
}


@contextlib.contextmanager
def reading(rule: Callable[[Look], Outcome] | None) -> Iterator[None]:
    """Every door reads the judge by ``rule`` inside the block (``None``: the shipped rule)."""
    if rule is None:
        yield
        return
    shipped = Look.outcome
    Look.outcome = property(rule)  # type: ignore[assignment,method-assign]
    try:
        yield
    finally:
        Look.outcome = shipped  # type: ignore[method-assign]


Rows = dict[str, dict[str, tuple[float, float]]]
"""By set, then by way of grading: balanced accuracy and the share of supported claims
verified."""


def grade_sets(
    sets: Mapping[str, Sequence[cd.ClaimPair]],
    assessor: Callable[[], SupportAssessor],
    ways: Mapping[str, Callable[[], contextlib.AbstractContextManager[Any]]],
) -> Rows:
    """The default path's verdicts on every set, graded inside each of ``ways`` (a context in
    which the doors grade one way) by a fresh ``assessor()``."""
    rows: Rows = {}
    for name, way in ways.items():
        with way():
            for set_name, pairs in sets.items():
                _scores, verdicts = support_scores(pairs, assessor())
                labels = [p.supported for p in pairs]
                verified = sum(v for v, y in zip(verdicts, labels, strict=True) if y)
                rows.setdefault(set_name, {})[name] = (
                    cd.balanced_accuracy(labels, verdicts),
                    verified / sum(labels),
                )
    return rows


def print_rows(rows: Rows, names: Sequence[str], digits: int = 3) -> None:
    """``rows`` as a Markdown table, with the five reported sets' mean."""
    print("| set | " + " | ".join(f"{n}: balanced acc. / supported verified" for n in names) + " |")
    print("|---|" + "--:|" * len(names))
    for set_name, by_way in rows.items():
        cells = [f"{by_way[n][0]:.{digits}f} / {by_way[n][1]:.1%}" for n in names]
        print(f"| {set_name} | " + " | ".join(cells) + " |")
    reported = [s for s in rows if not s.startswith("CitInt train")]
    means = [sum(rows[s][n][0] for s in reported) / len(reported) for n in names]
    shown = " | ".join(f"**{m:.{digits}f}**" for m in means)
    print(f"| **five reported sets, mean** | {shown} |")


def sets_parser(doc: str | None) -> argparse.ArgumentParser:
    """A command line with the data and the embedding cache the graded sets come from."""
    parser = argparse.ArgumentParser(description=doc.split("\n\n")[0] if doc else None)
    parser.add_argument("--data", type=Path, default=cd.DEFAULT_DATA, help="claims data dir")
    parser.add_argument("--cache", type=Path, default=cd.DEFAULT_CACHE, help="embedding cache")
    return parser


def graded_sets(data: Path) -> dict[str, list[cd.ClaimPair]] | None:
    """CitInt train (the fitting set) and the five reported sets, or ``None`` (said) when
    ``data`` is not there."""
    if not data.is_dir():
        print(f"no data at {data}", file=sys.stderr)
        return None
    sets = {"CitInt train (fitting set)": cd.load_citint(data, "train")}
    sets.update(cd.load_all(data))
    return sets


def main(argv: Sequence[str] | None = None) -> int:
    args = sets_parser(__doc__).parse_args(argv)
    started = time.perf_counter()
    sets = graded_sets(args.data)
    if sets is None:
        return 2
    assessor = SupportAssessor(CacheEmbedder(cd.EmbeddingCache(args.cache)), SupportJudge())
    ways = {name: functools.partial(reading, rule) for name, rule in RULES.items()}
    rows = grade_sets(sets, lambda: assessor, ways)
    print("# Reading the judge's second opinion: two rules\n")
    print(f"- command: `PYTHONPATH=src:benchmarks python {' '.join(sys.argv)}`")
    print(f"- machine: {machine()}; {time.perf_counter() - started:.0f} s\n")
    print_rows(rows, list(RULES))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
