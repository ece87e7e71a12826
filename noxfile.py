"""Sessions: tests (no extras, then all extras), all-extras, lint, typing, examples, docs, package.

Run everything with ``nox``; one session with ``nox -s lint``. Installs go through
``constraints.txt`` so that torch, when an extra needs it, is the local CPU build.

The environment with every extra is several GB (torch among them), so the default run installs
it once: the ``all-extras`` session runs the tests with every extra, mypy and the examples in
it, each of them even when one before it failed (the session then fails, naming them).
``tests``, ``typing`` and ``examples`` stay for running one of those alone.

``package`` checks what a user installs: the sdist and the wheel built from it, their metadata
(``twine check``) and contents (every file of ``src/citecheck``, the judge's weights among
them), and the README's quick start run from the wheel alone, in a new virtualenv, outside the
source tree.
"""

from __future__ import annotations

import os
import shutil
import tarfile
import tempfile
import zipfile
from pathlib import Path

import nox
from nox.command import CommandFailed

nox.options.default_venv_backend = "virtualenv"
nox.options.sessions = ["lint", "package", "tests(extras='none')", "all-extras", "docs"]
nox.options.error_on_missing_interpreters = True

ROOT = Path(__file__).parent
CONSTRAINTS = ("-c", "constraints.txt")
PACKAGE = ROOT / "src" / "citecheck"
SDIST_FILES = ("pyproject.toml", "README.md", "LICENSE", "PKG-INFO")
"""What a build from the sdist needs beside the package (PKG-INFO: the metadata it carries)."""
PACKAGE_DATA = (
    "judging/weights/support-judge.onnx",
    "judging/weights/support-judge.json",
    "embedders/minilm-tokenizer.json",
    "embedders/weights/minilm-l6-rows.onnx",
    "embedders/weights/u8s8-probe.onnx",
    "exports/report.css",
    "exports/report.js",
    "py.typed",
)
"""The package's files that are not Python, named: a checkout that lacks one fails, as a wheel
that lacks any file of the package does."""
QUICKSTART = ("quickstart.py", "answer.md", "corpus")
"""What ``examples/quickstart.py``, the README's quick start, reads beside itself."""
HINT_CHECK = """\
import citecheck, citecheck.errors, pathlib, sys
installed = pathlib.Path(citecheck.__file__).resolve()
assert installed.is_relative_to(pathlib.Path(sys.prefix).resolve()), installed
hint = citecheck.errors.install_hint("embeddings")
assert hint.startswith('pip install "pycitecheck[embeddings]"'), hint
assert "download.pytorch.org/whl/cpu" in hint, hint
print("citecheck from", installed.parent, "; a missing extra says:", hint)
"""
"""Run by the installed wheel's Python: citecheck is the installed copy, and the command a
missing extra names is the package index's, with PyTorch kept to its CPU build."""


def _pytest(session: nox.Session) -> None:
    session.run("pytest", *session.posargs)


def _mypy(session: nox.Session) -> None:
    session.run("mypy", "--strict", "src/citecheck")


def _examples(session: nox.Session) -> None:
    for script in sorted(Path("examples").glob("*.py")):
        session.run("python", str(script))


@nox.session
@nox.parametrize("extras", ["none", "all"])
def tests(session: nox.Session, extras: str) -> None:
    """The test suite: once with the core only (optional tests skip), once with every extra."""
    target = ".[test]" if extras == "none" else ".[test,all,train,integration-tests]"
    session.install(*CONSTRAINTS, target)
    _pytest(session)


@nox.session(name="all-extras")
def all_extras(session: nox.Session) -> None:
    """With every extra, installed once: the test suite, mypy --strict and the examples."""
    session.install(*CONSTRAINTS, "mypy", ".[test,all,train,integration-tests]")
    failed = []
    for name, step in (("pytest", _pytest), ("mypy", _mypy), ("examples", _examples)):
        try:
            step(session)
        except CommandFailed:
            failed.append(name)  # the next steps still run: one failure hides none of theirs
    if failed:
        session.error(f"failed: {', '.join(failed)}")


@nox.session
def lint(session: nox.Session) -> None:
    """ruff check and ruff format --check."""
    session.install("ruff")
    session.run("ruff", "check", ".")
    session.run("ruff", "format", "--check", ".")


