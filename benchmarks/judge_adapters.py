"""Do citecheck's adapters of known judges read pairs as their authors' code does?

For each judge of :mod:`citecheck.judging.known` that runs a local model, this script builds a
tiny randomly initialised model of the same architecture (hidden size 32, two layers) with a
tokenizer made here, so that nothing is downloaded; runs the adapter and, beside it, the
authors' inference code reimplemented straightforwardly from their repositories (the
``reference_*`` functions below, which share no code with the adapters); and reports, over
random (document, claim) pairs with documents long enough to be cut into several chunks, the
largest difference of the probabilities, how often both give the same label (probability above
0.5 or not), and whether both cut the documents into the same chunks.

The authors' code, as read for this (their repositories, default branch):

- MiniCheck (Liyan06/MiniCheck, ``minicheck/inference.py``, ``minicheck/minicheck.py``):
  ``Inferencer`` for RoBERTa, DeBERTa and Flan-T5; ``LLMCheck`` for Bespoke-MiniCheck-7B, whose
  vLLM call is replaced by a transformers forward pass, its top-5 log-probabilities decoded as
  vLLM's incremental detokenizer decodes them.
- FactCG (derenlei/FactCG, ``factcg/inference.py``, ``factcg/utils.py``): ``Inferencer`` with
  the Hugging Face checkpoint.
- HHEM-2.1-Open (vectara/hallucination_evaluation_model, ``modeling_hhem_v2.py``):
  ``HHEMv2ForSequenceClassification.predict``.

The tests (``tests/test_known_judges.py``) import the builders and the references from here.

    PYTHONPATH=src python benchmarks/judge_adapters.py --pairs 200
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
MINILM_TOKENIZER = ROOT / "src" / "citecheck" / "embedders" / "minilm-tokenizer.json"

WORDS = (
    "the committee approved budget in north rain fell survey team measured costs drug reduced "
    "mortality over three six months patients recovered after surgery model improved accuracy "
    "policy increased rainfall data was collected from twelve sites and annotated by people "
    "every week report says results were not significant some all none most study found"
).split()
NUMBERS = ["2020", "3.5", "12", "40%", "1,200"]
CORPUS = [
    " ".join(WORDS),
    "Yes. No. yes no Yes, Yes! No? Yes yes Yes.\nyes\nyes, yes. yes? yes yes yes",
    "The committee approved the budget in 2020.\nRain fell in the north.\n\nIt was 3.5 percent.",
    "Document: Claim: predict: Premise: Hypothesis: Determine if the hypothesis is true given "
    "the premise? Choose your answer: based on the paragraph above can we conclude that "
    "OPTIONS: - Yes - No I think the answer is",
]

# -- tokenizers and tiny models -----------------------------------------------------------------


def _byte_bpe(special: list[str], vocab_size: int = 400) -> Any:
    """A byte-level BPE tokenizer trained on :data:`CORPUS`: it keeps every space and line
    break, so a whitespace difference between two inputs shows in their tokens."""
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers

    tokenizer = Tokenizer(models.BPE())
    tokenizer.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tokenizer.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(
        vocab_size=vocab_size,
        special_tokens=special,
        initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
        show_progress=False,
    )
    tokenizer.train_from_iterator(CORPUS * 20, trainer)
    return tokenizer


def _wrap(tokenizer: Any, **special: str) -> Any:
    from transformers import PreTrainedTokenizerFast

    return PreTrainedTokenizerFast(tokenizer_object=tokenizer, model_max_length=4096, **special)


def _spread(model: Any, scale: float) -> Any:
    """Random weights large enough that the tiny model's answers differ from pair to pair."""
    import torch

    generator = torch.Generator().manual_seed(7)
    with torch.no_grad():
        for name, parameter in model.named_parameters():
            if parameter.dim() > 1:
                embedding = "embed" in name or "shared" in name
                parameter.normal_(0.0, 1.0 if embedding else scale, generator=generator)
    return model


def build_roberta(path: Path, seed: int = 0) -> Path:
    """A tiny MiniCheck-RoBERTa: a two-label RoBERTa classifier, byte-level BPE tokenizer."""
    import torch
    from tokenizers import processors
    from transformers import RobertaConfig, RobertaForSequenceClassification

    bpe = _byte_bpe(["<s>", "<pad>", "</s>", "<unk>"])
    bpe.post_processor = processors.RobertaProcessing(("</s>", 2), ("<s>", 0))
    tokenizer = _wrap(bpe, bos_token="<s>", eos_token="</s>", pad_token="<pad>", unk_token="<unk>")
    config = RobertaConfig(
        vocab_size=len(tokenizer),
        hidden_size=32,
        num_hidden_layers=2,
        num_attention_heads=2,
        intermediate_size=64,
        max_position_embeddings=520,
        num_labels=2,
        pad_token_id=1,
        bos_token_id=0,
        eos_token_id=2,
    )
    torch.manual_seed(seed)
    _spread(RobertaForSequenceClassification(config), 0.2).save_pretrained(path)
    tokenizer.save_pretrained(path)
    return path


