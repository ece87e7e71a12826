"""Subtitle files (WebVTT, SubRip) as timed sources, from Python and from the command line."""

from __future__ import annotations

import builtins
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from citecheck import MissingDependencyError, SourceError
from citecheck.cli import main
from citecheck.documents.files import load_file
from citecheck.documents.transcripts import read_subtitles

pytest.importorskip("webvtt")
pytest.importorskip("srt")

VTT = """WEBVTT
Kind: captions

NOTE recorded at the spring meeting

intro
00:00:00.000 --> 00:01:10.500
<v Chair>Welcome, everyone, to the spring meeting.

00:01:10.500 --> 00:02:30.000 align:start
<v Treasurer>Our budget grew by a third this year,
and we hired two new staff &amp; one intern.

00:02:30.000 --> 01:00:00.000
Thank you all for coming.
"""

SRT = """1
00:00:00,000 --> 00:01:10,500
Welcome, everyone, to the spring meeting.

2
00:01:10,500 --> 00:02:30,000
Our budget grew by a <i>third</i> this year,
and we hired two new staff.

3
00:02:30,000 --> 01:00:00,000
Thank you all for coming.
"""


@pytest.fixture
def talks(tmp_path: Path) -> Path:
    folder = tmp_path / "sources"
    folder.mkdir()
    (folder / "talk.vtt").write_text(VTT, encoding="utf-8")
    (folder / "panel.srt").write_text("\ufeff" + SRT, encoding="utf-8")
    return folder


@pytest.mark.parametrize("name", ["talk.vtt", "panel.srt"])
def test_a_subtitle_file_is_a_transcript_with_one_line_per_cue(talks: Path, name: str) -> None:
    document = load_file(talks / name)
    assert document.id == name.split(".")[0]
    assert document.metadata["format"] == ("webvtt" if name.endswith("vtt") else "srt")
    lines = document.text.split("\n")
    assert lines[0] == "Welcome, everyone, to the spring meeting."
    assert lines[1].startswith("Our budget grew by a third this year, and we hired two new staff")
    assert [(s.start_seconds, s.end_seconds) for s in document.segments] == [
        (0.0, 70.5),
        (70.5, 150.0),
        (150.0, 3600.0),
    ]
    span = document.resolve("2:15")
    assert document.text[span.start : span.end] == lines[1]
    assert document.text[document.resolve("0:45").start :].startswith("Welcome")


def test_webvtt_markup_and_character_references_are_read_as_text(talks: Path) -> None:
    document = load_file(talks / "talk.vtt")
    assert "<v" not in document.text
    assert "two new staff & one intern." in document.text


@pytest.mark.parametrize("name", ["talk.vtt", "panel.srt"])
def test_the_cli_resolves_timestamps_in_transcript_files(
    talks: Path, tmp_path: Path, name: str, capsys: pytest.CaptureFixture[str]
) -> None:
    source = name.split(".")[0]
    answer = tmp_path / "answer.md"
    answer.write_text(
        f'The treasurer said "our budget grew by a third this year" [[{source}:2:15]], '
        f'and closed with "thank you all for coming" [[{source}:30:00]].',
        encoding="utf-8",
    )
    assert main(["verify", str(answer), str(talks / name)]) == 0
    out = capsys.readouterr().out
    assert f"the excerpt stands verbatim at 2:15 of '{source}'" in out
    assert "2 citations, pass rate 100%" in out


