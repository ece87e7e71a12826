"""``citecheck quotes QUOTES SOURCE... -o FILE``: every quote of a file located in source files
through the quotes door (:class:`~citecheck.quotes.QuoteLocator`), one row per quote."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from citecheck import registry
from citecheck.cli.common import (
    EXIT_ERROR,
    STATUSES,
    announce,
    emit,
    exit_status,
    output_options,
    progress_bar,
    warn,
)
from citecheck.documents.files import load_paths
from citecheck.embedders.sentence_transformers import DEFAULT_MODEL
from citecheck.errors import CitecheckError

__all__ = ["add", "run"]


def add(commands: Any) -> None:
    """The ``quotes`` command's arguments."""
    quotes = commands.add_parser(
        "quotes",
        help="locate extracted quotes in source files, with metrics",
        description="Locate every quote of QUOTES (.txt: one per line; .json / .jsonl: strings or "
        "objects with a 'quote' field; .csv: a 'quote' column) in the SOURCE files and write one "
        "row per quote.",
    )
    quotes.add_argument("quotes", type=Path, help="the file of quotes")
    quotes.add_argument("sources", type=Path, nargs="+", help="source files or directories")
    output_options(quotes, required=True)
    quotes.add_argument("--stats", type=Path, help="also write the statistics as a melted CSV")
    quotes.add_argument(
        "--config",
        type=Path,
        help="options from a .toml, .yaml or .json file (a VerifyQuotes node's YAML as it is)",
    )
    quotes.add_argument(
        "--embedder",
        metavar="MODEL",
        help=f"fill cosine_similarity with a sentence-transformers model, such as {DEFAULT_MODEL} "
        "(the embeddings extra); overrides embedding_model of the config",
    )
    quotes.add_argument(
        "--methods",
        type=Path,
        help="also write the methods and validation paragraphs of this run (Markdown text)",
    )
    quotes.add_argument(
        "--no-progress", action="store_true", help="no progress bar, even on a terminal"
    )
    quotes.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Locate the quotes; the rows where ``-o`` says, a summary line, the exit status."""
    from citecheck._atomic import write_text_atomic
    from citecheck.embedders.named import loaded
    from citecheck.exports import check_target, format_for
    from citecheck.quotes import QuoteConfig
    from citecheck.quotes.inputs import Unreadable, read_quotes
    from citecheck.quotes.locator import embedder_for

    warnings: list[str] = []
    try:
        format_for(args.output, "json" if args.json and args.format is None else args.format)
        check_target(args.output)
        config = QuoteConfig.from_file(args.config) if args.config else QuoteConfig()
        if args.embedder is not None:
            config = QuoteConfig.from_mapping(
                {**config.to_dict(), "embedding_model": args.embedder}
            )
        embedder = embedder_for(config)
        if embedder is not None:  # loaded now: a model that cannot load stops the run at once
            announce(f"loading the embedding model {config.embedding_model} ...", args.no_progress)
            loaded(embedder)
        quotes = read_quotes(args.quotes)
        sources = load_paths(args.sources)
        warnings.extend(sources.warnings)
        with progress_bar(len(quotes), "quotes", args.no_progress) as progress:
            door = registry.create("doors", "quotes", config=config, embedder=embedder)
            report = door.run(quotes, sources.documents, progress, warnings)
        emit(report, args, say=False)  # its own line below says what it wrote
        if args.stats:
            report.stats_to_csv(args.stats)
        if args.methods:
            write_text_atomic(args.methods, report.methods_text() + "\n")
    except (CitecheckError, OSError) as exc:
        print(f"citecheck: error: {exc}", file=sys.stderr)
        return 2
    warn(report.warnings)
    stats = report.stats()
    counts = ", ".join(
        f"{stats[key]} {key[2:]}"
        for key in stats
        if key.startswith("n_") and key[2:] in STATUSES and stats[key]
    )
    plural = "" if stats["n_quotes"] == 1 else "s"
    print(f"{stats['n_quotes']} quote{plural}: {counts}; rows written to {args.output}")
    unreadable = [q for q in quotes if isinstance(q, Unreadable)]
    for row in unreadable:  # each was checked as nothing: the run went on without it
        print(f"citecheck: error: {row.reason}", file=sys.stderr)
    return EXIT_ERROR if unreadable else exit_status(report)
