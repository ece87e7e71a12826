"""The one claim-support engine: one grade per passage (``SupportAssessor.grade``), one reading
of the trained judge (``Look``), and names the passage swaps, at every door."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

import citecheck
from citecheck import Document, PaperLibrary, Result, Status
from citecheck.judging.guard import unnamed
from citecheck.judging.support import Grade, Graded, Look, SupportAssessor
from citecheck.testing import HashingEmbedder

_ORDER = {Grade.SUPPORTED: 2, Grade.PARTIAL: 1, Grade.UNSUPPORTED: 0}


@pytest.mark.parametrize(
    ("look", "outcome"),
    [
        (Look(0.9, 0.01, 0.25), "confirms"),
        (Look(0.25, 0.1, 0.25), "confirms"),  # at the bound: support stands
        # support above the bound, but a contradiction read as more likely than not: never
        # confirms (a claim the signals verify is partly supported, not refuted)
        (Look(0.4, 0.6, 0.25), "doubts"),
        (Look(0.25, 0.5, 0.25), "doubts"),
        (Look(0.45, 0.49, 0.25), "confirms"),
        (Look(0.1, 0.2, 0.25), "doubts"),
        (Look(0.1, 0.5, 0.25), "refutes"),
        (Look(unread="the claim is not English"), "unread"),
    ],
)
def test_one_rule_reads_the_judge(look: Look, outcome: str) -> None:
    assert look.outcome == outcome


@given(
    probability=st.floats(0, 1),
    supported=st.floats(0.3, 0.9),
    conflicts=st.lists(st.sampled_from(["the claim says 'rose' where the source says 'fell'"])),
    gaps=st.lists(st.sampled_from(["the claim names 'GPT-4', which the passage does not"])),
    look=st.none() | st.builds(Look, st.floats(0, 1), st.floats(0, 1), st.floats(0, 1)),
)
def test_nothing_raises_a_grade(
    probability: float,
    supported: float,
    conflicts: list[str],
    gaps: list[str],
    look: Look | None,
) -> None:
    """The guard and the judge can only lower what the signals read; a change or a gap is
    never supported, a contradiction the judge reads is unsupported."""
    document = Document("d", "A passage.")
    evidence = document.evidence(0, 10, 0.0, "test")
    bare = Graded(evidence, probability, (supported, supported / 2), "")
    graded = Graded(
        evidence, probability, (supported, supported / 2), "", tuple(conflicts), tuple(gaps),
        look=look,
    )  # fmt: skip
    assert _ORDER[graded.grade] <= _ORDER[bare.grade]
    if conflicts or gaps:
        assert graded.grade is not Grade.SUPPORTED
    if look is not None and look.outcome == "refutes":
        assert graded.grade is Grade.UNSUPPORTED


def test_the_grade_names_a_change_in_the_sentence_beside_the_passage() -> None:
    text = (
        "Staff in the survey said the new scheduling tool cut overtime across all teams. "
        "The new scheduling tool did not cut overtime across all teams, the payroll shows."
    )
    document = Document("d", text)
    engine = SupportAssessor(HashingEmbedder(), None)
    passage = document.evidence(0, text.index(" The new"), 0.0, "test", {"cosine": 0.95})
    graded = engine.grade(
        "The new scheduling tool cut overtime across teams.", document, passage, None
    )
    assert graded.grade is not Grade.SUPPORTED
    assert any("in the passage beside it" in change for change in graded.conflicts), (
        graded.conflicts
    )


SURVEY = " ".join(f"Runner {n} answered question {n} of the survey." for n in range(40))
FAR_OFF = (
    "Regular exercise keeps the heart healthy at rest. "
    f"{SURVEY} "  # over a thousand characters: past the text read around the passage
    "Workouts also condition the heart to beat more slowly during periods of rest."
)
SLOWER = "Regular exercise conditions the heart to beat less slowly during periods of rest."


def test_the_grade_names_a_change_where_the_claim_is_written_most_plainly() -> None:
    # falsify.py --seed 7: the passage closest in meaning is not the sentence the claim takes
    # its words from, which stands further down the page and says the other way
    document = Document("d", FAR_OFF)
    engine = SupportAssessor(HashingEmbedder(), None)
    passage = document.evidence(0, FAR_OFF.index(" Runner 0"), 0.0, "test", {"cosine": 0.95})
    claim = SLOWER
    graded = engine.grade(claim, document, passage, None)
    assert graded.grade is not Grade.SUPPORTED
    assert graded.conflicts == (
        "the claim says 'less' where the source says 'more' (in the passage further off: "
        "“… also condition the heart to beat more slowly during periods of rest.”)",
    )
    same = engine.grade(claim.replace("less", "more"), document, passage, None)
    assert same.conflicts == ()


def through_every_door(tmp_path: Path, claim: str, page: str) -> dict[str, tuple[Result, str]]:
    """``claim`` cited to page 1 of a paper whose page is ``page``, through the Verifier, the
    records door and a paper library: each door's result, with the text its offsets index."""
    paged = f"[PAGE:1]\n{page}\n"
    paper = tmp_path / "paper.md"
    paper.write_text(paged, encoding="utf-8")
    library = PaperLibrary(tmp_path / "lib", embedder=HashingEmbedder(), judge=None)
    library.add(paper, key="paper")
    verifier = citecheck.Verifier(embedder=HashingEmbedder(), judge=None)
    record = {"id": "r", "source_text": page, "citations": [{"citation": claim}]}
    return {
        "Verifier": (
            verifier.verify(f"{claim} [[paper:p. 1]]", {"paper": paged}).results[0],
            paged,
        ),
        "records": (
            citecheck.verify_records([record], embedder=HashingEmbedder()).results[0],
            page,
        ),
        "papers": (library.validate("paper", claim, 1), paged),
    }


