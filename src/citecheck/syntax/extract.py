"""``extract_citations``: markers from one or more syntaxes → :class:`Citation` objects.

Syntaxes only find markers; this module decides which marker wins where two syntaxes claim the
same characters (``[[1]]`` is one TIP marker, never also numeric ``[1]``), leaves out the
text's reference list (it is read, not checked), turns malformed markers, unparseable locators
and marker-like text that no syntax read into warnings instead of exceptions, and attaches
excerpts and claims. A marker inside a quotation that a later marker cites is quoted text
(a quoted paper's ``[12]``, a title's year read as ``Nimon (1979)``): it is left out with a
warning, so it cannot cut the quotation in two. Bad input yields warnings, never a crash: one
broken marker must not sink a batch. Every warning about a place in the text names it as
``at characters START-END``.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass

from citecheck import registry
from citecheck.errors import InputError, LocationError
from citecheck.model import Citation, Marker, Reference, Span
from citecheck.protocols import CitationSyntax
from citecheck.syntax._locators import read_locator
from citecheck.syntax.excerpts import Attachment, attach, quoted_markers
from citecheck.syntax.footnotes import read_note_spans
from citecheck.syntax.lookalikes import find_lookalikes
from citecheck.syntax.reference_list import ReferenceList, find_reference_list
from citecheck.syntax.scan import unclosed_warnings

__all__ = ["AUTO", "Extraction", "SyntaxSpec", "extract_citations", "extract_text"]

AUTO = ("tip", "pandoc", "numeric", "author_year", "openai", "source", "footnote")
"""The syntaxes ``syntax="auto"`` runs: the four of written texts, and the three that LLM
answers write (OpenAI file-search markers, sources named in brackets, cited footnotes)."""

SyntaxSpec = str | CitationSyntax | Sequence[str | CitationSyntax]
"""``"auto"``, a registered syntax name, a syntax object, or a sequence of those."""


@dataclass(frozen=True, slots=True)
class Extraction:
    """What a text cites: its citations in text order, the warnings, and its reference list."""

    citations: tuple[Citation, ...]
    warnings: tuple[str, ...]
    reference_list: ReferenceList | None
    unread: int = 0
    """The malformed markers and the marker-like places no syntax read (each has a warning)."""


def extract_citations(
    text: str, syntax: SyntaxSpec = "auto", *, known_ids: Collection[str] | None = None
) -> tuple[list[Citation], list[str]]:
    """The citations in ``text`` (one per cited reference, in text order) and the warnings.

    Each warning is one sentence naming where it stands (``at characters 12-19``): a malformed
    marker (which yields no citation and stays ordinary text), a locator that is not a
    location (the citation keeps ``locator`` and has ``location=None``), a locator read as
    less or more than it says (``pp. 1, 99`` checked as pp. 1-99), or marker-like text
    that no syntax read (``[1, x]``, ``[Smith 2020]``, an unknown bare ``@key``).
    ``known_ids`` are the ids of the sources: a bare ``@key`` naming one is a citation.
    """
    extraction = extract_text(text, syntax, known_ids=known_ids)
    return list(extraction.citations), list(extraction.warnings)


def extract_text(
    text: str, syntax: SyntaxSpec = "auto", *, known_ids: Collection[str] | None = None
) -> Extraction:
    """:func:`extract_citations`, with the text's reference list."""
    if not isinstance(text, str):
        raise InputError(f"text must be a string, got {type(text).__name__}")
    syntaxes = _syntaxes(syntax, frozenset(known_ids or ()))
    reference_list = find_reference_list(text)
    skip = None if reference_list is None else reference_list.span
    markers = [
        marker
        for marker in _merge(m for found in syntaxes for m in found.scan(text))
        if skip is None or not skip.overlaps(marker.span)
    ]
    notes = read_note_spans(text, markers)  # cited footnotes' notes: read, not checked
    if notes:
        markers = [m for m in markers if not any(n.overlaps(m.span) for n in notes)]
    skipped = [*([] if skip is None else [skip]), *notes]
    warnings = [
        f"Ignored a malformed {marker.syntax} marker {marker.raw!r} at characters "
        f"{_where(marker.span)}: {marker.error.rstrip('.')}."
        for marker in markers
        if marker.error is not None
    ]
    in_use = {getattr(s, "name", None) for s in syntaxes}
    starts = [marker.span.start for marker in markers]
    warnings += [
        f"{text[lookalike.span.start : lookalike.span.end]!r} at characters "
        f"{_where(lookalike.span)} looks like a citation, but no syntax read it: "
        f"{lookalike.why}."
        for lookalike in find_lookalikes(text, skipped)
        if (lookalike.syntax is None or lookalike.syntax in in_use)
        and not _covered(markers, starts, lookalike.span)
    ]
    unread = len(warnings)  # so far: the malformed markers and the places no syntax read
    warnings += unclosed_warnings(text)
    valid = [marker for marker in markers if marker.error is None and marker.references]
    quoted = quoted_markers(text, valid)
    warnings += [
        f"{valid[index].raw!r} at characters {_where(valid[index].span)} stands inside the "
        f"quotation that {valid[citer].raw!r} at characters {_where(valid[citer].span)} "
        "cites: read as part of the quoted text, not as a citation."
        for index, citer in sorted(quoted.items())
    ]
    valid = [marker for index, marker in enumerate(valid) if index not in quoted]
    citations: list[Citation] = []
    for marker, attachment in zip(valid, attach(text, valid), strict=True):
        for reference in marker.references:
            citation, warning = _citation(text, marker, reference, attachment)
            citations.append(citation)
            if warning is not None:
                warnings.append(warning)
    return Extraction(tuple(citations), tuple(warnings), reference_list, unread)


