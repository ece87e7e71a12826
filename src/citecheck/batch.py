"""Batches beyond one process: one callable class that any dataframe engine can map.

:class:`BatchVerifier` takes a batch of rows (a pandas ``DataFrame``, a pyarrow ``Table`` or a
mapping of column to values) and returns it with three columns added:

- ``citecheck_outcome``: ``PASS``, ``FAIL`` or ``UNCHECKED``, the row's verdict;
- ``citecheck_results``: the row's :class:`~citecheck.Result`\\ s as JSON (``Result.to_dict``,
  read back by :meth:`BatchVerifier.report`), evidence and offsets included;
- ``citecheck_error``: why the row could not be checked at all, else null.

A row is one of three kinds. ``"records"``: a record of the records door (its source text and
its citations, the columns :class:`~citecheck.records.RecordConfig` names; or, with
``column=``, the whole record in one column, as an object or its JSON text, for records too
irregular for a table). ``"quotes"``: a
quotation (column ``quote``) to locate in the sources given once. ``"answers"``: a text with
citation markers (column ``answer``) checked against the sources given once, or against the
row's own ``sources`` column (a mapping of id to text, or its JSON).

It is a class so that an engine builds it once per worker: the embedding model, the sources
and their indexes are loaded on the first batch and kept for the next (and not pickled, so the
object ships to workers small). On Ray Data::

    ds.map_batches(BatchVerifier, fn_constructor_kwargs={"kind": "records"},
                   batch_format="pandas", compute=ray.data.ActorPoolStrategy(size=2))

on Dask: ``ddf.map_partitions(BatchVerifier("records"), meta=...)``; one process:
``BatchVerifier("records")(frame)``. The rows come back in order, with the results of the
single-process door (:func:`~citecheck.verify_records`, :func:`~citecheck.verify_quotes`,
:func:`~citecheck.verify`), except that a record's results do not carry its position in the
whole input (``details["record"]``), and a record without an id is named by its place in its
batch (``record 2``): an engine's batches do not know the row's place in the whole
(:func:`ray_record_results`, which does, restores both).
A row that breaks its door gets its own ``citecheck_error``, and the rest of the batch is
checked.
"""

from __future__ import annotations

import json
import logging
import math
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, Unpack, overload

from citecheck import registry
from citecheck._verbosity import verbose
from citecheck.errors import (
    BackendError,
    CitecheckError,
    ConfigError,
    InputError,
    MissingDependencyError,
)
from citecheck.model import Result
from citecheck.report import DEFAULT_ACCEPTED, Report

if TYPE_CHECKING:
    import pandas

    from citecheck.papers.draft_verifier import DraftOptions
    from citecheck.protocols import Embedder, Verifier
    from citecheck.quotes.config import QuoteOptions
    from citecheck.records.validate import RecordOptions
    from citecheck.references.verify import ReferenceOptions
    from citecheck.verification.options import VerifyOptions

__all__ = ["COLUMNS", "KINDS", "BatchVerifier", "ray_record_results"]

KINDS: tuple[str, ...] = ("records", "quotes", "answers")
"""The batch kinds of earlier releases; any door's registry name is a kind too."""
_DOORS = {"answers": "markers"}
"""A kind → the door it runs through, where the names differ."""
_REPORT_KINDS = {"papers": "paper-draft"}
"""A door → the :data:`~citecheck.report.KINDS` entry of its reports, where the names differ."""
COLUMNS = ("citecheck_outcome", "citecheck_results", "citecheck_error")
"""The columns a batch gets, in this order."""

_TEXT_COLUMN = {"quotes": "quote", "answers": "answer"}


