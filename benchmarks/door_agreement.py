"""Do two doors give the same verdict? The records door and the Verifier's grade, pair by pair.

Every (claim, evidence) pair of the five claim sets (``claims_data.py``) is judged twice from
the claims benchmark's embedding cache: by the default path every marker door runs
(``SupportAssessor`` with the shipped judge's second opinion: ``verified`` iff graded
``supported``) and by the record labels of ``verify_records`` (``SemanticValidator``:
``verified`` iff likely true or very likely true). The script prints, per set, the share of
pairs on which the two agree, and how many each verifies that the other does not. The one
judgement of meaning wants 100 %: a claim is ``verified`` at one door exactly when it is at
another.

Run from the repository root (embeddings come from ``benchmarks/claims.py``'s cache)::

    PYTHONPATH=src:benchmarks python benchmarks/door_agreement.py [--data DIR] [--cache DIR]
"""

from __future__ import annotations

import sys
import time
from collections.abc import Sequence

import claims_data as cd
from _machine import machine
from claims import CacheEmbedder, assess_pairs, label_scores

from citecheck.judging.support import Grade, SupportAssessor
from citecheck.judging.support_judge import SupportJudge
from citecheck.records.labels import SemanticValidator


def main(argv: Sequence[str] | None = None) -> int:
    args = cd.claims_options(__doc__, argv)
    if args is None:
        return 2
    started = time.perf_counter()
    embedder = CacheEmbedder(cd.EmbeddingCache(args.cache))
    verifier = SupportAssessor(embedder, SupportJudge())
    records = SemanticValidator(embedder)
    print("# The records door against the Verifier's grade, pair by pair\n")
    print(f"- command: `PYTHONPATH=src:benchmarks python {' '.join(sys.argv)}`")
    print(f"- machine: {machine()}\n")
    print("| set | pairs | agree | verified by the records door only | by the Verifier only |")
    print("|---|--:|--:|--:|--:|")
    total = agreed = 0
    for name, pairs in cd.load_all(args.data).items():
        graded = assess_pairs(pairs, verifier)
        ours = [a is not None and a.grade is Grade.SUPPORTED for a in graded]
        _, theirs = label_scores(pairs, records)
        same = sum(a == b for a, b in zip(ours, theirs, strict=True))
        records_only = sum(b and not a for a, b in zip(ours, theirs, strict=True))
        verifier_only = sum(a and not b for a, b in zip(ours, theirs, strict=True))
        print(
            f"| {name} | {len(pairs)} | {same / len(pairs):.2%} | {records_only} | "
            f"{verifier_only} |"
        )
        total += len(pairs)
        agreed += same
    print(f"| **all** | {total} | **{agreed / total:.2%}** | | |")
    print(f"\n{time.perf_counter() - started:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
