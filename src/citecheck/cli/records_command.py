"""``citecheck records [INPUT.json] [-o OUTPUT.json] [--config FILE] [--resume]``: the citations
of a batch of records labelled through the records door, checkpointed as it goes."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

from citecheck import registry
from citecheck.cli.common import (
    EXIT_ERROR,
    INTERRUPTED,
    announce,
    cache_options,
    exit_status,
    progress_bar,
)
from citecheck.errors import CitecheckError

if TYPE_CHECKING:
    from citecheck.model import Result
    from citecheck.protocols import Embedder
    from citecheck.records.record_files import Checkpoint
    from citecheck.records.validate import RecordConfig

__all__ = ["add", "run"]

_RECORDS_CONFIG = "config.json"
_RECORDS_OUTPUT = "output_validated.json"


def add(commands: Any) -> None:
    """The ``records`` command's arguments."""
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
    records.add_argument(
        "--tune",
        metavar="FIELD",
        help="instead of labelling: fit similarity_threshold on labelled records, each citation "
        "carrying its truth in FIELD (true/false), and measure it on citations held out",
    )
    records.add_argument(
        "--tuned",
        type=Path,
        metavar="FILE",
        help="with --tune: write the tuned configuration (JSON) to FILE (default: print it)",
    )
    records.add_argument(
        "--holdout",
        type=float,
        default=0.3,
        metavar="F",
        help="with --tune: the share of the citations held out to measure on (default 0.3)",
    )
    cache_options(records, default="the config's cache_dir, else ")
    records.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Label the records; the output and the report written whole, a summary line."""
    from citecheck.exports import check_target, format_for
    from citecheck.records.record_files import Checkpoint, checkpoint_path, read_records
    from citecheck.records.validate import BLOCK_RECORDS

    checkpoint: Checkpoint | None = None
    if args.tune is not None:
        return _tune(args)
    if args.tuned is not None:
        print("citecheck: error: --tuned goes with --tune FIELD", file=sys.stderr)
        return 2
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
        embedder = _loaded_embedder(config, args)  # before the bar: it counts records only
        with progress_bar(len(records), "records", args.no_progress, start) as progress:
            results = _record_results(records, config, args, progress, start, embedder)
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
        return INTERRUPTED
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
    embedder: Embedder | None,
) -> Iterator[tuple[dict[str, Any], tuple[Result, ...]]]:
    """Each record's written-back copy and results, in order, from this process (with
    ``embedder``, loaded) or Ray; what can fail before the first record (a missing extra, a
    model that cannot load) fails now, before the checkpoint is begun."""
    from citecheck.records.validate import BLOCK_RECORDS, iter_record_results

    if args.engine == "local":
        return iter_record_results(
            records, embedder=embedder, config=config, progress=progress, start=start
        )
    from citecheck.batch import ray_record_results

    results = ray_record_results(
        records, config=config, workers=args.workers, start=start, block=BLOCK_RECORDS
    )
    return _counted(results, progress, start, len(records))


def _tune(args: argparse.Namespace) -> int:
    """``--tune FIELD``: the tuned threshold and what it does on held-out citations, and the
    tuned configuration, written whole to ``--tuned`` or printed."""
    import json

    from citecheck._atomic import write_text_atomic
    from citecheck.records.record_files import read_records
    from citecheck.records.tuning import tune_threshold

    try:
        config, source, _ = _records_files(args)
        records = read_records(source)
        announce(f"loading the embedding model {config.model_name} ...", args.no_progress)
        tuning = tune_threshold(
            records, gold_field=args.tune, holdout=args.holdout, config=_with_cache(config, args)
        )
        text = json.dumps(dict(tuning.config), indent=2) + "\n"
        if args.tuned is not None:
            write_text_atomic(args.tuned, text)
    except (CitecheckError, OSError, UnicodeError) as exc:
        print(f"citecheck: error: {exc}", file=sys.stderr)
        return 2
    print(tuning.to_text())
    print(f"tuned configuration written to {args.tuned}" if args.tuned else text, end="\n")
    return 0


def _loaded_embedder(config: RecordConfig, args: argparse.Namespace) -> Embedder | None:
    """The embedding model of a run in this process, loaded now, before the progress bar
    starts, and said on a terminal (``citecheck: loading the embedding model all-MiniLM-L6-v2
    ...``): loading takes seconds, a bar at 0 % would say nothing of it. A missing extra is an
    error before anything is said. ``None`` on Ray, whose workers load it (said too)."""
    from citecheck.embedders.named import loaded, model_embedder

    embedder = model_embedder(  # what records.validate.default_embedder loads, not loaded yet
        config.model_name,
        batch_size=config.batch_size,
        device=config.device,
        cache_dir=config.cache_dir,
    )
    if args.engine != "local":
        announce(
            f"starting Ray: its workers (at most {args.workers}) load the embedding model "
            f"{config.model_name} ...",
            args.no_progress,
        )
        return None
    announce(f"loading the embedding model {config.model_name} ...", args.no_progress)
    return loaded(embedder)


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


def _with_cache(config: RecordConfig, args: argparse.Namespace) -> RecordConfig:
    """``config`` with the embedding cache the options say: ``--cache-dir``, else its own
    ``cache_dir``, else the command line's default place; none with ``--no-cache``."""
    from citecheck.cli.common import cache_dir
    from citecheck.records.validate import RecordConfig

    if args.no_cache:
        folder = None
    elif args.cache_dir is not None or config.cache_dir is None:
        folder = cache_dir(args)
    else:
        return config
    return RecordConfig.merged(config, {"cache_dir": None if folder is None else str(folder)})


def _records_files(args: argparse.Namespace) -> tuple[RecordConfig, Path, Path]:
    """The options, the input and the output of ``citecheck records`` (a config file found is
    named on stderr); an
    output (or its checkpoint) that is the input, under any name, is an error."""
    from citecheck.records.record_files import checkpoint_path, same_file
    from citecheck.records.validate import RecordConfig

    config_path = args.config or _found_config(args.input)
    if config_path is None:  # the defaults, as the seed's validator: nothing to say
        config = RecordConfig()
    else:
        print(f"citecheck: options from {config_path}", file=sys.stderr)
        config = RecordConfig.from_file(config_path)
    config = _with_cache(config, args)
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
    return summary, exit_status(report)


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
