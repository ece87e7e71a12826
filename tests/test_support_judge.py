"""citecheck's trained support judge: its windows, its readings, its cascade with the signals,
bad input, and the meaning guard above it."""

from __future__ import annotations

import re
import shutil
from collections.abc import Sequence
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from citecheck import Document, Status, Verifier
from citecheck.errors import BackendError, ConfigError, ModelFileError
from citecheck.judging.judge_windows import best_window, sentence_windows
from citecheck.judging.support import Grade, SupportAssessor
from citecheck.language.tokens import TokenBudget, estimate_token_spans
from citecheck.testing import HashingEmbedder

# -- windows (no extra needed) ------------------------------------------------------------------

_SENTENCE = st.text(alphabet=st.sampled_from("abcdefghij klmnop.,;1234 "), min_size=1, max_size=120)


@settings(max_examples=200, deadline=None)
@given(st.lists(_SENTENCE, min_size=1, max_size=12), st.integers(min_value=2, max_value=40))
def test_windows_fit_and_cover_every_word(parts: list[str], tokens: int) -> None:
    passage = " ".join(parts)
    windows = sentence_windows(passage, tokens)
    budget = TokenBudget()
    for start, end in windows:
        assert 0 <= start < end <= len(passage)
        assert len(estimate_token_spans([passage[start:end]])[0]) <= tokens
    assert windows == sorted(windows)
    covered = {i for start, end in windows for i in range(start, end)}
    for token_start, token_end in budget.spans([passage])[0]:
        assert set(range(token_start, token_end)) <= covered, "a token no window reads"


def _words(texts: Sequence[str]) -> list[list[tuple[int, int]]]:
    return [[m.span() for m in re.finditer(r"\S+", text)] for text in texts]


BY_WORDS = TokenBudget(token_spans=_words)


def test_windows_join_neighbouring_sentences_while_they_fit() -> None:
    passage = "One two three. Four five six. Seven eight nine."
    assert sentence_windows(passage, 1000) == [(0, len(passage))]
    small = sentence_windows(passage, 6, BY_WORDS)
    assert [passage[s:e] for s, e in small] == [
        "One two three. Four five six.",
        "Four five six. Seven eight nine.",
    ]
    assert sentence_windows("   ", 10) == []
    with pytest.raises(ConfigError):
        sentence_windows(passage, 1)


def test_best_window_shares_most_words_with_the_claim() -> None:
    passage = "Cats sleep a lot. Dogs bark at night. Birds sing at dawn."
    windows = sentence_windows(passage, 4, BY_WORDS)
    start, end = best_window("Dogs bark loudly at night", passage, windows) or (0, 0)
    assert "Dogs bark at night." in passage[start:end]
    assert best_window("anything", passage, []) is None


# -- the shipped judge ---------------------------------------------------------------------------

pytest.importorskip("onnxruntime")
pytest.importorskip("tokenizers")

from citecheck.judging.support_judge import (  # noqa: E402
    WEIGHTS,
    Reading,
    SupportJudge,
    Unread,
    default_judge,
    looks_english,
)

PASSAGE = (
    "DocLayNet was annotated by 32 trained people over three months. It contains 80,863 "
    "pages from financial reports, manuals, patents and scientific articles. The annotators "
    "labelled eleven classes of layout element."
)


@pytest.fixture(scope="module")
def judge() -> SupportJudge:
    found = default_judge()
    assert found is not None
    return found


def test_the_shipped_judge_loads_offline_with_its_thresholds(judge: SupportJudge) -> None:
    assert judge.labels == ("supported", "contradicted", "not enough information")
    assert 0 < judge.partial <= judge.supported < 1
    assert (WEIGHTS / "NOTICE").read_text().count("CC BY-SA") >= 3
    assert (WEIGHTS / "support-judge.onnx").stat().st_size < 30 * 1024 * 1024
    assert default_judge() is judge  # loaded once


