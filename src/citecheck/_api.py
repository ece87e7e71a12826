"""One-shot functions over a :class:`~citecheck.verification.verifier.Verifier`, like ``httpx.get``
over a client. Build a ``Verifier`` yourself to reuse one configuration for many texts."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, Unpack

from citecheck.documents import Sources
from citecheck.errors import InputError
from citecheck.model import Citation, Evidence
from citecheck.protocols import Embedder
from citecheck.quotes import QuoteConfig, QuoteLocator, QuoteOptions, QuoteReport
from citecheck.report import Report
from citecheck.syntax import extract_citations
from citecheck.verification.options import VerifyOptions
from citecheck.verification.verifier import Verifier

__all__ = ["extract", "locate", "verify", "verify_quotes"]


def verify(text: str, sources: Sources, **options: Unpack[VerifyOptions]) -> Report:
    """Check every citation in ``text`` against ``sources``.

    ``sources`` is a mapping of id to text or :class:`~citecheck.Document`, or an iterable of
    documents. ``options`` are those of :class:`~citecheck.Verifier` (``matchers``,
    ``threshold``, ``accept``, ``require_citations``, ``numeric_sources``, ``bibliography``,
    ``syntax``, …), typed (:class:`~citecheck.verification.options.VerifyOptions`).
    """
    return Verifier(**options).verify(text, sources)


def extract(text: str, syntax: Any = "auto") -> list[Citation]:
    """The citations in ``text``, in order, with their excerpts or claims.

    ``syntax`` is ``"auto"`` (every built-in syntax), a name (``"tip"``, ``"pandoc"``,
    ``"numeric"``, ``"author_year"`` or a registered plugin), a syntax object, or a sequence of
    those. Malformed markers and marker-like text that no syntax reads are left as text;
    :func:`verify` reports them in ``Report.warnings`` (and
    :func:`citecheck.syntax.extract_citations` returns them). Knowing no sources, this takes no
    bare ``@key`` as a citation (``@{key}`` always is); :func:`verify` takes those that name a
    source. The text's reference list is not cited.
    """
    citations, _ = extract_citations(text, syntax)
    return citations


def locate(quote: str, sources: Sources, **options: Unpack[VerifyOptions]) -> list[Evidence]:
    """Where ``quote`` stands in ``sources``, best first; empty when it stands nowhere.

    ``options`` are those of :class:`~citecheck.Verifier` (``matchers``, ``threshold``, …).
    """
    return Verifier(**options).locate(quote, sources)


def verify_quotes(
    quotes: Sequence[object],
    sources: Sources,
    *,
    config: QuoteConfig | Mapping[str, Any] | str | Path | None = None,
    embedder: Embedder | None = None,
    progress: Callable[[int, int], None] | None = None,
    **options: Unpack[QuoteOptions],
) -> QuoteReport:
    """Locate every quote in ``sources`` (no location needed) and say how exactly it stands.

    One :class:`~citecheck.quotes.QuoteRow` per quote, in order: the source document, the
    passage and its context, BM25 score and ratio, global offsets, match ratio, cosine
    similarity (when an ``embedder`` is given), status and evidence. ``config`` is a
    :class:`~citecheck.quotes.QuoteConfig`, a mapping, or a TOML / YAML / JSON file; keyword
    ``options`` override it. ``progress(done, total)`` is called after each quote.
    """
    if isinstance(quotes, str | bytes):  # said before the door loads a model
        raise InputError(
            "quotes must be a sequence of quotes, not a single string; wrap it in [...]"
        )
    return QuoteLocator(config, embedder, **options).verify(quotes, sources, progress=progress)
