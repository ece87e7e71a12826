"""The report on one answer's structured references: a projection of the one Report.

:func:`~citecheck.verify_references` returns a :class:`~citecheck.Report` (a
:class:`ReferenceReport`, whose extra members are kept for one release) with one result per
cited reference, counted once however often it is written. Its JSON keeps the keys of earlier
releases: ``result`` (the report's :attr:`~citecheck.Report.outcome`), ``phantom_citations``,
``details`` and ``scheme``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from citecheck.model import Result
from citecheck.report import Outcome, Report

__all__ = ["Outcome", "ReferenceReport"]


@dataclass(frozen=True, slots=True)
class ReferenceReport(Report):
    """A :class:`~citecheck.Report` with one result per cited reference (a range counts each
    reference in it); :meth:`~citecheck.Report.summary` counts a citation once however often
    it is written (the same reference with the same quote, or none, is one citation).

    ``result`` is :attr:`~citecheck.Report.outcome` under its old name: ``FAIL`` when any
    reference is a phantom or its quote does not stand there (or when citations are required
    and there are none), ``UNCHECKED`` when nothing failed but some reference could not be
    checked (a backend was down, a name stands for several books: never a pass, never a
    phantom), else ``PASS``.
    """

    @property
    def result(self) -> Outcome:
        """:attr:`~citecheck.Report.outcome`, under the name of earlier releases."""
        return self.outcome

    @property
    def scheme(self) -> str:
        """The name of the scheme the references were read with."""
        return str(self.metadata.get("scheme", ""))

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
        """The :class:`~citecheck.Report` data plus ``result``, ``details`` and ``scheme``."""
        data = Report.to_dict(self)
        data.update(scheme=self.scheme, result=self.result, details=self.details())
        return data

    def to_text(self) -> str:
        """The :class:`~citecheck.Report` listing, then the result line."""
        empty = " (no citations)" if not self.results and self.result == "PASS" else ""
        return f"{Report.to_text(self)}\nresult: {self.result}{empty}"


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