def test_it_tells_a_paraphrase_from_a_changed_fact(judge: SupportJudge) -> None:
    same, changed, unrelated = judge.read_pairs(
        [
            ("Thirty-two trained people annotated DocLayNet.", PASSAGE),
            ("DocLayNet was annotated by 32 people over six months.", PASSAGE),
            ("The Eiffel Tower is in Berlin.", PASSAGE),
        ]
    )
    assert isinstance(same, Reading)
    assert isinstance(changed, Reading)
    assert isinstance(unrelated, Reading)
    assert same.supported >= judge.supported
    assert changed.supported < same.supported
    assert unrelated.supported < judge.partial


def test_a_pair_reads_the_same_whatever_else_is_asked_with_it(judge: SupportJudge) -> None:
    # The int8 model quantizes its activations at each run: run in a batch, a pair was read
    # through its companions' scale and padding (up to 34 points apart). Each runs alone.
    pair = ("DocLayNet was annotated by 32 people over six months.", PASSAGE)
    others = [(f"Claim {i} about {'layout ' * i}pages.", PASSAGE[: 40 + 7 * i]) for i in range(9)]
    alone = judge.engine.classify_pairs([pair])
    among = judge.engine.classify_pairs([*others[:5], pair, *others[5:]])
    assert among.shape == (10, 3)
    assert (among[5] == alone[0]).all()
    assert judge.engine.classify_pairs([]).shape == (0, 3)


