"""The HTML report: one self-contained page, and the compact table a notebook shows.

The page holds everything inline (style, script, no fonts, no network: its
Content-Security-Policy forbids any fetch), so it can be mailed, archived or attached to a CI
run and still open years later. Every text from the report is escaped with
:func:`html.escape`: an LLM's answer may hold ``<script>``, and it must show as text.

The citing text is shown with each citation marker highlighted in its status colour, and the
excerpt or claim it vouches for tinted. Markers are never dropped: markers that share or
overlap a span are merged into one region and their elements nested there, so the page has one
``.cc-cite`` element per result with a span. Results are grouped by status in ``<details>``
sections, only the failures open and only the first few of them expanded, and the script is a
handful of delegated listeners: a page of ten thousand citations stays quick to open.
"""

from __future__ import annotations

import html
import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from itertools import pairwise
from typing import TYPE_CHECKING, Any

from citecheck.exports._text import failed, shorten, source_label, status_word, summary_parts
from citecheck.model import Status

if TYPE_CHECKING:
    from citecheck.model import Evidence, Result
    from citecheck.report import Report

__all__ = ["CSP", "REPR_ROWS", "repr_html", "to_html"]

CSP = "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:"
"""The page's Content-Security-Policy: inline style and script only, nothing fetched."""

REPR_ROWS = 50
"""A notebook shows this many results at most."""

EXPANDED_RESULTS = 20
"""Failed results shown expanded when the page opens; the rest open on a click."""

EVIDENCE_SHOWN = 3
"""Passages shown per result: the best and the next best, for comparison."""

CONTEXT_SHOWN = 160
"""Characters of context shown on either side of a passage: a sentence or two, enough to
judge it, and a page of ten thousand results stays a third smaller than with the whole
context (the JSON report keeps it all)."""

_WORD = 20
"""A cut context is moved to a word boundary when one is this close."""

SEVERITY = (
    Status.NOT_FOUND,
    Status.UNSUPPORTED,
    Status.WRONG_LOCATION,
    Status.PARTIAL,
    Status.UNCHECKED,
    Status.VERIFIED,
)
"""Statuses from the worst to the best: the order of the groups, and of nested markers."""

COLOURS = {
    Status.VERIFIED: ("#1a7f37", "#dafbe1"),
    Status.PARTIAL: ("#9a6700", "#fff8c5"),
    Status.WRONG_LOCATION: ("#8250df", "#fbefff"),
    Status.UNSUPPORTED: ("#cf222e", "#ffebe9"),
    Status.NOT_FOUND: ("#82071e", "#ffcecb"),
    Status.UNCHECKED: ("#57606a", "#eaeef2"),
}
"""Text and background colour per status, for the page and the notebook table."""


def esc(value: object) -> str:
    """Any value as HTML text, safe in element content and in quoted attributes."""
    return html.escape(str(value), quote=True)


@cache
def _asset(name: str) -> str:
    return resources.files(__package__).joinpath(name).read_text("utf-8")


def _status_css() -> str:
    return "\n".join(
        f".cc-{status.value} {{ --cc-fg: {fg}; --cc-bg: {bg}; }}"
        for status, (fg, bg) in COLOURS.items()
    )


# -- the page ---------------------------------------------------------------------------------


def to_html(report: Report) -> str:
    """The whole page: a summary bar, warnings and phantom citations, the citing text with
    its citations highlighted (when the report has one), every result grouped by status with
    its evidence in context, then the mappings, metrics and run settings."""
    from citecheck import __version__

    title = f"citecheck report: {report.kind}, {report.outcome}"
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en">',
        "<head>",
        '<meta charset="utf-8">',
        f'<meta http-equiv="Content-Security-Policy" content="{esc(CSP)}">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{esc(title)}</title>",
        f"<style>\n{_status_css()}\n{_asset('report.css')}</style>",
        "</head>",
        "<body>",
        _summary_bar(report),
        "<main>",
        *_notices(report),
        *_text_section(report),
        *_results_section(report),
        *_appendix(report),
        f"<footer>Written by citecheck {esc(__version__)}.</footer>",
        "</main>",
        '<div id="cc-pop" class="cc-pop" role="dialog" aria-label="verdict" hidden></div>',
        f"<script>\n{_asset('report.js')}</script>",
        "</body>",
        "</html>",
    ]
    return "\n".join(parts) + "\n"


