"""The frozen value types every part of citecheck speaks: spans, statuses, citations, evidence.

They are plain frozen, slotted dataclasses: cheap to create, safe to share between threads and
never mutated after construction. :class:`~citecheck.locations.Location` is re-exported here;
:class:`~citecheck.documents.Document` and :class:`~citecheck.report.Report`, which carry
behaviour of their own, live in their modules (all are importable from ``citecheck``).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from types import MappingProxyType
from typing import Any, Literal

from citecheck.errors import InputError
from citecheck.locations import Location
from citecheck.registry import load

__all__ = [
    "CONTEXT_CHARS",
    "Citation",
    "ConfidenceLabel",
    "Evidence",
    "Location",
    "Marker",
    "Presence",
    "Reference",
    "Result",
    "Span",
    "Status",
    "StructuredReference",
    "as_citation",
    "as_location",
]


CONTEXT_CHARS = 300
"""How much of the source an :class:`Evidence` keeps before and after its span."""


@dataclass(frozen=True, slots=True, order=True)
class Span:
    """A half-open character range ``[start, end)`` into a text (``text[start:end]``)."""

    start: int
    end: int

    def __post_init__(self) -> None:
        if not isinstance(self.start, int) or not isinstance(self.end, int):
            raise InputError(f"span offsets must be integers, got {self.start!r}, {self.end!r}")
        if self.start < 0 or self.end < 0:
            raise InputError(f"negative span offsets: {self.start}-{self.end}")
        if self.end < self.start:
            raise InputError(f"reversed span: {self.start}-{self.end}")

    def __len__(self) -> int:
        return self.end - self.start

    def contains(self, other: Span) -> bool:
        """True when ``other`` lies entirely inside this span."""
        return self.start <= other.start and other.end <= self.end

    def overlaps(self, other: Span) -> bool:
        """True when the two spans share at least one character."""
        return self.start < other.end and other.start < self.end


class Status(StrEnum):
    """The verdict on one citation. Values are the lowercase names."""

    VERIFIED = "verified"
    """The excerpt stands at the cited location (or the claim stands there, near-verbatim)."""
    PARTIAL = "partial"
    """Part of it matched, or it matched with a change of meaning: a negation, a number, or a
    word changed, added or (in a quotation) left out."""
    WRONG_LOCATION = "wrong_location"
    """It stands in a source, but not where the citation points; the evidence says where."""
    UNSUPPORTED = "unsupported"
    """Source and location exist; the excerpt or claim is not there."""
    NOT_FOUND = "not_found"
    """The cited source or location does not exist: a phantom citation."""
    UNCHECKED = "unchecked"
    """Nothing could be checked: no excerpt or claim, or a backend failed. Never NOT_FOUND."""


ConfidenceLabel = Literal["high", "medium", "low", "failed"]

_LABELS: Mapping[Status, ConfidenceLabel] = {
    Status.VERIFIED: "high",
    Status.UNCHECKED: "medium",
    Status.PARTIAL: "low",
    Status.WRONG_LOCATION: "low",
    Status.UNSUPPORTED: "low",
    Status.NOT_FOUND: "failed",
}


@dataclass(frozen=True, slots=True)
class Citation:
    """One citation found in a text.

    ``excerpt`` is text the citation claims stands verbatim in the source (a quotation);
    ``claim`` is the statement the citation is attached to (the sentence, or the part of it
    since the previous marker). ``locator`` is the location as written; when it could not be
    parsed, ``location`` is ``None`` and the verifier cannot check the place: it looks for the
    text in the whole source and never reports the citation as ``VERIFIED`` or ``NOT_FOUND``.
    ``span`` is where the marker stands in the text, ``text_span`` where the excerpt or claim
    does.
    """

    source_id: str
    location: Location | None = None
    excerpt: str | None = None
    claim: str | None = None
    span: Span | None = None
    raw: str = ""
    syntax: str = ""
    locator: str | None = None
    text_span: Span | None = None

    @property
    def checked_text(self) -> str | None:
        """What the verifier compares with the source: the excerpt if any, else the claim."""
        return self.excerpt if self.excerpt else self.claim or None

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Citation:
        """The citation :meth:`to_dict` wrote."""
        span, text_span = data.get("span"), data.get("text_span")
        location = data.get("location")
        return cls(
            source_id=data["source_id"],
            location=None if location is None else Location.parse(location),
            excerpt=data.get("excerpt"),
            claim=data.get("claim"),
            span=None if span is None else Span(*span),
            raw=data.get("raw", ""),
            syntax=data.get("syntax", ""),
            locator=data.get("locator"),
            text_span=None if text_span is None else Span(*text_span),
        )

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-ready data."""
        return {
            "source_id": self.source_id,
            "location": None if self.location is None else str(self.location),
            "locator": self.locator,
            "excerpt": self.excerpt,
            "claim": self.claim,
            "raw": self.raw,
            "syntax": self.syntax,
            "span": None if self.span is None else [self.span.start, self.span.end],
            "text_span": None
            if self.text_span is None
            else [self.text_span.start, self.text_span.end],
        }


