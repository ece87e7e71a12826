"""Batches of AI-written records: each holds a source text and citation texts; each citation
gets a semantic label and a confidence.

:func:`verify_records` returns the one :class:`~citecheck.Report` every front door returns: a
:class:`~citecheck.Result` per record citation, its status read from its label
(:attr:`~citecheck.records.labels.Label.status`), its label and confidence percentage in
:attr:`~citecheck.Result.details`. :func:`validate_records` is a projection of that report: the
records, copied, with each result written back into its citation object as ``validation_*``
fields (:func:`iter_validated_records` projects one record at a time, for the CLI's checkpoint).

A record that cannot be validated gets ``validation_error`` and the batch goes on; a citation
that is not text gets its own ``validation_error``. The results stand at the positions of their
records: a record that is not an object is kept, wrapped as ``{"record": ..., "validation_error":
...}``. Nothing the caller passed is changed. A model that cannot load fails the run at once,
not every record one by one.

Records are validated in blocks: the source chunks and citations of a whole block are embedded
in one call before its records are judged one at a time, as a model embeds one large batch far
faster than many small ones.
"""

from __future__ import annotations

import copy
from collections import Counter
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import suppress
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, ClassVar, Literal, TypedDict, Unpack

from citecheck._config import Options
from citecheck.errors import CitecheckError, ConfigError, InputError
from citecheck.judging import verdict
from citecheck.model import Citation, Result, Status
from citecheck.records.labels import (
    DEFAULT_LABEL_SET,
    Label,
    SemanticValidator,
    Thresholds,
    Validation,
    check_text,
    label_names,
)
from citecheck.report import Report
from citecheck.thresholds import LABEL_BANDS

if TYPE_CHECKING:
    from citecheck.protocols import Embedder

__all__ = [
    "MAX_RECORD_DEPTH",
    "RecordConfig",
    "RecordOptions",
    "RecordVerifier",
    "default_embedder",
    "iter_record_results",
    "iter_validated_records",
    "record_id",
    "records_report",
    "validate_records",
    "verify_records",
    "written_back",
]

Progress = Callable[[int, int], None]
BLOCK_RECORDS = 256
"""Records whose sources and citations are embedded in one call: large enough for full
batches, small enough that a block's vectors stay far below the embedder's cache."""

MAX_RECORD_DEPTH = 200
"""How deeply a record may nest lists and objects. A deeper record is flagged and kept as it
is: copying it would exhaust Python's stack (a raw ``RecursionError``), and no real record
nests a tenth as deep."""

_THRESHOLDS = ("similarity_threshold", "very_likely_true", "ambiguous", "likely_untrue")
_TEXT_OPTIONS = (
    "model_name",
    "source_field",
    "citations_field",
    "citation_field",
    "id_field",
    "device",
)


