"""Golden-dataset evaluation: many answers, each PASS / FAIL / SKIPPED, and a pass rate.

Each item is an answer with a template id. A template's policy says whether its answers must
cite (``required``: an answer without a reference FAILs, as for ``T1``) or need not
(``optional``: an answer without one is SKIPPED, as for ``T3``; any reference it does make is
still checked). An item that cannot be read — not an object, no answer — is an ``ERROR`` with
the reason, and the run goes on. The references of all items are looked up in one batch.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from citecheck.errors import ConfigError, InputError
from citecheck.model import Status
from citecheck.references.report import ReferenceReport
from citecheck.references.verify import ReferenceVerifier

__all__ = ["DEFAULT_POLICIES", "Evaluation", "ItemOutcome", "evaluate_dataset", "read_jsonl"]

Policy = Literal["required", "optional"]
DEFAULT_POLICIES: Mapping[str, Policy] = {"T1": "required", "T3": "optional"}
"""``T1`` answers must cite; ``T3`` answers need not. Other templates take ``default_policy``."""

ItemResult = Literal["PASS", "FAIL", "SKIPPED", "UNCHECKED", "ERROR"]


@dataclass(frozen=True, slots=True)
class ItemOutcome:
    """The verdict on one dataset item, with the reasons of every failing reference."""

    id: str
    template: str | None
    policy: Policy | None
    result: ItemResult
    report: ReferenceReport | None = None
    error: str | None = None

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

    def to_dict(self) -> dict[str, Any]:
        """One line of the per-item log."""
        report = self.report
        return {
            "id": self.id,
            "template": self.template,
            "policy": self.policy,
            "result": self.result,
            "references": [] if report is None else [r.citation.source_id for r in report],
            "phantom_citations": [] if report is None else report.phantom_citations,
            "reasons": self.reasons,
        }


@dataclass(frozen=True, slots=True)
class Evaluation:
    """Every item's outcome, in dataset order, and the totals."""

    items: tuple[ItemOutcome, ...] = ()
    counts: Mapping[str, int] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "items", tuple(self.items))
        object.__setattr__(self, "counts", Counter(item.result for item in self.items))

    @property
    def pass_rate(self) -> float | None:
        """Passed / (passed + failed): skipped, unchecked and unreadable items are not judged."""
        judged = self.counts["PASS"] + self.counts["FAIL"]
        return self.counts["PASS"] / judged if judged else None

    def summary(self) -> dict[str, Any]:
        """Total, Passed, Failed, Skipped, Unchecked, Errors and the pass rate."""
        return {
            "total": len(self.items),
            "passed": self.counts["PASS"],
            "failed": self.counts["FAIL"],
            "skipped": self.counts["SKIPPED"],
            "unchecked": self.counts["UNCHECKED"],
            "errors": self.counts["ERROR"],
            "pass_rate": self.pass_rate,
        }

    def to_text(self) -> str:
        """The summary as the lines a terminal shows."""
        s = self.summary()
        rate = "n/a" if s["pass_rate"] is None else f"{s['pass_rate']:.1%}"
        return "\n".join(
            [
                f"Total:     {s['total']}",
                f"Passed:    {s['passed']}",
                f"Failed:    {s['failed']}",
                f"Skipped:   {s['skipped']}",
                f"Unchecked: {s['unchecked']}",
                f"Errors:    {s['errors']}",
                f"Pass rate: {rate}",
            ]
        )

    def write_log(self, path: str | Path) -> None:
        """One JSON object per item (id, template, policy, result, references, phantom
        citations, reasons), one per line."""
        lines = (json.dumps(item.to_dict(), ensure_ascii=False) for item in self.items)
        Path(path).write_text("".join(line + "\n" for line in lines), encoding="utf-8")


def read_jsonl(path: str | Path) -> list[object]:
    """The items of a JSON Lines file; an unreadable line becomes an :class:`InputError`
    object in its place, so the evaluation records it and goes on."""
    items: list[object] = []
    with Path(path).open(encoding="utf-8") as lines:
        for number, line in enumerate(lines, start=1):
            if not line.strip():
                continue
            try:
                items.append(json.loads(line))
            except json.JSONDecodeError as exc:
                items.append(InputError(f"line {number} is not valid JSON: {exc.msg}"))
    return items


def evaluate_dataset(
    items: Iterable[object],
    *,
    verifier: ReferenceVerifier | None = None,
    policies: Mapping[str, Policy] = DEFAULT_POLICIES,
    default_policy: Policy = "required",
    answer_field: str = "answer",
    template_field: str = "template",
    id_field: str = "id",
    **options: Any,
) -> Evaluation:
    """Evaluate a golden dataset: one :class:`ItemOutcome` per item, and the totals.

    ``items`` are mappings (or a JSON Lines path) with ``answer_field``, ``template_field`` and
    ``id_field`` (the item's position when absent). ``verifier`` is a
    :class:`~citecheck.references.ReferenceVerifier`, or one is built from ``options``
    (``scheme``, ``against``, ``texts``, …).
    """
    for name, policy in {**policies, "default_policy": default_policy}.items():
        if policy not in ("required", "optional"):
            raise ConfigError(f"policy for {name!r} must be 'required' or 'optional': {policy!r}")
    if isinstance(items, str | Path):
        items = read_jsonl(items)
    if verifier is None:
        verifier = ReferenceVerifier(options.pop("scheme", "valmiki_ramayana"), **options)
    elif options:
        raise ConfigError(f"give either a verifier or options, not both: {sorted(options)}")
    rows = list(items)
    readable: list[tuple[int, str, str | None, Policy, str]] = []
    outcomes: dict[int, ItemOutcome] = {}
    for position, item in enumerate(rows, start=1):
        if isinstance(item, Exception):
            outcomes[position] = ItemOutcome(str(position), None, None, "ERROR", error=str(item))
            continue
        if not isinstance(item, Mapping):
            error = f"item {position} is a {type(item).__name__}, not an object"
            outcomes[position] = ItemOutcome(str(position), None, None, "ERROR", error=error)
            continue
        item_id = str(item.get(id_field, position))
        template = item.get(template_field)
        template = None if template is None else str(template)
        policy = policies.get(template, default_policy) if template is not None else default_policy
        answer = item.get(answer_field)
        if not isinstance(answer, str):
            error = (
                f"item {item_id!r} has no {answer_field!r} text"
                if answer is None
                else f"item {item_id!r}: {answer_field!r} is a {type(answer).__name__}, not text"
            )
            outcomes[position] = ItemOutcome(item_id, template, policy, "ERROR", error=error)
            continue
        readable.append((position, item_id, template, policy, answer))
    reports = verifier.verify_many(answer for *_, answer in readable)
    for (position, item_id, template, policy, _), report in zip(readable, reports, strict=True):
        outcomes[position] = ItemOutcome(item_id, template, policy, _result(report, policy), report)
    return Evaluation(tuple(outcomes[p] for p in sorted(outcomes)))


def _result(report: ReferenceReport, policy: Policy) -> ItemResult:
    if not report.results:
        return "FAIL" if policy == "required" else "SKIPPED"
    return report.result
