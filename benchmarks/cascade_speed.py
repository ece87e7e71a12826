"""The cascade's speed, timed again and again: claims per second of the signals and of the
judge's second opinion (the default), each pass over the same pairs, from the embedding cache.

``benchmarks/claims.py`` times each system once, and this machine's speed varies by about 15 %
from run to run with nothing else running; this script draws 300 pairs of each of the five
claim sets (seeded), grades them once to warm up, then times ``--repeats`` passes of each and
prints every rate, the median and the best. Then the cold path: the same pairs once through the
default path with a fresh MiniLM embedder and judge (every claim and passage embedded, every
passage windowed, for the first time: the sources met for the first time), on PyTorch and as
the default builds it (int8 ONNX), each claim by claim and in blocks whose evidence is embedded
in one batch first (``SupportAssessor.prefetch``, what the batch doors do); and the judge's
load time in a fresh process.

Run from the repository root (embeddings come from the claims benchmark's cache)::

    PYTHONPATH=src:benchmarks python benchmarks/cascade_speed.py [--data DIR] [--cache DIR] \\
        [--judge DIR] [--judge-length N ...]

``--judge-length 128`` also times the default path with the judge reading windows of 128
tokens (``SupportJudge(max_length=128)``) beside the windows it was trained on.
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from collections.abc import Sequence
from pathlib import Path

import claims_data as cd
from _machine import machine
from claims import PREFETCH, CacheEmbedder, assess_pairs

from citecheck.judging.support import SupportAssessor
from citecheck.judging.support_judge import SupportJudge

PER_SET = 300
REPEATS = 5
SEED = 1


def timed_pairs(data: Path) -> list[cd.ClaimPair]:
    """The pairs this benchmark times: a seeded sample of :data:`PER_SET` from each set."""
    rng = random.Random(SEED)
    return [
        pair
        for found in cd.load_all(data).values()
        for pair in rng.sample(found, min(PER_SET, len(found)))
    ]


def main(argv: Sequence[str] | None = None) -> int:
    args = cd.claims_options(__doc__, argv, judge_options=True)
    if args is None:
        return 2
    pairs = timed_pairs(args.data)
    embedder = CacheEmbedder(cd.EmbeddingCache(args.cache))
    systems = {
        "signals": SupportAssessor(embedder, None),
        "second opinion (default)": SupportAssessor(embedder, SupportJudge(args.judge)),
        **{
            f"second opinion, windows of {n} tokens": SupportAssessor(
                embedder, SupportJudge(args.judge, max_length=n)
            )
            for n in args.judge_length
        },
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
    from citecheck.embedders.named import model_embedder
    from citecheck.embedders.sentence_transformers import SentenceTransformerEmbedder

    print()
    embedders = {
        "MiniLM on sentence-transformers": SentenceTransformerEmbedder,
        "MiniLM as the default builds it (int8 ONNX with the onnx-minilm extra)": model_embedder,
    }
    for name, build in embedders.items():
        for batched in (False, True):
            fresh = build()
            fresh.embed_documents(["warm the model up"])
            cold = SupportAssessor(fresh, SupportJudge(args.judge))
            began = time.perf_counter()
            assess_pairs(pairs, cold, evidence_too=batched)
            rate = len(pairs) / (time.perf_counter() - began)
            how = (
                f"claims and evidence embedded in blocks of {PREFETCH}, as the doors do"
                if batched
                else "each pair's evidence embedded when it is graded"
            )
            print(f"- cold, {name}, {how}: {rate:.1f} pairs/s")
    print(f"- the judge loads in {_load_seconds():.2f} s in a fresh process (imports included)")
    return 0


def _load_seconds() -> float:
    """Seconds from nothing imported to a judge ready, in a new Python process."""
    import subprocess

    code = (
        "import time; t = time.perf_counter(); "
        "from citecheck.judging.support_judge import SupportJudge; SupportJudge(); "
        "print(time.perf_counter() - t)"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return float(done.stdout.strip().splitlines()[-1])


if __name__ == "__main__":
    raise SystemExit(main())
