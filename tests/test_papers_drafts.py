"""Behaviour of citecheck.papers.drafts: the citations of a Markdown draft, with their lines,
library keys and claims, for PaperLibrary to check."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from citecheck.locations import Location
from citecheck.papers.drafts import Draft, DraftCitation, read_draft
from citecheck.papers.values import PaperMetadata

PAPERS = {
    "stoker2022": PaperMetadata(
        "stoker2022", "Remote work and managerial control", ("Stoker",), "2022"
    ),
    "lee2019": PaperMetadata("lee2019", "Trust at a distance", ("Lee",), "2019"),
    "van2020": PaperMetadata("van2020", "Hybrid teams", ("van der Berg",), "2020"),
}


def only(text: str) -> DraftCitation:
    draft = read_draft(text, PAPERS)
    assert draft.warnings == ()
    (citation,) = draft.citations
    return citation


# --- the syntax forms -------------------------------------------------------------------


def test_bracketed_key_takes_the_sentence_before_it() -> None:
    cited = only("Remote work cuts managerial control [@stoker2022].")
    assert cited.key == "stoker2022"
    assert cited.citation.source_id == "stoker2022"
    assert cited.cited == "stoker2022"
    assert cited.claim == "Remote work cuts managerial control"
    assert cited.citation.claim == cited.claim
    assert cited.problem is None
    assert cited.line == 1
    assert cited.citation.syntax == "pandoc"


def test_a_locator_is_parsed_into_a_location() -> None:
    cited = only("Remote work cuts control [@stoker2022, p. 12].")
    assert cited.citation.locator == "p. 12"
    assert cited.citation.location == Location.parse("p. 12")


def test_an_unparseable_locator_is_kept_without_a_location() -> None:
    draft = read_draft("Remote work cuts control [@stoker2022, Table 9].", PAPERS)
    (cited,) = draft.citations
    assert cited.key == "stoker2022"
    assert cited.citation.locator == "Table 9"
    assert cited.citation.location is None
    assert len(draft.warnings) == 1
    assert draft.warnings[0].startswith("line 1: ")


def test_several_keys_in_one_bracket_share_the_claim() -> None:
    draft = read_draft("Trust fell as teams spread [@stoker2022; @lee2019, pp. 3-4].", PAPERS)
    first, second = draft.citations
    assert (first.key, second.key) == ("stoker2022", "lee2019")
    assert first.claim == second.claim == "Trust fell as teams spread"
    assert first.citation.location is None
    assert second.citation.location == Location.parse("pp. 3-4")
    assert first.citation.span == second.citation.span


def test_a_bare_key_vouches_for_its_sentence_without_the_markup() -> None:
    text = "@stoker2022 found that remote work cuts control."
    cited = only(text)
    assert cited.key == "stoker2022"
    assert cited.claim == "found that remote work cuts control"
    text_span = cited.citation.text_span
    assert text_span is not None
    assert text[text_span.start : text_span.end] == "found that remote work cuts control."


def test_a_bare_key_with_a_locator_in_mid_sentence() -> None:
    cited = only("As @lee2019 [p. 4] shows, trust needs meetings.")
    assert cited.key == "lee2019"
    assert cited.citation.raw == "@lee2019 [p. 4]"
    assert cited.citation.location == Location.parse("p. 4")
    assert cited.claim == "As shows, trust needs meetings"


def test_bare_keys_joined_by_and_share_the_words_after_them() -> None:
    draft = read_draft("@stoker2022 and @lee2019 argue that trust is key.", PAPERS)
    assert [c.key for c in draft.citations] == ["stoker2022", "lee2019"]
    assert {c.claim for c in draft.citations} == {"argue that trust is key"}


def test_a_bare_key_is_bounded_by_the_markers_around_it() -> None:
    text = "Control fell [@lee2019], but @stoker2022 found that trust rose."
    first, second = read_draft(text, PAPERS).citations
    assert first.claim == "Control fell"
    assert second.claim == "but found that trust rose"


def test_a_bracketed_marker_opening_a_paragraph_takes_the_sentence_after_it() -> None:
    text = "# Results\n\n[@stoker2022] shows that control fell.\n\n- [@lee2019] finds trust."
    first, second = read_draft(text, PAPERS).citations
    assert first.claim == "shows that control fell"
    assert second.claim == "finds trust"
    assert (first.line, second.line) == (3, 5)


def test_a_marker_alone_after_a_sentence_keeps_that_sentence() -> None:
    cited = only("Remote work cuts control.\n\n[@stoker2022]")
    assert cited.claim == "Remote work cuts control"


def test_a_quotation_after_a_bare_key_stays_its_excerpt() -> None:
    cited = only('@stoker2022 wrote "remote work cuts control".')
    assert cited.citation.excerpt == "remote work cuts control"
    assert cited.claim == 'wrote "remote work cuts control"'


def test_a_marker_with_no_words_has_no_claim() -> None:
    cited = only("[@stoker2022]")
    assert cited.claim is None
    assert cited.citation.checked_text is None


def test_braced_and_tip_keys_are_read() -> None:
    draft = read_draft("Control fell @{stoker2022}. Trust rose [[lee2019]].", PAPERS)
    assert [c.key for c in draft.citations] == ["stoker2022", "lee2019"]
    assert draft.citations[1].claim == "Trust rose"


# --- line numbers -----------------------------------------------------------------------


def test_lines_are_those_where_the_markers_start() -> None:
    text = "Intro.\n\nControl fell [@stoker2022].\nTrust rose\n[@lee2019]."
    draft = read_draft(text, PAPERS)
    assert [c.line for c in draft.citations] == [3, 5]
    assert draft.citations[1].claim == "Trust rose"


# --- unknown keys -------------------------------------------------------------------------


def test_an_unknown_bracketed_key_is_a_citation_with_a_problem() -> None:
    cited = only("Control fell [@ghost2021, p. 3].")
    assert cited.key is None
    assert cited.citation.source_id == "ghost2021"
    assert "ghost2021" in (cited.problem or "")
    assert cited.claim == "Control fell"
    assert cited.citation.location == Location.parse("p. 3")


def test_an_unknown_bare_key_is_a_warning_on_its_line() -> None:
    draft = read_draft("Fine.\n\nAs @ghost2021 says, control fell.", PAPERS)
    assert draft.citations == ()
    (warning,) = draft.warnings
    assert warning.startswith("line 3: ")
    assert "@ghost2021" in warning


# --- numbers and the reference list -----------------------------------------------------

NUMBERED = """\
Control fell [1]. Trust rose [2, p. 5]. Teams met online [3]. Nobody knows [4].

