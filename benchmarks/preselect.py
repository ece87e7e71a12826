"""How many chunks of a long source must be embedded for a claim? Accuracy by pre-selection.

A claim against a source citecheck has not seen embeds the source's chunks first, and that is
the cold path's whole cost. :mod:`citecheck.matchers.preselect` embeds only the chunks holding
most of the claim's rarer words (:data:`citecheck.judging.support.PRESELECT` of them). This
script grades the five claim sets of ``benchmarks/claims.py`` with the signals' support model
(``SupportAssessor(embedder, None)``, the evidence as one document) for several numbers of
pre-selected chunks, and every chunk (``None``), and prints the balanced accuracy of each: the
number may come down as long as nothing is lost. The time of the first claim against a new
source, for the default, is measured by ``benchmarks/embedders.py``.

Run from the repository root (embeddings come from the claims benchmark's cache)::

    PYTHONPATH=src:benchmarks python benchmarks/preselect.py [--data DIR] [--cache DIR]
"""

from __future__ import annotations

import sys
import time
from collections.abc import Sequence

import claims_data as cd
from claims import CacheEmbedder, support_scores

from citecheck.judging.support import PRESELECT, SupportAssessor

CHOICES: tuple[int | None, ...] = (None, 32, 24, 16, 12)


def main(argv: Sequence[str] | None = None) -> int:
    args = cd.claims_options(__doc__, argv)
    if args is None:
        return 2
    cache = cd.EmbeddingCache(args.cache)
    embedder = CacheEmbedder(cache)
    sets = cd.load_all(args.data)
    print("# Pre-selected chunks and the signals' balanced accuracy\n")
    print(f"- command: `PYTHONPATH=src:benchmarks python {' '.join(sys.argv)}`")
    print(f"- the default: {PRESELECT}\n")
    print("| chunks embedded a claim | " + " | ".join(sets) + " | mean | seconds |")
    print("|---|" + "--:|" * (len(sets) + 2))
    for choice in CHOICES:
        assessor = SupportAssessor(embedder, None, preselect=choice)
        started = time.perf_counter()
        accuracies = []
        for pairs in sets.values():
            _, verdicts = support_scores(pairs, assessor)
            accuracies.append(cd.balanced_accuracy([p.supported for p in pairs], verdicts))
        name = "every chunk" if choice is None else str(choice)
        print(cd.accuracy_row(name, accuracies, f"{time.perf_counter() - started:.0f}"))
    print(f"\n{cache.encoded} texts embedded, the rest from the cache.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
