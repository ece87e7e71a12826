"""The report as a table: one flat row per result, and the CSV, Excel and pandas views of it.

Every tabular format reads the same rows (:func:`rows`), so a column means the same in a CSV
file, a workbook and a DataFrame. A front door with columns of its own (the quote job's) passes
its projection as ``columns`` and ``rows`` instead.
"""

from __future__ import annotations

import csv
import io
import os
from collections.abc import Iterable, Mapping, Sequence
from typing import IO, TYPE_CHECKING, Any, Literal

from citecheck._atomic import write_bytes_atomic, write_text_atomic
from citecheck.errors import ConfigError, MissingDependencyError
from citecheck.exports._text import excel_cell, flat
from citecheck.language.text import without_surrogates

if TYPE_CHECKING:
    import pandas

    from citecheck.model import Evidence, Result
    from citecheck.report import Report

__all__ = [
    "BASE_COLUMNS",
    "TEXT_COLUMNS",
    "columns",
    "rows",
    "summary_lines",
    "to_csv",
    "to_excel",
    "to_pandas",
]

BASE_COLUMNS = (
    "index",
    "status",
    "confidence",
    "confidence_label",
    "source_id",
    "location",
    "locator",
    "excerpt",
    "claim",
    "reason",
    "marker",
    "evidence_source_id",
    "start",
    "end",
    "page",
    "line",
    "section",
    "method",
    "score",
    "evidence_text",
    "context",
)
"""The columns every row has, in order; ``score_<name>`` and ``detail_<name>`` follow."""

TEXT_COLUMNS = frozenset({"reason", "excerpt", "claim", "evidence_text", "context"})
"""Columns a workbook shows wide and wrapped: prose, not figures."""

_TEXT_WIDTH = 80
_OTHER_WIDTH = 15


def rows(report: Report) -> list[dict[str, Any]]:
    """One flat dict per result, in order: the verdict, the citation, the best evidence (its
    fields ``None`` when there is none), then ``score_<name>`` per evidence score and
    ``detail_<name>`` per detail. Lists and mappings are JSON text, so every value fits a
    cell."""
    return [_row(index, result) for index, result in enumerate(report.results)]


def columns(report: Report) -> list[str]:
    """Every key of :func:`rows`: :data:`BASE_COLUMNS`, then the scores and details that
    occur, sorted, so that the order does not depend on which result comes first."""
    return _columns_of(rows(report))


def _columns_of(table: Iterable[Mapping[str, Any]]) -> list[str]:
    extra = {key for row in table for key in row} - set(BASE_COLUMNS)
    return [*BASE_COLUMNS, *sorted(extra)]


def _row(index: int, result: Result) -> dict[str, Any]:
    citation = result.citation
    best = result.evidence[0] if result.evidence else None
    row: dict[str, Any] = {
        "index": index,
        "status": result.status.value,
        "confidence": round(result.confidence, 4),
        "confidence_label": result.confidence_label,
        "source_id": citation.source_id,
        "location": None if citation.location is None else str(citation.location),
        "locator": citation.locator,
        "excerpt": citation.excerpt,
        "claim": citation.claim,
        "reason": result.reason,
        "marker": citation.raw,
        **_evidence_columns(best),
    }
    if best is not None:
        row.update({f"score_{name}": value for name, value in best.scores.items()})
    row.update({f"detail_{name}": flat(value) for name, value in result.details.items()})
    return row


def _evidence_columns(best: Evidence | None) -> dict[str, Any]:
    if best is None:
        return dict.fromkeys(BASE_COLUMNS[BASE_COLUMNS.index("evidence_source_id") :])
    return {
        "evidence_source_id": best.source_id,
        "start": best.start,
        "end": best.end,
        "page": best.page,
        "line": best.line,
        "section": best.section,
        "method": best.method,
        "score": best.score,
        "evidence_text": best.text,
        "context": best.context_before + best.text + best.context_after,
    }


def _table(
    report: Report,
    chosen_columns: Sequence[str] | None,
    chosen_rows: Iterable[Mapping[str, Any]] | None,
) -> tuple[list[str], list[Mapping[str, Any]]]:
    """The default table, or the caller's projection; columns default to the rows' keys in
    the order they first occur."""
    table: list[Mapping[str, Any]] = list(rows(report) if chosen_rows is None else chosen_rows)
    if chosen_columns is not None:
        return list(chosen_columns), table
    if chosen_rows is None:
        return _columns_of(table), table
    return list(dict.fromkeys(key for row in table for key in row)), table


