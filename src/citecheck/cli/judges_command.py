"""``citecheck judges [NAME]``: the judges of support known by name, or everything one of them
is (:mod:`citecheck.judging.known`): what ``--judge NAME`` takes."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from citecheck.cli.common import EXIT_ERROR, EXIT_PASSED
from citecheck.errors import CitecheckError

__all__ = ["add", "run"]


def add(commands: Any) -> None:
    """The ``judges`` command's arguments."""
    judges = commands.add_parser(
        "judges",
        help="list the judges of support --judge takes by name",
        description="List the judges citecheck knows by name (MiniCheck, FactCG, HHEM, NLI "
        "cross-encoders, LLMs behind an OpenAI-compatible endpoint or Ollama): the accuracy "
        "each publishes, what it costs on a CPU and the extra it needs; with NAME, how it "
        "reads a pair (input order, chunking, labels). Nothing is loaded.",
    )
    judges.add_argument("name", nargs="?", help="one judge, such as hhem-2.1-open or nli:MODEL")
    judges.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Print the table, or one judge's description."""
    from citecheck.judging.known import describe

    try:
        print(describe(args.name))
    except CitecheckError as exc:
        print(f"citecheck: error: {exc}", file=sys.stderr)
        return EXIT_ERROR
    return EXIT_PASSED
