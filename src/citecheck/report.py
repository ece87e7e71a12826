"""The outcome of one verification run: :class:`Report`, its summary and its exports."""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from citecheck.model import Result, Status

if TYPE_CHECKING:
    from citecheck.resolution import SourceMapping

__all__ = ["DEFAULT_ACCEPTED", "Report"]

DEFAULT_ACCEPTED: frozenset[Status] = frozenset({Status.VERIFIED})
"""Statuses that count as passing unless the verifier is told otherwise."""


@dataclass(frozen=True, slots=True)
class Report:
    """All results of one run, in text order, plus the warnings met on the way.

    ``accepted`` is the pass policy: the statuses that count as a good citation.
    ``require_citations`` makes a text without any citation fail. ``mappings`` say which
    source each cited number, author–year or bibliography key was taken to mean, and how.
    """

    results: tuple[Result, ...] = ()
    warnings: tuple[str, ...] = ()
    accepted: frozenset[Status] = DEFAULT_ACCEPTED
    require_citations: bool = False
    mappings: tuple[SourceMapping, ...] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "results", tuple(self.results))
        object.__setattr__(self, "warnings", tuple(self.warnings))
        object.__setattr__(self, "mappings", tuple(self.mappings))
        object.__setattr__(self, "accepted", frozenset(Status(s) for s in self.accepted))

    @property
    def passed(self) -> bool:
        """True when every citation has an accepted status (and there is one, if required)."""
        if not self.results:
            return not self.require_citations
        return all(result.status in self.accepted for result in self.results)

    def __len__(self) -> int:
        return len(self.results)

    def __iter__(self) -> Any:
        return iter(self.results)

    def by_status(self, status: Status | str) -> tuple[Result, ...]:
        """The results with one status, in text order."""
        wanted = Status(status)
        return tuple(r for r in self.results if r.status is wanted)

    def summary(self) -> dict[str, Any]:
        """Counts per status, pass rate (accepted / total) and mean confidence."""
        counts = Counter(r.status for r in self.results)
        total = len(self.results)
        accepted = sum(counts[s] for s in self.accepted)
        return {
            "total": total,
            "passed": self.passed,
            "counts": {status.value: counts[status] for status in Status},
            "pass_rate": accepted / total if total else None,
            "mean_confidence": (sum(r.confidence for r in self.results) / total) if total else None,
        }

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-ready data: passed, summary, warnings, mappings and every result."""
        return {
            "passed": self.passed,
            "summary": self.summary(),
            "warnings": list(self.warnings),
            "mappings": [m.to_dict() for m in self.mappings],
            "results": [r.to_dict() for r in self.results],
        }

    def to_json(self, *, indent: int | None = 2) -> str:
        """The :meth:`to_dict` data as JSON text (UTF-8 characters kept as they are)."""
        return json.dumps(self.to_dict(), indent=indent, ensure_ascii=False)

    def to_text(self) -> str:
        """A short human-readable listing: one line per citation, the mappings and warnings,
        then the summary."""
        lines = []
        for r in self.results:
            where = f":{r.citation.locator}" if r.citation.locator else ""
            lines.append(
                f"{r.status.value.upper():<15} {r.confidence:4.2f}  "
                f"{r.citation.source_id}{where}  {r.reason}"
            )
        lines.extend(f"mapped: {m.describe()}" for m in self.mappings)
        lines.extend(f"warning: {w}" for w in self.warnings)
        s = self.summary()
        rate = "n/a" if s["pass_rate"] is None else f"{s['pass_rate']:.0%}"
        lines.append(
            f"{s['total']} citation{'' if s['total'] == 1 else 's'}, pass rate {rate}, "
            + self._verdict()
        )
        return "\n".join(lines)

    def _verdict(self) -> str:
        """The last word of :meth:`to_text`."""
        return "PASSED" if self.passed else "FAILED"