@dataclass(frozen=True, slots=True)
class RecordConfig(Options):
    """The options of a record batch, with their defaults (a file may give any subset): the
    options type of the records door (:meth:`from_mapping`, :meth:`from_file`,
    :meth:`merged` and :meth:`to_dict` as every door's). The common names ``threshold``,
    ``embedding_model`` and ``min_claim_words`` are read as ``similarity_threshold``,
    ``model_name`` and ``min_citation_length_words``.

    ``similarity_threshold`` is the lower bound of "likely true"; ``very_likely_true``,
    ``ambiguous`` and ``likely_untrue`` the other bounds (see :class:`~citecheck.records.labels.
    Thresholds`). ``source_field``, ``citations_field`` and ``citation_field`` name the fields
    of a record, of its list of citations, and of the text in each citation object.
    ``id_field`` names the field of a record's id, which names its citations in a report
    (``"record N"``, counted from 0, for a record without one). ``data_file_name`` and
    ``output_file_name`` are the CLI's input and output when the command
    line names none. ``cache_dir`` keeps source embeddings on disk between runs. ``label_set``
    says how ``validation_status`` is written (see :data:`~citecheck.records.labels.LABEL_SETS`):
    ``"citecheck"`` (the default) or ``"seed"``, the strings of the validator this replaces.
    """

    model_name: str = "all-MiniLM-L6-v2"
    similarity_threshold: float = LABEL_BANDS[1]
    very_likely_true: float = LABEL_BANDS[0]
    ambiguous: float = LABEL_BANDS[2]
    likely_untrue: float = LABEL_BANDS[3]
    min_citation_length_words: int = 3
    min_chunk_length_chars: int = 20
    lexical_pass: bool = True
    source_field: str = "source_text"
    citations_field: str = "citations"
    citation_field: str = "citation"
    id_field: str = "id"
    delimiter: str = "Content from "
    batch_size: int = 16
    device: str = "cpu"
    cache_dir: str | None = None
    data_file_name: str | None = None
    output_file_name: str | None = None
    label_set: str = DEFAULT_LABEL_SET

    _what: ClassVar[str] = "record"
    _aliases: ClassVar[Mapping[str, str]] = MappingProxyType(
        {
            "threshold": "similarity_threshold",
            "embedding_model": "model_name",
            "min_claim_words": "min_citation_length_words",
        }
    )

    def __post_init__(self) -> None:
        problems = []
        try:
            label_names(self.label_set)
        except ConfigError as exc:
            problems.append(str(exc))
        for name in ("min_citation_length_words", "min_chunk_length_chars"):
            value = getattr(self, name)
            if not isinstance(value, int) or isinstance(value, bool) or value < 0:
                problems.append(f"{name} must be a non-negative integer, not {value!r}")
        for name in _TEXT_OPTIONS:
            value = getattr(self, name)
            if not isinstance(value, str) or not value:
                problems.append(f"{name} must be a non-empty string, not {value!r}")
        for name in _THRESHOLDS:
            value = getattr(self, name)
            if not isinstance(value, int | float) or isinstance(value, bool):
                problems.append(f"{name} must be a number, not {value!r}")
        size = self.batch_size
        if isinstance(size, bool) or not isinstance(size, int) or size < 1:
            problems.append(f"batch_size must be a positive integer, not {self.batch_size!r}")
        if not isinstance(self.lexical_pass, bool):
            problems.append(f"lexical_pass must be true or false, not {self.lexical_pass!r}")
        if not isinstance(self.delimiter, str):
            problems.append(f"delimiter must be a string, not {self.delimiter!r}")
        for name in ("cache_dir", "data_file_name", "output_file_name"):
            value = getattr(self, name)
            if value is not None and not isinstance(value, str):
                problems.append(f"{name} must be a string, not {value!r}")
        if problems:
            raise ConfigError("invalid record configuration: " + "; ".join(problems))
        self.thresholds()  # validates the bounds

    def thresholds(self) -> Thresholds:
        return Thresholds(
            very_likely_true=self.very_likely_true,
            likely_true=self.similarity_threshold,
            ambiguous=self.ambiguous,
            likely_untrue=self.likely_untrue,
        )


def verify_records(
    records: Sequence[Mapping[str, Any]],
    *,
    embedder: Embedder | None = None,
    config: RecordConfig | Mapping[str, Any] | str | Path | None = None,
    progress: Progress | None = None,
    **options: Unpack[RecordOptions],
) -> Report:
    """Label every citation of every record; the :class:`~citecheck.Report` of them all
    (``kind="records"``).

    One :class:`~citecheck.Result` per record citation, in order: its citation names the
    record (its ``id_field``, else ``"record N"``) and holds the citation text as its claim;
    its status is the label's (:attr:`~citecheck.records.labels.Label.status`: the likely-true
    labels ``VERIFIED``, ambiguous ``PARTIAL``, the untrue ones ``UNSUPPORTED``, too short and
    no source text ``UNCHECKED``); its confidence comes from the best cosine through
    :mod:`citecheck.judging.verdict`; its evidence is the best passage; its ``details`` hold the
    ``record`` and ``citation`` positions, the ``label`` as the ``label_set`` writes it, the
    ``confidence_score_percent`` and ``source_offset``, where the evidence's document starts in
    the record's source text. A citation that cannot be read, or a record that cannot be
    validated at all, is one ``UNCHECKED`` result whose reason and ``details["error"]`` say
    why (a record's has no ``citation`` position). :meth:`~citecheck.Report.metrics` counts
    the labels, the records and the records with errors; ``metadata["config"]`` holds the
    options. Options, ``embedder`` and failures are those of :func:`validate_records`.
    """
    settings, validator = _prepared(records, embedder, config, options)
    judged = list(_judge(records, settings, validator, progress, 0))
    results = tuple(result for record in judged for result in record.results)
    return records_report(
        results,
        records=len(records),
        with_errors=sum(record.failed for record in judged),
        config=settings,
    )


