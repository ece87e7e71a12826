"""Quote verification at scale (the ``bm25`` extra). Skipped without bm25s and rank_bm25."""

from __future__ import annotations

import csv
import io
import json
import random
import sys
from pathlib import Path

import pytest

pytest.importorskip("bm25s")
pytest.importorskip("rank_bm25")

import citecheck
from citecheck import ConfigError, Document, MissingDependencyError, Status
from citecheck.matchers.bm25 import BM25Index, BM25Matcher, tokenize
from citecheck.matchers.windows import make_windows
from citecheck.protocols import Matcher
from citecheck.quotes import QuoteConfig, QuoteLocator
from citecheck.testing import HashingEmbedder, MatcherConformance

WORDS = (
    "harbour ferry island storm council budget winter bridge market river lantern orchard "
    "quarry meadow signal engine harvest tunnel beacon garden valley station archive tower"
).split()


def prose(seed: int, sentences: int) -> str:
    """Distinct, deterministic sentences so every quote has one true place."""
    rng = random.Random(seed)
    out = []
    for n in range(sentences):
        words = [rng.choice(WORDS) for _ in range(rng.randint(8, 14))]
        out.append(f"Sentence {seed}-{n} says the {' '.join(words)}.")
    return " ".join(out)


CORPUS = {"alpha": prose(1, 60), "beta": prose(2, 60), "gamma": prose(3, 60)}


def sentence(doc: str, n: int) -> str:
    text = CORPUS[doc]
    start = text.index(f"Sentence {doc_seed(doc)}-{n} ")
    return text[start : text.index(".", start) + 1]


def doc_seed(doc: str) -> int:
    return {"alpha": 1, "beta": 2, "gamma": 3}[doc]


def test_a_verbatim_quote_is_verified_with_its_metrics() -> None:
    quote = sentence("beta", 7)
    [row] = citecheck.verify_quotes([quote], CORPUS).rows
    assert row.status is Status.VERIFIED
    assert row.source_doc == "beta"
    assert row.span_text == quote.rstrip(".") or row.span_text == quote
    start = CORPUS["beta"].index(quote)
    assert row.evidence[0].start == start
    assert row.global_start == len(CORPUS["alpha"]) + 2 + start  # documents joined by a blank line
    assert row.match_ratio == 1.0
    assert row.bm25_score is not None
    assert row.bm25_score > 0
    assert row.bm25_ratio is not None
    assert row.bm25_ratio > 1
    assert row.cosine_similarity is None  # no embedder configured
    assert quote in (row.context_window or "")
    assert len(row.context_window or "") <= len(quote) + 600


def test_noisy_quotes_are_located_and_verified() -> None:
    quote = sentence("gamma", 20)
    noisy = quote.upper().replace(" ", "  \n", 3).replace("e", "c", 2)
    [row] = citecheck.verify_quotes([noisy], CORPUS).rows
    assert row.status is Status.VERIFIED
    assert row.source_doc == "gamma"
    assert (row.span_text or "").lower().startswith(quote.lower()[:20])


def test_a_page_long_quote_is_located_whole() -> None:
    text = CORPUS["alpha"]
    start = text.index("Sentence 1-10 ")
    end = text.index("Sentence 1-30 ")
    quote = text[start:end].strip().rstrip(".")
    assert len(quote) > 1000  # far longer than the 500-character window cap
    [row] = citecheck.verify_quotes([quote], CORPUS).rows
    assert row.status is Status.VERIFIED
    assert (row.evidence[0].start, row.evidence[0].end) == (start, start + len(quote))


def test_a_long_quote_never_matches_a_short_passage_inside_it() -> None:
    inside = sentence("alpha", 3)
    quote = inside + " " + prose(99, 12)  # the rest is not in any document
    [row] = citecheck.verify_quotes([quote], CORPUS).rows
    assert row.status is not Status.VERIFIED


def test_a_quote_across_window_edges_is_joined_from_neighbours() -> None:
    quote = sentence("beta", 30) + " " + sentence("beta", 31)
    [row] = citecheck.verify_quotes([quote], CORPUS, window_size=60, overlap=10).rows
    assert row.status is Status.VERIFIED
    assert row.span_text == quote.rstrip(".") or row.span_text == quote


