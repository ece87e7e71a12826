"""The engine of citecheck's support judge: an int8 ONNX cross-encoder and its tokenizer.

It runs on ``onnxruntime`` and the ``tokenizers`` library alone (the ``judge`` extra): no
PyTorch, nothing downloaded. It reads pairs of texts and answers the probabilities of its
classes, softened by the temperature fitted on held-out training data
(``benchmarks/train_support.py``). It never cuts a pair silently: callers ask
:meth:`OnnxCrossEncoder.fits` first, or read :meth:`OnnxCrossEncoder.token_spans` to cut windows
that fit (:mod:`citecheck.judging.judge_windows`).
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from citecheck.embedders.onnx_sessions import session_options
from citecheck.errors import BackendError, ConfigError, MissingDependencyError, ModelFileError

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

__all__ = ["OnnxCrossEncoder"]

_MARKERS = 3  # [CLS] first [SEP] second [SEP]


_FIX = (
    'reinstall citecheck with the judge (pip install --force-reinstall "pycitecheck[judge]"), '
    "or rebuild the files with: PYTHONPATH=src python benchmarks/train_support.py"
)


class OnnxCrossEncoder:
    """A sequence-pair classifier in ONNX: ``(first, second)`` pairs in, class probabilities
    out. ``max_length`` is what it reads, markers included; ``threads`` caps onnxruntime's
    threads (default: its own choice)."""

    def __init__(
        self,
        model_file: Path | str,
        tokenizer_file: Path | str,
        *,
        max_length: int,
        temperature: float = 1.0,
        threads: int | None = None,
    ) -> None:
        try:
            import onnxruntime
            from tokenizers import Tokenizer
        except ImportError as exc:
            raise MissingDependencyError(exc.name or "onnxruntime", "judge") from None
        if temperature <= 0:
            raise ConfigError(f"temperature must be positive, got {temperature}")
        self.max_length = max_length
        self.temperature = temperature
        for path in (model_file, tokenizer_file):
            if not Path(path).is_file():
                raise ModelFileError(f"the support judge's file {path} is missing; {_FIX}")
        try:
            self.tokenizer = Tokenizer.from_file(str(tokenizer_file))
        except Exception as exc:  # the tokenizers library's own error for a bad file
            raise ModelFileError(
                f"cannot read the tokenizer {tokenizer_file}: {exc}; {_FIX}"
            ) from None
        self.tokenizer.no_truncation()
        self.tokenizer.no_padding()
        options = session_options(threads)  # exact 8-bit products on every CPU
        try:
            self.session = onnxruntime.InferenceSession(
                os.fspath(model_file), options, providers=["CPUExecutionProvider"]
            )
        except Exception as exc:  # onnxruntime's error for a corrupt or foreign file
            raise ModelFileError(
                f"cannot load the judge model {model_file}: {exc}; {_FIX}"
            ) from None
        self.inputs = [i.name for i in self.session.get_inputs()]

    def token_spans(self, texts: Sequence[str]) -> list[list[tuple[int, int]]]:
        """Each text's tokens as character spans (markers left out): the
        :data:`~citecheck.language.tokens.TokenSpans` the windows are cut with."""
        encoded = self.tokenizer.encode_batch(list(texts), add_special_tokens=False)
        return [list(e.offsets) for e in encoded]

    def room(self, claim: str) -> int:
        """How many tokens of evidence fit beside ``claim`` (0 or less: the claim alone fills
        the model)."""
        return self.max_length - _MARKERS - len(self.token_spans([claim])[0])

    def fits(self, first: str, second: str) -> bool:
        """Whether the pair is read whole."""
        return len(self.token_spans([second])[0]) <= self.room(first)

    def classify_pairs(self, pairs: Sequence[tuple[str, str]]) -> NDArray[np.float64]:
        """Class probabilities, one row a pair. A pair longer than :attr:`max_length` is a
        :class:`~citecheck.errors.ConfigError`: cutting it is the caller's decision to report.

        Each pair is run alone. The model quantizes its activations at every run, one scale
        for the whole input, so a pair run in a batch would be read through its companions'
        scale and their padding: the same pair beside 31 others was read up to 34 points of
        probability apart from itself alone (548 windows of the five claim sets, mean 2
        points), and a verdict would hang on what else a door happened to ask. Alone it reads
        the same wherever it is asked, and faster on a CPU (no padding: 79 against 50 pairs a
        second on 2 cores, docs/benchmarks.md)."""
        import numpy as np

        encoded = self.tokenizer.encode_batch(list(pairs))
        longest = max((len(e.ids) for e in encoded), default=0)
        if longest > self.max_length:
            raise ConfigError(
                f"a pair of {longest} tokens is longer than the {self.max_length} the judge "
                "reads; cut the evidence into windows first"
            )
        rows: list[NDArray[np.float64]] = []
        for one in encoded:
            feed: dict[str, Any] = {
                "input_ids": np.array([one.ids], dtype=np.int64),
                "attention_mask": np.array([one.attention_mask], dtype=np.int64),
                "token_type_ids": np.array([one.type_ids], dtype=np.int64),
            }
            try:
                (logits,) = self.session.run(["logits"], {k: feed[k] for k in self.inputs})
            except Exception as exc:  # onnxruntime's failure while running
                raise BackendError(f"the support judge failed: {exc}") from exc
            scaled = np.asarray(logits[0], dtype=np.float64) / self.temperature
            exp = np.exp(scaled - scaled.max())
            rows.append(exp / exp.sum())
        return np.array(rows) if rows else np.zeros((0, 3))