class RecordOptions(TypedDict, total=False):
    """The keyword options of the records door (:func:`verify_records`,
    :func:`validate_records`, :class:`RecordVerifier`), typed: the fields of
    :class:`RecordConfig`, and the common names ``threshold``, ``embedding_model`` and
    ``min_claim_words``."""

    model_name: str
    similarity_threshold: float
    very_likely_true: float
    ambiguous: float
    likely_untrue: float
    min_citation_length_words: int
    min_chunk_length_chars: int
    lexical_pass: bool
    source_field: str
    citations_field: str
    citation_field: str
    id_field: str
    delimiter: str
    batch_size: int
    device: str
    cache_dir: str | None
    data_file_name: str | None
    output_file_name: str | None
    label_set: str
    threshold: float
    embedding_model: str
    min_claim_words: int


class RecordVerifier:
    """The records door (``doors`` registry name ``records``): one configuration, one model,
    many batches of records. ``config`` is a :class:`RecordConfig`, a mapping or a file, and
    keyword ``options`` override it; ``embedder`` replaces the model ``model_name`` names,
    which is otherwise loaded on the first batch and kept. Each record carries its own source
    text, so :meth:`verify` takes no sources."""

    name: ClassVar[str] = "records"
    """Its name in the registry's ``doors`` group."""
    options_type: ClassVar[type[RecordConfig]] = RecordConfig
    takes: ClassVar[Literal["text", "items"]] = "items"
    item_detail: ClassVar[str | None] = "record"

    def __init__(
        self,
        config: RecordConfig | Mapping[str, Any] | str | Path | None = None,
        embedder: Embedder | None = None,
        **options: Unpack[RecordOptions],
    ) -> None:
        self.config = RecordConfig.merged(config, options)
        self.embedder = embedder

    @classmethod
    def from_config(
        cls,
        config: RecordConfig | Mapping[str, Any] | str | Path | None = None,
        *,
        embedder: Embedder | None = None,
        **options: Unpack[RecordOptions],
    ) -> RecordVerifier:
        """The door from its options type, a mapping or a file, keyword ``options`` over it:
        as every door is built from its options."""
        return cls(config, embedder, **options)

    def __repr__(self) -> str:
        return f"RecordVerifier(model_name={self.config.model_name!r})"

    def verify(
        self,
        records: Sequence[Mapping[str, Any]],
        sources: None = None,
        *,
        progress: Progress | None = None,
    ) -> Report:
        """Label every citation of every record: :func:`verify_records` with this door's
        options and model."""
        if sources is not None:
            raise InputError(
                "records carry their own source text (the source_field of each record); "
                "the records door takes no sources"
            )
        if self.embedder is None:
            if isinstance(records, str | bytes) or not isinstance(records, Sequence):
                raise InputError(f"records must be a list of objects, got {type(records).__name__}")
            self.embedder = default_embedder(self.config)
        return verify_records(
            records, embedder=self.embedder, config=self.config, progress=progress
        )


def records_report(
    results: Sequence[Result], *, records: int, with_errors: int, config: RecordConfig
) -> Report:
    """The records door's :class:`~citecheck.Report` of these results: the options in its
    metadata, the label counts, records and records with errors in its metrics. The command
    line builds it from its checkpoint, so a resumed run reports every record."""
    labels = Counter(r.details["label"] for r in results if "label" in r.details)
    metrics = {
        "labels": dict(labels.most_common()),
        "records": records,
        "records_with_errors": with_errors,
    }
    return Report(
        tuple(results), kind="records", metadata={"config": config.to_dict(), "metrics": metrics}
    )