def _summary_bar(report: Report) -> str:
    summary = report.summary()
    chips = [
        f'<a class="cc-chip cc-{status.value}{"" if count else " cc-zero"}" '
        f'href="#cc-g-{status.value}">{status_word(status)} <b>{count}</b></a>'
        for status in SEVERITY
        for count in [summary["counts"][status.value]]
    ]
    parts = summary_parts(report, counts=False)
    stats = [f'<span class="cc-stat">{esc(part)}</span>' for part in parts]
    return (
        '<header class="cc-bar">'
        f"<h1>citecheck · {esc(report.kind)}</h1>"
        f'<span class="cc-outcome cc-outcome-{report.outcome}">{report.outcome}</span>'
        + "".join(stats)
        + "".join(chips)
        + "</header>"
    )


def _notices(report: Report) -> list[str]:
    parts = []
    if report.warnings:
        parts.append(_list_section("Warnings", report.warnings))
    if report.phantom_citations:
        parts.append(_list_section("Phantom citations", report.phantom_citations))
    return parts


def _list_section(title: str, items: Iterable[str]) -> str:
    lines = "".join(f"<li>{esc(item)}</li>" for item in items)
    return f'<h2>{esc(title)}</h2><ul class="cc-panel cc-list">{lines}</ul>'


# -- the text with its citations highlighted --------------------------------------------------


@dataclass(slots=True, eq=False)
class _Region:
    """A stretch of the text and the results that point at it (merged where they overlap)."""

    start: int
    end: int
    marker: bool
    results: list[int] = field(default_factory=list)


def _regions(spans: Iterable[tuple[int, int, int]], *, marker: bool) -> list[_Region]:
    """``(start, end, result)`` spans merged into disjoint regions, in order: spans that
    overlap (or are the same empty span) become one region holding all their results."""
    regions: list[_Region] = []
    for start, end, index in sorted(spans):
        last = regions[-1] if regions else None
        if last is not None and (start < last.end or (start, end) == (last.start, last.end)):
            last.end = max(last.end, end)
            last.results.append(index)
        else:
            regions.append(_Region(start, end, marker, [index]))
    return regions


def _segments(
    length: int, markers: list[_Region], claims: list[_Region]
) -> list[tuple[int, int, _Region | None]]:
    """The text cut into stretches, each in one marker region, one claim region or none.

    A marker wins over a claim it overlaps, so a marker region is always one stretch (one
    set of elements); a claim around a marker is cut in two. An empty marker is a stretch of
    its own at its place."""
    solid = [m for m in markers if m.end > m.start]
    empty = [m for m in markers if m.end == m.start]
    bounds = {0, length, *(m.start for m in empty)}
    for region in (*solid, *claims):
        bounds.update((region.start, region.end))
    stretches: list[tuple[int, int, _Region | None]] = []
    m = c = e = 0
    for a, b in pairwise(sorted(bounds)):
        while e < len(empty) and empty[e].start == a:
            stretches.append((a, a, empty[e]))
            e += 1
        while m < len(solid) and solid[m].end <= a:
            m += 1
        while c < len(claims) and claims[c].end <= a:
            c += 1
        label = _label_at(a, solid, m) or _label_at(a, claims, c)
        if stretches and stretches[-1][2] is label and stretches[-1][1] == a:
            stretches[-1] = (stretches[-1][0], b, label)
        else:
            stretches.append((a, b, label))
    stretches.extend((late.start, late.start, late) for late in empty[e:])
    return stretches


def _label_at(position: int, regions: list[_Region], current: int) -> _Region | None:
    if current < len(regions) and regions[current].start <= position:
        return regions[current]
    return None


def _clamped(start: int, end: int, length: int) -> tuple[int, int]:
    """A span kept inside the text (a report built by hand may point past its end)."""
    return min(start, length), min(end, length)


def _highlighted_text(report: Report, text: str) -> str:
    results = report.results
    marker_spans = [
        (*_clamped(r.citation.span.start, r.citation.span.end, len(text)), i)
        for i, r in enumerate(results)
        if r.citation.span is not None
    ]
    claim_spans = [
        (*_clamped(r.citation.text_span.start, r.citation.text_span.end, len(text)), i)
        for i, r in enumerate(results)
        if r.citation.text_span is not None
    ]
    markers = _regions(marker_spans, marker=True)
    claims = _regions(((s, e, i) for s, e, i in claim_spans if e > s), marker=False)
    out = []
    for start, end, region in _segments(len(text), markers, claims):
        piece = esc(text[start:end])
        if region is None:
            out.append(piece)
        elif region.marker:
            out.append(_marker(results, region, piece))
        else:
            out.append(_claim(results, region, piece))
    return "".join(out)


