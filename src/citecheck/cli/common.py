"""What the commands share: the report options (``--format``, ``-o``, ``--json``) and how a
report is written, the one exit status, reading a text or standard input, warnings, the
progress bar and what loads before it, and a paper library opened with the ``--embedder``
asked for."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

from citecheck import registry
from citecheck._verbosity import verbose
from citecheck.documents.files import decode_text
from citecheck.errors import CitecheckError

if TYPE_CHECKING:
    from citecheck.report import Report

__all__ = [
    "CLOSED_PIPE",
    "EXIT_ERROR",
    "EXIT_FAILED",
    "EXIT_PASSED",
    "EXIT_UNCHECKED",
    "INTERRUPTED",
    "STATUSES",
    "announce",
    "cache_dir",
    "cache_options",
    "embedder_option",
    "emit",
    "exit_status",
    "judge_option",
    "make_embedder",
    "make_judge",
    "open_library",
    "output_options",
    "progress_bar",
    "read_text",
    "warn",
]

EXIT_PASSED, EXIT_FAILED, EXIT_ERROR, EXIT_UNCHECKED = 0, 1, 2, 3
"""The exit statuses every command shares."""

CLOSED_PIPE = 141
"""128 + SIGPIPE: what a shell reports for a command whose reader went away."""

INTERRUPTED = 130
"""128 + SIGINT: what a shell reports for a command stopped by Ctrl-C."""

STATUSES = {"verified", "partial", "wrong_location", "unsupported", "not_found", "unchecked"}


def output_options(command: argparse.ArgumentParser, *, required: bool = False) -> None:
    """``--format`` and ``-o``: a report in any format, to a file or standard output."""
    command.add_argument(
        "--format",
        choices=registry.available("formats"),
        help="the report's format (default: from the -o file's suffix; text on a terminal)",
    )
    command.add_argument(
        "-o",
        "--output",
        type=Path,
        required=required,
        metavar="FILE",
        help="write the report to FILE (.json, .jsonl, .csv, .xlsx, .md, .html or .xml for "
        "JUnit), all at once",
    )
    command.add_argument("--json", action="store_true", help="the same as --format json")


def exit_status(report: Report) -> int:
    """0 when every citation passed, 1 when one failed, 3 when nothing failed but something
    could not be checked ("could not check" is never "failed")."""
    return {"PASS": EXIT_PASSED, "FAIL": EXIT_FAILED, "UNCHECKED": EXIT_UNCHECKED}[report.outcome]


def emit(report: Report, args: argparse.Namespace, *, say: bool = True) -> None:
    """Write ``report`` where and as the options ask: ``-o FILE`` in ``--format`` (or the
    format its suffix names), else standard output (text unless ``--format`` names one). A
    report written to a file is said on standard output in one line (its counts, its outcome
    and where it went), as every command says what it wrote; ``say=False`` for a command that
    says it in its own words."""
    from citecheck import exports

    chosen = "json" if args.json and args.format is None else args.format
    if args.output is not None:
        report.save(args.output, chosen)
        if say:
            print(written_line(report, args.output))
        return
    if chosen is None:
        print(report.to_text())
    elif chosen == "xlsx":
        raise CitecheckError("--format xlsx writes a file: name it with -o FILE.xlsx")
    else:
        sys.stdout.write(exports.render(report, chosen))


def written_line(report: Report, target: object) -> str:
    """One line for a report written to ``target``: ``3 citations: 2 verified, 1 unsupported;
    FAIL; written to report.html``."""
    summary = report.summary()
    counts = ", ".join(f"{n} {status}" for status, n in summary["counts"].items() if n)
    total = summary["total"]
    noun = "citation" if total == 1 else "citations"
    return f"{total} {noun}: {counts or 'none'}; {summary['outcome']}; written to {target}"


def read_text(path: Path) -> str:
    """The text of ``path`` (``-``: standard input), UTF-8; other bytes are an error naming it."""
    if str(path) == "-":
        stream = getattr(sys.stdin, "buffer", None)  # None: a text stream put in its place
        return sys.stdin.read() if stream is None else decode_text(stream.read(), "standard input")
    return decode_text(path.read_bytes(), path)


def warn(warnings: Iterable[str]) -> None:
    for warning in warnings:
        print(f"warning: {warning}", file=sys.stderr)


@contextmanager
def progress_bar(
    total: int | None, noun: str, off: bool, done: int = 0
) -> Iterator[Callable[[int, int], None] | None]:
    """A progress bar on standard error (tqdm) while a long run goes, only on a terminal:
    a pipe or a log file gets no bar. Yields the ``progress(done, total)`` callback a run
    takes, or ``None``. A run that learns its total as it goes (the citations of a text are
    found first) gives it to the callback."""
    if off or not sys.stderr.isatty():
        yield None
        return
    from tqdm import tqdm

    with tqdm(total=total, initial=done, unit=noun[:-1], file=sys.stderr) as bar:

        def advance(now: int, of: int) -> None:
            if bar.total != of:
                bar.total = of
            bar.update(now - bar.n)

        yield advance


def announce(message: str, off: bool) -> None:
    """Say ``citecheck: MESSAGE`` on standard error where the progress bar shows (a terminal,
    without ``--no-progress``), or anywhere with ``--verbose``: what a command does before its
    bar starts (``loading the embedding model all-MiniLM-L6-v2 ...``), since a model takes
    seconds to load and a bar standing at 0 % says nothing of it."""
    if verbose() or (not off and sys.stderr.isatty()):
        print(f"citecheck: {message}", file=sys.stderr, flush=True)


def embedder_option(command: argparse.ArgumentParser, default: str = "auto") -> None:
    """``--embedder``: the same names at every command
    (:data:`citecheck.embedders.named.EMBEDDER_NAMES`)."""
    from citecheck.embedders.named import EMBEDDER_NAMES

    command.add_argument(
        "--embedder",
        choices=EMBEDDER_NAMES,
        default=default,
        help="check claims by meaning with: minilm (all-MiniLM-L6-v2, embeddings extra), "
        "multilingual (multilingual-e5-small, multilingual extra), onnx (MiniLM int8 ONNX, "
        "onnx-minilm extra), none (words only), auto (the first installed)"
        f" (default {default})",
    )
    cache_options(command)


def cache_options(command: argparse.ArgumentParser, default: str = "") -> None:
    """``--cache-dir DIR`` and ``--no-cache``: where the embeddings are kept between runs
    (read by :func:`cache_dir`); ``default`` names a place asked before the common default."""
    cache = command.add_mutually_exclusive_group()
    cache.add_argument(
        "--cache-dir",
        type=Path,
        metavar="DIR",
        help=f"keep embeddings here between runs (default: {default}CITECHECK_CACHE_DIR, else "
        "the user's cache folder, such as ~/.cache/citecheck; at most 1 GiB, the vectors used "
        "longest ago dropped first)",
    )
    cache.add_argument(
        "--no-cache", action="store_true", help="keep no embeddings on disk between runs"
    )


def judge_option(command: argparse.ArgumentParser) -> None:
    """``--judge``: ``auto``, ``none`` or a known judge's name (:mod:`citecheck.judging.known`)."""
    command.add_argument(
        "--judge",
        default="auto",
        metavar="{auto,none,NAME}",
        help="the judge of support under the meaning guard: auto (citecheck's trained judge "
        "when the judge extra is installed and an embedder is used), none, or a known judge "
        "by name (minicheck-roberta-large, hhem-2.1-open, nli:MODEL, openai:MODEL, "
        "ollama:MODEL, ...; see 'citecheck judges')",
    )


