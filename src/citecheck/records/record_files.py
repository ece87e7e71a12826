"""The files of ``citecheck records``: the input records, the checkpoint that lets an
interrupted run resume, and the output, written whole.

The run appends each labelled record to the checkpoint, ``OUTPUT.partial.jsonl``, as soon as it
is done (flushed at once, forced to disk every block of records), and writes the output from it
at the end, all at once, then removes it. A run that is killed keeps every record it finished;
``--resume`` checks that the checkpoint belongs to the same input and options (a hash of each
input record and of the options are stored in it) and goes on from the first record it lacks.
The output itself is never half-written: a reader sees the old file or the new one.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
from collections.abc import Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import IO, Any

from citecheck._atomic import write_text_atomic
from citecheck.errors import InputError, WriteError
from citecheck.language.text import json_escaped
from citecheck.model import Result

__all__ = ["Checkpoint", "checkpoint_path", "read_records", "same_file", "write_output"]

_KIND = "citecheck records checkpoint"
_VERSION = 2  # 2: each entry keeps the record's results too, for the report
_NOT_RESULTS = frozenset(
    {"batch_size", "device", "cache_dir", "data_file_name", "output_file_name", "id_field"}
)
"""Options that do not change a labelled record, so a run may resume with others (``id_field``
names a record's citations only in a report, never in the records written)."""


def read_records(path: Path) -> list[Any]:
    """The JSON list of records in ``path``; :class:`InputError` naming the file when it is not
    UTF-8, not JSON, nested too deeply for the JSON reader, or not a list."""
    try:
        text = path.read_bytes().decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InputError(f"{path} is not UTF-8 text: byte {exc.start} cannot be read") from None
    try:
        records = json.loads(text)
    except json.JSONDecodeError as exc:
        raise InputError(f"{path} is not valid JSON: {exc}") from None
    except RecursionError:
        raise InputError(
            f"{path} nests lists or objects too deeply to read (about a thousand levels)"
        ) from None
    if not isinstance(records, list):
        raise InputError(f"{path} must hold a JSON list of records, not a {_json_type(records)}")
    return records


def same_file(one: Path, other: Path) -> bool:
    """Whether two paths name one file: the same path, a symbolic link to it, or a hard link."""
    if one.resolve() == other.resolve():
        return True
    try:
        return os.path.samefile(one, other)
    except OSError:  # one of them does not exist yet: it cannot be the other
        return False


def checkpoint_path(output: Path) -> Path:
    """Where a run writing ``output`` keeps its checkpoint: beside it."""
    return output.with_name(output.name + ".partial.jsonl")


def write_output(path: Path, results: Iterable[Mapping[str, Any]]) -> None:
    """Write the labelled records to ``path`` at once: JSON Lines for a ``.jsonl`` name (one
    record a line, at its input's position), else a JSON list (the format of the validator
    citecheck replaces)."""
    if path.suffix.lower() == ".jsonl":
        text = "".join(_dumps(r) + "\n" for r in results)
    else:
        lines = ",\n".join(_indented(r) for r in results)
        text = f"[\n{lines}\n]\n" if lines else "[]\n"
    write_text_atomic(path, text)


class Checkpoint:
    """The records a run has finished, one JSON line each, after a header naming the run.

    ``records`` are the run's input records and ``options`` its options: both are compared,
    by hash, with what a checkpoint found on disk before it is resumed."""

    def __init__(self, path: Path, records: Sequence[Any], options: Mapping[str, Any]) -> None:
        self.path = path
        self.records = records
        self.options = _fingerprint({k: v for k, v in options.items() if k not in _NOT_RESULTS})
        self.done = 0
        self._stream: IO[str] | None = None

    def exists(self) -> bool:
        return self.path.exists()

    def resume(self) -> int:
        """Read the checkpoint on disk: how many records it holds, each checked against the
        input record at its position. A line cut short by a crash is dropped. A checkpoint of
        another input, other options or a damaged one is an :class:`InputError` saying so."""
        raw = self.path.read_bytes()
        lines = raw.split(b"\n")
        whole = lines[:-1]  # what follows the last newline was cut short
        if not whole:
            self._truncate(0)
            return 0
        header = self._line(whole[0], 1)
        if header.get("kind") != _KIND:
            raise InputError(f"{self.path} is not a checkpoint of citecheck records")
        if header.get("version") != _VERSION:
            raise InputError(
                f"{self.path} was written by another release of citecheck, which kept less: "
                "delete it to start over"
            )
        if header.get("records") != len(self.records):
            raise InputError(
                f"{self.path} is the checkpoint of a run over {header.get('records')} records, "
                f"not these {len(self.records)}: delete it to start over"
            )
        if header.get("options") != self.options:
            raise InputError(
                f"{self.path} was made with other options: run with those, or delete it to "
                "start over"
            )
        for number, line in enumerate(whole[1:], start=2):
            entry = self._line(line, number)
            index = number - 2
            if (
                entry.get("index") != index
                or not isinstance(entry.get("result"), dict)
                or not isinstance(entry.get("results"), list)
            ):
                raise InputError(f"{self.path}, line {number}: not the result of record {index}")
            if index >= len(self.records) or entry.get("input") != _fingerprint(
                self.records[index]
            ):
                raise InputError(
                    f"{self.path}, line {number}: record {index} of the input is not the one "
                    "this checkpoint labelled: it belongs to another input; delete it to start "
                    "over"
                )
        self.done = len(whole) - 1
        self._truncate(sum(len(line) + 1 for line in whole))
        return self.done

    def begin(self) -> None:
        """Open the checkpoint for appending; a new one starts with its header."""
        if self.done == 0:
            header = {
                "kind": _KIND,
                "version": _VERSION,
                "records": len(self.records),
                "options": self.options,
            }
            write_text_atomic(self.path, _dumps(header) + "\n")
        try:
            self._stream = self.path.open("a", encoding="utf-8", newline="\n")
        except OSError as exc:
            raise WriteError(self.path, exc) from exc

    def append(self, result: Mapping[str, Any], results: Sequence[Result]) -> None:
        """Add the next record, written back, and its results, flushed at once (a killed
        process keeps it)."""
        assert self._stream is not None, "begin() first"
        index = self.done
        entry = {
            "index": index,
            "input": _fingerprint(self.records[index]),
            "result": result,
            "results": [r.to_dict() for r in results],
        }
        try:
            self._stream.write(_dumps(entry) + "\n")
            self._stream.flush()
        except OSError as exc:  # a full disk: the records before this one are kept whole
            self.abandon()
            raise WriteError(self.path, exc) from exc
        self.done += 1

    def sync(self) -> None:
        """Force what was appended onto the disk (a power cut keeps it too); a
        :class:`WriteError` naming the checkpoint when the disk refuses."""
        if self._stream is not None:
            try:
                self._stream.flush()
                os.fsync(self._stream.fileno())
            except OSError as exc:
                self.abandon()
                raise WriteError(self.path, exc) from exc

    def close(self) -> None:
        if self._stream is not None:
            self.sync()
            self._stream.close()
            self._stream = None

    def abandon(self) -> None:
        """Close the checkpoint after a failure without raising: what reached the disk stays
        (a line cut short by a full disk is dropped on ``--resume``)."""
        stream, self._stream = self._stream, None
        if stream is not None:
            # the unwritten tail of a full disk: nothing more can be kept
            with contextlib.suppress(OSError):
                stream.close()

    def results(self) -> Iterator[dict[str, Any]]:
        """The records it holds, written back, in order."""
        for entry in self._entries():
            result: dict[str, Any] = entry["result"]
            yield result

    def verdicts(self) -> Iterator[Result]:
        """The results of every record it holds, in order."""
        for entry in self._entries():
            yield from (Result.from_dict(r) for r in entry["results"])

    def _entries(self) -> Iterator[dict[str, Any]]:
        with self.path.open(encoding="utf-8") as stream:
            next(stream)  # the header
            for line in stream:
                entry: dict[str, Any] = json.loads(line)
                yield entry

    def remove(self) -> None:
        self.close()
        self.path.unlink(missing_ok=True)

    def _line(self, line: bytes, number: int) -> dict[str, Any]:
        try:
            value = json.loads(line)
        except (UnicodeDecodeError, json.JSONDecodeError, RecursionError):
            value = None
        if not isinstance(value, dict):
            raise InputError(f"{self.path}, line {number}: damaged; delete it to start over")
        return value

    def _truncate(self, size: int) -> None:
        with self.path.open("r+b") as stream:
            stream.truncate(size)


def _fingerprint(value: Any) -> str:
    """A SHA-256 of ``value`` as canonical JSON (keys sorted, escapes for any non-ASCII)."""
    text = json.dumps(value, sort_keys=True, ensure_ascii=True, separators=(",", ":"))
    return hashlib.sha256(text.encode("ascii")).hexdigest()


def _dumps(value: Any) -> str:
    """One line of JSON: readable UTF-8, or ``\\u`` escapes where a string holds a lone
    surrogate (an input's ``\\ud800``), which no UTF-8 file can hold but JSON can say."""
    return json_escaped(json.dumps(value, ensure_ascii=False))


def _indented(value: Any) -> str:
    """One record of the JSON list, indented as the list's items are."""
    text = json_escaped(json.dumps(value, ensure_ascii=False, indent=2))
    return "  " + text.replace("\n", "\n  ")


def _json_type(value: Any) -> str:
    return {dict: "object", str: "string", bool: "boolean"}.get(type(value), type(value).__name__)
