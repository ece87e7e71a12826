"""Judges of support: does this passage back this claim? Each returns a probability in [0, 1].

:class:`CrossEncoderJudge` runs a sentence-transformers ``CrossEncoder`` trained for natural
language inference and reads the probability of entailment. :class:`CallableJudge` wraps any
function, such as an LLM call, and reads numbers, booleans and yes/no answers. Either checks
what it gets: a judge that answers nonsense raises :class:`~citecheck.errors.BackendError`,
which the verifier reports as ``UNCHECKED``, never as a verdict.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Sequence
from typing import Any

from citecheck.errors import BackendError, ConfigError, MissingDependencyError

__all__ = ["CallableJudge", "CrossEncoderJudge", "judge_many"]

_YES = frozenset({"yes", "true", "supported", "supports", "entailment", "entailed", "support"})
_NO = frozenset({"no", "false", "unsupported", "refuted", "contradiction", "not supported"})
_PARTLY = frozenset({"partial", "partially", "partially supported", "partly", "neutral"})


def judge_many(
    judge: Callable[[str, str], float], claim: str, passages: Sequence[str]
) -> list[float]:
    """``judge(claim, passage)`` for each passage, through a batched ``judge_many`` method when
    the judge has one; each answer checked to be a probability."""
    batched = getattr(judge, "judge_many", None)
    try:
        answers = (
            list(batched(claim, passages))
            if callable(batched)
            else [judge(claim, p) for p in passages]
        )
    except (BackendError, MissingDependencyError):
        raise
    except Exception as exc:  # the model's or the remote service's failure, whatever it is
        raise BackendError(f"the judge failed: {type(exc).__name__}: {exc}") from exc
    if len(answers) != len(passages):
        raise BackendError(f"the judge gave {len(answers)} answers for {len(passages)} passages")
    return [_probability(a) for a in answers]


def _probability(answer: Any) -> float:
    if isinstance(answer, bool):
        return 1.0 if answer else 0.0
    if isinstance(answer, str):
        return _parse(answer)
    try:
        value = float(answer)
    except (TypeError, ValueError):
        raise BackendError(f"the judge answered {answer!r}, not a probability") from None
    if math.isnan(value) or not 0.0 <= value <= 1.0:
        raise BackendError(f"the judge answered {value}, which is not in [0, 1]")
    return value


def _parse(answer: str) -> float:
    text = re.sub(r"[^\w .]", "", answer).strip(" .").lower()
    if text in _YES:
        return 1.0
    if text in _NO:
        return 0.0
    if text in _PARTLY:
        return 0.5
    try:
        return _probability(float(text))
    except ValueError:
        raise BackendError(f"the judge answered {answer!r}: not yes/no or a probability") from None


class CallableJudge:
    """Any function ``(claim, evidence) -> answer`` as a judge: an LLM call, a rule, a service.

    The answer may be a probability, a boolean, or a word: ``yes`` / ``supported`` (1.0),
    ``partially`` / ``neutral`` (0.5), ``no`` / ``refuted`` (0.0). Anything else is a
    :class:`~citecheck.errors.BackendError`.
    """

    def __init__(self, function: Callable[[str, str], Any]) -> None:
        if not callable(function):
            raise ConfigError(f"CallableJudge needs a callable, got {type(function).__name__}")
        self.function = function

    def __call__(self, claim: str, evidence: str) -> float:
        return judge_many(self.function, claim, [evidence])[0]

    def __repr__(self) -> str:
        return f"CallableJudge({getattr(self.function, '__name__', self.function)!r})"


class CrossEncoderJudge:
    """An NLI cross-encoder as a judge: the probability it gives to "entailment" for the pair
    (evidence as premise, claim as hypothesis).

    ``model`` is a ``sentence_transformers.CrossEncoder`` or a name or path to load one from.
    ``entailment_label`` is the index (or name) of the entailment class; by default it is
    found in the model's ``id2label`` (a label containing "entail"). A model with a single
    output is read as a support score through a sigmoid. Needs the ``embeddings`` extra.
    """

    def __init__(
        self, model: Any, *, entailment_label: int | str | None = None, batch_size: int = 32
    ) -> None:
        if isinstance(model, str):
            try:
                from sentence_transformers import CrossEncoder
            except ImportError:
                raise MissingDependencyError("sentence-transformers", "embeddings") from None
            try:
                model = CrossEncoder(model, device="cpu")
            except Exception as exc:  # cannot load: missing files, bad config
                raise BackendError(f"cannot load the cross-encoder {model!r}: {exc}") from exc
        if not callable(getattr(model, "predict", None)):
            raise ConfigError(f"{model!r} is not a cross-encoder: it has no predict() method")
        self.model = model
        self.batch_size = batch_size
        self.labels = _labels(model)
        self.entailment = self._entailment_index(entailment_label)

    def _entailment_index(self, label: int | str | None) -> int | None:
        if len(self.labels) <= 1:
            return None  # one output: a support score
        if isinstance(label, int):
            if not 0 <= label < len(self.labels):
                raise ConfigError(f"entailment_label {label} is not one of {self.labels}")
            return label
        wanted = label.lower() if isinstance(label, str) else "entail"
        for index, name in enumerate(self.labels):
            if wanted in name.lower():
                return index
        raise ConfigError(
            f"cannot tell which output means entailment among {self.labels}; pass entailment_label"
        )

    def __call__(self, claim: str, evidence: str) -> float:
        return self.judge_many(claim, [evidence])[0]

    def judge_many(self, claim: str, passages: Sequence[str]) -> list[float]:
        """One probability per passage, in one batched call of the model."""
        if not passages:
            return []
        pairs = [(passage, claim) for passage in passages]
        try:
            if self.entailment is None:
                scores = self.model.predict(pairs, batch_size=self.batch_size)
                return [float(s) for s in scores]
            probabilities = self.model.predict(
                pairs, batch_size=self.batch_size, apply_softmax=True
            )
            return [float(row[self.entailment]) for row in probabilities]
        except Exception as exc:  # torch and tokenizer errors alike
            raise BackendError(f"the cross-encoder failed: {type(exc).__name__}: {exc}") from exc


def _labels(model: Any) -> list[str]:
    """The names of the model's outputs, from its config's ``id2label``."""
    config = getattr(model, "config", None)
    if config is None:
        config = getattr(getattr(model, "model", None), "config", None)
    id2label = getattr(config, "id2label", None) or {}
    count = getattr(model, "num_labels", None) or len(id2label) or 1
    return [str(id2label.get(i, f"LABEL_{i}")) for i in range(count)]
