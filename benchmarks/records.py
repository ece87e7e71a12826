"""Record batches with the real model: records per second one record at a time (before) and in
blocks across records (after), and an interrupted run resumed.

Records are built from the SQuAD v2.0 dev paragraphs in ``../shared/data/quotes`` (real
Wikipedia text, never copied): each record's source joins three paragraphs as ``Content from``
documents, and its three citations are a sentence of the first, a question about the second and
a sentence of an unrelated paragraph. Timed, each with a cold embedding cache and the model
loaded beforehand:

1. **before**: blocks of one record, the path of citecheck before issue 16, where each record's
   sources were embedded on their own;
2. **after**: blocks of :data:`citecheck.records.validate.BLOCK_RECORDS` records, their sources and
   citations embedded in one call. The labels and confidences must equal those of (1); their
   counts are printed, so that a change to the labeller can be compared with an earlier run.

Then **resume**: ``citecheck records`` on the same records in a subprocess, killed with SIGKILL
once its checkpoint holds half of them, and run again with ``--resume``; its output must hold
the labels and confidences of (2).

Run from the repository root (needs the ``embeddings`` extra)::

    PYTHONPATH=src python benchmarks/records.py [--records 10000] [--data ../shared/data/quotes]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

import citecheck
import citecheck.records.validate
from citecheck.embedders import SentenceTransformerEmbedder
from citecheck.language.text import sentence_spans


def build_records(data: Path, count: int, seed: int) -> list[dict[str, Any]]:
    squad = json.loads((data / "squad" / "dev-v2.0.json").read_text(encoding="utf-8"))
    paragraphs = [
        (article["title"], paragraph)
        for article in squad["data"]
        for paragraph in article["paragraphs"]
        if paragraph["qas"]
    ]
    rng = random.Random(seed)
    records = []
    for i in range(count):
        picked = rng.sample(paragraphs, 3)
        source = "".join(
            f"Content from {title}-{j}.md\n{p['context']}\n" for j, (title, p) in enumerate(picked)
        )
        first = picked[0][1]["context"]
        other = rng.choice(paragraphs)[1]["context"]
        records.append(
            {
                "id": i,
                "source_text": source,
                "citations": [
                    {"citation": first[slice(*rng.choice(sentence_spans(first)))]},
                    {"citation": rng.choice(picked[1][1]["qas"])["question"]},
                    {"citation": other[slice(*rng.choice(sentence_spans(other)))]},
                ],
            }
        )
    return records


def outcomes(done: list[dict[str, Any]]) -> list[tuple[Any, Any]]:
    return [
        (c.get("validation_status"), c.get("confidence_score_percent"))
        for record in done
        for c in record["citations"]
    ]


def agreement(first: list[Any], second: list[Any], within: float) -> tuple[int, int]:
    """How many outcomes of two runs are equal, and how many have equal labels and confidences
    within ``within`` points of each other."""
    pairs = list(zip(first, second, strict=True))
    same = sum(a == b for a, b in pairs)
    close = sum(a[0] == b[0] and abs((a[1] or 0) - (b[1] or 0)) <= within for a, b in pairs)
    return same, close


def timed(records: list[dict[str, Any]], model: Any, block: int) -> tuple[float, list[Any]]:
    """One run with a cold cache over the loaded ``model``, in blocks of ``block`` records."""
    embedder = SentenceTransformerEmbedder()
    embedder._model = model  # same weights, loaded once; every vector is computed afresh
    saved = citecheck.records.validate.BLOCK_RECORDS
    citecheck.records.validate.BLOCK_RECORDS = block
    try:
        started = time.perf_counter()
        done = citecheck.validate_records(records, embedder=embedder)
        return time.perf_counter() - started, done
    finally:
        citecheck.records.validate.BLOCK_RECORDS = saved


def resume(records: list[dict[str, Any]], expected: list[Any]) -> str:
    """Kill a CLI run half way, resume it, and compare its output with ``expected``."""
    with tempfile.TemporaryDirectory() as directory:
        folder = Path(directory)
        data, out = folder / "records.json", folder / "out.json"
        data.write_text(json.dumps(records), encoding="utf-8")
        checkpoint = folder / "out.json.partial.jsonl"
        command = [sys.executable, "-m", "citecheck", "records", str(data), "-o", str(out)]
        command.append("--no-progress")
        environment = {**os.environ, "PYTHONPATH": "src"}
        started = time.perf_counter()
        first = subprocess.Popen(command, env=environment, stderr=subprocess.DEVNULL)
        half = len(records) // 2
        while first.poll() is None:
            lines = checkpoint.read_bytes().count(b"\n") - 1 if checkpoint.exists() else 0
            if lines >= half:
                first.send_signal(signal.SIGKILL)
                break
            time.sleep(0.05)
        first.wait()
        killed_at = checkpoint.read_bytes().count(b"\n") - 1
        second = subprocess.run(
            [*command, "--resume"], env=environment, capture_output=True, text=True
        )
        elapsed = time.perf_counter() - started
        if second.returncode != 0:
            return f"FAILED: --resume exited {second.returncode}: {second.stderr.strip()}"
        done = json.loads(out.read_text(encoding="utf-8"))
        same = sum(a == b for a, b in zip(outcomes(done), expected, strict=True))
        verdict = "equal" if same == len(expected) else f"{len(expected) - same} differ"
        return (
            f"killed (SIGKILL) with {killed_at} of {len(records)} records in the checkpoint, "
            f"resumed: {len(done)} records, labels and confidences vs the uninterrupted run: "
            f"{verdict} ({same}/{len(expected)}); both runs {elapsed:.1f} s (two model loads)"
        )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--data", type=Path, default=Path("../shared/data/quotes"))
    parser.add_argument("--records", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--no-resume", action="store_true", help="skip the resume check")
    args = parser.parse_args(argv)
    if not (args.data / "squad" / "dev-v2.0.json").exists():
        print(f"no SQuAD data under {args.data}; pass --data", file=sys.stderr)
        return 2
    import torch

    print(
        f"machine: {os.cpu_count()} cores, {platform.processor() or platform.machine()}, "
        f"{platform.python_implementation()} {platform.python_version()}, torch "
        f"{torch.__version__} ({torch.get_num_threads()} threads, cuda "
        f"{torch.cuda.is_available()}), citecheck {citecheck.__version__}; load average "
        f"{os.getloadavg()[0]:.2f}"
    )
    print(f"command: python benchmarks/records.py {' '.join(sys.argv[1:])}")
    records = build_records(args.data, args.records, args.seed)
    citations = sum(len(r["citations"]) for r in records)
    print(f"{len(records)} records (3 SQuAD paragraphs each), {citations} citations")
    model = SentenceTransformerEmbedder().model
    before, one_by_one = timed(records, model, 1)
    print(f"before (one record at a time): {before:.1f} s = {len(records) / before:.1f} records/s")
    block = citecheck.records.validate.BLOCK_RECORDS
    after, batched = timed(records, model, block)
    print(
        f"after (blocks of {block} records): {after:.1f} s = {len(records) / after:.1f} "
        f"records/s; {before / after:.2f}x"
    )
    expected = outcomes(batched)
    alone = outcomes(one_by_one)
    # A batch pads its texts differently, which moves a cosine by about 1e-6: a confidence
    # rounded to two decimals may then differ in its last digit (a label only on a threshold).
    same, close = agreement(alone, expected, 0.011)
    print(
        f"labels and confidences equal to one at a time: {same}/{len(expected)}; labels equal "
        f"and confidences within 0.01: {close}/{len(expected)}"
    )
    counts = Counter(label for label, _ in expected)
    print("labels: " + ", ".join(f"{n} {label}" for label, n in counts.most_common()))
    for a, b in zip(alone, expected, strict=True):
        if a != b:
            print(f"  one at a time {a} / in blocks {b}")
    if not args.no_resume:
        print(f"resume: {resume(records, expected)}")
    return 0 if close == len(expected) else 1


if __name__ == "__main__":
    sys.exit(main())
