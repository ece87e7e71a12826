"""Known judges by name (:mod:`citecheck.judging.known`): each adapter reads a pair as its
authors' code does (checked on tiny random models against that code, reimplemented in
``benchmarks/judge_adapters.py``), the LLM judges speak their APIs (checked against loopback
fakes), and a known judge is still under the meaning guard."""

from __future__ import annotations

import dataclasses
import http.server
import json
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from citecheck import Status, Verifier
from citecheck.errors import BackendError, ConfigError, MissingDependencyError
from citecheck.judging import known
from citecheck.judging.judges import CrossEncoderJudge
from citecheck.judging.known import JUDGE_PREFIXES, KNOWN_JUDGES, describe, load_judge

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
import judge_adapters as ja

TOLERANCE = 1e-5

# -- the registry, without any extra ------------------------------------------------------------


def test_every_known_judge_says_what_it_is_and_what_was_published() -> None:
    assert list(KNOWN_JUDGES) == [
        "minicheck-roberta-large",
        "minicheck-deberta-v3-large",
        "minicheck-flan-t5-large",
        "bespoke-minicheck-7b",
        "factcg-deberta-large",
        "hhem-2.1-open",
    ]
    assert list(JUDGE_PREFIXES) == ["nli", "openai", "ollama"]
    published = {name: spec.accuracy for name, spec in KNOWN_JUDGES.items()}
    assert published == {
        "minicheck-roberta-large": 73.5,
        "minicheck-deberta-v3-large": 73.1,
        "minicheck-flan-t5-large": 75.0,
        "bespoke-minicheck-7b": 77.4,
        "factcg-deberta-large": 75.6,
        "hhem-2.1-open": 71.8,
    }
    for spec in [*KNOWN_JUDGES.values(), *JUDGE_PREFIXES.values()]:
        assert spec.accuracy_source
        assert spec.cpu_cost
        assert spec.extra
        assert spec.labels
        assert callable(spec.factory)
        with pytest.raises(dataclasses.FrozenInstanceError):
            spec.name = "other"
        assert not hasattr(spec, "__dict__")  # slotted
    assert all(spec.published_accuracy == "not published" for spec in JUDGE_PREFIXES.values())

    table = describe()
    for name in [*KNOWN_JUDGES, "nli:MODEL", "openai:MODEL", "ollama:MODEL"]:
        assert name in table
    assert "75.6" in table
    assert "not published" in table
    one = describe("hhem-2.1-open")
    assert "Premise: {evidence}" in one
    assert "index 1 = consistent" in one
    assert "ollama" in describe("ollama:llama3.2")


def test_an_unknown_name_lists_the_known_ones_and_the_closest() -> None:
    with pytest.raises(ConfigError, match="did you mean 'minicheck-roberta-large'") as error:
        load_judge("minicheck-roberta")
    for name in KNOWN_JUDGES:
        assert name in str(error.value)
    assert "nli:MODEL" in str(error.value)
    with pytest.raises(ConfigError, match=r"did you mean .hhem-2\.1-open."):
        load_judge("hhem")
    with pytest.raises(ConfigError, match="did you mean"):
        describe("factcg")
    for bad in ("", "   "):
        with pytest.raises(ConfigError):
            load_judge(bad)
    with pytest.raises(ConfigError, match="needs a model"):
        load_judge("nli:")
    with pytest.raises(ConfigError, match="names its model already"):
        load_judge("nli:some/model", model="other")


def test_names_are_read_in_any_case_and_bespoke_needs_consent_to_run_hub_code() -> None:
    # resolved (case-insensitively) to the factory, which refuses before importing anything
    with pytest.raises(ConfigError, match="trust_remote_code=True"):
        load_judge("Bespoke-MiniCheck-7B")