@nox.session
def typing(session: nox.Session) -> None:
    """mypy --strict over the package."""
    session.install(*CONSTRAINTS, "mypy", ".[all,test]")
    _mypy(session)


@nox.session
def examples(session: nox.Session) -> None:
    """Every script in examples/ runs to completion (with every extra installed)."""
    session.install(*CONSTRAINTS, ".[all]")
    _examples(session)


@nox.session
def package(session: nox.Session) -> None:
    """The distributions as a user gets them: the sdist, and the wheel built from it (which
    shows the sdist holds what a build needs); their metadata (twine) and contents; the wheel
    installed alone in a new virtualenv, the README's quick start run from it in a folder
    outside the source tree, and the command a missing extra names there."""
    session.install(*CONSTRAINTS, "build", "twine")
    dist = Path(session.create_tmp()).resolve() / "dist"
    shutil.rmtree(dist, ignore_errors=True)
    # the sdist, then the wheel built from it: the wheel shows the sdist holds what a build needs
    session.run("python", "-m", "build", "--outdir", str(dist))
    sdist, wheel = _dists(session, dist)
    session.run("twine", "check", "--strict", str(sdist), str(wheel))
    _check_contents(session, sdist, wheel)
    with tempfile.TemporaryDirectory(prefix="citecheck-package-") as outside:
        venv, quickstart = Path(outside) / "venv", Path(outside) / "quickstart"
        session.run("python", "-m", "venv", str(venv))
        python = str(_bin(venv, "python"))
        # the core only, as the quick start's first command installs it: no extra, no PyTorch
        session.run(python, "-m", "pip", "install", *CONSTRAINTS, str(wheel), external=True)
        quickstart.mkdir()
        for name in QUICKSTART:
            source = ROOT / "examples" / name
            if source.is_dir():
                shutil.copytree(source, quickstart / name)
            else:
                shutil.copy2(source, quickstart / name)
        with session.chdir(quickstart):  # -I: neither this folder nor PYTHONPATH is on sys.path
            session.run(python, "-I", "quickstart.py", external=True)
            session.run(python, "-I", "-c", HINT_CHECK, external=True)
            session.run(str(_bin(venv, "citecheck")), "--version", external=True)


def _bin(venv: Path, name: str) -> Path:
    """A program of the virtualenv ``venv``."""
    return venv / ("Scripts" if os.name == "nt" else "bin") / name


def _dists(session: nox.Session, dist: Path) -> tuple[Path, Path]:
    """The one sdist and the one wheel the build wrote to ``dist``."""
    sdists, wheels = sorted(dist.glob("*.tar.gz")), sorted(dist.glob("*.whl"))
    if len(sdists) != 1 or len(wheels) != 1:
        session.error(
            f"the build should write one sdist and one wheel; {dist} holds {sdists + wheels}"
        )
    return sdists[0], wheels[0]


def _check_contents(session: nox.Session, sdist: Path, wheel: Path) -> None:
    """Every file of ``src/citecheck`` is in the sdist and the wheel (the package data too),
    and the sdist holds what a build from it needs."""
    package = {
        path.relative_to(PACKAGE).as_posix()
        for path in PACKAGE.rglob("*")
        if path.is_file() and "__pycache__" not in path.parts
    }
    with zipfile.ZipFile(wheel) as archive:
        in_wheel = {
            n.removeprefix("citecheck/") for n in archive.namelist() if n.startswith("citecheck/")
        }
    with tarfile.open(sdist) as archive:
        root = sdist.name.removesuffix(".tar.gz")
        in_sdist = {n.removeprefix(f"{root}/") for n in archive.getnames()}
    missing = [f"the wheel lacks citecheck/{name}" for name in sorted(package - in_wheel)]
    missing += [
        f"the sdist lacks src/citecheck/{n}"
        for n in sorted(package)
        if f"src/citecheck/{n}" not in in_sdist
    ]
    missing += [f"the sdist lacks {name}" for name in SDIST_FILES if name not in in_sdist]
    missing += [
        f"the source tree lacks src/citecheck/{name}"
        for name in PACKAGE_DATA
        if name not in package
    ]
    if missing:
        session.error("; ".join(missing))


@nox.session
def docs(session: nox.Session) -> None:
    """Build the HTML docs; any warning is an error."""
    session.install(*CONSTRAINTS, ".[docs]")
    session.run("sphinx-build", "-W", "--keep-going", "-b", "html", "docs", "docs/_build/html")
