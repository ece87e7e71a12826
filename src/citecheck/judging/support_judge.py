"""citecheck's own support judge: does a passage support a claim, contradict it, or not say?

A small cross-encoder (all-MiniLM-L6-v2 fine-tuned on public NLI and fact-checking pairs by
``benchmarks/train_support.py``), shipped as an int8 ONNX file in ``citecheck/judging/weights``
and run by :class:`~citecheck.judging.onnx_pair_classifier.OnnxCrossEncoder` (the ``judge`` extra:
onnxruntime and tokenizers, no PyTorch, nothing downloaded). Unlike the embedding cosine, it
reads the claim and the passage together, so "over six months" against "over three months"
is a contradiction to it, not a near match.

A passage longer than the model reads beside the claim is cut into sentence windows
(:func:`~citecheck.judging.judge_windows.sentence_windows`); every window is scored, up to
``max_windows`` of them (those overlapping the caller's ``focus`` spans first, then those
sharing the most words with the claim, when there are more), and the window with the highest
probability of support decides. citecheck's doors read one window, the one holding the
claim's best candidate (:data:`FOCUSED_WINDOWS`). A :class:`Reading` says how many
windows there were and how many were scored, and where the deciding one stands.

It reads English only: it was trained on English pairs, so a claim or a passage in another
language is not read at all (:class:`Unread` says why) rather than scored by a model that cannot
read it. A claim too long to leave room for evidence, and a passage with no text, are not read
either; the caller falls back to another judgement and says so.
"""

from __future__ import annotations

import json
import re
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from citecheck.embedders.onnx_minilm import MINILM_TOKENIZER
from citecheck.errors import BackendError, ConfigError, ModelFileError
from citecheck.judging.judge_windows import Sentences, shared_words
from citecheck.judging.onnx_pair_classifier import OnnxCrossEncoder
from citecheck.language.lexicon import english_digits, language_counts
from citecheck.language.text import LETTERS
from citecheck.language.tokens import TokenBudget

__all__ = [
    "FOCUSED_WINDOWS",
    "WEIGHTS",
    "Reading",
    "SupportJudge",
    "Unread",
    "default_judge",
    "looks_english",
]

WEIGHTS = Path(__file__).resolve().parent / "weights"
"""The shipped judge: ``support-judge.onnx`` and ``support-judge.json``; its tokenizer is
all-MiniLM-L6-v2's (:data:`~citecheck.embedders.onnx_minilm.MINILM_TOKENIZER`). A judge
folder of your own may hold its own ``tokenizer.json``."""

FOCUSED_WINDOWS = 1
"""How many windows of a source citecheck's doors (the verifier, record labels, the paper
library) have the judge read about a claim: the one holding the claim's best candidate
passage. Reading up to eight, as the first release did, graded the five claim sets no better
(docs/benchmarks.md, "The support judge") for up to eight times the model's work on a long
source."""

_KEPT_PASSAGES = 64  # passages whose sentences are kept measured
_MIN_ROOM = 16  # tokens of evidence a window must hold beside the claim
_LATIN = re.compile(r"[A-Za-z\u00C0-\u024F]")
_FEW_WORDS = 6  # a text this short is not judged by its language


@dataclass(frozen=True, slots=True)
class Reading:
    """The judge's reading of one passage: the calibrated probabilities of its deciding
    window (the one most likely to support the claim), the largest probability of
    contradiction over the windows scored, where the deciding window stands in the passage,
    and how many windows the passage was cut into (``windows``) and scored (``scored``)."""

    supported: float
    contradicted: float
    window: tuple[int, int]
    windows: int
    scored: int

    @property
    def note(self) -> str:
        """What the reason should say about the windows, or ``""`` when the passage was read
        whole."""
        if self.windows <= 1:
            return ""
        if self.scored < self.windows:
            read = (
                "the one closest to the claim was"
                if self.scored == 1
                else f"the {self.scored} closest to the claim were"
            )
            return f"the passage was split into {self.windows} windows and {read} read"
        return f"the passage was split into {self.windows} windows, each read"


@dataclass(frozen=True, slots=True)
class Unread:
    """Why the judge did not read a passage."""

    reason: str


