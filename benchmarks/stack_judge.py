"""Would the trained judge help more stacked with the signals than as a second opinion?

The second opinion (``SupportAssessor``'s default with the ``judge`` extra) uses the judge only to
lower a grade. A stacked model would instead weigh the judge's two probabilities (support and
contradiction, as logits) beside the signals (cosine, word coverage, a missing number, a
differing negation) in one logistic regression. This script measures whether that is worth
building, on the five claim sets of ``benchmarks/claims.py``:

* **fitted on CitInt train** (what citecheck may ship: no reported set is fitted on);
* **leave one set out**: fitted on four of the five reported sets, measured on the fifth. This
  tunes on reported sets, so it is *not* a result citecheck could claim: it is an upper bound
  on what stacking could give, to decide whether to build it.

Each is fitted with the signals alone, the judge alone, and both; the meaning guard then caps
every claim it finds changed, as in citecheck. The judge reads the one window holding the
best candidate sentence, as the verifier's judge does
(:data:`citecheck.judging.support_judge.FOCUSED_WINDOWS`). Run from the repository root::

    PYTHONPATH=src:benchmarks python benchmarks/stack_judge.py [--data DIR] [--cache DIR]
"""

from __future__ import annotations

import math
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass

import claims_data as cd
import numpy as np
from claims import PREFETCH, CacheEmbedder
from fit_support import fit_logistic
from numpy.typing import NDArray

from citecheck import Document
from citecheck.judging.support import SupportAssessor
from citecheck.judging.support_judge import FOCUSED_WINDOWS, Reading, SupportJudge

COLUMNS = {
    "signals alone": [0, 1, 2, 3],
    "judge alone": [4, 5],
    "signals and judge": [0, 1, 2, 3, 4, 5],
}


@dataclass(frozen=True, slots=True)
class Row:
    """One pair's inputs: the signals of its best sentence and the judge's two logits (0 where
    it could not read the pair), whether the meaning guard caps it, its label."""

    features: list[float]
    capped: bool
    supported: bool


def _logit(p: float) -> float:
    p = min(max(p, 1e-4), 1 - 1e-4)
    return math.log(p / (1 - p))


def rows_of(
    pairs: Sequence[cd.ClaimPair], assessor: SupportAssessor, judge: SupportJudge
) -> list[Row]:
    """Every pair's :class:`Row`, the evidence as one document, as ``claims.py`` grades it."""
    out = []
    for start in range(0, len(pairs), PREFETCH):
        batch = pairs[start : start + PREFETCH]
        assessor.prefetch([pair.claim for pair in batch])
        for pair in batch:
            assessed = assessor.assess(pair.claim, Document("evidence", pair.evidence), None)
            if assessed is None or assessed.signals is None:
                out.append(Row([0.0] * 6, True, pair.supported))
                continue
            best = assessed.evidence[0]
            [reading] = judge.read(
                pair.claim,
                [pair.evidence],
                focus=[(best.start, best.end)],
                max_windows=FOCUSED_WINDOWS,
            )
            s = assessed.signals
            judged = (
                [_logit(reading.supported), _logit(reading.contradicted)]
                if isinstance(reading, Reading)
                else [0.0, 0.0]
            )
            features = [
                s.cosine,
                s.coverage,
                float(s.missing_number is not None),
                float(s.negation_differs),
                *judged,
            ]
            out.append(Row(features, bool(assessed.conflicts), pair.supported))
    return out


def _matrix(rows: Sequence[Row], columns: list[int]) -> NDArray[np.float64]:
    return np.array([[row.features[c] for c in columns] for row in rows], dtype=np.float64)


def accuracy_of(weights: NDArray[np.float64], rows: Sequence[Row], columns: list[int]) -> float:
    """Balanced accuracy of the fitted model at 0.5 (both classes weighed equally in the fit),
    every claim the meaning guard caps counted as not supported."""
    x = _matrix(rows, columns)
    said = (np.c_[np.ones(len(x)), x] @ weights) >= 0
    verdicts = [bool(s) and not row.capped for s, row in zip(said, rows, strict=True)]
    return cd.balanced_accuracy([row.supported for row in rows], verdicts)


def fitted(rows: Sequence[Row], columns: list[int]) -> NDArray[np.float64]:
    return fit_logistic(_matrix(rows, columns), np.array([float(r.supported) for r in rows]))


def main(argv: Sequence[str] | None = None) -> int:
    args = cd.claims_options(__doc__, argv)
    if args is None:
        return 2
    started = time.perf_counter()
    assessor = SupportAssessor(CacheEmbedder(cd.EmbeddingCache(args.cache)), None)
    judge = SupportJudge()
    sets = {name: rows_of(pairs, assessor, judge) for name, pairs in cd.load_all(args.data).items()}
    train = rows_of(cd.load_citint(args.data, "train"), assessor, judge)

    print("# Stacking the trained judge with the signals\n")
    print(f"- command: `PYTHONPATH=src:benchmarks python {' '.join(sys.argv)}`")
    print(f"- CitInt train: {len(train)} pairs; the five sets: {sum(map(len, sets.values()))}\n")
    print("| fitted on | inputs | " + " | ".join(sets) + " | mean |")
    print("|---|---|" + "--:|" * (len(sets) + 1))
    for name, columns in COLUMNS.items():
        weights = fitted(train, columns)
        shipped = [accuracy_of(weights, rows, columns) for rows in sets.values()]
        print(cd.accuracy_row(f"CitInt train | {name}", shipped))
    for name, columns in COLUMNS.items():
        bound = []
        for held in sets:
            others = [row for other, rows in sets.items() if other != held for row in rows]
            bound.append(accuracy_of(fitted(others, columns), sets[held], columns))
        print(cd.accuracy_row(f"the four other sets (an upper bound) | {name}", bound))
    print(f"\nTime: {time.perf_counter() - started:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
