"""References checked against any :class:`~citecheck.protocols.Index`: memory, FAISS, Pinecone.

Two ways, as corpora are built. ``by="id"``: every verse is a record with a deterministic id
(``Bala.1.5``), and existence is a batched ``fetch`` — at most ``batch_size`` (≤ 1000) ids a
request, so 1,000 references cost one round trip. ``by="metadata"``: records carry the levels
as metadata (``kanda="Bala", sarga=1, shloka=5``, as chunked corpora usually do), and existence
is a filtered search per cited sarga, ``shloka`` in the cited numbers.

An index that fails, or answers what it never should, leaves the references it was asked
about unchecked (``exists=None``, the failure in the reason), never absent: what was found
before the failure is kept.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from typing import Any, Literal

from citecheck.errors import BackendError, ConfigError
from citecheck.indexes.records import MetadataValue, Record
from citecheck.protocols import Index
from citecheck.references.catalogs import Presence, impossible
from citecheck.references.scheme import ReferenceScheme, StructuredReference

__all__ = ["IndexCatalog"]

MAX_BATCH = 1000
"""Pinecone's limit on ids per fetch and on ``top_k`` with metadata; every backend keeps it."""


class IndexCatalog:
    """Existence (and text, from ``text_field`` metadata) of references in an index.

    ``id_format`` builds a record id from the level names (``"{kanda}.{sarga}.{shloka}"`` by
    default; ``{book_number}`` is the book's number). ``fields`` name the metadata keys of the
    levels for ``by="metadata"`` (the level names by default); ``book_as`` says whether the
    book is stored by ``"name"`` (canonical) or ``"number"``. A reference that stops above the
    last level (``Bala 1``) exists when its first child does (``Bala.1.1``) by id, or when any
    record carries its levels by metadata.
    """

    name = "index"

    def __init__(
        self,
        index: Index,
        scheme: ReferenceScheme,
        *,
        by: Literal["id", "metadata"] = "id",
        id_format: str | None = None,
        fields: Sequence[str] | None = None,
        book_as: Literal["name", "number"] = "name",
        text_field: str | None = "text",
        batch_size: int = MAX_BATCH,
    ) -> None:
        if by not in ("id", "metadata"):
            raise ConfigError(f"by must be 'id' or 'metadata', got {by!r}")
        if book_as not in ("name", "number"):
            raise ConfigError(f"book_as must be 'name' or 'number', got {book_as!r}")
        if isinstance(batch_size, bool) or not isinstance(batch_size, int):
            raise ConfigError(f"batch_size must be an integer, got {batch_size!r}")
        if not 1 <= batch_size <= MAX_BATCH:
            raise ConfigError(f"batch_size must be between 1 and {MAX_BATCH}, got {batch_size}")
        self.index = index
        self.scheme = scheme
        self.by = by
        self.id_format = id_format or ".".join("{" + level + "}" for level in scheme.levels)
        self.fields = tuple(fields or scheme.levels)
        if len(self.fields) != len(scheme.levels):
            raise ConfigError(
                f"fields must name {len(scheme.levels)} metadata keys, one per level "
                f"{scheme.levels}, got {self.fields}"
            )
        self.book_as = book_as
        self.text_field = text_field
        self.batch_size = batch_size
        try:
            self.record_id(scheme.reference(scheme.books[0].name, (1,) * scheme.depth))
        except (KeyError, IndexError, ValueError) as exc:
            raise ConfigError(
                f"id_format {self.id_format!r} cannot be filled: {exc!r}; use the fields "
                f"{', '.join(scheme.levels)} and book_number"
            ) from None

    def __repr__(self) -> str:
        return f"IndexCatalog({self.index!r}, by={self.by!r})"

    def record_id(self, reference: StructuredReference) -> str:
        """The id of the record for ``reference`` (its first child when it stops early)."""
        scheme = self.scheme
        book = scheme.book(reference.book)
        numbers = reference.numbers + (1,) * (scheme.depth - len(reference.numbers))
        values: dict[str, Any] = dict(zip(scheme.levels[1:], numbers, strict=True))
        values[scheme.levels[0]] = reference.book
        values["book_number"] = book.number if book is not None else 0
        return self.id_format.format(**values)

    def lookup(
        self, references: Sequence[StructuredReference]
    ) -> dict[StructuredReference, Presence]:
        found: dict[StructuredReference, Presence] = {}
        wanted = []
        for ref in dict.fromkeys(references):
            if (verdict := impossible(self.scheme, ref)) is not None:
                found[ref] = verdict
            else:
                wanted.append(ref)
        check = self._by_id if self.by == "id" else self._by_metadata
        decided = check(wanted)
        found.update(self._unless_empty(decided))
        return {ref: found[ref] for ref in dict.fromkeys(references)}

    def _unless_empty(
        self, decided: dict[StructuredReference, Presence]
    ) -> dict[StructuredReference, Presence]:
        """When nothing asked for was found, ask the index whether it holds anything: an empty
        index (a wrong namespace, an index not loaded yet) cannot tell a phantom reference from
        a real one, so its "absent" is unchecked, not a phantom."""
        if not decided or any(p.exists for p in decided.values()):
            return decided
        absent = [ref for ref, p in decided.items() if p.exists is False]
        if not absent:
            return decided
        try:
            held = self.index.count()
        except Exception as exc:  # a failing backend: what it called absent is unchecked
            return {**decided, **{ref: _unchecked(ref, exc) for ref in absent}}
        if held:
            return decided
        return {**decided, **{ref: _in_an_empty_index(ref) for ref in absent}}

    # -- by id ----------------------------------------------------------------------------

    def _by_id(self, references: list[StructuredReference]) -> dict[StructuredReference, Presence]:
        ids = {ref: self.record_id(ref) for ref in references}
        unique = list(dict.fromkeys(ids.values()))
        records: dict[str, Record | None] = {}
        failures: dict[str, Exception] = {}
        for start in range(0, len(unique), self.batch_size):
            batch = unique[start : start + self.batch_size]
            try:
                fetched = self.index.fetch(batch)
            except Exception as exc:  # a failing backend: these references are unchecked
                failures.update(dict.fromkeys(batch, exc))
                continue
            records.update((rid, fetched.get(rid)) for rid in batch)
        out = {}
        for ref, rid in ids.items():
            record = records.get(rid)
            if rid in failures:
                out[ref] = _unchecked(ref, failures[rid])
            elif record is not None:
                reason = f"{ref.canonical} is in the index as {rid!r}"
                out[ref] = Presence(True, reason, self._text(record.metadata))
            else:
                out[ref] = Presence(False, f"the index has no record {rid!r}")
        return out

    # -- by metadata ----------------------------------------------------------------------

    def _by_metadata(
        self, references: list[StructuredReference]
    ) -> dict[StructuredReference, Presence]:
        if not references:
            return {}
        dimension = self.index.dimension
        if dimension is None:
            try:  # a remote index learns its dimension when asked (Pinecone: from its stats)
                held = self.index.count()
            except Exception as exc:  # a failing backend: nothing can be checked
                return {ref: _unchecked(ref, exc) for ref in references}
            dimension = self.index.dimension
            if dimension is None:
                return {ref: _without_dimension(ref, held) for ref in references}
        out: dict[StructuredReference, Presence] = {}
        probe = [1.0] + [0.0] * (dimension - 1)
        groups: dict[tuple[str, tuple[int, ...]], list[StructuredReference]] = defaultdict(list)
        for ref in references:
            full = len(ref.numbers) == self.scheme.depth
            groups[(ref.book, ref.numbers[:-1] if full else ref.numbers)].append(ref)
        for (book, parent), refs in groups.items():
            where: dict[str, Any] = {self.fields[0]: self._book_value(book)}
            where.update(zip(self.fields[1:], parent, strict=False))
            try:
                self._search_group(probe, where, parent, refs, out)
            except Exception as exc:  # a failing backend: what is not decided yet is unchecked
                out.update((ref, _unchecked(ref, exc)) for ref in refs if ref not in out)
        return out

    def _search_group(
        self,
        probe: list[float],
        where: dict[str, Any],
        parent: tuple[int, ...],
        refs: list[StructuredReference],
        out: dict[StructuredReference, Presence],
    ) -> None:
        """Decides ``refs`` (one sarga's) into ``out`` as it goes, so that a failure part way
        loses only what was still undecided."""
        shown = ", ".join(f"{k}={v!r}" for k, v in where.items())
        partial = [ref for ref in refs if ref.numbers == parent]
        if partial:
            hits = self.index.search(probe, k=1, filter=where)
            for ref in partial:
                out[ref] = (
                    Presence(True, f"{ref.canonical} is in the index ({shown})")
                    if hits
                    else Presence(False, f"the index has no record with {shown}")
                )
        leaf_field = self.fields[len(parent) + 1]
        missing = {ref.numbers[-1]: ref for ref in refs if ref.numbers != parent}
        for start in range(0, len(missing), self.batch_size):
            batch = dict(list(missing.items())[start : start + self.batch_size])
            while batch:  # several records may carry one number: ask again for the rest
                k = len(batch)
                query = {**where, leaf_field: {"$in": sorted(batch)}}
                hits = self.index.search(probe, k=k, filter=query)
                for hit in hits:
                    number = _as_int(hit.metadata.get(leaf_field))
                    if number is not None and number in batch:
                        ref = batch.pop(number)
                        reason = f"{ref.canonical} is in the index"
                        out[ref] = Presence(True, reason, self._text(hit.metadata))
                if len(hits) < k:
                    break
                if len(batch) == k:  # a full page, none of it asked for: the filter was ignored
                    raise BackendError(
                        f"the index answered {k} records to a filter on {leaf_field}, none "
                        f"with a {leaf_field} asked for"
                    )
            for number, ref in batch.items():
                reason = f"the index has no record with {shown}, {leaf_field}={number}"
                out[ref] = Presence(False, reason)

    def _book_value(self, book: str) -> MetadataValue:
        if self.book_as == "name":
            return book
        found = self.scheme.book(book)
        return found.number if found is not None else 0

    def _text(self, metadata: Mapping[str, MetadataValue] | None) -> str | None:
        if self.text_field is None or not metadata:
            return None
        value = metadata.get(self.text_field)
        return value if isinstance(value, str) else None


def _unchecked(ref: StructuredReference, error: Exception) -> Presence:
    return Presence(
        None, f"could not check {ref.canonical}: the index failed ({type(error).__name__}: {error})"
    )


def _in_an_empty_index(ref: StructuredReference) -> Presence:
    return Presence(
        None,
        f"could not check {ref.canonical}: the index holds no records (a wrong namespace, or "
        "an index not loaded yet?)",
    )


def _without_dimension(ref: StructuredReference, held: int) -> Presence:
    """An index that knows no dimension is empty, or cannot be searched by metadata."""
    if held == 0:
        return _in_an_empty_index(ref)
    unknown = f"the index holds {held} records but does not say their dimension"
    return Presence(None, f"could not check {ref.canonical}: {unknown}")


def _as_int(value: object) -> int | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return None
