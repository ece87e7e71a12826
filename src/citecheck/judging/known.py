"""Judges people already use, by name: ``load_judge("minicheck-roberta-large")``.

Each known judge is a published model with its own way of reading a (document, claim) pair:
the order of the two texts, a prompt around them, how a long document is cut into chunks and
how the chunks' answers are combined, and which output means "supported". A wrapper that gets
one of these wrong loses accuracy silently (one public wrapper of MiniCheck lost 13 points
through its own chunking), so each adapter here follows its authors' inference code line by
line, and the tests check it against a straightforward reimplementation of that code on tiny
models (``benchmarks/judge_adapters.py``).

=============================  ============================================================
name                           what it is
=============================  ============================================================
``minicheck-roberta-large``    ``lytang/MiniCheck-RoBERTa-Large``, 0.4B classifier
``minicheck-deberta-v3-large`` ``lytang/MiniCheck-DeBERTa-v3-Large``, 0.4B classifier
``minicheck-flan-t5-large``    ``lytang/MiniCheck-Flan-T5-Large``, 0.8B sequence-to-sequence
``bespoke-minicheck-7b``       ``bespokelabs/Bespoke-MiniCheck-7B``, a 7B LLM (its own code)
``factcg-deberta-large``       ``yaxili96/FactCG-DeBERTa-v3-Large``, 0.4B classifier
``hhem-2.1-open``              ``vectara/hallucination_evaluation_model``, 0.1B T5 encoder
``nli:MODEL``                  any sentence-transformers NLI cross-encoder
``openai:MODEL``               an LLM behind an OpenAI-compatible chat completions endpoint
``ollama:MODEL``               an LLM served by Ollama (``ollama:bespoke-minicheck`` too)
=============================  ============================================================

:data:`KNOWN_JUDGES` and :data:`JUDGE_PREFIXES` hold each one's :class:`JudgeSpec` (input
format, chunking, labels, published accuracy and its source, cost on a CPU, the extra it
needs); :func:`describe` prints them. Every judge returned is a
:class:`~citecheck.protocols.Judge` with a batched ``judge_many``, so it plugs into
``citecheck.Verifier(judge=...)`` and sits under the meaning guard like any other judge: a
claim that changes a number, a negation or a quantifier is never ``verified``, whatever the
model says.

Models load with ``from_pretrained`` from the user's model cache, or from the hub when there is
a network; ``HF_HUB_OFFLINE`` (or ``TRANSFORMERS_OFFLINE``) keeps them to the cache, and
``model=PATH`` loads a local copy. Nothing heavy is imported until a judge is loaded. A missing
package raises :class:`~citecheck.errors.MissingDependencyError`, a model that cannot be loaded
:class:`~citecheck.errors.BackendError`, and an unknown name :class:`~citecheck.errors.ConfigError`
listing the known ones.
"""

from __future__ import annotations

import difflib
import importlib
import json
import os
import re
from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from os import PathLike
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Literal

from citecheck.errors import BackendError, ConfigError, MissingDependencyError
from citecheck.judging.judges import CallableJudge, CrossEncoderJudge

if TYPE_CHECKING:
    from collections.abc import Mapping

    from citecheck.protocols import Judge

__all__ = [
    "BESPOKE_SYSTEM_PROMPT",
    "BESPOKE_USER_PROMPT",
    "FACTCG_TEMPLATE",
    "HHEM_PROMPT",
    "JUDGE_PREFIXES",
    "KNOWN_JUDGES",
    "LLM_EXTRA",
    "LLM_SYSTEM_PROMPT",
    "LLM_USER_PROMPT",
    "MODELS_EXTRA",
    "BespokeMiniCheckJudge",
    "ChatJudge",
    "FactCGJudge",
    "HHEMJudge",
    "JudgeSpec",
    "MiniCheckJudge",
    "bespoke_minicheck_7b",
    "describe",
    "factcg_chunks",
    "factcg_deberta_large",
    "hhem_2_1_open",
    "judge_named",
    "load_judge",
    "minicheck_chunks",
    "minicheck_deberta_v3_large",
    "minicheck_flan_t5_large",
    "minicheck_roberta_large",
    "nli_judge",
    "ollama_judge",
    "openai_judge",
    "sentences_with_newlines",
]

MODELS_EXTRA = "judges"
"""The extra the local models need: transformers, PyTorch, NLTK (the authors' sentence splitter)
and the tokenizers' own dependencies."""
LLM_EXTRA = "llm-judges"
"""The extra the LLM judges need: httpx."""

_TRUE = frozenset({"1", "true", "yes", "on"})

# -- the authors' constants ------------------------------------------------------------------

MINICHECK_FLAN_LABEL_IDS = (3, 209)
"""The two vocabulary entries MiniCheck-Flan-T5 reads at its first decoder step: not supported,
supported (``minicheck/inference.py``: "3 for no support and 209 for support")."""

FACTCG_TEMPLATE = (
    "{text_a}\n\nChoose your answer: based on the paragraph above can we conclude that "
    '"{text_b}"?\n\nOPTIONS:\n- Yes\n- No\nI think the answer is '
)
"""FactCG's instruction around (document, claim) for its DeBERTa checkpoint
(``factcg/utils.py``)."""

HHEM_PROMPT = (
    "<pad> Determine if the hypothesis is true given the premise?\n\n"
    "Premise: {text1}\n\nHypothesis: {text2}"
)
"""HHEM-2.1-Open's prompt (its ``config.json`` and ``modeling_hhem_v2.py``): ``text1`` is the
premise (the evidence), ``text2`` the hypothesis (the claim). A checkpoint's own ``prompt``
in its ``config.json`` wins."""

BESPOKE_SYSTEM_PROMPT = (
    "Determine whether the provided claim is consistent with the corresponding document. "
    "Consistency in this context implies that all information presented in the claim is "
    "substantiated by the document. If not, it should be considered inconsistent. Please "
    'assess the claim\'s consistency with the document by responding with either "Yes" or '
    '"No".'
)
"""Bespoke-MiniCheck-7B's system prompt (``minicheck/utils.py``)."""
BESPOKE_USER_PROMPT = "Document: [DOCUMENT]\nClaim: [CLAIM]"
"""Bespoke-MiniCheck-7B's user turn; Ollama's ``bespoke-minicheck`` takes the same text."""

LLM_SYSTEM_PROMPT = (
    "You check citations. You are given a passage from a source and a claim that cites it. "
    "Say whether the passage supports the claim: every fact in the claim, each name, number, "
    "date, negation and quantity, must be stated in the passage or follow from it directly; "
    "what you know from elsewhere does not count. Answer with one word: yes (the passage "
    "supports all of the claim), partially (it supports only part of it) or no (it does not "
    "support it, or contradicts it)."
)
"""The system turn of the ``openai:`` and ``ollama:`` judges."""
LLM_USER_PROMPT = (
    "Passage:\n{evidence}\n\nClaim:\n{claim}\n\n"
    "Does the passage support the claim? Answer yes, partially or no."
)
"""Their user turn: the passage first, then the claim."""


# -- loading ---------------------------------------------------------------------------------


def _offline() -> bool:
    """Whether the user asked for no network: ``HF_HUB_OFFLINE`` or ``TRANSFORMERS_OFFLINE``."""
    return any(
        os.environ.get(variable, "").strip().lower() in _TRUE
        for variable in ("HF_HUB_OFFLINE", "TRANSFORMERS_OFFLINE")
    )


def _module(name: str, extra: str) -> Any:
    """``import name``, or the error that names the extra to install."""
    try:
        return importlib.import_module(name)
    except ImportError:
        raise MissingDependencyError(name, extra) from None


def _torch() -> Any:
    return _module("torch", MODELS_EXTRA)


def _transformers() -> Any:
    _torch()
    return _module("transformers", MODELS_EXTRA)