def validate_records(
    records: Sequence[Mapping[str, Any]],
    *,
    embedder: Embedder | None = None,
    config: RecordConfig | Mapping[str, Any] | str | Path | None = None,
    progress: Progress | None = None,
    **options: Unpack[RecordOptions],
) -> list[dict[str, Any]]:
    """Label every citation of every record; return copies of the records with the results:
    the :func:`verify_records` report, written back into the records.

    Each citation object gets ``validation_status`` (a :class:`~citecheck.records.labels.Label`,
    written as the ``label_set`` option says), ``confidence_score_percent`` (the best cosine
    as a percentage, two decimals; ``null`` when nothing was scored), ``validation_reason`` and
    ``validation_evidence`` (the best passage: source, offsets into the record's source text,
    page, line, section). Options are the fields of :class:`RecordConfig`, as keywords or as
    ``config``. ``embedder`` replaces the sentence-transformers model named by
    ``model_name``; without it, the ``embeddings`` extra is needed
    (:class:`~citecheck.errors.MissingDependencyError`), and a model that cannot load (a wrong
    name, ``device="cuda"`` with no GPU) raises :class:`~citecheck.errors.BackendError` before
    the first record.
    """
    report = verify_records(records, embedder=embedder, config=config, progress=progress, **options)
    settings = RecordConfig.from_mapping(report.metadata["config"])
    by_record: list[list[Result]] = [[] for _ in records]
    for result in report.results:
        by_record[result.details["record"]].append(result)
    return [
        written_back(record, results, settings)
        for record, results in zip(records, by_record, strict=True)
    ]


def iter_validated_records(
    records: Sequence[Mapping[str, Any]],
    *,
    embedder: Embedder | None = None,
    config: RecordConfig | Mapping[str, Any] | str | Path | None = None,
    progress: Progress | None = None,
    start: int = 0,
    **options: Unpack[RecordOptions],
) -> Iterator[dict[str, Any]]:
    """:func:`validate_records` one record at a time, in order, from position ``start``: a
    caller can write each result as it comes. The options, the checks and the results are
    those of :func:`validate_records`, each record's results of :func:`verify_records` written
    back as they come; the records are checked and the model loaded before the first result."""
    results = iter_record_results(
        records, embedder=embedder, config=config, progress=progress, start=start, **options
    )
    return (written for written, _ in results)


def iter_record_results(
    records: Sequence[Mapping[str, Any]],
    *,
    embedder: Embedder | None = None,
    config: RecordConfig | Mapping[str, Any] | str | Path | None = None,
    progress: Progress | None = None,
    start: int = 0,
    **options: Unpack[RecordOptions],
) -> Iterator[tuple[dict[str, Any], tuple[Result, ...]]]:
    """:func:`iter_validated_records` with each record's results beside its written-back copy:
    ``citecheck records`` keeps both in its checkpoint, so that ``--resume`` starts where the
    checkpoint ends and the report still covers every record."""
    settings, validator = _prepared(records, embedder, config, options, start)
    judged = _judge(records, settings, validator, progress, start)
    return (
        (written_back(records[index], record.results, settings), record.results)
        for index, record in enumerate(judged, start=start)
    )


@dataclass(frozen=True, slots=True)
class _Judged:
    """The results of one record, and whether the record itself gets a ``validation_error``
    (it could not be validated, or it holds a citation that is not an object)."""

    results: tuple[Result, ...]
    failed: bool


def _prepared(
    records: Sequence[Any],
    embedder: Embedder | None,
    config: RecordConfig | Mapping[str, Any] | str | Path | None,
    options: Mapping[str, Any],
    start: int = 0,
) -> tuple[RecordConfig, SemanticValidator]:
    """The options and the validator of a run from record ``start``, after the checks every
    run makes before it loads a model."""
    settings = RecordConfig.merged(config, options)
    if isinstance(records, str | bytes) or not isinstance(records, Sequence):
        raise InputError(f"records must be a list of objects, got {type(records).__name__}")
    if not 0 <= start <= len(records):
        raise InputError(f"start must lie in [0, {len(records)}], got {start}")
    return settings, _validator(settings, embedder)


def _judge(
    records: Sequence[Any],
    settings: RecordConfig,
    validator: SemanticValidator,
    progress: Progress | None,
    start: int,
) -> Iterator[_Judged]:
    """Each record's results, in order from ``start``, a block of records embedded at once."""
    for first in range(start, len(records), BLOCK_RECORDS):
        block = records[first : first + BLOCK_RECORDS]
        readable = [r for r in block if _problem(r, settings) is None]
        with suppress(CitecheckError):  # each record then meets the failure and reports it
            validator.prefetch(
                [r[settings.source_field] for r in readable],
                [text for r in readable for text in _citation_texts(r, settings)],
            )
        for index, record in enumerate(block, start=first):
            yield _judged(index, record, settings, validator)
            if progress is not None:
                progress(index + 1, len(records))


