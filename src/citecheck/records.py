"""Batches of AI-written records: each holds a source text and citation texts; each citation
gets a semantic label and a confidence, written back into a copy of its record.

A record that cannot be validated gets ``validation_error`` and the batch goes on; a citation
that is not text gets its own ``validation_error``. Nothing the caller passed is changed.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Mapping, Sequence
from contextlib import suppress
from dataclasses import asdict, dataclass, fields
from pathlib import Path
from typing import TYPE_CHECKING, Any

from citecheck._config import check_keys, read_options
from citecheck.errors import CitecheckError, ConfigError, InputError
from citecheck.semantic import (
    DEFAULT_LABEL_SET,
    Label,
    SemanticValidator,
    Thresholds,
    Validation,
    label_names,
)

if TYPE_CHECKING:
    from citecheck.protocols import Embedder

__all__ = ["RecordConfig", "validate_records"]

Progress = Callable[[int, int], None]
_PREFETCH_RECORDS = 256  # records whose citations are embedded in one batch


@dataclass(frozen=True, slots=True)
class RecordConfig:
    """The options of a record batch, with their defaults (a file may give any subset).

    ``similarity_threshold`` is the lower bound of "likely true"; ``very_likely_true``,
    ``ambiguous`` and ``likely_untrue`` the other bounds (see :class:`~citecheck.semantic.
    Thresholds`). ``source_field``, ``citations_field`` and ``citation_field`` name the fields
    of a record, of its list of citations, and of the text in each citation object.
    ``data_file_name`` and ``output_file_name`` are the CLI's input and output when the command
    line names none. ``cache_dir`` keeps source embeddings on disk between runs. ``label_set``
    says how ``validation_status`` is written (see :data:`~citecheck.semantic.LABEL_SETS`):
    ``"citecheck"`` (the default) or ``"seed"``, the strings of the validator this replaces.
    """

    model_name: str = "all-MiniLM-L6-v2"
    similarity_threshold: float = 0.60
    very_likely_true: float = 0.80
    ambiguous: float = 0.40
    likely_untrue: float = 0.20
    min_citation_length_words: int = 3
    min_chunk_length_chars: int = 20
    lexical_pass: bool = True
    source_field: str = "source_text"
    citations_field: str = "citations"
    citation_field: str = "citation"
    delimiter: str = "Content from "
    batch_size: int = 64
    device: str = "cpu"
    cache_dir: str | None = None
    data_file_name: str | None = None
    output_file_name: str | None = None
    label_set: str = DEFAULT_LABEL_SET

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
        for name in ("model_name", "source_field", "citations_field", "citation_field"):
            value = getattr(self, name)
            if not isinstance(value, str) or not value:
                problems.append(f"{name} must be a non-empty string, not {value!r}")
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

    @classmethod
    def from_mapping(cls, values: Mapping[str, Any]) -> RecordConfig:
        """Options from a mapping; unknown keys raise :class:`ConfigError` naming them."""
        check_keys(values, (f.name for f in fields(cls)), "record")
        return cls(**values)

    @classmethod
    def from_file(cls, path: str | Path) -> RecordConfig:
        """Options from a ``.toml`` or ``.json`` (or ``.yaml``) file."""
        return cls.from_mapping(read_options(path))

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def validate_records(
    records: Sequence[Mapping[str, Any]],
    *,
    embedder: Embedder | None = None,
    config: RecordConfig | Mapping[str, Any] | None = None,
    progress: Progress | None = None,
    **options: Any,
) -> list[dict[str, Any]]:
    """Label every citation of every record; return copies of the records with the results.

    Each citation object gets ``validation_status`` (a :class:`~citecheck.semantic.Label`,
    written as the ``label_set`` option says), ``confidence_score_percent`` (the best cosine
    as a percentage, two decimals; ``null`` when nothing was scored), ``validation_reason`` and
    ``validation_evidence`` (the best passage: source, offsets into the record's source text,
    page, line, section). Options
    are the fields of :class:`RecordConfig`, as keywords or as ``config``. ``embedder``
    replaces the sentence-transformers model named by ``model_name``; without it, the
    ``embeddings`` extra is needed (:class:`~citecheck.errors.MissingDependencyError`).
    """
    settings = _settings(config, options)
    if isinstance(records, str | bytes) or not isinstance(records, Sequence):
        raise InputError(f"records must be a list of objects, got {type(records).__name__}")
    validator = _validator(settings, embedder)
    done: list[dict[str, Any]] = []
    for first in range(0, len(records), _PREFETCH_RECORDS):
        block = records[first : first + _PREFETCH_RECORDS]
        _prefetch(block, settings, validator)
        for index, record in enumerate(block, start=first):
            done.append(_validated(record, settings, validator))
            if progress is not None:
                progress(index + 1, len(records))
    return done


def _prefetch(records: Sequence[Any], settings: RecordConfig, validator: SemanticValidator) -> None:
    """Embed the citations of many records in one batch: a model embeds a batch far faster
    than the same texts a record at a time. A failure here is left for the records to meet."""
    texts = [
        item[settings.citation_field]
        for record in records
        if isinstance(record, Mapping) and isinstance(record.get(settings.citations_field), list)
        for item in record[settings.citations_field]
        if isinstance(item, Mapping) and isinstance(item.get(settings.citation_field), str)
    ]
    with suppress(CitecheckError):  # each record then reports the failure itself
        validator.matcher.prefetch(texts)


def _settings(
    config: RecordConfig | Mapping[str, Any] | None, options: Mapping[str, Any]
) -> RecordConfig:
    base = config.to_dict() if isinstance(config, RecordConfig) else dict(config or {})
    return RecordConfig.from_mapping({**base, **options})


def _validator(settings: RecordConfig, embedder: Embedder | None) -> SemanticValidator:
    if embedder is None:
        from citecheck.embedders import SentenceTransformerEmbedder

        SentenceTransformerEmbedder.check_installed()  # say so once, not once per record
        embedder = SentenceTransformerEmbedder(
            settings.model_name,
            batch_size=settings.batch_size,
            device=settings.device,
            cache_dir=settings.cache_dir,
        )
    return SemanticValidator(
        embedder,
        thresholds=settings.thresholds(),
        min_citation_length_words=settings.min_citation_length_words,
        min_chunk_length_chars=settings.min_chunk_length_chars,
        lexical_pass=settings.lexical_pass,
        delimiter=settings.delimiter,
        label_set=settings.label_set,
    )


def _validated(record: Any, settings: RecordConfig, validator: SemanticValidator) -> dict[str, Any]:
    if not isinstance(record, Mapping):
        return {"validation_error": f"a record must be an object, got {type(record).__name__}"}
    result = copy.deepcopy(dict(record))
    source = record.get(settings.source_field)
    citations = record.get(settings.citations_field)
    if not isinstance(source, str):
        got = "none" if settings.source_field not in record else type(source).__name__
        result["validation_error"] = f"{settings.source_field!r} must be a string, got {got}"
        return result
    if not isinstance(citations, list):
        got = "none" if settings.citations_field not in record else type(citations).__name__
        result["validation_error"] = (
            f"{settings.citations_field!r} must be a list of citation objects, got {got}"
        )
        return result
    texts: list[str] = []
    positions: list[int] = []
    bad: list[str] = []
    for i, item in enumerate(citations):
        if not isinstance(item, Mapping):
            bad.append(f"{settings.citations_field}[{i}] is not an object")
            continue
        text = item.get(settings.citation_field)
        if not isinstance(text, str):
            got = "missing" if settings.citation_field not in item else type(text).__name__
            result[settings.citations_field][i]["validation_error"] = (
                f"{settings.citation_field!r} must be a string, got {got}"
            )
            continue
        texts.append(text)
        positions.append(i)
    try:
        outcomes = validator.validate_many(texts, source)
    except CitecheckError as exc:
        result["validation_error"] = f"could not validate: {exc}"
        return result
    for i, outcome in zip(positions, outcomes, strict=True):
        result[settings.citations_field][i].update(_fields(outcome, validator.label_names))
    if bad:
        result["validation_error"] = "; ".join(bad)
    return result


def _fields(outcome: Validation, names: Mapping[Label, str]) -> dict[str, Any]:
    evidence = None
    if outcome.evidence is not None:
        e = outcome.evidence
        offset = outcome.source_offset
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
        "validation_status": names[outcome.label],
        "confidence_score_percent": outcome.confidence_percent,
        "validation_reason": outcome.reason,
        "validation_evidence": evidence,
    }
