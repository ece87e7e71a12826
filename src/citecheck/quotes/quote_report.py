"""The quote rows and statistics of the quotes job: projections of the one Report.

:func:`~citecheck.verify_quotes` returns a :class:`~citecheck.Report` (a
:class:`QuoteReport`, whose extra members are kept for one release): one
:class:`~citecheck.Result` per quote, its figures in the best evidence's
:attr:`~citecheck.Evidence.scores` (``bm25_score``, ``bm25_ratio``, ``match_ratio``,
``cosine_similarity``) and :attr:`~citecheck.Result.details` (``index``, ``has_ellipsis``,
``global_start``, ``global_end``). A :class:`QuoteRow` is that result flattened into the
columns the quotes job has always written (:data:`ROW_FIELDS`).
"""

from __future__ import annotations

import statistics
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any, Literal

from citecheck.model import Evidence, Result, Status
from citecheck.quotes.config import QuoteConfig
from citecheck.quotes.methods import methods_text
from citecheck.report import Report

__all__ = ["ROW_FIELDS", "QuoteReport", "QuoteRow", "quote_metrics"]

ROW_FIELDS = (
    "index",
    "status",
    "confidence",
    "quote",
    "source_doc",
    "span_text",
    "context_window",
    "reason",
    "bm25_score",
    "bm25_ratio",
    "global_start",
    "global_end",
    "match_ratio",
    "cosine_similarity",
    "has_ellipsis",
)
"""The columns of the quote rows' CSV and Excel exports, in order."""

_TEXT_COLUMNS = ("quote", "span_text", "context_window", "reason")


@dataclass(frozen=True, slots=True)
class QuoteRow:
    """Where one quote stands, how well it matches, and the verdict: one result, flattened.

    ``global_start``/``global_end`` are offsets into the documents' texts joined in order with
    a blank line between them; ``evidence`` carries the per-document offsets, page, line and
    section. ``bm25_ratio`` is top1 / (top2 + ε): how clearly the best window beats the next.
    ``match_ratio`` is the similarity of quote and passage (1.0 = identical after
    normalisation); ``cosine_similarity`` is ``None`` when no embedder is configured.
    """

    index: int
    quote: str
    status: Status
    confidence: float
    reason: str
    source_doc: str | None = None
    span_text: str | None = None
    context_window: str | None = None
    bm25_score: float | None = None
    bm25_ratio: float | None = None
    global_start: int | None = None
    global_end: int | None = None
    match_ratio: float | None = None
    cosine_similarity: float | None = None
    has_ellipsis: bool = False
    evidence: tuple[Evidence, ...] = ()

    @classmethod
    def from_result(cls, result: Result) -> QuoteRow:
        """The row of one result of :func:`~citecheck.verify_quotes`."""
        details = result.details
        best = result.evidence[0] if result.evidence else None
        scores = best.scores if best is not None else {}
        return cls(
            index=details["index"],
            quote=result.citation.excerpt or "",
            status=result.status,
            confidence=result.confidence,
            reason=result.reason,
            source_doc=None if best is None else best.source_id,
            span_text=None if best is None else best.text,
            context_window=None
            if best is None
            else best.context_before + best.text + best.context_after,
            bm25_score=scores.get("bm25_score"),
            bm25_ratio=scores.get("bm25_ratio"),
            global_start=details.get("global_start"),
            global_end=details.get("global_end"),
            match_ratio=scores.get("match_ratio"),
            cosine_similarity=scores.get("cosine_similarity"),
            has_ellipsis=bool(details.get("has_ellipsis", False)),
            evidence=result.evidence,
        )

    def to_dict(self) -> dict[str, Any]:
        """The row's fields, JSON-ready, with the evidence as a list of dicts."""
        data = {name: getattr(self, name) for name in ROW_FIELDS}
        data["status"] = self.status.value
        data["evidence"] = [e.to_dict() for e in self.evidence]
        return data


def quote_metrics(rows: Sequence[QuoteRow], config: QuoteConfig) -> dict[str, Any]:
    """Aggregate statistics for a methods section (``None`` where nothing was measured)."""

    def present(name: str) -> list[float]:
        return [v for v in (getattr(r, name) for r in rows) if v is not None]

    bm25, ratio, cosine, match = (
        present(n) for n in ("bm25_score", "bm25_ratio", "cosine_similarity", "match_ratio")
    )
    spans = [len(r.span_text) for r in rows if r.span_text is not None]
    counts = Counter(r.status for r in rows)
    return {
        "n_quotes": len(rows),
        "n_with_ellipses": sum(r.has_ellipsis for r in rows),
        "mean_bm25_score": _mean(bm25),
        "median_bm25_score": _median(bm25),
        "mean_bm25_ratio": _mean(ratio),
        "median_bm25_ratio": _median(ratio),
        "mean_cosine": _mean(cosine),
        "median_cosine": _median(cosine),
        "min_cosine": min(cosine, default=None),
        "max_cosine": max(cosine, default=None),
        "mean_match_ratio": _mean(match),
        "n_low_match_confidence": sum(
            1 for r in rows if r.match_ratio is None or r.match_ratio < config.low_match_threshold
        ),
        "mean_span_length": _mean([float(n) for n in spans]),
        **{f"n_{status.value}": counts[status] for status in Status},
    }


