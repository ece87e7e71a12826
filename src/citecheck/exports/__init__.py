"""Every file format a :class:`~citecheck.Report` is written in, from one place.

Each front door returns a :class:`~citecheck.Report`; its ``to_*`` methods and
:meth:`~citecheck.Report.save` call the functions here. The formats:

======  =========  ===========================================================================
name    suffix     what it is for
======  =========  ===========================================================================
json    .json      everything, for programs (:meth:`~citecheck.Report.to_json`)
jsonl   .jsonl     one result per line, for streaming and ``jq``
csv     .csv       one flat row per result (:func:`rows`), for spreadsheets and scripts
xlsx    .xlsx      a workbook for human review, lowest confidence first (``excel`` extra)
md      .md        a summary and table for a pull-request comment or CI summary
html    .html      one self-contained page with the citations highlighted in the text
junit   .xml       JUnit XML, one test case per result, for CI test reports
text    .txt       the listing the command line prints: one line per citation, then the summary
tip     .tip.json  the TIP protocol's citation objects (:func:`to_tip`)
======  =========  ===========================================================================

Each is registered in the ``formats`` group of :mod:`citecheck.registry`
(:mod:`citecheck.exports.formats`); a third-party format is one more entry there, through the
entry-point group ``citecheck.formats``, and :meth:`~citecheck.Report.save` and the command
line's ``--format`` find it by name or suffix. The report knows no format: it asks the
registry. Nothing here is imported by ``import citecheck``, and pandas and openpyxl are
imported only by the functions that need them.
Every file is written whole: into a temporary file beside the target, then renamed into place,
so a run that dies half way leaves the old file or the new one, never part of one.
"""

from __future__ import annotations

import os
from pathlib import Path
from types import MappingProxyType
from typing import TYPE_CHECKING

from citecheck import registry
from citecheck._atomic import check_target
from citecheck.exports._html import repr_html, to_html
from citecheck.exports._junit import to_junit
from citecheck.exports._markdown import to_markdown
from citecheck.exports._table import columns, rows, to_csv, to_excel, to_pandas
from citecheck.exports._text import to_text
from citecheck.exports._tip import tip_citation, to_tip
from citecheck.exports.formats import (
    CSV,
    HTML,
    JSON,
    JSONL,
    JUNIT,
    MARKDOWN,
    TEXT,
    TIP,
    XLSX,
    to_jsonl,
)

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
    "tip_citation",
    "to_csv",
    "to_excel",
    "to_html",
    "to_jsonl",
    "to_junit",
    "to_markdown",
    "to_pandas",
    "to_text",
    "to_tip",
]

FORMATS = MappingProxyType(
    {f.name: f.suffixes[0] for f in (JSON, JSONL, CSV, XLSX, MARKDOWN, HTML, JUNIT, TEXT, TIP)}
)
"""The built-in formats: name → the suffix of its files. Every registered one, plugins
included, is ``citecheck.registry.available("formats")``."""


def format_for(path: str | os.PathLike[str], format: str | None = None) -> str:
    """The name of the format to write ``path`` in: ``format`` when given (a format's name,
    or a suffix such as ``markdown``), else the one the path's suffix names, in any case
    (:func:`citecheck.registry.format_for`). :class:`~citecheck.ConfigError` names the path
    and the known formats otherwise."""
    name: str = registry.format_for(path, format).name
    return name


def render(report: Report, format: str) -> str:
    """The report as the text of a format (every one but ``xlsx``, which is binary). It goes
    through the report's own methods, so a report that writes a format its own way (the
    quote rows of :meth:`~citecheck.quotes.QuoteReport.to_csv`) does so here too."""
    text: str = registry.format_for("", format).render(report)
    return text


def save(report: Report, path: str | os.PathLike[str], format: str | None = None) -> Path:
    """Write ``report`` to ``path`` in ``format``, or the format its suffix names; returns the
    path. The path is checked first (:func:`check_target`), and the file is written whole
    (a temporary file beside it, renamed into place)."""
    target = Path(path)
    registry.format_for(target, format).write(report, target)
    return target
