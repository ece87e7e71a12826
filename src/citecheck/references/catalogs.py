"""Where references are checked: a structure map, any :class:`~citecheck.protocols.Index`, or
``pythonbible``. Each answers, for many references at once, which exist — with a reason such as
"Bala sarga 1 has 100 shlokas" — and, when it has it, the text standing there.

A catalog that cannot answer for a reference (the index is down) says so with ``exists=None``;
the verifier reports it ``UNCHECKED``, never ``NOT_FOUND``.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any, TypeAlias

from citecheck.errors import StructureMapError
from citecheck.model import Presence, StructuredReference
from citecheck.references.scheme import NO_ZERO, ReferenceScheme

__all__ = ["Node", "Presence", "StructureMap", "absent_book", "below_last_level", "impossible"]

Node: TypeAlias = int | Sequence["Node"]
"""A structure map's counts below one division: one node per numbered child down to the level
above the last, then an int, how many of the last level (``[100, 43, 39]``: three sargas of
100, 43 and 39 shlokas)."""


def absent_book(scheme: ReferenceScheme, reference: StructuredReference) -> Presence:
    """The verdict on a reference whose book the scheme does not know, with a suggestion."""
    from rapidfuzz import fuzz, process

    top = scheme.levels[0]
    names = {name: book.name for book in scheme.books for name in (book.name, *book.aliases)}
    best = process.extractOne(reference.book, list(names), scorer=fuzz.WRatio, score_cutoff=80)
    hint = f"; did you mean {names[best[0]]}?" if best else ""
    listed = ", ".join(book.name for book in scheme.books[:12])
    more = ", …" if len(scheme.books) > 12 else ""
    return Presence(
        False,
        f"{reference.book!r} is not a {top} of the {scheme.title} ({listed}{more}){hint}",
    )


def below_last_level(scheme: ReferenceScheme, reference: StructuredReference) -> Presence:
    """The verdict on a reference with more numbers than the scheme has levels."""
    last = scheme.levels[-1]
    return Presence(False, f"{reference.canonical}: the {scheme.title} has nothing below {last}")


def impossible(scheme: ReferenceScheme, reference: StructuredReference) -> Presence | None:
    """The verdict on a reference that cannot exist whatever the counts (an unknown book, a
    number 0, a number below the last level); ``None`` for any other."""
    if not reference.known:
        return absent_book(scheme, reference)
    if any(number < 1 for number in reference.numbers):
        return Presence(False, NO_ZERO)
    if len(reference.numbers) > scheme.depth:
        return below_last_level(scheme, reference)
    return None


class StructureMap:
    """How many divisions each level has: the cheapest existence check, no index needed.

    ``counts`` maps each book (by any name the scheme knows) to its :data:`Node`; ``texts``
    optionally maps canonical references (``"Bala 1.5"``) to their text, for checking quotes.
    """

    name = "structure map"

    def __init__(
        self,
        scheme: ReferenceScheme,
        counts: Mapping[str, Node],
        *,
        texts: Mapping[str, str] | None = None,
    ) -> None:
        self.scheme = scheme
        self._counts: dict[str, Node] = {}
        for written, node in counts.items():
            book = scheme.book(str(written))
            if book is None:
                raise StructureMapError(
                    f"the structure map names {written!r}, which is not a {scheme.levels[0]} "
                    f"of the {scheme.title}"
                )
            _check_node(node, scheme.depth - 1, f"{book.name}")
            self._counts[book.name] = node
        self._texts = dict(texts or {})

    def __repr__(self) -> str:
        return f"StructureMap({self.scheme.name!r}, {len(self._counts)} {self.scheme.levels[0]}s)"

    @classmethod
    def from_file(
        cls,
        path: str | Path,
        scheme: ReferenceScheme,
        *,
        count_field: str = "shloka_count_extracted",
        texts: Mapping[str, str] | None = None,
    ) -> StructureMap:
        """A map from JSON: ``{"Bala": [100, 43, …], …}``, or the ``ramayan_map.json`` layout
        (a list of kandas, each with ``index`` and ``sarga_data``, each sarga with ``index``
        and ``count_field``, falling back to ``shloka_count``)."""
        path = Path(path)
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError) as exc:
            raise StructureMapError(f"cannot read the structure map {path}: {exc}") from None
        except json.JSONDecodeError as exc:
            raise StructureMapError(f"{path} is not valid JSON: {exc}") from None
        try:
            if isinstance(data, list):
                return cls(scheme, _from_divisions(data, scheme, count_field), texts=texts)
            if isinstance(data, dict):
                return cls(scheme, data, texts=texts)
        except StructureMapError as exc:
            raise StructureMapError(f"{path}: {exc}") from None
        kind = type(data).__name__
        raise StructureMapError(f"{path}: expected a JSON object or list, got {kind}")

    def counts(self, book: str) -> Node | None:
        """The counts under ``book`` (canonical name), if the map has it."""
        return self._counts.get(book)

    def references(self) -> Iterable[StructuredReference]:
        """Every full-depth reference the map holds, in order."""
        for book, node in self._counts.items():
            for numbers in _leaves(node, ()):
                yield self.scheme.reference(book, numbers)

    def lookup(
        self, references: Sequence[StructuredReference]
    ) -> dict[StructuredReference, Presence]:
        return {ref: self._presence(ref) for ref in references}

    def _presence(self, ref: StructuredReference) -> Presence:
        scheme = self.scheme
        if (verdict := impossible(scheme, ref)) is not None:
            return verdict
        node = self._counts.get(ref.book)
        if node is None:
            return Presence(False, f"{ref.book} is not in the structure map")
        path = ref.book
        for depth, number in enumerate(ref.numbers):
            level = scheme.levels[depth + 1]
            size = node if isinstance(node, int) else len(node)
            if number > size:
                return Presence(False, f"{path} has {size} {scheme.plural(level)}")
            if not isinstance(node, int):
                node = node[number - 1]
            path = f"{path} {level} {number}"
        return Presence(True, f"{ref.canonical} exists", self._texts.get(ref.canonical))


def _check_node(node: object, depth: int, where: str) -> None:
    if depth == 0:
        if not isinstance(node, int) or isinstance(node, bool) or node < 0:
            raise StructureMapError(f"{where}: expected a count (an integer >= 0), got {node!r}")
        return
    if not isinstance(node, list | tuple):
        raise StructureMapError(f"{where}: expected a list of counts, got {node!r}")
    for index, child in enumerate(node, start=1):
        _check_node(child, depth - 1, f"{where}.{index}")


def _leaves(node: Node, prefix: tuple[int, ...]) -> Iterable[tuple[int, ...]]:
    if isinstance(node, int):
        for number in range(1, node + 1):
            yield (*prefix, number)
        return
    for index, child in enumerate(node, start=1):
        yield from _leaves(child, (*prefix, index))


def _from_divisions(data: list[Any], scheme: ReferenceScheme, count_field: str) -> dict[str, Node]:
    """The ``ramayan_map.json`` layout → counts per kanda."""
    counts: dict[str, Node] = {}
    for position, division in enumerate(data, start=1):
        where = f"entry {position}"
        if not isinstance(division, dict) or not isinstance(division.get("sarga_data"), list):
            raise StructureMapError(f"{where}: expected an object with a 'sarga_data' list")
        number = division.get("index", position)
        book = scheme.book_by_number(number) if isinstance(number, int) else None
        if book is None:
            raise StructureMapError(f"{where}: index {number!r} is not a {scheme.levels[0]}")
        sizes: list[int] = []
        for expected, sarga in enumerate(division["sarga_data"], start=1):
            if not isinstance(sarga, dict):
                raise StructureMapError(f"{book.name} sarga {expected}: expected an object")
            if sarga.get("index", expected) != expected:
                raise StructureMapError(
                    f"{book.name}: sarga {sarga.get('index')!r} stands where {expected} should"
                )
            size = sarga.get(count_field, sarga.get("shloka_count"))
            if not isinstance(size, int) or isinstance(size, bool) or size < 0:
                raise StructureMapError(
                    f"{book.name} sarga {expected}: {count_field!r} is {size!r}, not a count"
                )
            sizes.append(size)
        counts[book.name] = sizes
    return counts
