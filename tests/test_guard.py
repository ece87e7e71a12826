"""The meaning guard: a changed number, a flipped negation or a flipped quantifier is never
``verified`` — in lexical and semantic mode, for quotes, claims and records, whatever an
embedder, the support model or a judge says."""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import citecheck
from citecheck import Status, Verifier
from citecheck.judging.guard import claim_conflicts
from citecheck.judging.judges import CallableJudge
from citecheck.records.labels import Label, SemanticValidator
from citecheck.testing import HashingEmbedder


class SameVector:
    """The worst scorer: every text embeds alike, so every claim looks supported."""

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        return [[1.0, 0.0] for _ in texts]

    def embed_query(self, text: str) -> list[float]:
        return [1.0, 0.0]


VERIFIERS = {
    "lexical": lambda: Verifier(),
    "semantic, hashing embedder": lambda: Verifier(embedder=HashingEmbedder()),
    "semantic, every text alike": lambda: Verifier(embedder=SameVector()),
    "semantic, bare cosine": lambda: Verifier(embedder=SameVector(), support_model=None),
    "a judge that always agrees": lambda: Verifier(judge=CallableJudge(lambda c, e: 1.0)),
}

SUBJECTS = ["The drug", "The committee", "The new policy", "The survey team", "Our model"]
VERBS = [
    ("reduced", "reduce"),
    ("increased", "increase"),
    ("approved", "approve"),
    ("measured", "measure"),
    ("improved", "improve"),
]
OBJECTS = ["mortality", "the budget", "rainfall", "the costs", "accuracy"]
NUMBER_WORDS = "two three four five six seven eight nine ten eleven twelve twenty".split()
UNITS = ["months", "weeks", "years", "days"]


@dataclass(frozen=True)
class Pair:
    """A source sentence, a claim that changes one fact of it, and a word the reason names."""

    source: str
    claim: str
    named: str


@st.composite
def facts(draw: st.DrawFn) -> tuple[str, tuple[str, str], str]:
    return (
        draw(st.sampled_from(SUBJECTS)),
        draw(st.sampled_from(VERBS)),
        draw(st.sampled_from(OBJECTS)),
    )


def _number(draw: st.DrawFn) -> tuple[str, str]:
    """Two different numbers, each in digits or in words."""
    first, second = draw(
        st.lists(st.integers(2, 12), min_size=2, max_size=2, unique=True).map(tuple)
    )

    def written(n: int) -> str:
        return NUMBER_WORDS[n - 2] if draw(st.booleans()) and n <= 12 else str(n)

    return written(first), written(second)


@st.composite
def changed_numbers(draw: st.DrawFn) -> Pair:
    subject, (verb, _), obj = draw(facts())
    unit = draw(st.sampled_from(UNITS))
    ours, theirs = _number(draw)
    source = f"{subject} {verb} {obj} over {theirs} {unit} in the northern district."
    claim = f"{subject} {verb} {obj} over {ours} {unit} in the northern district"
    return Pair(source, claim, ours)


@st.composite
def changed_units(draw: st.DrawFn) -> Pair:
    subject, (verb, _), obj = draw(facts())
    ours, theirs = draw(st.lists(st.sampled_from(UNITS), min_size=2, max_size=2, unique=True))
    n = draw(st.integers(2, 40))
    source = f"{subject} {verb} {obj} over {n} {theirs} in the northern district."
    return Pair(source, f"{subject} {verb} {obj} over {n} {ours} in the northern district", ours)


@st.composite
def changed_scales(draw: st.DrawFn) -> Pair:
    subject, (verb, _), obj = draw(facts())
    ours, theirs = draw(
        st.lists(
            st.sampled_from(["thousand", "million", "billion"]), min_size=2, max_size=2, unique=True
        )
    )
    n = draw(st.integers(2, 90))
    source = f"{subject} {verb} {obj} by {n} {theirs} dollars last year."
    return Pair(source, f"{subject} {verb} {obj} by {n} {ours} dollars last year", ours)


@st.composite
def added_negations(draw: st.DrawFn) -> Pair:
    subject, (verb, base), obj = draw(facts())
    negation = draw(st.sampled_from(["did not", "never", "didn't"]))
    said = f"{negation} {base}" if negation != "never" else f"never {verb}"
    source = f"{subject} {verb} {obj} in the northern district last year."
    claim = f"{subject} {said} {obj} in the northern district last year"
    return Pair(source, claim, negation.split()[-1].replace("didn't", "not"))


