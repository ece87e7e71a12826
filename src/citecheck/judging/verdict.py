"""The one verdict policy: how sure a status is, and how a verdict is worded.

Every front door (``verify``, ``verify_quotes``, ``verify_references``, records, papers) turns
what its matchers found into a :class:`~citecheck.Status` through this module, so the same
quote gets the same confidence and the same kind of reason wherever it is checked (a test,
``tests/test_consistency.py``, holds them to it).

Confidence is one scale everywhere: how sure citecheck is that the citation is good.

========================  ==========================  =============
status                    confidence                  reading
========================  ==========================  =============
``VERIFIED``              0.5 + 0.5 × match score     high
``UNCHECKED``             0.5                         medium
``PARTIAL``               0.3 + 0.2 × share matched   low
``WRONG_LOCATION``        0.3 × match score there     low
``UNSUPPORTED``           0.1                         low
``NOT_FOUND``             0.0                         failed
========================  ==========================  =============

A change of meaning (a number, a negation, a word turned into its opposite) is never
``VERIFIED``: :func:`match_status` makes such a match ``PARTIAL`` whatever its score.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from citecheck.model import Citation, Evidence, Result, Status

__all__ = [
    "changed",
    "closest",
    "confidence",
    "fragments_partial",
    "located",
    "match_status",
    "overlaps",
    "result",
    "stands",
    "where_found",
]

_FLOOR = {
    Status.UNCHECKED: 0.5,
    Status.UNSUPPORTED: 0.1,
    Status.NOT_FOUND: 0.0,
}


def confidence(status: Status, score: float = 1.0) -> float:
    """How sure citecheck is that a citation with ``status`` is good, from the ``score`` in
    [0, 1] of what was found (the match score, or for a partial elided quote the share of
    fragments found). Rounded to four places, as every report writes it."""
    score = min(1.0, max(0.0, score))
    if status is Status.VERIFIED:
        value = 0.5 + 0.5 * score
    elif status is Status.PARTIAL:
        value = 0.3 + 0.2 * score
    elif status is Status.WRONG_LOCATION:
        value = 0.3 * score
    else:
        value = _FLOOR[status]
    return round(value, 4)


def match_status(differences: Sequence[str]) -> Status:
    """A match that stands: ``VERIFIED``, unless the meaning changed (then ``PARTIAL``)."""
    return Status.PARTIAL if differences else Status.VERIFIED


def stands(noun: str, place: str, score: float, *, verbatim: bool) -> str:
    """Why a match is ``VERIFIED``: ``the quote stands verbatim in 'a' (line 1)``."""
    how = "verbatim" if verbatim else f"at {score:.0%} similarity"
    return f"the {noun} stands {how} {place}"


def overlaps(noun: str, place: str, score: float) -> str:
    """Why a match by the TIP protocol's word-overlap rule is ``VERIFIED``."""
    return (
        f"the {noun} stands in other words {place}: {score:.0%} of its significant words are "
        "there (the TIP protocol's word overlap)"
    )


def changed(noun: str, place: str, differences: Sequence[str]) -> str:
    """Why a match is ``PARTIAL``: it stands only with a change of meaning."""
    return f"the {noun} matches the source {place} only with a change of meaning: " + "; ".join(
        differences
    )


def fragments_partial(noun: str, found: int, total: int, place: str) -> str:
    """Why an elided quotation is ``PARTIAL``: only some of its fragments stand in order."""
    return f"only {found} of {total} fragments of the elided {noun} stand in order {place}"


def closest(where: str, score: float, threshold: float) -> str:
    """Why nothing matched: the closest passage and how far it fell short."""
    return f"the closest passage, {where}, matches {score:.0%} (needed {threshold:.0%})"


def where_found(evidence: Evidence) -> str:
    """Where a passage stands inside its source: ``on p. 3``, ``at line 12``."""
    if evidence.page is not None:
        return f"on p. {evidence.page}"
    if evidence.section:
        return f"in section {evidence.section!r}"
    if evidence.line is not None:
        return f"at line {evidence.line}"
    return f"at characters {evidence.start}-{evidence.end}"


def located(evidence: Evidence) -> str:
    """Where a passage stands, its source named: ``in 'a' (p. 3, line 2)``."""
    return f"in {evidence.source_id!r} ({evidence.where()})"


def result(
    citation: Citation,
    status: Status,
    reason: str,
    evidence: Sequence[Evidence] = (),
    *,
    score: float | None = None,
    details: Mapping[str, Any] | None = None,
) -> Result:
    """A :class:`~citecheck.Result` whose confidence this policy sets: from ``score`` when
    given (a support score, the share of fragments found), else from the best evidence."""
    if score is None:
        score = evidence[0].score if evidence else 1.0
    return Result(
        citation, status, confidence(status, score), tuple(evidence), reason, details or {}
    )