def default_embedder(settings: RecordConfig) -> Embedder:
    """The model ``settings.model_name`` names, loaded now (a model that cannot load fails the
    run, or a worker's first batch, not each record): all-MiniLM-L6-v2, the default, as its
    int8 ONNX build when the ``onnx-minilm`` extra is installed, else on sentence-transformers
    (:func:`citecheck.embedders.named.model_embedder`)."""
    from citecheck.embedders.named import loaded, model_embedder

    return loaded(
        model_embedder(
            settings.model_name,
            batch_size=settings.batch_size,
            device=settings.device,
            cache_dir=settings.cache_dir,
        )
    )


def _validator(settings: RecordConfig, embedder: Embedder | None) -> SemanticValidator:
    if embedder is None:
        embedder = default_embedder(settings)
    return SemanticValidator(
        embedder,
        thresholds=settings.thresholds(),
        min_citation_length_words=settings.min_citation_length_words,
        min_chunk_length_chars=settings.min_chunk_length_chars,
        lexical_pass=settings.lexical_pass,
        delimiter=settings.delimiter,
        label_set=settings.label_set,
    )


def _problem(record: Any, settings: RecordConfig) -> str | None:
    """Why ``record`` cannot be validated at all, or ``None``."""
    if not isinstance(record, Mapping):
        return f"a record must be an object, got {type(record).__name__}"
    depth = _depth(record)
    if depth > MAX_RECORD_DEPTH:
        return f"the record nests {depth} levels deep; at most {MAX_RECORD_DEPTH} are read"
    if (problem := _text_problem(record, settings.source_field, "none")) is not None:
        return problem
    citations = record.get(settings.citations_field)
    if not isinstance(citations, list):
        got = "none" if settings.citations_field not in record else type(citations).__name__
        return f"{settings.citations_field!r} must be a list of citation objects, got {got}"
    return None


def _depth(value: Any) -> int:
    """How deeply ``value`` nests lists and mappings, counted without recursion."""
    deepest = 0
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, Mapping):
            children: Any = item.values()
        elif isinstance(item, list | tuple):
            children = item
        else:
            continue
        deepest = max(deepest, depth)
        if depth <= MAX_RECORD_DEPTH:
            stack.extend((child, depth + 1) for child in children)
    return deepest


def _citation_problem(item: Any, settings: RecordConfig) -> str | None:
    """Why a citation object's text cannot be validated, or ``None``."""
    return _text_problem(item, settings.citation_field, "missing")


def _text_problem(container: Mapping[str, Any], field: str, absent: str) -> str | None:
    """Why ``container[field]`` is not text citecheck can read (``absent`` names a missing
    field), or ``None``."""
    text = container.get(field)
    if not isinstance(text, str):
        got = absent if field not in container else type(text).__name__
        return f"{field!r} must be a string, got {got}"
    try:
        check_text(text, repr(field))
    except InputError as exc:
        return str(exc)
    return None


def _citation_texts(record: Mapping[str, Any], settings: RecordConfig) -> list[str]:
    """The texts of the citations of a readable record that can be validated."""
    return [
        item[settings.citation_field]
        for item in record[settings.citations_field]
        if isinstance(item, Mapping) and _citation_problem(item, settings) is None
    ]


def _judged(
    index: int, record: Any, settings: RecordConfig, validator: SemanticValidator
) -> _Judged:
    """The results of record ``index``: one per citation, or one naming why the record could
    not be validated at all (after those of its citations that cannot be read)."""
    source_id = record_id(record, index, settings)
    problem = _problem(record, settings)
    if problem is not None:
        return _Judged((_unchecked(source_id, problem, {"record": index}),), failed=True)
    items = record[settings.citations_field]
    troubles = {
        position: trouble
        for position, item in enumerate(items)
        if (trouble := _item_problem(item, position, settings)) is not None
    }
    results = {
        position: _unchecked(source_id, trouble, {"record": index, "citation": position})
        for position, trouble in troubles.items()
    }
    flagged = any(not isinstance(items[position], Mapping) for position in troubles)
    positions = [position for position in range(len(items)) if position not in troubles]
    texts = [items[position][settings.citation_field] for position in positions]
    try:
        outcomes = validator.validate_many(texts, record[settings.source_field])
    except CitecheckError as exc:
        failure = _unchecked(source_id, f"could not validate: {exc}", {"record": index})
        return _Judged((*results.values(), failure), failed=True)
    for position, text, outcome in zip(positions, texts, outcomes, strict=True):
        citation = Citation(source_id, claim=text, syntax="record")
        where = {"record": index, "citation": position}
        results[position] = _labelled(citation, outcome, validator.label_names, where)
    return _Judged(tuple(results[position] for position in sorted(results)), failed=flagged)


