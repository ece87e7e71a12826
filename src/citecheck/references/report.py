"""The report on one answer's structured references: PASS / FAIL and the phantom citations."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from citecheck.model import Status
from citecheck.report import Report

__all__ = ["Outcome", "ReferenceReport"]

Outcome = Literal["PASS", "FAIL", "UNCHECKED"]


@dataclass(frozen=True, slots=True)
class ReferenceReport(Report):
    """A :class:`~citecheck.Report` with one result per cited reference (a range counts each
    reference in it), plus the verdict an app acts on.

    ``result`` is ``FAIL`` when any reference is a phantom or its quote does not stand there
    (or when citations are required and there are none), ``UNCHECKED`` when nothing failed but
    some reference could not be checked (a backend was down: never a pass, never a phantom),
    else ``PASS``.
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

    def details(self) -> list[dict[str, Any]]:
        """One entry per distinct reference: its status, reason and every place it is cited."""
        entries: dict[str, dict[str, Any]] = {}
        for r in self.results:
            entry = entries.setdefault(
                r.citation.source_id,
                {
                    "reference": r.citation.source_id,
                    "status": r.status.value,
                    "reason": r.reason,
                    "occurrences": [],
                },
            )
            span = r.citation.span
            entry["occurrences"].append(
                {
                    "raw": r.citation.raw,
                    "start": None if span is None else span.start,
                    "end": None if span is None else span.end,
                    "quote": r.citation.excerpt,
                }
            )
        return list(entries.values())

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
        lines = [Report.to_text(self), f"result: {self.result}"]
        if self.phantom_citations:
            lines.append("phantom citations: " + ", ".join(self.phantom_citations))
        return "\n".join(lines)
