"""``extract_citations``: markers from one or more syntaxes → :class:`Citation` objects.

Syntaxes only find markers; this module decides which marker wins where two syntaxes claim the
same characters (``[[1]]`` is one TIP marker, never also numeric ``[1]``), turns malformed
markers and unparseable locators into warnings instead of exceptions, and attaches excerpts and
claims. Bad input yields warnings, never a crash: one broken marker must not sink a batch.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from citecheck import registry
from citecheck.errors import InputError, LocationError
from citecheck.locations import Location
from citecheck.model import Citation, Marker, Reference
from citecheck.protocols import CitationSyntax
from citecheck.syntax.excerpts import Attachment, attach

__all__ = ["AUTO", "SyntaxSpec", "extract_citations"]

AUTO = ("tip", "pandoc", "numeric")
"""The syntaxes ``syntax="auto"`` runs."""

SyntaxSpec = str | CitationSyntax | Sequence[str | CitationSyntax]
"""``"auto"``, a registered syntax name, a syntax object, or a sequence of those."""


def extract_citations(text: str, syntax: SyntaxSpec = "auto") -> tuple[list[Citation], list[str]]:
    """The citations in ``text`` (one per cited reference, in text order) and the warnings.

    Each warning is one sentence about a malformed marker (which yields no citation and stays
    ordinary text) or a locator that is not a location (the citation keeps ``locator`` and has
    ``location=None``).
    """
    if not isinstance(text, str):
        raise InputError(f"text must be a string, got {type(text).__name__}")
    markers = _merge(marker for found in _syntaxes(syntax) for marker in found.scan(text))
    warnings = [
        f"Ignored a malformed {marker.syntax} marker: {marker.error}."
        for marker in markers
        if marker.error is not None
    ]
    valid = [marker for marker in markers if marker.error is None and marker.references]
    citations: list[Citation] = []
    for marker, attachment in zip(valid, attach(text, valid), strict=True):
        for reference in marker.references:
            citation, warning = _citation(text, marker, reference, attachment)
            citations.append(citation)
            if warning is not None:
                warnings.append(warning)
    return citations, warnings


def _syntaxes(spec: SyntaxSpec) -> list[CitationSyntax]:
    specs = [spec] if isinstance(spec, str) or not isinstance(spec, Sequence) else list(spec)
    names = [name for item in specs for name in (AUTO if item == "auto" else (item,))]
    return [registry.create("syntaxes", name) for name in names]


def _merge(markers: Iterable[Marker]) -> list[Marker]:
    """Markers in text order; of overlapping ones the earlier-starting, then longer, wins."""
    kept: list[Marker] = []
    for marker in sorted(markers, key=lambda m: (m.span.start, -len(m.span))):
        if not kept or marker.span.start >= kept[-1].span.end:
            kept.append(marker)
    return kept


def _citation(
    text: str, marker: Marker, reference: Reference, attachment: Attachment
) -> tuple[Citation, str | None]:
    location, warning = None, None
    if reference.locator is not None:
        try:
            location = Location.parse(reference.locator)
        except LocationError:
            warning = (
                f"Could not parse the location {reference.locator!r} of {marker.raw!r} at offset "
                f"{marker.span.start}; the citation keeps its locator but has no location."
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
