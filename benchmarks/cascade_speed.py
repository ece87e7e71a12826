"""The cascade's speed, timed again and again: claims per second of the signals and of the
judge's second opinion (the default), each pass over the same pairs, from the embedding cache.

``benchmarks/claims.py`` times each system once, and this machine's speed varies by about 15 %
from run to run with nothing else running; this script draws 300 pairs of each of the five
claim sets (seeded), grades them once to warm up, then times ``--repeats`` passes of each and
prints every rate, the median and the best.

Run from the repository root (embeddings come from the claims benchmark's cache)::

    PYTHONPATH=src:benchmarks python benchmarks/cascade_speed.py [--data DIR] [--cache DIR]
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from collections.abc import Sequence

import claims_data as cd
from _machine import machine
from claims import CacheEmbedder, assess_pairs

from citecheck.judging.support import SupportAssessor
from citecheck.judging.support_judge import SupportJudge

PER_SET = 300
REPEATS = 5
SEED = 1


def main(argv: Sequence[str] | None = None) -> int:
    args = cd.claims_options(__doc__, argv)
    if args is None:
        return 2
    rng = random.Random(SEED)
    pairs = [
        pair
        for found in cd.load_all(args.data).values()
        for pair in rng.sample(found, min(PER_SET, len(found)))
    ]
    embedder = CacheEmbedder(cd.EmbeddingCache(args.cache))
    systems = {
        "signals": SupportAssessor(embedder, None),
        "second opinion (default)": SupportAssessor(embedder, SupportJudge()),
    }
    for assessor in systems.values():
        assess_pairs(pairs, assessor)  # embeddings and caches warm
    print(f"# The cascade's speed: {len(pairs)} pairs, {REPEATS} passes each\n")
    print(f"- command: `PYTHONPATH=src:benchmarks python {' '.join(sys.argv)}`")
    print(f"- machine: {machine()}\n")
    print("| system | claims/s, each pass | median | best |")
    print("|---|---|--:|--:|")
    for name, assessor in systems.items():
        rates = []
        for _ in range(REPEATS):
            began = time.perf_counter()
            assess_pairs(pairs, assessor)
            rates.append(len(pairs) / (time.perf_counter() - began))
        each = ", ".join(f"{rate:.1f}" for rate in rates)
        print(f"| {name} | {each} | {statistics.median(rates):.1f} | {max(rates):.1f} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
