"""What one rule of the meaning guard costs and buys on the default path: with it and without.

A rule of the guard can only lower a grade, so it buys false claims caught (the falsification
table, ``benchmarks/falsify.py``) and may cost true claims verified and time. This script
grades the default path (the fitted signals, the meaning guard, the judge's second opinion)
with the rule and with the rule turned off, on Citation-Integrity **train** (the set citecheck
may fit on) and on the five reported sets, and prints balanced accuracy and the share of
supported claims verified; then it times the default path from cached embeddings on a seeded
sample of the five sets, in passes that alternate with and without the rule (the median of
``--passes`` each, and of their ratio pass by pass), and the share of a pass spent inside the
rule, which a machine's drifting speed does not move.

Rules (``--rule``):

* ``stranger_names``: a word the text near the passage does not say, in the place of a name
  it gives (:func:`citecheck.judging.guard.stranger_names`, 29 November).
* ``_far_off``: the sentences far from the passage where the claim is written most plainly,
  held against it as a neighbour is (``citecheck.judging.support._far_off``, 29 November,
  evening).

Run from the repository root (embeddings from ``benchmarks/claims.py``'s cache)::

    PYTHONPATH=src:benchmarks python benchmarks/guard_rules.py [--rule stranger_names]
        [--passes 3] [--sample 300]
"""

from __future__ import annotations

import contextlib
import statistics
import sys
import time
from collections.abc import Callable, Iterator, Sequence

import claims_data as cd
from _machine import machine
from claims import CacheEmbedder, assess_pairs
from judge_rules import grade_sets, graded_sets, print_rows, sets_parser

from citecheck.judging import guard, support
from citecheck.judging.support import SupportAssessor
from citecheck.judging.support_judge import SupportJudge
from citecheck.verification import verifier

RULES = {"stranger_names": (guard, verifier), "_far_off": (support,)}
"""Each rule by its function's name, with the modules that call it by that name."""


@contextlib.contextmanager
def timed(rule: str, spent: list[float]) -> Iterator[None]:
    """The guard with ``rule`` inside the block, the seconds spent in it added to
    ``spent[0]``: a share of a pass that a machine's drifting speed does not move."""
    modules = RULES[rule]
    shipped = getattr(modules[0], rule)

    def counted(*args: object, **kwargs: object) -> object:
        began = time.perf_counter()
        try:
            return shipped(*args, **kwargs)
        finally:
            spent[0] += time.perf_counter() - began

    for module in modules:
        setattr(module, rule, counted)
    try:
        yield
    finally:
        for module in modules:
            setattr(module, rule, shipped)


@contextlib.contextmanager
def without(rule: str) -> Iterator[None]:
    """The guard without ``rule`` inside the block: the function finds nothing."""
    modules = RULES[rule]
    shipped = getattr(modules[0], rule)
    for module in modules:
        setattr(module, rule, lambda *args, **kwargs: [])
    try:
        yield
    finally:
        for module in modules:
            setattr(module, rule, shipped)


def main(argv: Sequence[str] | None = None) -> int:
    parser = sets_parser(__doc__)
    parser.add_argument("--rule", choices=sorted(RULES), default="stranger_names")
    parser.add_argument("--passes", type=int, default=3, help="timed passes of each")
    parser.add_argument("--sample", type=int, default=300, help="timed pairs per set")
    args = parser.parse_args(argv)
    started = time.perf_counter()
    sets = graded_sets(args.data)
    if sets is None:
        return 2
    cache = cd.EmbeddingCache(args.cache)

    def assessor() -> SupportAssessor:
        return SupportAssessor(CacheEmbedder(cache), SupportJudge())

    modes: dict[str, Callable[[], contextlib.AbstractContextManager[None]]] = {
        "with the rule": contextlib.nullcontext,
        "without": lambda: without(args.rule),
    }
    rows = grade_sets(sets, assessor, modes)
    reported = {k: v for k, v in sets.items() if not k.startswith("CitInt train")}
    sample = [p for name in sorted(reported) for p in cd.seeded_sample(reported[name], args.sample)]
    assess_pairs(sample[:50], assessor())  # the judge loaded, the caches warm
    speeds: dict[str, list[float]] = {mode: [] for mode in modes}
    shares: list[float] = []
    for _ in range(args.passes):
        for mode, context in modes.items():
            spent = [0.0]
            with context() if mode == "without" else timed(args.rule, spent):
                graded = assessor()
                began = time.perf_counter()
                assess_pairs(sample, graded)
                took = time.perf_counter() - began
            speeds[mode].append(len(sample) / took)
            if mode != "without":
                shares.append(spent[0] / took)
    print(f"# The guard's rule `{args.rule}`: with it and without\n")
    print(f"- command: `PYTHONPATH=src:benchmarks python {' '.join(sys.argv)}`")
    print(f"- machine: {machine()}; {time.perf_counter() - started:.0f} s\n")
    names = list(modes)
    print_rows(rows, names, digits=4)
    print(f"\nThe default path from cached embeddings, {len(sample)} pairs, claims/s:\n")
    for mode in names:
        shown = ", ".join(f"{s:.1f}" for s in speeds[mode])
        print(f"- {mode}: **{statistics.median(speeds[mode]):.1f}** by the median ({shown})")
    ratios = [w / o for w, o in zip(speeds[names[0]], speeds["without"], strict=True)]
    print(
        f"- with / without, pass by pass: **{statistics.median(ratios):.2f}** by the median "
        f"({', '.join(f'{r:.2f}' for r in ratios)})"
    )
    print(
        f"- time inside the rule: **{statistics.median(shares):.1%}** of a pass with it by the "
        f"median ({', '.join(f'{r:.1%}' for r in shares)})"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
