"""Golden-dataset evaluation: many answers, each PASS / FAIL / SKIPPED, and a pass rate, in
the one :class:`~citecheck.Report`.

Each item is an answer with a template id. A template's policy says whether its answers must
cite (``required``: an answer without a reference FAILs, as for ``T1``) or need not
(``optional``: an answer without one is SKIPPED, as for ``T3``; any reference it does make is
still checked). The answer stands in the item (``answer_field``, a dotted path such as
``trace.final_answer`` for a nested one) or in a separate file of system traces joined to the
items by question id (``traces``). An item that cannot be read — a line that is not JSON, not
an object, no answer, no trace — or that fails while it is checked is an ``ERROR`` with the
reason (and its line, from a file), and the run goes on. The references of all items are looked
up in one batch.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Literal, Unpack

from citecheck._atomic import write_text_atomic
from citecheck.errors import ConfigError, InputError
from citecheck.judging import verdict
from citecheck.language.text import json_escaped
from citecheck.model import Citation, Result, Status
from citecheck.references.policies import DEFAULT_POLICIES, Policy
from citecheck.references.reference_report import ReferenceReport
from citecheck.references.scheme import ReferenceScheme
from citecheck.references.verify import Against, ReferenceOptions, ReferenceVerifier
from citecheck.report import Report

__all__ = [
    "DEFAULT_POLICIES",
    "Evaluation",
    "ItemOutcome",
    "evaluate_dataset",
    "read_jsonl",
]

ItemResult = Literal["PASS", "FAIL", "SKIPPED", "UNCHECKED", "ERROR"]


@dataclass(frozen=True, slots=True)
class ItemOutcome:
    """The verdict on one dataset item, with the reasons of every failing reference. ``line``
    is the item's line when it was read from a JSON Lines file."""

    id: str
    template: str | None
    policy: Policy | None
    result: ItemResult
    report: ReferenceReport | None = None
    error: str | None = None
    line: int | None = None

    @property
    def reasons(self) -> list[str]:
        """Why the item did not pass: one line per failing or unchecked reference."""
        if self.error is not None:
            return [self.error]
        if self.report is None:
            return []
        lines = [
            f"{r.citation.source_id}: {r.reason}"
            for r in self.report.results
            if r.status is not Status.VERIFIED
        ]
        if self.result == "FAIL" and not self.report.results:
            lines.append("the answer cites nothing, and its template requires citations")
        return list(dict.fromkeys(lines))

    def results(self) -> list[Result]:
        """This item's part of the dataset's report: its references' results with the item in
        their details; for an item that fails without citing, or cannot be read, one result
        that says so."""
        where = {"item": self.id, "line": self.line, "template": self.template}
        if self.result == "ERROR":
            citation = Citation(self.id, syntax="dataset item")
            reason = f"the item could not be checked: {self.error}"
            return [verdict.result(citation, Status.UNCHECKED, reason, details=where)]
        if self.report is None:
            return []
        if self.result == "FAIL" and not self.report.results:
            citation = Citation(self.id, syntax="dataset item")
            reason = "the answer cites nothing, and its template requires citations"
            return [verdict.result(citation, Status.UNSUPPORTED, reason, details=where)]
        return [replace(r, details={**r.details, **where}) for r in self.report.results]

    def to_dict(self) -> dict[str, Any]:
        """One line of the per-item log (each reference once, however often it is cited)."""
        report = self.report
        references = [] if report is None else [r.citation.source_id for r in report]
        return {
            "id": self.id,
            "line": self.line,
            "template": self.template,
            "policy": self.policy,
            "result": self.result,
            "references": list(dict.fromkeys(references)),
            "phantom_citations": [] if report is None else report.phantom_citations,
            "reasons": self.reasons,
        }