def test_ellipsis_fragments_are_located_in_order_with_a_gap_limit() -> None:
    head = sentence("gamma", 5)
    tail = sentence("gamma", 8)
    quote = f"{head[:-1]} ... {tail}"
    [row] = citecheck.verify_quotes([quote], CORPUS).rows
    assert row.status is Status.VERIFIED
    assert row.has_ellipsis
    text = CORPUS["gamma"]
    assert row.evidence[0].start == text.index(head)
    assert row.evidence[0].end >= text.index(tail) + len(tail) - 1
    [limited] = citecheck.verify_quotes([quote], CORPUS, ellipsis_max_gap=0, window_size=60).rows
    assert limited.status is not Status.VERIFIED


def test_an_elided_negation_is_reported() -> None:
    docs = {"d": prose(5, 10) + " The drug did not reduce pain in the trial. " + prose(6, 10)}
    [row] = citecheck.verify_quotes(["The drug did … reduce pain in the trial"], docs).rows
    assert row.status is Status.PARTIAL
    assert "'not'" in row.reason


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        (lambda s: s.replace("says the", "says not the"), "'not'"),
        (lambda s: s.replace("Sentence 3-12", "Sentence 3-13"), "13"),
    ],
)
def test_changes_of_meaning_are_never_verified(change: object, expected: str) -> None:
    quote = change(sentence("gamma", 12))  # type: ignore[operator]
    [row] = citecheck.verify_quotes([quote], CORPUS).rows
    assert row.status is not Status.VERIFIED


def test_a_quote_from_elsewhere_is_unsupported_with_the_near_miss() -> None:
    [row] = citecheck.verify_quotes([prose(42, 1)], CORPUS).rows
    assert row.status is Status.UNSUPPORTED
    assert "closest passage" in row.reason
    assert row.match_ratio is not None
    assert row.match_ratio < 0.8


def test_both_engines_pick_the_same_window() -> None:
    windows = make_windows([Document(k, v) for k, v in CORPUS.items()], 200, 60)
    tokens = tokenize(sentence("alpha", 33))
    bm25s_best = int(BM25Index(windows, engine="bm25s").scores(tokens).argmax())
    rank_best = int(BM25Index(windows, engine="rank_bm25").scores(tokens).argmax())
    assert bm25s_best == rank_best
    rows = [
        citecheck.verify_quotes([sentence("beta", 44)], CORPUS, engine=engine).rows[0]
        for engine in ("bm25s", "rank_bm25")
    ]
    assert rows[0].evidence[0].span == rows[1].evidence[0].span


def test_the_index_scores_every_window_as_bm25s_itself_does() -> None:
    import numpy as np

    windows = make_windows([Document(k, v) for k, v in CORPUS.items()], 200, 60)
    index = BM25Index(windows, engine="bm25s")
    rng = random.Random(5)
    for _ in range(20):  # common words score through dense rows, rare ones sparsely
        tokens = [rng.choice([*WORDS, "the", "says", "unseen"]) for _ in range(rng.randint(1, 15))]
        known = [t for t in tokens if t != "unseen"]
        expected = index._model.get_scores(known) if known else np.zeros(len(windows))
        assert np.allclose(index.scores(tokens), expected, atol=1e-4)


@pytest.mark.parametrize("method", ["fuzzy", "sliding_bm25", "hybrid"])
def test_every_trim_method_finds_the_passage(method: str) -> None:
    quote = sentence("alpha", 50)
    [row] = citecheck.verify_quotes([quote.replace("a", "4", 1)], CORPUS, trim_method=method).rows
    assert row.source_doc == "alpha"
    start = CORPUS["alpha"].index(quote)
    assert abs(row.evidence[0].start - start) <= 2
    assert (row.match_ratio or 0) > 0.9


def test_untrimmed_spans_are_whole_windows() -> None:
    [row] = citecheck.verify_quotes([sentence("alpha", 2)], CORPUS, trim_spans=False).rows
    assert row.span_text is not None
    assert row.evidence[0].method == "bm25"


