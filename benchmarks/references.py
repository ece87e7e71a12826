"""Structured-reference benchmark: references checked per second, and requests to Pinecone.

Answers are generated with a fixed seed from the real Valmiki Ramayana map
(``../shared/data/references/ramayana``, ``--data`` to change it; read, never copied): each
answer cites 5 to 15 references in the written forms users produce (``[Bala Kanda 1.1]``,
``(Ayodhya 2.3)``, ``Sundara 5.15.30``, ``Sundara Kanda, Sarga 15, Shloka 30``, ranges, lists),
a fifth of them phantoms (a shloka, sarga or kanda past the end). Every verdict is checked
against the ground truth before a number is reported.

Measured in one run:

* ``verify_many`` against the structure map, extraction included (target >= 10,000 references
  a second), and the same one answer at a time (``verify``);
* against a Pinecone index on the loopback emulator (by deterministic ids): HTTP requests per
  1,000 references and references a second, against the obvious alternative, one fetch per
  reference;
* the Bible (if ``pythonbible`` is installed): citecheck's ``bible`` scheme with
  ``PythonBibleCatalog`` against pythonbible's own ``get_references`` + ``is_valid_verse``.

Run from the repository root (the ``pinecone`` and ``bible`` extras for the last two parts)::

    PYTHONPATH=src python benchmarks/references.py [--answers N] [--seed S] [--out FILE.json]
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path
from typing import Any

from _machine import machine

from citecheck.indexes.records import Record
from citecheck.references import (
    IndexCatalog,
    ReferenceVerifier,
    StructureMap,
    valmiki_ramayana,
)

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_DATA = ROOT / ".." / "shared" / "data" / "references" / "ramayana"
TARGET_PER_SECOND = 10_000
SCHEME = valmiki_ramayana()
LONG_NAMES = {"Bala": "Bala Kanda", "Yuddha": "Lanka Kanda", "Sundara": "Sundarakanda"}


def make_answers(
    structure: StructureMap, count: int, seed: int
) -> tuple[list[str], list[list[tuple[str, bool]]]]:
    """``count`` answers and, per answer, the (canonical, exists) of every reference in order."""
    rng = random.Random(seed)
    books = list(SCHEME.books)
    answers, truth = [], []
    for _ in range(count):
        parts, expected = [], []
        for _ in range(rng.randint(5, 15)):
            book = rng.choice(books)
            sizes = structure.counts(book.name)
            assert isinstance(sizes, list)
            sarga = rng.randint(1, len(sizes))
            shloka = rng.randint(1, sizes[sarga - 1])
            if rng.random() < 0.2:  # a phantom: past the shlokas, or past the sargas
                if rng.random() < 0.5:
                    shloka = sizes[sarga - 1] + rng.randint(1, 50)
                else:
                    sarga = len(sizes) + rng.randint(1, 20)
            exists = sarga <= len(sizes) and shloka <= sizes[sarga - 1]
            canonical = f"{book.name} {sarga}.{shloka}"
            form = rng.randrange(6)
            if form == 0:
                written = f"[{LONG_NAMES.get(book.name, book.name + ' Kanda')} {sarga}.{shloka}]"
            elif form == 1:
                written = f"({book.name} {sarga}.{shloka})"
            elif form == 2:
                written = f"{book.name} {book.number}.{sarga}.{shloka}"
            elif form == 3:
                written = f"{book.name} Kanda, Sarga {sarga}, Shloka {shloka}"
            elif form == 4 and exists and shloka + 2 <= sizes[sarga - 1]:
                written = f"({book.name} {sarga}.{shloka}-{shloka + 2})"
                expected += [(f"{book.name} {sarga}.{shloka + i}", True) for i in range(3)]
                parts.append(f"As told {written}, the story goes on.")
                continue
            else:
                written = f"[{book.name} {sarga}.{shloka}]"
            expected.append((canonical, exists))
            parts.append(f"As told {written}, the story goes on.")
        answers.append(" ".join(parts))
        truth.append(expected)
    return answers, truth


def check(reports: list[Any], truth: list[list[tuple[str, bool]]]) -> None:
    for report, expected in zip(reports, truth, strict=True):
        got = [(r.citation.source_id, r.status.value == "verified") for r in report]
        if got != expected:
            sys.exit(f"verdicts disagree with the ground truth:\n{got}\n{expected}")


def timed(function: Any, repeats: int = 3) -> tuple[float, Any]:
    best, result = float("inf"), None
    for _ in range(repeats):
        start = time.perf_counter()
        result = function()
        best = min(best, time.perf_counter() - start)
    return best, result


def structure_map_part(structure: StructureMap, answers: list[str], truth: Any) -> dict[str, Any]:
    verifier = ReferenceVerifier(SCHEME, structure)
    refs = sum(len(t) for t in truth)
    batch_seconds, reports = timed(lambda: verifier.verify_many(answers))
    check(reports, truth)
    single_seconds, singles = timed(lambda: [verifier.verify(a) for a in answers])
    check(singles, truth)
    return {
        "references": refs,
        "answers": len(answers),
        "verify_many_refs_per_second": round(refs / batch_seconds),
        "verify_each_refs_per_second": round(refs / single_seconds),
        "target_refs_per_second": TARGET_PER_SECOND,
    }


def pinecone_part(structure: StructureMap, answers: list[str], truth: Any) -> dict[str, Any]:
    import pinecone

    from citecheck.indexes.pinecone import PineconeIndex
    from citecheck.testing.pinecone_emulator import PineconeEmulator

    records = [
        Record(f"{r.book}.{r.numbers[0]}.{r.numbers[1]}", [1.0, float(i % 10)], {})
        for i, r in enumerate(structure.references())
    ]
    refs = sum(len(t) for t in truth)
    with PineconeEmulator(dimension=2, api_key="key") as emulator:
        client = pinecone.Index(host=emulator.host, api_key="key")
        index = PineconeIndex(emulator.host, "key", dimension=2, client=client, batch_size=1000)
        index.upsert(records)
        catalog = IndexCatalog(index, SCHEME)
        verifier = ReferenceVerifier(SCHEME, catalog)
        before = len(emulator.requests)
        start = time.perf_counter()
        reports = verifier.verify_many(answers)
        batched_seconds = time.perf_counter() - start
        batched_requests = len(emulator.requests) - before
        check(reports, truth)
        # The obvious alternative: one fetch per reference as it is met (no batching, no
        # de-duplication), on the first answers only, as it is slow.
        sample = answers[: max(1, len(answers) // 20)]
        sample_refs = sum(len(t) for t in truth[: len(sample)])
        single = IndexCatalog(index, SCHEME, batch_size=1)
        one_by_one = ReferenceVerifier(SCHEME, single)
        before = len(emulator.requests)
        start = time.perf_counter()
        for answer in sample:
            for mention in one_by_one.extractor.extract(answer)[0]:
                for ref in mention.references:
                    single.lookup([ref])
        naive_seconds = time.perf_counter() - start
        naive_requests = len(emulator.requests) - before
        client.close()
    batched_rate = refs / batched_seconds
    naive_rate = sample_refs / naive_seconds
    return {
        "references": refs,
        "requests": batched_requests,
        "requests_per_1000_refs": round(1000 * batched_requests / refs, 2),
        "refs_per_second": round(batched_rate),
        "one_fetch_per_ref": {
            "references": sample_refs,
            "requests_per_1000_refs": round(1000 * naive_requests / sample_refs, 2),
            "refs_per_second": round(naive_rate),
        },
        "speedup": round(batched_rate / naive_rate, 1),
    }


def bible_part(count: int, seed: int) -> dict[str, Any] | None:
    """The Bible: citecheck against pythonbible's parser and validator, on answers in which
    some chapters and verses are past the end (phantoms)."""
    try:
        import pythonbible as pb
    except ImportError:
        return None
    from citecheck.references import PythonBibleCatalog, bible

    rng = random.Random(seed)
    scheme = bible()
    books = list(pb.Book)[:66]
    answers, truth = [], []
    for _ in range(count):
        parts, expected = [], []
        for _ in range(rng.randint(5, 15)):
            book = rng.choice(books)
            chapters = pb.get_number_of_chapters(book)
            chapter = rng.randint(1, chapters + 1)
            verse = rng.randint(1, 40)
            exists = chapter <= chapters and verse <= pb.get_number_of_verses(book, chapter)
            parts.append(f"As written ({book.title} {chapter}:{verse}), it goes on.")
            expected.append((scheme.reference(book.title, (chapter, verse)).canonical, exists))
        answers.append(" ".join(parts))
        truth.append(expected)
    verifier = ReferenceVerifier(scheme, PythonBibleCatalog())
    citecheck_seconds, reports = timed(lambda: verifier.verify_many(answers))
    check(reports, truth)

    def alternative() -> list[list[bool]]:
        return [
            [
                pb.is_valid_verse(ref.book, ref.start_chapter, ref.start_verse)
                for ref in pb.get_references(answer)
            ]
            for answer in answers
        ]

    alternative_seconds, valid = timed(alternative)
    refs = sum(len(t) for t in truth)
    phantoms = sum(not exists for t in truth for _, exists in t)
    return {
        "answers": count,
        "references": refs,
        "phantoms": phantoms,
        "citecheck": {
            "refs_per_second": round(refs / citecheck_seconds),
            "answers_failed": sum(r.result == "FAIL" for r in reports),
            "phantom_references_found": sum(
                r.status.value == "not_found" for report in reports for r in report
            ),
        },
        "pythonbible_get_references_is_valid_verse": {
            "refs_per_second": round(refs / alternative_seconds),
            "references_returned": sum(len(v) for v in valid),
            "phantom_references_found": sum(not ok for v in valid for ok in v),
        },
        "speedup": round(alternative_seconds / citecheck_seconds, 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--answers", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    map_file = args.data / "ramayan_map.json"
    if not map_file.exists():
        sys.exit(f"missing {map_file}: pass --data (see ../shared/data/README.md)")
    structure = StructureMap.from_file(map_file, SCHEME)
    answers, truth = make_answers(structure, args.answers, args.seed)
    results: dict[str, Any] = {
        "command": "PYTHONPATH=src python benchmarks/references.py " + " ".join(sys.argv[1:]),
        "machine": machine(),
        "structure_map": structure_map_part(structure, answers, truth),
    }
    print(json.dumps(results["structure_map"], indent=2))
    try:
        results["pinecone"] = pinecone_part(structure, answers, truth)
        print(json.dumps(results["pinecone"], indent=2))
    except ImportError:
        print("pinecone not installed: skipped")
    bible_results = bible_part(args.answers, args.seed)
    if bible_results is not None:
        results["bible"] = bible_results
        print(json.dumps(bible_results, indent=2))
    print(json.dumps(results["machine"]))
    if args.out:
        args.out.write_text(json.dumps(results, indent=2) + "\n")


if __name__ == "__main__":
    main()