def _hub_options(cache_dir: str | PathLike[str] | None) -> dict[str, Any]:
    """What every ``from_pretrained`` call gets: the cache, and no network when offline."""
    options: dict[str, Any] = {}
    if cache_dir is not None:
        options["cache_dir"] = os.fspath(cache_dir)
    if _offline():
        options["local_files_only"] = True
    return options


def _loaded(name: str, source: str, load: Callable[[], Any]) -> Any:
    """``load()``, with a failure to find or read the model as a :class:`BackendError` that says
    where it was looked for."""
    try:
        return load()
    except (MissingDependencyError, ConfigError):
        raise
    except ImportError as exc:
        raise MissingDependencyError(exc.name or "transformers", MODELS_EXTRA) from None
    except Exception as exc:  # missing files, no network, a corrupt checkpoint
        hint = (
            " (HF_HUB_OFFLINE is set, so only the local cache is read: load it once with a "
            "network, or pass model=PATH)"
            if _offline()
            else " (pass model=PATH for a local copy)"
        )
        raise BackendError(
            f"cannot load the judge {name!r} from {source!r}: {type(exc).__name__}: {exc}{hint}"
        ) from exc


def _source(model: str | PathLike[str] | None, hub_id: str) -> str:
    if model is None:
        return hub_id
    if not isinstance(model, str | PathLike) or not os.fspath(model):
        raise ConfigError(f"model must be a hub id or a local path, got {model!r}")
    return os.fspath(model)


def _positive(name: str, value: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise ConfigError(f"{name} must be a positive integer, got {value!r}")
    return value


# -- sentences (NLTK, as the authors split them) ----------------------------------------------


def _nltk() -> Any:
    """NLTK with its Punkt sentence model, which MiniCheck and FactCG split documents with.
    Downloaded once (as the authors' packages do) unless the user is offline."""
    nltk = _module("nltk", MODELS_EXTRA)
    if not _punkt_installed(nltk):
        if not _offline():
            try:
                nltk.download("punkt_tab", quiet=True, raise_on_error=True)
            except Exception as exc:  # no network, a proxy, a full disk
                raise BackendError(
                    "the judge splits documents into sentences with NLTK's Punkt model, which "
                    f"is not installed and could not be downloaded ({exc}): run "
                    "python -m nltk.downloader punkt_tab"
                ) from exc
        if not _punkt_installed(nltk):
            why = (
                "HF_HUB_OFFLINE or TRANSFORMERS_OFFLINE is set, so it was not downloaded"
                if _offline()
                else "the download did not install it where NLTK looks"
            )
            raise BackendError(
                "the judge splits documents into sentences with NLTK's Punkt model, which is "
                f"not installed ({why}): run python -m nltk.downloader punkt_tab"
            )
    return nltk


def _punkt_installed(nltk: Any) -> bool:
    """Whether NLTK finds the English Punkt model ``sent_tokenize`` reads (``punkt_tab``)."""
    try:
        nltk.data.find("tokenizers/punkt_tab/english/")
    except LookupError:
        return False
    return True


def sentences_with_newlines(text: str) -> list[str]:
    """MiniCheck's sentence split (``sent_tokenize_with_newlines``): each line split by NLTK,
    with a ``"\\n"`` item between lines, so that chunks keep the document's line breaks."""
    nltk = _nltk()
    pieces: list[str] = []
    for block in text.split("\n"):
        pieces.extend(nltk.sent_tokenize(block))
        pieces.append("\n")
    return pieces[:-1]


def minicheck_chunks(
    document: str, chunk_size: int, count: Callable[[list[str]], list[int]]
) -> list[str]:
    """The chunks MiniCheck reads ``document`` in (``Inferencer.inference_per_example`` and
    ``LLMCheck.get_all_chunks_per_doc``): whole sentences, in order, added to a chunk while its
    size stays within ``chunk_size``; ``count`` gives each sentence's size (words for
    Flan-T5, the model's tokens for the others). Chunks are joined by spaces with the line
    breaks put back, stripped, and empty ones dropped; a sentence longer than ``chunk_size`` is a
    chunk of its own (the model truncates it)."""
    sentences = sentences_with_newlines(document) or [""]
    sizes = count(sentences)
    chunks: list[str] = []
    current: list[str] = []
    size = 0
    for sentence, length in zip(sentences, sizes, strict=True):
        if size + length > chunk_size:
            chunks.append(" ".join(current))
            current, size = [sentence], length
        else:
            current.append(sentence)
            size += length
    if current:
        chunks.append(" ".join(current))
    cleaned = (chunk.replace(" \n ", "\n").strip() for chunk in chunks)
    return [chunk for chunk in cleaned if chunk != ""]


def factcg_chunks(document: str, max_chunk_size: int = 550) -> list[str]:
    """The chunks FactCG reads ``document`` in (``Inferencer.chunking_src``): NLTK sentences,
    each counted in NLTK word tokens, joined by line breaks while a chunk stays within
    ``max_chunk_size``. As in the authors' code, only the last chunk is cleaned of spaces
    around its line breaks, and a first sentence longer than ``max_chunk_size`` leaves an empty
    first chunk, which is read (an empty premise) like any other."""
    nltk = _nltk()
    chunks: list[str] = []
    chunk = ""
    size = 0
    for sentence in nltk.sent_tokenize(document):
        length = len(nltk.word_tokenize(sentence))
        if size + length <= max_chunk_size:
            chunk = "\n".join([chunk, sentence]).strip("\n")
            size += length
        else:
            chunks.append(chunk.strip("\n"))
            chunk, size = sentence, length
    if size > 0:
        chunks.append(chunk.replace(" \n ", "\n").strip("\n").strip())
    return chunks


# -- the adapters ----------------------------------------------------------------------------


class _ChunkedJudge(ABC):
    """A judge that reads each passage in chunks and keeps its best chunk's support: what
    MiniCheck and FactCG do (the maximum over chunks of the probability of "supported")."""

    name: str
    batch_size: int
    device: str

    @abstractmethod
    def chunks(self, document: str) -> list[str]:
        """The chunks the model reads ``document`` in, as its authors cut it."""

    @abstractmethod
    def _texts(self, claim: str, chunks: Sequence[str]) -> list[str]:
        """The model's input text for each (chunk, claim) pair."""

    @abstractmethod
    def _support(self, texts: list[str]) -> list[float]:
        """The probability of "supported" for each input text."""

    def __call__(self, claim: str, evidence: str) -> float:
        return self.judge_many(claim, [evidence])[0]

    def chunk_support(self, claim: str, document: str) -> list[tuple[str, float]]:
        """Each chunk of ``document`` with the probability that it supports ``claim``."""
        chunks = self._chunks_of(document)
        return list(zip(chunks, self._support(self._texts(claim, chunks)), strict=True))

    def judge_many(self, claim: str, passages: Sequence[str]) -> list[float]:
        """For each passage, the highest probability of "supported" over its chunks; all the
        chunks of all the passages go through the model in batches of ``batch_size``."""
        if not claim.strip():
            raise BackendError(f"{self.name}: the claim is empty")
        chunked = [self._chunks_of(passage) for passage in passages]
        texts = [text for chunks in chunked for text in self._texts(claim, chunks)]
        support = self._support(texts)
        best: list[float] = []
        start = 0
        for chunks in chunked:
            best.append(max(support[start : start + len(chunks)]))
            start += len(chunks)
        return best

    def _chunks_of(self, document: str) -> list[str]:
        chunks = self.chunks(document)
        if not chunks:
            raise BackendError(f"{self.name}: the passage is empty, there is nothing to read")
        return chunks

    def _batches(self, texts: list[str]) -> list[list[str]]:
        return [texts[i : i + self.batch_size] for i in range(0, len(texts), self.batch_size)]

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.name!r})"


MiniCheckVariant = Literal["roberta-large", "deberta-v3-large", "flan-t5-large"]