def _wordpiece(eos: str = "[SEP]") -> Any:
    """citecheck's BERT WordPiece tokenizer (all-MiniLM-L6-v2's), with ``[SEP]`` as its end of
    sequence, as DeBERTa-v3's tokenizer has."""
    from tokenizers import Tokenizer

    return _wrap(
        Tokenizer.from_file(str(MINILM_TOKENIZER)),
        cls_token="[CLS]",
        sep_token="[SEP]",
        eos_token=eos,
        pad_token="[PAD]",
        unk_token="[UNK]",
        mask_token="[MASK]",
    )


def build_deberta(path: Path, seed: int = 0) -> Path:
    """A tiny DeBERTa-v3 classifier (relative attention, two labels), for MiniCheck-DeBERTa and
    FactCG."""
    import torch
    from transformers import DebertaV2Config, DebertaV2ForSequenceClassification

    tokenizer = _wordpiece()
    config = DebertaV2Config(
        vocab_size=len(tokenizer),
        hidden_size=32,
        num_hidden_layers=2,
        num_attention_heads=2,
        intermediate_size=64,
        max_position_embeddings=2048,
        relative_attention=True,
        position_buckets=64,
        pos_att_type=["p2c", "c2p"],
        position_biased_input=False,
        type_vocab_size=0,
        num_labels=2,
        pad_token_id=0,
    )
    torch.manual_seed(seed)
    _spread(DebertaV2ForSequenceClassification(config), 0.3).save_pretrained(path)
    tokenizer.save_pretrained(path)
    return path


def _t5_tokenizer() -> Any:
    from tokenizers import processors

    bpe = _byte_bpe(["<pad>", "</s>", "<unk>"], vocab_size=420)
    bpe.post_processor = processors.TemplateProcessing(
        single="$A </s>", pair="$A </s> $B </s>", special_tokens=[("</s>", 1)]
    )
    return _wrap(bpe, eos_token="</s>", pad_token="<pad>", unk_token="<unk>")


def _t5_config(vocab_size: int, **extra: Any) -> Any:
    from transformers import T5Config

    return T5Config(
        vocab_size=vocab_size,
        d_model=32,
        d_kv=16,
        d_ff=64,
        num_layers=2,
        num_decoder_layers=1,
        num_heads=2,
        relative_attention_num_buckets=16,
        decoder_start_token_id=0,
        pad_token_id=0,
        eos_token_id=1,
        feed_forward_proj="gated-gelu",
        **extra,
    )


def build_flan_t5(path: Path, seed: int = 0) -> Path:
    """A tiny MiniCheck-Flan-T5: an encoder-decoder T5 whose vocabulary holds ids 3 and 209."""
    import torch
    from transformers import T5ForConditionalGeneration

    tokenizer = _t5_tokenizer()
    assert len(tokenizer) > 209
    torch.manual_seed(seed)
    model = T5ForConditionalGeneration(_t5_config(len(tokenizer), tie_word_embeddings=False))
    _spread(model, 0.3).save_pretrained(path)
    tokenizer.save_pretrained(path)
    return path


def build_hhem(path: Path, seed: int = 0, stored: str = "shared") -> tuple[Path, Any]:
    """A tiny HHEM-2.1-Open checkpoint as Vectara publishes it: ``config.json`` naming its
    foundation (a tiny Flan-T5 config and tokenizer, in ``path/foundation``) and its prompt,
    and ``model.safetensors`` with the T5 token classifier under ``t5.``, its input embedding
    stored once (``stored``: under ``shared`` or ``encoder.embed_tokens``). Returns the folder
    and the network whose weights were saved."""
    import torch
    from safetensors.torch import save_file
    from transformers import T5ForTokenClassification

    from citecheck.judging.known import HHEM_PROMPT

    foundation = path / "foundation"
    tokenizer = _t5_tokenizer()
    config = _t5_config(len(tokenizer), num_labels=2)
    config.save_pretrained(foundation)
    tokenizer.save_pretrained(foundation)
    torch.manual_seed(seed)
    network = _spread(T5ForTokenClassification(config), 0.3).eval()
    dropped = {
        "shared": "transformer.encoder.embed_tokens.weight",
        "embed": "transformer.shared.weight",
    }[stored]
    weights = {
        f"t5.{key}": value.detach().clone().contiguous()
        for key, value in network.state_dict().items()
        if key != dropped
    }
    save_file(weights, str(path / "model.safetensors"))
    (path / "config.json").write_text(
        json.dumps(
            {
                "architectures": ["HHEMv2ForSequenceClassification"],
                "model_type": "HHEMv2",
                "foundation": str(foundation),
                "prompt": HHEM_PROMPT,
            }
        ),
        encoding="utf-8",
    )
    return path, network