class BatchVerifier:
    """Check a batch of rows of one ``kind`` and return it with :data:`COLUMNS` added.

    ``config`` and ``options`` are the door's: :class:`~citecheck.records.RecordConfig` for
    records, :class:`~citecheck.quotes.QuoteConfig` for quotes, the
    :class:`~citecheck.Verifier`'s options for answers. ``sources`` (quotes and answers) is a
    mapping of id to text, documents, or a file or folder path read once per worker.
    ``column`` names the text column of quotes and answers (``quote``, ``answer``), or the
    column that holds each whole record.
    ``embedder`` replaces the model the door would load; ``None`` lets each worker load its
    own on its first batch.
    """

    @overload
    def __init__(
        self,
        kind: Literal["records"] = "records",
        *,
        config: Any = None,
        sources: Any = None,
        column: str | None = None,
        embedder: Embedder | None = None,
        **options: Unpack[RecordOptions],
    ) -> None: ...

    @overload
    def __init__(
        self,
        kind: Literal["quotes"],
        *,
        config: Any = None,
        sources: Any = None,
        column: str | None = None,
        embedder: Embedder | None = None,
        **options: Unpack[QuoteOptions],
    ) -> None: ...

    @overload
    def __init__(
        self,
        kind: Literal["answers", "markers"],
        *,
        config: Any = None,
        sources: Any = None,
        column: str | None = None,
        **options: Unpack[VerifyOptions],
    ) -> None: ...

    @overload
    def __init__(
        self,
        kind: Literal["references"],
        *,
        config: Any = None,
        sources: Any = None,
        column: str | None = None,
        scheme: Any = None,
        against: Any = None,
        **options: Unpack[ReferenceOptions],
    ) -> None: ...

    @overload
    def __init__(
        self,
        kind: Literal["papers"],
        *,
        config: Any = None,
        sources: Any = None,
        column: str | None = None,
        **options: Unpack[DraftOptions],
    ) -> None: ...

    @overload
    def __init__(
        self,
        kind: str,
        *,
        config: Any = None,
        sources: Any = None,
        column: str | None = None,
        embedder: Embedder | None = None,
    ) -> None: ...

    def __init__(
        self,
        kind: str = "records",
        *,
        config: Any = None,
        sources: Any = None,
        column: str | None = None,
        embedder: Any = None,
        **options: Any,
    ) -> None:
        """A batch of ``kind``: the door's own options, typed per door (a plugin door's in
        ``config``)."""
        doors = registry.available("doors")
        if kind not in KINDS and kind not in doors:
            raise ConfigError(f"kind must be one of {KINDS} or a door ({doors}), got {kind!r}")
        if kind == "quotes" and sources is None:
            raise ConfigError("a batch of quotes needs the sources to find them in (sources=)")
        self.kind = kind
        self.door_name = _DOORS.get(kind, kind)
        self.settings = _settings(self.door_name, config, options)
        self.sources = sources
        takes = getattr(registry.load("doors", self.door_name), "takes", "text")
        self.column = column or _TEXT_COLUMN.get(kind) or ("answer" if takes == "text" else None)
        self.embedder = embedder
        self._loaded: dict[str, Any] = {}

    def __repr__(self) -> str:
        return f"BatchVerifier({self.kind!r}, column={self.column!r})"

    def __getstate__(self) -> dict[str, Any]:
        """Pickled without what it loaded: each worker loads its own, once."""
        state = dict(self.__dict__)
        state["_loaded"] = {}
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)

    # -- the call ---------------------------------------------------------------------------

    def __call__(self, batch: Any) -> Any:
        """The batch with the result columns; a DataFrame for a DataFrame or a mapping, a
        pyarrow Table for a Table."""
        frame, arrow = _as_frame(batch)
        rows = [_plain_row(row) for row in frame.to_dict("records")]
        checked = self._check(rows)
        out = frame.copy()
        out["citecheck_outcome"] = [outcome for outcome, _, _ in checked]
        out["citecheck_results"] = [
            json.dumps([r.to_dict() for r in results], ensure_ascii=False)
            for _, results, _ in checked
        ]
        errors = [error for _, _, error in checked]
        out["citecheck_error"] = _objects(out, errors)
        if arrow:
            import pyarrow  # type: ignore[import-untyped]

            return pyarrow.Table.from_pandas(out, preserve_index=False)
        return out

    def meta(self, frame: Any) -> pandas.DataFrame:
        """An empty frame with ``frame``'s columns and the result columns: what Dask's
        ``map_partitions(..., meta=)`` wants to know of the output."""
        table, _ = _as_frame(frame)
        empty = table.head(0).copy()
        for column in COLUMNS:
            empty[column] = _objects(empty, [])
        return empty

    def report(self, frame: Any) -> Report:
        """One :class:`~citecheck.Report` of every row of checked batches (a DataFrame, or a
        Table), in their order: what the single-process door returns."""
        table, _ = _as_frame(frame)
        if "citecheck_results" not in table:
            raise InputError("the batch has no citecheck_results column: check it first")
        results = [
            Result.from_dict(data)
            for text in table["citecheck_results"]
            for data in json.loads(text)
        ]
        if self.door_name == "markers":  # the pass policy the rows were judged by
            accepted = getattr(self.settings, "accept", DEFAULT_ACCEPTED)
            return Report(tuple(results), kind="verify", accepted=frozenset(accepted))
        kind = _REPORT_KINDS.get(self.door_name, self.door_name)
        return Report(tuple(results), kind=kind, count_once=self.door_name == "records")

    # -- the doors ----------------------------------------------------------------------------

    def _check(self, rows: list[dict[str, Any]]) -> list[tuple[str, tuple[Result, ...], Any]]:
        """Each row's outcome, results and error: the whole batch through its door at once,
        and row by row when the batch as a whole breaks it, so one bad row fails alone."""
        try:
            return self._door(rows)
        except CitecheckError:
            if len(rows) == 1:
                raise
        checked = []
        for row in rows:
            try:
                checked.extend(self._door([row]))
            except CitecheckError as exc:
                checked.append(("UNCHECKED", (), f"{type(exc).__name__}: {exc}"))
        return checked

    def _door(self, rows: list[dict[str, Any]]) -> list[tuple[str, tuple[Result, ...], Any]]:
        """The rows through the door, as its registry entry builds it (once per worker): a
        door that takes items checks the whole batch at once, and each result goes back to
        its row by the item position it names; a door that takes a text checks each row's."""
        door = self._built()
        if door.takes == "items":
            return self._items(door, rows)
        checked: list[tuple[str, tuple[Result, ...], Any]] = []
        for row in rows:
            own = row.get("sources")
            if own is not None:
                sources = _row_sources(own)
            else:  # a door built with what it checks against (a catalog) needs none
                sources = self._documents() if self.sources is not None else None
            report = door.verify(self._text(row), sources)
            checked.append((report.outcome, report.results, None))
        return checked

    def _items(
        self, door: Verifier, rows: list[dict[str, Any]]
    ) -> list[tuple[str, tuple[Result, ...], Any]]:
        """A batch of items through one call; each result back to its row, without its
        position in the batch (an engine's batch does not know the row's place in the whole:
        :func:`ray_record_results`, which does, restores it)."""
        if self.column is None:
            items: list[Any] = rows
        else:
            items = [self._text(row) for row in rows]
            if door.name == "records":
                items = [_cell(item, "record") for item in items]
        sources = self._documents() if self.sources is not None else None
        report = door.verify(items, sources)
        key = door.item_detail
        assert key is not None, f"the {door.name} door takes items but names no item_detail"
        per_row: list[list[Result]] = [[] for _ in rows]
        for result in report.results:
            details = {k: v for k, v in result.details.items() if k != key}
            per_row[result.details[key]].append(
                Result(
                    result.citation,
                    result.status,
                    result.confidence,
                    result.evidence,
                    result.reason,
                    details,
                )
            )
        return [
            (
                _outcome(results, report),
                tuple(results),
                next((r.details["error"] for r in results if _failed_item(r)), None),
            )
            for results in per_row
        ]

    def _built(self) -> Verifier:
        """The door, built on the first batch of this worker and kept: its model, its search
        structures, its caches."""
        if "door" not in self._loaded:
            factory: Any = registry.load("doors", self.door_name)
            given = {} if self.embedder is None else {"embedder": self.embedder}
            if isinstance(self.settings, Mapping):
                self._loaded["door"] = factory(**{**self.settings, **given})
            else:
                self._loaded["door"] = factory.from_config(self.settings, **given)
        door: Verifier = self._loaded["door"]
        return door

    # -- what a worker loads once ---------------------------------------------------------------

    def _documents(self) -> Any:
        """The sources given once, read (and prepared for search) on the first batch."""
        if self.sources is None:
            raise InputError("no sources: give BatchVerifier sources=, or each row a 'sources'")
        if "documents" not in self._loaded:
            from citecheck.documents import as_documents
            from citecheck.documents.files import load_paths

            sources = self.sources
            if isinstance(sources, str | Path):
                sources = load_paths(sources)
            self._loaded["documents"] = list(as_documents(sources).values())
        return self._loaded["documents"]

    def _text(self, row: Mapping[str, Any]) -> Any:
        assert self.column is not None
        if self.column not in row:
            raise InputError(f"the row has no {self.column!r} column: {sorted(row)}")
        return row[self.column]


