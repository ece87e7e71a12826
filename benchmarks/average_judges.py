"""Average two trained judges' weights: one model between two refinement rounds (a model soup).

Two fine-tunings of the same judge (the same base, the same architecture) often sit in one
basin of the loss, where the average of their weights reads better than either: a round that
fixed one weakness and cost another can be met halfway. This script writes the weighted mean
``weight * A + (1 - weight) * B`` of every floating-point tensor of the two models (any other
tensor, such as position ids, must be equal and is kept), with the first model's configuration
and tokenizer, and a ``training.json`` that names both. ``train_support.py --from-model OUT``
then exports, calibrates and describes it like any trained judge.

Run from the repository root (the ``train`` extra)::

    PYTHONPATH=src python benchmarks/average_judges.py --models A B --weight 0.5 --out DIR
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
from collections.abc import Sequence
from pathlib import Path

WEIGHTS = "model.safetensors"


def average(first: Path, second: Path, out: Path, weight: float) -> dict[str, object]:
    """Write the weighted mean of ``first`` and ``second`` to ``out``; returns its record."""
    import torch
    from safetensors.torch import load_file, save_file

    if not 0.0 <= weight <= 1.0:
        raise SystemExit(f"--weight must lie between 0 and 1, got {weight}")
    ours, theirs = (load_file(str(folder / WEIGHTS)) for folder in (first, second))
    if ours.keys() != theirs.keys():
        differ = sorted(ours.keys() ^ theirs.keys())[:3]
        raise SystemExit(f"{first} and {second} are not the same model: {differ} differ")
    mean = {}
    for name, tensor in ours.items():
        other = theirs[name]
        if tensor.shape != other.shape:
            raise SystemExit(f"{name}: shape {tuple(tensor.shape)} against {tuple(other.shape)}")
        if tensor.is_floating_point():
            mixed = weight * tensor.float() + (1.0 - weight) * other.float()
            mean[name] = mixed.to(tensor.dtype).contiguous()
        elif torch.equal(tensor, other):
            mean[name] = tensor
        else:
            raise SystemExit(f"{name}: integer tensors differ, they cannot be averaged")
    out.mkdir(parents=True, exist_ok=True)
    for file in first.iterdir():
        if file.is_file() and file.name not in (WEIGHTS, "training.json"):
            shutil.copyfile(file, out / file.name)
    partial = out / f".{WEIGHTS}.part"
    save_file(mean, str(partial))
    partial.replace(out / WEIGHTS)
    record: dict[str, object] = {
        "averaged": {"first": str(first), "second": str(second), "weight": weight},
        "finished": True,
    }
    (out / "training.json").write_text(json.dumps(record, indent=1), encoding="utf-8")
    return record


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--models", type=Path, nargs=2, required=True, metavar=("A", "B"))
    parser.add_argument("--weight", type=float, default=0.5, help="A's share (B's: 1 - weight)")
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args(argv)
    first, second = args.models
    record = average(first, second, args.out, args.weight)
    print(json.dumps(record), file=sys.stdout)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