def _worst_first(results: tuple[Result, ...], indices: list[int]) -> list[int]:
    return sorted(indices, key=lambda i: (SEVERITY.index(results[i].status), i))


def _marker(results: tuple[Result, ...], region: _Region, piece: str) -> str:
    """One element per result, nested, the worst innermost (its colour is the one seen)."""
    for index in _worst_first(results, region.results):
        result = results[index]
        verdict = f"{status_word(result.status)} {result.confidence:.2f}: {result.reason}"
        piece = (
            f'<span class="cc-cite cc-{result.status.value}" data-result="{index}" '
            f'id="cc-c{index}" tabindex="0" title="{esc(verdict)}">{piece}</span>'
        )
    return piece


def _claim(results: tuple[Result, ...], region: _Region, piece: str) -> str:
    ordered = _worst_first(results, region.results)
    worst = results[ordered[0]].status.value
    title = "; ".join(
        f"{status_word(results[i].status)}: {source_label(results[i])}" for i in ordered
    )
    return (
        f'<span class="cc-claim cc-{worst}" data-results="{" ".join(map(str, ordered))}" '
        f'title="{esc(title)}">{piece}</span>'
    )


def _text_section(report: Report) -> list[str]:
    if report.text is None:
        return []
    body = _highlighted_text(report, report.text)
    return ["<h2>Text</h2>", f'<div class="cc-panel cc-text" id="cc-text">{body}</div>']


# -- the results, grouped by status -----------------------------------------------------------


def _results_section(report: Report) -> list[str]:
    parts = ["<h2>Results</h2>"]
    if not report.results:
        return [*parts, '<p class="cc-panel">No citations were found.</p>']
    groups: dict[Status, list[int]] = {status: [] for status in SEVERITY}
    for index, result in enumerate(report.results):
        groups[result.status].append(index)
    budget = EXPANDED_RESULTS
    for status, indices in groups.items():
        if not indices:
            continue
        failing = failed(report, report.results[indices[0]])
        expand = budget if failing else 0
        budget -= min(expand, len(indices))
        parts.append(_group(report, status, indices, expand))
    return parts


def _group(report: Report, status: Status, indices: list[int], expand: int) -> str:
    entries = "".join(
        _entry(index, report.results[index], expanded=n < expand) for n, index in enumerate(indices)
    )
    opened = " open" if expand else ""
    return (
        f'<details class="cc-group" id="cc-g-{status.value}"{opened}><summary>'
        f'<span class="cc-chip cc-{status.value}">{status_word(status)}</span> {len(indices)}'
        f"</summary>{entries}</details>"
    )


def _entry(index: int, result: Result, *, expanded: bool) -> str:
    status = result.status.value
    opened = " open" if expanded else ""
    return (
        f'<details class="cc-result cc-{status}" id="cc-r{index}"{opened}><summary>'
        f'<span class="cc-num">#{index}</span> '
        f'<span class="cc-chip cc-{status}">{status_word(result.status)}</span> '
        f'<span class="cc-conf">{result.confidence:.2f}</span> '
        f'<span class="cc-src">{esc(source_label(result))}</span> '
        f'<span class="cc-reason">{esc(result.reason)}</span>'
        f'</summary><div class="cc-body">{_body(index, result)}</div></details>'
    )


def _body(index: int, result: Result) -> str:
    citation = result.citation
    parts = []
    if citation.checked_text:  # the claim around an excerpt stands in the text above
        label = "excerpt" if citation.excerpt else "claim"
        parts.append(f'<p><span class="cc-label">{label}</span> {esc(citation.checked_text)}</p>')
    marker = [f"<code>{esc(citation.raw)}</code>"] if citation.raw else []
    if citation.span is not None:
        marker.append(f'<a href="#cc-c{index}">in the text</a>')
    if marker:
        parts.append(f'<p><span class="cc-label">marker</span> {" · ".join(marker)}</p>')
    shown = result.evidence[:EVIDENCE_SHOWN]
    parts.extend(_evidence(e) for e in shown)
    if not result.evidence:
        parts.append('<p class="cc-where">No evidence was found.</p>')
    elif len(result.evidence) > len(shown):
        more = len(result.evidence) - len(shown)
        parts.append(f'<p class="cc-where">… and {more} more passages (in the JSON report).</p>')
    if result.details:
        parts.append(_definitions(result.details))
    return "".join(parts)