def test_a_missing_package_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    real = known.importlib.import_module

    def without(missing: str) -> Any:
        def import_module(name: str, *args: Any) -> Any:
            if name == missing or name.startswith(missing + "."):
                raise ImportError(f"No module named {name!r}", name=name)
            return real(name, *args)

        return import_module

    monkeypatch.setattr(known.importlib, "import_module", without("transformers"))
    with pytest.raises(MissingDependencyError, match=r"pycitecheck\[judges\]"):
        load_judge("minicheck-roberta-large")
    monkeypatch.setattr(known.importlib, "import_module", without("httpx"))
    with pytest.raises(MissingDependencyError, match=r"pycitecheck\[llm-judges\]"):
        load_judge("ollama:llama3.2")


def test_importing_citecheck_and_the_registry_loads_no_model_library() -> None:
    code = (
        "import sys, citecheck, citecheck.judging.known\n"
        "heavy = {'torch', 'transformers', 'httpx', 'nltk', 'sentence_transformers'}\n"
        "print(sorted(heavy & set(sys.modules)))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120
    )
    assert out.stdout.strip() == "[]"


def test_offline_means_the_cache_only(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("HF_HUB_OFFLINE", raising=False)
    monkeypatch.delenv("TRANSFORMERS_OFFLINE", raising=False)
    assert known._hub_options(None) == {}
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    assert known._hub_options("/cache") == {"cache_dir": "/cache", "local_files_only": True}


# -- a fake OpenAI-compatible server and a fake Ollama, on the loopback -----------------------


class FakeLLM:
    """What the fake server answers, and every request it got."""

    def __init__(self) -> None:
        self.requests: list[dict[str, Any]] = []
        self.content: str = "Yes."
        self.status = 200
        self.delay = 0.0
        self.raw: str | None = None

    def reply(self, path: str) -> tuple[int, bytes]:
        if self.raw is not None:
            return self.status, self.raw.encode()
        message = {"role": "assistant", "content": self.content}
        body = (
            {"model": "m", "message": message, "done": True}
            if path == "/api/chat"
            else {"choices": [{"index": 0, "message": message, "finish_reason": "stop"}]}
        )
        return self.status, json.dumps(body).encode()


class _Handler(http.server.BaseHTTPRequestHandler):
    server: Any

    def do_POST(self) -> None:
        fake: FakeLLM = self.server.fake
        length = int(self.headers.get("Content-Length", "0"))
        fake.requests.append(
            {
                "path": self.path,
                "headers": {k.lower(): v for k, v in self.headers.items()},
                "body": json.loads(self.rfile.read(length)),
            }
        )
        if fake.delay:
            time.sleep(fake.delay)
        status, data = fake.reply(self.path)
        try:
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)
        except (BrokenPipeError, ConnectionResetError):  # the client gave up (a timeout test)
            pass

    def log_message(self, format: str, *args: Any) -> None:
        pass


@pytest.fixture
def llm() -> Iterator[tuple[FakeLLM, str]]:
    """A fake LLM server on 127.0.0.1, started and stopped here: (its state, its address)."""
    pytest.importorskip("httpx")
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
    server.daemon_threads = True
    server.fake = FakeLLM()
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield server.fake, f"127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(5)