def _item_problem(item: Any, position: int, settings: RecordConfig) -> str | None:
    """Why the citation at ``position`` of a record cannot be validated, or ``None``."""
    if not isinstance(item, Mapping):
        return f"{settings.citations_field}[{position}] is not an object"
    return _citation_problem(item, settings)


def record_id(record: Any, index: int, settings: RecordConfig) -> str:
    """What names a record's citations: its id (a string or an integer in ``id_field``),
    else its position, ``record N``."""
    value = record.get(settings.id_field) if isinstance(record, Mapping) else None
    if (isinstance(value, str) and value) or (
        isinstance(value, int) and not isinstance(value, bool)
    ):
        return str(value)
    return f"record {index}"


def _unchecked(source_id: str, error: str, where: Mapping[str, int]) -> Result:
    """A record or a citation that could not be checked: never a phantom, never a failure."""
    citation = Citation(source_id, syntax="record")
    return verdict.result(citation, Status.UNCHECKED, error, details={**where, "error": error})


def _labelled(
    citation: Citation, outcome: Validation, names: Mapping[Label, str], where: Mapping[str, int]
) -> Result:
    """A labelled citation as a result: the label's status, confidence from the cosine."""
    details: dict[str, Any] = {
        **where,
        "label": names[outcome.label],
        "confidence_score_percent": outcome.confidence_percent,
    }
    evidence = () if outcome.evidence is None else (outcome.evidence,)
    if evidence:
        details["source_offset"] = outcome.source_offset
    if outcome.qualifying:
        details["qualifying"] = [q.to_dict() for q in outcome.qualifying]
    return verdict.result(
        citation,
        outcome.label.status,
        outcome.reason,
        evidence,
        score=outcome.score,
        details=details,
    )


def written_back(record: Any, results: Sequence[Result], settings: RecordConfig) -> dict[str, Any]:
    """A copy of ``record`` with its results written back as ``validation_*`` fields: a
    citation object's into it, a record's failure (or a citation that is not an object) into
    the record. A record that is not an object is wrapped; one nested too deeply to copy gets a
    new top level only."""
    cited = [r for r in results if "citation" in r.details]
    failure = next((r.details["error"] for r in results if "citation" not in r.details), None)
    if not isinstance(record, Mapping):
        return {"record": copy.deepcopy(record), "validation_error": failure}
    if failure is not None and _depth(record) > MAX_RECORD_DEPTH:
        return {**record, "validation_error": failure}
    written = copy.deepcopy(dict(record))
    if cited:
        items: list[Any] = [
            dict(c) if isinstance(c, Mapping) else c for c in written[settings.citations_field]
        ]
        written[settings.citations_field] = items
        loose = []
        for result in cited:
            item = items[result.details["citation"]]
            if isinstance(item, dict):
                item.update(_fields(result))
            else:
                loose.append(result.details["error"])
        if loose:
            written["validation_error"] = "; ".join(loose)
    if failure is not None:
        written["validation_error"] = failure
    return written


def _fields(result: Result) -> dict[str, Any]:
    """The ``validation_*`` fields of a citation object, from its result."""
    if "error" in result.details:
        return {"validation_error": result.details["error"]}
    evidence = None
    if result.evidence:
        e = result.evidence[0]
        offset = result.details["source_offset"]
        evidence = {
            "source": e.source_id,
            "start": offset + e.start,
            "end": offset + e.end,
            "text": e.text,
            "page": e.page,
            "line": e.line,
            "section": e.section,
        }
    return {
        "validation_status": result.details["label"],
        "confidence_score_percent": result.details["confidence_score_percent"],
        "validation_reason": result.reason,
        "validation_evidence": evidence,
    }