def test_cosine_similarity_comes_from_the_embedder() -> None:
    embedder = HashingEmbedder()
    quotes = [sentence("alpha", 1), sentence("beta", 1), sentence("alpha", 1)]
    report = citecheck.verify_quotes(quotes, CORPUS, embedder=embedder)
    assert all(r.cosine_similarity is not None and r.cosine_similarity > 0.95 for r in report.rows)
    assert embedder.calls == 2  # quotes and spans embedded in one batch each
    stats = report.stats()
    assert stats["min_cosine"] is not None
    assert stats["max_cosine"] <= 1.0


def test_stats_cover_every_documented_metric() -> None:
    quotes = [sentence("alpha", 4), f"{sentence('beta', 2)[:-1]} ... {sentence('beta', 3)}"]
    stats = citecheck.verify_quotes(quotes, CORPUS).stats()
    for key in (
        "n_quotes", "n_with_ellipses", "mean_bm25_score", "median_bm25_score", "mean_bm25_ratio",
        "median_bm25_ratio", "mean_cosine", "median_cosine", "min_cosine", "max_cosine",
        "mean_match_ratio", "n_low_match_confidence", "mean_span_length",
    ):  # fmt: skip
        assert key in stats
    assert stats["n_quotes"] == 2
    assert stats["n_with_ellipses"] == 1
    assert stats["mean_cosine"] is None


def test_bad_quotes_get_rows_and_the_run_goes_on() -> None:
    quotes = ["", "   ", 42, None, "of the and to", sentence("alpha", 9), CORPUS["alpha"] * 2]
    report = citecheck.verify_quotes(quotes, CORPUS)
    statuses = [r.status for r in report.rows]
    assert statuses[:5] == [Status.UNCHECKED] * 5
    assert "empty" in report.rows[0].reason
    assert "int" in report.rows[2].reason
    assert "stop words" in report.rows[4].reason
    assert statuses[5] is Status.VERIFIED
    assert statuses[6] is Status.UNSUPPORTED
    assert "longer than any document" in report.rows[6].reason


def test_an_empty_corpus_is_unchecked_not_unsupported() -> None:
    report = citecheck.verify_quotes(["some quote here"], {})
    assert report.rows[0].status is Status.UNCHECKED
    assert "corpus is empty" in report.rows[0].reason


def test_identical_quotes_are_located_once(monkeypatch: pytest.MonkeyPatch) -> None:
    calls = []
    original = QuoteLocator._locate

    def counting(self: QuoteLocator, quote: str, *rest: object) -> object:
        calls.append(quote)
        return original(self, quote, *rest)  # type: ignore[arg-type]

    monkeypatch.setattr(QuoteLocator, "_locate", counting)
    quote = sentence("beta", 11)
    report = citecheck.verify_quotes([quote, quote, quote], CORPUS)
    assert len(calls) == 1
    assert [r.index for r in report.rows] == [0, 1, 2]
    assert report.rows[0].evidence == report.rows[2].evidence


def test_config_from_dict_and_files(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="wndow_size"):
        citecheck.verify_quotes(["x"], CORPUS, wndow_size=100)
    with pytest.raises(ConfigError, match="trim_method"):
        QuoteConfig(trim_method="magic")  # type: ignore[arg-type]
    with pytest.raises(ConfigError, match="overlap"):
        citecheck.verify_quotes(["some words"], CORPUS, window_size=50, overlap=50)
    toml = tmp_path / "q.toml"
    toml.write_text("window_size = 120\ntrim_method = 'hybrid'\nbm25_k1 = 1.2\n")
    assert QuoteConfig.from_file(toml).trim_method == "hybrid"
    (tmp_path / "q.json").write_text(json.dumps({"candidates": 5}))
    assert QuoteConfig.from_file(tmp_path / "q.json").candidates == 5
    bad = tmp_path / "bad.toml"
    bad.write_text("bogus_key = 1\n")
    with pytest.raises(ConfigError, match="bogus_key"):
        QuoteConfig.from_file(bad)
    report = citecheck.verify_quotes([sentence("alpha", 5)], CORPUS, config=toml, candidates=2)
    assert report.config.window_size == 120
    assert report.config.candidates == 2


