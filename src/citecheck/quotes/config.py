"""The settings of a quote-verification run, from keywords, a dict, or a TOML / YAML / JSON file
(unknown keys are an error that names them). A file written for the ``VerifyQuotes`` pipeline
node this replaces, with its ``type: VerifyQuotes`` line, is read as it is."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, ClassVar, Literal, TypedDict

from citecheck._config import Options
from citecheck.errors import ConfigError
from citecheck.matchers.bm25 import ENGINES, TRIM_METHODS
from citecheck.thresholds import WORDS_VERIFIED

__all__ = ["NODE_TYPE", "QuoteConfig", "QuoteOptions", "TrimMethod"]

TrimMethod = Literal["fuzzy", "sliding_bm25", "hybrid"]
NODE_TYPE = "VerifyQuotes"
"""The ``type`` a configuration may declare: the name of the pipeline node whose configuration
files citecheck reads unchanged. Any other ``type`` is for another node, and an error."""


@dataclass(frozen=True, slots=True)
class QuoteConfig(Options):
    """Every option of :func:`citecheck.verify_quotes`, with its default (the options type of
    the quotes door: :meth:`from_mapping`, :meth:`from_file`, :meth:`merged` and
    :meth:`to_dict` as every door's; ``threshold`` is read as ``match_threshold``).

    ``window_size`` ``None`` means 1.1 × the longest quote, capped at ``max_window_size``;
    ``overlap`` ``None`` means 30 % of the window. ``ellipsis_max_gap`` is in windows (``None``:
    no limit within a document). ``match_threshold`` is the similarity of quote and passage
    needed to count a quote as verified; ``low_match_threshold`` marks rows for review in the
    statistics. ``candidates`` is how many top BM25 windows are aligned per quote.
    ``embedding_model`` names a sentence-transformers model (the ``embeddings`` extra) whose
    cosine of quote and passage fills ``cosine_similarity`` when no embedder is passed.
    """

    window_size: int | None = None
    overlap: int | None = None
    max_window_size: int = 500
    engine: str = "bm25s"
    bm25_k1: float = 1.5
    bm25_b: float = 0.4
    candidates: int = 3
    ellipsis_max_gap: int | None = None
    trim_spans: bool = True
    trim_method: TrimMethod = "fuzzy"
    trim_padding: int = 30
    min_fuzzy_ratio: float = 0.6
    expand_window_neighbors: int = 1
    match_threshold: float = WORDS_VERIFIED
    low_match_threshold: float = 0.9
    context_chars: int = 300
    embedding_model: str | None = None

    _what: ClassVar[str] = "quote"
    _aliases: ClassVar[Mapping[str, str]] = MappingProxyType({"threshold": "match_threshold"})

    def __post_init__(self) -> None:
        problems = []
        if self.embedding_model is not None and (
            not isinstance(self.embedding_model, str) or not self.embedding_model.strip()
        ):
            problems.append(
                f"embedding_model must be a model name or null, not {self.embedding_model!r}"
            )
        if self.engine not in ENGINES:
            problems.append(f"engine must be one of {ENGINES}, not {self.engine!r}")
        if self.trim_method not in TRIM_METHODS:
            problems.append(f"trim_method must be one of {TRIM_METHODS}, not {self.trim_method!r}")
        for name in ("window_size", "max_window_size", "candidates"):
            value = getattr(self, name)
            if value is not None and (not isinstance(value, int) or value < 1):
                problems.append(f"{name} must be a positive integer, not {value!r}")
        for name in ("overlap", "ellipsis_max_gap", "trim_padding", "expand_window_neighbors"):
            value = getattr(self, name)
            if value is not None and (not isinstance(value, int) or value < 0):
                problems.append(f"{name} must be a non-negative integer, not {value!r}")
        for name in ("min_fuzzy_ratio", "match_threshold", "low_match_threshold", "bm25_b"):
            value = getattr(self, name)
            if not isinstance(value, int | float) or not 0 <= value <= 1:
                problems.append(f"{name} must be a number in [0, 1], not {value!r}")
        if not isinstance(self.bm25_k1, int | float) or self.bm25_k1 < 0:
            problems.append(f"bm25_k1 must be a non-negative number, not {self.bm25_k1!r}")
        if not isinstance(self.context_chars, int) or self.context_chars < 0:
            problems.append(
                f"context_chars must be a non-negative integer, not {self.context_chars!r}"
            )
        if problems:
            raise ConfigError("invalid quote configuration: " + "; ".join(problems))

    @classmethod
    def _read(cls, values: dict[str, Any]) -> dict[str, Any]:
        """A ``type`` key may say ``VerifyQuotes`` (:data:`NODE_TYPE`) and nothing else."""
        node = values.pop("type", NODE_TYPE)
        if node != NODE_TYPE:
            raise ConfigError(
                f"these options are for type {node!r}; quote options may only say type: {NODE_TYPE}"
            )
        return values


class QuoteOptions(TypedDict, total=False):
    """The keyword options of :func:`citecheck.verify_quotes` and
    :class:`~citecheck.quotes.QuoteLocator`, typed: the fields of :class:`QuoteConfig`, and
    ``threshold``, the common name of ``match_threshold``."""

    window_size: int | None
    overlap: int | None
    max_window_size: int
    engine: str
    bm25_k1: float
    bm25_b: float
    candidates: int
    ellipsis_max_gap: int | None
    trim_spans: bool
    trim_method: TrimMethod
    trim_padding: int
    min_fuzzy_ratio: float
    expand_window_neighbors: int
    match_threshold: float
    low_match_threshold: float
    context_chars: int
    embedding_model: str | None
    threshold: float
