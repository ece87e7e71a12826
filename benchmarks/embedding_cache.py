"""What the embedding cache on disk saves: the records door on the same records, cold, then
again in a new embedder over the same cache folder (a second run of ``citecheck records``),
against the obvious alternative, no disk cache at all (every run embeds everything again).

Records are built as ``benchmarks/records.py`` builds them (three SQuAD v2.0 dev paragraphs a
record, three citations). The model (all-MiniLM-L6-v2 on PyTorch) is loaded once beforehand;
each run has a fresh embedder, so its memory cache is cold and only the disk can help. The
labels of the three runs must be equal.

Run from the repository root (needs the ``embeddings`` extra)::

    PYTHONPATH=src python benchmarks/embedding_cache.py [--records 1000] [--data DIR]
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))

from records import build_records, outcomes

import citecheck
from citecheck.embedders import SentenceTransformerEmbedder


def run(records: list[dict[str, Any]], model: Any, cache: Path | None) -> tuple[float, Any, Any]:
    """One run over ``records`` with a fresh embedder (the loaded ``model``) and ``cache``."""
    embedder = SentenceTransformerEmbedder(cache_dir=cache)
    embedder._model = model
    started = time.perf_counter()
    done = citecheck.validate_records(records, embedder=embedder)
    return time.perf_counter() - started, outcomes(done), embedder.cache


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--data", type=Path, default=Path("../shared/data/quotes"))
    parser.add_argument("--records", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    if not (args.data / "squad" / "dev-v2.0.json").exists():
        print(f"no SQuAD data under {args.data}; pass --data", file=sys.stderr)
        return 2
    print(
        f"machine: {os.cpu_count()} cores, {platform.machine()}, Python "
        f"{platform.python_version()}, citecheck {citecheck.__version__}; load average "
        f"{os.getloadavg()[0]:.2f}"
    )
    print(f"command: PYTHONPATH=src python benchmarks/embedding_cache.py {' '.join(sys.argv[1:])}")
    records = build_records(args.data, args.records, args.seed)
    print(f"{len(records)} records, {sum(len(r['citations']) for r in records)} citations")
    model = SentenceTransformerEmbedder().model
    with tempfile.TemporaryDirectory() as folder:
        cache = Path(folder)
        none, plain, _ = run(records, model, None)
        cold, first, _ = run(records, model, cache)
        warm, second, stats = run(records, model, cache)
        size = (cache / "embeddings-v2.sqlite").stat().st_size
    rate = len(records)
    print(f"no disk cache (every run):  {none:7.1f} s = {rate / none:7.1f} records/s")
    print(f"cache, first run (cold):    {cold:7.1f} s = {rate / cold:7.1f} records/s")
    print(
        f"cache, second run (warm):   {warm:7.1f} s = {rate / warm:7.1f} records/s; "
        f"{none / warm:.1f}x the run without it ({stats.misses} texts embedded, "
        f"{stats.hits} from the cache)"
    )
    print(f"store: {size / 1e6:.1f} MB on disk for {len(records)} records")
    same = plain == first == second
    print(f"labels and confidences equal in the three runs: {same}")
    return 0 if same else 1


if __name__ == "__main__":
    raise SystemExit(main())
