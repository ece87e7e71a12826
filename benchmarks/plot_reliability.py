"""Draw the support judge's reliability diagram from its description, for docs/benchmarks.md.

``benchmarks/train_support.py`` measures the judge's calibration on held-out training pairs and
writes the reliability table (ten equal bins of the probability of support: how many pairs, their
mean probability, the share of them that are supported) into ``support-judge.json``. This script
draws that table: the share supported against the mean probability in each bin, the diagonal of
perfect calibration, and the pairs in each bin, with the expected calibration error in the title.
It reads only the description, so the picture is always the shipped file's.

Run from the repository root, with matplotlib (the ``train`` extra)::

    PYTHONPATH=src python benchmarks/plot_reliability.py [--judge DIR] [--out FILE]
"""

from __future__ import annotations

import argparse
import json
import os
import tempfile
from collections.abc import Sequence
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[1]
DEFAULT_JUDGE = REPO_ROOT / "src" / "citecheck" / "judging" / "weights"
DEFAULT_OUT = REPO_ROOT / "docs" / "_static" / "judge-reliability.svg"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--judge", type=Path, default=DEFAULT_JUDGE, help="the judge's folder")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT, help="the SVG to write")
    args = parser.parse_args(argv)

    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    description = json.loads((args.judge / "support-judge.json").read_text("utf-8"))
    held = description["held_out"]
    rows = [row for row in held["reliability"] if row["pairs"]]
    means = [row["mean p"] for row in rows]
    shares = [row["supported"] for row in rows]
    pairs = [row["pairs"] for row in rows]

    plt.rcParams["svg.hashsalt"] = "citecheck"  # the same table draws the same file
    figure, (top, bottom) = plt.subplots(
        2, 1, figsize=(5.0, 5.6), sharex=True, gridspec_kw={"height_ratios": [3, 1]}
    )
    top.plot([0, 1], [0, 1], linestyle="--", color="grey", label="perfectly calibrated")
    top.plot(means, shares, marker="o", color="tab:blue", label="the shipped judge")
    top.set_ylabel("share of pairs supported")
    top.set_xlim(0, 1)
    top.set_ylim(0, 1)
    top.legend(loc="upper left")
    top.set_title(
        f"Support judge, {held['pairs_read_whole']} held-out pairs: "
        f"ECE {held['ece_after']:.3f} (temperature {description['temperature']:.2f})",
        fontsize=9,
    )
    bottom.bar(means, pairs, width=0.06, color="tab:blue")
    bottom.set_xlabel("probability of support (mean in each tenth)")
    bottom.set_ylabel("pairs")
    figure.tight_layout()

    args.out.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(dir=args.out.parent, suffix=".svg")
    os.close(handle)
    try:
        figure.savefig(temporary, format="svg", metadata={"Date": None})
        os.chmod(temporary, 0o644)  # mkstemp's file is private; a docs image is not
        os.replace(temporary, args.out)
    finally:
        if os.path.exists(temporary):
            os.unlink(temporary)
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
