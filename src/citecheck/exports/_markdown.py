"""The Markdown report: for a pull-request comment, a CI summary or a README.

What a reader renders must show the report's texts as text: an excerpt that holds ``|`` must
not split its table row, and one that holds ``<script>`` or ``[a](javascript:…)`` must not
become markup. Cells are therefore escaped (HTML's ``<``, ``>`` and ``&`` as entities,
Markdown's own punctuation with a backslash) and kept to one line.
"""

from __future__ import annotations

import html
import re
from typing import TYPE_CHECKING

from citecheck.exports._text import (
    shorten,
    source_label,
    status_word,
    suggestion,
    summary_parts,
)

if TYPE_CHECKING:
    from citecheck.report import Report

__all__ = ["TEXT_LIMIT", "to_markdown"]

TEXT_LIMIT = 120
"""Excerpts and claims longer than this are shortened in the table (and the report says so)."""

_MARKDOWN_PUNCTUATION = re.compile(r"([\\`*_\[\]|~])")


def escape(text: str) -> str:
    """``text`` on one line, as literal text in a Markdown table cell or list item."""
    line = " ".join(text.split())
    return _MARKDOWN_PUNCTUATION.sub(r"\\\1", html.escape(line, quote=False))


def to_markdown(report: Report) -> str:
    """A heading, the outcome and summary, a table of every result (status, confidence,
    source and place, the excerpt or claim, the reason), then warnings, phantom citations,
    mappings and the door's metrics, each when there are any."""
    lines = [
        f"# citecheck report: {escape(report.kind)}",
        "",
        f"**{report.outcome}**: {escape(' · '.join(summary_parts(report)))}",
        "",
    ]
    lines.extend(_results(report))
    lines.extend(_section("Warnings", [escape(w) for w in report.warnings]))
    lines.extend(_section("Phantom citations", [escape(p) for p in report.phantom_citations]))
    lines.extend(_section("Mappings", [escape(m.describe()) for m in report.mappings]))
    metrics = [f"{escape(str(k))}: {escape(str(v))}" for k, v in report.metrics().items()]
    lines.extend(_section("Metrics", metrics))
    return "\n".join(lines).rstrip("\n") + "\n"


def _results(report: Report) -> list[str]:
    if not report.results:
        return ["No citations were found.", ""]
    numbered = any(isinstance(r.details.get("line"), int) for r in report.results)
    fixes = any(suggestion(r) for r in report.results)
    head = ["#", *(["line"] if numbered else []), "status", "confidence", "source"]
    head += ["excerpt or claim", "reason", *(["suggested fix"] if fixes else [])]
    rule = ["---:", *(["---:"] if numbered else []), "---", "---:", "---", "---", "---"]
    lines = ["| " + " | ".join(head) + " |", "|" + "|".join(rule + ["---"] * fixes) + "|"]
    any_shortened = False
    for index, result in enumerate(report.results):
        text, shortened = shorten(result.citation.checked_text or "", TEXT_LIMIT)
        any_shortened = any_shortened or shortened
        line = result.details.get("line")
        cells = [
            str(index),
            *([str(line) if isinstance(line, int) else ""] if numbered else []),
            status_word(result.status),
            f"{result.confidence:.2f}",
            escape(source_label(result)),
            escape(text),
            escape(result.reason),
            *([escape(suggestion(result))] if fixes else []),
        ]
        lines.append("| " + " | ".join(cells) + " |")
    lines.append("")
    if any_shortened:
        lines.extend(
            [
                f"Texts that end in “…” are shortened to {TEXT_LIMIT} characters here; "
                "the JSON, CSV and HTML reports hold them whole.",
                "",
            ]
        )
    return lines


def _section(title: str, items: list[str]) -> list[str]:
    if not items:
        return []
    return [f"## {title}", "", *(f"- {item}" for item in items), ""]