def test_a_pair_reads_the_same_with_the_precision_option(
    judge: SupportJudge, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The judge multiplies 8-bit integers; on an x86 CPU without VNNI onnxruntime's fast
    product would overflow, so citecheck sets its precision option there
    (:mod:`citecheck.embedders.onnx_sessions`). The products are exact either way: forcing the
    option changes no reading, so a pair reads the same on every CPU."""
    from citecheck.embedders import onnx_sessions

    pairs = [
        ("DocLayNet was annotated by 32 people over six months.", PASSAGE),
        ("Thirty-two trained people annotated DocLayNet.", PASSAGE),
    ]
    ours = judge.engine.classify_pairs(pairs)
    monkeypatch.setattr(onnx_sessions, "integer_products_overflow", lambda: True)
    forced = SupportJudge().engine  # the shipped judge, loaded again
    options = forced.session.get_session_options()
    assert options.get_session_config_entry(onnx_sessions.PRECISION_OPTION) == "1"
    assert (forced.classify_pairs(pairs) == ours).all()


def test_a_reading_says_where_and_how_the_passage_was_cut(judge: SupportJudge) -> None:
    claim = "The annotators labelled eleven classes of layout element."
    long = " ".join(f"Filler sentence {i} says nothing of interest here." for i in range(400))
    passage = f"{long} {PASSAGE} {long}"
    [reading] = judge.read(claim, [passage])
    assert isinstance(reading, Reading)
    assert reading.windows > judge.max_windows == reading.scored
    assert "split into" in reading.note
    assert "the 8 closest to the claim were read" in reading.note
    start, end = reading.window
    assert "eleven classes" in passage[start:end]
    [whole] = judge.read(claim, [PASSAGE])
    assert isinstance(whole, Reading)
    assert whole.note == ""
    assert whole.windows == 1


def test_shorter_windows_are_read_when_asked_never_longer_than_trained() -> None:
    claim = "The annotators labelled eleven classes of layout element."
    long = " ".join(f"Filler sentence {i} says nothing of interest here." for i in range(40))
    passage = f"{long} {PASSAGE} {long}"
    trained = SupportJudge()
    short = SupportJudge(max_length=128)
    assert short.engine.max_length == 128 < trained.engine.max_length
    [wide], [narrow] = trained.read(claim, [passage]), short.read(claim, [passage])
    assert isinstance(wide, Reading)
    assert isinstance(narrow, Reading)
    assert narrow.windows > wide.windows
    start, end = narrow.window
    assert "eleven classes" in passage[start:end]
    assert len(short.engine.tokenizer.encode(passage[start:end], claim).ids) <= 128
    for wrong in (8, trained.engine.max_length + 1):
        with pytest.raises(ConfigError, match="max_length must be"):
            SupportJudge(max_length=wrong)


def test_a_megabyte_of_evidence_is_read_in_windows(judge: SupportJudge) -> None:
    passage = ("Rivers flood in spring when the snow melts. " * 24_000)[:1_000_000]
    [reading] = judge.read("Rivers flood in spring.", [passage])
    assert isinstance(reading, Reading)
    assert reading.scored == judge.max_windows < reading.windows


@pytest.mark.parametrize(
    ("claim", "passage", "reason"),
    [
        ("", PASSAGE, "the claim is empty"),
        ("DocLayNet has pages.", "  \n ", "the passage is empty"),
        (
            "Die Annotatoren haben elf Klassen von Layoutelementen in den Seiten markiert.",
            PASSAGE,
            "English only",
        ),
        (
            "DocLayNet has 80,863 pages.",
            "Le jeu de données contient des pages de rapports et de brevets.",
            "English only",
        ),
        (" ".join(["the dataset has many annotated pages"] * 900), PASSAGE, "too long"),
    ],
)
def test_what_it_cannot_read_it_says_and_does_not_score(
    judge: SupportJudge, claim: str, passage: str, reason: str
) -> None:
    [reading] = judge.read(claim, [passage])
    assert isinstance(reading, Unread)
    assert reason in reading.reason
    with pytest.raises(BackendError, match=reason):
        judge(claim, passage)


def test_english_is_told_from_other_languages() -> None:
    assert looks_english(PASSAGE)
    assert not looks_english("Thuiswerken vermindert de controle van managers over werknemers.")
    assert looks_english("DocLayNet")  # too short to tell
    assert not looks_english(
        "Der Datensatz wurde von zweiunddreißig Personen annotiert, nicht mehr."
    )


def test_a_missing_or_corrupt_model_file_names_the_fix(tmp_path: Path) -> None:
    copy = tmp_path / "judge"
    shutil.copytree(WEIGHTS, copy)
    (copy / "support-judge.onnx").unlink()
    with pytest.raises(ModelFileError, match=r"missing.*train_support\.py"):
        SupportJudge(copy)
    (copy / "support-judge.onnx").write_bytes(b"not a model")
    with pytest.raises(ModelFileError, match="cannot load the judge model"):
        SupportJudge(copy)
    (copy / "support-judge.json").write_text("{}")
    with pytest.raises(ModelFileError, match="not a judge description"):
        SupportJudge(copy)
    (copy / "support-judge.json").unlink()
    with pytest.raises(ModelFileError, match="missing"):
        SupportJudge(copy)


# -- the cascade ---------------------------------------------------------------------------------


def test_the_assessor_asks_the_judge_by_default_with_an_embedder(judge: SupportJudge) -> None:
    from citecheck.judging.support_model import FITTED_SUPPORT_MODEL as MODEL

    assessor = SupportAssessor(HashingEmbedder())
    assert assessor.judge is judge
    assert not assessor.judge_decides
    assert (assessor.supported, assessor.partial) == (MODEL.supported, MODEL.partial)
    deciding = SupportAssessor(HashingEmbedder(), judge_decides=True)
    assert (deciding.supported, deciding.partial) == (judge.supported, judge.partial)
    assert SupportAssessor(HashingEmbedder(), None).judge is None
    assert SupportAssessor(HashingEmbedder(), judge="auto", model=None).judge is judge


def test_when_the_judge_decides_its_window_is_the_evidence(judge: SupportJudge) -> None:
    assessor = SupportAssessor(HashingEmbedder(), gate=0.0, judge_decides=True)
    document = Document("doclaynet", PASSAGE)
    assessed = assessor.assess("DocLayNet has pages from patents and manuals.", document, None)
    assert assessed is not None
    assert assessed.detail.startswith("judged support")
    assert assessed.contradicted is not None
    window = assessed.evidence[0]
    assert window.method == "judge"
    assert PASSAGE[window.start : window.end] == window.text


def test_clear_cases_never_reach_the_judge(
    judge: SupportJudge, monkeypatch: pytest.MonkeyPatch
) -> None:
    asked: list[int] = []
    original = judge.engine.classify_pairs

    def counted(pairs, **options):  # type: ignore[no-untyped-def]
        asked.append(len(pairs))
        return original(pairs, **options)

    monkeypatch.setattr(judge.engine, "classify_pairs", counted)
    deciding = SupportAssessor(HashingEmbedder(), gate=0.99, judge_decides=True)
    assessed = deciding.assess("Bananas are yellow fruit.", Document("d", PASSAGE), None)
    assert assessed is not None
    assert assessed.grade is Grade.UNSUPPORTED
    assert "too low for the judge" in assessed.detail
    second = SupportAssessor(HashingEmbedder())  # the signals already say unsupported
    assessed = second.assess("Bananas are yellow fruit.", Document("d", PASSAGE), None)
    assert assessed is not None
    assert assessed.grade is Grade.UNSUPPORTED
    partly = SupportAssessor(HashingEmbedder(), supported=0.999, partial=0.0)
    assessed = partly.assess(REORDERED, Document("d", PASSAGE), None)  # no false pass at stake
    assert assessed is not None
    assert assessed.grade is Grade.PARTIAL
    assert "judge" not in assessed.detail
    assert not asked


def test_what_the_judge_cannot_read_the_signals_grade_and_say_so(judge: SupportJudge) -> None:
    assessor = SupportAssessor(HashingEmbedder(), gate=0.0, judge_decides=True)
    claim = "Die Annotatoren haben elf Klassen von Layoutelementen in den Seiten markiert."
    assessed = assessor.assess(claim, Document("d", PASSAGE), None)
    assert assessed is not None
    assert assessed.contradicted is None
    assert "not read by the judge: the judge reads English only" in assessed.detail


REORDERED = "Over three months, 32 trained people annotated DocLayNet."


def test_the_second_opinion_lowers_what_the_signals_verify(
    judge: SupportJudge, monkeypatch: pytest.MonkeyPatch
) -> None:
    signals = SupportAssessor(HashingEmbedder(), None).assess(
        REORDERED, Document("d", PASSAGE), None
    )
    assert signals is not None
    assert signals.grade is Grade.SUPPORTED
    monkeypatch.setattr(judge, "engine", _AlwaysSupported(judge.engine, CONTRADICTED))
    lowered = SupportAssessor(HashingEmbedder()).assess(REORDERED, Document("d", PASSAGE), None)
    assert lowered is not None
    assert lowered.grade is Grade.UNSUPPORTED
    assert "but the judge reads support 1% and contradiction 97%" in lowered.detail
    assert lowered.score == signals.score  # the judge lowers a grade, it does not rescore
    monkeypatch.setattr(judge, "engine", _AlwaysSupported(judge.engine, NO_INFO))
    doubted = SupportAssessor(HashingEmbedder()).assess(REORDERED, Document("d", PASSAGE), None)
    assert doubted is not None
    assert doubted.grade is Grade.PARTIAL
    monkeypatch.setattr(judge, "engine", _AlwaysSupported(judge.engine))
    kept = SupportAssessor(HashingEmbedder()).assess(REORDERED, Document("d", PASSAGE), None)
    assert kept is not None
    assert kept.grade is Grade.SUPPORTED
    assert "the judge reads support 99%" in kept.detail


class _AlwaysSupported:
    """The shipped judge's engine answering the same ``row`` (supported, contradicted, not
    enough information) to everything: "supported" unless told otherwise."""

    def __init__(self, engine: object, row: tuple[float, float, float] = (0.99, 0.005, 0.005)):
        self.engine = engine
        self.row = row

    def __getattr__(self, name: str) -> object:
        return getattr(self.engine, name)

    def classify_pairs(self, pairs, **_):  # type: ignore[no-untyped-def]
        import numpy as np

        return np.tile(self.row, (len(pairs), 1))


CONTRADICTED = (0.01, 0.97, 0.02)
NO_INFO = (0.05, 0.05, 0.9)
LEANS_CONTRADICTED = (0.38, 0.6, 0.02)


@pytest.mark.parametrize(
    "claim",
    [
        "DocLayNet was annotated by 32 trained people over six months.",
        "DocLayNet was not annotated by 32 trained people over three months.",
        "It contains 80,864 pages from financial reports, manuals, patents and articles.",
    ],
)
def test_the_meaning_guard_stands_above_the_model(
    judge: SupportJudge, monkeypatch: pytest.MonkeyPatch, claim: str
) -> None:
    monkeypatch.setattr(judge, "engine", _AlwaysSupported(judge.engine))
    assessor = SupportAssessor(HashingEmbedder(), gate=0.0, judge_decides=True)
    assessed = assessor.assess(claim, Document("d", PASSAGE), None)
    assert assessed is not None
    assert assessed.carried or assessed.score > 0.9  # a carried claim is not shown to the judge
    assert assessed.grade is not Grade.SUPPORTED
    assert assessed.conflicts
    result = Verifier(embedder=HashingEmbedder()).verify(f"{claim} [[d]]", [Document("d", PASSAGE)])
    assert result.results[0].status is not Status.VERIFIED


def test_the_verifier_takes_the_judges_second_opinion(
    judge: SupportJudge, monkeypatch: pytest.MonkeyPatch
) -> None:
    verifier = Verifier(embedder=HashingEmbedder())
    assert verifier.support is not None
    assert verifier.support.judge is judge
    monkeypatch.setattr(judge, "engine", _AlwaysSupported(judge.engine, CONTRADICTED))
    [result] = verifier.verify(f"{REORDERED} [[d]]", [Document("d", PASSAGE)]).results
    assert result.status is Status.UNSUPPORTED
    assert "the judge reads support 1% and contradiction 97%" in result.reason
    plain = Verifier(embedder=HashingEmbedder(), judge=None)
    [result] = plain.verify(f"{REORDERED} [[d]]", [Document("d", PASSAGE)]).results
    assert result.status is Status.VERIFIED


@settings(max_examples=60, deadline=None)
@given(
    st.integers(min_value=2, max_value=99_999),
    st.integers(min_value=2, max_value=99_999),
    st.sampled_from(["birds", "patients", "pages", "votes"]),
)
def test_no_changed_number_is_supported_whatever_the_judge_says(
    judge: SupportJudge, said: int, claimed: int, noun: str
) -> None:
    if said == claimed:
        return
    passage = f"The survey counted {said:,} {noun} in the second year of the study."
    claim = f"The survey counted {claimed:,} {noun} in the second year."
    engine = judge.engine
    judge.engine = _AlwaysSupported(engine)  # type: ignore[assignment]
    try:
        assessed = SupportAssessor(HashingEmbedder(), gate=0.0, judge_decides=True).assess(
            claim, Document("d", passage), None
        )
    finally:
        judge.engine = engine
    assert assessed is not None
    assert assessed.grade is not Grade.SUPPORTED


def test_record_labels_take_the_judges_last_look(
    judge: SupportJudge, monkeypatch: pytest.MonkeyPatch
) -> None:
    from citecheck.records.labels import Label, SemanticValidator

    sentence = REORDERED  # not verbatim: the judge is not asked about a verbatim citation
    validator = SemanticValidator(HashingEmbedder(), lexical_pass=False)
    assert validator.judge is judge
    monkeypatch.setattr(judge, "engine", _AlwaysSupported(judge.engine, CONTRADICTED))
    [outcome] = validator.validate_many([sentence], {"doclaynet": PASSAGE})
    assert outcome.label is Label.LIKELY_UNTRUE
    said = "moved to likely untrue: the judge reads support 1% and contradiction 97%"
    assert said in outcome.reason
    unjudged = SemanticValidator(HashingEmbedder(), lexical_pass=False, judge=None)
    [plain] = unjudged.validate_many([sentence], {"doclaynet": PASSAGE})
    assert plain.label in {Label.VERY_LIKELY_TRUE, Label.LIKELY_TRUE}
    assert "judge" not in plain.reason
    assert outcome.score == plain.score  # the score stays the cosine


def test_the_paper_library_names_a_contradiction_the_judge_reads(
    judge: SupportJudge, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    from citecheck.papers import PaperLibrary
    from papers_texts import PAPER as PAGED

    paper = tmp_path / "stoker2022.md"
    paper.write_text(PAGED, encoding="utf-8")
    library = PaperLibrary(tmp_path / "lib", embedder=HashingEmbedder())
    library.add(paper)
    assert library.judge is judge
    monkeypatch.setattr(judge, "engine", _AlwaysSupported(judge.engine, CONTRADICTED))
    result = library.validate("stoker2022", "Remote work became common after 2020.", 1)
    assert result.status is not Status.VERIFIED
    assert result.details["support"] == "contradicted"
    assert "the judge reads support 1% and contradiction 97%" in result.reason
    assert result.status is Status.UNSUPPORTED  # as the verifier and the records door say
    assert PaperLibrary(tmp_path / "lib", embedder=HashingEmbedder(), judge=None).judge is None


def test_the_paper_library_says_when_the_judge_cannot_read(
    judge: SupportJudge, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    from citecheck.papers import PaperLibrary
    from papers_texts import PAPER as PAGED

    paper = tmp_path / "stoker2022.md"
    paper.write_text(PAGED, encoding="utf-8")
    plain = PaperLibrary(tmp_path / "lib", embedder=HashingEmbedder(), judge=None)
    plain.add(paper)
    claim = "Remote work became common after 2020."
    unjudged = plain.validate("stoker2022", claim, 1)
    monkeypatch.setattr(judge.engine, "room", lambda claim: 0)  # no claim fits beside evidence
    result = PaperLibrary(tmp_path / "lib", embedder=HashingEmbedder()).validate(
        "stoker2022", claim, 1
    )
    assert result.status is unjudged.status  # the signals' grade stands
    assert "not read by the judge: the claim is too long for the judge" in result.reason


def test_many_pairs_are_read_at_once_each_with_its_own_focus(judge: SupportJudge) -> None:
    filler = " ".join(f"Filler sentence {i} says nothing of interest here." for i in range(200))
    passage = f"{filler} {PASSAGE} {filler}"
    at = passage.index("The annotators")
    claim = "The annotators labelled eleven classes of layout element."
    near, far = judge.read_pairs(
        [(claim, passage), (claim, passage)],
        focus=[[(at, at + 20)], [(0, 20)]],
    )
    assert isinstance(near, Reading)
    assert isinstance(far, Reading)
    assert near.window[0] <= at < near.window[1]
    with pytest.raises(ConfigError, match="1 focus lists for 2 pairs"):
        judge.read_pairs([(claim, passage), (claim, passage)], focus=[[(0, 1)]])


@pytest.mark.parametrize(
    ("row", "status", "said"),
    [
        (CONTRADICTED, Status.UNSUPPORTED, "the judge reads support 1% and contradiction 97%"),
        (NO_INFO, Status.PARTIAL, "the judge reads support 5%"),
        # support above the judge's partial bound, a contradiction more likely than not: the
        # judge never confirms it, and says both
        (LEANS_CONTRADICTED, Status.PARTIAL, "the judge reads support 38% and contradiction 60%"),
    ],
)
def test_every_door_reads_the_judge_in_one_way(
    judge: SupportJudge,
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    row: tuple[float, float, float],
    status: Status,
    said: str,
) -> None:
    """The judge's doubt makes a claim partial and its contradiction unsupported, in the same
    words, through the verifier, the records door and the paper library."""
    import citecheck
    from citecheck.papers import PaperLibrary

    page = "Remote work has been common since 2020 in many firms."
    claim = "Many firms have had remote work since 2020."
    paper = tmp_path / "paper.md"
    paper.write_text(f"[PAGE:1]\n{page}\n", encoding="utf-8")
    library = PaperLibrary(tmp_path / "lib", embedder=HashingEmbedder())
    library.add(paper, key="paper")
    monkeypatch.setattr(judge, "engine", _AlwaysSupported(judge.engine, row))
    results = {
        "Verifier": Verifier(embedder=HashingEmbedder())
        .verify(f"{claim} [[paper:p. 1]]", {"paper": f"[PAGE:1]\n{page}\n"})
        .results[0],
        "records": citecheck.verify_records(
            [{"id": "r", "source_text": page, "citations": [{"citation": claim}]}],
            embedder=HashingEmbedder(),
        ).results[0],
        "papers": library.validate("paper", claim, 1),
    }
    for door, result in results.items():
        assert result.status is status, (door, result.reason)
        assert said in result.reason, (door, result.reason)