OVERTIME = (
    "Staff in the survey said the new scheduling tool cut overtime across all teams. "
    "The new scheduling tool did not cut overtime across all teams, the payroll shows. "
    "Payroll records cover the whole year."
)
DENIAL = "The new scheduling tool did not cut overtime across all teams, the payroll shows."


@pytest.mark.parametrize(
    ("claim", "status"),
    [
        # a paraphrase: the guard reads the denial beside its passage
        (
            "The new scheduling tool reduced overtime for teams, staff said in the survey.",
            "partial",
        ),
        # words one sentence says: true as written there, the denial beside it listed
        ("Staff said the scheduling tool cut overtime in all of the teams.", "verified"),
    ],
)
def test_every_door_lists_the_passage_that_qualifies_a_claim(
    tmp_path: Path, claim: str, status: str
) -> None:
    """One judgement at every door: the same status, and ``details["qualifying"]`` names the
    sentence that denies the claim, with its source, offsets, page and why."""
    results = through_every_door(tmp_path, claim, OVERTIME)
    for door, (result, text) in results.items():
        assert result.status == status, (door, result.reason)
        [qualifying] = result.details["qualifying"]
        assert qualifying["text"] == DENIAL, door
        assert text[qualifying["start"] : qualifying["end"]] == DENIAL, door
        assert "negation 'not'" in qualifying["why"], door
        assert qualifying["page"] == (None if door == "records" else 1), door


PAGE = (
    "PubLayNet was built from medical articles in PubMed Central. "
    "DocLayNet contains 80863 pages from six document categories."
)


@pytest.mark.parametrize(
    ("claim", "verified"),
    [
        ("DocLayNet contains 80863 pages from six document categories.", True),
        ("PubLayNet contains 80863 pages from six document categories.", False),
        ("The GPT-4 corpus contains 80863 pages from six document categories.", False),
    ],
)
def test_a_name_the_passage_swaps_is_never_verified(
    tmp_path: Path, claim: str, verified: bool
) -> None:
    """A claim that gives another of the document's names than its passage ("PubLayNet" for
    "DocLayNet", though the sentence before names PubLayNet) is not verified at any door."""
    results = through_every_door(tmp_path, claim, PAGE)
    for door, (result, _) in results.items():
        assert (result.status is Status.VERIFIED) is verified, (door, result.reason)


def test_a_swapped_name_is_a_change_and_a_missing_one_a_gap() -> None:
    document = PAGE
    passage = "DocLayNet contains 80863 pages from six document categories."
    swapped = unnamed("PubLayNet contains 80863 pages.", passage, document, document)
    assert swapped == ["the claim names 'PubLayNet' where the passage names 'DocLayNet'"]
    assert unnamed("It has 80863 pages.", passage, document, document) == []
    missing = unnamed("The H5N1 set contains 80863 pages.", "It contains 80863 pages.", document)
    assert missing == ["the claim names 'H5N1', which the passage does not"]
    # a name the text near the passage gives (a pronoun's antecedent) is no gap
    assert unnamed("PubLayNet holds articles.", "It holds articles.", document, document) == []


