"""The HTML report: one self-contained page, and the compact table a notebook shows.

The page holds everything inline (style, script, no fonts, no network: its
Content-Security-Policy forbids any fetch), so it can be mailed, archived or attached to a CI
run and still open years later. Every text from the report is escaped with
:func:`html.escape`: an LLM's answer may hold ``<script>``, and it must show as text.

The citing text is shown with each citation marker highlighted in its status colour, and the
excerpt or claim it vouches for tinted. Markers are never dropped: markers that share or
overlap a span are merged into one region and their elements nested there, so the page has one
``.cc-cite`` element per result with a span. The text is cut into blocks (its paragraphs, and
long paragraphs at a space every :data:`TEXT_BLOCK` characters) that the browser lays out only
when they come into view.

Results are grouped by status in ``<details>`` sections, only the failures open and only the
first few of them expanded. Each group writes its first :data:`RESULTS_PAGE` results into the
page; the rest are data, one JSON blob (``<script type="application/json" id="cc-data">``),
that the script turns into elements a page at a time when asked ("show more", or a click on a
citation whose result is not shown yet), each result's details only when it is opened. The
script is a handful of delegated listeners, and it does nothing at load but label the "show
more" buttons: a page of ten thousand citations opens about as fast as one of a few hundred.
Without a script the summary, the text and the first results of each group still show.
"""

from __future__ import annotations

import html
import json
import re
from collections.abc import Iterable, Iterator, Mapping
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

__all__ = [
    "CSP",
    "REPR_ROWS",
    "repr_evidence_html",
    "repr_html",
    "repr_result_html",
    "to_html",
]

CSP = "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:"
"""The page's Content-Security-Policy: inline style and script only, nothing fetched."""

REPR_ROWS = 50
"""A notebook shows this many results at most."""

EXPANDED_RESULTS = 20
"""Failed results shown expanded when the page opens; the rest open on a click."""

EVIDENCE_SHOWN = 3
"""Passages shown per result: the best and the next best, for comparison."""

RESULTS_PAGE = 100
"""Results of a group written into the page as elements; the rest are shown this many at a
time, from the page's data, by its script."""

TEXT_BLOCK = 2000
"""A paragraph of the text longer than this many characters is cut into blocks of about this
size (at a space outside any highlight), so the browser lays out only those in view."""

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
    from citecheck._version import __version__

    title = f"citecheck report: {report.kind}, {report.outcome}"
    results, data = _results_section(report)
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
        *results,
        *_appendix(report),
        f"<footer>Written by citecheck {esc(__version__)}.</footer>",
        "</main>",
        '<div id="cc-pop" class="cc-pop" role="dialog" aria-label="verdict" hidden></div>',
        *_data_script(data),
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
    blocks: list[str] = []
    out: list[str] = []
    filled = 0  # characters in the block so far
    for start, end, region in _segments(len(text), markers, claims):
        if region is not None:
            piece = esc(text[start:end])
            out.append(
                _marker(results, region, piece) if region.marker else _claim(results, region, piece)
            )
            filled += end - start
            continue
        at = start
        for cut in _cuts(text, start, end, filled):
            out.append(esc(text[at:cut]))
            blocks.append(_block(out, cut - at + filled))
            out, filled, at = [], 0, cut
        out.append(esc(text[at:end]))
        filled += end - at
    if out:
        blocks.append(_block(out, filled))
    return "".join(blocks)


def _cuts(text: str, start: int, end: int, filled: int) -> Iterator[int]:
    """Where a block may end in an unhighlighted stretch ``text[start:end]`` of the text, the
    block holding ``filled`` characters before it: after each line break, and after a space
    once the block holds :data:`TEXT_BLOCK` characters."""
    at = start
    while at < end:
        newline = text.find("\n", at, end)
        full = at + TEXT_BLOCK - filled
        space = text.find(" ", max(at, full), end) if full < end else -1
        found = [i for i in (newline, space) if i >= 0]
        if not found:
            return
        at = min(found) + 1
        filled = 0
        yield at