_MINICHECK_DEFAULTS: dict[str, tuple[int, int]] = {
    # variant: (max_model_len, chunk_size), from minicheck/inference.py and minicheck.py
    "roberta-large": (512, 400),
    "deberta-v3-large": (2048, 400),
    "flan-t5-large": (2048, 500),
}


class MiniCheckJudge(_ChunkedJudge):
    """MiniCheck-RoBERTa-L, -DeBERTa-L or -Flan-T5-L (Tang, Laban and Durrett, EMNLP 2024), read
    as ``minicheck/inference.py`` reads them.

    - **Input:** the document chunk, the tokenizer's end-of-sequence token, then the claim, as
      *one* text (``"chunk</s>claim"``; DeBERTa's is ``[SEP]``), truncated to ``max_length``
      tokens (512 for RoBERTa, 2048 for the others); Flan-T5's text starts with ``"predict: "``.
    - **Chunks:** NLTK sentences, line by line, gathered up to ``chunk_size``: 400 of the
      model's tokens for RoBERTa and DeBERTa, 500 whitespace words for Flan-T5
      (:func:`minicheck_chunks`).
    - **Labels:** the softmax of the two logits, index 1 is "supported"; Flan-T5 reads its first
      decoder step's logits for vocabulary entries 3 (no) and 209 (yes).
    - **Combined:** the highest "supported" probability over the chunks.

    ``model`` and ``tokenizer`` are the loaded transformers objects; :func:`load_judge` builds
    them from a name.
    """

    def __init__(
        self,
        model: Any,
        tokenizer: Any,
        variant: MiniCheckVariant,
        *,
        max_length: int | None = None,
        chunk_size: int | None = None,
        batch_size: int = 16,
        device: str = "cpu",
        name: str | None = None,
    ) -> None:
        if variant not in _MINICHECK_DEFAULTS:
            raise ConfigError(f"MiniCheck variant must be one of {list(_MINICHECK_DEFAULTS)}")
        default_length, default_chunk = _MINICHECK_DEFAULTS[variant]
        self.variant = variant
        self.seq2seq = variant == "flan-t5-large"
        self.max_length = _positive("max_length", max_length or default_length)
        self.chunk_size = _positive("chunk_size", chunk_size or default_chunk)
        self.batch_size = _positive("batch_size", batch_size)
        self.device = device
        self.name = name or f"minicheck-{variant}"
        self.tokenizer = tokenizer
        self.model = model.to(device).eval()
        if not getattr(tokenizer, "eos_token", None):
            raise ConfigError(f"{self.name}: the tokenizer has no end-of-sequence token")
        _nltk()  # the sentence model, now rather than at the first claim

    def chunks(self, document: str) -> list[str]:
        return minicheck_chunks(document, self.chunk_size, self._count)

    def _count(self, sentences: list[str]) -> list[int]:
        if self.seq2seq:
            return [len(sentence.split()) for sentence in sentences]
        ids = self.tokenizer(
            sentences,
            padding=False,
            add_special_tokens=False,
            max_length=self.max_length,
            truncation=True,
        )["input_ids"]
        return [len(row) for row in ids]

    def _texts(self, claim: str, chunks: Sequence[str]) -> list[str]:
        joined = [self.tokenizer.eos_token.join([chunk, claim]) for chunk in chunks]
        return ["predict: " + text for text in joined] if self.seq2seq else joined

    def _support(self, texts: list[str]) -> list[float]:
        torch = _torch()
        support: list[float] = []
        for batch in self._batches(texts):
            inputs = self.tokenizer(
                batch,
                max_length=self.max_length,
                truncation=True,
                padding=True,
                return_tensors="pt",
            )
            inputs = {key: value.to(self.device) for key, value in inputs.items()}
            with torch.inference_mode():
                if self.seq2seq:
                    rows = inputs["input_ids"].size(0)
                    start = torch.zeros((rows, 1), dtype=torch.long, device=self.device)
                    logits = self.model(
                        input_ids=inputs["input_ids"],
                        attention_mask=inputs["attention_mask"],
                        decoder_input_ids=start,
                    ).logits.squeeze(1)
                    logits = logits[:, torch.tensor(MINICHECK_FLAN_LABEL_IDS)]
                else:
                    logits = self.model(**inputs).logits
                probabilities = torch.softmax(logits.cpu(), dim=-1)[:, 1]
            support.extend(float(p) for p in probabilities)
        return support


class FactCGJudge(_ChunkedJudge):
    """FactCG-DeBERTa-L (Lei et al., NAACL 2025), read as ``factcg/inference.py`` reads its
    Hugging Face checkpoint.

    - **Input:** :data:`FACTCG_TEMPLATE` with the chunk as the paragraph and the claim in the
      question, one text of at most 2048 tokens (``truncation="only_first"``), padded with the
      tokenizer's end-of-sequence token as the authors set it.
    - **Chunks:** NLTK sentences joined by line breaks up to 550 NLTK word tokens
      (:func:`factcg_chunks`).
    - **Labels:** the softmax of the two logits, index 1 is "supported".
    - **Combined:** the highest "supported" probability over the chunks (the authors' mean over
      the claim's one row of maxima).
    """

    def __init__(
        self,
        model: Any,
        tokenizer: Any,
        *,
        max_length: int = 2048,
        chunk_size: int = 550,
        batch_size: int = 16,
        device: str = "cpu",
        name: str = "factcg-deberta-large",
    ) -> None:
        self.max_length = _positive("max_length", max_length)
        self.chunk_size = _positive("chunk_size", chunk_size)
        self.batch_size = _positive("batch_size", batch_size)
        self.device = device
        self.name = name
        if not getattr(tokenizer, "eos_token", None):
            raise ConfigError(f"{name}: the tokenizer has no end-of-sequence token")
        tokenizer.pad_token = tokenizer.eos_token  # as the authors' tokenize() does
        self.tokenizer = tokenizer
        self.model = model.to(device).eval()
        _nltk()

    def chunks(self, document: str) -> list[str]:
        return factcg_chunks(document, self.chunk_size)

    def _texts(self, claim: str, chunks: Sequence[str]) -> list[str]:
        return [FACTCG_TEMPLATE.format(text_a=chunk, text_b=claim) for chunk in chunks]

    def _support(self, texts: list[str]) -> list[float]:
        torch = _torch()
        support: list[float] = []
        for batch in self._batches(texts):
            inputs = self.tokenizer(
                batch,
                max_length=self.max_length,
                truncation="only_first",
                padding="longest",
                return_tensors="pt",
            )
            inputs = {key: value.to(self.device) for key, value in inputs.items()}
            with torch.inference_mode():
                logits = self.model(**inputs).logits
                probabilities = torch.softmax(logits.cpu(), dim=-1)[:, 1]
            support.extend(float(p) for p in probabilities)
        return support


class HHEMJudge:
    """HHEM-2.1-Open (Vectara), read as its ``modeling_hhem_v2.py`` ``predict`` reads it.

    - **Input:** :data:`HHEM_PROMPT` (or the checkpoint's own ``prompt``) with the evidence as
      the premise and the claim as the hypothesis, tokenized by the foundation's tokenizer
      (``google/flan-t5-base``) with no truncation: the model has no length limit.
    - **Chunks:** none; the whole passage is read at once.
    - **Labels:** the first token's two logits of a T5 encoder with a token-classification
      head; the softmax's index 1 is "consistent" (0 is "hallucinated").

    ``model`` is a ``transformers.T5ForTokenClassification`` holding HHEM's weights: the model
    HHEM's own class wraps, so no code from the hub is run.
    """

    def __init__(
        self,
        model: Any,
        tokenizer: Any,
        *,
        prompt: str = HHEM_PROMPT,
        batch_size: int = 8,
        device: str = "cpu",
        name: str = "hhem-2.1-open",
    ) -> None:
        if "{text1}" not in prompt or "{text2}" not in prompt:
            raise ConfigError(f"{name}: the prompt needs {{text1}} and {{text2}}, got {prompt!r}")
        self.prompt = prompt
        self.batch_size = _positive("batch_size", batch_size)
        self.device = device
        self.name = name
        self.tokenizer = tokenizer
        self.model = model.to(device).eval()

    def __call__(self, claim: str, evidence: str) -> float:
        return self.judge_many(claim, [evidence])[0]

    def judge_many(self, claim: str, passages: Sequence[str]) -> list[float]:
        """The probability that each passage is consistent with ``claim``, in batches."""
        torch = _torch()
        texts = [self.prompt.format(text1=passage, text2=claim) for passage in passages]
        support: list[float] = []
        for start in range(0, len(texts), self.batch_size):
            batch = texts[start : start + self.batch_size]
            inputs = self.tokenizer(batch, return_tensors="pt", padding=True)
            inputs = {key: value.to(self.device) for key, value in inputs.items()}
            with torch.inference_mode():
                logits = self.model(**inputs).logits[:, 0, :]
                probabilities = torch.softmax(logits.cpu(), dim=-1)[:, 1]
            support.extend(float(p) for p in probabilities)
        return support

    def __repr__(self) -> str:
        return f"HHEMJudge({self.name!r})"


