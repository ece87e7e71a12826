"""The report as the Tezit Interrogation Protocol (TIP, section 5.5) writes citations.

A TIP client reads one object per citation with the protocol's own field names::

    {"contextItemId": "ctx-001", "location": "L42", "excerpt": "…", "claim": "…",
     "confidence": "high", "verificationStatus": "verified", "excerptVerified": true}

citecheck's six statuses map onto the protocol's three and its confidence levels the way the
protocol degrades confidence:

==================  ======================  ============  ===============
citecheck status    ``verificationStatus``  confidence    excerptVerified
==================  ======================  ============  ===============
``verified``        ``verified``            ``high``      true
``unchecked``       ``unverified``          ``medium``    false
``partial``         ``unverified``          ``low``       false
``wrong_location``  ``unverified``          ``low``       false
``unsupported``     ``unverified``          ``low``       false
``not_found``       ``failed``              ``low``       false
==================  ======================  ============  ===============

``unchecked`` is the protocol's "no explicit excerpt to verify, only a citation marker"
(medium) and also a place citecheck could not check: never ``failed``, which the protocol
keeps for a context item or a location that does not exist. Each object also carries what
the protocol has no field for, under names of its own: citecheck's ``status``, its
``reason`` and the best ``evidence`` (document, offsets, page, line), so nothing is lost.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

from citecheck._atomic import check_target, write_text_atomic
from citecheck.language.text import json_escaped
from citecheck.model import Result, Status

if TYPE_CHECKING:
    from citecheck.report import Report

__all__ = ["TIP", "TipFormat", "tip_citation", "to_tip"]


def tip_citation(result: Result) -> dict[str, Any]:
    """One result as a TIP citation object (see the module's table): the confidence is the
    result's own :attr:`~citecheck.Result.confidence_label`, where the protocol says a
    ``failed`` citation's confidence ``low``."""
    citation = result.citation
    label = result.confidence_label
    verification = (
        "verified"
        if result.status is Status.VERIFIED
        else "failed"
        if result.status is Status.NOT_FOUND
        else "unverified"
    )
    confidence = "low" if label == "failed" else label
    best = result.evidence[0] if result.evidence else None
    return {
        "contextItemId": citation.source_id,
        "location": citation.locator or "general",
        "excerpt": citation.excerpt if citation.excerpt is not None else citation.claim,
        "claim": citation.claim if citation.claim is not None else citation.excerpt,
        "confidence": confidence,
        "verificationStatus": verification,
        "excerptVerified": result.excerpt_verified,
        "status": result.status.value,
        "reason": result.reason,
        "evidence": None
        if best is None
        else {
            "source_id": best.source_id,
            "start": best.start,
            "end": best.end,
            "text": best.text,
            "page": best.page,
            "line": best.line,
            "section": best.section,
        },
    }


def to_tip(report: Report) -> str:
    """The report's results as a JSON array of TIP citation objects, in the text's order."""
    citations = [tip_citation(result) for result in report.results]
    return json.dumps(citations, indent=2, ensure_ascii=False) + "\n"


class TipFormat:
    """The ``tip`` format: :func:`to_tip`, written to a ``.tip.json`` file or named with
    ``--format tip`` / ``Report.save(path, "tip")``."""

    name = "tip"
    suffixes = (".tip.json",)
    binary = False

    def render(self, report: Report) -> str:
        """The report as TIP's JSON (a lone surrogate kept as its escape, as JSON is)."""
        return json_escaped(to_tip(report))

    def write(self, report: Report, path: Path) -> None:
        """Write the report to ``path`` whole (a temporary file renamed into place)."""
        check_target(path)
        write_text_atomic(path, self.render(report))

    def __repr__(self) -> str:
        return "TipFormat()"


TIP = TipFormat()
