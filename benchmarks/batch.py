"""Record batches on Ray Data against the plain loop, in one run: records per second, and what
loading the model costs each worker.

The records are those of ``benchmarks/records.py`` (SQuAD v2.0 dev paragraphs from
``../shared/data/quotes``, three per record's source, three citations each). Timed, each on the
same records with the real model (all-MiniLM-L6-v2, the ``embeddings`` extra):

1. **loop**: :func:`citecheck.verify_records` in this process, the model loaded beforehand (its
   load is timed on its own: the per-worker cost);
2. **ray, N workers**: ``ray.data.from_items(...).map_batches(BatchVerifier,
   compute=ActorPoolStrategy(size=N))`` on a local Ray cluster of the machine's cores, order
   preserved, timed from the dataset's creation to the last row (each worker loads the model
   once inside that time).

The labels of every run must equal the loop's, and its confidences (percentages, two decimals)
stay within 0.05 of them: Ray's batches are another size than the loop's blocks, and a batch
pads its texts differently. Run from the repository root (needs the
``embeddings`` and ``ray`` extras)::

    PYTHONPATH=src:benchmarks python benchmarks/batch.py [--records 2000] [--workers 1 2]
"""

from __future__ import annotations

import argparse
import json
import os
import time
import warnings
from pathlib import Path
from typing import Any

from _machine import machine
from records import build_records

import citecheck
from citecheck.batch import BatchVerifier
from citecheck.records import RecordConfig
from citecheck.records.validate import default_embedder

DEFAULT_DATA = Path(__file__).resolve().parents[2] / "shared" / "data" / "quotes"


def labels(results: list[Any]) -> list[tuple[str, Any]]:
    return [(r.details.get("label"), r.details.get("confidence_score_percent")) for r in results]


def compared(got: list[tuple[str, Any]], expected: list[tuple[str, Any]]) -> dict[str, Any]:
    """How a run's labels and confidences differ from the loop's: a batch of another size pads
    its texts differently, which can move a cosine by about 1e-6 (a confidence's last digit)."""
    if len(got) != len(expected):
        return {"same": False, "labels_differ": None, "confidence_max_diff": None}
    differ = sum(g[0] != e[0] for g, e in zip(got, expected, strict=True))
    gaps = [
        abs(g[1] - e[1])
        for g, e in zip(got, expected, strict=True)
        if g[1] is not None and e[1] is not None
    ]
    largest = max(gaps, default=0.0)
    return {
        "same": differ == 0 and largest <= 0.05,
        "labels_differ": differ,
        "confidence_max_diff": round(largest, 4),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--records", type=int, default=2000)
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--block", type=int, default=64, help="records per Ray batch")
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--seed", type=int, default=20261127)
    parser.add_argument("--out", type=Path, help="also write the numbers as JSON here")
    args = parser.parse_args()
    warnings.simplefilter("ignore", DeprecationWarning)  # Ray's own, about its own settings
    os.environ.setdefault("RAY_AUTH_MODE", "disabled")

    import ray
    import ray.data

    records = build_records(args.data, args.records, args.seed)
    settings = RecordConfig()
    began = time.perf_counter()
    embedder = default_embedder(settings)
    load = time.perf_counter() - began
    began = time.perf_counter()
    loop = citecheck.verify_records(records, embedder=embedder)
    loop_seconds = time.perf_counter() - began
    expected = labels(list(loop.results))
    rows: list[dict[str, Any]] = [
        {"run": "loop", "workers": 1, "seconds": loop_seconds, **compared(expected, expected)}
    ]

    ray.init(include_dashboard=False, log_to_driver=False)
    context = ray.data.DataContext.get_current()
    context.execution_options.preserve_order = True
    context.enable_progress_bars = False
    try:
        for workers in args.workers:
            began = time.perf_counter()
            dataset = ray.data.from_items(
                [{"record": json.dumps(r)} for r in records],
                override_num_blocks=max(workers, -(-len(records) // args.block)),
            )
            checked = dataset.map_batches(
                BatchVerifier,
                fn_constructor_kwargs={"kind": "records", "column": "record", "config": settings},
                batch_format="pandas",
                batch_size=args.block,
                compute=ray.data.ActorPoolStrategy(size=workers),
            ).to_pandas()
            seconds = time.perf_counter() - began
            got = labels(BatchVerifier("records").report(checked).results)
            rows.append(
                {"run": "ray", "workers": workers, "seconds": seconds, **compared(got, expected)}
            )
    finally:
        ray.shutdown()

    print(f"{len(records)} records, {len(loop.results)} citations; {machine()}")
    print(f"model load (each worker pays it once): {load:.2f} s")
    print(
        "| run | workers | seconds | records/s | against the loop | labels differ | confidence gap"
        " |"
    )
    print("|---|--:|--:|--:|--:|--:|--:|")
    for row in rows:
        rate = len(records) / row["seconds"]
        ratio = loop_seconds / row["seconds"]
        print(
            f"| {row['run']} | {row['workers']} | {row['seconds']:.1f} | {rate:.1f} | "
            f"{ratio:.2f}× | {row['labels_differ']} | {row['confidence_max_diff']} |"
        )
    if args.out:
        numbers = {"machine": machine(), "records": len(records), "model_load_s": load}
        args.out.write_text(json.dumps({**numbers, "runs": rows}, indent=2), encoding="utf-8")
    if not all(row["same"] for row in rows):
        raise SystemExit("a Ray run's labels differ from the loop's (or its confidences by > 0.05)")


if __name__ == "__main__":
    main()