class BespokeMiniCheckJudge:
    """Bespoke-MiniCheck-7B, read as ``minicheck/inference.py``'s ``LLMCheck`` reads it, with
    transformers in place of vLLM.

    - **Input:** a chat of :data:`BESPOKE_SYSTEM_PROMPT` and :data:`BESPOKE_USER_PROMPT` (the
      chunk for ``[DOCUMENT]``, then one sentence of the claim for ``[CLAIM]``), through the
      tokenizer's chat template with the generation prompt, encoded as vLLM encodes a prompt.
    - **Chunks:** NLTK sentences gathered up to ``chunk_size`` of the model's tokens
      (``max_model_len`` 32768 less 300 for the claim); an empty document is one empty chunk.
      The claim is split into NLTK sentences too.
    - **Labels:** the probability of the next token, summed over those of the five most likely
      tokens that read ``yes`` in any case (each read in the prompt's context, as vLLM
      decodes it).
    - **Combined:** for each claim sentence the highest probability over the chunks; the
      claim's support is the lowest of these.

    The model runs one prompt at a time; on a CPU it takes seconds to minutes a prompt, so the
    practical way there is ``ollama:bespoke-minicheck``.
    """

    def __init__(
        self,
        model: Any,
        tokenizer: Any,
        *,
        max_model_len: int = 32768,
        chunk_size: int | None = None,
        top_logprobs: int = 5,
        device: str = "cpu",
        name: str = "bespoke-minicheck-7b",
    ) -> None:
        self.max_model_len = _positive("max_model_len", max_model_len)
        self.chunk_size = _positive("chunk_size", chunk_size or self.max_model_len - 300)
        if self.chunk_size >= self.max_model_len:
            raise ConfigError(
                f"chunk_size ({self.chunk_size}) must be less than max_model_len "
                f"({self.max_model_len}) so that the claim fits"
            )
        self.top_logprobs = _positive("top_logprobs", top_logprobs)
        self.device = device
        self.name = name
        self.tokenizer = tokenizer
        self.model = model.to(device).eval()
        _nltk()

    def chunks(self, document: str) -> list[str]:
        """The document's chunks, or one empty chunk for an empty document."""

        def count(sentences: list[str]) -> list[int]:
            return [
                len(self.tokenizer(sentence, add_special_tokens=False)["input_ids"])
                for sentence in sentences
            ]

        return minicheck_chunks(document, self.chunk_size, count) or [""]

    def prompt(self, chunk: str, sentence: str) -> str:
        """The chat-templated prompt for one (chunk, claim sentence) pair."""
        user = BESPOKE_USER_PROMPT.replace("[DOCUMENT]", chunk).replace("[CLAIM]", sentence)
        messages = [
            {"role": "system", "content": BESPOKE_SYSTEM_PROMPT},
            {"role": "user", "content": user},
        ]
        text: str = self.tokenizer.apply_chat_template(
            messages, add_generation_prompt=True, tokenize=False
        )
        return text

    def yes_probability(self, prompt: str) -> float:
        """The probability of a next token that reads "yes", among the ``top_logprobs`` most
        likely."""
        torch = _torch()
        ids: list[int] = self.tokenizer(prompt)["input_ids"]
        with torch.inference_mode():
            tensor = torch.tensor([ids], dtype=torch.long, device=self.device)
            logits = self.model(input_ids=tensor).logits[0, -1].float().cpu()
            probabilities = torch.softmax(logits, dim=-1)
            top = torch.topk(probabilities, self.top_logprobs)
        yes = sum(
            float(p)
            for p, token in zip(top.values, top.indices.tolist(), strict=True)
            if _decoded_in_context(self.tokenizer, ids, token).lower() == "yes"
        )
        return min(yes, 1.0)  # a sum of probabilities, never above 1 but for rounding

    def __call__(self, claim: str, evidence: str) -> float:
        return self.judge_many(claim, [evidence])[0]

    def judge_many(self, claim: str, passages: Sequence[str]) -> list[float]:
        """For each passage, the lowest over the claim's sentences of the highest support over
        the passage's chunks."""
        sentences = _nltk().sent_tokenize(claim)
        if not sentences:
            raise BackendError(f"{self.name}: the claim is empty")
        scores: list[float] = []
        for passage in passages:
            chunks = self.chunks(passage)
            scores.append(
                min(
                    max(self.yes_probability(self.prompt(chunk, sentence)) for chunk in chunks)
                    for sentence in sentences
                )
            )
        return scores

    def __repr__(self) -> str:
        return f"BespokeMiniCheckJudge({self.name!r})"


def _decoded_in_context(tokenizer: Any, prompt_ids: list[int], token: int) -> str:
    """The text ``token`` adds after the prompt, as vLLM's incremental detokenizer reads a
    candidate token (the prompt's last few tokens as context, special tokens skipped)."""
    if token in set(tokenizer.all_special_ids):
        return ""
    context: list[str] = [
        t or "" for t in tokenizer.convert_ids_to_tokens(prompt_ids[-7:], skip_special_tokens=True)
    ]
    read = len(context)
    prefix = max(read - 5, 0)
    piece = tokenizer.convert_ids_to_tokens([token], skip_special_tokens=True)
    tokens = context + [t or "" for t in piece]
    before: str = tokenizer.convert_tokens_to_string(tokens[prefix:read]) if read > prefix else ""
    after: str = tokenizer.convert_tokens_to_string(tokens[prefix:])
    if len(after) <= len(before) or after.endswith("\ufffd"):
        return ""
    return after[len(before) :]


# -- LLMs over HTTP ---------------------------------------------------------------------------

_THINKING = re.compile(r"<think>.*?</think>", re.DOTALL | re.IGNORECASE)
_ANSWER_WORD = re.compile(
    r"^\W*(yes|no|partially|partial|partly|supported|unsupported|not supported|refuted)\b",
    re.IGNORECASE,
)

ChatPrompt = Literal["citecheck", "minicheck"]