def test_yaml_config(tmp_path: Path) -> None:
    pytest.importorskip("yaml")
    path = tmp_path / "q.yaml"
    path.write_text("trim_spans: false\nexpand_window_neighbors: 2\n")
    assert QuoteConfig.from_file(path).expand_window_neighbors == 2
    path.write_text("- not\n- a table\n")
    with pytest.raises(ConfigError, match="table"):
        QuoteConfig.from_file(path)


def test_json_and_csv_exports(tmp_path: Path) -> None:
    report = citecheck.verify_quotes([sentence("alpha", 5), prose(7, 1)], CORPUS)
    data = json.loads(report.to_json())
    assert data["rows"][0]["status"] == "verified"
    assert data["stats"]["n_quotes"] == 2
    buffer = io.StringIO()
    report.to_csv(buffer)
    rows = list(csv.DictReader(io.StringIO(buffer.getvalue())))
    assert rows[0]["source_doc"] == "alpha"
    assert rows[1]["status"] == "unsupported"
    report.stats_to_csv(tmp_path / "stats.csv")
    with (tmp_path / "stats.csv").open(newline="") as handle:
        melted = list(csv.reader(handle))
    assert melted[0] == ["variable", "value"]
    assert ["n_quotes", "2"] in melted
    report.save(tmp_path / "rows.json")
    assert json.loads((tmp_path / "rows.json").read_text())["rows"]
    with pytest.raises(ConfigError):
        report.save(tmp_path / "rows.docx")


def test_excel_export_is_sorted_for_review(tmp_path: Path) -> None:
    openpyxl = pytest.importorskip("openpyxl")
    report = citecheck.verify_quotes([sentence("alpha", 5), prose(7, 1)], CORPUS)
    path = tmp_path / "review.xlsx"
    report.to_excel(path)
    sheet = openpyxl.load_workbook(path)["quotes"]
    header = [c.value for c in sheet[1]]
    statuses = [row[header.index("status")] for row in sheet.iter_rows(min_row=2, values_only=True)]
    assert statuses == ["unsupported", "verified"]  # lowest confidence first
    quote_column = sheet.cell(row=1, column=header.index("quote") + 1).column_letter
    score_column = sheet.cell(row=1, column=header.index("bm25_score") + 1).column_letter
    assert sheet.column_dimensions[quote_column].width == 80
    assert sheet.column_dimensions[score_column].width == 15
    assert sheet[f"{quote_column}2"].alignment.wrap_text
    assert "stats" in openpyxl.load_workbook(path).sheetnames


