"""Author–year citations: ``(Smith, 2020, p. 12)``, ``Smith (2020)`` and their many forms."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from citecheck import Document, Status, registry, verify
from citecheck.locations import Location
from citecheck.model import Citation
from citecheck.protocols import CitationSyntax
from citecheck.syntax import AuthorYearSyntax, extract_citations
from citecheck.syntax.author_year import AuthorYear


def citations(text: str, syntax: object = "auto") -> list[Citation]:
    found, warnings = extract_citations(text, syntax)  # type: ignore[arg-type]
    assert warnings == []
    return found


@pytest.mark.parametrize(
    ("marker", "expected"),
    [
        ("(Smith, 2020, p. 12)", [("Smith 2020", "p. 12")]),
        ("(Smith 2020)", [("Smith 2020", None)]),
        ("(Smith 2020a)", [("Smith 2020a", None)]),
        ("(Smith et al., 2020)", [("Smith et al. 2020", None)]),
        ("(Smith et al. 2020, pp. 3-4)", [("Smith et al. 2020", "pp. 3-4")]),
        ("(Smith & Jones 2020; Lee 2019)", [("Smith & Jones 2020", None), ("Lee 2019", None)]),
        ("(Smith and Jones, 2020)", [("Smith & Jones 2020", None)]),
        ("(Smith, Jones, & Lee, 2020)", [("Smith, Jones & Lee 2020", None)]),
        ("(see Smith 2020, sec. Methods)", [("Smith 2020", "sec. Methods")]),
        ("(e.g., Smith 2020; Lee 2019, p. 3)", [("Smith 2020", None), ("Lee 2019", "p. 3")]),
        ("(Smith 2020, 2021)", [("Smith 2020", None), ("Smith 2021", None)]),
        ("(Smith 2020a, b)", [("Smith 2020a", None), ("Smith 2020b", None)]),
        ("(Smith 2020: 12)", [("Smith 2020", "p. 12")]),
        ("(Smith 2020: 12-14)", [("Smith 2020", "p. 12-14")]),
        ("(van der Berg 2018)", [("van der Berg 2018", None)]),
        ("(Müller & Ó Súilleabháin 2018)", [("Müller & Ó Súilleabháin 2018", None)]),
        ("(O'Neil-Smith, 2018)", [("O'Neil-Smith 2018", None)]),
        ("(WHO, 2019)", [("WHO 2019", None)]),
        ("(Smith, n.d.)", [("Smith n.d.", None)]),
        ("(Smith 2020, emphasis added)", [("Smith 2020", None)]),
        ("(Smith 2020, pg. 99)", [("Smith 2020", "pg. 99")]),
        ("(Smith 2020, pgs. 98-99)", [("Smith 2020", "pgs. 98-99")]),
        ("(Smith 2020, S. 99)", [("Smith 2020", "S. 99")]),
        ("(Smith 2020, 99)", [("Smith 2020", "p. 99")]),  # Chicago: a bare number is a page
        ("(Smith 2020, 99-100)", [("Smith 2020", "p. 99-100")]),
    ],
)
def test_parenthetical_citation(marker: str, expected: list[tuple[str, str | None]]) -> None:
    text = f"Water boils at 100 degrees {marker}."
    found = citations(text)
    assert [(c.source_id, c.locator) for c in found] == expected
    assert {c.raw for c in found} == {marker}
    assert {c.syntax for c in found} == {"author_year"}
    assert {c.claim for c in found} == {"Water boils at 100 degrees"}
    for citation in found:
        assert citation.span is not None
        assert text[citation.span.start : citation.span.end] == marker


@pytest.mark.parametrize(
    ("sentence", "raw", "source_id", "locator"),
    [
        (
            "Smith (2020, p. 12) found that water boils at 100 degrees.",
            "Smith (2020, p. 12)",
            "Smith 2020",
            "p. 12",
        ),
        (
            "Smith and Jones (2020) found that water boils at 100 degrees.",
            "Smith and Jones (2020)",
            "Smith & Jones 2020",
            None,
        ),
        (
            "Smith et al. (2020a) showed that water boils at 100 degrees.",
            "Smith et al. (2020a)",
            "Smith et al. 2020a",
            None,
        ),
        (
            "As Smith's (2020) study shows, water boils at 100 degrees.",
            "Smith's (2020)",
            "Smith 2020",
            None,
        ),
        (
            "According to van der Berg (2018), water boils at 100 degrees.",
            "van der Berg (2018)",
            "van der Berg 2018",
            None,
        ),
    ],
)
def test_narrative_citation(sentence: str, raw: str, source_id: str, locator: str | None) -> None:
    text = "An intro sentence. " + sentence + " Another sentence."
    (citation,) = citations(text)
    assert (citation.source_id, citation.locator, citation.raw) == (source_id, locator, raw)
    assert citation.claim is not None
    assert citation.claim.endswith("water boils at 100 degrees.")
    assert "Smith" not in citation.claim
    assert citation.text_span is not None
    assert " ".join(text[citation.text_span.start : citation.text_span.end].split()) == (
        citation.claim
    )


@pytest.mark.parametrize(
    ("marker", "location"),
    [
        ("(Smith 2020, pg. 99)", Location("pages", 99, 99)),
        ("(Smith 2020, pgs. 98-99)", Location("pages", 98, 99)),
        ("(Smith 2020, S. 99)", Location("pages", 99, 99)),
        ("(Smith 2020, 99)", Location("pages", 99, 99)),
        ("Smith (2020, pg. 99)", Location("pages", 99, 99)),
    ],
)
def test_page_terms_and_bare_pages_become_locations(marker: str, location: Location) -> None:
    (citation,) = citations(f"Water boils at 100 degrees {marker}.")
    assert citation.location == location


@pytest.mark.parametrize(
    ("marker", "locator"),
    [
        ("(Smith, 2020: 99-)", "99-"),
        ("(Smith, 2020, Table 9)", "Table 9"),
        ("Smith (2020, Table 9)", "Table 9"),
    ],
)
def test_a_suffix_with_a_number_but_no_locator_is_kept_and_reported(
    marker: str, locator: str
) -> None:
    text = f"Water boils at 100 degrees {marker}."
    found, warnings = extract_citations(text)
    (citation,) = found
    assert (citation.locator, citation.location) == (locator, None)
    (warning,) = warnings
    assert repr(locator) in warning
    start = text.index(marker)
    assert f"at characters {start}-{start + len(marker)}" in warning


def test_a_page_list_is_checked_as_the_range_that_spans_it_and_says_so() -> None:
    text = "Water boils at 100 degrees (Smith 2020, pp. 1, 99)."
    found, warnings = extract_citations(text)
    (citation,) = found
    assert (citation.locator, citation.location) == ("pp. 1, 99", Location("pages", 1, 99))
    (warning,) = warnings
    assert "pp. 1-99" in warning
    assert "1 and 99" in warning
    assert "at characters 27-50" in warning


TWO_PAGES = Document(
    "a",
    "Weather notes for the year.\fThe sky is blue in the afternoon.\n",
    {"author": "Smith", "year": 2020, "key": "smith"},
)


@pytest.mark.parametrize(
    ("text", "status"),
    [
        ("The sky is blue in the afternoon (Smith 2020, p. 2).", Status.VERIFIED),
        ("The sky is blue in the afternoon (Smith 2020, p. 99).", Status.NOT_FOUND),
        ("The sky is blue in the afternoon (Smith 2020, pg. 99).", Status.NOT_FOUND),
        ("The sky is blue in the afternoon (Smith 2020, S. 99).", Status.NOT_FOUND),
        ("The sky is blue in the afternoon (Smith 2020, 99).", Status.NOT_FOUND),
        ("The sky is blue in the afternoon (Smith 2020, pp. 1, 99).", Status.NOT_FOUND),
        ("Smith (2020, pg. 99) says the sky is blue in the afternoon.", Status.NOT_FOUND),
        ("The sky is blue in the afternoon [@smith, pg. 99].", Status.NOT_FOUND),
        ("The sky is blue in the afternoon (Smith, 2020: 99-).", Status.UNCHECKED),
        ("The sky is blue in the afternoon (Smith, 2020, Table 9).", Status.UNCHECKED),
    ],
)
def test_a_page_that_does_not_exist_or_cannot_be_read_is_never_verified(
    text: str, status: Status
) -> None:
    report = verify(text, [TWO_PAGES])
    (result,) = report.results
    assert result.status is status, result.reason
    if status is Status.UNCHECKED:  # the whole source is searched, and the place is not vouched
        assert "is not one citecheck can read" in result.reason
        assert any(result.citation.raw in warning for warning in report.warnings)


def test_narrative_citation_with_a_quotation_checks_the_quotation() -> None:
    text = 'Smith (2020, p. 12) wrote that "water boils at 100 degrees" in the lab.'
    (citation,) = citations(text)
    assert citation.excerpt == "water boils at 100 degrees"
    assert citation.text_span is not None
    assert text[citation.text_span.start : citation.text_span.end] == citation.excerpt


def test_narrative_citation_at_the_end_of_a_sentence_takes_the_words_before() -> None:
    (citation,) = citations("Water boils at 100 degrees, as shown by Smith (2020).")
    assert citation.claim == "Water boils at 100 degrees, as shown by"


def test_quotation_before_a_parenthetical_citation_is_its_excerpt() -> None:
    (citation,) = citations('It "boils at 100 degrees" (Smith, 2020, p. 12).')
    assert (citation.excerpt, citation.location) == (
        "boils at 100 degrees",
        Location("pages", 12, 12),
    )


def test_several_narrative_citations_share_the_words_after_them() -> None:
    found = citations("Smith (2020) and Lee (2019) found that water boils at 100 degrees.")
    assert [c.source_id for c in found] == ["Smith 2020", "Lee 2019"]
    assert {c.claim for c in found} == {"water boils at 100 degrees."}


@pytest.mark.parametrize(
    "text",
    [
        "Prices rose (March 2020) and fell (in 2021).",
        "The law of (2020) and the year 2020 (see above).",
        "It was approved In (2020) by The (2019) board.",
        "Revenue grew (Q3 2020) and (FY 2019) and (Spring 2021).",
        "A list (a, b, c) and (i) and a time (10:30).",
        "Code `(Smith 2020)` and `Smith (2020)` is not cited.",
    ],
)
def test_not_an_author_year_citation(text: str) -> None:
    assert extract_citations(text) == ([], [])


def test_author_year_round_trips_its_source_id() -> None:
    for source_id in (
        "Smith 2020",
        "Smith & Jones 2020a",
        "Smith, Jones & Lee 2020",
        "Smith et al. 2020",
        "van der Berg n.d.",
    ):
        assert str(AuthorYear.parse(source_id)) == source_id
    cited = AuthorYear.parse("Smith, Jones & Lee 2020b")
    assert (cited.names, cited.et_al, cited.year, cited.suffix) == (
        ("Smith", "Jones", "Lee"),
        False,
        "2020",
        "b",
    )


def test_author_year_is_registered_and_in_auto() -> None:
    assert "author_year" in registry.available("syntaxes")
    syntax = registry.create("syntaxes", "author_year")
    assert isinstance(syntax, AuthorYearSyntax)
    assert isinstance(syntax, CitationSyntax)
    assert [c.syntax for c in citations("A [1]. B (Smith 2020).")] == ["numeric", "author_year"]
    assert citations("B (Smith 2020).", "numeric") == []


_NAMES = st.sampled_from(["Smith", "Lee", "van der Berg", "O'Neil", "Müller", "Ó Súilleabháin"])
_YEARS = st.integers(1500, 2099).map(str)
_SUFFIXES = st.sampled_from(["", "a", "b"])
_PAGES = st.one_of(st.none(), st.integers(1, 999).map("p. {}".format))


@settings(max_examples=300)
@given(
    st.lists(_NAMES, min_size=1, max_size=3, unique=True),
    st.booleans(),
    _YEARS,
    _SUFFIXES,
    _PAGES,
    st.booleans(),
)
def test_generated_author_year_citations_read_back(
    names: list[str], et_al: bool, year: str, suffix: str, page: str | None, narrative: bool
) -> None:
    cited = AuthorYear(tuple(names), et_al and len(names) == 1, year, suffix)
    written = " & ".join(names) if len(names) < 3 else f"{names[0]}, {names[1]}, & {names[2]}"
    if cited.et_al:
        written += " et al."
    when = year + suffix + (f", {page}" if page else "")
    marker = f"{written} ({when})" if narrative else f"({written}, {when})"
    text = f"Water boils at 100 degrees {marker} in the lab."
    (citation,) = citations(text)
    assert (citation.source_id, citation.locator) == (str(cited), page)
    assert citation.span is not None
    assert text[citation.span.start : citation.span.end] == marker
    assert AuthorYear.parse(citation.source_id) == cited
