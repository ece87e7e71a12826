"""Fit citecheck's support model on Citation-Integrity train, and only there.

Every train pair is graded by :class:`citecheck.judging.support.SupportAssessor` exactly as the
verifier grades a claim citation (the evidence as one document, citecheck's own chunks and
MiniLM embeddings), and the :class:`~citecheck.judging.support_model.SupportSignals` of its best
sentence are kept. A logistic regression on those signals is fitted by Newton's method with
both classes weighed equally (so 0.5 is the balanced decision) and a small L2 penalty; the
weight of a missing number may not be positive (see :func:`fit_weights`). Then:

* ``supported``: the probability that maximises balanced accuracy on train;
* ``partial``: the probability that keeps 90 % of the train pairs labelled supported at or
  above it, so that "partly supported" rarely hides a supported claim;
* ``CASCADE_GATE``: the probability that keeps 98 % of them at or above it; a claim below it is
  unsupported without asking the trained judge.

It prints the model and, with ``--write``, writes it into ``src/citecheck/support_model.py``.
The five reported sets are never read. Run from the repository root::

    PYTHONPATH=src python benchmarks/fit_support.py [--data DIR] [--cache DIR]
        [--write | --gate-only]
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Sequence
from pathlib import Path

import claims_data as cd
import numpy as np
from claims import CacheEmbedder, assess_pairs
from numpy.typing import NDArray

from citecheck.judging.support import SupportAssessor
from citecheck.judging.support_model import FITTED_SUPPORT_MODEL, SupportModel, SupportSignals

MODEL_FILE = cd.REPO_ROOT / "src" / "citecheck" / "judging" / "support_model.py"
L2 = 0.01
SUPPORTED_RECALL_AT_PARTIAL = 0.9
SUPPORTED_RECALL_AT_GATE = 0.98
NUMBER_COLUMN = 2  # of ``features``: the missing number


def features(signals: SupportSignals) -> list[float]:
    """The model's inputs, in the order of :class:`SupportModel`'s weights."""
    return [
        signals.cosine,
        signals.coverage,
        float(signals.missing_number is not None),
        float(signals.negation_differs),
    ]


def fit_logistic(
    x: NDArray[np.float64], y: NDArray[np.float64], l2: float = L2, iterations: int = 50
) -> NDArray[np.float64]:
    """Weights (intercept first) of a class-balanced, L2-penalised logistic regression."""
    design = np.c_[np.ones(len(x)), x]
    weights = np.zeros(design.shape[1])
    sample = np.where(y > 0, 0.5 / y.mean(), 0.5 / (1 - y.mean()))
    penalty = l2 * np.diag(np.r_[0.0, np.ones(design.shape[1] - 1)])  # intercept is free
    for _ in range(iterations):
        p = 1.0 / (1.0 + np.exp(-design @ weights))
        gradient = design.T @ (sample * (p - y)) + penalty @ weights
        hessian = (design * (sample * p * (1 - p))[:, None]).T @ design + penalty
        step = np.linalg.solve(hessian, gradient)
        weights -= step
        if np.abs(step).max() < 1e-10:
            break
    return weights


def fit_weights(x: NDArray[np.float64], y: NDArray[np.float64]) -> NDArray[np.float64]:
    """The logistic weights, with a missing number never raising the probability of support.

    Fitted freely on Citation-Integrity train, a missing number *raises* it (+0.20): a citing
    sentence's numbers often come from another cited work. Where that happens its weight is
    held at 0 and the other weights are refitted without it; the verifier caps the grade of a
    claim with a missing number anyway (see :mod:`citecheck.judging.support`).
    """
    weights = fit_logistic(x, y)
    if weights[NUMBER_COLUMN + 1] <= 0:
        return weights
    refitted = fit_logistic(np.delete(x, NUMBER_COLUMN, axis=1), y)
    return np.insert(refitted, NUMBER_COLUMN + 1, 0.0)


def fit(
    pairs: Sequence[cd.ClaimPair], assessor: SupportAssessor
) -> tuple[SupportModel, list[SupportSignals], list[bool], int]:
    """The fitted model, the signals and labels it was fitted on, and how many pairs had no
    text to assess (left out)."""
    assessed = assess_pairs(pairs, assessor)
    rows = [
        (features(a.signals), pair.supported)
        for pair, a in zip(pairs, assessed, strict=True)
        if a is not None and a.signals is not None
    ]
    x = np.array([r for r, _ in rows], dtype=np.float64)
    y = np.array([label for _, label in rows], dtype=np.float64)
    intercept, cosine, coverage, number, negation = (round(float(v), 3) for v in fit_weights(x, y))
    weights = {
        "intercept": intercept,
        "cosine": cosine,
        "coverage": coverage,
        "missing_number": number,
        "negation_differs": negation,
    }
    draft = SupportModel(**weights, supported=0.5, partial=0.0)
    probabilities = [
        draft.probability(a.signals) for a in assessed if a is not None and a.signals is not None
    ]
    labels = [bool(label) for label in y]
    supported = round(cd.fit_threshold(labels, probabilities), 2)
    positives = sorted(p for p, label in zip(probabilities, labels, strict=True) if label)
    partial = round(positives[int((1 - SUPPORTED_RECALL_AT_PARTIAL) * len(positives))], 2)
    model = SupportModel(**weights, supported=supported, partial=min(partial, supported))
    signals = [a.signals for a in assessed if a is not None and a.signals is not None]
    return model, signals, labels, len(pairs) - len(rows)


def gate_of(
    model: SupportModel, signals: Sequence[SupportSignals], labels: Sequence[bool]
) -> float:
    """The probability of ``model`` that keeps :data:`SUPPORTED_RECALL_AT_GATE` of the
    supported pairs at or above it."""
    kept = sorted(model.probability(s) for s, label in zip(signals, labels, strict=True) if label)
    return round(kept[int((1 - SUPPORTED_RECALL_AT_GATE) * len(kept))], 3)


def literal(model: SupportModel) -> str:
    fields = ",\n".join(
        f"    {name}={getattr(model, name)!r}" for name in SupportModel.__dataclass_fields__
    )
    return f"FITTED_SUPPORT_MODEL = SupportModel(\n{fields},\n)"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--data", type=Path, default=cd.DEFAULT_DATA, help="claims data dir")
    parser.add_argument("--cache", type=Path, default=cd.DEFAULT_CACHE, help="embedding cache")
    parser.add_argument("--write", action="store_true", help=f"write the model to {MODEL_FILE}")
    parser.add_argument(
        "--gate-only",
        action="store_true",
        help="write only CASCADE_GATE, for the model shipped now (no refit)",
    )
    args = parser.parse_args(argv)
    if not args.data.is_dir():
        print(f"no data at {args.data}", file=sys.stderr)
        return 2
    train = cd.load_citint(args.data, "train")
    assessor = SupportAssessor(CacheEmbedder(cd.EmbeddingCache(args.cache)), None, model=None)
    model, signals, labels, left_out = fit(train, assessor)
    if args.gate_only:
        model = FITTED_SUPPORT_MODEL
    gate = gate_of(model, signals, labels)
    print(
        f"fitted on Citation-Integrity train: {len(train) - left_out} pairs "
        f"({left_out} without text)"
    )
    print(literal(model))
    print(f"CASCADE_GATE = {gate}")
    if args.gate_only:
        source = MODEL_FILE.read_text(encoding="utf-8")
        updated, gates = re.subn(r"CASCADE_GATE = [0-9.]+", f"CASCADE_GATE = {gate}", source)
        if gates != 1:
            print(f"found no CASCADE_GATE in {MODEL_FILE}", file=sys.stderr)
            return 1
        MODEL_FILE.write_text(updated, encoding="utf-8")
        print(f"written to {MODEL_FILE}")
    elif args.write:
        source = MODEL_FILE.read_text(encoding="utf-8")
        updated, count = re.subn(
            r"FITTED_SUPPORT_MODEL = SupportModel\(\n.*?\n\)", literal(model), source, flags=re.S
        )
        updated, gates = re.subn(r"CASCADE_GATE = [0-9.]+", f"CASCADE_GATE = {gate}", updated)
        if count != 1 or gates != 1:
            print(f"found no FITTED_SUPPORT_MODEL or CASCADE_GATE in {MODEL_FILE}", file=sys.stderr)
            return 1
        MODEL_FILE.write_text(updated, encoding="utf-8")
        print(f"written to {MODEL_FILE}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