@st.composite
def dropped_negations(draw: st.DrawFn) -> Pair:
    pair = draw(added_negations())
    return Pair(pair.claim + ".", pair.source.rstrip("."), pair.named)


@st.composite
def universal_quantifiers(draw: st.DrawFn) -> Pair:
    subject, (verb, _), obj = draw(facts())
    limited = draw(st.sampled_from(["some", "most", "several", "a few"]))
    source = f"{subject} {verb} {obj} in {limited} northern districts last year."
    return Pair(source, f"{subject} {verb} {obj} in all northern districts last year", "all")


CHANGES = st.one_of(
    changed_numbers(),
    changed_units(),
    changed_scales(),
    added_negations(),
    dropped_negations(),
    universal_quantifiers(),
)


@pytest.mark.parametrize("mode", list(VERIFIERS))
@settings(max_examples=60, deadline=None)
@given(pair=CHANGES, quoted=st.booleans())
def test_a_change_of_meaning_is_never_verified(mode: str, pair: Pair, quoted: bool) -> None:
    claim = f'"{pair.claim}"' if quoted else pair.claim
    text = f"{claim} [[paper]]."
    sources = {"paper": f"Results were mixed.\n{pair.source}\nThe report ends here.\n"}
    [result] = VERIFIERS[mode]().verify(text, sources).results
    assert result.status is not Status.VERIFIED, result.reason
    if result.status is Status.PARTIAL:
        assert pair.named.lower() in result.reason.lower(), result.reason


@pytest.mark.parametrize("mode", list(VERIFIERS))
@settings(max_examples=30, deadline=None)
@given(pair=CHANGES)
def test_the_unchanged_fact_is_verified(mode: str, pair: Pair) -> None:
    """The other half of the property: the guard does not refuse what the source says."""
    text = f"{pair.source.rstrip('.')} [[paper]]."
    sources = {"paper": f"Results were mixed.\n{pair.source}\nThe report ends here.\n"}
    [result] = VERIFIERS[mode]().verify(text, sources).results
    assert result.status is Status.VERIFIED, result.reason


@settings(max_examples=80, deadline=None)
@given(pair=CHANGES)
def test_a_record_with_a_change_of_meaning_is_never_likely_true(pair: Pair) -> None:
    validator = SemanticValidator(SameVector(), lexical_pass=False)
    outcome = validator.validate(pair.claim, pair.source)
    assert outcome.label not in (Label.VERY_LIKELY_TRUE, Label.LIKELY_TRUE), outcome.reason
    assert "meaning guard" in outcome.reason


@settings(max_examples=80, deadline=None)
@given(pair=CHANGES)
def test_claim_conflicts_name_the_change(pair: Pair) -> None:
    found = claim_conflicts(pair.claim, pair.source)
    assert found
    assert any(pair.named.lower() in conflict.lower() for conflict in found), found
    assert claim_conflicts(pair.source, pair.source) == []


@pytest.mark.parametrize(
    ("claim", "passage"),
    [
        ("The trial ran for six months", "The trial ran for 6 months."),
        ("Revenue reached $5 million", "Revenue reached 5,000,000 dollars."),
        ("The river flooded two times", "The river flooded twice in spring."),
        ("Rain fell by 12% in ten years", "Rain fell by 12 percent over the decade."),
        ("Mortality was not reduced by the drug", "The drug did not reduce mortality."),
        ("The drug reduced mortality", "The drug reduced mortality, but it did not affect sleep."),
        ("Most farms switched to wheat", "Most farms in the district switched to wheat."),
        ("The drug did not fail to reduce mortality", "The drug reduced mortality."),
        ("The island is not lacking fresh water", "The island has fresh water."),
    ],
)
def test_paraphrases_that_keep_the_facts_pass_the_guard(claim: str, passage: str) -> None:
    assert claim_conflicts(claim, passage) == []


