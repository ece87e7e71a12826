"""The records door's threshold tuned on labelled data (``citecheck records --tune``), measured
on held-out citations of the five claim sets.

Each labelled (claim, evidence) pair of a set becomes a record: the evidence its source text,
the claim its one citation, the gold label its ``gold`` field. ``tune_threshold`` fits the
similarity threshold on 70 % of the citations and reports the balanced accuracy of the final
labels on the other 30 %, with the default threshold (0.6, the seed's) and with the tuned one.
The baseline is the default. Run from the repository root::

    PYTHONPATH=src:benchmarks python benchmarks/records_tuning.py --pairs 300

(the ONNX build of all-MiniLM-L6-v2 and the shipped judge; ``../shared/data/claims`` by default).
"""

from __future__ import annotations

import argparse
import random
import shlex
import sys
import time
from pathlib import Path

import claims_data as cd
from _machine import machine

from citecheck.embedders import OnnxMiniLMEmbedder
from citecheck.records.tuning import tune_threshold


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=Path("../shared/data/claims"))
    parser.add_argument("--pairs", type=int, default=300, help="pairs a set (seeded sample)")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    print("command:", shlex.join(["python", *sys.argv]))
    print("machine:", machine())
    embedder = OnnxMiniLMEmbedder()
    print(
        "| set | citations fitted / held out | tuned threshold | balanced acc. default "
        "| tuned | s |"
    )
    print("|---|--:|--:|--:|--:|--:|")
    for name, pairs in cd.load_all(args.data).items():
        sample = random.Random(args.seed).sample(pairs, min(args.pairs, len(pairs)))
        records = [
            {
                "id": pair.id,
                "source_text": pair.evidence,
                "citations": [{"citation": pair.claim, "gold": pair.supported}],
            }
            for pair in sample
        ]
        began = time.perf_counter()
        tuning = tune_threshold(records, embedder=embedder, seed=args.seed)
        took = time.perf_counter() - began
        print(
            f"| {name} | {tuning.fitted} / {tuning.held_out} | {tuning.similarity_threshold:.2f} "
            f"| {tuning.before:.3f} | {tuning.after:.3f} | {took:.0f} |"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
