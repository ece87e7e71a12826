"""A bibliography for a paper library: its entries (read by
:mod:`citecheck.documents.bibliography`), the file each names, and a refusal of duplicate keys.

The shared reader skips a second entry with a key already read and warns. A paper library
cannot: which of the two entries' files would be the paper is a guess, and a guess would file
text under the wrong work. So a key used twice is an error naming both entries.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from citecheck.errors import PaperFileError

__all__ = ["check_unique_keys", "entry_file"]

_BIBTEX_ENTRY = re.compile(
    r"^[ \t]*@[ \t]*([A-Za-z]+)[ \t]*[{(][ \t\r\n]*([^,\s{}()]+)[ \t]*,", re.M
)
_NOT_ENTRIES = frozenset({"comment", "string", "preamble"})


def check_unique_keys(path: Path) -> None:
    """Raise :class:`PaperFileError` when two entries of the bibliography ``path`` share a
    key, naming both (their lines in BibTeX, their places and titles in CSL JSON). A file that
    cannot be read is left to the bibliography reader, which says why."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return
    if path.suffix.lower() == ".json":
        _check_csl(path, text)
        return
    first: dict[str, int] = {}
    for match in _BIBTEX_ENTRY.finditer(text):
        if match.group(1).lower() in _NOT_ENTRIES:
            continue
        key, line = match.group(2), text.count("\n", 0, match.start()) + 1
        if key in first:
            raise PaperFileError(
                path,
                f"{path}: the key {key!r} is used twice, by the entry on line {first[key]} and "
                f"the entry on line {line}; give each work a key of its own",
            )
        first[key] = line


def _check_csl(path: Path, text: str) -> None:
    try:
        items = json.loads(text)
    except ValueError:
        return
    if not isinstance(items, list):
        return
    first: dict[str, int] = {}
    for index, item in enumerate(items):
        key = item.get("id", item.get("key")) if isinstance(item, dict) else None
        if key is None:
            continue
        key = str(key)
        if key in first:
            titles = [items[i].get("title") for i in (first[key], index)]
            raise PaperFileError(
                path,
                f"{path}: the key {key!r} is used twice, by item {first[key]} ({titles[0]!r}) "
                f"and item {index} ({titles[1]!r}); give each work a key of its own",
            )
        first[key] = index


def entry_file(bibliography: Path, file: str | None) -> Path | None:
    """The file an entry names, as an absolute path: relative to the bibliography's folder
    unless absolute."""
    if not file:
        return None
    named = Path(file).expanduser()
    if not named.is_absolute():
        named = bibliography.parent / named
    return named.resolve()