@pytest.mark.parametrize(
    ("claim", "passage", "named"),
    [
        ("Mortality fell", "Mortality did not fall in the trial.", "not"),
        ("The drug still works", "The drug no longer works.", "no"),
        ("It always rains in May", "It often rains in May.", "always"),
        ("Doses of 5 mg were given", "Doses of 5 g were given.", "5 mg"),
        ("It cost $5 billion", "It cost $5 million.", "5 billion"),
        ("All patients recovered", "Some patients recovered.", "all"),
        (  # "non-indexed" elsewhere in the claim does not stand for the source's "not indexed"
            "The deep web is indexed by standard search engines and includes non-indexed sites",
            "Its contents are not indexed by standard web search engines.",
            "not",
        ),
        ("Spence is not 21", "Spence is 21 years old.", "not"),  # a negation of a number
        # two denials in a row affirm: "not barely" is no "barely"
        (
            "Harvard is not barely residential",
            "Harvard is a barely residential university.",
            "barely",
        ),
        ("Parents may not lack the resources", "Young parents lack the resources.", "lack"),
    ],
)
def test_changes_a_paraphrase_may_not_make(claim: str, passage: str, named: str) -> None:
    found = claim_conflicts(claim, passage)
    assert any(named in conflict for conflict in found), found


def test_the_issue_examples_are_never_verified_with_an_embedder() -> None:
    pytest.importorskip("sentence_transformers")
    from citecheck.embedders import SentenceTransformerEmbedder

    verifier = Verifier(embedder=SentenceTransformerEmbedder())
    source = {
        "paper": "The drug did not reduce mortality. The data were annotated by 32 trained "
        "human annotators over three months. The classifier distinguishes eleven classes."
    }
    for claim, named in [
        ("The drug reduced mortality [[paper]].", "not"),
        (
            "The data were annotated by 32 trained human annotators over six months [[paper]].",
            "six",
        ),
        ("The classifier distinguishes twelve classes [[paper]].", "twelve"),
    ]:
        [result] = verifier.verify(claim, source).results
        # partial by the guard; unsupported where the judge also reads a contradiction
        assert result.status in {Status.PARTIAL, Status.UNSUPPORTED}, result.reason
        assert named in result.reason


def test_a_quote_with_a_change_cited_to_a_page_of_an_unpaged_source_is_not_unchecked() -> None:
    source = {"doc": "The drug did not reduce mortality in 32 patients.\n" * 3}
    for quote in (
        '"The drug reduced mortality in 32 patients"',
        '"The drug did not reduce mortality in 33 patients"',
    ):
        for verifier in (Verifier(), Verifier(lines_per_page=None)):
            [result] = verifier.verify(f"{quote} [[doc:p1]]", source).results
            assert result.status is Status.PARTIAL, result.reason
            assert "line 1" not in result.reason or "change of meaning" in result.reason


def test_a_page_of_an_unpaged_source_is_approximated_and_says_so() -> None:
    lines = [f"Filler line {n}." for n in range(1, 121)]
    lines[6] = "The harbour master counted the fishing boats."
    lines[76] = "The cormorant nested on the western cliff."
    lines[16] = "A storm closed the northern pier for a week."
    source = {"doc": "\n".join(lines) + "\n"}
    [result] = citecheck.verify(
        '"The cormorant nested on the western cliff" [[doc:p2]]', source
    ).results
    assert result.status is Status.VERIFIED
    assert "approximated as lines 51-100 at 50 lines a page" in result.reason
    assert result.evidence[0].line == 77
    harbour = '"The harbour master counted the fishing boats"'
    [moved] = citecheck.verify(f"{harbour} [[doc:p2]]", source).results
    assert moved.status is Status.WRONG_LOCATION
    assert moved.evidence[0].line == 7
    [beyond] = citecheck.verify(f"{harbour} [[doc:p9]]", source).results
    assert beyond.status is Status.UNCHECKED
    assert "past its 120 lines" in beyond.reason
    storm = '"A storm closed the northern pier for a week"'
    [custom] = Verifier(lines_per_page=10).verify(f"{storm} [[doc:p2]]", source).results
    assert custom.status is Status.VERIFIED
    assert "lines 11-20 at 10 lines a page" in custom.reason
    with pytest.raises(citecheck.ConfigError):
        Verifier(lines_per_page=0)