def _mean(values: list[float]) -> float | None:
    return statistics.fmean(values) if values else None


def _median(values: list[float]) -> float | None:
    return statistics.median(values) if values else None


@dataclass(frozen=True, slots=True)
class QuoteReport(Report):
    """The :class:`~citecheck.Report` of :func:`~citecheck.verify_quotes`.

    It is a ``Report`` like every other door's; the members below are the quote job's
    projections, kept for one release under their old names: :attr:`rows` (the results as
    :class:`QuoteRow`), :meth:`stats` (:meth:`~citecheck.Report.metrics`), :attr:`config`
    and the run's settings (also in :attr:`~citecheck.Report.metadata`). Its CSV and Excel
    files have the quote columns, :data:`ROW_FIELDS`.
    """

    @property
    def rows(self) -> tuple[QuoteRow, ...]:
        """One row per quote, in input order."""
        return tuple(QuoteRow.from_result(r) for r in self.results)

    @property
    def config(self) -> QuoteConfig:
        """The settings the run used."""
        return QuoteConfig.from_mapping(self.metadata.get("config", {}))

    @property
    def window_size_used(self) -> int | None:
        """The window in characters (``None`` when nothing was searched)."""
        size: int | None = self._run("window_size")
        return size

    @property
    def overlap_used(self) -> int | None:
        """The overlap of neighbouring windows in characters."""
        overlap: int | None = self._run("overlap")
        return overlap

    @property
    def n_documents(self) -> int:
        """How many documents were searched."""
        return self._run("n_documents") or 0

    @property
    def embedding_model(self) -> str | None:
        """The model behind ``cosine_similarity`` (``None``: none)."""
        model: str | None = self._run("embedding_model")
        return model

    def _run(self, name: str) -> Any:
        return self.metadata.get("run", {}).get(name)

    def stats(self) -> dict[str, Any]:
        """The quote statistics: :meth:`~citecheck.Report.metrics` under its old name."""
        return self.metrics()

    def methods_text(
        self, *, paraphrases: int | None = None, hallucinations: int | None = None
    ) -> str:
        """A methods paragraph and a validation paragraph for a paper, with this run's
        parameters and numbers (see :func:`citecheck.quotes.methods.methods_text`)."""
        return methods_text(self, paraphrases=paraphrases, hallucinations=hallucinations)

    def to_dict(self) -> dict[str, Any]:
        """The :class:`~citecheck.Report` data, plus the quote files' keys of earlier releases:
        ``config``, ``run``, ``stats`` and ``rows``."""
        data = Report.to_dict(self)
        data.update(
            config=dict(self.metadata.get("config", {})),
            run=dict(self.metadata.get("run", {})),
            stats=self.stats(),
            rows=[row.to_dict() for row in self.rows],
        )
        return data

    def quote_table(self) -> tuple[tuple[str, ...], list[dict[str, Any]]]:
        """The columns and rows of the quote files (:data:`ROW_FIELDS`)."""
        rows = [{name: row.to_dict()[name] for name in ROW_FIELDS} for row in self.rows]
        return ROW_FIELDS, rows

    def to_csv(
        self,
        target: str | Path | IO[str] | None = None,
        *,
        formulas: Literal["escape", "keep"] = "escape",
    ) -> str | None:
        """The quote rows as CSV, one line per quote, columns :data:`ROW_FIELDS`; a cell a
        spreadsheet would run as a formula starts with an apostrophe unless
        ``formulas="keep"``."""
        columns, rows = self.quote_table()
        from citecheck import exports  # a report is written: not at import

        return exports.to_csv(self, target, columns=columns, rows=rows, formulas=formulas)

    def stats_to_csv(self, target: str | Path | IO[str]) -> None:
        """The statistics in melted form: ``variable,value`` lines."""
        rows = [{"variable": k, "value": v} for k, v in self.stats().items()]
        from citecheck import exports  # a report is written: not at import

        exports.to_csv(self, target, columns=("variable", "value"), rows=rows)

    def to_excel(self, path: str | Path) -> None:
        """A workbook for review (the ``excel`` extra): rows sorted by confidence, lowest first,
        text columns 80 wide and wrapped, number columns 15 wide; statistics on a second sheet."""
        columns, rows = self.quote_table()
        from citecheck import exports  # a report is written: not at import

        exports.to_excel(
            self,
            path,
            columns=columns,
            rows=rows,
            sheet="quotes",
            summary_sheet="stats",
            text_columns=_TEXT_COLUMNS,
        )