@dataclass(frozen=True, slots=True)
class Evaluation(Report):
    """The one :class:`~citecheck.Report` of a golden dataset, and every item's outcome.

    Its results are the results of every item's references, in dataset order, each with the
    item in its :attr:`~citecheck.Result.details` (``item``, ``line``, ``template``); an item
    that fails without citing anything has one ``unsupported`` result that says so, and an
    item that cannot be read one ``unchecked`` result with the reason, so that
    :attr:`~citecheck.Report.outcome` is the dataset's. ``items`` keeps each item's outcome
    (``PASS``, ``FAIL``, ``SKIPPED``, ``UNCHECKED``, ``ERROR``) for the per-item log, and
    :meth:`~citecheck.Report.metrics` the per-item totals and pass rate. ``warnings`` are
    problems met outside the items (an unreadable line of the traces file).
    """

    items: tuple[ItemOutcome, ...] = ()

    @classmethod
    def of(cls, items: Iterable[ItemOutcome], warnings: Iterable[str] = ()) -> Evaluation:
        """The evaluation of these item outcomes."""
        items = tuple(items)
        counts = Counter(item.result for item in items)
        judged = counts["PASS"] + counts["FAIL"]
        metrics = {
            "items": len(items),
            "passed_items": counts["PASS"],
            "failed_items": counts["FAIL"],
            "skipped_items": counts["SKIPPED"],
            "unchecked_items": counts["UNCHECKED"],
            "error_items": counts["ERROR"],
            "item_pass_rate": counts["PASS"] / judged if judged else None,
        }
        return cls(
            tuple(result for item in items for result in item.results()),
            tuple(warnings),
            kind="dataset",
            metadata={"metrics": metrics},
            items=items,
        )

    @property
    def pass_rate(self) -> float | None:
        """Passed / (passed + failed) items: skipped, unchecked and unreadable items are not
        judged."""
        rate: float | None = self.metrics()["item_pass_rate"]
        return rate

    def to_text(self) -> str:
        """The per-item totals as the lines a terminal shows."""
        m = self.metrics()
        rate = "n/a" if m["item_pass_rate"] is None else f"{m['item_pass_rate']:.1%}"
        return "\n".join(
            [
                f"Total:     {m['items']}",
                f"Passed:    {m['passed_items']}",
                f"Failed:    {m['failed_items']}",
                f"Skipped:   {m['skipped_items']}",
                f"Unchecked: {m['unchecked_items']}",
                f"Errors:    {m['error_items']}",
                f"Pass rate: {rate}",
            ]
        )

    def write_log(self, path: str | Path) -> None:
        """One JSON object per item (id, line, template, policy, result, references, phantom
        citations, reasons), one per line."""
        lines = (json.dumps(item.to_dict(), ensure_ascii=False) for item in self.items)
        write_text_atomic(path, json_escaped("".join(line + "\n" for line in lines)))


def read_jsonl(path: str | Path) -> list[object]:
    """The items of a JSON Lines file; an unreadable line (not UTF-8, not JSON) becomes an
    :class:`InputError` object in its place, naming the line, so the evaluation records it and
    goes on."""
    return [item for _, item in _numbered_lines(path)]


def _numbered_lines(path: str | Path) -> list[tuple[int, object]]:
    """(line number, item or :class:`InputError`) for every non-blank line of ``path``."""
    items: list[tuple[int, object]] = []
    with Path(path).open("rb") as lines:
        for number, raw in enumerate(lines, start=1):
            try:
                line = raw.decode("utf-8")
            except UnicodeDecodeError as exc:
                items.append((number, InputError(f"line {number} is not UTF-8: {exc.reason}")))
                continue
            if not line.strip():
                continue
            try:
                items.append((number, json.loads(line)))
            except json.JSONDecodeError as exc:
                reason = f"line {number} is not valid JSON: {exc.msg} (column {exc.colno})"
                items.append((number, InputError(reason)))
    return items


def _field(item: Mapping[str, Any], path: str) -> Any:
    """The value at ``path`` in ``item``: the key itself, else a dotted path through nested
    objects (``trace.final_answer``); ``None`` when it is not there."""
    if path in item:
        return item[path]
    value: Any = item
    for key in path.split("."):
        if not isinstance(value, Mapping) or key not in value:
            return None
        value = value[key]
    return value


