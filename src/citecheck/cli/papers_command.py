"""``citecheck papers add|list|repair``: a library of papers with printed page numbers, kept
on disk."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from citecheck.cli.common import EXIT_ERROR, EXIT_PASSED, embedder_option, open_library, warn
from citecheck.errors import CitecheckError

__all__ = ["add", "run"]


def add(commands: Any) -> None:
    """The ``papers`` commands' arguments."""
    papers = commands.add_parser(
        "papers",
        help="a library of papers with printed page numbers, kept on disk",
        description="Add papers (PDF, Markdown or text with [PAGE:N] markers or form feeds, "
        "docling JSON) and bibliographies (BibTeX .bib, CSL .json) to a library folder, or list "
        "what it holds. A failed add leaves the library as it was.",
    )
    papers.set_defaults(run=run)
    papers = papers.add_subparsers(dest="papers_command", required=True)
    add = papers.add_parser("add", help="add papers and bibliographies to a library")
    add.add_argument("files", type=Path, nargs="*", help="the papers")
    add.add_argument("--library", type=Path, required=True, metavar="DIR", help="the library")
    add.add_argument(
        "--key",
        help="the key of the one paper given (default: its bibliography "
        "entry's key, else its file name without the extension)",
    )
    add.add_argument(
        "--bib",
        "--csl",
        type=Path,
        action="append",
        default=[],
        metavar="FILE",
        help="a BibTeX (.bib) or CSL JSON (.json) bibliography; its entries' file "
        "fields are added too",
    )
    embedder_option(add)
    listing = papers.add_parser("list", help="the papers of a library, with their pages")
    listing.add_argument("--library", type=Path, required=True, metavar="DIR", help="the library")
    repair = papers.add_parser(
        "repair",
        help="rebuild a library's lost or unreadable manifest.json",
        description="Rebuild manifest.json from its copy (manifest.copy.json) when every file "
        "the copy lists is intact, else from the paper files in papers/ (keys, text, pages and "
        "chunks; titles and bibliography entries are lost, vectors are made again). Nothing "
        "is deleted; an unreadable manifest is kept as manifest.json.damaged.",
    )
    repair.add_argument("--library", type=Path, required=True, metavar="DIR", help="the library")


def run(args: argparse.Namespace) -> int:
    """``papers add``: each file and bibliography added in turn, a failure said and the rest
    still added (exit 2 when one failed); ``papers list``: key, format, pages, title;
    ``papers repair``: a lost manifest rebuilt (:meth:`PaperLibrary.repair`)."""
    if args.papers_command == "repair":
        from citecheck.papers import PaperLibrary

        repaired = PaperLibrary.repair(args.library)
        said = {
            "intact": "manifest.json reads: nothing to repair",
            "copy": "manifest.json restored from manifest.copy.json",
            "files": "manifest.json rebuilt from the paper files (titles and bibliography "
            "entries are lost; vectors are made again on first use)",
        }[repaired.how]
        print(f"{args.library}: {said}; {len(repaired.keys)} papers: {', '.join(repaired.keys)}")
        for name in repaired.skipped:
            print(f"  not used (incomplete, unreadable or older): {name}", file=sys.stderr)
        return EXIT_PASSED
    library = open_library(args, existing=args.papers_command == "list")
    if args.papers_command == "list":
        for key in library:
            meta = library.metadata(key)
            labels = meta.page_labels
            pages = f"pp. {labels[0]}-{labels[-1]}" if labels else "no pages"
            print(f"{key}\t{meta.format}\t{pages}\t{meta.title or ''}")
        return EXIT_PASSED
    if args.key is not None and len(args.files) != 1:
        raise CitecheckError("--key names one paper: give exactly one file with it")
    failed = False
    for bib in args.bib:
        try:
            imported = library.add_bibliography(bib)
        except (CitecheckError, OSError) as exc:
            print(f"citecheck: error: {exc}", file=sys.stderr)
            failed = True
            continue
        warn(imported.warnings)
        print(f"{bib}: {len(imported.keys)} entries, {len(imported.added)} papers read")
    for file in args.files:
        try:
            key = library.add(file, args.key)
        except (CitecheckError, OSError) as exc:
            print(f"citecheck: error: {exc}", file=sys.stderr)
            failed = True
            continue
        print(f"{file}: {key}, {len(library.pages(key))} pages")
    return EXIT_ERROR if failed else EXIT_PASSED
