"""Verify the citations in a sample answer against a small sample corpus.

Run from the repository root: ``python examples/quickstart.py``. Every status appears once or
more: verified (exact and fuzzy), partial (a dropped "not"), wrong location, unsupported,
not found (a phantom source and a phantom page) and unchecked (a bare marker).
"""

from __future__ import annotations

from pathlib import Path

import citecheck

HERE = Path(__file__).parent


def main() -> None:
    answer = (HERE / "answer.md").read_text(encoding="utf-8")
    sources = {
        "minutes": citecheck.Document.from_markdown(
            "minutes", (HERE / "corpus" / "minutes.md").read_text(encoding="utf-8")
        ),
        "report": (HERE / "corpus" / "report.txt").read_text(encoding="utf-8"),
    }
    report = citecheck.verify(answer, sources)
    for result in report.results:
        citation = result.citation
        status, label = result.status.value, result.confidence_label
        print(f"{citation.raw:<32} {status:<15} {label:<6} {result.reason}")
        if result.evidence:
            best = result.evidence[0]
            print(
                f"{'':<32} evidence: {best.text!r} ({best.where()}, {best.method} {best.score:.2f})"
            )
    print()
    print(report.summary())
    shown = {r.status for r in report.results}
    missing = set(citecheck.Status) - shown
    assert not missing, f"the example should show every status; missing {missing}"


if __name__ == "__main__":
    main()
