"""The hard-pair generator of the judge's training (``benchmarks/hard_pairs.py``)."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))

import hard_pairs as hp

EVIDENCE = (
    "The survey ran in 2019. Sales increased by 12 percent in Germany, and prices rose in "
    "March; the firm was founded by Anna Berg. Most employees did not agree that their "
    "managers delegated more. The dataset was annotated by human annotators in Canada."
)
OTHER = "Critics in Paris praised the new Opera House, built over seven years by Marc Dupont."


def test_false_twins_change_one_thing_and_carry_their_label() -> None:
    seen: dict[str, set[int]] = {}
    for seed in range(60):
        rng = random.Random(seed)
        for claim in (
            "Sales increased by 12 percent in Germany.",
            "Most employees did not agree that their managers delegated more.",
            "The dataset was annotated by human annotators in Canada.",
        ):
            for twin in hp.twins_of(claim, EVIDENCE, OTHER, rng, false_twins=10, true_twins=4):
                assert twin.evidence == EVIDENCE
                seen.setdefault(twin.kind, set()).add(twin.label)
                if twin.kind in hp.FALSE_KINDS:
                    assert twin.label == hp.FALSE_KINDS[twin.kind]
                    assert twin.claim.strip() not in {claim, *EVIDENCE.split(". ")}
                else:
                    assert twin.kind in hp.TRUE_KINDS
                    assert twin.label == hp.SUPPORTED
    for kind in (
        "number changed",
        "negation added",
        "negation dropped",
        "direction",
        "direction in other words",
        "entity",
        "agent",
        "quantifier",
        "clause added",
        "evidence sentence",
    ):
        assert kind in seen, kind


def test_the_same_seed_gives_the_same_twins() -> None:
    pairs = [
        ("Sales increased by 12 percent in Germany.", EVIDENCE, hp.SUPPORTED),
        ("The dataset was annotated by human annotators.", EVIDENCE, hp.SUPPORTED),
        ("Prices fell.", EVIDENCE, hp.CONTRADICTED),  # not supported: no twins
        ("Critics praised the Opera House.", OTHER, hp.SUPPORTED),
    ]
    assert hp.hard_pairs(pairs, 7) == hp.hard_pairs(pairs, 7)
    made = hp.hard_pairs(pairs, 7)
    assert made
    assert all(t.claim != "Prices fell." for t in made)


def test_directions_in_other_words_say_the_other_way_with_another_stem() -> None:
    rng = random.Random(1)
    changed = hp.direction_in_other_words("Sales increased sharply in 2020.", rng)
    assert changed is not None
    assert "increas" not in changed
    assert any(p in changed for p in hp._DOWN_PHRASES)
    assert hp.direction_in_other_words("OTSL makes inference faster.", rng) == (
        "OTSL makes inference more slowly."
    )
    assert hp.direction_in_other_words("Costs are higher in winter.", rng) in {
        f"Costs are {w} in winter." for w in hp._DOWN_COMPARATIVES
    }
    assert hp.direction_in_other_words("The cat sat on the mat.", rng) is None


def test_roles_swap_between_two_names_of_a_passive() -> None:
    assert hp.swapped_roles("Otto was succeeded by Henry in 973.") == (
        "Henry was succeeded by Otto in 973."
    )
    assert hp.swapped_roles("The house was built by hand.") is None


def test_true_twins_keep_what_the_sentence_says() -> None:
    rng = random.Random(3)
    assert hp.sub_clause("If it rains, the match is played indoors next week.", rng) is None
    clause = hp.sub_clause("The bridge opened in 1932, carrying six lanes of traffic daily.", rng)
    assert clause in {None, "The bridge opened in 1932."}
    assert hp.reordered("Prices rose in spring; wages fell in autumn.", None) == (
        "Wages fell in autumn; prices rose in spring."
    )
    assert hp.function_words_changed("It took approximately three years.", rng) == (
        "It took about three years."
    )


def test_articles_agree_with_a_changed_word() -> None:
    assert hp._articles("An Dutch woman dances.", "An Irish woman dances.") == (
        "A Dutch woman dances."
    )
    assert hp._articles("It took an hour.", "It took an hour.") == "It took an hour."


@settings(max_examples=150, deadline=None)
@given(
    st.text(min_size=1, max_size=200),
    st.text(min_size=1, max_size=300),
    st.text(max_size=200),
    st.integers(0, 10_000),
)
def test_any_text_gives_twins_that_differ_from_what_they_came_from(
    claim: str, evidence: str, other: str, seed: int
) -> None:
    twins = hp.twins_of(claim, evidence, other, random.Random(seed), false_twins=10)
    for twin in twins:
        assert twin.label in (hp.SUPPORTED, hp.CONTRADICTED, hp.NO_INFO, hp.EITHER)
        if twin.kind in hp.FALSE_KINDS:
            assert twin.claim.strip() != claim.strip()


def test_negated_evidence_denies_the_claim_in_the_source_and_keeps_a_shared_not() -> None:
    claim = "The dataset was annotated by human annotators in Canada."
    made = {seed: hp.negated_evidence(claim, EVIDENCE, random.Random(seed)) for seed in range(20)}
    for twins in made.values():
        false, true = twins
        assert (false.kind, false.label) == ("negation in the evidence", hp.CONTRADICTED)
        assert (true.kind, true.label) == ("negation on both sides", hp.SUPPORTED)
        assert false.evidence == true.evidence
        assert "The dataset was not annotated by human annotators in Canada." in false.evidence
        # everything else in the source is kept
        assert false.evidence.replace("was not annotated", "was annotated") == EVIDENCE
        assert false.claim in {claim, "The dataset was annotated by human annotators in Canada."}
        assert true.claim == "The dataset was not annotated by human annotators in Canada."
    assert made[3] == hp.negated_evidence(claim, EVIDENCE, random.Random(3))
    # a sentence that already denies, or takes no auxiliary verb, gives none
    assert hp.negated_evidence("Most employees did not agree.", EVIDENCE, random.Random(0)) == []
    assert (
        hp.negated_evidence("Critics praised it.", "Critics praised it loudly.", random.Random(0))
        == []
    )
    assert set(hp.REFINEMENT_KINDS) == {"negation in the evidence", "negation on both sides"}


@settings(max_examples=60, deadline=None)
@given(st.text(min_size=1, max_size=200), st.text(min_size=1, max_size=400))
def test_negated_evidence_of_any_text_changes_only_the_evidence_by_one_not(
    claim: str, evidence: str
) -> None:
    for twin in hp.negated_evidence(claim, evidence, random.Random(0)):
        assert twin.evidence != evidence
        assert len(twin.evidence) == len(evidence) + len(" not")


@pytest.mark.parametrize(
    ("claim", "turned"),
    [
        ("Methods such as those mentioned above give a fuller analysis.", None),
        ("See below: costs rose in 2020.", "See below: costs fell in 2020."),
        ("The results shown above rose above 5.", "The results shown above rose below 5."),
        ("Temperatures stayed above zero.", "Temperatures stayed below zero."),
    ],
)  # fmt: skip
def test_a_direction_twin_leaves_above_and_below_that_point_into_the_text(
    claim: str, turned: str | None
) -> None:
    """Turning "those mentioned above" to "below" changes where the text says it, not what a
    source could show: no twin is made of it (a false twin must be false by its source)."""
    from citecheck.testing.twins import changed_direction

    made = {changed_direction(claim, random.Random(seed)) for seed in range(20)}
    if turned is None:
        assert made == {None}
    else:
        assert turned in made
        assert all(t is None or ("shown below" not in t and "See above" not in t) for t in made)


@pytest.mark.parametrize(
    ("claim", "dropped", "added"),
    [
        # a possibility and its negation can both hold: no twin either way
        ("They might not be aware that empathy may be diminished.", None, None),
        ("Affective empathy may not be impacted.", None, None),
        ("They mightn't agree.", None, None),
        ("The drug may increase the risk.", None, None),
        # "could" is also a past ability ("could not find" against "could find"): kept
        ("The team could not find the file.", "The team could find the file.", None),
        # another auxiliary beside "may" still gets its "not"
        ("It may rain and the roads are closed.", None, "the roads are not closed"),
    ],
)
def test_a_negation_twin_is_never_made_after_may_or_might(
    claim: str, dropped: str | None, added: str | None
) -> None:
    """A false twin must be false by its source: "they might be aware" is as possible as "they
    might not be aware", so a "not" after "may" or "might" is neither dropped nor added."""
    from citecheck.testing.twins import added_negation, dropped_negation

    drops = {dropped_negation(claim, random.Random(seed)) for seed in range(10)}
    adds = {added_negation(claim, random.Random(seed)) for seed in range(10)}
    assert drops == {dropped}
    if added is None:
        assert adds == {None}
    else:
        assert all(a is not None and added in a for a in adds)


@pytest.mark.parametrize(
    ("claim", "made"),
    [
        # "most" after "the" or "their" is a superlative: "their all recent win" says nothing
        ("Their most recent Super Bowl win was in 1973.", None),
        ("It is the most popular sport in most countries.",
         "It is the most popular sport in all countries."),
        ("Most households use filters.", "All households use filters."),
    ],
)  # fmt: skip
def test_a_quantifier_twin_leaves_a_superlative_alone(claim: str, made: str | None) -> None:
    from citecheck.testing.twins import changed_quantifier

    assert {changed_quantifier(claim, random.Random(seed)) for seed in range(10)} == {made}
