"""Reading a file of quotes: one per line, JSON, JSON Lines or CSV.

A line that is not valid UTF-8 becomes its raw bytes, so the run reports that quote as not text
instead of stopping or guessing an encoding.
"""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path
from typing import Any

from citecheck.errors import SourceError

__all__ = ["read_quotes"]


def read_quotes(path: Path) -> list[object]:
    """The quotes in ``path`` by its suffix: ``.json`` (a list of strings or of objects with a
    ``quote`` field), ``.jsonl``, ``.csv`` (a ``quote`` column), anything else one per line."""
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise SourceError(f"cannot read {path}: {exc.strerror}") from None
    suffix = path.suffix.lower()
    if suffix in {".json", ".jsonl", ".csv"}:
        try:
            text = raw.decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            raise SourceError(f"{path} is not UTF-8 ({exc.reason} at byte {exc.start})") from None
        if suffix == ".json":
            return _from_json(path, text)
        if suffix == ".jsonl":
            return [
                _quote_field(_json(path, line, number))
                for number, line in enumerate(text.splitlines(), 1)
                if line.strip()
            ]
        return _from_csv(path, text)
    return [_decode_line(line) for line in raw.splitlines() if line.strip()]


def _decode_line(line: bytes) -> object:
    try:
        return line.decode("utf-8").strip()
    except UnicodeDecodeError:
        return line


def _json(path: Path, text: str, line: int | None = None) -> Any:
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        where = f" on line {line}" if line is not None else ""
        raise SourceError(f"{path} is not valid JSON{where}: {exc}") from None


def _from_json(path: Path, text: str) -> list[object]:
    data = _json(path, text)
    if not isinstance(data, list):
        raise SourceError(f"{path} must hold a JSON list of quotes")
    return [_quote_field(item) for item in data]


def _quote_field(item: Any) -> object:
    """A string item is the quote; an object's ``quote`` field is; anything else is kept as
    it is and reported as not text."""
    if isinstance(item, dict):
        return item.get("quote")
    return item


def _from_csv(path: Path, text: str) -> list[object]:
    reader = csv.DictReader(io.StringIO(text))
    if reader.fieldnames is None or "quote" not in reader.fieldnames:
        raise SourceError(f"{path} needs a 'quote' column")
    return [row["quote"] for row in reader]