def _frozen_scores(scores: Mapping[str, float]) -> Mapping[str, float]:
    return MappingProxyType(dict(scores))


def rebuild(cls: type[Any], fields: dict[str, Any]) -> Any:
    """An object of ``cls`` made again from its fields: what :func:`plain_reduce` pickles."""
    return cls(**fields)


def plain_reduce(value: Any) -> tuple[Any, ...]:
    """How a frozen value with read-only mappings (``MappingProxyType``, which cannot be
    pickled or deep-copied) is pickled: its fields, each mapping as a plain dict, rebuilt
    through the constructor, which makes the mappings read-only again."""
    fields = {
        f.name: dict(v) if isinstance(v := getattr(value, f.name), MappingProxyType) else v
        for f in dataclasses.fields(value)
        if f.init
    }
    return rebuild, (type(value), fields)


def as_citation(citation: Any) -> Citation:
    """A :class:`Citation` from any object with the attributes of the
    :class:`~citecheck.protocols.Citation` contract (a plugin's own citation type): read, not
    changed. A :class:`Citation` is returned as it is; an object lacking ``source_id`` is an
    :class:`~citecheck.errors.InputError` naming what it lacks."""
    if isinstance(citation, Citation):
        return citation
    source_id = getattr(citation, "source_id", None)
    if not isinstance(source_id, str) or not source_id:
        raise InputError(
            f"a citation needs a source_id (a non-empty str); {type(citation).__name__} has "
            f"{source_id!r}"
        )
    location = getattr(citation, "location", None)
    if location is not None and not isinstance(location, Location):
        location = as_location(location)
    span, text_span = getattr(citation, "span", None), getattr(citation, "text_span", None)
    return Citation(
        source_id=source_id,
        location=location,
        excerpt=getattr(citation, "excerpt", None),
        claim=getattr(citation, "claim", None),
        span=span if isinstance(span, Span) or span is None else Span(*span),
        raw=getattr(citation, "raw", "") or "",
        syntax=getattr(citation, "syntax", "") or "",
        locator=getattr(citation, "locator", None),
        text_span=(
            text_span if isinstance(text_span, Span) or text_span is None else Span(*text_span)
        ),
    )


def as_location(location: Any) -> Location:
    """A :class:`~citecheck.Location` from any object with the attributes of the
    :class:`~citecheck.protocols.Location` contract (``kind``, ``start``, ``end``, ``name``),
    checked as a ``Location`` checks itself."""
    if isinstance(location, Location):
        return location
    try:
        return Location(location.kind, location.start, location.end, location.name)
    except AttributeError as exc:
        raise InputError(
            f"a location needs kind, start, end and name; {type(location).__name__} lacks "
            f"{exc.name}"
        ) from None


@dataclass(frozen=True, slots=True)
class Evidence:
    """Where a piece of text was found.

    ``start`` and ``end`` are character offsets into the original, un-normalised text of the
    source ``source_id`` (``document.text[start:end] == text``). ``score`` is in [0, 1];
    ``scores`` holds the per-method metrics behind it (a BM25 score and its top1/top2 ratio, a
    match ratio, a cosine). ``page``, ``line`` and ``section`` say where the span begins, when
    the document knows. ``context_before`` and ``context_after`` are the source's text right
    before and after the span (up to :data:`CONTEXT_CHARS` characters each), so that a report
    can show the passage in its context with the span marked, without the source at hand.
    """

    source_id: str
    start: int
    end: int
    text: str
    score: float
    method: str
    page: int | None = None
    line: int | None = None
    section: str | None = None
    scores: Mapping[str, float] = field(default_factory=dict, hash=False)
    context_before: str = ""
    context_after: str = ""

    __reduce__ = plain_reduce

    def __post_init__(self) -> None:
        Span(self.start, self.end)  # validates the offsets
        if not 0.0 <= self.score <= 1.0:  # also rejects NaN
            raise InputError(f"evidence score must be in [0, 1], got {self.score}")
        object.__setattr__(self, "scores", _frozen_scores(self.scores))

    @property
    def span(self) -> Span:
        return Span(self.start, self.end)

    def _repr_html_(self) -> str:
        return _notebook_view(self)

    def where(self) -> str:
        """Where the evidence stands, for reasons: ``p. 14, line 3 of 'paper'``."""
        parts = []
        if self.page is not None:
            parts.append(f"p. {self.page}")
        if self.section:
            parts.append(f"section {self.section!r}")
        if self.line is not None:
            parts.append(f"line {self.line}")
        return ", ".join(parts) if parts else f"characters {self.start}-{self.end}"

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Evidence:
        """The evidence :meth:`to_dict` wrote."""
        return cls(**{name: data[name] for name in _EVIDENCE_FIELDS if name in data})

    def to_dict(self) -> dict[str, Any]:
        return {
            "source_id": self.source_id,
            "start": self.start,
            "end": self.end,
            "text": self.text,
            "score": self.score,
            "method": self.method,
            "page": self.page,
            "line": self.line,
            "section": self.section,
            "scores": dict(self.scores),
            "context_before": self.context_before,
            "context_after": self.context_after,
        }


