"""Locate quotes extracted from interviews in the sample corpus, as for a methods section.

The quotes of ``quotes.txt`` are one verbatim, one with other spacing, one with an ellipsis,
two with a changed word and one that the corpus does not hold.

Run from the repository root (needs the ``bm25`` extra): ``python examples/quotes.py``. It
prints one line per quote, the aggregate statistics and the methods and validation paragraphs
of the run, and writes ``quotes-review.csv`` to a temporary folder. From the command line,
with these quotes one per line in ``quotes.txt`` and the cosine column filled by
all-MiniLM-L6-v2 (the ``embeddings`` extra), the same run is::

    citecheck quotes quotes.txt examples/corpus -o review.csv \\
        --embedder all-MiniLM-L6-v2 --methods methods.md
"""

from __future__ import annotations

import tempfile
from pathlib import Path

import citecheck

HERE = Path(__file__).parent


def main() -> None:
    quotes = (HERE / "quotes.txt").read_text(encoding="utf-8").splitlines()
    report = citecheck.verify_quotes(quotes, citecheck.load_paths(HERE / "corpus"))
    for row in report.rows:
        print(f"{row.status.value:<12} {row.match_ratio or 0:4.2f}  {row.quote}")
        print(f"{'':<18}{row.reason}")
    print()
    for name, value in report.stats().items():
        print(f"{name:<24} {value}")
    print()
    print(report.methods_text())
    out = Path(tempfile.mkdtemp()) / "quotes-review.csv"
    report.to_csv(out)
    print(f"\nrows written to {out}")


if __name__ == "__main__":
    main()