CHAT_TEMPLATE = (
    "{% for message in messages %}<|im_start|>{{ message['role'] }}\n{{ message['content'] }}"
    "<|im_end|>\n{% endfor %}{% if add_generation_prompt %}<|im_start|>assistant\n{% endif %}"
)


def build_causal(path: Path, seed: int = 0) -> Path:
    """A tiny Bespoke-MiniCheck: a Llama causal LM with a chat template, whose "Yes" and "yes"
    rows are scaled so that they are often among its five most likely next tokens."""
    import torch
    from transformers import LlamaConfig, LlamaForCausalLM

    bpe = _byte_bpe(["<s>", "</s>", "<unk>", "<|im_start|>", "<|im_end|>"], vocab_size=340)
    tokenizer = _wrap(bpe, bos_token="<s>", eos_token="<|im_end|>", unk_token="<unk>")
    tokenizer.chat_template = CHAT_TEMPLATE
    config = LlamaConfig(
        vocab_size=len(tokenizer),
        hidden_size=32,
        intermediate_size=64,
        num_hidden_layers=2,
        num_attention_heads=2,
        num_key_value_heads=2,
        max_position_embeddings=4096,
        tie_word_embeddings=False,
    )
    torch.manual_seed(seed)
    model = _spread(LlamaForCausalLM(config), 0.3)
    yes = [tokenizer.convert_tokens_to_ids(t) for t in ("Yes", "yes", "ĠYes")]
    assert all(isinstance(i, int) and i != tokenizer.unk_token_id for i in yes), yes
    with torch.no_grad():
        model.lm_head.weight[yes] *= 2.5
    model.save_pretrained(path)
    tokenizer.save_pretrained(path)
    return path


def build_nli(path: Path, seed: int = 0) -> Path:
    """A tiny NLI cross-encoder: a three-label BERT with contradiction, entailment, neutral."""
    import torch
    from transformers import BertConfig, BertForSequenceClassification

    tokenizer = _wordpiece()
    labels = {0: "contradiction", 1: "entailment", 2: "neutral"}
    config = BertConfig(
        vocab_size=len(tokenizer),
        hidden_size=32,
        num_hidden_layers=2,
        num_attention_heads=2,
        intermediate_size=64,
        max_position_embeddings=512,
        num_labels=3,
        id2label=labels,
        label2id={v: k for k, v in labels.items()},
    )
    torch.manual_seed(seed)
    _spread(BertForSequenceClassification(config), 0.3).save_pretrained(path)
    tokenizer.save_pretrained(path)
    return path


def empty_punkt(folder: Path) -> Path:
    """An NLTK data folder holding an untrained English Punkt model (four empty parameter
    files): NLTK splits sentences with its default rules. The adapter and the reference both
    call NLTK, so which Punkt parameters they share does not matter to their agreement."""
    english = folder / "tokenizers" / "punkt_tab" / "english"
    english.mkdir(parents=True, exist_ok=True)
    for name in ("collocations.tab", "sent_starters.txt", "abbrev_types.txt", "ortho_context.tab"):
        (english / name).touch()
    return folder


# -- pairs --------------------------------------------------------------------------------------


def _sentence(rng: random.Random) -> str:
    words = [rng.choice(WORDS) for _ in range(rng.randint(4, 16))]
    if rng.random() < 0.3:
        words.insert(rng.randrange(len(words)), rng.choice(NUMBERS))
    text = " ".join(words)
    return text[0].upper() + text[1:] + rng.choice([".", ".", ".", "?", "!"])