def test_openai_judge_sends_the_documented_chat_and_reads_the_answer(
    llm: tuple[FakeLLM, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    fake, address = llm
    monkeypatch.delenv("OPENAI_BASE_URL", raising=False)
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    judge = load_judge("openai:gpt-test", base_url=f"http://{address}/v1/", api_key="sk-test")
    assert judge("The budget was approved.", "The committee approved the budget.") == 1.0
    [request] = fake.requests
    assert request["path"] == "/v1/chat/completions"
    assert request["headers"]["authorization"] == "Bearer sk-test"
    body = request["body"]
    assert body["model"] == "gpt-test"
    assert body["temperature"] == 0
    system, user = body["messages"]
    assert system == {"role": "system", "content": known.LLM_SYSTEM_PROMPT}
    assert user["role"] == "user"
    text = user["content"]
    assert text.index("The committee approved the budget.") < text.index("The budget was")
    for answer, expected in [
        ("No", 0.0),
        ("partially", 0.5),
        ("0.8", 0.8),
        ("**Yes**", 1.0),
        ("Yes, the passage says so.", 1.0),
        ("<think>The passage says three, the claim six.</think>\nno", 0.0),
    ]:
        fake.content = answer
        assert judge("c", "e") == expected, answer
    fake.content = "I cannot tell from this passage."
    with pytest.raises(BackendError, match="cannot tell"):
        judge("c", "e")

    monkeypatch.setenv("OPENAI_BASE_URL", f"http://{address}/v1")
    from_env = load_judge("openai:local-model")  # a local server: no key needed
    fake.content = "yes"
    assert from_env.judge_many("c", ["e1", "e2"]) == [1.0, 1.0]
    assert "authorization" not in fake.requests[-1]["headers"]
    monkeypatch.delenv("OPENAI_BASE_URL")
    with pytest.raises(ConfigError, match="OPENAI_API_KEY"):
        load_judge("openai:gpt-4o-mini")


def test_ollama_judge_speaks_ollama_and_its_openai_endpoint(
    llm: tuple[FakeLLM, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    fake, address = llm
    monkeypatch.setenv("OLLAMA_HOST", address)  # as Ollama writes it: no scheme
    fake.content = "no"
    assert load_judge("ollama:llama3.2")("c", "e") == 0.0
    request = fake.requests[-1]
    assert request["path"] == "/api/chat"
    body = request["body"]
    assert body["model"] == "llama3.2"
    assert body["stream"] is False
    assert body["options"] == {"temperature": 0}
    assert [m["role"] for m in body["messages"]] == ["system", "user"]

    monkeypatch.delenv("OLLAMA_HOST")
    compatible = load_judge("ollama:qwen3", host=f"http://{address}", api="openai")
    fake.content = "yes"
    assert compatible("c", "e") == 1.0
    assert fake.requests[-1]["path"] == "/v1/chat/completions"
    assert fake.requests[-1]["body"]["temperature"] == 0

    minicheck = load_judge("ollama:bespoke-minicheck", host=address)
    fake.content = "Yes"
    assert minicheck("The students study.", "Students gather in the library to study.") == 1.0
    assert fake.requests[-1]["body"]["messages"] == [
        {
            "role": "user",
            "content": "Document: Students gather in the library to study.\n"
            "Claim: The students study.",
        }
    ]
    assert known._ollama_host(None) == "http://127.0.0.1:11434"
    assert known._ollama_host("[::1]") == "http://[::1]:11434"


def test_a_failed_call_is_a_backend_error_and_the_citation_is_unchecked(
    llm: tuple[FakeLLM, str],
) -> None:
    fake, address = llm
    judge = load_judge("ollama:llama3.2", host=address, timeout=0.3)
    fake.status = 500
    fake.raw = '{"error": "model crashed"}'
    with pytest.raises(BackendError, match="HTTP 500"):
        judge("c", "e")
    fake.status, fake.raw = 200, "not json"
    with pytest.raises(BackendError, match="no answer"):
        judge("c", "e")
    fake.raw, fake.delay = None, 1.0
    asked = len(fake.requests)
    # the timeout, not the answer, ends the call: only httpx's timeout says "no answer within"
    with pytest.raises(BackendError, match=r"no answer from .* within 0\.3 s"):
        judge("c", "e")
    assert len(fake.requests) <= asked + 1  # asked once, never retried past its timeout
    fake.delay = 0.0
    fake.status = 503
    [result] = (
        Verifier(judge=judge)
        .verify(
            "The survey lasted three months [[doc]].",
            {"doc": "The survey team worked for three months in the field."},
        )
        .results
    )
    assert result.status is Status.UNCHECKED, result.reason
    assert "HTTP 503" in result.reason
    closed = load_judge("ollama:llama3.2", host="127.0.0.1:9", timeout=2)  # nothing listens
    with pytest.raises(BackendError, match="failed"):
        closed("c", "e")


def test_the_guard_still_vetoes_a_known_judge_that_always_agrees(
    llm: tuple[FakeLLM, str],
) -> None:
    fake, address = llm
    fake.content = "Yes"
    judge = load_judge("ollama:llama3.2", host=address)
    verifier = Verifier(judge=judge)
    source = {"doc": "The survey team worked for three months in the field."}
    [kept] = verifier.verify("The survey lasted three months [[doc]].", source).results
    assert kept.status is Status.VERIFIED, kept.reason
    asked = len(fake.requests)
    assert asked > 0
    [changed] = verifier.verify("The survey lasted six months [[doc]].", source).results
    assert len(fake.requests) > asked  # the judge was asked, said yes, and was overruled
    assert changed.status is not Status.VERIFIED, changed.reason
    assert "six" in changed.reason or "three" in changed.reason


# -- the local models, on tiny random models -------------------------------------------------------


@pytest.fixture(scope="module")
def models(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """A folder for the tiny models, and NLTK reading an untrained Punkt model from it, for
    the adapters and the references alike."""
    pytest.importorskip("torch")
    pytest.importorskip("transformers")
    nltk = pytest.importorskip("nltk")
    folder = tmp_path_factory.mktemp("judges")
    data = str(ja.empty_punkt(folder / "nltk_data"))
    nltk.data.path.insert(0, data)
    try:
        yield folder
    finally:
        nltk.data.path.remove(data)


def _pairs(count: int, seed: int, max_sentences: int) -> list[tuple[str, str]]:
    pairs = ja.random_pairs(count, seed, max_sentences=max_sentences)
    pairs.append(("The committee approved the budget.\n\nIt rained.", "The budget passed."))
    return pairs


def _check(
    name: str,
    ours: list[float],
    theirs: list[float],
    our_chunks: list[list[str]] | None = None,
    their_chunks: list[list[str]] | None = None,
) -> None:
    found = ja.agreement(ours, theirs, our_chunks, their_chunks)
    assert found["max_abs_delta"] <= TOLERANCE, (name, found)
    assert found["same_label"] == found["pairs"], (name, found)
    if our_chunks is not None:
        assert found["same_chunks"] == found["pairs"], (name, found)
        assert found["chunks_per_document_max"] >= 2, "no document was long enough to be cut"


@pytest.mark.parametrize(
    ("variant", "builder"),
    [
        ("roberta-large", ja.build_roberta),
        ("deberta-v3-large", ja.build_deberta),
        ("flan-t5-large", ja.build_flan_t5),
    ],
)
def test_minicheck_reads_pairs_as_its_authors_code(
    models: Path, variant: str, builder: Any
) -> None:
    name = f"minicheck-{variant}"
    path = builder(models / name)
    judge = load_judge(name, model=path)
    pairs = _pairs(8, seed=len(variant), max_sentences=90)
    docs, claims = [d for d, _ in pairs], [c for _, c in pairs]
    ours = [judge(claim, doc) for doc, claim in pairs]
    theirs, their_chunks = ja.reference_minicheck(path, variant, docs, claims)
    _check(name, ours, theirs, [judge.chunks(d) for d in docs], their_chunks)
    claim = claims[0]
    batched = judge.judge_many(claim, docs[:4])
    assert batched == pytest.approx([judge(claim, d) for d in docs[:4]], abs=TOLERANCE)
    with pytest.raises(BackendError, match="empty"):
        judge(claim, " \n ")


def test_minicheck_cuts_documents_as_its_authors_do(models: Path) -> None:
    path = ja.build_flan_t5(models / "cut")
    judge = load_judge("minicheck-flan-t5-large", model=path)
    sentences = [" ".join(["word"] * 99) + f" end{i}." for i in range(12)]  # 100 words each
    # 500 words a chunk: five sentences, five, then the last two
    assert judge.chunks(" ".join(sentences)) == [
        " ".join(sentences[0:5]),
        " ".join(sentences[5:10]),
        " ".join(sentences[10:12]),
    ]
    # line breaks are kept inside a chunk, and a sentence over the limit is a chunk of its own
    long = " ".join(["word"] * 600) + "."
    document = f"{sentences[0]}\n{sentences[1]}\n\n{long}\n{sentences[2]}"
    assert judge.chunks(document) == [
        f"{sentences[0]}\n{sentences[1]}",
        long,
        sentences[2],
    ]
    # the RoBERTa variant counts its own tokens, 400 a chunk: each chunk holds the sentences
    # that fit, and the next one would not have
    roberta: Any = load_judge("minicheck-roberta-large", model=ja.build_roberta(models / "cut-r"))
    short = [f"The committee approved budget {i} in the north." for i in range(150)]
    size = {s: len(roberta.tokenizer(s, add_special_tokens=False)["input_ids"]) for s in short}
    chunks = roberta.chunks(" ".join(short))
    assert len(chunks) >= 3
    assert " ".join(chunks) == " ".join(short)
    start = 0
    for chunk in chunks:
        held = short[start : start + chunk.count(".")]
        assert chunk == " ".join(held)
        assert sum(size[s] for s in held) <= 400
        start += len(held)
        if start < len(short):
            assert sum(size[s] for s in held) + size[short[start]] > 400


def test_factcg_reads_pairs_as_its_authors_code(models: Path) -> None:
    path = ja.build_deberta(models / "factcg", seed=1)
    judge = load_judge("factcg-deberta-large", model=path)
    pairs = _pairs(8, seed=3, max_sentences=90)
    docs, claims = [d for d, _ in pairs], [c for _, c in pairs]
    ours = [judge(claim, doc) for doc, claim in pairs]
    theirs, their_chunks = ja.reference_factcg(path, docs, claims)
    _check("factcg", ours, theirs, [judge.chunks(d) for d in docs], their_chunks)

    # 550 NLTK word tokens a chunk, joined by line breaks; a first sentence over the limit
    # leaves an empty first chunk, which the authors' code reads too
    sentences = [" ".join(["word"] * 99) + "." for _ in range(7)]  # 100 tokens each
    assert known.factcg_chunks(" ".join(sentences)) == [
        "\n".join(sentences[0:5]),
        "\n".join(sentences[5:7]),
    ]
    long = " ".join(["word"] * 600) + "."
    assert known.factcg_chunks(f"{long} {sentences[0]}") == ["", long, sentences[0]]
    assert known.factcg_chunks(f"{long} {sentences[0]}") == ja.factcg_reference_chunks(
        f"{long} {sentences[0]}"
    )


@pytest.mark.parametrize("stored", ["shared", "embed"])
def test_hhem_reads_pairs_as_its_authors_predict(models: Path, stored: str) -> None:
    pytest.importorskip("safetensors")
    path, network = ja.build_hhem(models / f"hhem-{stored}", stored=stored)
    judge = load_judge("hhem-2.1-open", model=path)
    pairs = _pairs(10, seed=5, max_sentences=12)
    ours = judge.judge_many(pairs[0][1], [d for d, _ in pairs])
    theirs = ja.reference_hhem(network, path / "foundation", [(d, pairs[0][1]) for d, _ in pairs])
    _check("hhem", ours, theirs)
    # the evidence is the premise, the claim the hypothesis: swapped, the answers change
    swapped = ja.reference_hhem(network, path / "foundation", [(pairs[0][1], d) for d, _ in pairs])
    assert max(abs(a - b) for a, b in zip(ours, swapped, strict=True)) > TOLERANCE


def test_hhem_refuses_weights_of_another_model(models: Path) -> None:
    safetensors = pytest.importorskip("safetensors.torch")
    import torch

    path, _ = ja.build_hhem(models / "hhem-bad")
    safetensors.save_file({"t5.other.weight": torch.zeros(2, 2)}, str(path / "model.safetensors"))
    with pytest.raises(BackendError, match="do not fit"):
        load_judge("hhem-2.1-open", model=path)


def test_bespoke_minicheck_reads_pairs_as_its_authors_code(models: Path) -> None:
    path = ja.build_causal(models / "bespoke")
    judge = load_judge(
        "bespoke-minicheck-7b",
        model=path,
        trust_remote_code=True,
        dtype="float32",
        chunk_size=120,  # so that these short documents are cut
    )
    pairs = _pairs(5, seed=11, max_sentences=20)
    pairs.append(("The committee approved the budget.", "It was approved. It rained."))
    docs, claims = [d for d, _ in pairs], [c for _, c in pairs]
    ours = [judge(claim, doc) for doc, claim in pairs]
    theirs, their_chunks = ja.reference_bespoke(path, docs, claims, chunk_size=120)
    _check("bespoke", ours, theirs, [judge.chunks(d) for d in docs], their_chunks)
    assert any(p > 0 for p in theirs), "no pair had a 'yes' among the five likeliest tokens"
    assert judge.chunks("") == [""]


def test_nli_prefix_is_the_cross_encoder_judge(models: Path) -> None:
    pytest.importorskip("sentence_transformers")
    path = ja.build_nli(models / "nli")
    judge = load_judge(f"nli:{path}")
    assert isinstance(judge, CrossEncoderJudge)
    assert judge.entailment == 1
    pairs = _pairs(6, seed=2, max_sentences=3)
    ours = [judge(claim, doc) for doc, claim in pairs]
    _check("nli", ours, ja.reference_nli(path, pairs))


def test_a_model_missing_from_the_cache_offline_says_so(
    models: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setenv("HF_HOME", str(models / "empty-cache"))
    with pytest.raises(BackendError, match="HF_HUB_OFFLINE") as error:
        load_judge("minicheck-roberta-large")
    assert "lytang/MiniCheck-RoBERTa-Large" in str(error.value)


def test_without_the_sentence_model_offline_the_judge_says_how_to_get_it(
    models: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import nltk

    monkeypatch.setattr(nltk.data, "path", [str(models / "no-nltk-data")])
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    with pytest.raises(BackendError, match=r"nltk\.downloader punkt_tab"):
        load_judge("minicheck-roberta-large", model=ja.build_roberta(models / "no-punkt"))


def test_the_guard_vetoes_a_minicheck_model_that_always_agrees(models: Path) -> None:
    import torch

    judge = load_judge("minicheck-roberta-large", model=ja.build_roberta(models / "agrees"))
    with torch.no_grad():
        judge.model.classifier.out_proj.bias.copy_(torch.tensor([-30.0, 30.0]))
    source = {"doc": "The survey team worked for three months in the field."}
    assert judge("The survey lasted six months.", source["doc"]) > 0.99
    verifier = Verifier(judge=judge)
    [kept] = verifier.verify("The survey lasted three months [[doc]].", source).results
    assert kept.status is Status.VERIFIED, kept.reason
    [changed] = verifier.verify("The survey lasted six months [[doc]].", source).results
    assert changed.status is not Status.VERIFIED, changed.reason


def test_the_registry_names_every_known_judge_and_prefix() -> None:
    from citecheck import registry

    assert registry.available("judges")[: len(KNOWN_JUDGES) + len(JUDGE_PREFIXES)] == [
        *KNOWN_JUDGES,
        *JUDGE_PREFIXES,
    ]
    for name in [*KNOWN_JUDGES, *JUDGE_PREFIXES]:
        assert callable(registry.load("judges", name))
