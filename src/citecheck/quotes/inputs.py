"""Reading a file of quotes: one per line, JSON, JSON Lines or CSV.

A file that is not what it claims to be is an error naming the line: binary data (which would
otherwise become dozens of junk quotes), bytes that are not UTF-8 in a JSON or CSV file, a JSON
file that is not JSON. One row that cannot be read is that row's problem, and the others are
checked: a JSON Lines line that is not JSON, a record without a ``quote``, a CSV row without a
``quote`` cell becomes an :class:`Unreadable` row, which the run reports ``unchecked`` with the
reason (its file and line). In a plain text file, one line that is not valid UTF-8 becomes its
raw bytes, so the run reports that quote as not text instead of stopping or guessing an
encoding.
"""

from __future__ import annotations

import csv
import io
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from citecheck.documents.files import decode_text, reject_binary
from citecheck.errors import SourceError

__all__ = ["Unreadable", "read_quotes"]


@dataclass(frozen=True, slots=True)
class Unreadable:
    """A row of a quotes file that could not be read as a quote; ``reason`` names its file and
    line. The run reports it ``unchecked`` and checks the other rows."""

    reason: str

    def __repr__(self) -> str:
        return self.reason


def read_quotes(path: Path) -> list[object]:
    """The quotes in ``path`` by its suffix: ``.json`` (a list of strings or of objects with a
    ``quote`` field), ``.jsonl``, ``.csv`` (a ``quote`` column), anything else one per line."""
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise SourceError(f"cannot read {path}: {exc.strerror}") from None
    suffix = path.suffix.lower()
    if suffix in {".json", ".jsonl", ".csv"}:
        text = decode_text(raw, path, "utf-8-sig")
        if suffix == ".json":
            return _from_json(path, text)
        if suffix == ".jsonl":
            return [
                _jsonl_row(path, line, number)
                for number, line in enumerate(text.splitlines(), 1)
                if line.strip()
            ]
        return _from_csv(path, text)
    reject_binary(raw, path)
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
    except RecursionError:
        where = f" on line {line}" if line is not None else ""
        raise SourceError(f"{path}: the JSON{where} is nested too deeply to read") from None


def _jsonl_row(path: Path, line: str, number: int) -> object:
    try:
        return _quote_field(_json(path, line, number), f"{path}, line {number}")
    except SourceError as exc:
        return Unreadable(str(exc))


def _from_json(path: Path, text: str) -> list[object]:
    data = _json(path, text)
    if not isinstance(data, list):
        raise SourceError(f"{path} must hold a JSON list of quotes")
    return [_quote_field(item, f"{path}, item {n} of the list") for n, item in enumerate(data, 1)]


def _quote_field(item: Any, where: str) -> object:
    """A string item is the quote; an object's ``quote`` field is (an object without one is an
    :class:`Unreadable` row naming ``where``: it would check nothing); anything else is kept as
    it is and reported as not text."""
    if isinstance(item, dict):
        if item.get("quote") is None:
            return Unreadable(f"{where}: the record has no 'quote' field")
        return item["quote"]
    return item


def _from_csv(path: Path, text: str) -> list[object]:
    reader = csv.DictReader(io.StringIO(text))
    if reader.fieldnames is None or "quote" not in reader.fieldnames:
        raise SourceError(f"{path} needs a 'quote' column")
    quotes: list[object] = []
    for row in reader:
        if row["quote"] is None:
            quotes.append(
                Unreadable(f"{path}, line {reader.line_num}: the row has no 'quote' cell")
            )
        else:
            quotes.append(row["quote"])
    return quotes