def make_embedder(choice: str, args: argparse.Namespace | None = None) -> Any:
    """The embedder ``--embedder`` names, ``None`` for words only; its vectors kept on disk
    where ``--cache-dir`` (else :func:`~citecheck.embedders.cache.default_cache_dir`) says,
    unless ``--no-cache``."""
    from citecheck.embedders.named import embedder_named

    return embedder_named(choice, cache_dir(args))


def cache_dir(args: argparse.Namespace | None) -> Path | None:
    """Where the command keeps embeddings between runs: ``--cache-dir``, else the default
    place, ``None`` with ``--no-cache`` (or where the default place is turned off)."""
    from citecheck.embedders.cache import default_cache_dir

    if args is not None and getattr(args, "no_cache", False):
        return None
    chosen = None if args is None else getattr(args, "cache_dir", None)
    return chosen if chosen is not None else default_cache_dir()


def make_judge(choice: str) -> Any:
    """The judge ``--judge`` names: ``"auto"``, ``None``, or a known judge, loaded now."""
    from citecheck.judging.known import judge_named

    return judge_named(choice)


def open_library(args: argparse.Namespace, *, existing: bool = True) -> Any:
    """The library ``--library`` names, with the ``--embedder`` asked for."""
    from citecheck.papers import PaperLibrary

    if existing and not args.library.is_dir():
        raise CitecheckError(f"no library at {args.library}: add papers to it first")
    if existing and not (args.library / "manifest.json").is_file():
        PaperLibrary(args.library, embedder=None)  # names a lost manifest or a foreign folder
        raise CitecheckError(
            f"{args.library} is not a paper library: it has no manifest.json (add papers to "
            "it first, or give the folder that holds manifest.json)"
        )
    choice = getattr(args, "embedder", "auto")
    return PaperLibrary(args.library, embedder=make_embedder(choice, args))
