"""The one result model every front door returns: :class:`Report`, its outcome and summary.

``verify``, ``verify_quotes`` and ``verify_references`` all return a :class:`Report` of
:class:`~citecheck.Result`\\ s: one per citation, quote or reference, with the same
:class:`~citecheck.Status` vocabulary and the same confidence scale
(:mod:`citecheck.judging.verdict`). What only one door knows lives in :attr:`Report.metadata` (the
run's settings), :meth:`Report.metrics` (its statistics), :attr:`Result.details` and
:attr:`Evidence.scores`; the quote rows and the reference JSON of earlier releases are projections
of it. The file formats (JSON Lines, CSV, Excel, Markdown, JUnit, HTML) are written by
:mod:`citecheck.exports`.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import IO, TYPE_CHECKING, Any, Literal

from citecheck.model import Result, Status, plain_reduce
from citecheck.registry import format_for, load

if TYPE_CHECKING:
    import pandas

    from citecheck.verification.resolution import SourceMapping

__all__ = ["DEFAULT_ACCEPTED", "KINDS", "Outcome", "Report"]

Outcome = Literal["PASS", "FAIL", "UNCHECKED"]

KINDS: Mapping[str, str] = MappingProxyType(
    {
        "verify": "the markers door (citecheck.verify, Verifier, citecheck verify)",
        "quotes": "the quotes door (verify_quotes, citecheck quotes)",
        "references": "the references door (verify_references, citecheck refs check)",
        "dataset": "a golden dataset of answers (evaluate_dataset, citecheck refs eval)",
        "records": "the records door (verify_records, citecheck records)",
        "paper-draft": "the papers door: a draft against a library (validate_doc)",
        "paper-claim": "one claim against a library (citecheck validate)",
        "api": "the door of the citations LLM APIs return (verify_api_citations)",
    }
)
"""Every ``Report.kind`` citecheck writes, and what writes it; a plugin door writes its own
registry name."""

DEFAULT_ACCEPTED: frozenset[Status] = frozenset({Status.VERIFIED})
"""Statuses that count as passing unless the verifier is told otherwise."""


@dataclass(frozen=True, slots=True)
class Report:
    """All results of one run, in order, plus the warnings met on the way.

    ``accepted`` is the pass policy: the statuses that count as a good citation.
    ``require_citations`` makes a text without any citation fail. ``mappings`` say which
    source each cited number, author–year or bibliography key was taken to mean, and how.
    ``kind`` names what made the report (one of :data:`KINDS`, or a plugin door's name);
    ``text`` is the text whose citations were checked, when there is one (an HTML report
    highlights the citations in it); ``metadata`` holds the run's settings,
    JSON-ready. ``count_once`` counts a citation written several times (the same source and
    excerpt) once in :meth:`summary`, as structured references are counted. ``unread`` counts
    the places of the text that look like citations but that no syntax could read (each named
    in a warning): a text with such places and no citation read is ``UNCHECKED``, never a
    pass.
    """

    results: tuple[Result, ...] = ()
    warnings: tuple[str, ...] = ()
    accepted: frozenset[Status] = DEFAULT_ACCEPTED
    require_citations: bool = False
    mappings: tuple[SourceMapping, ...] = ()
    kind: str = "verify"
    text: str | None = None
    metadata: Mapping[str, Any] = field(default_factory=dict, hash=False)
    count_once: bool = False
    unread: int = 0

    __reduce__ = plain_reduce

    def __post_init__(self) -> None:
        object.__setattr__(self, "results", tuple(self.results))
        object.__setattr__(self, "warnings", tuple(self.warnings))
        object.__setattr__(self, "mappings", tuple(self.mappings))
        object.__setattr__(self, "accepted", frozenset(Status(s) for s in self.accepted))
        object.__setattr__(self, "metadata", MappingProxyType(dict(self.metadata)))

    # -- the verdict ------------------------------------------------------------------------

    @property
    def outcome(self) -> Outcome:
        """``FAIL`` when a citation failed (or citations are required and there are none),
        ``UNCHECKED`` when nothing failed but something could not be checked (never a pass,
        never a failure), else ``PASS``. A text that looks cited but of which no citation
        could be read (``unread``) is ``UNCHECKED``, citations required or not: it was not
        checked, which is neither a pass nor a text without citations. ``passed`` is
        ``outcome == "PASS"``."""
        if not self.results and self.unread:
            return "UNCHECKED"
        rejected = [r for r in self.results if r.status not in self.accepted]
        if any(r.status is not Status.UNCHECKED for r in rejected) or (
            not self.results and self.require_citations
        ):
            return "FAIL"
        return "UNCHECKED" if rejected else "PASS"

    @property
    def passed(self) -> bool:
        """True when every citation has an accepted status (and there is one, if required)."""
        return self.outcome == "PASS"

    @property
    def phantom_citations(self) -> list[str]:
        """The citations whose source, reference or location does not exist, each once, in
        order: the source id, with the location as written when one was cited
        (``minutes:L9``)."""
        return list(dict.fromkeys(_cited(r) for r in self.results if r.status is Status.NOT_FOUND))

    # -- the results ------------------------------------------------------------------------

    def __len__(self) -> int:
        return len(self.results)

    def __iter__(self) -> Iterator[Result]:
        return iter(self.results)

    def by_status(self, status: Status | str) -> tuple[Result, ...]:
        """The results with one status, in order."""
        wanted = Status(status)
        return tuple(r for r in self.results if r.status is wanted)

    def citations(self) -> list[tuple[Result, int]]:
        """Each distinct citation (source and excerpt) once, in order of first occurrence,
        with how many times it is written. A citation written several times stands for its
        worst occurrence (a failure, else an unchecked one), so that the counts never show a
        pass the outcome does not."""
        counts = Counter(_key(r) for r in self.results)
        worst: dict[tuple[str, str | None], Result] = {}
        for r in self.results:
            key = _key(r)
            if key not in worst or self._severity(r) < self._severity(worst[key]):
                worst[key] = r
        return [(r, counts[key]) for key, r in worst.items()]

    def _severity(self, result: Result) -> int:
        """0 for a failing result, 1 for an unchecked one, 2 for an accepted one."""
        if result.status in self.accepted:
            return 2
        return 1 if result.status is Status.UNCHECKED else 0

    def summary(self) -> dict[str, Any]:
        """The same keys for every front door: ``total`` (distinct citations when the report
        counts them once), ``occurrences`` (every result), ``passed``, ``outcome``, ``counts``
        per status, ``pass_rate`` (accepted / total) and ``mean_confidence``."""
        counted = [r for r, _ in self.citations()] if self.count_once else list(self.results)
        counts = Counter(r.status for r in counted)
        total = len(counted)
        accepted = sum(counts[s] for s in self.accepted)
        return {
            "total": total,
            "occurrences": len(self.results),
            "passed": self.passed,
            "outcome": self.outcome,
            "counts": {status.value: counts[status] for status in Status},
            "pass_rate": accepted / total if total else None,
            "mean_confidence": (sum(r.confidence for r in counted) / total) if total else None,
            "unread": self.unread,
        }

    def metrics(self) -> dict[str, Any]:
        """What only this report's front door measures (the quote statistics of
        ``verify_quotes``); empty for a door that measures nothing beyond :meth:`summary`."""
        return dict(self.metadata.get("metrics", {}))

    # -- exports ----------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-ready data: outcome, summary, metrics, warnings, mappings, phantom
        citations, the run's metadata and every result."""
        return {
            "kind": self.kind,
            "passed": self.passed,
            "outcome": self.outcome,
            "summary": self.summary(),
            "metrics": self.metrics(),
            "warnings": list(self.warnings),
            "mappings": [m.to_dict() for m in self.mappings],
            "phantom_citations": self.phantom_citations,
            "metadata": {k: v for k, v in self.metadata.items() if k != "metrics"},
            "results": [r.to_dict() for r in self.results],
        }

    def to_json(self, *, indent: int | None = 2) -> str:
        """The :meth:`to_dict` data as JSON text (UTF-8 characters kept as they are)."""
        return json.dumps(self.to_dict(), indent=indent, ensure_ascii=False)

    def to_jsonl(self) -> str:
        """One JSON object per result, one line each (the ``jsonl`` format)."""
        return str(_format("jsonl").export(self))

    def to_csv(
        self,
        target: str | Path | IO[str] | None = None,
        *,
        formulas: Literal["escape", "keep"] = "escape",
    ) -> str | None:
        """One row per result; the text when ``target`` is ``None``, else written there. A
        cell a spreadsheet would run as a formula starts with an apostrophe unless
        ``formulas="keep"`` (:func:`citecheck.exports.to_csv`)."""
        written: str | None = _format("csv").export(self, target, formulas=formulas)
        return written

    def to_excel(self, path: str | Path) -> None:
        """A workbook for review, lowest confidence first (the ``excel`` extra)."""
        _format("xlsx").export(self, path)

    def to_markdown(self) -> str:
        """A Markdown report: summary, then a table of every result."""
        return str(_format("md").export(self))

    def to_junit(self) -> str:
        """JUnit XML: one test case per result, failures carrying the reason, for CI."""
        return str(_format("junit").export(self))

    def to_html(self) -> str:
        """One self-contained HTML page: the text with its citations highlighted by status."""
        return str(_format("html").export(self))

    def to_pandas(self) -> pandas.DataFrame:
        """One row per result, evidence flattened (pandas is imported now)."""
        frame: pandas.DataFrame = load("views", "pandas")(self)
        return frame

    def save(self, path: str | Path, format: str | None = None) -> None:
        """Write the report whole (a temporary file renamed into place), in ``format`` or the
        one the file's suffix names: any registered format
        (:func:`citecheck.registry.format_for`)."""
        format_for(path, format).write(self, Path(path))

    def _repr_html_(self) -> str:
        view: str = load("views", "html")(self)
        return view

    def to_text(self) -> str:
        """A short human-readable listing: one line per citation (per distinct one, with how
        often it is written, when the report counts them once; led by the line of the text it
        stands on when the door knows it, and followed by its suggested fix when there is
        one), the mappings and warnings, then the summary and the outcome."""
        return str(_format("text").export(self))


def _format(name: str) -> Any:
    """A built-in format, from the registry: the report knows no file format itself."""
    return load("formats", name)


def _cited(result: Result) -> str:
    citation = result.citation
    return f"{citation.source_id}:{citation.locator}" if citation.locator else citation.source_id


def _key(result: Result) -> tuple[str, str | None]:
    return result.citation.source_id, result.citation.excerpt
