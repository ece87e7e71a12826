"""Every file format a :class:`~citecheck.Report` is written in, from one place.

Each front door returns a :class:`~citecheck.Report`; its ``to_*`` methods and
:meth:`~citecheck.Report.save` call the functions here. The formats:

======  ========  ============================================================================
name    suffix    what it is for
======  ========  ============================================================================
json    .json     everything, for programs (:meth:`~citecheck.Report.to_json`)
jsonl   .jsonl    one result per line, for streaming and ``jq``
csv     .csv      one flat row per result (:func:`rows`), for spreadsheets and scripts
xlsx    .xlsx     a workbook for human review, lowest confidence first (``excel`` extra)
md      .md       a summary and table for a pull-request comment or CI summary
html    .html     one self-contained page with the citations highlighted in the text
junit   .xml      JUnit XML, one test case per result, for CI test reports
======  ========  ============================================================================

Nothing here is imported by ``import citecheck`` (the report imports it when asked for a
file), and pandas and openpyxl are imported only by the functions that need them.
Every file is written whole: into a temporary file beside the target, then renamed into place,
so a run that dies half way leaves the old file or the new one, never part of one.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from types import MappingProxyType
from typing import TYPE_CHECKING

from citecheck._atomic import write_text_atomic
from citecheck.errors import ConfigError
from citecheck.exports._html import repr_html, to_html
from citecheck.exports._junit import to_junit
from citecheck.exports._markdown import to_markdown
from citecheck.exports._table import columns, rows, to_csv, to_excel, to_pandas
from citecheck.language.text import json_escaped, without_surrogates

if TYPE_CHECKING:
    from citecheck.report import Report

__all__ = [
    "FORMATS",
    "check_target",
    "columns",
    "format_for",
    "render",
    "repr_html",
    "rows",
    "save",
    "to_csv",
    "to_excel",
    "to_html",
    "to_jsonl",
    "to_junit",
    "to_markdown",
    "to_pandas",
]

FORMATS = MappingProxyType(
    {
        "json": ".json",
        "jsonl": ".jsonl",
        "csv": ".csv",
        "xlsx": ".xlsx",
        "md": ".md",
        "html": ".html",
        "junit": ".xml",
    }
)
"""Format name → the suffix of its files."""

_SUFFIXES = MappingProxyType(
    {
        **{suffix: name for name, suffix in FORMATS.items()},
        ".markdown": "md",
        ".htm": "html",
        ".ndjson": "jsonl",
    }
)
"""Suffix → format name, for guessing the format from a file name."""


def to_jsonl(report: Report) -> str:
    """One JSON object per result (:meth:`~citecheck.Result.to_dict`), one line each, with a
    newline after the last; the empty string when there are no results."""
    return "".join(
        json.dumps(result.to_dict(), ensure_ascii=False) + "\n" for result in report.results
    )


def format_for(path: str | os.PathLike[str], format: str | None = None) -> str:
    """The format to write ``path`` in: ``format`` when given (a name of :data:`FORMATS`, or
    a suffix such as ``markdown``), else the one the path's suffix names, in any case.
    :class:`~citecheck.ConfigError` names the path and the known formats otherwise."""
    if format is not None:
        name = format.strip().lower().lstrip(".")
        chosen = name if name in FORMATS else _SUFFIXES.get(f".{name}")
        if chosen is None:
            raise ConfigError(f"unknown report format {format!r}; known: {_known()}")
        return chosen
    suffix = Path(path).suffix.lower()
    if suffix not in _SUFFIXES:
        raise ConfigError(
            f"cannot tell the report format of {os.fspath(path)!r} from its suffix "
            f"{suffix or '(none)'!r}; use one of {', '.join(_SUFFIXES)} or name the format "
            f"({_known()})"
        )
    return _SUFFIXES[suffix]


def _known() -> str:
    return ", ".join(FORMATS)


def check_target(path: str | os.PathLike[str]) -> None:
    """Refuse, before anything is computed or written, a path that cannot take a report: an
    existing folder, or a file in a folder that does not exist."""
    target = Path(path)
    if target.is_dir():
        raise ConfigError(f"cannot write the report to {os.fspath(path)!r}: it is a folder")
    if not target.parent.is_dir():
        raise ConfigError(
            f"cannot write the report to {os.fspath(path)!r}: the folder "
            f"{os.fspath(target.parent)!r} does not exist"
        )


def render(report: Report, format: str) -> str:
    """The report as the text of a format (every one but ``xlsx``, which is binary). It goes
    through the report's own methods, so a report that writes a format its own way (the
    quote rows of :meth:`~citecheck.quotes.QuoteReport.to_csv`) does so here too."""
    chosen = format_for("", format)
    if chosen == "xlsx":
        raise ConfigError("an Excel workbook is a file, not text: save it to a .xlsx path")
    if chosen == "csv":
        text = report.to_csv()
        assert text is not None  # no target: the text is returned
        return without_surrogates(text)
    writers = {
        "json": report.to_json,
        "jsonl": report.to_jsonl,
        "md": report.to_markdown,
        "html": report.to_html,
        "junit": report.to_junit,
    }
    text = writers[chosen]()
    # Text decoded from JSON escapes may hold a lone surrogate, which UTF-8 cannot write:
    # JSON keeps it as its escape, lossless; the formats for people show U+FFFD.
    return json_escaped(text) if chosen in ("json", "jsonl") else without_surrogates(text)


def save(report: Report, path: str | os.PathLike[str], format: str | None = None) -> Path:
    """Write ``report`` to ``path`` in ``format``, or the format its suffix names; returns the
    path. The path is checked first (:func:`check_target`), and the file is written whole
    (a temporary file beside it, renamed into place)."""
    target = Path(path)
    chosen = format_for(target, format)
    check_target(target)
    if chosen == "xlsx":
        report.to_excel(target)
    else:
        write_text_atomic(target, render(report, chosen))
    return target
