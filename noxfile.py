"""Sessions: tests (no extras, then all extras), all-extras, lint, typing, examples, docs.

Run everything with ``nox``; one session with ``nox -s lint``. Installs go through
``constraints.txt`` so that torch, when an extra needs it, is the local CPU build.

The environment with every extra is several GB (torch among them), so the default run installs
it once: the ``all-extras`` session runs the tests with every extra, mypy and the examples in
it, each of them even when one before it failed (the session then fails, naming them).
``tests``, ``typing`` and ``examples`` stay for running one of those alone.
"""

from __future__ import annotations

from pathlib import Path

import nox
from nox.command import CommandFailed

nox.options.default_venv_backend = "virtualenv"
nox.options.sessions = ["lint", "tests(extras='none')", "all-extras", "docs"]
nox.options.error_on_missing_interpreters = True

CONSTRAINTS = ("-c", "constraints.txt")


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
def docs(session: nox.Session) -> None:
    """Build the HTML docs; any warning is an error."""
    session.install(*CONSTRAINTS, ".[docs]")
    session.run("sphinx-build", "-W", "--keep-going", "-b", "html", "docs", "docs/_build/html")
