"""Tuning the records door's similarity threshold on labelled records (the records seed's
"advanced parameter tuning ... using a labeled validation set").

Each citation object of the records carries its truth in a field (``gold_field``: true or
false; ``"true"``/``"false"``, ``1``/``0`` and ``"yes"``/``"no"`` are read too). The records
are labelled with the configuration given; the citations are split, seeded, into a part to
fit on and a part held out. The records of the fitted part are labelled again with each
threshold of a grid (:data:`GRID`, and the configured one), and the threshold whose *final
labels* (the lexical pass, the meaning guard and the judge included; likely true and very
likely true count as "true") have the best balanced accuracy there wins, ties to the value
nearest the configured one. The cosine alone is not what decides a label, so a cut fitted on
the cosine alone was measured to do worse than the default on three of the five claim sets
(``docs/benchmarks.md``). The held-out part is then labelled with the tuned configuration, and
the report gives the balanced accuracy of its final labels before and after: the number a user
can trust, never measured on the citations it was fitted on. One embedder serves every pass,
so each text is embedded once. A citation without a usable truth, or one that was not scored, is
counted in ``skipped``, never dropped in silence.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from citecheck.errors import ConfigError, InputError
from citecheck.model import Status

if TYPE_CHECKING:
    from citecheck.protocols import Embedder
    from citecheck.records.validate import RecordConfig

__all__ = ["GRID", "Tuning", "tune_threshold"]

GRID = tuple(round(0.4 + 0.05 * step, 2) for step in range(10))
"""The thresholds tried: 0.40 to 0.85 in steps of 0.05."""

_TRUE = frozenset({"true", "yes", "1"})
_FALSE = frozenset({"false", "no", "0"})


@dataclass(frozen=True, slots=True)
class Tuning:
    """What :func:`tune_threshold` found: the tuned ``similarity_threshold``, the balanced
    accuracy of the final labels on the held-out citations with the configuration given
    (``before``) and with the tuned one (``after``), how many citations it was fitted on,
    held out and skipped, and ``config``, the configuration to use (the one given, with the
    tuned bound and any bound it had to move to keep the bands in order)."""

    similarity_threshold: float
    before: float
    after: float
    fitted: int
    held_out: int
    skipped: int
    config: Mapping[str, Any] = field(repr=False)

    @property
    def better(self) -> bool:
        """Whether the tuned threshold labels the held-out citations at least as well."""
        return self.after >= self.before

    def to_text(self) -> str:
        """The outcome in three lines, as the command line prints it."""
        advice = (
            "use the tuned configuration"
            if self.better
            else "keep the configuration you have: the tuned threshold does worse on the "
            "citations it was not fitted on"
        )
        return (
            f"similarity_threshold: {self.similarity_threshold:.2f} (fitted on {self.fitted} "
            f"citations; {self.skipped} without a truth or a score skipped)\n"
            f"balanced accuracy on {self.held_out} held-out citations: "
            f"{self.before:.3f} before, {self.after:.3f} tuned\n{advice}"
        )


def tune_threshold(
    records: Sequence[Mapping[str, Any]],
    *,
    gold_field: str = "gold",
    holdout: float = 0.3,
    seed: int = 0,
    embedder: Embedder | None = None,
    config: RecordConfig | Mapping[str, Any] | str | Path | None = None,
) -> Tuning:
    """Fit the records door's ``similarity_threshold`` on labelled ``records`` and measure it on
    the citations held out (see the module docstring). :class:`~citecheck.errors.InputError`
    when fewer than two true and two false citations are left to fit on or to hold out."""
    from citecheck.records.validate import RecordConfig, default_embedder, verify_records

    if not 0.0 < holdout < 1.0:
        raise ConfigError(f"holdout must be between 0 and 1, got {holdout}")
    settings = RecordConfig.merged(config, {})
    embedder = embedder if embedder is not None else default_embedder(settings)
    report = verify_records(records, embedder=embedder, config=settings)
    truths: dict[tuple[int, int], bool] = {}
    skipped = 0
    for result in report.results:
        if "citation" not in result.details:
            continue
        where = (result.details["record"], result.details["citation"])
        truth = _truth(records[where[0]], where[1], settings, gold_field)
        if truth is None or result.details.get("confidence_score_percent") is None:
            skipped += 1  # no truth to fit on, or nothing scored (too short, no source text)
            continue
        truths[where] = truth
    keys = sorted(truths)
    random.Random(seed).shuffle(keys)
    split = round(len(keys) * holdout)
    held, fit = keys[:split], keys[split:]
    for part, name in ((fit, "fit on"), (held, "hold out")):
        positives = sum(truths[k] for k in part)
        if positives < 2 or len(part) - positives < 2:
            raise InputError(
                f"too few labelled citations to {name}: {positives} true and "
                f"{len(part) - positives} false (at least two of each are needed; "
                f"{gold_field!r} is the field of their truth)"
            )
    current: float = settings.similarity_threshold
    fitting = sorted({record for record, _ in fit})  # the records that hold a fitted citation
    subset = [records[index] for index in fitting]
    position = {record: at for at, record in enumerate(fitting)}
    fitted = {(position[record], citation): truths[(record, citation)] for record, citation in fit}
    accuracy: dict[float, float] = {current: _balanced(_verdicts(report.results, fit), truths)}
    for cut in GRID:
        if cut not in accuracy:
            tried = verify_records(
                subset, embedder=embedder, config=settings.to_dict() | _bounds(settings, cut)
            )
            accuracy[cut] = _balanced(_verdicts(tried.results, list(fitted)), fitted)
    chosen = max(accuracy, key=lambda cut: (accuracy[cut], -abs(cut - current)))
    tuned = settings.to_dict() | _bounds(settings, chosen)
    tuned_report = verify_records(records, embedder=embedder, config=tuned)
    return Tuning(
        similarity_threshold=chosen,
        before=_balanced(_verdicts(report.results, held), truths),
        after=_balanced(_verdicts(tuned_report.results, held), truths),
        fitted=len(fit),
        held_out=len(held),
        skipped=skipped,
        config=tuned,
    )


def _truth(record: Mapping[str, Any], index: int, settings: RecordConfig, name: str) -> bool | None:
    """The truth a citation object carries in its field ``name``, or ``None``."""
    citations = record.get(settings.citations_field) if isinstance(record, Mapping) else None
    item = citations[index] if isinstance(citations, list) and index < len(citations) else None
    value = item.get(name) if isinstance(item, Mapping) else None
    if isinstance(value, bool):
        return value
    if isinstance(value, int | str):
        text = str(value).strip().lower()
        return True if text in _TRUE else False if text in _FALSE else None
    return None


def _balanced(said: Mapping[Any, bool], truths: Mapping[Any, bool]) -> float:
    """Balanced accuracy: the mean of the share of true citations called true and the share
    of false ones not called true."""
    true = [k for k in said if truths[k]]
    false = [k for k in said if not truths[k]]
    hits = sum(said[k] for k in true) / len(true) if true else 0.0
    rejections = sum(not said[k] for k in false) / len(false) if false else 0.0
    return round((hits + rejections) / 2, 4)


def _verdicts(results: Sequence[Any], keys: Sequence[tuple[int, int]]) -> dict[Any, bool]:
    """Whether each held-out citation's final label calls it true (likely or very likely)."""
    wanted = set(keys)
    return {
        (r.details["record"], r.details["citation"]): r.status is Status.VERIFIED
        for r in results
        if "citation" in r.details and (r.details["record"], r.details["citation"]) in wanted
    }


def _bounds(settings: RecordConfig, chosen: float) -> dict[str, float]:
    """The tuned bound, with the others moved only as far as keeping the bands in order needs."""
    return {
        "similarity_threshold": chosen,
        "very_likely_true": max(settings.very_likely_true, chosen),
        "ambiguous": min(settings.ambiguous, chosen),
        "likely_untrue": min(settings.likely_untrue, chosen),
    }
