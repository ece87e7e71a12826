"""Index benchmark: MemoryIndex, FaissIndex exact and FaissIndex HNSW on 384-d chunks.

For each size (100k and 1M by default) the script times the build (``upsert`` in batches of
50,000 records, checks included), single-query latency p50/p95 for k=10, and a filtered query
(one document's 100 chunks; half the corpus by page), measures how much the process grows (RSS),
and scores recall@10 of each backend against exact FAISS search on the same queries. Targets:
1M chunks searchable on this machine; the approximate index at recall@10 >= 0.95 and >= 10x the
speed of exact search.

The vectors are synthetic, because uniform random vectors make approximate search meaningless
(every point is about equally far from every other): a corpus of documents of 100 chunks, each
document about one of 200 topics, each chunk near one of the topic's 20 subtopics with
anisotropic Gaussian noise, normalised to unit length like sentence embeddings. A query is a
chunk of the corpus with noise added (cosine about 0.89 to it), so it is not itself in the
index. Each backend runs in a forked child process, so its memory is measured alone.

Run from the repository root (needs the ``faiss`` extra)::

    PYTHONPATH=src python benchmarks/indexes.py [--sizes 100000 1000000] [--queries N]
        [--seed S] [--out FILE.json]
"""

from __future__ import annotations

import argparse
import gc
import json
import multiprocessing
import os
import platform
import statistics
import sys
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import faiss
import numpy as np

import citecheck
from citecheck.indexes import Record
from citecheck.indexes.faiss import FaissIndex
from citecheck.indexes.memory import MemoryIndex

DIMENSION = 384
TOPICS = 200
SUBTOPICS_PER_TOPIC = 20
CHUNKS_PER_DOCUMENT = 100
BATCH = 50_000
K = 10
WARMUP = 5
FILTERED_DOCUMENTS = 10  # distinct one-document filters, each timed cold (new) then warm
BROAD_QUERIES = 20  # queries with the half-corpus filter: MemoryIndex takes seconds for each
TARGET_RECALL = 0.95
TARGET_SPEEDUP = 10.0
BROAD_FILTER = {"page": {"$lte": 10}}  # pages 1-20 in every document: half the corpus passes

BACKENDS: dict[str, Callable[[], Any]] = {
    "MemoryIndex (numpy, exact)": lambda: MemoryIndex(DIMENSION),
    "FaissIndex exact (flat)": lambda: FaissIndex(DIMENSION),
    "FaissIndex approximate (HNSW)": lambda: FaissIndex(DIMENSION, approximate=True),
}
EXACT = "FaissIndex exact (flat)"
APPROXIMATE = "FaissIndex approximate (HNSW)"

# The corpus of the size being measured; set before the children fork, which inherit it.
CORPUS: dict[str, Any] = {}


# -- data ----------------------------------------------------------------------------------------


def unit(matrix: np.ndarray) -> np.ndarray:
    return matrix / np.linalg.norm(matrix, axis=1, keepdims=True)


