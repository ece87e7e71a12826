"""The ``citecheck`` command line.

``citecheck verify ANSWER SOURCE...`` checks the citations in a text file against source files
(or directories of them) and exits 0 when the report passes, 1 when it does not, 2 on bad input.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from citecheck import __version__
from citecheck.documents.files import load_paths
from citecheck.errors import CitecheckError
from citecheck.verifier import Verifier


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="citecheck", description=__doc__.splitlines()[0])
    parser.add_argument("--version", action="version", version=f"citecheck {__version__}")
    commands = parser.add_subparsers(dest="command", required=True)
    verify = commands.add_parser(
        "verify",
        help="check the citations in a text against source files",
        description="Check every citation in ANSWER against the SOURCE files. A source's id is its "
        "file name without extension (ctx-1.md is cited as [[ctx-1]]).",
    )
    verify.add_argument("answer", type=Path, help="the text with citations ('-' reads stdin)")
    verify.add_argument("sources", type=Path, nargs="+", help="source files or directories")
    verify.add_argument("--json", action="store_true", help="print the full report as JSON")
    verify.add_argument("--syntax", default="auto", help="tip, pandoc, numeric or auto (default)")
    verify.add_argument("--threshold", type=float, default=0.8, help="fuzzy similarity (0.8)")
    verify.add_argument("--exact-only", action="store_true", help="no fuzzy matching")
    verify.add_argument(
        "--require-citations", action="store_true", help="fail a text that cites nothing"
    )
    verify.add_argument(
        "--accept",
        default="verified",
        help="comma-separated statuses that pass (default: verified)",
    )
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    args = _parser().parse_args(argv)
    try:
        text = (
            sys.stdin.read() if str(args.answer) == "-" else args.answer.read_text(encoding="utf-8")
        )
        verifier = Verifier(
            ("exact",) if args.exact_only else ("exact", "fuzzy"),
            syntax=args.syntax,
            threshold=args.threshold,
            accept=[s.strip() for s in args.accept.split(",") if s.strip()],
            require_citations=args.require_citations,
        )
        report = verifier.verify(text, load_paths(args.sources))
    except (CitecheckError, OSError, UnicodeDecodeError) as exc:
        print(f"citecheck: error: {exc}", file=sys.stderr)
        return 2
    print(report.to_json() if args.json else report.to_text())
    return 0 if report.passed else 1


if __name__ == "__main__":
    sys.exit(main())