def _settings(door: str, config: Any, options: Mapping[str, Any]) -> Any:
    """The door's options, read now (a bad one fails here, not on every worker): its options
    type (``options_type``) over ``config``, or, for a door without one, a mapping."""
    options_type = getattr(registry.load("doors", door), "options_type", None)
    if options_type is not None:
        return options_type.merged(config, options)
    if config is not None and not isinstance(config, Mapping):
        raise ConfigError(f"the {door} door takes a mapping of options, not {config!r}")
    return {**dict(config or {}), **options}


def _failed_item(result: Result) -> bool:
    """Whether ``result`` stands for its whole item, which could not be checked: its details
    hold an ``error`` and no ``citation`` position (a record that cannot be read)."""
    return "error" in result.details and "citation" not in result.details


def _outcome(results: Sequence[Result], report: Report) -> str:
    return Report(tuple(results), accepted=report.accepted).outcome


def _objects(frame: pandas.DataFrame, values: list[Any]) -> pandas.Series:
    """A column of Python objects (``None`` stays ``None``, where pandas would infer NaN)."""
    import pandas

    return pandas.Series(values, index=frame.index, dtype=object)


def _cell(value: Any, what: str) -> Any:
    """A value held in one cell: as it is, or read from its JSON text."""
    if not isinstance(value, str):
        return value
    try:
        return json.loads(value)
    except json.JSONDecodeError as exc:
        raise InputError(f"the row's {what} are not JSON: {exc}") from None