def make_corpus(size: int, queries: int, seed: int) -> dict[str, Any]:
    """Clustered unit vectors in document order, and queries near some of them."""
    rng = np.random.default_rng(seed)
    scale = np.float32(1 / np.sqrt(DIMENSION))
    topics = unit(rng.standard_normal((TOPICS, DIMENSION), dtype=np.float32))
    # subtopic s belongs to topic s % TOPICS
    subtopics = unit(
        np.tile(topics, (SUBTOPICS_PER_TOPIC, 1))
        + 0.7 * scale * rng.standard_normal((TOPICS * SUBTOPICS_PER_TOPIC, DIMENSION), np.float32)
    )
    # noise with a decaying spectrum in a random basis, as real embeddings have
    basis = np.linalg.qr(rng.standard_normal((DIMENSION, DIMENSION)))[0].astype(np.float32)
    spread = np.arange(1, DIMENSION + 1, dtype=np.float32) ** -0.5
    spread *= np.sqrt(DIMENSION / (spread**2).sum())
    document_topic = rng.integers(0, TOPICS, -(-size // CHUNKS_PER_DOCUMENT))
    vectors = np.empty((size, DIMENSION), dtype=np.float32)
    for start in range(0, size, 100_000):
        rows = np.arange(start, min(size, start + 100_000))
        topic = document_topic[rows // CHUNKS_PER_DOCUMENT]
        subtopic = topic + TOPICS * rng.integers(0, SUBTOPICS_PER_TOPIC, len(rows))
        noise = (rng.standard_normal((len(rows), DIMENSION), dtype=np.float32) * spread) @ basis
        vectors[rows] = unit(subtopics[subtopic] + 0.8 * scale * noise)
    sources = rng.choice(size, queries + WARMUP, replace=False)
    near = vectors[sources] + 0.5 * scale * rng.standard_normal(
        (len(sources), DIMENSION), dtype=np.float32
    )
    documents = rng.choice(len(document_topic), FILTERED_DOCUMENTS, replace=False)
    return {
        "vectors": vectors,
        "queries": unit(near),
        "closeness": float(np.mean(np.sum(unit(near) * vectors[sources], axis=1))),
        "documents": [document_name(int(d)) for d in documents],
    }


def document_name(number: int) -> str:
    return f"doc-{number:05d}"


def records(vectors: np.ndarray, start: int) -> Iterator[Record]:
    """Records of one batch, made in the child so their metadata is the index's own memory."""
    for offset, vector in enumerate(vectors):
        row = start + offset
        chunk = row % CHUNKS_PER_DOCUMENT
        metadata = {"doc": document_name(row // CHUNKS_PER_DOCUMENT), "page": chunk // 5 + 1}
        yield Record(f"chunk-{row}", vector, metadata)


# -- measuring -----------------------------------------------------------------------------------


def rss_mib(field: str = "VmRSS") -> float:
    """This process's resident memory (or its peak, ``VmHWM``) in MiB, from /proc."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1]) / 1024
    raise RuntimeError(f"no {field} in /proc/self/status")


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def timed_search(index: Any, query: np.ndarray, filter: Any = None) -> tuple[float, list[str]]:
    started = time.perf_counter()
    hits = index.search(query, k=K, filter=filter)
    return (time.perf_counter() - started) * 1000, [h.id for h in hits]


def measure(backend: str) -> dict[str, Any]:
    """Build one backend over the inherited corpus and time it; runs in a forked child."""
    vectors, queries = CORPUS["vectors"], CORPUS["queries"]
    gc.collect()
    before = rss_mib()
    index = BACKENDS[backend]()
    started = time.perf_counter()
    for start in range(0, len(vectors), BATCH):
        index.upsert(records(vectors[start : start + BATCH], start))
    build = time.perf_counter() - started
    gc.collect()
    grown, peak = rss_mib() - before, rss_mib("VmHWM") - before
    for query in queries[:WARMUP]:
        index.search(query, k=K)
    plain = [timed_search(index, query) for query in queries[WARMUP:]]
    selective_cold, selective_warm, selective_ids = [], [], []
    for number, document in enumerate(CORPUS["documents"]):
        query, filter = queries[WARMUP + number], {"doc": document}
        selective_cold.append(timed_search(index, query, filter)[0])
        milliseconds, ids = timed_search(index, query, filter)
        selective_warm.append(milliseconds)
        selective_ids.append(ids)
    broad_cold = timed_search(index, queries[WARMUP], BROAD_FILTER)[0]
    broad = [
        timed_search(index, query, BROAD_FILTER)
        for query in queries[WARMUP : WARMUP + BROAD_QUERIES]
    ]
    return {
        "backend": backend,
        "count": index.count(),
        "build_s": build,
        "rss_growth_mib": grown,
        "rss_peak_growth_mib": peak,
        "latency_ms": [ms for ms, _ in plain],
        "ids": [ids for _, ids in plain],
        "document_filter_cold_ms": selective_cold,
        "document_filter_warm_ms": selective_warm,
        "document_filter_ids": selective_ids,
        "broad_filter_cold_ms": broad_cold,
        "broad_filter_ms": [ms for ms, _ in broad],
        "broad_filter_ids": [ids for _, ids in broad],
    }


def in_child(backend: str) -> dict[str, Any]:
    """``measure`` in a fresh forked process: its memory is this backend's alone, and what the
    previous backend freed cannot hide what this one takes."""
    with ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("fork")) as pool:
        return pool.submit(measure, backend).result()


def recall(found: list[list[str]], truth: list[list[str]]) -> float:
    return sum(len(set(f) & set(t)) for f, t in zip(found, truth, strict=True)) / sum(
        len(t) for t in truth
    )


def summarise(result: dict[str, Any], exact: dict[str, Any]) -> dict[str, Any]:
    latency = result["latency_ms"]
    return {
        "backend": result["backend"],
        "build_s": result["build_s"],
        "rss_growth_mib": result["rss_growth_mib"],
        "rss_peak_growth_mib": result["rss_peak_growth_mib"],
        "p50_ms": statistics.median(latency),
        "p95_ms": percentile(latency, 0.95),
        "recall_at_10": recall(result["ids"], exact["ids"]),
        "speedup_vs_faiss_exact": statistics.median(exact["latency_ms"])
        / statistics.median(latency),
        "document_filter_cold_p50_ms": statistics.median(result["document_filter_cold_ms"]),
        "document_filter_warm_p50_ms": statistics.median(result["document_filter_warm_ms"]),
        "document_filter_recall_at_10": recall(
            result["document_filter_ids"], exact["document_filter_ids"]
        ),
        "broad_filter_cold_ms": result["broad_filter_cold_ms"],
        "broad_filter_warm_p50_ms": statistics.median(result["broad_filter_ms"]),
        "broad_filter_recall_at_10": recall(result["broad_filter_ids"], exact["broad_filter_ids"]),
    }


# -- reporting -----------------------------------------------------------------------------------


def machine() -> dict[str, Any]:
    model = platform.processor() or "unknown"
    for line in Path("/proc/cpuinfo").read_text().splitlines():
        if line.startswith("model name"):
            model = line.split(":", 1)[1].strip()
            break
    return {
        "cpu_model": model,
        "cores": os.cpu_count(),
        "python": f"{platform.python_implementation()} {platform.python_version()}",
        "platform": platform.platform(),
        "citecheck": citecheck.__version__,
        "numpy": np.__version__,
        "faiss": faiss.__version__,
        "faiss_threads": faiss.omp_get_max_threads(),
        "load_average": [round(x, 2) for x in os.getloadavg()],
    }


def table(rows: list[dict[str, Any]]) -> str:
    lines = [
        "| chunks | backend | build s | RSS MiB (peak) | p50 ms | p95 ms | recall@10 | "
        "speed vs exact FAISS | one-doc filter cold / warm ms | half-corpus filter cold / warm "
        "ms (recall@10) |",
        "|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for row in rows:
        lines.append(
            f"| {row['size']:,} | {row['backend']} | {row['build_s']:.1f} | "
            f"{row['rss_growth_mib']:,.0f} ({row['rss_peak_growth_mib']:,.0f}) | "
            f"{row['p50_ms']:.2f} | {row['p95_ms']:.2f} | {row['recall_at_10']:.3f} | "
            f"{row['speedup_vs_faiss_exact']:.1f}x | "
            f"{row['document_filter_cold_p50_ms']:.1f} / {row['document_filter_warm_p50_ms']:.2f} "
            f"| {row['broad_filter_cold_ms']:.1f} / {row['broad_filter_warm_p50_ms']:.2f} "
            f"({row['broad_filter_recall_at_10']:.3f}) |"
        )
    return "\n".join(lines)


def run_size(size: int, queries: int, seed: int) -> list[dict[str, Any]]:
    started = time.perf_counter()
    CORPUS.clear()
    CORPUS.update(make_corpus(size, queries, seed))
    print(
        f"\n{size:,} chunks ({size // CHUNKS_PER_DOCUMENT:,} documents), {queries} queries with "
        f"cosine {CORPUS['closeness']:.2f} to the chunk they were made from; generated in "
        f"{time.perf_counter() - started:.0f} s (not timed)",
        flush=True,
    )
    results = {}
    for backend in BACKENDS:
        results[backend] = in_child(backend)
        print(f"  {backend}: built in {results[backend]['build_s']:.1f} s", flush=True)
    rows = [{"size": size, **summarise(r, results[EXACT])} for r in results.values()]
    approximate = next(row for row in rows if row["backend"] == APPROXIMATE)
    met = (
        approximate["recall_at_10"] >= TARGET_RECALL
        and approximate["speedup_vs_faiss_exact"] >= TARGET_SPEEDUP
    )
    print(
        f"  target (recall@10 >= {TARGET_RECALL} at >= {TARGET_SPEEDUP:.0f}x exact FAISS): "
        f"{'met' if met else 'NOT met'}; memory agrees with exact FAISS on "
        f"{rows[0]['recall_at_10']:.1%} of the top-10 ids",
        flush=True,
    )
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--sizes", type=int, nargs="+", default=[100_000, 1_000_000])
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--seed", type=int, default=20250101)
    parser.add_argument("--out", type=Path)
    args = parser.parse_args(argv)
    if args.queries < BROAD_QUERIES:
        parser.error(f"--queries must be at least {BROAD_QUERIES}")
    info = machine()
    command = "PYTHONPATH=src python benchmarks/indexes.py " + " ".join(sys.argv[1:])
    print(f"command: {command}")
    print(
        f"machine: {info['cpu_model']}, {info['cores']} cores; {info['python']}; citecheck "
        f"{info['citecheck']}, numpy {info['numpy']}, faiss-cpu {info['faiss']} "
        f"({info['faiss_threads']} threads); load average {info['load_average']}"
    )
    print(
        "data: synthetic clustered unit vectors (Gaussian mixture: 200 topics x 20 subtopics, "
        "anisotropic noise), not real embeddings; queries are perturbed chunks, not in the index"
    )
    started = time.perf_counter()
    rows = [row for size in args.sizes for row in run_size(size, args.queries, args.seed)]
    elapsed = time.perf_counter() - started
    print(f"\n{table(rows)}\n")
    print(
        f"k={K}; latency is one query per call, {args.queries} queries; recall@10 and speed are "
        "against exact FAISS on the same queries; filters: cold = first search with that "
        "filter, warm = the same filter again; HNSW m=32, ef_construction=40, ef_search=128; "
        f"total {elapsed / 60:.1f} min; load average now {[round(x, 2) for x in os.getloadavg()]}"
    )
    if args.out:
        payload = {"command": command, "machine": info, "seed": args.seed, "rows": rows}
        args.out.write_text(json.dumps(payload, indent=2), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
