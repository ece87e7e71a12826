"""The report on one answer's structured references: PASS / FAIL and the phantom citations."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any, Literal

from citecheck.model import Result, Status
from citecheck.report import Report

__all__ = ["Outcome", "ReferenceReport"]

Outcome = Literal["PASS", "FAIL", "UNCHECKED"]


@dataclass(frozen=True, slots=True)
class ReferenceReport(Report):
    """A :class:`~citecheck.Report` with one result per cited reference (a range counts each
    reference in it), plus the verdict an app acts on.

    ``result`` is ``FAIL`` when any reference is a phantom or its quote does not stand there
    (or when citations are required and there are none), ``UNCHECKED`` when nothing failed but
    some reference could not be checked (a backend was down, a name stands for several books:
    never a pass, never a phantom), else ``PASS``.

    ``results`` keeps every occurrence, in text order; the totals (:meth:`summary`,
    :meth:`to_text`) count a citation once however often it is written — the same reference
    with the same quote (or none) is one citation.
    """

    scheme: str = ""

    @property
    def result(self) -> Outcome:
        failed = any(
            r.status not in self.accepted and r.status is not Status.UNCHECKED for r in self.results
        )
        if failed or (not self.results and self.require_citations):
            return "FAIL"
        if any(r.status is Status.UNCHECKED for r in self.results):
            return "UNCHECKED"
        return "PASS"

    @property
    def phantom_citations(self) -> list[str]:
        """The references that do not exist, canonical (``Bala 1.999``), each once, in order."""
        return list(
            dict.fromkeys(
                r.citation.source_id for r in self.results if r.status is Status.NOT_FOUND
            )
        )

    def citations(self) -> list[tuple[Result, int]]:
        """Each distinct citation (reference and quote) once, in order of first occurrence,
        with how many times it is written."""
        counts = Counter(_key(r) for r in self.results)
        first: dict[tuple[str, str | None], Result] = {}
        for r in self.results:
            first.setdefault(_key(r), r)
        return [(r, counts[key]) for key, r in first.items()]

    def summary(self) -> dict[str, Any]:
        """Counts per status, pass rate and mean confidence over the distinct citations;
        ``occurrences`` is how many were written, repeats included."""
        distinct = [r for r, _ in self.citations()]
        counts = Counter(r.status for r in distinct)
        total = len(distinct)
        accepted = sum(counts[s] for s in self.accepted)
        return {
            "total": total,
            "occurrences": len(self.results),
            "passed": self.passed,
            "counts": {status.value: counts[status] for status in Status},
            "pass_rate": accepted / total if total else None,
            "mean_confidence": (sum(r.confidence for r in distinct) / total) if total else None,
        }

    def details(self) -> list[dict[str, Any]]:
        """One entry per distinct reference with every place it is cited. An entry's status and
        reason are those of its worst occurrence (a failure, else an unchecked one); each
        occurrence has its own (the same verse may be quoted right once and wrong once)."""
        grouped: dict[str, list[Result]] = {}
        for r in self.results:
            grouped.setdefault(r.citation.source_id, []).append(r)
        entries = []
        for reference, results in grouped.items():
            worst = min(results, key=self._severity)
            entries.append(
                {
                    "reference": reference,
                    "status": worst.status.value,
                    "reason": worst.reason,
                    "occurrences": [_occurrence(r) for r in results],
                }
            )
        return entries

    def to_dict(self) -> dict[str, Any]:
        """The :class:`~citecheck.Report` data plus ``result``, ``phantom_citations``,
        ``details`` and ``scheme``."""
        data = Report.to_dict(self)
        data.update(
            scheme=self.scheme,
            result=self.result,
            phantom_citations=self.phantom_citations,
            details=self.details(),
        )
        return data

    def _verdict(self) -> str:
        """Not "FAILED" when a reference could not be checked: that is no failure."""
        return "UNCHECKED" if self.result == "UNCHECKED" else Report._verdict(self)

    def to_text(self) -> str:
        """One line per distinct citation (how often it is cited, when more than once), the
        totals over distinct citations, the result and the phantoms."""
        lines = []
        for r, count in self.citations():
            repeated = f" (cited {count} times)" if count > 1 else ""
            lines.append(
                f"{r.status.value.upper():<15} {r.confidence:4.2f}  "
                f"{r.citation.source_id}  {r.reason}{repeated}"
            )
        lines.extend(f"warning: {w}" for w in self.warnings)
        s = self.summary()
        rate = "n/a" if s["pass_rate"] is None else f"{s['pass_rate']:.0%}"
        written = f" ({s['occurrences']} occurrences)" if s["occurrences"] != s["total"] else ""
        plural = "" if s["total"] == 1 else "s"
        lines.append(f"{s['total']} citation{plural}{written}, pass rate {rate}, {self._verdict()}")
        empty = " (no citations)" if not self.results and self.result == "PASS" else ""
        lines.append(f"result: {self.result}{empty}")
        if self.phantom_citations:
            lines.append("phantom citations: " + ", ".join(self.phantom_citations))
        return "\n".join(lines)

    def _severity(self, result: Result) -> int:
        """0 for a failing result, 1 for an unchecked one, 2 for an accepted one."""
        if result.status is Status.UNCHECKED:
            return 1
        return 2 if result.status in self.accepted else 0


def _key(result: Result) -> tuple[str, str | None]:
    return result.citation.source_id, result.citation.excerpt


def _occurrence(result: Result) -> dict[str, Any]:
    span = result.citation.span
    return {
        "raw": result.citation.raw,
        "start": None if span is None else span.start,
        "end": None if span is None else span.end,
        "quote": result.citation.excerpt,
        "status": result.status.value,
        "reason": result.reason,
    }
