"""Quotes in a corpus of near-duplicate documents: exact anywhere must beat near somewhere.

The corpus is the licence texts Debian ships in ``/usr/share/common-licenses`` (GPL-2, GPL-3,
LGPL-2.1, LGPL-3, GFDL-1.2, GFDL-1.3, MPL-1.1, MPL-2.0, Apache-2.0): versions of one licence
share most of their sentences, and the GPL and the GFDL differ in a word here and there
("program" for "document"). The quotes are sentences (8 to 60 words) drawn from the texts with
a fixed seed; each stands verbatim in at least one file. For every quote the benchmark asks
``citecheck.verify_quotes`` where it stands and counts:

* **verified**: the share of quotes that come out ``verified``;
* **at a verbatim place**: of those, the share whose evidence is a place where the quote
  stands word for word (not a near duplicate in another file);
* ``partial`` and ``unsupported``: quotes that stand verbatim somewhere and were refused.

Run from the repository root (``--before DIR`` runs another checkout's ``src`` in the same
process-free way, for a before/after table)::

    PYTHONPATH=src python benchmarks/quotes_near_duplicates.py [--quotes 300] [--seed 7]

It needs the ``bm25`` extra.
"""

from __future__ import annotations

import argparse
import random
import re
import shlex
import sys
import time
from collections import Counter
from pathlib import Path

import citecheck
from citecheck.language.text import normalize, sentence_spans

LICENCES = (
    "GPL-2",
    "GPL-3",
    "LGPL-2.1",
    "LGPL-3",
    "GFDL-1.2",
    "GFDL-1.3",
    "MPL-1.1",
    "MPL-2.0",
    "Apache-2.0",
)
FOLDER = Path("/usr/share/common-licenses")
EDGE = " .;:,()[]\"'"
"""Punctuation at a quote's ends, which a located span need not hold."""


def corpus() -> dict[str, str]:
    return {
        name: (FOLDER / name).read_text(encoding="utf-8", errors="replace")
        for name in LICENCES
        if (FOLDER / name).is_file()
    }


def quotes(texts: dict[str, str], n: int, seed: int) -> list[str]:
    pool = []
    for text in texts.values():
        for start, end in sentence_spans(text):
            sentence = " ".join(text[start:end].split())
            if 8 <= len(sentence.split()) <= 60 and re.search(r"[a-z]", sentence):
                pool.append(sentence)
    pool = sorted(set(pool))
    return random.Random(seed).sample(pool, min(n, len(pool)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quotes", type=int, default=300)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    texts = corpus()
    if len(texts) < 2:
        sys.exit(f"needs the licence texts of {FOLDER}")
    chosen = quotes(texts, args.quotes, args.seed)
    normalised = {name: normalize(text) for name, text in texts.items()}
    started = time.perf_counter()
    report = citecheck.verify_quotes(chosen, texts)
    took = time.perf_counter() - started
    counts: Counter[str] = Counter()
    for quote, result in zip(chosen, report.results, strict=True):
        counts[result.status.value] += 1
        if result.status.value == "verified" and result.evidence:
            evidence = result.evidence[0]
            place = normalize(texts[evidence.source_id][evidence.start : evidence.end])
            wanted = normalize(quote).strip(EDGE)
            if wanted in place.strip(EDGE) and wanted in normalised[evidence.source_id]:
                counts["at a verbatim place"] += 1
    total = len(chosen)
    print(f"command: {shlex.join(['python', *sys.argv])}")
    print(f"citecheck {citecheck.__version__} from {Path(citecheck.__file__).parent}")
    print(f"corpus: {len(texts)} licence texts; {total} quotes, each verbatim in a file")
    print(f"time: {took:.1f} s ({total / took:.0f} quotes/s)")
    for key in ("verified", "at a verbatim place", "partial", "unsupported", "wrong_location"):
        print(f"  {key:22} {counts[key]:4d}  {counts[key] / total:6.1%}")


if __name__ == "__main__":
    main()