def random_pairs(count: int, seed: int = 0, max_sentences: int = 160) -> list[tuple[str, str]]:
    """``count`` random (document, claim) pairs. A document has 1 to ``max_sentences``
    sentences (the long ones are cut into several chunks by every chunked judge), separated
    by a space, a line break, a blank line, or a space and a line break; about one claim in
    three has two sentences."""
    rng = random.Random(seed)
    pairs: list[tuple[str, str]] = []
    for _ in range(count):
        size = rng.choice([1, 2, 5, 12, 40, max_sentences, rng.randint(1, max_sentences)])
        document = ""
        for index in range(size):
            if index:
                document += rng.choice([" ", " ", " ", "\n", "\n\n", " \n"])
            document += _sentence(rng)
        claim = _sentence(rng) + ((" " + _sentence(rng)) if rng.random() < 0.33 else "")
        pairs.append((document, claim))
    return pairs


# -- the authors' code, reimplemented ------------------------------------------------------------


def _nltk() -> Any:
    import nltk

    return nltk


def _minicheck_sentences(text: str) -> list[str]:
    """``sent_tokenize_with_newlines`` (minicheck/inference.py)."""
    blocks = text.split("\n")
    tokenized_blocks = [_nltk().sent_tokenize(block) for block in blocks]
    tokenized_text: list[str] = []
    for block in tokenized_blocks:
        tokenized_text.extend(block)
        tokenized_text.append("\n")
    return tokenized_text[:-1]


def reference_minicheck(
    model_dir: Path, model_name: str, docs: Sequence[str], claims: Sequence[str]
) -> tuple[list[float], list[list[str]]]:
    """``MiniCheck(model_name).score(docs, claims)`` for ``roberta-large``,
    ``deberta-v3-large`` and ``flan-t5-large``, loaded from ``model_dir`` instead of the hub:
    the max support probability of each pair, and the chunks each document was cut into."""
    import torch
    import torch.nn.functional as F
    from transformers import (
        AutoConfig,
        AutoModelForSeq2SeqLM,
        AutoModelForSequenceClassification,
        AutoTokenizer,
    )

    ckpt = str(model_dir)
    if model_name == "flan-t5-large":
        model = AutoModelForSeq2SeqLM.from_pretrained(ckpt)
        tokenizer = AutoTokenizer.from_pretrained(ckpt)
        max_model_len = 2048
    else:
        max_model_len = 512 if model_name == "roberta-large" else 2048
        config = AutoConfig.from_pretrained(ckpt, num_labels=2)
        config.problem_type = "single_label_classification"
        tokenizer = AutoTokenizer.from_pretrained(ckpt, use_fast=True)
        model = AutoModelForSequenceClassification.from_pretrained(ckpt, config=config)
    model.eval()
    batch_size = 16
    chunk_size = 500 if model_name == "flan-t5-large" else 400

    def chunks(lst: list[str], n: int) -> Iterator[str]:
        if model_name == "flan-t5-large":
            current_chunk: list[str] = []
            current_word_count = 0
            for sentence in lst:
                sentence_word_count = len(sentence.split())
                if current_word_count + sentence_word_count > n:
                    yield " ".join(current_chunk)
                    current_chunk = [sentence]
                    current_word_count = sentence_word_count
                else:
                    current_chunk.append(sentence)
                    current_word_count += sentence_word_count
            if current_chunk:
                yield " ".join(current_chunk)
        else:
            current_chunk = []
            current_token_count = 0
            for sentence in lst:
                sentence_word_count = len(
                    tokenizer(
                        sentence,
                        padding=False,
                        add_special_tokens=False,
                        max_length=max_model_len,
                        truncation=True,
                    )["input_ids"]
                )
                if current_token_count + sentence_word_count > n:
                    yield " ".join(current_chunk)
                    current_chunk = [sentence]
                    current_token_count = sentence_word_count
                else:
                    current_chunk.append(sentence)
                    current_token_count += sentence_word_count
            if current_chunk:
                yield " ".join(current_chunk)

    def batch_tokenize(doc: list[str], claim: list[str]) -> list[Any]:
        original_text = [
            tokenizer.eos_token.join([one_doc, one_claim])
            for one_doc, one_claim in zip(doc, claim, strict=True)
        ]
        batch_input = []
        for start in range(0, len(original_text), batch_size):
            mini_batch = original_text[start : start + batch_size]
            texts = (
                ["predict: " + text for text in mini_batch]
                if model_name == "flan-t5-large"
                else list(mini_batch)
            )
            batch_input.append(
                tokenizer(
                    texts,
                    max_length=max_model_len,
                    truncation=True,
                    padding=True,
                    return_tensors="pt",
                )
            )
        return batch_input

    def inference(doc: list[str], claim: list[str]) -> float:
        label_probs_list = []
        for mini_batch_input in batch_tokenize(doc, claim):
            with torch.no_grad():
                if model_name == "flan-t5-large":
                    decoder_input_ids = torch.zeros(
                        (mini_batch_input["input_ids"].size(0), 1), dtype=torch.long
                    )
                    outputs = model(
                        input_ids=mini_batch_input["input_ids"],
                        attention_mask=mini_batch_input["attention_mask"],
                        decoder_input_ids=decoder_input_ids,
                    )
                    logits = outputs.logits.squeeze(1)
                    label_logits = logits[:, torch.tensor([3, 209])].cpu()
                    label_probs = torch.nn.functional.softmax(label_logits, dim=-1)
                else:
                    outputs = model(**mini_batch_input)
                    label_probs = F.softmax(outputs.logits, dim=1)
                label_probs_list.append(label_probs)
        return float(torch.cat(label_probs_list)[:, 1].max().item())

    max_support_probs: list[float] = []
    used_chunks: list[list[str]] = []
    for one_doc, one_claim in zip(docs, claims, strict=True):
        doc_sents = _minicheck_sentences(one_doc) or [""]
        doc_chunks = [
            chunk.replace(" \n ", "\n").strip() for chunk in chunks(doc_sents, chunk_size)
        ]
        doc_chunks = [chunk for chunk in doc_chunks if chunk != ""]
        max_support_probs.append(inference(doc_chunks, [one_claim] * len(doc_chunks)))
        used_chunks.append(doc_chunks)
    return max_support_probs, used_chunks