def _row_sources(value: Any) -> Any:
    """A row's own sources: a mapping, or its JSON text."""
    value = _cell(value, "sources")
    if not isinstance(value, Mapping):
        raise InputError(f"a row's sources must map ids to texts, not {type(value).__name__}")
    return value


def _as_frame(batch: Any) -> tuple[pandas.DataFrame, bool]:
    """A batch as a DataFrame, and whether it came as a pyarrow Table."""
    try:
        import pandas
    except ImportError:
        raise MissingDependencyError("pandas", "pandas") from None
    if isinstance(batch, pandas.DataFrame):
        return batch, False
    if hasattr(batch, "to_pandas") and hasattr(batch, "schema"):
        return batch.to_pandas(), True
    if isinstance(batch, Mapping):
        return pandas.DataFrame({k: list(v) for k, v in batch.items()}), False
    raise InputError(
        f"a batch is a pandas DataFrame, a pyarrow Table or a mapping of columns, not "
        f"{type(batch).__name__}"
    )


def _plain_row(row: Mapping[str, Any]) -> dict[str, Any]:
    """A row as the doors take it: numpy arrays as lists, NaN (pandas' missing) as absent."""
    return {
        key: _plain(value)
        for key, value in row.items()
        if not (isinstance(value, float) and math.isnan(value))
    }


def _plain(value: Any) -> Any:
    if hasattr(value, "tolist") and not isinstance(value, str | bytes):
        value = value.tolist()
    if isinstance(value, Mapping):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    return value


