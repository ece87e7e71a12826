"""Label the AI-written citations of a batch of records by how likely their source supports them.

Run from the repository root, with the ``embeddings`` extra installed::

    python examples/records.py

It reads ``examples/records.json``, validates every citation against its record's source text
with all-MiniLM-L6-v2 (loaded offline), and prints one line per citation, the least likely true
first, the way a reviewer would go through them. The same run from the command line is
``citecheck records examples/records.json -o labelled.json`` (without ``-o`` it writes
``examples/output_validated.json``). ``validate_records(records, label_set="seed")``, or
``"label_set": "seed"`` in a ``config.json``, writes the labels as the validator citecheck
replaces wrote them ("ambiguous / review recommended", "untrue (too short)", ...).
"""

from __future__ import annotations

import json
from pathlib import Path

import citecheck

HERE = Path(__file__).parent
REVIEW_ORDER = [
    "no source text",
    "too short",
    "very likely untrue",
    "likely untrue",
    "ambiguous",
    "likely true",
    "very likely true",
]


def main() -> None:
    records = json.loads((HERE / "records.json").read_text(encoding="utf-8"))
    done = citecheck.validate_records(records)
    rows = []
    for record in done:
        if "validation_error" in record:
            print(f"{record['id']}: {record['validation_error']}")
        for citation in record.get("citations", []):
            if "validation_status" in citation:
                rows.append((citation["confidence_score_percent"], record["id"], citation))
    rows.sort(key=lambda row: (REVIEW_ORDER.index(row[2]["validation_status"]), row[0] or 0))
    for score, record_id, citation in rows:
        shown = "  n/a " if score is None else f"{score:5.1f}%"
        print(f"{shown}  {citation['validation_status']:<18} {record_id}  {citation['citation']}")
        print(f"        {citation['validation_reason']}")


if __name__ == "__main__":
    main()