class ChatJudge:
    """An LLM as a judge, through a chat completions API: OpenAI's and every server that speaks
    it (vLLM, llama.cpp, LM Studio, Ollama's ``/v1``), or Ollama's own ``/api/chat``.

    The model gets :data:`LLM_SYSTEM_PROMPT` and :data:`LLM_USER_PROMPT` (``prompt="minicheck"``:
    Bespoke-MiniCheck's single user turn, "Document: …\\nClaim: …", which Ollama's
    ``bespoke-minicheck`` expects), at temperature 0. Its answer is read by
    :class:`~citecheck.judging.judges.CallableJudge`: yes 1.0, partially 0.5, no 0.0, or a
    probability. A ``<think>`` block is dropped and a leading answer word is kept ("Yes, the
    passage says…" reads yes); any other answer, an HTTP error, a timeout or a malformed
    response raises :class:`~citecheck.errors.BackendError`, which the verifier reports as
    ``UNCHECKED``, never as a verdict.
    """

    def __init__(
        self,
        model: str,
        url: str,
        *,
        api: Literal["openai", "ollama"] = "openai",
        api_key: str | None = None,
        timeout: float = 60.0,
        temperature: float | None = 0.0,
        max_tokens: int | None = None,
        prompt: ChatPrompt | None = None,
        name: str | None = None,
    ) -> None:
        if not isinstance(model, str) or not model.strip():
            raise ConfigError("the LLM judge needs a model name")
        if api not in ("openai", "ollama"):
            raise ConfigError(f"api must be 'openai' or 'ollama', got {api!r}")
        if isinstance(timeout, bool) or not isinstance(timeout, int | float) or timeout <= 0:
            raise ConfigError(f"timeout must be a positive number of seconds, got {timeout!r}")
        if max_tokens is not None:
            _positive("max_tokens", max_tokens)
        chosen = prompt or ("minicheck" if "minicheck" in model.lower() else "citecheck")
        if chosen not in ("citecheck", "minicheck"):
            raise ConfigError(f"prompt must be 'citecheck' or 'minicheck', got {prompt!r}")
        self.model = model.strip()
        self.url = url
        self.api = api
        self.timeout = float(timeout)
        self.temperature = temperature
        self.max_tokens = max_tokens
        self.prompt: ChatPrompt = chosen
        self.name = name or f"{api}:{self.model}"
        self._api_key = api_key
        self._httpx = _module("httpx", LLM_EXTRA)
        self._judge = CallableJudge(self.answer)

    def messages(self, claim: str, evidence: str) -> list[dict[str, str]]:
        """The chat the model is sent for one pair."""
        if self.prompt == "minicheck":
            user = BESPOKE_USER_PROMPT.replace("[DOCUMENT]", evidence).replace("[CLAIM]", claim)
            return [{"role": "user", "content": user}]
        return [
            {"role": "system", "content": LLM_SYSTEM_PROMPT},
            {"role": "user", "content": LLM_USER_PROMPT.format(evidence=evidence, claim=claim)},
        ]

    def request(self, claim: str, evidence: str) -> dict[str, Any]:
        """The JSON body sent for one pair."""
        body: dict[str, Any] = {"model": self.model, "messages": self.messages(claim, evidence)}
        if self.api == "ollama":
            body["stream"] = False
            options: dict[str, Any] = {}
            if self.temperature is not None:
                options["temperature"] = self.temperature
            if self.max_tokens is not None:
                options["num_predict"] = self.max_tokens
            if options:
                body["options"] = options
        else:
            if self.temperature is not None:
                body["temperature"] = self.temperature
            if self.max_tokens is not None:
                body["max_tokens"] = self.max_tokens
        return body

    def answer(self, claim: str, evidence: str) -> str:
        """The model's answer for one pair, its leading answer word when it has one."""
        httpx = self._httpx
        headers = {"Authorization": f"Bearer {self._api_key}"} if self._api_key else {}
        try:
            response = httpx.post(
                self.url,
                json=self.request(claim, evidence),
                headers=headers,
                timeout=self.timeout,
            )
        except httpx.TimeoutException:
            raise BackendError(
                f"{self.name}: no answer from {self.url} within {self.timeout:g} s"
            ) from None
        except httpx.HTTPError as exc:
            raise BackendError(f"{self.name}: {self.url} failed: {exc}") from None
        if response.status_code >= 400:
            raise BackendError(
                f"{self.name}: {self.url} answered HTTP {response.status_code}: "
                f"{response.text[:200]!r}"
            )
        try:
            data = response.json()
            content = (
                data["message"]["content"]
                if self.api == "ollama"
                else data["choices"][0]["message"]["content"]
            )
        except (ValueError, KeyError, IndexError, TypeError):
            raise BackendError(
                f"{self.name}: {self.url} sent no answer in its response: {response.text[:200]!r}"
            ) from None
        if not isinstance(content, str):
            raise BackendError(f"{self.name}: the answer is not text: {content!r}")
        text = _THINKING.sub("", content).strip()
        word = _ANSWER_WORD.match(text)
        return word.group(1) if word else text

    def __call__(self, claim: str, evidence: str) -> float:
        return self._judge(claim, evidence)

    def judge_many(self, claim: str, passages: Sequence[str]) -> list[float]:
        """One call of the model per passage."""
        return [self._judge(claim, passage) for passage in passages]

    def __repr__(self) -> str:
        return f"ChatJudge({self.name!r}, url={self.url!r})"


def _ollama_host(host: str | None) -> str:
    """Ollama's address: ``host``, else ``OLLAMA_HOST`` (which may lack the scheme or the
    port, as Ollama allows), else ``http://127.0.0.1:11434``."""
    value = (host or os.environ.get("OLLAMA_HOST") or "").strip() or "127.0.0.1:11434"
    if "://" not in value:
        value = f"http://{value}"
    scheme, _, rest = value.partition("://")
    address, slash, path = rest.partition("/")
    if ":" not in address.rsplit("]", 1)[-1]:
        address += ":11434"
    return f"{scheme}://{address}{slash}{path}".rstrip("/")


# -- the factories, one per name ---------------------------------------------------------------


def _sequence_classifier(
    name: str,
    hub_id: str,
    model: str | PathLike[str] | None,
    cache_dir: str | PathLike[str] | None,
) -> tuple[Any, Any]:
    """A two-label sequence classifier and its fast tokenizer, loaded as MiniCheck and FactCG
    load theirs (``num_labels=2``, single-label classification)."""
    transformers = _transformers()
    source = _source(model, hub_id)
    options = _hub_options(cache_dir)

    def load() -> tuple[Any, Any]:
        config = transformers.AutoConfig.from_pretrained(source, num_labels=2, **options)
        config.problem_type = "single_label_classification"
        tokenizer = transformers.AutoTokenizer.from_pretrained(source, use_fast=True, **options)
        network = transformers.AutoModelForSequenceClassification.from_pretrained(
            source, config=config, **options
        )
        return network, tokenizer

    loaded: tuple[Any, Any] = _loaded(name, source, load)
    return loaded


def _minicheck(
    variant: MiniCheckVariant,
    name: str,
    hub_id: str,
    *,
    model: str | PathLike[str] | None = None,
    cache_dir: str | PathLike[str] | None = None,
    device: str = "cpu",
    batch_size: int = 16,
    chunk_size: int | None = None,
    max_length: int | None = None,
) -> MiniCheckJudge:
    if variant == "flan-t5-large":
        transformers = _transformers()
        source = _source(model, hub_id)
        options = _hub_options(cache_dir)

        def load() -> tuple[Any, Any]:
            network = transformers.AutoModelForSeq2SeqLM.from_pretrained(source, **options)
            return network, transformers.AutoTokenizer.from_pretrained(source, **options)

        network, tokenizer = _loaded(name, source, load)
    else:
        network, tokenizer = _sequence_classifier(name, hub_id, model, cache_dir)
    return MiniCheckJudge(
        network,
        tokenizer,
        variant,
        max_length=max_length,
        chunk_size=chunk_size,
        batch_size=batch_size,
        device=device,
        name=name,
    )


def minicheck_roberta_large(**options: Any) -> MiniCheckJudge:
    """``minicheck-roberta-large``: options ``model`` (a local path or another hub id),
    ``cache_dir``, ``device``, ``batch_size``, ``chunk_size``, ``max_length``."""
    spec = KNOWN_JUDGES["minicheck-roberta-large"]
    return _minicheck("roberta-large", spec.name, str(spec.hub_id), **options)


def minicheck_deberta_v3_large(**options: Any) -> MiniCheckJudge:
    """``minicheck-deberta-v3-large``: the options of :func:`minicheck_roberta_large`."""
    spec = KNOWN_JUDGES["minicheck-deberta-v3-large"]
    return _minicheck("deberta-v3-large", spec.name, str(spec.hub_id), **options)