def _block(pieces: list[str], length: int) -> str:
    """One block of the text, with a guess at its height for the browser to use until it lays
    the block out (a line of about 100 characters, at the text's line height)."""
    lines = max(1, -(-length // 100))
    return (
        f'<p class="cc-block" style="contain-intrinsic-size: auto {lines * 1.7:.1f}em">'
        + "".join(pieces)
        + "</p>"
    )


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
    """The excerpt or claim, tinted in the worst colour of the results it vouches for (a click
    shows their verdicts)."""
    ordered = _worst_first(results, region.results)
    worst = results[ordered[0]].status.value
    return (
        f'<span class="cc-claim cc-{worst}" data-results="{" ".join(map(str, ordered))}">'
        f"{piece}</span>"
    )


def _text_section(report: Report) -> list[str]:
    if report.text is None:
        return []
    body = _highlighted_text(report, report.text)
    return ["<h2>Text</h2>", f'<div class="cc-panel cc-text" id="cc-text">{body}</div>']


# -- the results, grouped by status -----------------------------------------------------------


def _results_section(report: Report) -> tuple[list[str], dict[str, Any]]:
    """The results' elements, and the page's data: the results past the first
    :data:`RESULTS_PAGE` of each group, for the script to show when asked."""
    parts = ["<h2>Results</h2>"]
    if not report.results:
        return [*parts, '<p class="cc-panel">No citations were found.</p>'], {}
    groups: dict[Status, list[int]] = {status: [] for status in SEVERITY}
    for index, result in enumerate(report.results):
        groups[result.status].append(index)
    budget = EXPANDED_RESULTS
    later: dict[str, list[list[Any]]] = {}
    for status, indices in groups.items():
        if not indices:
            continue
        failing = failed(report, report.results[indices[0]])
        expand = budget if failing else 0
        budget -= min(expand, len(indices))
        parts.append(_group(report, status, indices, expand))
        if len(indices) > RESULTS_PAGE:
            later[status.value] = [_data(i, report.results[i]) for i in indices[RESULTS_PAGE:]]
    if not later:
        return parts, {}
    words = {status.value: status_word(status) for status in SEVERITY}
    texts = _share_passages(item[8] for items in later.values() for item in items)
    return parts, {"words": words, "groups": later, "texts": texts}


def _group(report: Report, status: Status, indices: list[int], expand: int) -> str:
    """A status's section: its first :data:`RESULTS_PAGE` results, then how many more the
    script can show."""
    entries = "".join(
        _entry(index, report.results[index], expanded=n < expand)
        for n, index in enumerate(indices[:RESULTS_PAGE])
    )
    if len(indices) > RESULTS_PAGE:
        entries += (
            f'<p class="cc-more" data-group="{status.value}" data-shown="{RESULTS_PAGE}" '
            f'data-total="{len(indices)}">'
            f"The first {RESULTS_PAGE} of {len(indices)} are shown; the page's script shows "
            "the others.</p>"
        )
    opened = " open" if expand else ""
    return (
        f'<details class="cc-group" id="cc-g-{status.value}"{opened}><summary>'
        f'<span class="cc-chip cc-{status.value}">{status_word(status)}</span> {len(indices)}'
        f"</summary>{entries}</details>"
    )


def _entry(index: int, result: Result, *, expanded: bool) -> str:
    """One result as elements: its verdict in one line, its details when opened. report.js
    builds the same elements from :func:`_data` (test_html_browser.py checks that they are)."""
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
    label = _checked_label(result)
    if label:  # the claim around an excerpt stands in the text above
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


def _checked_label(result: Result) -> str:
    """What the words the citation vouches for are: ``excerpt``, ``claim``, or nothing."""
    citation = result.citation
    if not citation.checked_text:
        return ""
    return "excerpt" if citation.excerpt else "claim"


def _evidence(evidence: Evidence) -> str:
    """Where the passage stands and how it scored, then the passage in its context with the
    matched span marked."""
    before = _context_before(evidence.context_before)
    after = _context_after(evidence.context_after)
    return (
        f'<p class="cc-where">{esc(_where(evidence))}</p>'
        f'<blockquote class="cc-passage">{esc(before)}<mark>{esc(evidence.text)}</mark>'
        f"{esc(after)}</blockquote>"
    )


def _where(evidence: Evidence) -> str:
    """Where a passage stands and how it scored, in one line of plain text."""
    where = [evidence.source_id, evidence.where(), evidence.method, f"score {evidence.score:.2f}"]
    where.extend(f"{name} {_number(value)}" for name, value in evidence.scores.items())
    return " · ".join(where)


def _data(index: int, result: Result) -> list[Any]:
    """A result as the page's data: what :func:`_entry` shows, as plain text, in a list that
    report.js reads by position (``entry`` and ``body`` there). Its passages are
    ``[where, before, text, after, …]`` here; :func:`_share_passages` may replace the texts."""
    citation = result.citation
    shown = result.evidence[:EVIDENCE_SHOWN]
    return [
        index,
        f"{result.confidence:.2f}",
        source_label(result),
        result.reason,
        _checked_label(result),
        citation.checked_text or "",
        citation.raw or "",
        int(citation.span is not None),
        [_passage(e) for e in shown],
        len(result.evidence) - len(shown),
        [[key, _readable(key, value)] for key, value in result.details.items()],
    ]


def _passage(evidence: Evidence) -> list[Any]:
    """``[where, before, text, after, cut, source, origin]``, the texts as :func:`_evidence`
    shows them: ``cut`` says "…" starts ``before`` (1) or ends ``after`` (2), ``source`` and
    ``origin`` where the context kept before the passage starts in its source (``None`` when
    the passage's offsets do not fit its text), for :func:`_share_passages`."""
    before = _context_before(evidence.context_before)
    after = _context_after(evidence.context_after)
    cut = (len(evidence.context_before) > CONTEXT_SHOWN) | 2 * (
        len(evidence.context_after) > CONTEXT_SHOWN
    )
    origin = evidence.start - (len(before) - (cut & 1))
    fits = evidence.end - evidence.start == len(evidence.text) and origin >= 0
    source = evidence.source_id if fits else None
    return [_where(evidence), before, evidence.text, after, cut, source, origin]


def _share_passages(passage_lists: Iterable[list[list[Any]]]) -> list[str]:
    """The passages' texts, each stretch of a source written once; returns the stretches.

    Results that cite the same part of a source show much the same context, which the page
    would hold once per passage. The passages of a source are merged into stretches of its
    text, each passage becoming ``[where, stretch, a, b, c, d, cut]``: the context before is
    ``stretches[stretch][a:b]`` (after "…" when ``cut & 1``), the matched words ``[b:c]``,
    the context after ``[c:d]`` (then "…" when ``cut & 2``). A passage that disagrees with the
    stretch it overlaps (its offsets are not the source's), or has no place, keeps its texts as
    ``[where, before, text, after]``."""
    by_source: dict[str, list[list[Any]]] = {}
    for passages in passage_lists:
        for passage in passages:
            *shown, cut, source, origin = passage
            passage[:] = shown
            if source is not None:
                by_source.setdefault(source, []).append([origin, cut, passage])
    stretches: list[str] = []
    for windows in by_source.values():
        windows.sort(key=lambda window: window[0])
        stretch, begin = "", -1
        for origin, cut, passage in windows:
            where, before, text, after = passage
            kept = before[1:] if cut & 1 else before
            window = kept + text + (after[:-1] if cut & 2 else after)
            overlap = begin + len(stretch) - origin
            if begin >= 0 and overlap >= 0:
                if stretch[origin - begin : origin - begin + len(window)] != window[:overlap]:
                    continue  # disagrees: keeps its texts
                stretch += window[overlap:]
            else:
                if begin >= 0:
                    stretches.append(stretch)
                stretch, begin = window, origin
            a = origin - begin
            b = a + len(kept)
            c = b + len(text)
            passage[:] = [where, len(stretches), a, b, c, a + len(window), cut]
        if begin >= 0:
            stretches.append(stretch)
    for windows in by_source.values():
        for _, _, passage in windows:
            if len(passage) == 7:  # shared: its offsets count what the page's script counts
                passage[2:6] = _utf16_offsets(stretches[passage[1]], passage[2:6])
    return stretches


_ASTRAL = re.compile("[\U00010000-\U0010ffff]")


def _utf16_offsets(text: str, offsets: list[int]) -> list[int]:
    """Offsets into ``text`` counted as JavaScript's ``String.slice`` counts them, in UTF-16
    units: a character outside the Basic Multilingual Plane (an emoji, a mathematical letter)
    is two of them, so code-point offsets would mark the wrong words after it."""
    if not _ASTRAL.search(text):
        return offsets
    return [o + len(_ASTRAL.findall(text, 0, o)) for o in offsets]


def _data_script(data: dict[str, Any]) -> list[str]:
    """The page's data as one inert JSON element. ``<``, ``>`` and ``&`` are written as JSON
    escapes, so no text in it can close the element (``</script>``) or read as markup."""
    if not data:
        return []
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    text = text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
    return [f'<script type="application/json" id="cc-data">{text}</script>']


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
    return f"{value:.3g}" if isinstance(value, float) else str(value)


def _definitions(values: Mapping[str, Any]) -> str:
    rows = "".join(
        f"<dt>{esc(key)}</dt><dd>{esc(_readable(key, value))}</dd>" for key, value in values.items()
    )
    return f'<dl class="cc-details">{rows}</dl>'


_CORRECTION_SAID = ("problem", "message", "fix", "pages", "page", "quote", "revision")
"""The fields of a correction the page says in words; any other is added as it is."""


def _readable(key: str, value: object) -> str:
    """A detail as a reader reads it: a correction as its sentence, the right place, the
    source's words and the revised sentence; the passages that qualify a claim each with
    where it stands and why; anything else as JSON. Nothing is left out."""
    if key == "correction" and isinstance(value, Mapping):
        return _correction(value)
    if (
        key == "qualifying"
        and isinstance(value, list)
        and all(isinstance(v, Mapping) for v in value)
    ):
        return " | ".join(_qualifier(v) for v in value)
    if key == "matches" and isinstance(value, list) and all(isinstance(v, Mapping) for v in value):
        return " | ".join(_ranked(v) for v in value)
    return _json(value)


def _ranked(value: Mapping[str, Any]) -> str:
    """The best passage of one ranking (a paper's ``validate``): which ranking, where it
    stands, what it says and what the engine reads in it."""
    if value.get("text") is None:  # a ranking that could not run says why
        return f"{value.get('by', '?')}: {value.get('none') or _json(value)}"
    where = value.get("pages") or (f"p. {value['page']}" if value.get("page") is not None else "")
    place = ", ".join(str(w) for w in (where, value.get("section")) if w)
    head = f"{value.get('by', '?')} match" + (f" ({place})" if place else "")
    said = f"{head}: \u201c{value['text']}\u201d"
    if value.get("reading"):
        said += f" \u2014 {value['reading']}"
    rest = {
        name: item
        for name, item in value.items()
        if name not in ("by", "text", "page", "pages", "section", "reading") and item is not None
    }
    return said + (f" {_json(rest)}" if rest else "")


def _correction(value: Mapping[str, Any]) -> str:
    said = value.get("message") or value.get("fix") or ""
    parts = [f"[{value['problem']}] {said}".strip() if value.get("problem") else str(said)]
    where = value.get("pages") or (f"p. {value['page']}" if value.get("page") is not None else "")
    if where:
        parts.append(f"the right place: {where}")
    if value.get("quote"):
        parts.append(f"the source says: \u201c{value['quote']}\u201d")
    if value.get("revision"):
        parts.append(f"revise to: {value['revision']}")
    parts.extend(
        f"{name}: {_json(item)}"
        for name, item in value.items()
        if name not in _CORRECTION_SAID and item is not None
    )
    return "; ".join(part for part in parts if part)


def _qualifier(value: Mapping[str, Any]) -> str:
    where = [str(value.get("source_id", ""))]
    if value.get("page") is not None:
        where.append(f"p. {value['page']}")
    if value.get("section"):
        where.append(str(value["section"]))
    place = ", ".join(w for w in where if w)
    why = value.get("why") or "it qualifies the claim"
    return f"{place}: \u201c{value.get('text', '')}\u201d ({why})"


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


def repr_result_html(result: Result) -> str:
    """A result for Jupyter: status, confidence, the cited place and text, the reason, then its
    evidence (every passage: a result keeps five at most)."""
    fg, bg = COLOURS[result.status]
    text, _ = shorten(result.citation.checked_text or "", 200)
    passages = "".join(f"<li>{_evidence_fragment(e)}</li>" for e in result.evidence)
    evidence = f"<ol>{passages}</ol>" if passages else "<p>No evidence.</p>"
    return (
        '<div class="citecheck-result">'
        f'<p><span style="color:{fg};background:{bg};padding:0 .3em">'
        f"<strong>{status_word(result.status)}</strong></span> "
        f"{result.confidence:.2f} · <code>{esc(source_label(result))}</code> · "
        f"{esc(text)}</p><p>{esc(result.reason)}</p>{evidence}</div>"
    )


def repr_evidence_html(evidence: Evidence) -> str:
    """One piece of evidence for Jupyter: where it stands, and the passage in its context with
    the span marked."""
    return f'<div class="citecheck-evidence">{_evidence_fragment(evidence)}</div>'


def _evidence_fragment(evidence: Evidence) -> str:
    where = (
        f"<code>{esc(evidence.source_id)}</code> {esc(evidence.where())}, characters "
        f"{evidence.start}–{evidence.end} · {esc(evidence.method)} {evidence.score:.2f}"
    )
    before, _ = shorten(evidence.context_before[::-1], 120)
    after, _ = shorten(evidence.context_after, 120)
    return (
        f"<div>{where}</div><blockquote>{esc(before[::-1])}"
        f"<mark>{esc(evidence.text)}</mark>{esc(after)}</blockquote>"
    )