_EVIDENCE_FIELDS = (
    "source_id",
    "start",
    "end",
    "text",
    "score",
    "method",
    "page",
    "line",
    "section",
    "scores",
    "context_before",
    "context_after",
)


@dataclass(frozen=True, slots=True)
class Result:
    """The verdict on one :class:`Citation`: status, confidence, evidence (best first), reason.

    ``confidence`` means the same at every front door (see :mod:`citecheck.judging.verdict`).
    ``details`` holds what one front door knows beyond that, JSON-ready: a quote's index in its
    input and whether it has an ellipsis, a record's label, a reference's occurrence. Figures
    about a passage belong in its :attr:`Evidence.scores`.
    """

    citation: Citation
    status: Status
    confidence: float
    evidence: tuple[Evidence, ...] = ()
    reason: str = ""
    details: Mapping[str, Any] = field(default_factory=dict, hash=False)

    __reduce__ = plain_reduce

    def __post_init__(self) -> None:
        if not 0.0 <= self.confidence <= 1.0:
            raise InputError(f"confidence must be in [0, 1], got {self.confidence}")
        object.__setattr__(self, "evidence", tuple(self.evidence))
        object.__setattr__(self, "details", MappingProxyType(dict(self.details)))

    def _repr_html_(self) -> str:
        return _notebook_view(self)

    @property
    def confidence_label(self) -> ConfidenceLabel:
        """``high`` (verified), ``medium`` (nothing to check), ``low`` (found elsewhere, partly,
        or not at all) or ``failed`` (the source or location does not exist)."""
        return _LABELS[self.status]

    @property
    def excerpt_verified(self) -> bool:
        """True exactly when the status is ``VERIFIED``: the excerpt or claim stands at the
        cited location without a change of meaning."""
        return self.status is Status.VERIFIED

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Result:
        """The result :meth:`to_dict` wrote (its confidence as rounded there), so that a
        report written as JSON can be read back."""
        return cls(
            Citation.from_dict(data["citation"]),
            Status(data["status"]),
            data["confidence"],
            tuple(Evidence.from_dict(e) for e in data.get("evidence", ())),
            data.get("reason", ""),
            data.get("details", {}),
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "citation": self.citation.to_dict(),
            "status": self.status.value,
            "confidence": round(self.confidence, 4),
            "confidence_label": self.confidence_label,
            "excerpt_verified": self.excerpt_verified,
            "reason": self.reason,
            "evidence": [e.to_dict() for e in self.evidence],
            "details": dict(self.details),
        }


@dataclass(frozen=True, slots=True)
class Reference:
    """One source named by a marker, with the location as written (``p. 12``), if any."""

    source_id: str
    locator: str | None = None


@dataclass(frozen=True, slots=True)
class Marker:
    """A citation marker found by a syntax: where it stands, its raw text, what it cites.

    A marker that looks like a citation but is malformed (``[[ctx-1`` never closed) carries an
    ``error`` (a short reason, such as "it is never closed") and no references; the extractor
    leaves it as text and reports a warning naming the marker and where it stands.

    ``in_text`` marks a citation that is part of its sentence (``Smith (2020) found that …``,
    ``@doe99 says …``): it vouches for the words after it rather than those before it.
    """

    span: Span
    raw: str
    syntax: str
    references: tuple[Reference, ...] = ()
    error: str | None = None
    in_text: bool = False


@dataclass(frozen=True, slots=True)
class StructuredReference:
    """One cited place, normalised: ``Bala 1.999`` is book ``Bala``, numbers ``(1, 999)``.

    ``numbers`` are the levels below the book, outermost first; a reference may stop above the
    last level (``John 3`` cites a chapter). ``known`` is False when the book name is not one of
    the scheme's: ``book`` is then the name as written, and the reference cannot exist.
    ``canonical`` is the normalised string used in reports and for de-duplication.
    """

    scheme: str
    book: str
    numbers: tuple[int, ...]
    known: bool
    canonical: str


@dataclass(frozen=True, slots=True)
class Presence:
    """Whether one reference exists: ``True``, ``False``, or ``None`` when it could not be
    checked; ``reason`` says why, ``text`` is what stands there when the catalog knows."""

    exists: bool | None
    reason: str
    text: str | None = None


def _notebook_view(value: object) -> str:
    """What Jupyter shows: the registered ``html`` view (:mod:`citecheck.registry`)."""
    view: str = load("views", "html")(value)
    return view
