"""Semantic validation speed: claims per second against cached source embeddings, and the cache.

Sources are the SQuAD v2.0 dev paragraphs in ``../shared/data/quotes`` (real Wikipedia text);
each paragraph is one record whose citations are two of its sentences (first run) or two of
its questions (second run, new texts against the same, now cached, sources). Timed:

1. **cold**: :func:`citecheck.validate_records` with a new embedder: every source sentence
   and every claim is embedded;
2. **warm**: the same embedder on new claims: only the claims are embedded;
3. **disk**: a new embedder over the same cache directory and the first run's claims: nothing
   may be embedded at all (the script fails if anything is);
4. **the model alone**: ``encode`` on the warm run's claims, the ceiling of any wrapper;
5. **no cache** (the obvious alternative): the same work as the warm run with a cache that
   forgets everything between records, so each record embeds its source again.

Run from the repository root (needs the ``embeddings`` extra)::

    PYTHONPATH=src python benchmarks/semantic.py [--data ../shared/data/quotes] [--records N]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import citecheck
from citecheck.embedders import SentenceTransformerEmbedder
from citecheck.language.text import sentence_spans

TARGET_CLAIMS_PER_SECOND = 200


def load_records(
    data: Path, count: int, seed: int
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Two batches over the same paragraphs: claims from its sentences, then from its
    questions."""
    squad = json.loads((data / "squad" / "dev-v2.0.json").read_text(encoding="utf-8"))
    rng = random.Random(seed)
    by_sentences: list[dict[str, Any]] = []
    by_questions: list[dict[str, Any]] = []
    for article in squad["data"]:
        for paragraph in article["paragraphs"]:
            context = paragraph["context"]
            sentences = [context[a:b] for a, b in sentence_spans(context)]
            questions = [qa["question"] for qa in paragraph["qas"]]
            if len(sentences) < 2 or len(questions) < 2:
                continue
            source = f"Content from {article['title']}\n{context}\n"
            by_sentences.append(
                {
                    "source_text": source,
                    "citations": [{"citation": s} for s in rng.sample(sentences, 2)],
                }
            )
            by_questions.append(
                {
                    "source_text": source,
                    "citations": [{"citation": q} for q in rng.sample(questions, 2)],
                }
            )
    return by_sentences[:count], by_questions[:count]


def timed(records: list[dict[str, Any]], embedder: Any) -> tuple[float, list[dict[str, Any]]]:
    started = time.perf_counter()
    done = citecheck.validate_records(records, embedder=embedder)
    return time.perf_counter() - started, done


class Forgetful:
    """The no-cache alternative: a fresh in-memory cache for every record."""

    def __init__(self, model: SentenceTransformerEmbedder) -> None:
        self.model = model

    def embed_documents(self, texts: list[str]) -> Any:
        return self.model.cache.embedder.embed_documents(texts)

    def embed_query(self, text: str) -> Any:
        return self.embed_documents([text])[0]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--data", type=Path, default=Path("../shared/data/quotes"))
    parser.add_argument("--records", type=int, default=300)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args(argv)
    if not (args.data / "squad" / "dev-v2.0.json").exists():
        print(f"no SQuAD data under {args.data}; pass --data", file=sys.stderr)
        return 2
    first, second = load_records(args.data, args.records, args.seed)
    claims = sum(len(r["citations"]) for r in first)
    import torch

    print(
        f"machine: {os.cpu_count()} cores, {platform.python_implementation()} "
        f"{platform.python_version()}, torch {torch.__version__} ({torch.get_num_threads()} "
        f"threads), citecheck {citecheck.__version__}; load average {os.getloadavg()[0]:.2f}"
    )
    print(f"command: python benchmarks/semantic.py {' '.join(sys.argv[1:])}")
    print(f"{len(first)} records (SQuAD paragraphs), {claims} claims per run")
    with tempfile.TemporaryDirectory() as directory:
        embedder = SentenceTransformerEmbedder(cache_dir=directory)
        _ = embedder.model  # loading the model is not part of any timing
        cold, _ = timed(first, embedder)
        sources = embedder.cache.misses - claims
        embedded = embedder.cache.misses
        print(f"cold: {cold:.1f} s = {claims / cold:.0f} claims/s ({embedded} texts embedded)")
        before = embedder.cache.misses
        warm, done = timed(second, embedder)
        met = "met" if claims / warm >= TARGET_CLAIMS_PER_SECOND else "NOT met"
        print(
            f"warm (sources cached): {warm:.1f} s = {claims / warm:.0f} claims/s "
            f"({embedder.cache.misses - before} texts embedded); "
            f"target >= {TARGET_CLAIMS_PER_SECOND}/s: {met}"
        )
        texts = [c["citation"] for r in second for c in r["citations"]]
        started = time.perf_counter()
        embedder.model.encode(texts, batch_size=embedder.batch_size, normalize_embeddings=True)
        ceiling = time.perf_counter() - started
        print(
            f"the model alone on the same {len(texts)} claims: {ceiling:.1f} s = "
            f"{len(texts) / ceiling:.0f} claims/s (the ceiling; citecheck's share of the warm "
            f"run: {max(0.0, warm - ceiling):.1f} s)"
        )
        again = SentenceTransformerEmbedder(cache_dir=directory)
        again._model = embedder.model  # same weights; the cache must make loading unnecessary
        disk, _ = timed(first, again)
        print(f"disk cache, new embedder: {disk:.1f} s, {again.cache.misses} texts embedded")
        if again.cache.misses:
            print("FAILED: the second run over the same sources embedded texts", file=sys.stderr)
            return 1
        started = time.perf_counter()
        forgetful = Forgetful(embedder)
        for record in second:
            citecheck.validate_records([record], embedder=forgetful)
        naive = time.perf_counter() - started
        print(
            f"no cache (each record embeds its source again): {naive:.1f} s = "
            f"{claims / naive:.0f} claims/s; warm cache is {naive / warm:.1f}x faster "
            f"({sources} source sentences in the corpus)"
        )
    labels: dict[str, int] = {}
    for record in done:
        for citation in record["citations"]:
            labels[citation["validation_status"]] = labels.get(citation["validation_status"], 0) + 1
    print(f"labels of the question claims: {labels}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