@pytest.mark.parametrize(
    ("claim", "passage"),
    [
        ("Deaths from COVID19 rose.", "Deaths from COVID-19 rose."),  # spelling
        ("SARS-CoV-2-associated injury was common.", "SARS-CoV-2 injury was common."),
        ("Deaths from COVD-19 rose.", "Deaths from COVID-19 rose."),  # a typo
        ("It flew on December 15th, 2006.", "It flew on December 15, 2006."),  # an ordinal
    ],
)
def test_names_written_otherwise_are_no_change(claim: str, passage: str) -> None:
    assert unnamed(claim, passage, passage, passage) == []


def test_a_list_of_names_is_not_read_as_swapped() -> None:
    passage = "TH1-type and TH17-type cytokines rose."
    found = unnamed("IL-1, IL-2 and IL-6 rose.", passage, passage, passage)
    assert found
    assert not any("where the passage names" in change for change in found)


def test_the_rules_benchmark_reads_the_judge_by_the_rule_it_names() -> None:
    """``benchmarks/judge_rules.py`` grades the default path under the rule before 29 November
    (support above the bound confirms, whatever the contradiction) and puts the shipped rule
    back after."""
    import sys

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
    import judge_rules

    leaning = Look(0.4, 0.6, 0.25)
    assert leaning.outcome == "doubts"
    with judge_rules.reading(judge_rules.before):
        assert leaning.outcome == "confirms"
        assert Look(0.1, 0.6, 0.25).outcome == "refutes"
    assert leaning.outcome == "doubts"
    with judge_rules.reading(None):
        assert leaning.outcome == "doubts"


def test_the_guard_rules_benchmark_turns_the_rule_it_names_off_at_every_door() -> None:
    """``benchmarks/guard_rules.py`` grades the default path without one rule of the guard
    (the function finds nothing wherever it is called) and puts the rule back after."""
    import sys

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
    import guard_rules

    from citecheck.judging import guard
    from citecheck.verification import verifier

    claim = "Sounds of the Challenges is an album from Depeche Mode."
    source = "Sounds of the Universe is the twelfth studio album by Depeche Mode."
    assert guard.unnamed(claim, source, source)
    with guard_rules.without("stranger_names"):
        assert guard.unnamed(claim, source, source) == []
        assert verifier.stranger_names(claim, source) == []
    assert guard.unnamed(claim, source, source)
    assert verifier.stranger_names(claim, source)
    engine = SupportAssessor(HashingEmbedder(), None)
    document = Document("d", FAR_OFF)
    passage = document.evidence(0, FAR_OFF.index(" Runner 0"), 0.0, "test", {"cosine": 0.95})
    with guard_rules.without("_far_off"):
        assert engine.grade(SLOWER, document, passage, None).conflicts == ()
    assert engine.grade(SLOWER, document, passage, None).conflicts


def test_the_falsification_table_draws_another_sample_from_another_seed() -> None:
    """``benchmarks/falsify.py --seed N`` makes other twins of the same claim (a sample no
    rule was fitted to), and its own seed makes the table's twins as before."""
    import random
    import sys

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
    import falsify

    claim = "Sounds of the Universe was released by Mute Records in April 2009 in Europe."
    names = ["Harrison", "Mercury Records", "Lisbon", "Octavia", "Julius", "Madrid"]

    def twins(seed: int) -> list[str]:
        rng = random.Random(seed)
        return [t[1] for t in falsify.twins_of(claim, claim, rng, None, names, seed)]

    assert twins(falsify.SEED) == twins(falsify.SEED)
    assert twins(falsify.SEED) != twins(7)


@pytest.mark.parametrize(
    ("focus", "shown"),
    [
        (None, "“Title: Does Running Lower Your Pulse? Text: Cardio workouts make the heart …”"),
        ("more", "“… Cardio workouts make the heart beat more slowly during periods of rest.”"),
        (
            "absent",
            "“Title: Does Running Lower Your Pulse? Text: Cardio workouts make the heart …”",
        ),
    ],
)
def test_a_passage_is_quoted_around_the_word_its_change_names(
    focus: str | None, shown: str
) -> None:
    from citecheck.judging.support import _short

    text = (
        "Title: Does Running Lower Your Pulse? Text: Cardio workouts make the heart beat more "
        "slowly during periods of rest."
    )
    assert _short(text, focus=focus) == shown
    assert _short("Short and plain.", focus="plain") == "“Short and plain.”"
