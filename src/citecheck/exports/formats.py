"""The built-in formats, each one object registered under its name in the registry's
``formats`` group (:mod:`citecheck.registry`), and the notebook view, registered under ``html``
in ``views``. A third-party format is an object with the same four members
(:class:`~citecheck.protocols.Format`) under the entry-point group ``citecheck.formats``.

A built-in format writes a report through the report's own method (``to_csv``, ``to_excel``,
…), so a report that writes a format its own way (the quote rows of
:meth:`~citecheck.quotes.QuoteReport.to_csv`) does so in every file too; ``export`` is the
plain function, with its options, that the :class:`~citecheck.Report` methods call.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from citecheck._atomic import check_target, write_text_atomic
from citecheck.errors import ConfigError
from citecheck.exports._html import repr_evidence_html, repr_html, repr_result_html, to_html
from citecheck.exports._junit import to_junit
from citecheck.exports._markdown import to_markdown
from citecheck.exports._table import to_csv, to_excel
from citecheck.exports._text import to_text
from citecheck.exports._tip import TIP, TipFormat
from citecheck.language.text import json_escaped, without_surrogates
from citecheck.model import Evidence, Result

if TYPE_CHECKING:
    from citecheck.report import Report

__all__ = [
    "CSV",
    "HTML",
    "JSON",
    "JSONL",
    "JUNIT",
    "MARKDOWN",
    "NOTEBOOK",
    "TEXT",
    "TIP",
    "XLSX",
    "BuiltinFormat",
    "NotebookView",
    "TipFormat",
    "to_jsonl",
]


def to_jsonl(report: Report) -> str:
    """One JSON object per result (:meth:`~citecheck.Result.to_dict`), one line each, with a
    newline after the last; the empty string when there are no results."""
    return "".join(
        json.dumps(result.to_dict(), ensure_ascii=False) + "\n" for result in report.results
    )


def _to_json(report: Report) -> str:
    return report.to_json()


@dataclass(frozen=True, slots=True)
class BuiltinFormat:
    """A format citecheck writes itself: its ``name``, its ``suffixes`` (the first is the one
    it writes), whether it is ``binary``, the report ``method`` that writes it and the plain
    function (``export``) that the method calls."""

    name: str
    suffixes: tuple[str, ...]
    method: str
    export: Callable[..., Any]
    binary: bool = False

    def render(self, report: Report) -> str:
        """The report as this format's text (through the report's own method); JSON keeps a
        lone surrogate as its escape, the formats for people show U+FFFD."""
        if self.binary:
            raise ConfigError(
                f"{self.name} is a file, not text: save it to a {self.suffixes[0]} path"
            )
        text = getattr(report, self.method)()
        return json_escaped(text) if self.name in ("json", "jsonl") else without_surrogates(text)

    def write(self, report: Report, path: Path) -> None:
        """Write the report to ``path`` whole (a temporary file renamed into place)."""
        check_target(path)
        if self.binary:
            getattr(report, self.method)(path)
        else:
            write_text_atomic(path, self.render(report))


JSON = BuiltinFormat("json", (".json",), "to_json", _to_json)
JSONL = BuiltinFormat("jsonl", (".jsonl", ".ndjson"), "to_jsonl", to_jsonl)
CSV = BuiltinFormat("csv", (".csv",), "to_csv", to_csv)
XLSX = BuiltinFormat("xlsx", (".xlsx",), "to_excel", to_excel, binary=True)
MARKDOWN = BuiltinFormat("md", (".md", ".markdown"), "to_markdown", to_markdown)
HTML = BuiltinFormat("html", (".html", ".htm"), "to_html", to_html)
JUNIT = BuiltinFormat("junit", (".xml",), "to_junit", to_junit)
TEXT = BuiltinFormat("text", (".txt",), "to_text", to_text)


class NotebookView:
    """What Jupyter shows for a report, a result and a piece of evidence (``_repr_html_``)."""

    def __call__(self, value: object) -> str:
        if isinstance(value, Evidence):
            return repr_evidence_html(value)
        if isinstance(value, Result):
            return repr_result_html(value)
        return repr_html(value)  # type: ignore[arg-type]

    def __repr__(self) -> str:
        return "NotebookView()"


NOTEBOOK = NotebookView()