def test_missing_extras_name_the_install(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setitem(sys.modules, "bm25s", None)
    with pytest.raises(MissingDependencyError, match=r"citecheck\[bm25\]"):
        citecheck.verify_quotes(["a quote with words"], CORPUS)
    monkeypatch.setitem(sys.modules, "openpyxl", None)
    report = citecheck.verify_quotes(["a quote with words"], CORPUS, engine="rank_bm25")
    with pytest.raises(MissingDependencyError, match=r"citecheck\[excel\]"):
        report.to_excel(tmp_path / "x.xlsx")


class TestBM25MatcherConformance(MatcherConformance):
    @pytest.fixture
    def matcher(self) -> Matcher:
        return BM25Matcher()


def test_bm25_matcher_is_registered() -> None:
    report = citecheck.verify(f'"{sentence("gamma", 40)}" [[gamma]]', CORPUS, matchers=("bm25",))
    assert report.passed
    assert report.results[0].evidence[0].method == "bm25"


def test_stop_word_quotes_respect_word_boundaries() -> None:
    docs = {"d": "And so it wasn't. It was a bit wasteful."}
    report = citecheck.verify_quotes(["and so it was", "it was"], docs)
    assert report.rows[0].status is Status.UNCHECKED
    assert report.rows[1].status is Status.VERIFIED
    assert report.rows[1].span_text == "It was"


def test_a_single_string_is_not_a_list_of_quotes() -> None:
    with pytest.raises(citecheck.InputError, match="wrap it"):
        citecheck.verify_quotes("hello world", CORPUS)
    with pytest.raises(ConfigError):
        citecheck.verify_quotes(["x"], CORPUS, config=42)  # type: ignore[arg-type]


def test_excel_cells_hold_text_never_formulas_or_control_characters(tmp_path: Path) -> None:
    openpyxl = pytest.importorskip("openpyxl")
    paged = Document.from_pages("book", ["First page words here.", "=1+1 is two on page two."])
    report = citecheck.verify_quotes(["=1+1 is two on page two"], [paged])
    path = tmp_path / "x.xlsx"
    report.to_excel(path)
    sheet = openpyxl.load_workbook(path)["quotes"]
    header = [c.value for c in sheet[1]]
    quote_cell = sheet.cell(row=2, column=header.index("quote") + 1)
    assert quote_cell.data_type == "s"
    assert str(quote_cell.value).endswith("=1+1 is two on page two")


def test_a_reused_locator_answers_each_batch_as_a_fresh_one_would() -> None:
    documents = [Document(f"doc{i}", prose(i, 40)) for i in range(4)]
    short = [documents[1].text[200:260], "the harbour ferry sailed to the moon"]
    long = [documents[3].text[1000:1400], documents[0].text[50:90]]
    locator = QuoteLocator()
    for batch in (short, long, short):  # the window size changes with the longest quote
        reused = locator.run(batch, documents)
        fresh = QuoteLocator().run(batch, documents)
        assert [row.to_dict() for row in reused.rows] == [row.to_dict() for row in fresh.rows]
    edited = [Document(d.id, d.text.replace("harbour", "haven")) for d in documents]
    start = edited[2].text.index("Sentence 2-5 ")
    sentence = edited[2].text[start : edited[2].text.index(".", start)]
    row = locator.run([sentence], edited).rows[0]  # new documents: a new index, not the old one
    assert (row.source_doc, row.span_text) == ("doc2", sentence)


@pytest.mark.parametrize(
    ("quote", "source"),
    [
        ("prices rose by 5%", "Later, prices rose by 5 points."),
        ("the temperature was -5", "At night the temperature was 5 degrees."),
        ("the temperature was 5.", "At night the temperature was -5 degrees."),
    ],
)
def test_a_sign_or_minus_at_a_quotes_end_is_never_edge_punctuation(quote: str, source: str) -> None:
    """Punctuation at a quote's ends is ignored, but a percent sign or a minus is meaning."""
    (row,) = citecheck.verify_quotes([quote], {"d": source}).rows
    assert row.status is Status.PARTIAL, row.reason


@pytest.mark.parametrize("suffix", [".json", ".csv", ".xlsx"])
def test_a_save_that_fails_half_way_leaves_the_old_file(
    tmp_path: Path, suffix: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The rows are written to a temporary file and renamed into place: a failure at the rename
    # leaves the previous report whole and no stray file beside it.
    if suffix == ".xlsx":
        pytest.importorskip("openpyxl")
    report = citecheck.verify_quotes(["the committee approved"], {"m": "The committee approved."})
    target = tmp_path / f"report{suffix}"
    report.save(target)
    before = target.read_bytes()

    def refuse(*args: object) -> None:
        raise OSError("disk full")

    monkeypatch.setattr("os.replace", refuse)
    with pytest.raises(OSError, match="disk full"):
        report.save(target)
    assert target.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == [target.name]


def test_exact_anywhere_beats_near_somewhere() -> None:
    """A quote standing verbatim in one source is verified there, even when the search ranks
    first a near duplicate of its passage in another (two versions of one licence)."""
    old = (
        "13. Miscellaneous. This License represents the complete agreement concerning subject "
        "matter hereof. If any provision is held unenforceable, it shall be reformed."
    )
    new = (
        "Other parts of the agreement are elsewhere. This License represents the complete "
        "agreement concerning the subject matter hereof."
    )
    quote = "This License represents the complete agreement concerning the subject matter hereof."
    result = citecheck.verify_quotes([quote], {"mpl-1.1": old, "mpl-2.0": new}).results[0]
    assert result.status is Status.VERIFIED, result.reason
    evidence = result.evidence[0]
    assert evidence.source_id == "mpl-2.0"
    assert new[evidence.start : evidence.end].rstrip(".") == quote.rstrip(".")
