"""Text for the files: user text made safe for each format, and the words of the summary.

The texts a report carries (excerpts, claims, reasons, passages) come from documents and from
LLM output, so they may hold anything: control characters that XML and Excel files cannot
store, a leading ``=`` that a spreadsheet would run as a formula, markup. Each writer passes
them through the helper for its format here, so the rules live in one place, as do the words
every human-readable format uses for the summary.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from citecheck.model import Result, Status

if TYPE_CHECKING:
    from citecheck.report import Report

__all__ = [
    "excel_cell",
    "failed",
    "flat",
    "shorten",
    "source_label",
    "status_word",
    "suggestion",
    "summary_parts",
    "to_text",
    "xml_text",
]

_ILLEGAL_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")
"""Characters XML 1.0 cannot hold, escaped or not: a parser rejects the whole file. An Excel
workbook is XML too (openpyxl's ``ILLEGAL_CHARACTERS_RE`` is the control characters of it)."""

_FORMULA_STARTS = ("=", "+", "-", "@")


def excel_cell(value: object) -> object:
    """Text as text: no control characters (a page break in a passage), and never a formula
    (a quote that begins with ``=`` would be run by the spreadsheet: formula injection).
    Other values pass as they are."""
    if not isinstance(value, str):
        return value
    text = _ILLEGAL_XML.sub(" ", value)
    return "'" + text if text.startswith(_FORMULA_STARTS) else text


def xml_text(text: str) -> str:
    """``text`` with what XML 1.0 cannot hold replaced by U+FFFD, so the file still parses
    and the reader sees that something stood there."""
    return _ILLEGAL_XML.sub("\ufffd", text)


def flat(value: Any) -> Any:
    """A scalar for one table cell: lists and mappings as JSON text, the rest unchanged."""
    if isinstance(value, Mapping):
        value = dict(value)
    if isinstance(value, list | tuple | dict):
        return json.dumps(value, ensure_ascii=False, sort_keys=True, default=str)
    return value


def shorten(text: str, limit: int) -> tuple[str, bool]:
    """``text`` on one line, cut at a word boundary to at most ``limit`` characters with
    "…" at the end; the flag says whether it was cut, so a report can say so."""
    line = " ".join(text.split())
    if len(line) <= limit:
        return line, False
    cut = line[: limit - 1]
    space = cut.rfind(" ")
    if space > limit // 2:
        cut = cut[:space]
    return cut.rstrip() + "…", True


def status_word(status: Status) -> str:
    """``not found`` for ``not_found``: the status as a reader says it."""
    return status.value.replace("_", " ")


def source_label(result: Result) -> str:
    """The cited source and the place as written: ``smith2020:p. 12``."""
    citation = result.citation
    return f"{citation.source_id}:{citation.locator}" if citation.locator else citation.source_id


def failed(report: Report, result: Result) -> bool:
    """True for a result the report counts as a failure: not accepted, and not merely
    unchecked (which is never a failure)."""
    return result.status not in report.accepted and result.status is not Status.UNCHECKED


def summary_parts(report: Report, *, counts: bool = True) -> list[str]:
    """The summary in words, one part each: how many citations (and occurrences), the count
    per status that occurs (unless ``counts`` is false: the page shows them as chips), the
    pass rate and the mean confidence."""
    summary = report.summary()
    total = summary["total"]
    parts = [f"{total} citation{'' if total == 1 else 's'}"]
    if summary["occurrences"] != total:
        parts[0] += f" ({summary['occurrences']} occurrences)"
    tally = [
        f"{count} {status_word(Status(status))}"
        for status, count in summary["counts"].items()
        if count
    ]
    if counts and tally:
        parts.append(", ".join(tally))
    if summary["pass_rate"] is not None:
        parts.append(f"pass rate {summary['pass_rate']:.0%}")
    if summary["mean_confidence"] is not None:
        parts.append(f"mean confidence {summary['mean_confidence']:.2f}")
    return parts


def suggestion(result: Result) -> str:
    """The fix a door suggests for a failed citation (``details["correction"]``: its message,
    and the revised sentence when one was written), or ``""``."""
    correction = result.details.get("correction")
    if not isinstance(correction, Mapping) or result.status is Status.VERIFIED:
        return ""
    message = str(correction.get("message") or "")
    revision = correction.get("revision")
    return f"{message} \u2192 {revision}" if revision else message


_VERDICT_WORDS = {"PASS": "PASSED", "FAIL": "FAILED", "UNCHECKED": "UNCHECKED"}


def to_text(report: Report) -> str:
    """A short human-readable listing: one line per citation (per distinct one, with how often
    it is written, when the report counts them once; led by the line of the text it stands on
    when the door knows it, and followed by its suggested fix when there is one), the mappings
    and warnings, then the summary and the outcome."""
    lines = []
    listed = report.citations() if report.count_once else [(r, 1) for r in report.results]
    for r, count in listed:
        where = f":{r.citation.locator}" if r.citation.locator else ""
        repeated = f" (cited {count} times)" if count > 1 else ""
        line = r.details.get("line")
        at = f"line {line}: " if isinstance(line, int) else ""
        lines.append(
            f"{r.status.value.upper():<15} {r.confidence:4.2f}  "
            f"{at}{r.citation.source_id}{where}  {r.reason}{repeated}"
        )
        fix = suggestion(r)
        if fix:
            lines.append(f"{'':<21}fix: {fix}")
    lines.extend(f"mapped: {m.describe()}" for m in report.mappings)
    lines.extend(f"warning: {w}" for w in report.warnings)
    s = report.summary()
    rate = "n/a" if s["pass_rate"] is None else f"{s['pass_rate']:.0%}"
    written = f" ({s['occurrences']} occurrences)" if s["occurrences"] != s["total"] else ""
    plural = "" if s["total"] == 1 else "s"
    verdict = _VERDICT_WORDS[report.outcome]
    unread = (  # said where it decides the outcome: nothing else was read
        f", {report.unread} citation-like place{'' if report.unread == 1 else 's'} unread "
        "(see the warnings)"
        if report.unread and not report.results
        else ""
    )
    lines.append(f"{s['total']} citation{plural}{written}{unread}, pass rate {rate}, {verdict}")
    if report.phantom_citations:
        lines.append("phantom citations: " + ", ".join(report.phantom_citations))
    return "\n".join(lines)
