"""``citecheck mcp [--root DIR ...] [--library DIR]``: citecheck's checks served to AI assistants
over the Model Context Protocol, on standard input and output
(:mod:`citecheck.integrations.mcp_server`, the ``mcp`` extra)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from citecheck.cli.common import EXIT_ERROR, EXIT_PASSED, embedder_option
from citecheck.errors import CitecheckError

__all__ = ["add", "run"]


def add(commands: Any) -> None:
    """The ``mcp`` command's arguments."""
    mcp = commands.add_parser(
        "mcp",
        help="serve citecheck's checks to AI assistants over MCP (stdio)",
        description="Run a Model Context Protocol server on standard input and output: an MCP "
        "client (Claude Desktop, Claude Code, an agent) starts it and calls its tools "
        "(verify_answer, verify_quotes, verify_references, verify_records, verify_api_citations, "
        "papers_list, papers_search, "
        "papers_cite, papers_validate, papers_validate_doc, papers_add). Every path a tool is "
        "given must lie inside a --root folder. Needs the mcp extra.",
    )
    mcp.add_argument(
        "--root",
        type=Path,
        action="append",
        metavar="DIR",
        help="a folder the tools may read and write in (again for more; default: the current "
        "folder); a path outside every root is refused",
    )
    mcp.add_argument(
        "--library",
        type=Path,
        metavar="DIR",
        help="the paper library the papers_* tools use when a call names none (it counts as a "
        "root; papers_add creates it)",
    )
    embedder_option(mcp)
    mcp.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Serve until the client closes the connection; 2 when the server cannot start (the
    extra missing, a root that is no folder)."""
    try:
        from citecheck.integrations.mcp_server import run as serve

        serve(args.root or [Path.cwd()], args.library, embedder=args.embedder)
    except CitecheckError as exc:
        print(f"citecheck: error: {exc}", file=sys.stderr)
        return EXIT_ERROR
    return EXIT_PASSED
