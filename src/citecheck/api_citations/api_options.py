"""The options of the door of API citations: one frozen options type, read as every door's are
(:class:`~citecheck._config.Options`), and the same options as typed keywords for
:func:`~citecheck.api_citations.verify_api_citations`."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import ClassVar, Literal, TypedDict

from citecheck._config import Options
from citecheck.api_citations.api_responses import PROVIDERS
from citecheck.errors import ConfigError
from citecheck.model import Status
from citecheck.protocols import Embedder, Judge
from citecheck.report import DEFAULT_ACCEPTED
from citecheck.thresholds import WORDS_VERIFIED

__all__ = ["ApiCitationConfig", "ApiCitationOptions"]

ProviderChoice = Literal["auto", "anthropic", "openai"]


@dataclass(frozen=True, slots=True)
class ApiCitationConfig(Options):
    """Every option of :class:`~citecheck.api_citations.ApiCitationVerifier`, with its default.

    ``provider`` says which API the responses come from (``anthropic``, ``openai``), or
    ``auto`` tells it by each response's shape. ``threshold`` is how closely the cited text
    (and a claim's words) must align with the source to stand there
    (:data:`~citecheck.thresholds.WORDS_VERIFIED`, as at every door). ``check_claims=False``
    checks only that the cited text stands where cited, not that it supports the answer's
    words. The claims are graded as the markers door grades them
    (:class:`~citecheck.Verifier`): by their words, and with an ``embedder`` (or a ``judge``)
    by meaning, with ``support_threshold`` and ``partial_threshold`` over the engine's
    defaults; a claim of fewer than ``min_claim_words`` words is too short to check.
    ``accept`` and ``require_citations`` are the report's pass policy.
    """

    provider: ProviderChoice = "auto"
    threshold: float = WORDS_VERIFIED
    check_claims: bool = True
    min_claim_words: int = 3
    embedder: Embedder | None = None
    judge: Judge | Literal["auto"] | None = "auto"
    support_threshold: float | None = None
    partial_threshold: float | None = None
    accept: Iterable[Status | str] = DEFAULT_ACCEPTED
    require_citations: bool = False

    _what: ClassVar[str] = "api citations"
    _aliases: ClassVar[Mapping[str, str]] = MappingProxyType({})

    def __post_init__(self) -> None:
        problems = []
        if self.provider not in PROVIDERS:
            problems.append(
                f"provider must be one of {', '.join(PROVIDERS)}, not {self.provider!r}"
            )
        threshold = self.threshold
        if isinstance(threshold, bool) or not isinstance(threshold, int | float):
            problems.append(f"threshold must be a number in (0, 1], not {threshold!r}")
        elif not 0.0 < threshold <= 1.0:
            problems.append(f"threshold must be in (0, 1], not {threshold!r}")
        words = self.min_claim_words
        if isinstance(words, bool) or not isinstance(words, int) or words < 0:
            problems.append(f"min_claim_words must be a non-negative integer, not {words!r}")
        for name in ("check_claims", "require_citations"):
            if not isinstance(getattr(self, name), bool):
                problems.append(f"{name} must be true or false, not {getattr(self, name)!r}")
        try:
            accepted = frozenset(Status(s) for s in self.accept)
        except (TypeError, ValueError):
            problems.append(
                f"accept must be statuses ({', '.join(s.value for s in Status)}), not "
                f"{self.accept!r}"
            )
        else:
            object.__setattr__(self, "accept", accepted)
        if problems:
            raise ConfigError("invalid api citations options: " + "; ".join(problems))


class ApiCitationOptions(TypedDict, total=False):
    """The keyword options of :func:`~citecheck.api_citations.verify_api_citations` and
    :class:`~citecheck.api_citations.ApiCitationVerifier`, typed: the fields of
    :class:`ApiCitationConfig`."""

    provider: ProviderChoice
    threshold: float
    check_claims: bool
    min_claim_words: int
    embedder: Embedder | None
    judge: Judge | Literal["auto"] | None
    support_threshold: float | None
    partial_threshold: float | None
    accept: Iterable[Status | str]
    require_citations: bool
