"""Sessions: tests (no extras, then all extras), lint, typing, examples, docs.

Run everything with ``nox``; one session with ``nox -s lint``. Installs go through
``constraints.txt`` so that torch, when an extra needs it, is the local CPU build.
"""

from __future__ import annotations

from pathlib import Path

import nox

nox.options.default_venv_backend = "virtualenv"
nox.options.sessions = ["lint", "typing", "tests", "examples", "docs"]
nox.options.error_on_missing_interpreters = True

CONSTRAINTS = ("-c", "constraints.txt")


@nox.session
@nox.parametrize("extras", ["none", "all"])
def tests(session: nox.Session, extras: str) -> None:
    """The test suite: once with the core only (optional tests skip), once with every extra."""
    target = ".[test]" if extras == "none" else ".[test,all]"
    session.install(*CONSTRAINTS, target)
    session.run("pytest", *session.posargs)


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
    session.run("mypy", "--strict", "src/citecheck")


@nox.session
def examples(session: nox.Session) -> None:
    """Every script in examples/ runs to completion (with every extra installed)."""
    session.install(*CONSTRAINTS, ".[all]")
    for script in sorted(Path("examples").glob("*.py")):
        session.run("python", str(script))


@nox.session
def docs(session: nox.Session) -> None:
    """Build the HTML docs; any warning is an error."""
    session.install(*CONSTRAINTS, ".[docs]")
    session.run("sphinx-build", "-W", "--keep-going", "-b", "html", "docs", "docs/_build/html")
