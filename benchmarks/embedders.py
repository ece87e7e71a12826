"""all-MiniLM-L6-v2 on onnxruntime (int8 ONNX) against the PyTorch one (issue 19).

A claim checked against a source citecheck has not seen embeds every chunk of that source
first, so the first answer waits on the embedder. This compares
:class:`~citecheck.embedders.OnnxMiniLMEmbedder` (the int8 file citecheck ships, on onnxruntime,
the ``onnx-minilm`` extra) with :class:`~citecheck.embedders.SentenceTransformerEmbedder` (the same
model on PyTorch, the ``embeddings`` extra) on real text, and reports:

1. **load**: seconds from nothing to a loaded model, each in a fresh Python process (the import
   of citecheck, of the embedder's libraries and the model file), the best of two;
2. **throughput**: sentences per second over the same ``--sentences`` real sentences (the
   FEVER-symmetric dev evidence sentences, 342 distinct, then sentences of the SQuAD v2.0 dev
   paragraphs, both cut with :func:`citecheck.language.text.sentence_spans`), at each of
   ``--threads`` (onnxruntime's intra-op threads; ``torch.set_num_threads``), with the model
   loaded and warmed and no cache (the embedders' own encoders are called), the best of
   ``--repeats``, and the ratio ONNX / PyTorch;
3. **agreement**: the cosine between the two vectors of each sentence (least and mean);
4. **cold path**: one claim against a new source of 20,000 and one of 5,000 characters
   (consecutive SQuAD paragraphs of one article, cut at a sentence end) through
   ``SupportAssessor(embedder, None)`` (no judge: only the embedder differs): the seconds of
   the first ``assess(claim, Document(...), None)`` call, with a new embedder whose model is
   loaded (add the load above for a fresh process), and how many chunks it embedded; once with
   every chunk embedded (``preselect=None``) and once with the default lexical pre-selection.

Run from the repository root (needs the ``embeddings`` and ``onnx-minilm`` extras); on a busy
machine the numbers are slower and noisier (the load average is printed with them)::

    PYTHONPATH=src python benchmarks/embedders.py [--data ../shared/data] [--sentences 1000]
        [--threads 1 2] [--repeats 3] [--out FILE.json]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
from _machine import machine

from citecheck.documents.document import Document
from citecheck.embedders import OnnxMiniLMEmbedder, SentenceTransformerEmbedder
from citecheck.judging.support import PRESELECT, SupportAssessor
from citecheck.language.text import sentence_spans

SOURCE_SIZES = (20_000, 5_000)
LOAD = {
    "onnx": "OnnxMiniLMEmbedder(threads=1).model",
    "torch": "SentenceTransformerEmbedder().model",
}
"""What each load measurement runs, in a fresh process."""


def load_sentences(data: Path, count: int) -> list[str]:
    """``count`` distinct real sentences: FEVER-symmetric evidence, then SQuAD paragraphs."""
    found: dict[str, None] = {}
    fever = data / "claims" / "fever_symmetric" / "fever_symmetric_dev.jsonl"
    with fever.open(encoding="utf-8") as file:
        for line in file:
            evidence = json.loads(line)["evidence"]
            for start, end in sentence_spans(evidence):
                found.setdefault(evidence[start:end])
    for paragraph in squad_paragraphs(data, reverse=True):  # the sources come from the front
        if len(found) >= count:
            break
        for start, end in sentence_spans(paragraph):
            found.setdefault(paragraph[start:end])
    sentences = list(found)[:count]
    if len(sentences) < count:
        raise SystemExit(f"only {len(sentences)} distinct sentences under {data}")
    return sentences


def squad_paragraphs(data: Path, *, reverse: bool = False) -> list[str]:
    """The SQuAD v2.0 dev paragraphs, article by article (last article first with
    ``reverse``, paragraphs in order within each)."""
    squad = json.loads((data / "quotes" / "squad" / "dev-v2.0.json").read_text(encoding="utf-8"))
    articles = squad["data"][::-1] if reverse else squad["data"]
    return [p["context"] for a in articles for p in a["paragraphs"]]


def sources(data: Path) -> list[tuple[str, str]]:
    """A new source of each of :data:`SOURCE_SIZES` characters (consecutive paragraphs of one
    SQuAD article, cut at the last sentence end that fits) and a claim: a sentence from its
    middle."""
    squad = json.loads((data / "quotes" / "squad" / "dev-v2.0.json").read_text(encoding="utf-8"))
    made: list[tuple[str, str]] = []
    articles = iter(squad["data"])
    for size in SOURCE_SIZES:
        paragraphs = next(
            a for a in articles if sum(len(p["context"]) for p in a["paragraphs"]) > size
        )
        text = "\n\n".join(p["context"] for p in paragraphs["paragraphs"])
        spans = [s for s in sentence_spans(text) if s[1] <= size]
        text = text[: spans[-1][1]]
        start, end = spans[len(spans) // 2]
        made.append((text[start:end], text))
    return made


def set_threads(kind: str, threads: int) -> None:
    if kind == "torch":
        import torch

        torch.set_num_threads(threads)


def embedder_of(kind: str, threads: int) -> Any:
    """A new embedder (empty cache), its model loaded (not timed)."""
    set_threads(kind, threads)
    embedder = (
        OnnxMiniLMEmbedder(threads=threads) if kind == "onnx" else SentenceTransformerEmbedder()
    )
    _ = embedder.model
    return embedder


def load_seconds(kind: str) -> float:
    """Seconds to import citecheck and the embedder's libraries and load the model, in a fresh
    process; the best of two."""
    code = (
        "import time; began = time.perf_counter(); "
        "from citecheck.embedders import OnnxMiniLMEmbedder, SentenceTransformerEmbedder; "
        f"{LOAD[kind]}; print(time.perf_counter() - began)"
    )
    runs = []
    for _ in range(2):
        out = subprocess.run(
            [sys.executable, "-c", code], capture_output=True, text=True, check=True
        )
        runs.append(float(out.stdout.strip().splitlines()[-1]))
    return min(runs)


def rate(encode: Callable[[list[str]], Any], sentences: list[str], repeats: int) -> float:
    """Sentences per second of ``encode`` (no cache), the best of ``repeats``."""
    encode(sentences[:32])  # warm: onnxruntime and torch both allocate on their first run
    best = float("inf")
    for _ in range(repeats):
        began = time.perf_counter()
        encode(sentences)
        best = min(best, time.perf_counter() - began)
    return len(sentences) / best


def cold(
    kind: str, threads: int, made: list[tuple[str, str]], preselect: int | None
) -> list[dict[str, Any]]:
    """The first ``assess`` of a claim against each new source, with a new embedder, every
    chunk embedded (``preselect=None``) or only the ``preselect`` chosen by the claim's words."""
    rows = []
    for number, (claim, text) in enumerate(made):
        embedder = embedder_of(kind, threads)
        assessor = SupportAssessor(embedder, None, preselect=preselect)
        # Warm citecheck itself (its splitter, its support model) on a tiny source first.
        assessor.assess("A warm-up claim.", Document("warm", "A warm-up source sentence."), None)
        before = embedder.cache.misses
        began = time.perf_counter()
        assessment = assessor.assess(claim, Document(f"source-{number}", text), None)
        seconds = time.perf_counter() - began
        rows.append(
            {
                "characters": len(text),
                "seconds": seconds,
                "chunks": embedder.cache.misses - before,
                "assessed": assessment is not None,
            }
        )
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--data", type=Path, default=Path("../shared/data"))
    parser.add_argument("--sentences", type=int, default=1000)
    parser.add_argument("--threads", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--out", type=Path, help="write the results as JSON here")
    args = parser.parse_args(argv)
    if not (args.data / "quotes" / "squad" / "dev-v2.0.json").exists():
        print(f"no SQuAD or FEVER data under {args.data}; pass --data", file=sys.stderr)
        return 2
    import onnxruntime
    import torch

    info = machine()
    info.update(
        {
            "onnxruntime": onnxruntime.__version__,
            "torch": torch.__version__,
            "load_average": [round(x, 2) for x in os.getloadavg()],
        }
    )
    print(f"machine: {info}")
    print(f"command: python benchmarks/embedders.py {' '.join(sys.argv[1:])}")
    sentences = load_sentences(args.data, args.sentences)
    made = sources(args.data)
    print(
        f"{len(sentences)} sentences (FEVER-symmetric dev evidence, SQuAD v2.0 dev), "
        f"{sum(len(s) for s in sentences) / len(sentences):.0f} characters on average; "
        f"sources of {', '.join(str(len(text)) for _, text in made)} characters"
    )

    loads = {kind: load_seconds(kind) for kind in LOAD}
    results: dict[str, Any] = {"load_seconds": loads, "threads": {}}
    vectors: dict[str, Any] = {}
    for threads in args.threads:
        row: dict[str, Any] = {}
        for kind in ("onnx", "torch"):
            embedder = embedder_of(kind, threads)
            encode = embedder.cache.embedder.embed_documents  # the model itself, no cache
            row[kind] = {"sentences_per_s": rate(encode, sentences, args.repeats)}
            if kind not in vectors:
                vectors[kind] = np.asarray(encode(sentences), dtype=np.float32)
            row[kind]["cold"] = cold(kind, threads, made, None)
            row[kind]["cold_preselected"] = cold(kind, threads, made, PRESELECT)
        row["ratio"] = row["onnx"]["sentences_per_s"] / row["torch"]["sentences_per_s"]
        results["threads"][str(threads)] = row
    cosines = np.sum(vectors["onnx"] * vectors["torch"], axis=1) / (
        np.linalg.norm(vectors["onnx"], axis=1) * np.linalg.norm(vectors["torch"], axis=1)
    )
    results["agreement"] = {"min": float(cosines.min()), "mean": float(cosines.mean())}

    print()
    print(
        f"load (fresh process, import included): ONNX {loads['onnx']:.2f} s, "
        f"PyTorch {loads['torch']:.2f} s"
    )
    print(
        f"agreement over {len(sentences)} sentences: cosine min "
        f"{results['agreement']['min']:.5f}, mean {results['agreement']['mean']:.5f}"
    )
    print()
    print(
        f"first assess: every chunk embedded / the {PRESELECT} chunks chosen by the claim's "
        "words (the default)\n"
    )
    header = " | ".join(f"first assess, {len(text):,} chars" for _, text in made)
    print(f"| threads | embedder | sentences/s | ONNX / PyTorch | {header} |")
    print("|---|---|---|---|" + "---|" * len(made))
    for threads, row in results["threads"].items():
        for kind, name in (("onnx", "OnnxMiniLMEmbedder"), ("torch", "SentenceTransformer")):
            ratio = f"{row['ratio']:.2f}" if kind == "onnx" else ""
            times = " | ".join(
                f"{c['seconds']:.2f} s ({c['chunks']} chunks) / {p['seconds']:.2f} s "
                f"({p['chunks']})"
                for c, p in zip(row[kind]["cold"], row[kind]["cold_preselected"], strict=True)
            )
            print(
                f"| {threads} | {name} | {row[kind]['sentences_per_s']:.1f} | {ratio} | {times} |"
            )
    if args.out:
        payload = {"machine": info, "sentences": len(sentences), **results}
        args.out.write_text(json.dumps(payload, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