class SupportJudge:
    """The shipped support judge (or the one in ``directory``, as written by
    ``benchmarks/train_support.py``). ``supported`` and ``partial`` are its probability
    thresholds, chosen on held-out training data; ``max_windows`` bounds the windows read in
    one passage; ``threads`` caps onnxruntime's threads; ``max_length`` reads shorter windows
    than the model was trained on (at most its description's ``max_length``: faster, with
    less of the source beside the claim).

    It is also a :class:`~citecheck.protocols.Judge`: ``judge(claim, evidence)`` is the
    probability of support, and a passage it cannot read is a
    :class:`~citecheck.errors.BackendError` there (the verifier's ``UNCHECKED``)."""

    def __init__(
        self,
        directory: Path | str | None = None,
        *,
        max_windows: int = 8,
        threads: int | None = None,
        max_length: int | None = None,
    ) -> None:
        if max_windows < 1:
            raise ConfigError(f"max_windows must be positive, got {max_windows}")
        self.directory = Path(directory) if directory is not None else WEIGHTS
        description = self.directory / "support-judge.json"
        try:
            self.description: dict[str, Any] = json.loads(description.read_text("utf-8"))
            thresholds = self.description["thresholds"]
            self.supported = float(thresholds["supported"])
            self.partial = float(thresholds["partial"])
            trained = int(self.description["max_length"])
            temperature = float(self.description["temperature"])
        except FileNotFoundError:
            raise ModelFileError(
                f"the support judge's description {description} is missing; reinstall "
                '"pycitecheck[judge]" or rebuild it with benchmarks/train_support.py'
            ) from None
        except (ValueError, KeyError, TypeError) as exc:
            raise ModelFileError(f"{description} is not a judge description: {exc}") from None
        if max_length is None:
            max_length = trained
        elif not _MIN_ROOM * 2 <= max_length <= trained:
            raise ConfigError(
                f"max_length must be {_MIN_ROOM * 2} to {trained} tokens (what the judge in "
                f"{self.directory} was trained on), got {max_length}"
            )
        self.labels = tuple(self.description.get("labels", ()))
        tokenizer = self.directory / "tokenizer.json"
        self.engine = OnnxCrossEncoder(
            self.directory / "support-judge.onnx",
            tokenizer if tokenizer.is_file() else MINILM_TOKENIZER,
            max_length=max_length,
            temperature=temperature,
            threads=threads,
        )
        self.max_windows = max_windows
        self.budget = TokenBudget(max_tokens=max_length, token_spans=self.engine.token_spans)
        self._measured: OrderedDict[str, Sentences | None] = OrderedDict()

    def __repr__(self) -> str:
        return f"SupportJudge({str(self.directory)!r})"

    def read(
        self,
        claim: str,
        passages: Sequence[str],
        *,
        focus: Sequence[tuple[int, int]] = (),
        max_windows: int | None = None,
    ) -> list[Reading | Unread]:
        """The judge's reading of each passage about ``claim``, in one call. When a
        passage has more windows than ``max_windows`` (default: :attr:`max_windows`), those
        overlapping a ``focus`` span (character offsets into the passage, such as the
        sentences closest in meaning) are read first, then those sharing the most words with
        the claim."""
        pairs = [(claim, passage) for passage in passages]
        return self.read_pairs(pairs, focus=[focus] * len(pairs), max_windows=max_windows)

    def read_pairs(
        self,
        pairs: Sequence[tuple[str, str]],
        *,
        focus: Sequence[Sequence[tuple[int, int]]] = (),
        max_windows: int | None = None,
    ) -> list[Reading | Unread]:
        """The reading of each ``(claim, passage)`` pair (see :meth:`read`); ``focus``, when
        given, holds each pair's spans to read first. Every window of every pair is scored in
        one call of the engine, which runs each window alone (a reading never depends on what
        else was asked with it: :meth:`OnnxCrossEncoder.classify_pairs
        <citecheck.judging.onnx_pair_classifier.OnnxCrossEncoder.classify_pairs>`)."""
        if focus and len(focus) != len(pairs):
            raise ConfigError(f"{len(focus)} focus lists for {len(pairs)} pairs")
        most = self.max_windows if max_windows is None else max_windows
        if most < 1:
            raise ConfigError(f"max_windows must be positive, got {most}")
        plans: list[tuple[list[tuple[int, int]], int] | Unread] = []
        windows: list[tuple[str, str]] = []  # (window text, claim): what the model reads
        for n, (claim, passage) in enumerate(pairs):
            plan = self._plan(claim, passage, focus[n] if focus else (), most)
            plans.append(plan)
            if not isinstance(plan, Unread):
                windows.extend(self._as_read(passage[s:e], claim) for s, e in plan[0])
        probabilities = self.engine.classify_pairs(windows)
        readings: list[Reading | Unread] = []
        at = 0
        for plan in plans:
            if isinstance(plan, Unread):
                readings.append(plan)
                continue
            chosen, total = plan
            rows = probabilities[at : at + len(chosen)]
            at += len(chosen)
            best = int(rows[:, 0].argmax())
            readings.append(
                Reading(
                    supported=float(rows[best, 0]),
                    contradicted=float(rows[:, 1].max()),
                    window=chosen[best],
                    windows=total,
                    scored=len(chosen),
                )
            )
        return readings

    def _as_read(self, window: str, claim: str) -> tuple[str, str]:
        """What the model reads of a window and a claim: both with their English number words
        in digits, so that "thirty-two people" and "32 people" read alike (the judge's
        training pairs write numbers both ways; a digit against a word read as a changed
        number). The texts as they are when the digits would not fit."""
        read = english_digits(window), english_digits(claim)
        if read != (window, claim) and not self.engine.fits(*read):
            return window, claim
        return read

    def _plan(
        self, claim: str, passage: str, focus: Sequence[tuple[int, int]], most: int
    ) -> tuple[list[tuple[int, int]], int] | Unread:
        """The windows of ``passage`` to score beside ``claim`` and how many it has, or why
        it is not read."""
        if not claim.strip():
            return Unread("the claim is empty")
        if not passage.strip():
            return Unread("the passage is empty")
        if not looks_english(claim):
            return Unread("the judge reads English only, and the claim is not English")
        measured = self._measured_passage(passage)
        if measured is None:
            return Unread("the judge reads English only, and the passage is not English")
        room = self.engine.room(claim)
        if room < _MIN_ROOM:
            return Unread(
                f"the claim is too long for the judge ({self.engine.max_length - room} of "
                f"{self.engine.max_length} tokens)"
            )
        windows = measured.windows(room)
        if len(windows) <= most:
            return windows, len(windows)

        def rank(window: tuple[int, int]) -> tuple[bool, int, int]:
            start, end = window
            focused = any(s < end and e > start for s, e in focus)
            return (not focused, -shared_words(claim, passage[start:end]), start)

        ranked = sorted(windows, key=rank)[:most]
        return sorted(ranked), len(windows)

    def _measured_passage(self, passage: str) -> Sentences | None:
        """The passage's sentences measured in tokens, or ``None`` when it is not English;
        both found once and kept for the next claims citing it."""
        if passage in self._measured:
            self._measured.move_to_end(passage)
            return self._measured[passage]
        measured = Sentences.of(passage, self.budget) if looks_english(passage) else None
        self._measured[passage] = measured
        while len(self._measured) > _KEPT_PASSAGES:
            self._measured.popitem(last=False)
        return measured

    def __call__(self, claim: str, evidence: str) -> float:
        return self.judge_many(claim, [evidence])[0]

    def judge_many(self, claim: str, passages: Sequence[str]) -> list[float]:
        """The probability that each passage supports ``claim`` (the Judge protocol)."""
        out = []
        for reading in self.read(claim, passages):
            if isinstance(reading, Unread):
                raise BackendError(f"the support judge could not read a passage: {reading.reason}")
            out.append(reading.supported)
        return out


def looks_english(text: str) -> bool:
    """Whether ``text`` reads as English, or at least not as another language: most of its
    letters are Latin, and it has no more frequent words of German, Dutch, French, Spanish,
    Italian or Portuguese than of English (:func:`~citecheck.language.lexicon.language_counts`;
    a text of fewer than six words always passes: a name, a number, a title)."""
    words = LETTERS.findall(text)
    if len(words) < _FEW_WORDS:
        return True
    letters = sum(len(w) for w in words)
    if len(_LATIN.findall(text)) < letters / 2:
        return False
    counts = language_counts(text)
    other = max(n for lang, n in counts.items() if lang != "en")
    return other <= counts["en"]


@cache
def default_judge() -> SupportJudge | None:
    """The shipped judge, loaded once, when the ``judge`` extra (onnxruntime and tokenizers) is
    installed; else ``None``. With the extra installed, a missing or corrupt model file is a
    :class:`~citecheck.errors.ModelFileError` naming the fix, never ``None``."""
    try:
        import onnxruntime  # noqa: F401
        import tokenizers  # noqa: F401
    except ImportError:
        return None
    return SupportJudge()
