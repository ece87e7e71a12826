"""One-shot functions over a :class:`~citecheck.verifier.Verifier`, like ``httpx.get`` over a
client. Build a ``Verifier`` yourself to reuse one configuration for many texts."""

from __future__ import annotations

from typing import Any

from citecheck.documents import Sources
from citecheck.model import Citation, Evidence
from citecheck.report import Report
from citecheck.syntax import extract_citations
from citecheck.verifier import Verifier

__all__ = ["extract", "locate", "verify"]


def verify(text: str, sources: Sources, **options: Any) -> Report:
    """Check every citation in ``text`` against ``sources``.

    ``sources`` is a mapping of id to text or :class:`~citecheck.Document`, or an iterable of
    documents. ``options`` are those of :class:`~citecheck.Verifier` (``matchers``,
    ``threshold``, ``accept``, ``require_citations``, ``numeric_sources``, ``syntax``, …).
    """
    return Verifier(**options).verify(text, sources)


def extract(text: str, syntax: Any = "auto") -> list[Citation]:
    """The citations in ``text``, in order, with their excerpts or claims.

    ``syntax`` is ``"auto"`` (every built-in syntax), a name (``"tip"``, ``"pandoc"``,
    ``"numeric"`` or a registered plugin), a syntax object, or a sequence of those. Malformed
    markers are left as text; :func:`verify` reports them in ``Report.warnings``.
    """
    citations, _ = extract_citations(text, syntax)
    return citations


def locate(quote: str, sources: Sources, **options: Any) -> list[Evidence]:
    """Where ``quote`` stands in ``sources``, best first; empty when it stands nowhere.

    ``options`` are those of :class:`~citecheck.Verifier` (``matchers``, ``threshold``, …).
    """
    return Verifier(**options).locate(quote, sources)