def ray_record_results(
    records: Sequence[Any],
    *,
    config: Any = None,
    workers: int = 2,
    start: int = 0,
    block: int = 64,
) -> Iterator[tuple[dict[str, Any], tuple[Result, ...]]]:
    """:func:`~citecheck.records.iter_record_results` on Ray Data: the records from ``start``,
    ``block`` to a batch, checked by at most ``workers`` :class:`BatchVerifier` actors, each
    record's written-back copy and results yielded in input order. Joins the cluster that
    ``RAY_ADDRESS`` names, else starts a local one for the run. A worker that dies is
    replaced and its batch run again (Ray Data's retries), so no record is lost. The options
    and the extras are checked now, before the first record; a run that fails on the cluster
    raises :class:`~citecheck.errors.BackendError`."""
    try:
        import ray
        import ray.data
    except ImportError:
        raise MissingDependencyError("ray", "ray") from None
    from citecheck.embedders.named import model_embedder
    from citecheck.records import RecordConfig

    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise ConfigError(f"workers must be a positive integer, got {workers!r}")
    settings = RecordConfig.merged(config, {})
    # what each worker will load (built, not loaded: a missing extra is said now)
    model_embedder(settings.model_name, device=settings.device)
    return _on_ray(ray, records, settings, workers, start, block)


_RAY_DATA_BARS = "ray.data._internal.progress"
"""The logger of Ray Data's progress bars (it warns once that they are off)."""


def _on_ray(
    ray: Any, records: Sequence[Any], settings: Any, workers: int, start: int, block: int
) -> Iterator[tuple[dict[str, Any], tuple[Result, ...]]]:
    from citecheck.records.validate import record_id, written_back

    quiet = not verbose()  # --verbose: Ray's start-up, its workers' output and its bars
    started = not ray.is_initialized()
    if started:  # a cluster of our own: its start-up said only when something is wrong
        if quiet:
            ray.init(include_dashboard=False, log_to_driver=False, logging_level=logging.WARNING)
        else:
            ray.init(include_dashboard=False)
    context = ray.data.DataContext.get_current()
    data_log, bars_log = logging.getLogger("ray.data"), logging.getLogger(_RAY_DATA_BARS)
    before = data_log.level, bars_log.level, context.enable_progress_bars
    if quiet:  # no execution plan and progress lines, no bars beside the command's own
        data_log.setLevel(logging.WARNING)
        bars_log.setLevel(logging.ERROR)  # nor the warning that the bars are off
        context.enable_progress_bars = False
    try:
        context.execution_options.preserve_order = True
        rows = [{"record": json.dumps(record)} for record in records[start:]]
        if not rows:
            return
        dataset = ray.data.from_items(rows, override_num_blocks=max(1, -(-len(rows) // block)))
        checked = dataset.map_batches(
            BatchVerifier,
            fn_constructor_kwargs={"kind": "records", "column": "record", "config": settings},
            batch_format="pandas",
            batch_size=block,
            compute=ray.data.ActorPoolStrategy(min_size=1, max_size=workers),
        )
        index = start
        try:
            for batch in checked.iter_batches(batch_format="pandas", batch_size=block):
                for text in batch["citecheck_results"]:
                    name = record_id(records[index], index, settings)
                    results = tuple(
                        _positioned(Result.from_dict(data), index, name)
                        for data in json.loads(text)
                    )
                    yield written_back(records[index], results, settings), results
                    index += 1
        except ray.exceptions.RayError as exc:
            raise BackendError(f"the Ray run failed after {index} records: {exc}") from exc
    finally:
        data_log.setLevel(before[0])
        bars_log.setLevel(before[1])
        context.enable_progress_bars = before[2]
        if started:
            ray.shutdown()


def _positioned(result: Result, index: int, name: str) -> Result:
    """A record's result with its position in the whole input, and the name that position
    gives a record without an id, as the single-process door gives them."""
    return Result(
        replace(result.citation, source_id=name),
        result.status,
        result.confidence,
        result.evidence,
        result.reason,
        {"record": index, **result.details},
    )
