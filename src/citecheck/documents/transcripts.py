"""Timed segments from subtitle files (the ``transcripts`` extra): WebVTT read by webvtt-py,
SubRip read by srt, so that ``[[talk:2:15]]`` resolves in a ``talk.vtt`` or ``talk.srt``.

Both parsers are used strictly: a malformed cue is a :class:`~citecheck.errors.SourceError`
that names the file (and the line where the parser says where), never a cue dropped in silence,
which would make a quote from it look fabricated.
"""

from __future__ import annotations

import html
from typing import Literal

from citecheck.errors import MissingDependencyError, SourceError

__all__ = ["SUBTITLE_FORMATS", "read_subtitles"]

SubtitleFormat = Literal["webvtt", "srt"]
SUBTITLE_FORMATS: dict[str, SubtitleFormat] = {".vtt": "webvtt", ".srt": "srt"}
"""File suffixes read as subtitles, with their format."""

Segments = list[tuple[float, float, str]]


def read_subtitles(text: str, format: SubtitleFormat, name: str) -> Segments:
    """``(start_seconds, end_seconds, text)`` for every cue of ``text``, in file order.

    A cue's lines are joined by spaces and its markup is removed (``<v Roger>``, ``<i>``,
    WebVTT's ``&amp;``), so each cue is one line of the document. ``name`` (the file) is
    named in every error; a cue that ends before it starts is an error too.
    """
    segments = _webvtt(text, name) if format == "webvtt" else _srt(text, name)
    for number, (start, end, _) in enumerate(segments, start=1):
        if end < start:
            raise SourceError(
                f"{name}: cue {number} ends ({end:g} s) before it starts ({start:g} s)"
            )
    return segments


def _webvtt(text: str, name: str) -> Segments:
    try:
        import webvtt
        from webvtt.errors import MalformedCaptionError, MalformedFileError
    except ImportError:
        raise MissingDependencyError("webvtt-py", "transcripts") from None
    try:
        captions = webvtt.from_string(text, strict=True).captions
    except MalformedFileError:
        raise SourceError(f"{name} is not a WebVTT file: its first line must be WEBVTT") from None
    except MalformedCaptionError as exc:
        raise SourceError(f"{name} is not valid WebVTT: {exc}") from None
    return [
        (
            caption.start_time.in_milliseconds() / 1000,
            caption.end_time.in_milliseconds() / 1000,
            _one_line(html.unescape(caption.text)),
        )
        for caption in captions
    ]


def _srt(text: str, name: str) -> Segments:
    try:
        import srt
        import webvtt
    except ImportError as exc:
        package = "webvtt-py" if exc.name == "webvtt" else "srt"
        raise MissingDependencyError(package, "transcripts") from None
    try:
        subtitles = list(srt.parse(text))
    except srt.SRTParseError as exc:
        line = text.count("\n", 0, exc.expected_start) + 1
        raise SourceError(
            f"{name}, line {line}: not valid SubRip: {exc.unmatched_content.strip()[:80]!r}"
        ) from None
    except ValueError as exc:  # srt's TimestampParseError among them
        raise SourceError(f"{name} is not valid SubRip: {exc}") from None
    return [
        (
            subtitle.start.total_seconds(),
            subtitle.end.total_seconds(),
            # webvtt-py's caption text removes the <i>, <b> and <font> tags SubRip files use.
            _one_line(webvtt.Caption(text=subtitle.content).text),
        )
        for subtitle in subtitles
    ]


def _one_line(text: str) -> str:
    return " ".join(text.split())