def minicheck_flan_t5_large(**options: Any) -> MiniCheckJudge:
    """``minicheck-flan-t5-large``: the options of :func:`minicheck_roberta_large`."""
    spec = KNOWN_JUDGES["minicheck-flan-t5-large"]
    return _minicheck("flan-t5-large", spec.name, str(spec.hub_id), **options)


def factcg_deberta_large(
    *,
    model: str | PathLike[str] | None = None,
    cache_dir: str | PathLike[str] | None = None,
    device: str = "cpu",
    batch_size: int = 16,
    chunk_size: int = 550,
    max_length: int = 2048,
) -> FactCGJudge:
    """``factcg-deberta-large``: FactCG's Hugging Face checkpoint."""
    spec = KNOWN_JUDGES["factcg-deberta-large"]
    network, tokenizer = _sequence_classifier(spec.name, str(spec.hub_id), model, cache_dir)
    return FactCGJudge(
        network,
        tokenizer,
        max_length=max_length,
        chunk_size=chunk_size,
        batch_size=batch_size,
        device=device,
        name=spec.name,
    )


def hhem_2_1_open(
    *,
    model: str | PathLike[str] | None = None,
    foundation: str | PathLike[str] | None = None,
    cache_dir: str | PathLike[str] | None = None,
    device: str = "cpu",
    batch_size: int = 8,
) -> HHEMJudge:
    """``hhem-2.1-open``: HHEM's ``config.json`` and ``model.safetensors`` (from ``model``, a
    local copy, or the hub), put into transformers' ``T5ForTokenClassification`` built on the
    checkpoint's foundation (``google/flan-t5-base``, or ``foundation=`` a local copy of it),
    whose tokenizer reads the prompt."""
    spec = KNOWN_JUDGES["hhem-2.1-open"]
    transformers = _transformers()
    source = _source(model, str(spec.hub_id))
    options = _hub_options(cache_dir)

    def load() -> HHEMJudge:
        config_file = transformers.utils.cached_file(source, "config.json", **options)
        with open(str(config_file), encoding="utf-8") as f:
            config = json.load(f)
        base = os.fspath(foundation) if foundation else config.get("foundation")
        base = base or "google/flan-t5-base"
        t5_config = transformers.AutoConfig.from_pretrained(base, **options)
        tokenizer = transformers.AutoTokenizer.from_pretrained(base, **options)
        network = transformers.T5ForTokenClassification(t5_config)
        weights_file = transformers.utils.cached_file(source, "model.safetensors", **options)
        weights = _module("safetensors.torch", MODELS_EXTRA).load_file(str(weights_file))
        _load_hhem_weights(network, weights)
        return HHEMJudge(
            network,
            tokenizer,
            prompt=config.get("prompt") or HHEM_PROMPT,
            batch_size=batch_size,
            device=device,
            name=spec.name,
        )

    judge: HHEMJudge = _loaded(spec.name, source, load)
    return judge


def _load_hhem_weights(network: Any, weights: dict[str, Any]) -> None:
    """HHEM's weights (its class keeps the T5 model under ``t5.``) into ``network``. The input
    embedding is stored once, under either of T5's two names for it."""
    state = {key.removeprefix("t5."): value for key, value in weights.items()}
    shared, embed = "transformer.shared.weight", "transformer.encoder.embed_tokens.weight"
    if shared in state and embed not in state:
        state[embed] = state[shared]
    elif embed in state and shared not in state:
        state[shared] = state[embed]
    missing, unexpected = network.load_state_dict(state, strict=False)
    if missing or unexpected:
        raise ValueError(
            f"the weights do not fit a T5 token classifier: missing {list(missing)[:5]}, "
            f"unexpected {list(unexpected)[:5]}"
        )


def bespoke_minicheck_7b(
    *,
    trust_remote_code: bool = False,
    model: str | PathLike[str] | None = None,
    cache_dir: str | PathLike[str] | None = None,
    device: str = "cpu",
    dtype: str | None = None,
    max_model_len: int = 32768,
    chunk_size: int | None = None,
) -> BespokeMiniCheckJudge:
    """``bespoke-minicheck-7b`` through transformers. Its model class is code in its hub
    repository (InternLM2's), so it loads only with ``trust_remote_code=True``, which the user
    must pass: citecheck runs no code from the hub on its own. ``dtype`` is the authors' choice
    on a CPU by default: bfloat16 where the CPU supports it, else float32."""
    spec = KNOWN_JUDGES["bespoke-minicheck-7b"]
    if trust_remote_code is not True:
        raise ConfigError(
            "bespoke-minicheck-7b runs code from its hub repository (its model class); pass "
            "trust_remote_code=True to allow it, or use ollama:bespoke-minicheck, which also "
            "runs far faster on a CPU"
        )
    transformers = _transformers()
    torch = _torch()
    source = _source(model, str(spec.hub_id))
    options = _hub_options(cache_dir)
    if dtype is None:
        bf16 = getattr(torch.cpu, "is_bf16_supported", lambda: False)()
        dtype = "bfloat16" if bf16 else "float32"
    torch_dtype = getattr(torch, dtype, None)
    if torch_dtype is None or not isinstance(torch_dtype, torch.dtype):
        raise ConfigError(f"dtype must name a torch dtype such as 'float32', got {dtype!r}")

    def load() -> tuple[Any, Any]:
        tokenizer = transformers.AutoTokenizer.from_pretrained(
            source, trust_remote_code=True, **options
        )
        # transformers 4.56 renamed torch_dtype to dtype (and 5 warns about the old name)
        major, minor = (int(part) for part in transformers.__version__.split(".")[:2])
        named = "dtype" if (major, minor) >= (4, 56) else "torch_dtype"
        network = transformers.AutoModelForCausalLM.from_pretrained(
            source, trust_remote_code=True, **{named: torch_dtype}, **options
        )
        return network, tokenizer

    network, tokenizer = _loaded(spec.name, source, load)
    return BespokeMiniCheckJudge(
        network,
        tokenizer,
        max_model_len=max_model_len,
        chunk_size=chunk_size,
        device=device,
        name=spec.name,
    )


def nli_judge(model: str, **options: Any) -> CrossEncoderJudge:
    """``nli:MODEL``: a sentence-transformers NLI cross-encoder (a hub id or a local path), the
    probability of entailment with the evidence as premise; options go to
    :class:`~citecheck.judging.judges.CrossEncoderJudge` (``entailment_label``,
    ``batch_size``)."""
    if not isinstance(model, str) or not model.strip():
        raise ConfigError("nli: needs a model, e.g. nli:cross-encoder/nli-deberta-v3-small")
    return CrossEncoderJudge(model.strip(), **options)


def openai_judge(
    model: str,
    *,
    base_url: str | None = None,
    api_key: str | None = None,
    timeout: float = 60.0,
    temperature: float | None = 0.0,
    max_tokens: int | None = None,
    prompt: ChatPrompt | None = None,
) -> ChatJudge:
    """``openai:MODEL``: ``{base_url}/chat/completions``, the base URL from ``base_url``, else
    ``OPENAI_BASE_URL``, else OpenAI's; the key from ``api_key``, else ``OPENAI_API_KEY``
    (needed for OpenAI itself, optional for a local server)."""
    chosen = (base_url or os.environ.get("OPENAI_BASE_URL") or "").strip()
    key = api_key or os.environ.get("OPENAI_API_KEY") or None
    if not chosen:
        if not key:
            raise ConfigError(
                f"openai:{model} needs an API key: set OPENAI_API_KEY, or OPENAI_BASE_URL for "
                "a local server that needs none"
            )
        chosen = "https://api.openai.com/v1"
    return ChatJudge(
        model,
        chosen.rstrip("/") + "/chat/completions",
        api="openai",
        api_key=key,
        timeout=timeout,
        temperature=temperature,
        max_tokens=max_tokens,
        prompt=prompt,
        name=f"openai:{model}",
    )