def _evidence(evidence: Evidence) -> str:
    """Where the passage stands and how it scored, then the passage in its context with the
    matched span marked."""
    where = [esc(evidence.source_id), esc(evidence.where()), esc(evidence.method)]
    where.append(f"score {evidence.score:.2f}")
    where.extend(f"{esc(name)} {_number(value)}" for name, value in evidence.scores.items())
    before = _context_before(evidence.context_before)
    after = _context_after(evidence.context_after)
    return (
        f'<p class="cc-where">{" · ".join(where)}</p>'
        f'<blockquote class="cc-passage">{esc(before)}<mark>{esc(evidence.text)}</mark>'
        f"{esc(after)}</blockquote>"
    )


def _context_before(text: str) -> str:
    """The last :data:`CONTEXT_SHOWN` characters, from a word's start, "…" where cut."""
    if len(text) <= CONTEXT_SHOWN:
        return text
    kept = text[-CONTEXT_SHOWN:]
    space = -1 if text[-CONTEXT_SHOWN - 1].isspace() else kept.find(" ")
    return "…" + (kept[space + 1 :] if space < _WORD else kept)


def _context_after(text: str) -> str:
    """The first :data:`CONTEXT_SHOWN` characters, to a word's end, "…" where cut."""
    if len(text) <= CONTEXT_SHOWN:
        return text
    kept = text[:CONTEXT_SHOWN]
    space = len(kept) if text[CONTEXT_SHOWN].isspace() else kept.rfind(" ")
    return (kept[:space] if space > CONTEXT_SHOWN - _WORD else kept) + "…"


def _number(value: object) -> str:
    return f"{value:.3g}" if isinstance(value, float) else esc(value)


def _definitions(values: Mapping[str, Any]) -> str:
    rows = "".join(
        f"<dt>{esc(key)}</dt><dd>{esc(_json(value))}</dd>" for key, value in values.items()
    )
    return f'<dl class="cc-details">{rows}</dl>'


def _json(value: object) -> str:
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False, default=str)


# -- what the run says besides the results ----------------------------------------------------


def _appendix(report: Report) -> list[str]:
    parts = []
    if report.mappings:
        parts.append(_list_section("Mappings", [m.describe() for m in report.mappings]))
    if report.metrics():
        parts.append("<h2>Metrics</h2>")
        parts.append(f'<div class="cc-panel">{_definitions(report.metrics())}</div>')
    settings = {k: v for k, v in report.metadata.items() if k != "metrics"}
    if settings:
        text = json.dumps(settings, indent=2, ensure_ascii=False, default=str)
        parts.append(
            '<details class="cc-panel"><summary>Run settings</summary>'
            f'<pre class="cc-settings">{esc(text)}</pre></details>'
        )
    return parts


# -- the notebook view ------------------------------------------------------------------------


def repr_html(report: Report) -> str:
    """A compact fragment for Jupyter: the outcome and summary, then a table of the first
    :data:`REPR_ROWS` results (and how many more there are)."""
    summary = " · ".join(summary_parts(report))
    rows = "".join(_repr_row(i, r) for i, r in enumerate(report.results[:REPR_ROWS]))
    more = len(report.results) - REPR_ROWS
    tail = (
        f"<p>… and {more} more (<code>report.to_html()</code> shows them all).</p>"
        if more > 0
        else ""
    )
    head = "".join(
        f"<th>{name}</th>"
        for name in ("#", "status", "confidence", "source", "excerpt or claim", "reason")
    )
    return (
        '<div class="citecheck-report">'
        f"<p><strong>citecheck · {esc(report.kind)} · {report.outcome}</strong>: "
        f"{esc(summary)}</p>"
        f"<table><thead><tr>{head}</tr></thead><tbody>{rows}</tbody></table>{tail}</div>"
    )


def _repr_row(index: int, result: Result) -> str:
    fg, bg = COLOURS[result.status]
    text, _ = shorten(result.citation.checked_text or "", 80)
    cells = (
        str(index),
        f'<span style="color:{fg};background:{bg};padding:0 .3em">'
        f"{status_word(result.status)}</span>",
        f"{result.confidence:.2f}",
        esc(source_label(result)),
        esc(text),
        esc(result.reason),
    )
    return "<tr>" + "".join(f'<td style="text-align:left">{c}</td>' for c in cells) + "</tr>"