## References

[1] Stoker, J. (2022). Remote work and managerial control. Journal of Work.
[2] Lee, K. (2019). Trust at a distance.
[3] Nobody, A. (1999). Something else entirely.
"""


def test_numbers_are_matched_to_papers_through_the_reference_list() -> None:
    draft = read_draft(NUMBERED, PAPERS)
    assert draft.warnings == ()
    first, second, third, fourth = draft.citations
    assert (first.key, first.citation.source_id, first.cited) == ("stoker2022", "stoker2022", "1")
    assert first.claim == "Control fell"
    assert (second.key, second.claim) == ("lee2019", "Trust rose")
    assert second.citation.location == Location.parse("p. 5")
    assert (third.key, third.citation.source_id) == (None, "3")
    assert "matches none" in (third.problem or "")
    assert fourth.key is None
    assert "not in the text's reference list" in (fourth.problem or "")


def test_a_number_without_a_reference_list_names_no_paper() -> None:
    cited = only("Control fell [1].")
    assert (cited.key, cited.citation.source_id) == (None, "1")
    assert "no numbered reference list" in (cited.problem or "")


def test_a_family_name_with_particles_matches() -> None:
    text = "Teams mixed [1].\n\n## References\n\n1. van der Berg, P. (2020). Hybrid teams.\n"
    assert only(text).key == "van2020"


# --- what is not a citation ---------------------------------------------------------------


def test_email_addresses_are_not_citations() -> None:
    draft = read_draft("Write to jane@stoker2022.org or jane@lee2019 for data.", PAPERS)
    assert draft == Draft("Write to jane@stoker2022.org or jane@lee2019 for data.", (), ())


def test_code_is_ignored() -> None:
    text = "Code:\n\n```\nx = a[1] @stoker2022 [@lee2019]\n```\n\nAnd `[@lee2019]` inline."
    assert read_draft(text, PAPERS).citations == ()


def test_the_reference_list_is_read_not_cited() -> None:
    draft = read_draft(NUMBERED, PAPERS)
    assert all(c.line == 1 for c in draft.citations)


@pytest.mark.parametrize("text", ["", "   \n\n", "No citations here."])
def test_a_text_without_citations_is_an_empty_draft(text: str) -> None:
    assert read_draft(text, PAPERS) == Draft(text, (), ())


def test_an_empty_library_reports_every_key() -> None:
    draft = read_draft("Control fell [@stoker2022]. @lee2019 says so.", {})
    (cited,) = draft.citations
    assert cited.key is None
    assert len(draft.warnings) == 1


# --- properties -----------------------------------------------------------------------------

_PIECES = st.sampled_from(
    [
        *'[]()@:;,.-\n x1p{}`"#',
        *("@stoker2022", "@lee2019", "@ghost", "[@stoker2022", "[@lee2019, p. 4]", "; @x"),
        *("[1]", "[2, p. 5]", "## References\n", "[1] Stoker (2022). Remote.\n", "\n\n", "- "),
        *("```\n", " and ", "found that ", "x@y.com", "[[lee2019]]", " [p. 3]", '"quoted"'),
    ]
)


@settings(max_examples=400)
@given(st.lists(_PIECES, max_size=50).map("".join) | st.text(max_size=200))
def test_any_text_is_read_without_error(text: str) -> None:
    draft = read_draft(text, PAPERS)
    for cited in draft.citations:
        span = cited.citation.span
        assert span is not None
        assert 0 <= span.start <= span.end <= len(text)
        assert text[span.start : span.end] == cited.citation.raw
        assert cited.line == text.count("\n", 0, span.start) + 1
        assert cited.claim == cited.citation.claim
        assert cited.claim is None or (cited.claim.strip() and cited.claim == cited.claim.strip())
        assert (cited.key is None) == (cited.problem is not None)
        if cited.citation.text_span is not None:
            assert 0 <= cited.citation.text_span.start <= cited.citation.text_span.end <= len(text)
    assert all(warning.startswith("line ") for warning in draft.warnings)


def test_html_comments_cite_nothing() -> None:
    text = "Visible [@a].\n<!-- Hidden 12 classes [@b] -->\n<!-- unclosed [@c]\n"
    draft = read_draft(text, {key: PaperMetadata(key) for key in ("a", "b", "c")})
    # a comment never closed hides nothing: a renderer may hide [@c], so it is checked, and
    # the warning says where the comment opens
    assert [c.key for c in draft.citations] == ["a", "c"]
    assert any(w.startswith("line 3") and "never closed" in w for w in draft.warnings)
