"""``citecheck refs check|coverage|eval``: structured references (``[Bala Kanda 1.1]``) through
the references door: one answer, what a scheme's patterns read and miss, or a golden dataset."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from citecheck import registry
from citecheck.cli.common import EXIT_ERROR, emit, exit_status, output_options, read_text
from citecheck.errors import CitecheckError

if TYPE_CHECKING:
    from citecheck.references import ReferenceExtractor

__all__ = ["add", "run"]


def add(commands: Any) -> None:
    """The ``refs`` commands' arguments."""
    refs = commands.add_parser(
        "refs",
        help="structured references: check an answer, list unparsed look-alikes, evaluate a set",
        description="Structured references such as [Bala Kanda 1.1] or John 3:16.",
    )
    refs.set_defaults(run=run)
    refs = refs.add_subparsers(dest="refs_command", required=True)

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
    output_options(check)
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
        "references but were not parsed, with the pattern that would read each kind",
    )
    coverage.add_argument("file", type=Path, help="a text file ('-' reads stdin)")
    common(coverage, against=False)
    coverage.add_argument("--json", action="store_true", help="the report as JSON")
    evaluate = refs.add_parser("eval", help="evaluate a golden dataset (JSON Lines)")
    evaluate.add_argument("golden", type=Path, help="one JSON object per line with an answer")
    common(evaluate)
    evaluate.add_argument(
        "--log",
        type=Path,
        help="per-item log (default: GOLDEN-STEM.log.jsonl beside the -o report, else in the "
        "current folder)",
    )
    output_options(evaluate)
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


def run(args: argparse.Namespace) -> int:
    """One of ``refs check``, ``coverage`` and ``eval``."""
    from citecheck.references import (
        DEFAULT_POLICIES,
        ReferenceExtractor,
        evaluate_dataset,
        scheme_named,
    )

    try:
        scheme = scheme_named(args.scheme)
        if args.refs_command == "coverage":
            _coverage(ReferenceExtractor(scheme), read_text(args.file), as_json=args.json)
            return 0
        policies = dict(DEFAULT_POLICIES)
        for item in getattr(args, "policy", ()):
            template, _, policy = item.partition("=")
            if policy not in ("required", "optional"):
                raise CitecheckError(f"--policy {item!r}: use TEMPLATE=required or optional")
            policies[template] = policy
        verifier = registry.create(
            "doors",
            "references",
            scheme=scheme,
            against=args.map,
            texts=_reference_texts(args.texts),
            require_citations=getattr(args, "require_citations", False),
            policies=policies,
        )
        if args.refs_command == "check":
            report = verifier.verify(read_text(args.answer), template=args.template)
            emit(report, args)
            return exit_status(report)
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
    emit(evaluation, args)
    on_stdout = args.output is None and (args.format is not None or args.json)
    print(f"per-item log: {log}", file=sys.stderr if on_stdout else sys.stdout)
    unreadable = evaluation.warnings or evaluation.metrics()["error_items"]
    return EXIT_ERROR if unreadable else exit_status(evaluation)


def _log_path(golden: Path, output: Path | None) -> Path:
    """Where ``refs eval`` writes its per-item log without ``--log``: beside the report given
    with ``-o``, else in the current folder; never beside the dataset, whose folder may be
    read-only or shared."""
    name = f"{golden.stem}.log.jsonl"
    return output.parent / name if output is not None else Path(name)  # as the user reads it


def _coverage(extractor: ReferenceExtractor, text: str, *, as_json: bool = False) -> None:
    """What the scheme's patterns read in ``text`` (each mention and its references), what
    they could not read for sure, the names that are not books, the look-alikes missed, and
    the pattern that would read each kind of them."""
    import json

    from citecheck.references import Coverage

    coverage = Coverage.of(extractor, text)
    if as_json:
        print(json.dumps(coverage.to_dict(), ensure_ascii=False, indent=2))
    else:
        print(coverage.to_text())


def _reference_texts(path: Path | None) -> dict[str, str] | None:
    """Verse texts from a JSON object file, or from a Valmiki Ramayana ``sargas`` directory."""
    if path is None:
        return None
    from citecheck.references import read_verse_texts

    return read_verse_texts(path)
