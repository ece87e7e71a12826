"""Bibliographies: a BibTeX file, a CSL JSON file or a mapping, read into one list of entries
(key, authors' family names, year, title, file).

One job: reading. Deciding which entry a citation means, and which source an entry is, belongs
to :mod:`citecheck.verification.resolution`; a paper library reads its bibliography through this
module too. BibTeX needs the ``bib`` extra (bibtexparser, imported only when a ``.bib`` file is
read). An entry that cannot be read is skipped and named in :attr:`Bibliography.warnings`, so one
broken entry does not cost the rest of the file.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from os import PathLike
from pathlib import Path
from typing import Any

from citecheck.errors import ConfigError, InputError, MissingDependencyError

__all__ = ["BibEntry", "Bibliography", "BibliographySpec", "family_names", "read_bibliography"]

_YEAR = re.compile(r"(?<!\d)(?:1[5-9]|20)\d\d(?:[a-z](?![a-z]))?(?!\d)")
_INITIALS = re.compile(r"(?:[A-Z]\.?-?){1,3}")
_PERSONS = re.compile(r"\s+and\s+|\s*;\s*|\s*,?\s*&\s*")
_BRACES = re.compile(r"[{}]")
_UNESCAPED_COLON = re.compile(r"(?<!\\):")


@dataclass(frozen=True, slots=True)
class BibEntry:
    """One work: its citation key, the family names of its authors in order (particles kept:
    ``van der Berg``), its year as written (``2020``, ``2020a``; ``None`` when undated), its
    title and the file that holds its text, when the bibliography names one."""

    key: str
    authors: tuple[str, ...] = ()
    year: str | None = None
    title: str | None = None
    file: str | None = None

    @classmethod
    def from_fields(cls, key: str, fields: Mapping[str, Any]) -> BibEntry:
        """An entry from fields named as in BibTeX, CSL JSON or a source's metadata: ``author``
        or ``authors`` (a string such as ``"Smith, J. and Lee, K."``, or a list of names or
        CSL name objects), ``year``, ``date`` or ``issued``, ``title``, and ``file`` or
        ``path``."""
        authors = fields.get("author", fields.get("authors"))
        when = next(
            (fields[name] for name in ("year", "date", "issued") if fields.get(name) is not None),
            None,
        )
        title, file = fields.get("title"), fields.get("file", fields.get("path"))
        return cls(
            key,
            family_names(authors),
            _year(when),
            (_BRACES.sub("", title).strip() or None) if isinstance(title, str) else None,
            _file(file) if isinstance(file, str) else None,
        )


@dataclass(frozen=True, slots=True)
class Bibliography:
    """Entries in the order read, and the warnings met reading them (entries skipped, with the
    file and line). Keys are unique: a later entry with a key already read is skipped."""

    entries: tuple[BibEntry, ...] = ()
    warnings: tuple[str, ...] = ()

    def __iter__(self) -> Iterator[BibEntry]:
        return iter(self.entries)

    def __len__(self) -> int:
        return len(self.entries)

    def get(self, key: str) -> BibEntry | None:
        """The entry with citation key ``key``, if any."""
        return next((entry for entry in self.entries if entry.key == key), None)

    @property
    def keys(self) -> list[str]:
        """The citation keys, in order."""
        return [entry.key for entry in self.entries]


BibliographySpec = Bibliography | str | PathLike[str] | Mapping[str, Any] | Sequence[Any]
"""What :func:`read_bibliography` accepts."""


def read_bibliography(value: BibliographySpec) -> Bibliography:
    """A :class:`Bibliography` from a file (``.bib`` BibTeX, ``.json`` CSL JSON), a mapping of
    key to fields (:meth:`BibEntry.from_fields`), a list of CSL JSON items, or a
    ``Bibliography`` (returned as is). Raises :class:`~citecheck.errors.InputError` naming what
    is wrong: a missing file, invalid JSON, an entry that is not a mapping or has no key."""
    if isinstance(value, Bibliography):
        return value
    if isinstance(value, str | PathLike):
        return _from_file(Path(value))
    if isinstance(value, Mapping):
        items = []
        for key, fields in value.items():
            if not isinstance(fields, Mapping):
                raise InputError(f"bibliography entry {key!r} must be a mapping of fields")
            items.append(BibEntry.from_fields(str(key), fields))
        return _unique(items, "the bibliography")
    if isinstance(value, Sequence) and not isinstance(value, bytes | bytearray):
        return _from_csl(value, "the bibliography")
    raise InputError(
        f"a bibliography is a .bib or .json file, a mapping or a list of CSL JSON items, "
        f"not {type(value).__name__}"
    )


def family_names(value: Any) -> tuple[str, ...]:
    """The family names in an author field: ``"Smith, John and Jones, Mary"``, ``"John Smith,
    Mary Jones"``, ``"Smith J, Jones MA"``, ``"J. Smith & M. Jones"``, a list of names, or CSL
    name objects (``{"family": …}``, ``{"literal": …}``)."""
    if value is None:
        return ()
    if isinstance(value, str):
        persons = [p for p in _PERSONS.split(value.strip()) if p.strip()]
        if len(persons) == 1:
            parts = [p.strip() for p in persons[0].split(",") if p.strip()]
            if len(parts) > 1 and all(len(p.split()) > 1 for p in parts):
                persons = parts  # "John Smith, Mary Jones": names, not "Last, First"
        return tuple(name for person in persons if (name := _family(person)))
    if isinstance(value, Sequence):
        names: list[str] = []
        for person in value:
            if isinstance(person, Mapping):
                given = person.get("family") or person.get("literal") or person.get("name")
                if isinstance(given, str) and given.strip():
                    names.append(" ".join(given.split()))
            elif isinstance(person, str) and (family := _family(person)):
                names.append(family)
        return tuple(names)
    return ()


def _family(person: str) -> str:
    """The family name of one person: ``Smith, John``, ``John Smith``, ``Smith J``."""
    person = _BRACES.sub("", person).strip()
    if "," in person:
        return " ".join(person.split(",")[0].split())
    words = person.split()
    while len(words) > 1 and _INITIALS.fullmatch(words[-1]):
        words.pop()  # "Smith J", "Jones MA": initials after the family name
    if len(words) < len(person.split()):
        return " ".join(words)
    last = len(words) - 1
    while last > 0 and words[last - 1][:1].islower():
        last -= 1  # particles: "Anna van der Berg"
    return " ".join(words[last:])


def _year(value: Any) -> str | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return str(value)
    if isinstance(value, Mapping):  # CSL: {"date-parts": [[2020, 5]]}, {"raw": "2020"}
        parts = value.get("date-parts")
        if isinstance(parts, Sequence) and parts and isinstance(parts[0], Sequence) and parts[0]:
            return _year(parts[0][0])
        value = value.get("raw") or value.get("literal")
    if isinstance(value, str):
        found = _YEAR.search(value)
        return None if found is None else found.group()
    return None


def _file(value: str) -> str | None:
    """The first path of a BibTeX ``file`` field: ``path.pdf``, ``a.pdf;b.pdf`` or JabRef's
    ``description:path:type``."""
    first = value.split(";")[0].strip()
    parts = _UNESCAPED_COLON.split(first)
    path = parts[1] if len(parts) >= 3 else first
    return path.replace("\\:", ":").strip() or None


def _from_file(path: Path) -> Bibliography:
    suffix = path.suffix.lower()
    if suffix not in {".bib", ".bibtex", ".json"}:
        raise ConfigError(f"cannot read the bibliography {path}: use a .bib or a CSL .json file")
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise InputError(f"cannot read the bibliography {path}: {exc.strerror}") from None
    except UnicodeDecodeError as exc:
        raise InputError(f"the bibliography {path} is not UTF-8 text ({exc.reason})") from None
    if suffix == ".json":
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise InputError(f"the bibliography {path} is not valid JSON: {exc}") from None
        if not isinstance(data, list):
            raise InputError(f"the bibliography {path} must be a JSON list of CSL items")
        return _from_csl(data, str(path))
    return _from_bibtex(text, str(path))


def _from_csl(items: Sequence[Any], origin: str) -> Bibliography:
    entries = []
    for index, item in enumerate(items):
        key = item.get("id", item.get("key")) if isinstance(item, Mapping) else None
        if not isinstance(key, str | int) or isinstance(key, bool) or not str(key).strip():
            raise InputError(f"item {index} of {origin} has no id (each CSL item needs one)")
        entries.append(BibEntry.from_fields(str(key), item))
    return _unique(entries, origin)


def _from_bibtex(text: str, origin: str) -> Bibliography:
    try:
        from bibtexparser import entrypoint, middlewares
        from bibtexparser.middlewares import names
    except ImportError:
        raise MissingDependencyError("bibtexparser", "bib") from None
    decode = middlewares.LatexDecodingMiddleware(keep_braced_groups=True)  # "{WHO}": one name
    library = entrypoint.parse_string(text, append_middleware=[decode])
    warnings = [
        f"{origin}, line {(block.start_line or 0) + 1}: skipped an entry that could not be read "
        f"({_last_line(block.error)})"
        for block in library.failed_blocks
    ]
    entries = []
    for entry in library.entries:
        fields = {name: field.value for name, field in entry.fields_dict.items()}
        author = fields.get("author")
        if isinstance(author, str):
            persons = [
                names.parse_single_name_into_parts(name, strict=False)
                for name in names.split_multiple_persons_names(author)
            ]
            fields["author"] = [
                {"family": _BRACES.sub("", " ".join(p.von + p.last))} for p in persons
            ]
        entries.append(BibEntry.from_fields(entry.key, fields))
    found = _unique(entries, origin)
    return Bibliography(found.entries, (*warnings, *found.warnings))


def _last_line(error: Exception) -> str:
    lines = [line.strip() for line in str(error).splitlines() if line.strip()]
    return lines[-1] if lines else type(error).__name__


def _unique(entries: Sequence[BibEntry], origin: str) -> Bibliography:
    kept: dict[str, BibEntry] = {}
    warnings = []
    for entry in entries:
        if entry.key in kept:
            warnings.append(f"{origin}: skipped a second entry with the key {entry.key!r}")
        else:
            kept[entry.key] = entry
    return Bibliography(tuple(kept.values()), tuple(warnings))