FACTCG_INSTRUCTION = (
    "{text_a}\n\nChoose your answer: based on the paragraph above can we conclude that "
    '"{text_b}"?\n\nOPTIONS:\n- Yes\n- No\nI think the answer is '
)


def factcg_reference_chunks(src: str, max_chunk_size: int = 550) -> list[str]:
    """``Inferencer.chunking_src`` (factcg/inference.py)."""
    nltk = _nltk()

    def split_into_sentences(text: str, offset: int = 0) -> list[dict[str, Any]]:
        sentences = nltk.sent_tokenize(text)
        ret = []
        idx = offset
        len_of_text = len(text)
        for sentence in sentences:
            first_char_of_sentence = sentence[0]
            while idx < len_of_text and text[idx] != first_char_of_sentence:
                idx += 1
            start = idx
            end = idx + len(sentence)
            ret.append({"text": sentence, "start": start, "end": end})
            idx = end + 1
        return ret

    sentences = split_into_sentences(src)
    chunks: list[str] = []
    chunk_size = 0
    chunk = ""
    for s in sentences:
        token_count = len(nltk.word_tokenize(s["text"]))
        if chunk_size + token_count <= max_chunk_size:
            chunk = "\n".join([chunk, s["text"]]).strip("\n")
            chunk_size += token_count
        else:
            chunks.append(chunk.strip("\n"))
            chunk = s["text"]
            chunk_size = token_count
    if chunk_size > 0:
        chunks.append(chunk.replace(" \n ", "\n").strip("\n").strip())
    return chunks


def reference_factcg(
    model_dir: Path, premise: Sequence[str], hypo: Sequence[str]
) -> tuple[list[float], list[list[str]]]:
    """``FactCGScore(use_hf_ckpt=True).score(contexts, claims)`` with the checkpoint loaded from
    ``model_dir``: each pair's score, and each document's chunks."""
    import torch
    from transformers import AutoConfig, AutoModelForSequenceClassification, AutoTokenizer

    config = AutoConfig.from_pretrained(str(model_dir), num_labels=2)
    config.problem_type = "single_label_classification"
    tokenizer = AutoTokenizer.from_pretrained(str(model_dir), use_fast=True)
    model = AutoModelForSequenceClassification.from_pretrained(str(model_dir), config=config)
    model.eval()
    batch_size = 16

    chunksize_per_example = []
    premise_sent_mat: list[str] = []
    hypo_sents_mat: list[str] = []
    all_chunks: list[list[str]] = []
    for one_pre, one_hypo in zip(premise, hypo, strict=True):
        one_pre_sents = factcg_reference_chunks(one_pre)
        all_chunks.append(one_pre_sents)
        premise_sent_mat.extend(one_pre_sents)
        hypo_sents_mat.extend([one_hypo] * len(one_pre_sents))
        chunksize_per_example.append((1, len(one_pre_sents)))

    output_score_bin = []
    for start in range(0, len(premise_sent_mat), batch_size):
        text_list = [
            FACTCG_INSTRUCTION.format(text_a=one_doc, text_b=one_claim)
            for one_doc, one_claim in zip(
                premise_sent_mat[start : start + batch_size],
                hypo_sents_mat[start : start + batch_size],
                strict=True,
            )
        ]
        tokenizer.pad_token = tokenizer.eos_token
        mini_batch = tokenizer(
            text_list,
            max_length=2048,
            truncation="only_first",
            padding="longest",
            return_tensors="pt",
        )
        with torch.no_grad():
            logits = model(**mini_batch).logits
            output_score_bin.append(torch.nn.Softmax(dim=-1)(logits).cpu()[:, 1])
    flat = torch.cat(output_score_bin)
    scores = []
    for output_score, chunk_size in zip(
        torch.split(flat, [math.prod(n) for n in chunksize_per_example]),
        chunksize_per_example,
        strict=True,
    ):
        hypo_len, premise_len = chunk_size
        scores.append(output_score.view(hypo_len, premise_len).max(dim=1).values.mean().item())
    return scores, all_chunks