def ollama_judge(
    model: str,
    *,
    host: str | None = None,
    api: Literal["ollama", "openai"] = "ollama",
    timeout: float = 120.0,
    temperature: float | None = 0.0,
    max_tokens: int | None = None,
    prompt: ChatPrompt | None = None,
) -> ChatJudge:
    """``ollama:MODEL``: Ollama's ``/api/chat`` at ``host`` (else ``OLLAMA_HOST``, else
    ``http://127.0.0.1:11434``), or its OpenAI-compatible ``/v1/chat/completions`` with
    ``api="openai"``. ``ollama:bespoke-minicheck`` is Bespoke-MiniCheck-7B, quantised, with its
    own prompt."""
    root = _ollama_host(host)
    url = f"{root}/api/chat" if api == "ollama" else f"{root}/v1/chat/completions"
    return ChatJudge(
        model,
        url,
        api=api,
        timeout=timeout,
        temperature=temperature,
        max_tokens=max_tokens,
        prompt=prompt,
        name=f"ollama:{model}",
    )


# -- the registry ----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class JudgeSpec:
    """What a known judge is and how it reads a pair, as its authors publish it.

    ``accuracy`` is the mean balanced accuracy on LLM-AggreFact's 11 datasets, in percent, as
    published (``None``: not published), and ``accuracy_source`` says where. ``cpu_cost`` is
    the model's size and what it runs per chunk (from its card; not measured by citecheck).
    ``extra`` is what to install. ``factory`` builds the judge from options; for a prefix
    (``nli:``), the text after the colon is its ``model``.
    """

    name: str
    summary: str
    hub_id: str | None
    architecture: str
    input_format: str
    chunking: str
    labels: str
    accuracy: float | None
    accuracy_source: str
    cpu_cost: str
    extra: str
    licence: str
    factory: Callable[..., Any] = field(repr=False, compare=False)

    @property
    def published_accuracy(self) -> str:
        """``"75.0"``, or ``"not published"``."""
        return "not published" if self.accuracy is None else f"{self.accuracy:.1f}"

    def load(self, **options: Any) -> Judge:
        """The judge, built with ``options``."""
        judge: Judge = self.factory(**options)
        return judge


_LEADERBOARD = (
    "LLM-AggreFact leaderboard (llm-aggrefact.github.io), mean of its 11 datasets' balanced "
    "accuracy"
)
_MINICHECK_INPUT = (
    "one text: document chunk, the tokenizer's end-of-sequence token, claim "
    "('chunk</s>claim'), truncated to {length} tokens"
)
_MINICHECK_CHUNKS = (
    "NLTK sentences (line by line) gathered up to {size}; the maximum over chunks of the "
    "probability of 'supported'"
)

_SPECS = (
    JudgeSpec(
        name="minicheck-roberta-large",
        summary="MiniCheck-RoBERTa-L: RoBERTa-large fine-tuned for grounded fact-checking",
        hub_id="lytang/MiniCheck-RoBERTa-Large",
        architecture="RobertaForSequenceClassification, 2 labels",
        input_format=_MINICHECK_INPUT.format(length=512),
        chunking=_MINICHECK_CHUNKS.format(size="400 of the model's tokens"),
        labels="softmax of 2 logits; index 1 = supported",
        accuracy=73.5,
        accuracy_source=_LEADERBOARD,
        cpu_cost="355M parameters (1.4 GB in float32); one 512-token encoder pass per chunk",
        extra=MODELS_EXTRA,
        licence="MIT",
        factory=minicheck_roberta_large,
    ),
    JudgeSpec(
        name="minicheck-deberta-v3-large",
        summary="MiniCheck-DeBERTa-L: DeBERTa-v3-large fine-tuned for grounded fact-checking",
        hub_id="lytang/MiniCheck-DeBERTa-v3-Large",
        architecture="DebertaV2ForSequenceClassification, 2 labels",
        input_format=_MINICHECK_INPUT.format(length=2048).replace("</s>", "[SEP]"),
        chunking=_MINICHECK_CHUNKS.format(size="400 of the model's tokens"),
        labels="softmax of 2 logits; index 1 = supported",
        accuracy=73.1,
        accuracy_source=_LEADERBOARD,
        cpu_cost="435M parameters (1.7 GB in float32); one encoder pass per chunk",
        extra=MODELS_EXTRA,
        licence="MIT",
        factory=minicheck_deberta_v3_large,
    ),
    JudgeSpec(
        name="minicheck-flan-t5-large",
        summary="MiniCheck-Flan-T5-L: Flan-T5-large fine-tuned for grounded fact-checking",
        hub_id="lytang/MiniCheck-Flan-T5-Large",
        architecture="T5ForConditionalGeneration (one decoder step)",
        input_format="'predict: ' + " + _MINICHECK_INPUT.format(length=2048),
        chunking=_MINICHECK_CHUNKS.format(size="500 whitespace words"),
        labels="softmax of the first decoder step's logits for vocabulary ids 3 (no) and "
        "209 (yes); index 1 = supported",
        accuracy=75.0,
        accuracy_source=_LEADERBOARD + "; 74.7 on the paper's 10 datasets",
        cpu_cost="783M parameters (3.1 GB in float32); one encoder pass and one decoder step "
        "per chunk",
        extra=MODELS_EXTRA,
        licence="MIT",
        factory=minicheck_flan_t5_large,
    ),
    JudgeSpec(
        name="bespoke-minicheck-7b",
        summary="Bespoke-MiniCheck-7B: a 7B LLM (InternLM2.5) fine-tuned for grounded "
        "fact-checking, the best of its authors' models",
        hub_id="bespokelabs/Bespoke-MiniCheck-7B",
        architecture="causal LM (its own code: trust_remote_code=True), next-token probability",
        input_format="chat: system prompt, then 'Document: {chunk}\\nClaim: {claim sentence}'",
        chunking="NLTK sentences gathered up to 32468 of the model's tokens; the claim split "
        "into sentences; min over sentences of the max over chunks",
        labels="probability of a 'yes' token among the 5 most likely next tokens",
        accuracy=77.4,
        accuracy_source=_LEADERBOARD + "; the authors' benchmark_evaluation_demo.ipynb",
        cpu_cost="7.7B parameters (15 GB in bfloat16); a full LLM pass per chunk and claim "
        "sentence: impractical on a CPU through transformers; ollama:bespoke-minicheck runs a "
        "quantised build",
        extra=MODELS_EXTRA,
        licence="CC BY-NC 4.0 (commercial use needs Bespoke Labs' licence)",
        factory=bespoke_minicheck_7b,
    ),
    JudgeSpec(
        name="factcg-deberta-large",
        summary="FactCG-DeBERTa-L: DeBERTa-v3-large trained on graph-based multi-hop data",
        hub_id="yaxili96/FactCG-DeBERTa-v3-Large",
        architecture="DebertaV2ForSequenceClassification, 2 labels",
        input_format="one text: '{chunk}\\n\\nChoose your answer: based on the paragraph "
        'above can we conclude that "{claim}"?\\n\\nOPTIONS:\\n- Yes\\n- No\\nI think the '
        "answer is ', at most 2048 tokens",
        chunking="NLTK sentences joined by line breaks up to 550 NLTK word tokens; the maximum "
        "over chunks",
        labels="softmax of 2 logits; index 1 = supported",
        accuracy=75.6,
        accuracy_source=_LEADERBOARD + " (threshold 0.5; the paper's own tables tune a "
        "threshold per dataset)",
        cpu_cost="435M parameters (1.7 GB in float32); one encoder pass per chunk",
        extra=MODELS_EXTRA,
        licence="MIT (the code; see the model card for the weights)",
        factory=factcg_deberta_large,
    ),
    JudgeSpec(
        name="hhem-2.1-open",
        summary="HHEM-2.1-Open: Vectara's hallucination evaluation model, a Flan-T5-base encoder",
        hub_id="vectara/hallucination_evaluation_model",
        architecture="T5ForTokenClassification on google/flan-t5-base (weights only; no code "
        "from the hub is run)",
        input_format="'<pad> Determine if the hypothesis is true given the premise?\\n\\n"
        "Premise: {evidence}\\n\\nHypothesis: {claim}', no length limit",
        chunking="none: the whole passage is read",
        labels="softmax of the first token's 2 logits; index 1 = consistent",
        accuracy=71.8,
        accuracy_source=_LEADERBOARD + " (row 'HHEM-2.1', 0.1B, linking to this model); its "
        "card: 64.42 on RAGTruth-Summ, 74.28 on RAGTruth-QA",
        cpu_cost="110M parameters (440 MB); under 600 MB of memory and about 1.5 s for a "
        "2k-token input on a modern x86 CPU (its card)",
        extra=MODELS_EXTRA,
        licence="Apache-2.0",
        factory=hhem_2_1_open,
    ),
)

