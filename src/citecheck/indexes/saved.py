"""The directory layout the local indexes save to: a JSON manifest and one JSON line per record
(the vectors beside them, in each backend's own file). One reader for all of them, so that a
missing, foreign or broken file is always an :class:`~citecheck.errors.InputError`, never a raw
``KeyError`` from deep inside a load."""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from citecheck.errors import InputError

__all__ = ["read_saved", "reading", "write_saved"]


def write_saved(path: Path, manifest: dict[str, Any], rows: Iterable[dict[str, Any]]) -> None:
    """Write ``rows`` to ``records.jsonl`` and ``manifest`` to ``manifest.json`` in ``path``
    (created if needed), the manifest last."""
    path.mkdir(parents=True, exist_ok=True)
    with (path / "records.jsonl").open("w", encoding="utf-8") as handle:
        for row in rows:
            handle.write(json.dumps(row, ensure_ascii=False) + "\n")
    (path / "manifest.json").write_text(json.dumps(manifest, indent=2), encoding="utf-8")


def read_saved(
    path: Path, what: str, format: str, version: int
) -> tuple[dict[str, Any], list[Any]]:
    """The manifest and record rows saved in ``path`` by a ``what`` (a class name, for the
    error), after checking the manifest names ``format`` and ``version``."""
    try:
        manifest = json.loads((path / "manifest.json").read_text(encoding="utf-8"))
        lines = (path / "records.jsonl").read_text(encoding="utf-8").splitlines()
        rows = [json.loads(line) for line in lines]
    except (OSError, ValueError) as exc:
        raise InputError(f"{path} does not hold a saved {what}: {exc}") from None
    if not isinstance(manifest, dict) or (manifest.get("format"), manifest.get("version")) != (
        format,
        version,
    ):
        raise InputError(f"{path}: not a {format} version {version} manifest")
    return manifest, rows


@contextmanager
def reading(path: Path) -> Iterator[None]:
    """Turn a manifest or a record that lacks a field, or has one of the wrong type, into an
    :class:`~citecheck.errors.InputError` naming ``path``."""
    try:
        yield
    except InputError:
        raise
    except (KeyError, TypeError, AttributeError, ValueError) as exc:
        raise InputError(f"{path}: malformed manifest or records ({exc!r})") from None