def reference_hhem(
    network: Any, foundation: Path, text_pairs: Sequence[tuple[str, str]]
) -> list[float]:
    """``HHEMv2ForSequenceClassification.predict(text_pairs)``: ``network`` is its ``t5``
    (the token classifier whose weights the checkpoint holds), the tokenizer its foundation's;
    each pair is (premise, hypothesis)."""
    import torch
    from transformers import AutoTokenizer

    from citecheck.judging.known import HHEM_PROMPT

    tokenizer = AutoTokenizer.from_pretrained(str(foundation))
    pair_dict = [{"text1": pair[0], "text2": pair[1]} for pair in text_pairs]
    inputs = tokenizer(
        [HHEM_PROMPT.format(**pair) for pair in pair_dict], return_tensors="pt", padding=True
    )
    network.eval()
    with torch.no_grad():
        outputs = network(**inputs)
    logits = outputs.logits[:, 0, :]
    transformed_probs = torch.softmax(logits, dim=-1)
    return [float(p) for p in transformed_probs[:, 1]]


BESPOKE_SYSTEM = (
    "Determine whether the provided claim is consistent with the corresponding document. "
    "Consistency in this context implies that all information presented in the claim is "
    "substantiated by the document. If not, it should be considered inconsistent. Please assess "
    'the claim\'s consistency with the document by responding with either "Yes" or "No".'
)
BESPOKE_USER = "Document: [DOCUMENT]\nClaim: [CLAIM]"


def _vllm_decoded_token(tokenizer: Any, prompt_ids: list[int], token_id: int) -> str:
    """vLLM's ``decoded_token`` of one candidate next token: ``convert_prompt_ids_to_tokens``
    then ``detokenize_incrementally`` (vllm/transformers_utils/detokenizer_utils.py, 2024), with
    ``skip_special_tokens=True``, the default of ``SamplingParams``."""
    prev_tokens = tokenizer.convert_ids_to_tokens(prompt_ids[-5 - 2 :], skip_special_tokens=True)
    prev_tokens = [t if t is not None else "" for t in prev_tokens]
    read_offset = len(prev_tokens)
    prefix_offset = max(read_offset - 5, 0)
    new_tokens = tokenizer.convert_ids_to_tokens([token_id], skip_special_tokens=True)
    output_tokens = prev_tokens + new_tokens
    if token_id in tokenizer.all_special_ids:
        return ""
    prefix_text = tokenizer.convert_tokens_to_string(output_tokens[prefix_offset:read_offset])
    new_text = tokenizer.convert_tokens_to_string(output_tokens[prefix_offset:])
    if len(new_text) <= len(prefix_text) or new_text.endswith("�"):
        return ""
    return new_text[len(prefix_text) :]