def evaluate_dataset(
    items: Iterable[object] | str | Path,
    *,
    verifier: ReferenceVerifier | None = None,
    answer_field: str = "answer",
    template_field: str = "template",
    id_field: str = "id",
    traces: Iterable[object] | str | Path | None = None,
    trace_id_field: str | None = None,
    scheme: ReferenceScheme | str | None = None,
    against: Against = None,
    **options: Unpack[ReferenceOptions],
) -> Evaluation:
    """Evaluate a golden dataset: one :class:`ItemOutcome` per item, and the totals.

    ``items`` are mappings (or a JSON Lines path) with ``template_field`` and ``id_field`` (the
    item's position when absent); the fields may be dotted paths into nested objects. The
    answer is ``answer_field`` of the item, or, with ``traces`` (mappings or a JSON Lines path
    of system traces), ``answer_field`` of the trace whose ``trace_id_field`` (``id_field`` by
    default) equals the item's id. ``verifier`` is a
    :class:`~citecheck.references.ReferenceVerifier`, or one is built from ``options``
    (``scheme``, ``against``, ``texts``, ``policies``, ``default_policy``, …); the verifier's
    policies say which templates must cite.
    """
    given = {**options, **({"scheme": scheme} if scheme is not None else {})}
    if against is not None:
        given["against"] = against
    if verifier is None:
        verifier = ReferenceVerifier.from_config(None, scheme=scheme, against=against, **options)
    elif given:
        raise ConfigError(f"give either a verifier or options, not both: {sorted(given)}")
    rows = _numbered_lines(items) if isinstance(items, str | Path) else list(enumerate(items, 1))
    from_file = isinstance(items, str | Path)
    warnings: list[str] = []
    joined = None
    if traces is not None:
        joined = _traces(traces, trace_id_field or id_field, warnings)
    readable: list[tuple[int, str, str | None, int | None, str]] = []
    outcomes: dict[int, ItemOutcome] = {}
    for position, (number, item) in enumerate(rows, start=1):
        line = number if from_file else None
        fallback_id = f"line {number}" if from_file else str(position)
        if isinstance(item, Exception) or not isinstance(item, Mapping):
            error = (
                str(item)
                if isinstance(item, Exception)
                else f"{'line' if from_file else 'item'} {number} is a {type(item).__name__}, "
                "not an object"
            )
            outcomes[position] = ItemOutcome(
                fallback_id, None, None, "ERROR", error=error, line=line
            )
            continue
        found_id = _field(item, id_field)
        item_id = fallback_id if found_id is None else str(found_id)
        found_template = _field(item, template_field)
        template = None if found_template is None else str(found_template)
        answer, missing = _answer(item, found_id, id_field, answer_field, joined, position)
        if answer is None:
            policy = verifier.policy(template)
            outcomes[position] = ItemOutcome(
                item_id, template, policy, "ERROR", error=missing, line=line
            )
            continue
        readable.append((position, item_id, template, line, answer))
    reports = verifier.verify_each(
        (answer for *_, answer in readable),
        templates=[template for _, _, template, _, _ in readable],
    )
    for (position, item_id, template, line, _), report in zip(readable, reports, strict=True):
        policy = verifier.policy(template)
        if isinstance(report, Exception):
            error = f"could not check the answer: {type(report).__name__}: {report}"
            outcomes[position] = ItemOutcome(
                item_id, template, policy, "ERROR", error=error, line=line
            )
            continue
        result = _result(report)
        outcomes[position] = ItemOutcome(item_id, template, policy, result, report, line=line)
    return Evaluation.of((outcomes[p] for p in sorted(outcomes)), warnings)


def _traces(
    traces: Iterable[object] | str | Path, id_field: str, warnings: list[str]
) -> dict[str, list[Mapping[str, Any]]]:
    """The traces by question id; unreadable traces become warnings naming their line."""
    from_file = isinstance(traces, str | Path)
    rows = _numbered_lines(traces) if isinstance(traces, str | Path) else list(enumerate(traces, 1))
    by_id: dict[str, list[Mapping[str, Any]]] = {}
    for number, trace in rows:
        where = f"{traces}: line {number}" if from_file else f"trace {number}"
        if isinstance(trace, Exception):
            warnings.append(f"{traces}: {trace}" if from_file else f"{where}: {trace}")
            continue
        if not isinstance(trace, Mapping):
            warnings.append(f"{where} is a {type(trace).__name__}, not an object")
            continue
        trace_id = _field(trace, id_field)
        if trace_id is None:
            warnings.append(f"{where} has no {id_field!r}, so it answers no question")
            continue
        by_id.setdefault(str(trace_id), []).append(trace)
    return by_id


def _answer(
    item: Mapping[str, Any],
    item_id: object,
    id_field: str,
    answer_field: str,
    traces: Mapping[str, list[Mapping[str, Any]]] | None,
    position: int,
) -> tuple[str | None, str | None]:
    """The item's answer, or why there is none."""
    source = item
    name = f"item {item_id!r}" if item_id is not None else f"item {position}"
    if traces is not None:
        if item_id is None:
            return None, f"item {position} has no {id_field!r}, so no trace can be joined to it"
        found = traces.get(str(item_id), [])
        if not found:
            return None, f"no trace for {id_field} {str(item_id)!r}"
        if len(found) > 1:
            return None, f"{len(found)} traces have id {str(item_id)!r}"
        source, name = found[0], f"the trace of {str(item_id)!r}"
    answer = _field(source, answer_field)
    if isinstance(answer, str):
        return answer, None
    if answer is None:
        return None, f"{name} has no {answer_field!r} text"
    return None, f"{name}: {answer_field!r} is a {type(answer).__name__}, not text"


def _result(report: ReferenceReport) -> ItemResult:
    if not report.results:
        return "SKIPPED" if report.result == "PASS" else "FAIL"
    return report.result
