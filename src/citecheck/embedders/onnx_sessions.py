"""How citecheck opens an onnxruntime session: the threads it may use, and integer products
that come out exact on every CPU.

Both models citecheck ships multiply 8-bit integers (``MatMulInteger``): the embedder
(:class:`~citecheck.embedders.OnnxMiniLMEmbedder`) and the support judge
(:class:`~citecheck.judging.onnx_pair_classifier.OnnxCrossEncoder`), unsigned activations by
signed weights. On an x86 CPU without VNNI (AVX2 or AVX-512 alone), onnxruntime's fast kernel
for that adds two products in 16-bit saturating arithmetic, and 255 × 127 × 2 overflows it, so
a vector or a reading there would differ from the one a CPU with VNNI computes (32-bit sums,
exact). onnxruntime's session option ``session.x64quantprecision`` makes such a CPU multiply
unsigned by unsigned instead: exact, and slower. citecheck sets it when a probe of one such
product (``weights/u8s8-probe.onnx``: 255s by 127s, around 128) comes out wrong on the CPU it
runs on, and only then, so that a CPU whose fast kernel is exact keeps its speed (on this
project's 2-core AMD EPYC, with VNNI, the option would cost the embedder about a third of its
speed). Either way the products are exact, so the same text gives the same vector and the
same pair the same reading on every CPU.
"""

from __future__ import annotations

import functools
import os
from pathlib import Path
from typing import Any

__all__ = [
    "PRECISION_OPTION",
    "PROBE_FILE",
    "integer_products_overflow",
    "session_options",
    "threads_allotted",
]

PROBE_FILE = Path(__file__).resolve().parent / "weights" / "u8s8-probe.onnx"
"""One integer product whose exact answer is known (made by ``benchmarks/minilm_rows.py
--probe``): ``a`` (uint8, 16 x 64, zero point 128) times 64 x 16 int8 127s."""
PRECISION_OPTION = "session.x64quantprecision"
"""onnxruntime's session option for exact 8-bit products on x86 CPUs without VNNI."""

_EXACT = 64 * 127 * 127  # (255 - 128) x 127, 64 times: every cell of the probe's answer


@functools.cache
def integer_products_overflow() -> bool:
    """Whether onnxruntime's fast 8-bit product overflows on this CPU: the probe run once a
    process, without :data:`PRECISION_OPTION`. A probe that cannot run counts as an overflow
    (the option is then set: exact products, at worst slower)."""
    return _probe()


def _probe() -> bool:
    try:
        import numpy as np
        import onnxruntime

        options = onnxruntime.SessionOptions()
        options.intra_op_num_threads = 1
        session = onnxruntime.InferenceSession(
            str(PROBE_FILE), options, providers=["CPUExecutionProvider"]
        )
        (product,) = session.run(["product"], {"a": np.full((16, 64), 255, np.uint8)})
        return not bool(np.all(np.asarray(product) == _EXACT))
    except Exception:  # no file, or onnxruntime's own error: be exact, if slower
        return True


def threads_allotted() -> int | None:
    """The threads this process was given, when its launcher says (``OMP_NUM_THREADS``: Ray
    sets it to a worker's CPUs, Dask's workers and most batch schedulers too); ``None``: one a
    core, onnxruntime's own choice. Two workers on two cores then run a thread each, not two
    each competing for the same cores."""
    value = os.environ.get("OMP_NUM_THREADS", "")
    return int(value) if value.isdigit() and int(value) > 0 else None


def session_options(threads: int | None = None) -> Any:
    """onnxruntime's ``SessionOptions`` for a citecheck model: ``threads`` intra-op threads
    (``None``: onnxruntime's choice) and one inter-op thread, and :data:`PRECISION_OPTION` on
    a CPU where the fast 8-bit product overflows."""
    import onnxruntime

    options = onnxruntime.SessionOptions()
    if threads:
        options.intra_op_num_threads = threads
        options.inter_op_num_threads = 1
    if integer_products_overflow():
        options.add_session_config_entry(PRECISION_OPTION, "1")
    return options