def reference_bespoke(
    model_dir: Path, docs: Sequence[str], claims: Sequence[str], chunk_size: int | None = None
) -> tuple[list[float], list[list[str]]]:
    """``LLMCheck.score(docs, claims)`` for Bespoke-MiniCheck-7B with the model loaded by
    transformers from ``model_dir``: vLLM's ``generate`` (temperature 0, one token, 5
    log-probabilities) is one forward pass; the prompt is encoded as vLLM encodes a text prompt
    (with the tokenizer's special tokens)."""
    import numpy as np
    import torch
    from transformers import AutoModelForCausalLM, AutoTokenizer

    tokenizer = AutoTokenizer.from_pretrained(str(model_dir))
    model = AutoModelForCausalLM.from_pretrained(str(model_dir), dtype=torch.float32).eval()
    max_model_len = 32768
    chunk_size = chunk_size or max_model_len - 300

    def get_all_chunks_per_doc(doc: str) -> list[str]:
        def chunks(lst: list[str], n: int) -> Iterator[str]:
            current_chunk: list[str] = []
            current_word_count = 0
            for sentence in lst:
                sentence_word_count = len(
                    tokenizer(sentence, add_special_tokens=False)["input_ids"]
                )
                if current_word_count + sentence_word_count > n:
                    yield " ".join(current_chunk)
                    current_chunk = [sentence]
                    current_word_count = sentence_word_count
                else:
                    current_chunk.append(sentence)
                    current_word_count += sentence_word_count
            if current_chunk:
                yield " ".join(current_chunk)

        doc_sents = _minicheck_sentences(doc) or [""]
        doc_chunks = [
            chunk.replace(" \n ", "\n").strip() for chunk in chunks(doc_sents, chunk_size)
        ]
        doc_chunks = [chunk for chunk in doc_chunks if chunk != ""]
        return doc_chunks or [""]

    def apply_chat_template(doc: str, claim: str) -> str:
        user_prompt = BESPOKE_USER.replace("[DOCUMENT]", doc).replace("[CLAIM]", claim)
        message = [
            {"role": "system", "content": BESPOKE_SYSTEM},
            {"role": "user", "content": user_prompt},
        ]
        text: str = tokenizer.apply_chat_template(
            message, add_generation_prompt=True, tokenize=False
        )
        return text

    def get_support_prob(prompt: str) -> float:
        prompt_ids = tokenizer.encode(prompt)
        with torch.no_grad():
            logits = model(input_ids=torch.tensor([prompt_ids])).logits[0, -1]
        logprobs = torch.log_softmax(logits.float(), dim=-1)
        top = torch.topk(logprobs, 5)
        support_prob = 0.0
        for logprob, token_id in zip(top.values.tolist(), top.indices.tolist(), strict=True):
            if _vllm_decoded_token(tokenizer, prompt_ids, token_id).lower() == "yes":
                support_prob += math.exp(logprob)
        return support_prob

    scores: list[float] = []
    all_chunks: list[list[str]] = []
    for doc, claim in zip(docs, claims, strict=True):
        doc_chunks = get_all_chunks_per_doc(doc)
        claim_sentences = _nltk().sent_tokenize(claim)
        probs = [
            get_support_prob(apply_chat_template(doc_chunk, sentence))
            for doc_chunk in doc_chunks
            for sentence in claim_sentences
        ]
        prob_matrix = np.array(probs).reshape(len(doc_chunks), len(claim_sentences))
        scores.append(float(np.min(np.max(prob_matrix, axis=0))))
        all_chunks.append(doc_chunks)
    return scores, all_chunks


def reference_nli(model_dir: Path, pairs: Sequence[tuple[str, str]]) -> list[float]:
    """A sentence-transformers cross-encoder's probability of entailment for (premise,
    hypothesis) pairs, as its model card uses it."""
    from sentence_transformers import CrossEncoder

    model = CrossEncoder(str(model_dir), device="cpu")
    scores = model.predict(list(pairs), apply_softmax=True)
    index = next(i for i, n in model.model.config.id2label.items() if n == "entailment")
    return [float(row[index]) for row in scores]


# -- the measurement -----------------------------------------------------------------------------


def agreement(
    adapter: Sequence[float],
    reference: Sequence[float],
    adapter_chunks: Sequence[Sequence[str]] | None = None,
    reference_chunks: Sequence[Sequence[str]] | None = None,
) -> dict[str, Any]:
    """How far the adapter's probabilities are from the reference's, and how often they give
    the same label."""
    deltas = [abs(a - r) for a, r in zip(adapter, reference, strict=True)]
    result: dict[str, Any] = {
        "pairs": len(deltas),
        "max_abs_delta": max(deltas),
        "same_label": sum((a > 0.5) == (r > 0.5) for a, r in zip(adapter, reference, strict=True)),
        "supported_by_reference": sum(r > 0.5 for r in reference),
    }
    if adapter_chunks is not None and reference_chunks is not None:
        result["same_chunks"] = sum(
            list(a) == list(r) for a, r in zip(adapter_chunks, reference_chunks, strict=True)
        )
        result["chunks_per_document_max"] = max(len(r) for r in reference_chunks)
    return result