REVIEWED = [
    ("A million people died in the war", "A billion people died in the war."),
    ("Only one patient died in the trial", "Only two patients died in the trial."),
    ("Thousands of patients joined the trial", "Hundreds of patients joined the trial."),
    ("The cost doubled after the reform", "The cost tripled after the reform."),
    ("Prices rose by 5 percent last year", "Prices fell by 5 percent last year."),
    ("The treatment was effective in adults", "The treatment was ineffective in adults."),
    ("Non-smokers had a higher risk of stroke", "Smokers had a higher risk of stroke."),
    ("Most patients improved after surgery", "Few patients improved after surgery."),
    ("Sales rose in Q4 (2021) across the region", "Sales rose in Q4 (2020) across the region."),
    ("The samples were stored at 5 mi from here", "The samples were stored at 5 ml from here."),
    ("The team lost the match", "The team won the match."),
    ("Half of the patients improved", "A quarter of the patients improved."),
    ("A third of the patients improved", "A quarter of the patients improved."),
    ("The H5N1 strain infected 20 people", "The H7N9 strain infected 20 people."),
    ("The event happened on 3/4/2020 in Paris", "The event happened on 4/3/2020 in Paris."),
    ("Il farmaco non ha ridotto la mortalita", "Il farmaco ha ridotto la mortalita."),
    ("The drug hardly reduced mortality", "The drug greatly reduced mortality."),
    ("The p value was p < 0.05 in the trial", "The p value was p > 0.05 in the trial."),
    ("Patients recovered after the surgery", "No patients recovered after the surgery."),
    ("The ticket cost $5 each at the door", "The ticket cost €5 each at the door."),
    ("They played four dates in Spain", "They played tour dates in Spain."),
]  # fmt: skip


@pytest.mark.parametrize(("claim", "source"), REVIEWED)
@pytest.mark.parametrize("mode", list(VERIFIERS))
def test_what_a_review_found_is_never_verified(mode: str, claim: str, source: str) -> None:
    for text in (f"{claim} [[doc]].", f'"{claim}" [[doc]].'):
        [result] = VERIFIERS[mode]().verify(text, {"doc": source}).results
        assert result.status is not Status.VERIFIED, (text, result.reason)


def test_another_sentence_adds_a_change_but_never_excuses_one() -> None:
    judge = VERIFIERS["a judge that always agrees"]()
    for claim, source in [
        ("The vaccine did not reduce mortality", "The drug did not reduce mortality. The "
         "vaccine reduced mortality."),
        ("All patients recovered after the surgery", "Some patients recovered after the "
         "surgery. All patients were discharged."),
    ]:  # fmt: skip
        [result] = judge.verify(f"{claim} [[doc]].", {"doc": source}).results
        assert result.status is not Status.VERIFIED, result.reason


def test_a_claim_may_write_a_sign_as_a_word() -> None:
    # A quotation keeps its signs; a claim paraphrases, and "percent" says what "%" says.
    claim, source = "The rate was 0.4 percent in 2020.", "The rate was 0.4% in 2020."
    result = citecheck.verify(f"{claim} [[s]]", {"s": source}).results[0]
    assert result.status is Status.VERIFIED, result.reason


@pytest.mark.parametrize(
    ("claim", "source", "changed"),
    [
        ("Each interview was coded once.", "Each interview was coded twice.", True),
        ("Patients took the drug once a day.", "Patients took the drug twice a day.", True),
        ("It was tested only once in mice.", "It was tested twice in mice.", True),
        (
            "Fewer went to hospital once vaccinated.",
            "Vaccinated people had fewer admissions.",
            False,
        ),
        (
            "Once the data were in, the trial ended.",
            "The trial ended when the data were in.",
            False,
        ),
    ],
)
def test_once_as_a_count_and_as_a_conjunction(claim: str, source: str, changed: bool) -> None:
    conflicts = claim_conflicts(claim, source)
    assert any("'once'" in c for c in conflicts) is changed


@pytest.mark.parametrize(
    ("claim", "source", "changed"),
    [
        ("TableFormer uses a ResNet-50 backbone.", "TableFormer uses a ResNet-18 backbone.", True),
        ("We used GPT-3 for labelling.", "We used GPT-4 for labelling.", True),
        ("We used GPT-4 for labelling.", "We used GPT-4 for labelling.", False),
        ("COVID-19 cases rose by 12 percent.", "COVID-19 cases rose by 12 percent in 2020.", False),
        ("OTSL is slower than HTML.", "OTSL is faster than HTML.", True),
        ("The pages were annotated automatically.", "The pages were annotated manually.", True),
        ("TableFormer underperforms the others.", "TableFormer outperforms the others.", True),
        ("Accuracy improves on harder layouts.", "Accuracy drops on harder layouts.", True),
    ],
)
def test_versioned_names_and_more_opposites(claim: str, source: str, changed: bool) -> None:
    assert bool(claim_conflicts(claim, source)) is changed
