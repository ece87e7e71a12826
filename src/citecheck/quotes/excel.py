"""The Excel export of a quote report (the ``excel`` extra: openpyxl)."""

from __future__ import annotations

import io
from pathlib import Path
from typing import TYPE_CHECKING

from citecheck._atomic import write_bytes_atomic
from citecheck.errors import MissingDependencyError

if TYPE_CHECKING:
    from citecheck.quotes.report import QuoteReport

__all__ = ["write_workbook"]

_TEXT_WIDTH = 80
_NUMBER_WIDTH = 15
_TEXT_COLUMNS = {"quote", "span_text", "context_window", "reason"}


def _cell(value: object) -> object:
    """Text as text: no control characters (a page break in the context), which Excel files
    cannot hold, and never a formula (a quote that begins with "=")."""
    if not isinstance(value, str):
        return value
    from openpyxl.cell.cell import ILLEGAL_CHARACTERS_RE

    text: str = ILLEGAL_CHARACTERS_RE.sub(" ", value)
    return "'" + text if text[:1] in ("=", "+", "-", "@") else text


def write_workbook(report: QuoteReport, path: Path) -> None:
    """Rows sorted by confidence (lowest first, so doubtful quotes are reviewed first)."""
    try:
        from openpyxl import Workbook
        from openpyxl.styles import Alignment, Font
        from openpyxl.utils import get_column_letter
    except ImportError:
        raise MissingDependencyError("openpyxl", "excel") from None
    from citecheck.quotes.report import ROW_FIELDS

    workbook = Workbook()
    sheet = workbook.active
    sheet.title = "quotes"
    sheet.append(list(ROW_FIELDS))
    for cell in sheet[1]:
        cell.font = Font(bold=True)
    for row in sorted(report.rows, key=lambda r: (r.confidence, r.index)):
        data = row.to_dict()
        sheet.append([_cell(data[name]) for name in ROW_FIELDS])
    wrap = Alignment(wrap_text=True, vertical="top")
    for number, name in enumerate(ROW_FIELDS, start=1):
        letter = get_column_letter(number)
        text = name in _TEXT_COLUMNS
        sheet.column_dimensions[letter].width = _TEXT_WIDTH if text else _NUMBER_WIDTH
        if text:
            for (cell,) in sheet.iter_rows(min_row=2, min_col=number, max_col=number):
                cell.alignment = wrap
    sheet.freeze_panes = "A2"
    stats = workbook.create_sheet("stats")
    stats.append(["variable", "value"])
    for variable, value in report.stats().items():
        stats.append([variable, value])
    stats.column_dimensions["A"].width = 30
    stats.column_dimensions["B"].width = _NUMBER_WIDTH
    buffer = io.BytesIO()
    workbook.save(buffer)
    write_bytes_atomic(path, buffer.getvalue())