def test_a_quote_cited_at_the_wrong_time_is_a_wrong_location(
    talks: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    answer = tmp_path / "answer.md"
    answer.write_text('"Our budget grew by a third this year" [[talk:0:30]].', encoding="utf-8")
    assert main(["verify", str(answer), str(talks)]) == 1
    assert "WRONG_LOCATION" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("name", "content", "message"),
    [
        ("bad.vtt", "Welcome\n\n00:00:01.000 --> 00:00:02.000\nhi\n", "first line must be WEBVTT"),
        (
            "bad.vtt",
            "WEBVTT\n\n00:00:01.000 --> 00:00:0x.000\nhello\n",
            "not valid WebVTT: Invalid cue block ['00:00:01.000 --> 00:00:0x.000', 'hello']",
        ),
        ("late.vtt", "WEBVTT\n\n00:00:05.000 --> 00:00:04.000\nhi\n", "cue 1 ends (4 s) before"),
        (
            "bad.srt",
            "1\n00:00:01,000 --> 00:00:04,000\nHello.\n\n2\n00:00:05,000 -> 00:00:06,000\nBye.\n",
            "line 5: not valid SubRip: '2\\n00:00:05,000 -> 00:00:06,000\\nBye.'",
        ),
        ("notes.srt", "just some notes\n", "line 1: not valid SubRip"),
    ],
)
def test_a_malformed_subtitle_file_is_a_source_error_naming_it(
    tmp_path: Path, name: str, content: str, message: str
) -> None:
    path = tmp_path / name
    path.write_text(content, encoding="utf-8")
    with pytest.raises(SourceError) as caught:
        load_file(path)
    assert str(path) in str(caught.value)
    assert message in str(caught.value)


def test_the_cli_names_the_malformed_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "talk.vtt"
    path.write_text("WEBVTT\n\n00:00:01.000 --> 00:00:0x.000\nhello\n", encoding="utf-8")
    answer = tmp_path / "answer.md"
    answer.write_text('"hello" [[talk:0:01]]', encoding="utf-8")
    assert main(["verify", str(answer), str(path)]) == 2
    err = capsys.readouterr().err
    assert str(path) in err
    assert "Traceback" not in err


@pytest.mark.parametrize(
    ("name", "module", "package"), [("t.vtt", "webvtt", "webvtt-py"), ("t.srt", "srt", "srt")]
)
def test_without_the_extra_the_error_names_the_install(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str, module: str, package: str
) -> None:
    real_import = builtins.__import__

    def refuse(target: str, *args: Any, **kwargs: Any) -> Any:
        if target == module or target.startswith(f"{module}."):
            raise ImportError(f"No module named {target!r}", name=module)
        return real_import(target, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", refuse)
    path = tmp_path / name
    path.write_text(VTT if name.endswith("vtt") else SRT, encoding="utf-8")
    with pytest.raises(MissingDependencyError, match=r"\[transcripts\]") as caught:
        load_file(path)
    assert caught.value.package == package


def _timestamp(milliseconds: int, separator: str) -> str:
    hours, rest = divmod(milliseconds, 3_600_000)
    minutes, rest = divmod(rest, 60_000)
    seconds, millis = divmod(rest, 1000)
    return f"{hours:02d}:{minutes:02d}:{seconds:02d}{separator}{millis:03d}"


_CUE_TEXT = st.lists(
    st.text(alphabet="abcxyz ÄéüØ.,!?'\"0123456789", min_size=1, max_size=20).filter(
        lambda line: line.strip() and not line.strip().isdigit()
    ),
    min_size=1,
    max_size=3,
)


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.tuples(st.integers(0, 10**7), st.integers(0, 10**6), _CUE_TEXT), max_size=6),
    st.sampled_from(["vtt", "srt"]),
)
def test_every_cue_is_read_with_its_times_and_its_lines_joined(
    cues: list[tuple[int, int, list[str]]], kind: str
) -> None:
    separator = "." if kind == "vtt" else ","
    blocks = [
        (f"{n}\n" if kind == "srt" else "")
        + f"{_timestamp(start, separator)} --> {_timestamp(start + length, separator)}\n"
        + "\n".join(lines)
        for n, (start, length, lines) in enumerate(cues, start=1)
    ]
    text = ("WEBVTT\n\n" if kind == "vtt" else "") + "\n\n".join(blocks) + "\n"
    segments = read_subtitles(text, "webvtt" if kind == "vtt" else "srt", f"t.{kind}")
    assert [(a, b) for a, b, _ in segments] == [
        (start / 1000, (start + length) / 1000) for start, length, _ in cues
    ]
    assert [line for _, _, line in segments] == [" ".join(" ".join(ls).split()) for *_, ls in cues]