def to_csv(
    report: Report,
    target: str | os.PathLike[str] | IO[str] | None = None,
    *,
    columns: Sequence[str] | None = None,
    rows: Iterable[Mapping[str, Any]] | None = None,
    formulas: Literal["escape", "keep"] = "escape",
) -> str | None:
    """The table as CSV: returned when ``target`` is ``None``, written to a text stream, or
    to a path all at once (a temporary file renamed into place). A cell a row lacks is
    empty. A text cell that a spreadsheet would run as a formula (it starts with ``=``,
    ``+``, ``-``, ``@``, a tab or a carriage return: a quoted claim or excerpt can) is written
    after an apostrophe, which spreadsheets show as text; ``formulas="keep"`` writes it as it
    is, for scripts that read the file back."""
    if formulas not in ("escape", "keep"):
        raise ConfigError(f"formulas must be 'escape' or 'keep', got {formulas!r}")
    header, table = _table(report, columns, rows)
    escape = formulas == "escape"
    if target is not None and not isinstance(target, str | os.PathLike):
        _write_csv(target, header, table, escape)
        return None
    buffer = io.StringIO(newline="")
    _write_csv(buffer, header, table, escape)
    if target is None:
        return buffer.getvalue()
    write_text_atomic(target, without_surrogates(buffer.getvalue()))
    return None


_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
"""What a spreadsheet reads a cell starting with as a formula (OWASP's list)."""


def _write_csv(
    stream: IO[str], header: list[str], table: list[Mapping[str, Any]], escape: bool
) -> None:
    writer = csv.DictWriter(stream, fieldnames=header, restval="", extrasaction="ignore")
    writer.writeheader()
    writer.writerows(
        {key: _cell(flat(value), escape) for key, value in row.items()} for row in table
    )


def _cell(value: Any, escape: bool) -> Any:
    if escape and isinstance(value, str) and value.startswith(_FORMULA_START):
        return "'" + value
    return value


def summary_lines(report: Report) -> list[tuple[str, Any]]:
    """``variable, value`` pairs: the summary, its counts as ``count_<status>``, then the
    door's metrics (lists and mappings as JSON text)."""
    lines: list[tuple[str, Any]] = []
    for key, value in report.summary().items():
        if key == "counts":
            lines.extend((f"count_{status}", count) for status, count in value.items())
        else:
            lines.append((key, value))
    lines.extend((key, flat(value)) for key, value in report.metrics().items())
    return lines


def to_excel(
    report: Report,
    path: str | os.PathLike[str],
    *,
    columns: Sequence[str] | None = None,
    rows: Iterable[Mapping[str, Any]] | None = None,
    sheet: str = "results",
    summary_sheet: str = "summary",
    text_columns: Iterable[str] = (),
) -> None:
    """A workbook for review (the ``excel`` extra), written all at once: rows sorted by
    confidence, lowest first (ties keep their order), so the doubtful ones are read first;
    prose columns (:data:`TEXT_COLUMNS` and ``text_columns``) 80 wide and wrapped, the others
    15; a bold, frozen header; the summary and metrics on a second sheet."""
    try:
        from openpyxl import Workbook
    except ImportError:
        raise MissingDependencyError("openpyxl", "excel") from None
    header, table = _table(report, columns, rows)
    workbook = Workbook()
    results = workbook.active
    results.title = sheet
    _fill_results(results, header, _by_confidence(table), TEXT_COLUMNS | set(text_columns))
    summary = workbook.create_sheet(summary_sheet)
    summary.append(["variable", "value"])
    for variable, value in summary_lines(report):
        summary.append([variable, excel_cell(value)])
    summary.column_dimensions["A"].width = 30
    summary.column_dimensions["B"].width = 20
    buffer = io.BytesIO()
    workbook.save(buffer)
    write_bytes_atomic(path, buffer.getvalue())


def _by_confidence(table: list[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    """Lowest confidence first; a row without a number keeps its place among the last."""

    def key(numbered: tuple[int, Mapping[str, Any]]) -> tuple[float, int]:
        number, row = numbered
        confidence = row.get("confidence")
        return (float(confidence) if isinstance(confidence, int | float) else 2.0), number

    return [row for _, row in sorted(enumerate(table), key=key)]


def _fill_results(
    worksheet: Any, header: list[str], table: list[Mapping[str, Any]], wide: frozenset[str]
) -> None:
    from openpyxl.styles import Alignment, Font
    from openpyxl.utils import get_column_letter

    worksheet.append([excel_cell(name) for name in header])  # a plugin's score name too
    for cell in worksheet[1]:
        cell.font = Font(bold=True)
    for row in table:
        worksheet.append([excel_cell(flat(row.get(name))) for name in header])
    wrap = Alignment(wrap_text=True, vertical="top")
    for number, name in enumerate(header, start=1):
        is_text = name in wide
        worksheet.column_dimensions[get_column_letter(number)].width = (
            _TEXT_WIDTH if is_text else _OTHER_WIDTH
        )
        if is_text:
            for (cell,) in worksheet.iter_rows(min_row=2, min_col=number, max_col=number):
                cell.alignment = wrap
    worksheet.freeze_panes = "A2"


def to_pandas(report: Report) -> pandas.DataFrame:
    """:func:`rows` as a DataFrame with the :func:`columns` (pandas is imported now, not at
    ``import citecheck``); a cell a row lacks is missing (NaN)."""
    try:
        import pandas
    except ImportError:
        raise MissingDependencyError("pandas", "pandas") from None
    table = rows(report)
    return pandas.DataFrame(table, columns=_columns_of(table))
