"""What a pipeline does with an answer whose citations failed: say so in a few lines, flag them
in place, or strip what they vouch for; and the verifier an integration is given. Shared by the
integrations (LangChain's ``CitationCheck`` and tool, LlamaIndex's evaluator), so every door
says and edits it the same way; each reaches its door through the door registry.

A citation vouches for its claim or excerpt (:attr:`~citecheck.Citation.text_span`: the
sentence, or the part of it since the previous marker) and stands at its marker
(:attr:`~citecheck.Citation.span`). *Flagging* writes a short note right after the marker;
*stripping* removes the sentence the marker stands in. A result that could not be checked is
flagged as such and never stripped: "could not check" is not "wrong".
"""

from __future__ import annotations

from collections.abc import Mapping
from os import PathLike
from pathlib import Path

from citecheck import registry
from citecheck.documents.chunking import builtin_splitter
from citecheck.errors import ConfigError, InputError
from citecheck.model import Result, Span, Status
from citecheck.protocols import Verifier as Door
from citecheck.report import Report
from citecheck.verification.verifier import Verifier

__all__ = ["as_verifier", "failing", "flag_answer", "flag_note", "strip_answer", "verdict"]

_LISTED = 8  # results named in a short verdict; the others are counted


def as_verifier(verifier: object) -> Door:
    """The door an integration's ``verifier`` argument names: ``None`` for the markers door
    (:class:`~citecheck.Verifier`) with its defaults; its options (a mapping, or a TOML /
    YAML / JSON file); the name of a registered door (``"markers"``); or any door already
    built. An integration checks an answer, so the door must take a text."""
    if verifier is None:
        door: Door = Verifier()
    elif isinstance(verifier, str) and verifier in registry.available("doors"):
        door = registry.create("doors", verifier)
    elif isinstance(verifier, str | PathLike):
        door = Verifier.from_config(Path(verifier))
    elif isinstance(verifier, Mapping):
        door = Verifier.from_config(verifier)
    elif isinstance(verifier, Door):
        door = verifier
    else:
        raise ConfigError(
            f"verifier must be a door, its name or the Verifier's options, not "
            f"{type(verifier).__name__}"
        )
    if door.takes != "text":
        raise ConfigError(
            f"the {door.name} door checks items, not an answer: give a door that takes a text"
        )
    return door


def failing(report: Report) -> list[Result]:
    """The results the report does not accept, unchecked ones included, in order."""
    return [r for r in report.results if r.status not in report.accepted]


def flag_note(result: Result) -> str:
    """The note written after a failing citation: ``[citecheck: not found]``."""
    if result.status is Status.UNCHECKED:
        return "[citecheck: could not be checked]"
    return f"[citecheck: {result.status.value.replace('_', ' ')}]"


def flag_answer(report: Report) -> str:
    """The report's text with a note after every citation it does not accept (one note per
    marker, naming each status once)."""
    text = _text(report)
    notes: dict[Span, list[str]] = {}
    for result in failing(report):
        span = result.citation.span
        if span is None:
            continue
        note = flag_note(result)
        if note not in notes.setdefault(span, []):
            notes[span].append(note)
    for span in sorted(notes, reverse=True):
        text = text[: span.end] + " " + " ".join(notes[span]) + text[span.end :]
    return text


def strip_answer(report: Report) -> str:
    """The report's text without what its failed citations vouch for: the sentence, or the
    part of it since the previous marker when the sentence holds several. Citations that could
    not be checked stay. A marker that opens a sentence (``Claim. [1]``) closes the one before
    it."""
    text = _text(report)
    sentences = builtin_splitter(text) or [(0, len(text))]
    markers = sorted({r.citation.span for r in report.results if r.citation.span is not None})
    cuts = sorted(
        {
            _vouched(text, sentences, markers, r.citation.span)
            for r in failing(report)
            if r.status is not Status.UNCHECKED and r.citation.span is not None
        }
    )
    merged: list[Span] = []
    for cut in cuts:
        if merged and cut.start <= merged[-1].end:
            merged[-1] = Span(merged[-1].start, max(merged[-1].end, cut.end))
        else:
            merged.append(cut)
    for cut in reversed(merged):
        before, after = text[: cut.start], text[cut.end :]
        opened = before.rstrip(" \t")
        if (not opened or opened[-1] in ".!?\n") and after.lstrip(" \t")[:1] in (",", ";", ":"):
            after = after.lstrip(" \t")[1:]  # a sentence's first part went: so does its comma
        if not after.strip(" \t") or after.lstrip(" \t")[:1] == "\n":
            before = before.rstrip(" \t")  # the last sentence of its line
        text = before + after.lstrip(" \t")
    return text.strip()


def _vouched(
    text: str, sentences: list[tuple[int, int]], markers: list[Span], marker: Span
) -> Span:
    """What one marker vouches for: its sentence, or the part since the marker before it."""
    index = next(
        (i for i, (start, end) in enumerate(sentences) if start <= marker.start < end),
        len(sentences) - 1,
    )
    start, end = sentences[index]
    if index > 0 and not text[start : marker.start].strip():
        start, end = sentences[index - 1][0], marker.end  # the marker closes the sentence before
    earlier = [m.end for m in markers if start <= m.end <= marker.start]
    later = [m for m in markers if marker.end <= m.start < end]
    if earlier:
        return Span(max(earlier), marker.end)  # the part since the previous marker
    if later:
        return Span(start, marker.end)  # the part up to the next marker
    return Span(start, max(end, marker.end))


def _text(report: Report) -> str:
    if report.text is None:
        raise InputError(f"a {report.kind!r} report keeps no text to edit; only verify's does")
    return report.text


def verdict(report: Report) -> str:
    """The short verdict a model reads: the outcome and summary, then each result that did
    not pass (the first few; the number of the others)."""
    summary = report.summary()
    head = f"{report.outcome}: {summary['total']} checked, " + ", ".join(
        f"{count} {status.replace('_', ' ')}"
        for status, count in summary["counts"].items()
        if count
    )
    if not report.results:
        head = f"{report.outcome}: no citations found" + (
            " (citations are required)" if report.require_citations else ""
        )
    lines = [head]
    bad = failing(report)
    for result in bad[:_LISTED]:
        cited = result.citation.raw or result.citation.source_id
        what = result.citation.checked_text or ""
        shown = what if len(what) <= 80 else what[:79] + "…"
        lines.append(f"- {cited} {shown!r}: {result.status.value}: {result.reason}")
    if len(bad) > _LISTED:
        lines.append(f"- and {len(bad) - _LISTED} more that did not pass (the report lists them)")
    lines.extend(f"warning: {w}" for w in report.warnings[:3])
    if len(report.warnings) > 3:
        lines.append(f"warning: and {len(report.warnings) - 3} more")
    return "\n".join(lines)
