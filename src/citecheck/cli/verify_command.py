"""``citecheck verify ANSWER SOURCE...``: the citations of a text checked against source files
through the markers door (:class:`~citecheck.Verifier`)."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from citecheck import registry
from citecheck.cli.common import (
    EXIT_ERROR,
    embedder_option,
    emit,
    exit_status,
    judge_option,
    make_embedder,
    make_judge,
    output_options,
    progress_bar,
    read_text,
    warn,
)
from citecheck.documents import Document
from citecheck.documents.files import load_paths
from citecheck.errors import CitecheckError
from citecheck.thresholds import WORDS_VERIFIED

__all__ = ["add", "run"]


def add(commands: Any) -> None:
    """The ``verify`` command's arguments."""
    verify = commands.add_parser(
        "verify",
        help="check the citations in a text against source files",
        description="Check every citation in ANSWER against the SOURCE files. A source's id is its "
        "file name without extension (ctx-1.md is cited as [[ctx-1]]).",
    )
    verify.add_argument("answer", type=Path, help="the text with citations ('-' reads stdin)")
    verify.add_argument("sources", type=Path, nargs="+", help="source files or directories")
    output_options(verify)
    verify.add_argument(
        "--syntax", default="auto", help="tip, pandoc, numeric, author_year or auto (default)"
    )
    verify.add_argument(
        "--protocol",
        choices=("citecheck", "tip"),
        default="citecheck",
        help="whose rules: citecheck's (default) or the TIP protocol's (its 80 %% word overlap, "
        "a page past the end of a text fails, and its output shape unless --format says "
        "another)",
    )
    verify.add_argument(
        "--bib",
        type=Path,
        metavar="FILE",
        help="a bibliography (.bib BibTeX, or CSL .json) for author-year citations and keys",
    )
    verify.add_argument(
        "--map-numbers",
        metavar="N=FILE,...",
        help="which source each number [n] cites, e.g. 1=smith.pdf,2=lee.md (default: the "
        "text's reference list, else the order of the sources, with a warning)",
    )
    verify.add_argument(
        "--threshold", type=float, default=WORDS_VERIFIED, help="fuzzy similarity (0.8)"
    )
    verify.add_argument("--exact-only", action="store_true", help="no fuzzy matching")
    verify.add_argument(
        "--matchers",
        help="comma-separated matchers, cheap first (default exact,fuzzy; exact,overlap with "
        "--protocol tip, 'overlap' being the TIP protocol's 80 %% word overlap)",
    )
    verify.add_argument(
        "--lines-per-page",
        type=int,
        default=50,
        metavar="N",
        help="read a page of a source without page numbers as N lines (default 50, as the TIP "
        "protocol does; 0 leaves such a page unchecked)",
    )
    verify.add_argument(
        "--require-citations", action="store_true", help="fail a text that cites nothing"
    )
    embedder_option(verify, default="none")
    judge_option(verify)
    verify.add_argument(
        "--accept",
        default="verified",
        help="comma-separated statuses that pass (default: verified)",
    )
    verify.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Check the answer; the report where the options say, the exit status of the report."""
    try:
        text = read_text(args.answer)
        documents = load_paths(args.sources)
        matchers = (
            [name.strip() for name in args.matchers.split(",") if name.strip()]
            if args.matchers
            else ["exact"]
            if args.exact_only
            else None  # the protocol's own
        )
        verifier = registry.create(
            "doors",
            "markers",
            matchers=matchers,
            protocol=args.protocol,
            lines_per_page=args.lines_per_page or None,
            syntax=args.syntax,
            threshold=args.threshold,
            accept=_accepted(args.accept),
            require_citations=args.require_citations,
            numeric_sources=(
                _numbers(args.map_numbers, documents.documents) if args.map_numbers else None
            ),
            bibliography=args.bib,
            embedder=make_embedder(args.embedder, args),
            judge=make_judge(args.judge),
        )
        warn(documents.warnings)
        with progress_bar(None, "citations", False) as progress:
            report = verifier.verify(text, documents, progress=progress)
        if args.protocol == "tip" and args.format is None and not args.json:
            args.format = "tip"  # the protocol's own shape, unless another is asked for
        emit(report, args)
    except BrokenPipeError:  # the reader of the report left: main ends quietly
        raise
    except (CitecheckError, OSError, UnicodeError) as exc:
        print(f"citecheck: error: {exc}", file=sys.stderr)
        return EXIT_ERROR
    return exit_status(report)


def _accepted(spec: str) -> list[str]:
    """``--accept verified,partial``: the statuses that pass. None at all would fail every
    citation, verified ones too: that is a mistake in the option, said as one."""
    statuses = [s.strip() for s in spec.split(",") if s.strip()]
    if not statuses:
        raise CitecheckError("--accept names no status: give at least one, such as verified")
    return statuses


def _numbers(spec: str, documents: Sequence[Document]) -> dict[str, str]:
    """``--map-numbers 1=smith.pdf,2=lee``: number → source id; a source is named by its file
    name or its id (the file name without the extension)."""
    by_name = {d.id: d.id for d in documents}
    by_name.update(
        {Path(str(d.metadata["path"])).name: d.id for d in documents if "path" in d.metadata}
    )
    numbers = {}
    for item in (part.strip() for part in spec.split(",") if part.strip()):
        number, equals, name = (piece.strip() for piece in item.partition("="))
        if not equals or not number.isdigit() or not name:
            raise CitecheckError(f"--map-numbers: {item!r} is not NUMBER=FILE (1=smith.pdf)")
        if name not in by_name:
            known = ", ".join(sorted(by_name))
            raise CitecheckError(f"--map-numbers: {name!r} is not one of the sources ({known})")
        numbers[number] = by_name[name]
    return numbers
