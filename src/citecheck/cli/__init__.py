"""The ``citecheck`` command line.

``citecheck verify ANSWER SOURCE...`` checks the citations in a text file against source files
(or directories of them). ``citecheck quotes QUOTES SOURCE... -o review.xlsx`` locates every
quote of a file in the sources and writes one row per quote. ``citecheck refs check|coverage|
eval`` checks structured references (``[Bala Kanda 1.1]``): one answer, what a scheme's patterns
read and miss, or a golden dataset. ``citecheck records [INPUT.json] [-o OUTPUT.json]
[--config FILE] [--resume]`` labels the citations of a batch of records; without ``--config``
it reads ``config.json`` beside the input or in the working directory, and without ``-o`` it
writes ``output_validated.json`` beside the input. ``citecheck judges`` lists the judges
``--judge`` takes by name, and ``citecheck mcp`` serves the checks to AI assistants over the
Model Context Protocol.

``verify``, ``quotes``, ``refs check`` and ``refs eval`` write their report in any format
(``--format json|jsonl|csv|xlsx|md|html|junit|text`` or a registered one, to standard output
or ``-o FILE``); ``records`` writes the records with their labels (``-o`` names a .json or
.jsonl file). Every command shares one exit status: 0 when every citation passed, 1 when
some failed, 2 on a usage or input error (a dataset line or record batch that cannot be read at
all), 3 when nothing failed but something could not be checked; ``records`` exits 130 when
interrupted, its finished records kept for ``--resume``.

``--verbose``, before or after the command, lets the libraries citecheck runs show their own
progress bars and logs (:mod:`citecheck._verbosity`: a PyTorch model loading, Ray starting),
with their INFO logs on standard error; without it a command shows one progress bar of its own,
on a terminal, and says which model it loads before the bar starts.

A package with one module per command, each a thin reader of arguments over its door:
``add(commands)`` declares the command's arguments and ``run(args)`` runs it; :data:`COMMANDS`
lists them, and :func:`main` runs the one the arguments name.
"""

from __future__ import annotations

import argparse
import logging
import os
import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager, suppress

from citecheck._verbosity import VERBOSE_VARIABLE, verbose
from citecheck._version import __version__
from citecheck.cli import (
    judges_command,
    mcp_command,
    paper_checks_command,
    papers_command,
    quotes_command,
    records_command,
    refs_command,
    verify_command,
)
from citecheck.cli.common import (
    CLOSED_PIPE,
    EXIT_ERROR,
    EXIT_FAILED,
    EXIT_PASSED,
    EXIT_UNCHECKED,
    INTERRUPTED,
)
from citecheck.errors import CitecheckError

__all__ = ["COMMANDS", "EXIT_ERROR", "EXIT_FAILED", "EXIT_PASSED", "EXIT_UNCHECKED", "main"]


DESCRIPTION = (
    "Check the citations of a text: whether each cited source and place exist, whether a "
    "quoted excerpt stands there, and whether the source supports the claim."
)
"""What ``citecheck --help`` says first."""

COMMANDS = (
    verify_command,
    quotes_command,
    records_command,
    refs_command,
    papers_command,
    paper_checks_command,
    judges_command,
    mcp_command,
)
"""The command modules, in the order ``citecheck --help`` lists them."""


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="citecheck", description=DESCRIPTION)
    parser.add_argument("--version", action="version", version=f"citecheck {__version__}")
    parser.add_argument(
        "--verbose",
        action="store_true",
        help="let the libraries citecheck runs show their own progress bars and logs (a "
        "PyTorch model loading, Ray starting), quiet otherwise; also after the command",
    )
    commands = parser.add_subparsers(dest="command", required=True)
    for command in COMMANDS:
        command.add(commands)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status.

    A reader that stops early (``citecheck verify … | head``) ends the command quietly, with
    the status a shell gives a command that a closed pipe stopped (141), not a traceback."""
    try:
        status = _run(argv)
        sys.stdout.flush()  # inside the try: a closed pipe shows here, not at interpreter exit
    except BrokenPipeError:
        _drop_stdout()
        return CLOSED_PIPE
    except (CitecheckError, OSError, UnicodeError) as exc:  # what a command let through
        print(f"citecheck: error: {exc}", file=sys.stderr)
        return 2
    except RecursionError:
        print("citecheck: error: the input is nested too deeply to read", file=sys.stderr)
        return 2
    except KeyboardInterrupt:  # every file citecheck writes is written whole or not at all
        print("citecheck: interrupted", file=sys.stderr)
        return INTERRUPTED
    return status


def _drop_stdout() -> None:
    """Point stdout at the null device, so that the interpreter's last flush of what is still
    buffered does not meet the closed pipe again (the recipe of Python's ``signal`` docs)."""
    with suppress(OSError, ValueError):  # stdout is no file (captured in a test): no flush
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)


def _run(argv: Sequence[str] | None) -> int:
    parser = _parser()
    args, unknown = parser.parse_known_args(argv)  # --verbose after the command comes back here
    stray = [word for word in unknown if word != "--verbose"]
    if stray:
        parser.error(f"unrecognized arguments: {' '.join(stray)}")
    with _verbosity(args.verbose or len(stray) < len(unknown) or verbose()):
        status: int = args.run(args)
    return status


@contextmanager
def _verbosity(on: bool) -> Iterator[None]:
    """With ``--verbose`` (or ``CITECHECK_VERBOSE``) for the run: the variable set, so that the
    libraries' own bars and logs come through (in Ray's workers too), and log records from INFO
    up written to standard error; both as they were after the run."""
    if not on:
        yield
        return
    root = logging.getLogger()
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(logging.Formatter("%(name)s: %(levelname)s: %(message)s"))
    level, before = root.level, os.environ.get(VERBOSE_VARIABLE)
    os.environ[VERBOSE_VARIABLE] = "1"
    root.addHandler(handler)
    root.setLevel(min(level or logging.INFO, logging.INFO))
    try:
        yield
    finally:
        root.removeHandler(handler)
        root.setLevel(level)
        if before is None:
            os.environ.pop(VERBOSE_VARIABLE, None)
        else:
            os.environ[VERBOSE_VARIABLE] = before
