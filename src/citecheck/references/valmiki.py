"""The text of the Valmiki Ramayana from the layout of shubhattin/valmiki_ramayanam (as in
``shared/data/references/ramayana``): ``sargas/<kanda>/<sarga>.json``, each a JSON list whose
first and last strings are colophons and whose other strings are shlokas ending in a
``॥kanda-sarga-shloka॥`` tag in Devanagari digits."""

from __future__ import annotations

import json
import re
from pathlib import Path

from citecheck.errors import InputError
from citecheck.references.builtin import valmiki_ramayana

__all__ = ["load_valmiki_shlokas", "read_verse_texts"]

_TAG = re.compile(r"॥\s*([०-९0-9]+)-([०-९0-9]+)-([०-९0-9]+)\s*॥\s*$")
_DIGITS = str.maketrans("०१२३४५६७८९", "0123456789")


def load_valmiki_shlokas(directory: str | Path) -> dict[str, str]:
    """Every shloka's text by canonical reference (``"Bala 1.1"``), in order.

    ``directory`` is the ``sargas`` folder (or the folder holding it). A shloka's number is the
    one its tag gives; an untagged shloka takes its position. A file that is not a JSON list
    of strings raises :class:`~citecheck.errors.InputError` naming it.
    """
    root = Path(directory)
    if (root / "sargas").is_dir():
        root = root / "sargas"
    if not root.is_dir():
        raise InputError(f"{root} is not a directory of sargas")
    scheme = valmiki_ramayana()
    texts: dict[str, str] = {}
    for book in scheme.books:
        folder = root / str(book.number)
        files = [file for file in folder.glob("*.json") if file.stem.isdigit()]
        for file in sorted(files, key=lambda file: int(file.stem)):
            try:
                entries = json.loads(file.read_text(encoding="utf-8"))
            except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
                raise InputError(f"cannot read {file}: {exc}") from None
            if not isinstance(entries, list) or not all(isinstance(e, str) for e in entries):
                raise InputError(f"{file} is not a JSON list of strings")
            for position, shloka in enumerate(entries[1:-1], start=1):
                tag = _TAG.search(shloka)
                number = int(tag.group(3).translate(_DIGITS)) if tag else position
                key = scheme.canonical(book.name, (int(file.stem), number))
                texts[key] = shloka
    return texts


def read_verse_texts(path: str | Path) -> dict[str, str]:
    """Verse texts by reference: a JSON object file of reference -> text, or a Valmiki
    Ramayana ``sargas`` folder (:func:`load_valmiki_shlokas`). Anything else is an
    :class:`~citecheck.errors.InputError` naming the file."""
    path = Path(path)
    if path.is_dir():
        return load_valmiki_shlokas(path)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        raise InputError(f"{path} is not valid JSON: {exc}") from None
    if not isinstance(data, dict) or not all(isinstance(v, str) for v in data.values()):
        raise InputError(f"{path} must be a JSON object of reference -> text")
    return data
