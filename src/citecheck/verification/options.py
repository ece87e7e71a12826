"""The options of the markers door (:class:`~citecheck.Verifier`): one frozen options type,
read as every door's are (:class:`~citecheck._config.Options`), and the same options as typed
keywords for :func:`citecheck.verify` and :func:`citecheck.locate`.

``tests/test_options.py`` keeps the three in step: the fields of :class:`VerifierConfig`, the
keys of :class:`VerifyOptions` and the keywords of ``Verifier(...)``, with the same defaults.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, ClassVar, Literal, TypedDict

from citecheck._config import Options
from citecheck.documents.bibliography import BibliographySpec
from citecheck.judging.support_model import FITTED_SUPPORT_MODEL, SupportModel
from citecheck.model import Status
from citecheck.protocols import Embedder, Judge, Matcher
from citecheck.report import DEFAULT_ACCEPTED
from citecheck.thresholds import WORDS_VERIFIED

if TYPE_CHECKING:
    from citecheck.indexes.corpus import Corpus

__all__ = ["PROTOCOLS", "VerifierConfig", "VerifyOptions", "VerifyProtocol"]

VerifyProtocol = Literal["citecheck", "tip"]
"""The rules a :class:`~citecheck.Verifier` follows: citecheck's own, or the TIP protocol's
(``protocol="tip"``: see ``docs/tip.md``)."""

PROTOCOLS: Mapping[str, tuple[str, ...]] = MappingProxyType(
    {"citecheck": ("exact", "fuzzy"), "tip": ("exact", "overlap")}
)
"""Each protocol with the matchers it checks wording by when none are given."""


@dataclass(frozen=True, slots=True)
class VerifierConfig(Options):
    """Every option of :class:`~citecheck.Verifier`, with its default: what
    ``Verifier.from_config`` builds one from. A file gives the plain ones (``matchers`` by
    name, ``threshold``, ``accept``, ``min_claim_words``, …); objects (an embedder, a judge, an
    index) are given as keywords."""

    matchers: Sequence[str | Matcher] | None = None
    protocol: VerifyProtocol = "citecheck"
    syntax: Any = "auto"
    threshold: float = WORDS_VERIFIED
    accept: Iterable[Status | str] = DEFAULT_ACCEPTED
    require_citations: bool = False
    numeric_sources: Mapping[str, str] | Sequence[str] | None = None
    bibliography: BibliographySpec | None = None
    search_elsewhere: bool = True
    ellipsis_max_gap: int = 2000
    min_claim_words: int = 3
    embedder: Embedder | None = None
    judge: Judge | str | None = "auto"
    support_threshold: float | None = None
    partial_threshold: float | None = None
    support_model: SupportModel | None = FITTED_SUPPORT_MODEL
    index: Corpus | None = None
    index_candidates: int = 10
    lines_per_page: int | None = 50

    _what: ClassVar[str] = "verifier"


class VerifyOptions(TypedDict, total=False):
    """The keyword options of :func:`citecheck.verify`, :func:`citecheck.locate` and
    :meth:`Verifier.from_config <citecheck.Verifier.from_config>`, typed: those of
    :class:`~citecheck.Verifier`."""

    matchers: Sequence[str | Matcher] | None
    protocol: VerifyProtocol
    syntax: Any
    threshold: float
    accept: Iterable[Status | str]
    require_citations: bool
    numeric_sources: Mapping[str, str] | Sequence[str] | None
    bibliography: BibliographySpec | None
    search_elsewhere: bool
    ellipsis_max_gap: int
    min_claim_words: int
    embedder: Embedder | None
    judge: Judge | str | None
    support_threshold: float | None
    partial_threshold: float | None
    support_model: SupportModel | None
    index: Corpus | None
    index_candidates: int
    lines_per_page: int | None
