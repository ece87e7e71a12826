"""Pinecone's metadata filter language, checked and evaluated the same way by every local backend.

``{"doc_id": "smith2020", "page": {"$gte": 3, "$lte": 5}}``: several keys are an implicit AND;
a bare value means ``$eq``; ``$and`` and ``$or`` take a list of filters. On a list field,
``$eq`` and ``$in`` match when any element matches, ``$ne`` and ``$nin`` when none does. A
record without the field matches only ``{"$exists": False}``. Ranges compare numbers only.
Values compare by kind: ``True`` is not ``1`` and ``"1"`` is not ``1``.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from typing import Any, TypeAlias

from citecheck.errors import FilterError

__all__ = ["Filter", "check_filter", "matches"]

Filter: TypeAlias = Mapping[str, Any]

_RANGES: dict[str, Callable[[float, float], bool]] = {
    "$gt": lambda a, b: a > b,
    "$gte": lambda a, b: a >= b,
    "$lt": lambda a, b: a < b,
    "$lte": lambda a, b: a <= b,
}
_OPERATORS = frozenset({"$eq", "$ne", "$in", "$nin", "$exists", *_RANGES})


def _is_number(value: object) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _is_scalar(value: object) -> bool:
    return isinstance(value, str | bool) or (_is_number(value) and math.isfinite(value))  # type: ignore[arg-type]


def check_filter(filter: object) -> Filter:
    """``filter`` itself, after checking it; a :class:`FilterError` names what is wrong."""
    _check(filter, "filter")
    return filter  # type: ignore[return-value]


def _check(node: object, where: str) -> None:
    if not isinstance(node, Mapping):
        raise FilterError(f"{where} must be a mapping, got {type(node).__name__}")
    if not node:
        raise FilterError(f"{where} is empty; pass None for no filter")
    for key, value in node.items():
        if not isinstance(key, str):
            raise FilterError(f"{where}: keys must be strings, got {key!r}")
        if key in ("$and", "$or"):
            if not isinstance(value, list | tuple) or not value:
                raise FilterError(f"{where}: {key} takes a non-empty list of filters")
            for i, part in enumerate(value):
                _check(part, f"{where}.{key}[{i}]")
        elif key.startswith("$"):
            raise FilterError(f"{where}: unknown operator {key!r} at the top of a filter")
        elif isinstance(value, Mapping):
            _check_condition(value, f"{where}.{key}")
        elif not _is_scalar(value):
            raise FilterError(
                f"{where}.{key}: a bare value must be a string, number or boolean, got {value!r}"
            )


def _check_condition(condition: Mapping[str, Any], where: str) -> None:
    if not condition:
        raise FilterError(f"{where}: empty condition")
    for operator, operand in condition.items():
        if operator not in _OPERATORS:
            raise FilterError(
                f"{where}: unknown operator {operator!r}; known: {', '.join(sorted(_OPERATORS))}"
            )
        if operator in _RANGES and not (_is_number(operand) and math.isfinite(operand)):
            raise FilterError(f"{where}: {operator} needs a number, got {operand!r}")
        if operator in ("$eq", "$ne") and not _is_scalar(operand):
            raise FilterError(f"{where}: {operator} needs a string, number or boolean")
        if operator in ("$in", "$nin") and (
            not isinstance(operand, list | tuple) or not all(_is_scalar(v) for v in operand)
        ):
            raise FilterError(f"{where}: {operator} needs a list of strings, numbers or booleans")
        if operator == "$exists" and not isinstance(operand, bool):
            raise FilterError(f"{where}: $exists needs true or false, got {operand!r}")


def _same(a: object, b: object) -> bool:
    """Equal and of the same kind: numbers with numbers, strings with strings, booleans alone."""
    if isinstance(a, bool) or isinstance(b, bool):
        return isinstance(a, bool) and isinstance(b, bool) and a == b
    if _is_number(a) and _is_number(b):
        return a == b
    return isinstance(a, str) and isinstance(b, str) and a == b


def matches(metadata: Mapping[str, Any], filter: Filter | None) -> bool:
    """Whether a record with ``metadata`` passes ``filter`` (``None`` passes everything).

    ``filter`` must have passed :func:`check_filter`; this function does not check it again.
    """
    if filter is None:
        return True
    for key, value in filter.items():
        if key == "$and":
            if not all(matches(metadata, part) for part in value):
                return False
        elif key == "$or":
            if not any(matches(metadata, part) for part in value):
                return False
        else:
            condition = value if isinstance(value, Mapping) else {"$eq": value}
            if not _satisfies(metadata, key, condition):
                return False
    return True


def _satisfies(metadata: Mapping[str, Any], key: str, condition: Mapping[str, Any]) -> bool:
    present = key in metadata
    value = metadata.get(key)
    values = value if isinstance(value, list) else [value]
    for operator, operand in condition.items():
        if operator == "$exists":
            ok = present is operand
        elif not present:
            ok = False
        elif operator == "$eq":
            ok = any(_same(v, operand) for v in values)
        elif operator == "$ne":
            ok = not any(_same(v, operand) for v in values)
        elif operator == "$in":
            ok = any(_same(v, o) for v in values for o in operand)
        elif operator == "$nin":
            ok = not any(_same(v, o) for v in values for o in operand)
        else:
            ok = _is_number(value) and _RANGES[operator](value, operand)  # type: ignore[arg-type]
        if not ok:
            return False
    return True
