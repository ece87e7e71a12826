"""The CI run (``python -m nox``, the README's test command) installs the environment with every
extra, several GB, once; ``nox -s tests`` still runs just the tests. Skipped without nox."""

from __future__ import annotations

import functools
import importlib.util
import re
from pathlib import Path
from typing import Any

import pytest

nox = pytest.importorskip("nox")

ROOT = Path(__file__).parents[1]
ALL_EXTRAS = re.compile(r"\[[^\]]*\ball\b[^\]]*\]")


class RecordingSession:
    """Stands in for ``nox.Session``: records what a session would install and run."""

    posargs: list[str] = []  # noqa: RUF012 (read only, as nox's)

    def __init__(self) -> None:
        self.installs: list[tuple[str, ...]] = []
        self.runs: list[tuple[str, ...]] = []

    def install(self, *args: str) -> None:
        self.installs.append(args)

    def run(self, *args: str) -> None:
        self.runs.append(args)


@functools.cache
def _sessions() -> dict[str, Any]:
    """The noxfile's sessions by name (loaded once: nox's registry is global)."""
    spec = importlib.util.spec_from_file_location("noxfile", ROOT / "noxfile.py")
    assert spec is not None
    assert spec.loader is not None
    spec.loader.exec_module(importlib.util.module_from_spec(spec))
    return dict(nox.registry.get())


def _call(sessions: dict[str, Any], selected: str) -> list[RecordingSession]:
    """Run the session ``name`` or ``name(key='value')`` against recording sessions: a bare
    parametrized name runs each of its parameters, as nox does."""
    match = re.fullmatch(r"([\w-]+)(?:\((\w+)='(\w+)'\))?", selected)
    assert match is not None, selected
    name, key, value = match.groups()
    func = sessions[name]
    if key:
        calls = [{key: value}]
    else:
        params = getattr(func, "parametrize", None) or []
        calls = [dict(zip(p.arg_names, p.args, strict=True)) for p in params] or [{}]
    recorded = []
    for kwargs in calls:
        session = RecordingSession()
        func(session, **kwargs)
        recorded.append(session)
    return recorded


def test_the_default_run_installs_every_extra_once_and_checks_everything(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.chdir(ROOT)
    sessions = _sessions()
    recorded = [s for name in nox.options.sessions for s in _call(sessions, name)]
    installs = [args for session in recorded for args in session.installs]
    assert sum(any(ALL_EXTRAS.search(arg) for arg in args) for args in installs) == 1
    assert all("constraints.txt" in args for args in installs if "ruff" not in args)
    commands = [args[0] for session in recorded for args in session.runs]
    assert commands.count("pytest") == 2  # no extras, every extra
    assert {"ruff", "mypy", "sphinx-build"} <= set(commands)
    examples = {args[1] for session in recorded for args in session.runs if args[0] == "python"}
    assert examples == {str(path) for path in Path("examples").glob("*.py")} != set()


def test_nox_s_tests_runs_just_the_tests() -> None:
    sessions = _sessions()
    recorded = _call(sessions, "tests")
    assert [[args[0] for args in session.runs] for session in recorded] == [["pytest"]] * 2
