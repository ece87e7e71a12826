"""``citecheck papers add|list|reindex|repair``: a library of papers with printed page numbers,
kept on disk."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from citecheck.cli.common import EXIT_ERROR, EXIT_PASSED, embedder_option, open_library, warn
from citecheck.errors import CitecheckError

if TYPE_CHECKING:
    from citecheck.papers.values import Reindex

__all__ = ["add", "reindexed", "run"]


def add(commands: Any) -> None:
    """The ``papers`` commands' arguments."""
    papers = commands.add_parser(
        "papers",
        help="a library of papers with printed page numbers, kept on disk",
        description="Add papers (PDF, Markdown or text with [PAGE:N] markers or form feeds, "
        "docling JSON) and bibliographies (BibTeX .bib, CSL .json) to a library folder, list "
        "what it holds, rebuild its index, or repair a lost manifest. A failed change leaves "
        "the library as it was.",
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
    reindex = papers.add_parser(
        "reindex",
        help="rebuild a library's index (chunks, word index, vectors) from the files it holds",
        description="Cut every paper's stored text into chunks again, embed them again, build "
        "the word (BM25) index from them, and write the FAISS file when the library keeps one, "
        "all in one atomic commit: a reindex that fails or is killed leaves the library as it "
        "was. --with-pages reads each paper's page numbers again: from the file it was added "
        "from when that file is still there (so [PAGE:N] markers written into it since are "
        "taken; a changed file replaces the paper's text, as adding it again would), else from "
        "the [PAGE:N] markers or form feeds of its stored text.",
    )
    reindex.add_argument("--library", type=Path, required=True, metavar="DIR", help="the library")
    reindex.add_argument(
        "--with-pages",
        action="store_true",
        help="read each paper's page numbers again (from its file, else its stored text)",
    )
    reindex.add_argument(
        "--faiss",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="keep a FAISS index file of the vectors beside the .npy files, written now and "
        "at every later change and searched when present (--no-faiss: drop it; default: as "
        "the library has it; the faiss extra)",
    )
    embedder_option(reindex)


def run(args: argparse.Namespace) -> int:
    """``papers add``: each file and bibliography added in turn, a failure said and the rest
    still added (exit 2 when one failed); ``papers list``: key, format, pages, title;
    ``papers reindex``: the index rebuilt, and what was done said (:meth:`PaperLibrary.reindex`);
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
    library = open_library(args, existing=args.papers_command in ("list", "reindex"))
    if args.papers_command == "reindex":
        done = library.reindex(with_pages=args.with_pages, faiss=args.faiss)
        for line in reindexed(args.library, done):
            print(line)
        warn(done.warnings)
        return EXIT_PASSED
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


def reindexed(library: Path, done: Reindex) -> list[str]:
    """What ``papers reindex`` says it did, one line each."""
    papers = "paper" if len(done.keys) == 1 else "papers"
    vectors = (
        f"their vectors made by {done.vectors_by}"
        if done.vectors_by
        else "no vectors (no embedder: they are made when the library is opened with one)"
    )
    words = (
        f"a word index of {done.words} chunks"
        if done.words
        else "no word index (the bm25 extra is not installed)"
    )
    lines = [
        f"{library}: {len(done.keys)} {papers} reindexed: {done.chunks} chunks, {vectors}, {words}"
    ]
    lines.append(f"  FAISS file: {done.faiss}" if done.faiss else "  no FAISS file")
    replaced = set(done.replaced)
    for key, where in done.pages:
        changed = (
            " (the file changed since it was added: its text was read again)"
            if key in replaced
            else ""
        )
        lines.append(f"  {key}: pages read again from {where}{changed}")
    if done.skipped:
        lines.append(f"  left as they are (no text): {', '.join(done.skipped)}")
    return lines