KNOWN_JUDGES: Mapping[str, JudgeSpec] = MappingProxyType({spec.name: spec for spec in _SPECS})
"""The known judges by name."""

JUDGE_PREFIXES: Mapping[str, JudgeSpec] = MappingProxyType(
    {
        "nli": JudgeSpec(
            name="nli:MODEL",
            summary="any sentence-transformers NLI cross-encoder, e.g. "
            "nli:cross-encoder/nli-deberta-v3-small",
            hub_id=None,
            architecture="sentence-transformers CrossEncoder",
            input_format="(evidence, claim) as (premise, hypothesis)",
            chunking="none: the model truncates at its own length",
            labels="softmax; the 'entailment' entry of the model's id2label",
            accuracy=None,
            accuracy_source="depends on the model",
            cpu_cost="the model's (nli-deberta-v3-small: 142M parameters)",
            extra="embeddings",
            licence="the model's",
            factory=nli_judge,
        ),
        "openai": JudgeSpec(
            name="openai:MODEL",
            summary="an LLM through an OpenAI-compatible chat completions endpoint "
            "(OPENAI_BASE_URL, OPENAI_API_KEY)",
            hub_id=None,
            architecture="chat completions over HTTP",
            input_format="system prompt, then 'Passage: …' before 'Claim: …'; temperature 0",
            chunking="none: the whole passage is sent",
            labels="the answer word: yes 1.0, partially 0.5, no 0.0, or a probability",
            accuracy=None,
            accuracy_source="not published for this prompt (the leaderboard prompts LLMs its "
            "own way)",
            cpu_cost="a remote call per passage",
            extra=LLM_EXTRA,
            licence="the service's",
            factory=openai_judge,
        ),
        "ollama": JudgeSpec(
            name="ollama:MODEL",
            summary="an LLM served by Ollama (http://127.0.0.1:11434, OLLAMA_HOST); "
            "ollama:bespoke-minicheck is Bespoke-MiniCheck-7B",
            hub_id=None,
            architecture="Ollama /api/chat (or /v1/chat/completions) over HTTP",
            input_format="as openai:MODEL; a model named *minicheck* gets 'Document: …\\nClaim: …'",
            chunking="none: the whole passage is sent",
            labels="the answer word: yes 1.0, partially 0.5, no 0.0, or a probability",
            accuracy=None,
            accuracy_source="not published for this prompt; for bespoke-minicheck see "
            "bespoke-minicheck-7b (Ollama's build is quantised)",
            cpu_cost="the local model's (bespoke-minicheck: a 7B model, quantised)",
            extra=LLM_EXTRA,
            licence="the model's",
            factory=ollama_judge,
        ),
    }
)
"""The judges named by a prefix and a model: ``nli:``, ``openai:``, ``ollama:``."""


def _all_names() -> list[str]:
    return [*KNOWN_JUDGES, *(f"{prefix}:MODEL" for prefix in JUDGE_PREFIXES)]


def load_judge(name: str, **options: Any) -> Judge:
    """The judge ``name`` means, built with ``options``: a name of :data:`KNOWN_JUDGES` (any
    case), or ``nli:``, ``openai:`` or ``ollama:`` followed by a model. An unknown name raises
    :class:`~citecheck.errors.ConfigError` listing the known ones, with the closest first."""
    if not isinstance(name, str) or not name.strip():
        raise ConfigError(f"a judge's name must be a non-empty string, got {name!r}")
    wanted = name.strip()
    spec = KNOWN_JUDGES.get(wanted.lower())
    if spec is not None:
        return spec.load(**options)
    prefix, colon, model = wanted.partition(":")
    if colon and prefix.lower() in JUDGE_PREFIXES:
        if "model" in options:
            raise ConfigError(f"{wanted!r} names its model already; do not pass model= too")
        if not model.strip():
            raise ConfigError(f"{prefix}: needs a model after the colon, as in {prefix}:MODEL")
        return JUDGE_PREFIXES[prefix.lower()].load(model=model.strip(), **options)
    from citecheck import registry

    if wanted in registry.available("judges"):  # a plugin's (entry point citecheck.judges)
        judge: Judge = registry.create("judges", wanted, **options)
        return judge
    raise _unknown(wanted)


def _unknown(name: str) -> ConfigError:
    """The error for a name no judge has: the closest names first, then all of them."""
    names = _all_names()
    wanted = name.strip().lower()
    close = [n for n in names if wanted and n.startswith(wanted)]
    close += [n for n in names if wanted and wanted in n and n not in close]
    close += [
        n for n in difflib.get_close_matches(wanted, names, n=3, cutoff=0.5) if n not in close
    ]
    hint = f"; did you mean {' or '.join(repr(n) for n in close[:3])}?" if close else "."
    return ConfigError(f"no judge is named {name!r}{hint} Known: {', '.join(names)}")


def judge_named(name: str, **options: Any) -> Judge | Literal["auto"] | None:
    """The judge a front door names (``--judge`` on the command line, the MCP server's
    ``judge``, ``Verifier(judge=...)``): ``"auto"`` (citecheck's trained judge when an
    embedder is used), ``None`` for ``none``, else :func:`load_judge`."""
    if name == "auto":
        return "auto"
    if name == "none":
        return None
    return load_judge(name, **options)


def describe(name: str | None = None) -> str:
    """A table of every known judge (name, published accuracy, cost on a CPU, extra), or,
    given a ``name``, everything its :class:`JudgeSpec` says."""
    if name is not None:
        key = name.strip().lower()
        spec = KNOWN_JUDGES.get(key) or JUDGE_PREFIXES.get(key.partition(":")[0])
        if spec is None:
            raise _unknown(name)
        rows = [
            ("name", spec.name),
            ("what", spec.summary),
            ("hub id", spec.hub_id or "(the model after the colon)"),
            ("architecture", spec.architecture),
            ("input", spec.input_format),
            ("chunking", spec.chunking),
            ("labels", spec.labels),
            ("LLM-AggreFact BAcc", spec.published_accuracy),
            ("source", spec.accuracy_source),
            ("cost on a CPU", spec.cpu_cost),
            ("extra", spec.extra),
            ("licence", spec.licence),
        ]
        return "\n".join(f"{label + ':':20} {value}" for label, value in rows)
    specs = [*KNOWN_JUDGES.values(), *JUDGE_PREFIXES.values()]
    width = max(len(spec.name) for spec in specs)
    lines = [f"{'name':{width}}  {'BAcc':>13}  {'extra':10}  what"]
    for spec in specs:
        lines.append(
            f"{spec.name:{width}}  {spec.published_accuracy:>13}  {spec.extra:10}  {spec.summary}"
        )
    lines.append(
        "BAcc: mean balanced accuracy on LLM-AggreFact, as published; "
        "describe(NAME) for one judge's input, chunking, labels and cost."
    )
    return "\n".join(lines)
