"""The CI run (``python -m nox``, the README's test command) installs the environment with every
extra, several GB, once; ``nox -s tests`` still runs just the tests; ``package`` builds the
distributions, checks them and runs the quick start from the wheel alone. Skipped without nox."""

from __future__ import annotations

import contextlib
import functools
import importlib.util
import re
import tarfile
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

nox = pytest.importorskip("nox")

ROOT = Path(__file__).parents[1]
ALL_EXTRAS = re.compile(r"\[[^\]]*\ball\b[^\]]*\]")


class RecordingSession:
    """Stands in for ``nox.Session``: records what a session would install and run, and where.
    A build (``python -m build --outdir DIR``) writes the distributions ``built`` names: an
    sdist and a wheel holding ``files`` (default: those of a good build of this tree)."""

    posargs: list[str] = []  # noqa: RUF012 (read only, as nox's)

    def __init__(self, tmp: Path | None = None, files: set[str] | None = None) -> None:
        self.installs: list[tuple[str, ...]] = []
        self.runs: list[tuple[str, ...]] = []
        self.folders: list[Path] = []  # the working folder of each run
        self.tmp, self.files = tmp, files
        self.folder = ROOT

    def install(self, *args: str) -> None:
        self.installs.append(args)

    def run(self, *args: str, **_: Any) -> None:
        self.runs.append(args)
        self.folders.append(self.folder)
        if args[:3] == ("python", "-m", "build"):
            _build(Path(args[args.index("--outdir") + 1]), self.files)

    def create_tmp(self) -> str:
        assert self.tmp is not None, "this session needs a temporary folder"
        return str(self.tmp)

    @contextlib.contextmanager
    def chdir(self, folder: Path) -> Iterator[None]:
        before, self.folder = self.folder, Path(folder)
        try:
            yield
        finally:
            self.folder = before

    def error(self, message: str) -> None:
        raise SessionFailed(message)


class SessionFailed(Exception):
    """``session.error``: the session fails with this message."""


def _package_files() -> set[str]:
    """The files of ``src/citecheck``, relative to it, as a build ships them."""
    package = ROOT / "src" / "citecheck"
    return {
        path.relative_to(package).as_posix()
        for path in package.rglob("*")
        if path.is_file() and "__pycache__" not in path.parts
    }


def _build(dist: Path, files: set[str] | None) -> None:
    """An sdist and a wheel as a build writes them, their files empty."""
    files = _package_files() if files is None else files
    dist.mkdir(parents=True)
    with zipfile.ZipFile(dist / "pycitecheck-0.1.0-py3-none-any.whl", "w") as wheel:
        for name in sorted(files):
            wheel.writestr(f"citecheck/{name}", "")
        wheel.writestr("pycitecheck-0.1.0.dist-info/METADATA", "Name: pycitecheck\n")
    with tarfile.open(dist / "pycitecheck-0.1.0.tar.gz", "w:gz") as sdist:
        names = [*(f"src/citecheck/{n}" for n in files), "pyproject.toml", "README.md"]
        for name in [*names, "LICENSE", "PKG-INFO"]:
            sdist.addfile(tarfile.TarInfo(f"pycitecheck-0.1.0/{name}"))


@functools.cache
def _sessions() -> dict[str, Any]:
    """The noxfile's sessions by name (loaded once: nox's registry is global)."""
    spec = importlib.util.spec_from_file_location("noxfile", ROOT / "noxfile.py")
    assert spec is not None
    assert spec.loader is not None
    spec.loader.exec_module(importlib.util.module_from_spec(spec))
    return dict(nox.registry.get())


def _call(
    sessions: dict[str, Any], selected: str, tmp: Path | None = None
) -> list[RecordingSession]:
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
        session = RecordingSession(tmp)
        func(session, **kwargs)
        recorded.append(session)
    return recorded


def test_the_default_run_installs_every_extra_once_and_checks_everything(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.chdir(ROOT)
    sessions = _sessions()
    recorded = [s for name in nox.options.sessions for s in _call(sessions, name, tmp_path)]
    installs = [args for session in recorded for args in session.installs]
    assert sum(any(ALL_EXTRAS.search(arg) for arg in args) for args in installs) == 1
    assert all("constraints.txt" in args for args in installs if "ruff" not in args)
    commands = [args[0] for session in recorded for args in session.runs]
    assert commands.count("pytest") == 2  # no extras, every extra
    assert {"ruff", "mypy", "sphinx-build"} <= set(commands)
    examples = {
        args[1]
        for session in recorded
        for args in session.runs
        if args[0] == "python" and args[1].endswith(".py")
    }
    assert examples == {str(path) for path in Path("examples").glob("*.py")} != set()
    assert "package" in nox.options.sessions


def test_nox_s_tests_runs_just_the_tests() -> None:
    sessions = _sessions()
    recorded = _call(sessions, "tests")
    assert [[args[0] for args in session.runs] for session in recorded] == [["pytest"]] * 2


def test_the_package_session_runs_the_quick_start_from_the_wheel_alone(tmp_path: Path) -> None:
    """The sdist, then the wheel from it; both checked by twine; the wheel (the core only,
    with the constraints) in a new virtualenv; the README's quick start run there by that
    virtualenv's Python, isolated (-I), in a folder outside the source tree."""
    [session] = _call(_sessions(), "package", tmp_path)
    assert session.installs == [("-c", "constraints.txt", "build", "twine")]
    dist = (tmp_path / "dist").resolve()
    sdist, wheel = dist / "pycitecheck-0.1.0.tar.gz", dist / "pycitecheck-0.1.0-py3-none-any.whl"
    build, twine, venv, pip, quickstart, hint, version = session.runs
    assert build == ("python", "-m", "build", "--outdir", str(dist))  # the sdist, the wheel from it
    assert twine == ("twine", "check", "--strict", str(sdist), str(wheel))
    assert venv[:3] == ("python", "-m", "venv")
    python = Path(venv[3]) / "bin" / "python"
    assert pip == (str(python), "-m", "pip", "install", "-c", "constraints.txt", str(wheel))
    assert quickstart == (str(python), "-I", "quickstart.py")
    assert hint[:3] == (str(python), "-I", "-c")
    assert "install_hint" in hint[3]
    assert version == (str(Path(venv[3]) / "bin" / "citecheck"), "--version")
    folder = session.folders[4]
    assert folder == session.folders[5] == session.folders[6] != ROOT
    assert not folder.is_relative_to(ROOT)  # outside the source tree
    assert all(f == ROOT for f in session.folders[:4])  # the constraints file found
    assert not Path(venv[3]).exists()  # the virtualenv is thrown away


@pytest.mark.parametrize(
    ("lost", "said"),
    [
        ("judging/weights/support-judge.onnx", "the wheel lacks citecheck/judging/weights"),
        ("exports/report.css", "the wheel lacks citecheck/exports/report.css"),
        ("embedders/minilm-tokenizer.json", "the wheel lacks citecheck/embedders/minilm-"),
    ],
)
def test_a_wheel_without_its_package_data_fails_the_session(
    tmp_path: Path, lost: str, said: str
) -> None:
    session = RecordingSession(tmp_path, _package_files() - {lost})
    with pytest.raises(SessionFailed, match=said):
        _sessions()["package"](session)
    assert [args[0] for args in session.runs] == ["python", "twine"]  # nothing installed
