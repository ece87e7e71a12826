"""One row per quote, aggregate statistics, and exports (JSON, CSV, Excel)."""

from __future__ import annotations

import io
import json
import statistics
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from citecheck._atomic import write_text_atomic
from citecheck.model import Evidence, Status
from citecheck.quotes.config import QuoteConfig

__all__ = ["ROW_FIELDS", "QuoteReport", "QuoteRow"]

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
"""The columns of the CSV and Excel exports, in order."""


@dataclass(frozen=True, slots=True)
class QuoteRow:
    """Where one quote stands, how well it matches, and the verdict.

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

    def to_dict(self) -> dict[str, Any]:
        """The row's fields, JSON-ready, with the evidence as a list of dicts."""
        data = {name: getattr(self, name) for name in ROW_FIELDS}
        data["status"] = self.status.value
        data["evidence"] = [e.to_dict() for e in self.evidence]
        return data


def _mean(values: list[float]) -> float | None:
    return statistics.fmean(values) if values else None


def _median(values: list[float]) -> float | None:
    return statistics.median(values) if values else None


@dataclass(frozen=True, slots=True)
class QuoteReport:
    """All rows of one run, in input order, with the configuration that produced them and what
    the run chose itself: ``window_size_used`` and ``overlap_used`` (the window and overlap in
    characters, ``None`` when nothing was searched), ``n_documents`` searched, and
    ``embedding_model``, the name of the model behind ``cosine_similarity`` (``None``: none)."""

    rows: tuple[QuoteRow, ...]
    config: QuoteConfig = field(default_factory=QuoteConfig)
    warnings: tuple[str, ...] = ()
    window_size_used: int | None = None
    overlap_used: int | None = None
    n_documents: int = 0
    embedding_model: str | None = None

    def __len__(self) -> int:
        return len(self.rows)

    def __iter__(self) -> Any:
        return iter(self.rows)

    def stats(self) -> dict[str, Any]:
        """Aggregate statistics for a methods section (``None`` where nothing was measured)."""

        def present(name: str) -> list[float]:
            return [v for v in (getattr(r, name) for r in self.rows) if v is not None]

        bm25, ratio, cosine, match = (
            present(n) for n in ("bm25_score", "bm25_ratio", "cosine_similarity", "match_ratio")
        )
        spans = [len(r.span_text) for r in self.rows if r.span_text is not None]
        counts = Counter(r.status for r in self.rows)
        return {
            "n_quotes": len(self.rows),
            "n_with_ellipses": sum(r.has_ellipsis for r in self.rows),
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
                1
                for r in self.rows
                if r.match_ratio is None or r.match_ratio < self.config.low_match_threshold
            ),
            "mean_span_length": _mean([float(n) for n in spans]),
            **{f"n_{status.value}": counts[status] for status in Status},
        }

    def methods_text(
        self, *, paraphrases: int | None = None, hallucinations: int | None = None
    ) -> str:
        """A methods paragraph and a validation paragraph for a paper, with this run's
        parameters and numbers (see :func:`citecheck.quotes.methods.methods_text`)."""
        from citecheck.quotes.methods import methods_text

        return methods_text(self, paraphrases=paraphrases, hallucinations=hallucinations)

    def to_dict(self) -> dict[str, Any]:
        return {
            "config": self.config.to_dict(),
            "run": {
                "window_size": self.window_size_used,
                "overlap": self.overlap_used,
                "n_documents": self.n_documents,
                "embedding_model": self.embedding_model,
            },
            "stats": self.stats(),
            "warnings": list(self.warnings),
            "rows": [r.to_dict() for r in self.rows],
        }

    def to_json(self, *, indent: int | None = 2) -> str:
        return json.dumps(self.to_dict(), indent=indent, ensure_ascii=False)

    def to_csv(self, target: str | Path | IO[str]) -> None:
        """The rows as CSV, one line per quote, columns :data:`ROW_FIELDS`."""
        rows = ([r.to_dict()[name] for name in ROW_FIELDS] for r in self.rows)
        _write_csv(target, ROW_FIELDS, rows)

    def stats_to_csv(self, target: str | Path | IO[str]) -> None:
        """The statistics in melted form: ``variable,value`` lines."""
        _write_csv(target, ("variable", "value"), self.stats().items())

    def to_excel(self, path: str | Path) -> None:
        """A workbook for review (the ``excel`` extra): rows sorted by confidence, lowest first,
        text columns 80 wide and wrapped, number columns 15 wide; statistics on a second sheet."""
        from citecheck.quotes.excel import write_workbook

        write_workbook(self, Path(path))

    def save(self, path: str | Path) -> None:
        """Write the rows in the format the file name asks for: .json, .csv or .xlsx, all at
        once (a temporary file renamed into place), so a run that dies leaves no half file."""
        path = Path(path)
        writers: dict[str, Callable[[Path], object]] = {
            ".json": lambda p: write_text_atomic(p, self.to_json()),
            ".csv": self.to_csv,
            ".xlsx": self.to_excel,
        }
        if path.suffix.lower() not in writers:
            from citecheck.errors import ConfigError

            raise ConfigError(f"cannot write {path}: use .json, .csv or .xlsx")
        writers[path.suffix.lower()](path)


def _write_csv(
    target: str | Path | IO[str], header: Iterable[str], rows: Iterable[Iterable[Any]]
) -> None:
    import csv

    if isinstance(target, str | Path):
        buffer = io.StringIO(newline="")
        _write_csv(buffer, header, rows)
        write_text_atomic(target, buffer.getvalue())
        return
    writer = csv.writer(target)
    writer.writerow(header)
    writer.writerows(rows)
