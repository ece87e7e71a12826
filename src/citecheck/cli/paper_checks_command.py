"""``citecheck cite|validate|validate-doc``: a claim, or every citation of a draft, checked
against a paper library (the papers door for a draft)."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from citecheck import registry
from citecheck.cli.common import (
    EXIT_FAILED,
    EXIT_PASSED,
    embedder_option,
    emit,
    exit_status,
    open_library,
    output_options,
)
from citecheck.errors import CitecheckError

__all__ = ["add", "run"]


def add(commands: Any) -> None:
    """The ``cite``, ``validate`` and ``validate-doc`` commands' arguments."""
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
    embedder_option(cite)

    validate = commands.add_parser(
        "validate",
        help="does a paper (and page) support a claim?",
        description="Whether the paper KEY, on --page when given, supports CLAIM: supported, "
        "partially supported, not supported or contradicted, with the best passage by BM25 "
        "and by vector (each with its page and what it does to the claim), the passages that "
        "qualify the claim, a fix and a suggested revision.",
    )
    validate.add_argument("key", help="the paper's key in the library")
    validate.add_argument("claim", help="the claim")
    validate.add_argument("--page", type=int, help="the page the claim cites")
    validate.add_argument(
        "--semantic",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="vector search on (BM25 and vectors fused; it needs an embedder) or off "
        "(--no-semantic: the candidates are found by BM25 alone, then graded as always); "
        "default: on when the library has an embedder",
    )
    validate.add_argument("--library", type=Path, required=True, metavar="DIR", help="the library")
    embedder_option(validate)
    output_options(validate)

    draft = commands.add_parser(
        "validate-doc",
        help="check every citation of a Markdown draft against a paper library",
        description="Check every citation of a Markdown draft ([@key], [@key, p. 12], "
        "[@a; @b, pp. 3-4], @key, @key [p. 12], [1] with a reference list) against the "
        "library: each claim with its draft line, verdict and suggested fix.",
    )
    draft.add_argument("draft", type=Path, help="the draft (Markdown or text, UTF-8)")
    draft.add_argument("--library", type=Path, required=True, metavar="DIR", help="the library")
    embedder_option(draft)
    output_options(draft)
    for command in (cite, validate, draft):
        command.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """``cite``: the quotes, one a line (exit 1 when there is none); ``validate`` and
    ``validate-doc``: a report in any format, with the exit rule of every report
    (``validate`` with no format or file asked for: the result in words,
    :func:`~citecheck.papers.validation.explain`)."""
    if args.command == "cite" and args.k < 1:
        raise CitecheckError(f"-k must be positive, got {args.k}")
    library = open_library(args)
    if args.command == "cite":
        quotes = library.cite(args.key, args.text, args.k)
        if args.json:
            from dataclasses import asdict

            print(json.dumps([dict(asdict(q), pages=q.pages) for q in quotes], indent=2))
        for quote in [] if args.json else quotes:
            print(quote)
        return EXIT_PASSED if quotes else EXIT_FAILED
    if args.command == "validate":
        result = library.validate(args.key, args.claim, args.page, semantic=args.semantic)
        from citecheck.report import Report

        report = Report((result,), kind="paper-claim", metadata={"library": str(args.library)})
        if args.output is None and args.format is None and not args.json:
            from citecheck.papers.validation import explain

            print(explain(result))
            return exit_status(report)
    else:
        report = registry.create("doors", "papers").verify(args.draft, library)
    emit(report, args)
    return exit_status(report)