def _syntaxes(spec: SyntaxSpec, known_ids: frozenset[str]) -> list[CitationSyntax]:
    """The syntaxes of ``spec``; those that read the keys of known sources (the pandoc syntax's
    bare ``@key``) are told ``known_ids`` through their ``knowing`` method."""
    specs = [spec] if isinstance(spec, str) or not isinstance(spec, Sequence) else list(spec)
    names = [name for item in specs for name in (AUTO if item == "auto" else (item,))]
    syntaxes: list[CitationSyntax] = []
    for name in names:
        syntax = registry.create("syntaxes", name)
        knowing = getattr(syntax, "knowing", None)
        syntaxes.append(knowing(known_ids) if callable(knowing) else syntax)
    return syntaxes


def _merge(markers: Iterable[Marker]) -> list[Marker]:
    """Markers in text order; of overlapping ones the earlier-starting, then longer, wins."""
    kept: list[Marker] = []
    for marker in sorted(markers, key=lambda m: (m.span.start, -len(m.span))):
        if not kept or marker.span.start >= kept[-1].span.end:
            kept.append(marker)
    return kept


def _covered(markers: Sequence[Marker], starts: Sequence[int], span: Span) -> bool:
    """True when one of ``markers`` (in text order, not overlapping, starting at ``starts``)
    holds ``span``."""
    index = bisect_right(starts, span.start) - 1
    return index >= 0 and markers[index].span.contains(span)


def _where(span: Span) -> str:
    return f"{span.start}-{span.end}"


def _citation(
    text: str, marker: Marker, reference: Reference, attachment: Attachment
) -> tuple[Citation, str | None]:
    location, warning = None, None
    if reference.locator is not None:
        try:
            read = read_locator(reference.locator)
        except LocationError:
            warning = (
                f"Could not parse the location {reference.locator!r} of {marker.raw!r} at "
                f"characters {_where(marker.span)}; the citation keeps its locator but has no "
                "location."
            )
        else:
            location = read.location
            if read.note is not None:
                warning = (
                    f"Read the location {reference.locator!r} of {marker.raw!r} at characters "
                    f"{_where(marker.span)} as {location.describe()}: {read.note}."
                )
    citation = Citation(
        source_id=reference.source_id,
        location=location,
        excerpt=attachment.excerpt,
        claim=attachment.claim,
        span=marker.span,
        raw=text[marker.span.start : marker.span.end],
        syntax=marker.syntax,
        locator=reference.locator,
        text_span=attachment.text_span,
    )
    return citation, warning
