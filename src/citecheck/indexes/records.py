"""What an index stores and returns, and the checks every record passes before any is written.

Metadata follows Pinecone's rules everywhere, so a corpus moves between backends unchanged:
values are strings, numbers, booleans or lists of strings; null and nested objects are refused.
Integers stay integers and floats floats on every backend (Pinecone stores numbers as float64;
its backend restores the types).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, TypeAlias

from citecheck.errors import ConfigError, InputError, RecordError

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

__all__ = [
    "Hit",
    "MetadataValue",
    "Record",
    "check_count",
    "check_ids",
    "check_k",
    "check_metadata",
    "check_records",
    "check_vector",
    "copy_metadata",
]

MetadataValue: TypeAlias = str | int | float | bool | list[str]
METRICS = ("cosine", "dotproduct")


@dataclass(frozen=True, slots=True)
class Record:
    """One entry of an index: an id, a vector, and metadata (where the chunk stands)."""

    id: str
    vector: Sequence[float]
    metadata: Mapping[str, MetadataValue] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Hit:
    """A search result: the record's id, its score (higher is closer) and metadata."""

    id: str
    score: float
    metadata: Mapping[str, MetadataValue]


def check_ids(ids: Iterable[object], what: str = "id") -> list[str]:
    """``ids`` as a list, each a non-empty string that UTF-8 can encode."""
    if isinstance(ids, str):
        raise RecordError(f"{what}s must be a list of strings, not one string {ids!r}")
    checked = list(ids)
    for value in checked:
        if not isinstance(value, str) or not value:
            raise RecordError(f"every {what} must be a non-empty string, got {value!r}")
        _check_encodable(value, f"{what} {value!r}")
    return checked  # type: ignore[return-value]


def _check_encodable(text: str, where: str) -> None:
    """Refuse a string with a lone surrogate (half of a UTF-16 pair, as an escaped JSON string
    or a bad decode leaves), which UTF-8 cannot encode: no saved file or service could store it,
    and an index that took it would fail only later, half way through a save."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise RecordError(
            f"{where}: a lone surrogate {text[exc.start]!r} at character {exc.start}, which "
            "UTF-8 cannot encode"
        ) from None


def check_vector(vector: object, dimension: int | None, where: str) -> NDArray[np.float32]:
    """``vector`` as float32 of ``dimension`` values (any, if ``None``), finite and non-zero."""
    import numpy as np

    try:
        array = np.asarray(vector, dtype=np.float32)
    except (TypeError, ValueError):
        raise RecordError(f"{where}: the vector is not a list of numbers") from None
    if array.ndim != 1 or array.size == 0:
        raise RecordError(f"{where}: the vector must be a flat, non-empty list of numbers")
    if dimension is not None and array.size != dimension:
        raise RecordError(f"{where}: the vector has {array.size} values, the index {dimension}")
    if not np.isfinite(array).all():
        raise RecordError(f"{where}: the vector has a NaN or infinite value")
    if not array.any():
        raise RecordError(f"{where}: the vector is all zeros, which has no direction")
    return array


def check_metadata(metadata: object, where: str) -> dict[str, MetadataValue]:
    """A copy of ``metadata`` after checking every key and value against Pinecone's rules."""
    if not isinstance(metadata, Mapping):
        raise RecordError(f"{where}: metadata must be a mapping, got {type(metadata).__name__}")
    checked: dict[str, MetadataValue] = {}
    for key, value in metadata.items():
        if not isinstance(key, str) or not key:
            raise RecordError(f"{where}: metadata keys must be non-empty strings, got {key!r}")
        _check_encodable(key, f"{where}: metadata key {key!r}")
        if value is None:
            raise RecordError(f"{where}: metadata {key!r} is null; leave the key out instead")
        if isinstance(value, str):
            _check_encodable(value, f"{where}: metadata {key!r}")
            checked[key] = value
        elif isinstance(value, bool | int):
            checked[key] = value
        elif isinstance(value, float):
            if not math.isfinite(value):
                raise RecordError(f"{where}: metadata {key!r} is {value}, not a finite number")
            checked[key] = value
        elif isinstance(value, list | tuple):
            if not all(isinstance(item, str) for item in value):
                raise RecordError(f"{where}: metadata {key!r} must be a list of strings only")
            for item in value:
                _check_encodable(item, f"{where}: metadata {key!r}")
            checked[key] = list(value)
        else:
            raise RecordError(
                f"{where}: metadata {key!r} is a {type(value).__name__}; values must be strings, "
                "numbers, booleans or lists of strings (nested objects are not stored)"
            )
    return checked


def check_records(
    records: Iterable[Record | tuple[str, Sequence[float], Mapping[str, MetadataValue]]],
    dimension: int | None,
) -> tuple[list[str], NDArray[np.float32], list[dict[str, MetadataValue]]]:
    """Ids, a vector matrix and metadata of ``records``, all checked before any is written.

    Records are :class:`Record` objects or ``(id, vector, metadata)`` tuples. An id given twice
    in one call is an error: which copy wins would differ between backends.
    """
    import numpy as np

    ids: list[str] = []
    vectors: list[NDArray[np.float32]] = []
    metadata: list[dict[str, MetadataValue]] = []
    seen: set[str] = set()
    for position, record in enumerate(records):
        if isinstance(record, Record):
            rid, vector, meta = record.id, record.vector, record.metadata
        elif isinstance(record, tuple) and len(record) in (2, 3):
            rid, vector, meta = record[0], record[1], record[2] if len(record) == 3 else {}
        else:
            raise RecordError(
                f"record {position}: expected a Record or an (id, vector, metadata) tuple, "
                f"got {type(record).__name__}"
            )
        [rid] = check_ids([rid])
        where = f"record {rid!r}"
        if rid in seen:
            raise RecordError(f"{where} is given twice in one upsert")
        seen.add(rid)
        dimension = dimension if dimension is not None or not vectors else len(vectors[0])
        vectors.append(check_vector(vector, dimension, where))
        metadata.append(check_metadata(meta, where))
        ids.append(rid)
    matrix = np.stack(vectors) if vectors else np.zeros((0, dimension or 0), dtype=np.float32)
    return ids, matrix, metadata


def check_count(name: str, value: object, minimum: int = 1) -> int:
    """An option that counts something (a dimension, a batch size, retries): an integer of at
    least ``minimum`` (a bool is not one)."""
    if not isinstance(value, int) or isinstance(value, bool) or value < minimum:
        raise ConfigError(f"{name} must be an integer >= {minimum}, got {value!r}")
    return value


def check_k(k: object) -> int:
    """``k`` of a search: a positive integer (a bool is not one)."""
    if not isinstance(k, int) or isinstance(k, bool) or k < 1:
        raise InputError(f"k must be a positive integer, got {k!r}")
    return k


def copy_metadata(metadata: Mapping[str, MetadataValue]) -> dict[str, MetadataValue]:
    """A copy the caller may change without changing the index."""
    return {key: list(v) if isinstance(v, list) else v for key, v in metadata.items()}