def measure(
    folder: Path, pairs: list[tuple[str, str]], judges: Sequence[str], seed: int = 0
) -> dict[str, Any]:
    """The agreement of each adapter in ``judges`` with its reference over ``pairs`` (HHEM:
    as many pairs with shorter documents; Bespoke-MiniCheck: a quarter of them, with chunks of
    300 tokens instead of 32468 so that the tiny model's documents are cut)."""
    from citecheck.judging.known import load_judge

    docs = [d for d, _ in pairs]
    claims = [c for _, c in pairs]
    results: dict[str, Any] = {}

    def run(name: str, judge: Any, reference: Callable[[], tuple[list[float], Any]]) -> None:
        started = time.perf_counter()
        ours = [judge(claim, doc) for doc, claim in pairs]
        ours_chunks = [judge.chunks(doc) for doc in docs] if hasattr(judge, "chunks") else None
        theirs, their_chunks = reference()
        results[name] = agreement(ours, theirs, ours_chunks, their_chunks)
        results[name]["seconds"] = round(time.perf_counter() - started, 1)

    if "minicheck" in judges:
        for variant, builder in (
            ("roberta-large", build_roberta),
            ("deberta-v3-large", build_deberta),
            ("flan-t5-large", build_flan_t5),
        ):
            name = f"minicheck-{variant}"
            path = builder(folder / name)
            run(
                name,
                load_judge(name, model=path),
                lambda p=path, v=variant: reference_minicheck(p, v, docs, claims),
            )
    if "factcg" in judges:
        path = build_deberta(folder / "factcg", seed=1)
        run(
            "factcg-deberta-large",
            load_judge("factcg-deberta-large", model=path),
            lambda: reference_factcg(path, docs, claims),
        )
    if "hhem" in judges:
        # HHEM reads a whole document at once (no chunks): documents of at most 40 sentences,
        # for time (a T5 encoder's attention grows with the square of the length).
        short = [(d, c) for d, c in random_pairs(len(pairs), seed, max_sentences=40)]
        path, network = build_hhem(folder / "hhem")
        judge = load_judge("hhem-2.1-open", model=path)
        started = time.perf_counter()
        ours = [judge(claim, doc) for doc, claim in short]
        results["hhem-2.1-open"] = agreement(
            ours, reference_hhem(network, path / "foundation", short)
        )
        results["hhem-2.1-open"]["seconds"] = round(time.perf_counter() - started, 1)
    if "bespoke" in judges:
        path = build_causal(folder / "bespoke")
        small = pairs[: max(1, len(pairs) // 4)]
        judge = load_judge(
            "bespoke-minicheck-7b",
            model=path,
            trust_remote_code=True,
            dtype="float32",
            chunk_size=300,
        )
        started = time.perf_counter()
        ours = [judge(claim, doc) for doc, claim in small]
        ours_chunks = [judge.chunks(doc) for doc, _ in small]
        theirs, their_chunks = reference_bespoke(
            path, [d for d, _ in small], [c for _, c in small], chunk_size=300
        )
        results["bespoke-minicheck-7b"] = agreement(ours, theirs, ours_chunks, their_chunks)
        results["bespoke-minicheck-7b"]["nonzero_yes"] = sum(t > 0 for t in theirs)
        results["bespoke-minicheck-7b"]["seconds"] = round(time.perf_counter() - started, 1)
    if "nli" in judges:
        path = build_nli(folder / "nli")
        judge = load_judge(f"nli:{path}")
        run("nli", judge, lambda: (reference_nli(path, pairs), None))
    return results


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pairs", type=int, default=200, help="random pairs per judge")
    parser.add_argument("--seed", type=int, default=20261127)
    parser.add_argument(
        "--judges",
        default="minicheck,factcg,hhem,bespoke,nli",
        help="comma-separated: minicheck, factcg, hhem, bespoke (a quarter of the pairs, "
        "chunks of 300 tokens), nli",
    )
    parser.add_argument("--json", action="store_true", help="print the results as JSON")
    args = parser.parse_args(argv)
    import nltk

    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        if not nltk.tokenize.punkt_model_available("english"):
            nltk.data.path.insert(0, str(empty_punkt(folder / "nltk_data")))
        pairs = random_pairs(args.pairs, args.seed)
        results = measure(folder, pairs, args.judges.split(","), args.seed)
    if args.json:
        print(json.dumps(results, indent=2))
    else:
        for name, row in results.items():
            chunks = (
                f", same chunks {row['same_chunks']}/{row['pairs']} (up to "
                f"{row['chunks_per_document_max']} a document)"
                if "same_chunks" in row
                else ""
            )
            print(
                f"{name}: {row['pairs']} pairs, max |Δ| = {row['max_abs_delta']:.2e}, same label "
                f"{row['same_label']}/{row['pairs']} ({row['supported_by_reference']} supported)"
                f"{chunks}, {row['seconds']} s"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
