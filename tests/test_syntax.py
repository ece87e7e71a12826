"""Behaviour of citecheck.syntax: the three marker syntaxes and extract_citations."""

from __future__ import annotations

import re
import string
from collections.abc import Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import citecheck
from citecheck.errors import InputError, UnknownBackendError
from citecheck.locations import Location
from citecheck.model import Citation, Marker, Reference, Span, Status
from citecheck.protocols import CitationSyntax
from citecheck.syntax import (
    NumericSyntax,
    PandocSyntax,
    TipSyntax,
    extract_citations,
    find_reference_list,
    marker_like_spans,
)


def citations(text: str, syntax: object = "auto") -> list[Citation]:
    found, warnings = extract_citations(text, syntax)  # type: ignore[arg-type]
    assert warnings == []
    return found


def only(text: str, syntax: object = "auto") -> Citation:
    (citation,) = citations(text, syntax)
    return citation


def ids(text: str, syntax: object = "auto") -> list[str]:
    return [c.source_id for c in citations(text, syntax)]


# --- TIP markers -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("marker", "source_id", "locator", "location"),
    [
        ("[[ctx-1]]", "ctx-1", None, None),
        ("[[ctx-1:L42-67]]", "ctx-1", "L42-67", Location("lines", 42, 67)),
        ("[[doc:p12]]", "doc", "p12", Location("pages", 12, 12)),
        ("[[doc:sec-intro]]", "doc", "sec-intro", Location("section", name="intro")),
        ("[[talk:2:15]]", "talk", "2:15", Location("time", 135, 135)),
        ("[[doc:general]]", "doc", "general", Location("general")),
        ("[[doc:pg. 12]]", "doc", "pg. 12", Location("pages", 12, 12)),
    ],
)
def test_tip_marker(marker: str, source_id: str, locator: str | None, location: object) -> None:
    text = f"The deadline is March 15th {marker}."
    citation = only(text)
    assert (citation.source_id, citation.locator, citation.location) == (
        source_id,
        locator,
        location,
    )
    assert citation.raw == marker
    assert citation.syntax == "tip"
    assert citation.claim == "The deadline is March 15th"
    assert citation.span is not None
    assert text[citation.span.start : citation.span.end] == marker


def test_tip_scan_yields_markers_with_spans_and_references() -> None:
    (marker,) = TipSyntax().scan("see [[doc:p12]]")
    assert marker.span == Span(4, 15)
    assert marker.raw == "[[doc:p12]]"
    assert marker.references == (Reference("doc", "p12"),)
    assert marker.error is None


@pytest.mark.parametrize(
    ("text", "quoted"),
    [
        ("The answer [[ctx-1 is here.", "'[[ctx-1'"),
        ("The answer [[ctx-1\n]] is here.", "'[[ctx-1'"),
        ("An empty marker [[]] here.", "'[[]]'"),
        ("No id [[:p3]] here.", "'[[:p3]]'"),
    ],
)
def test_malformed_tip_marker_is_a_warning_not_a_citation(text: str, quoted: str) -> None:
    found, warnings = extract_citations(text)
    assert found == []
    (warning,) = warnings
    assert quoted in warning
    assert warning.endswith(".")


def test_unclosed_tip_warning_names_the_offset() -> None:
    text = "x" * 120 + "[[ctx-1 never closed"
    _, warnings = extract_citations(text)
    assert warnings == [
        "Ignored a malformed tip marker '[[ctx-1' at characters 120-127: it is never closed."
    ]


def test_malformed_marker_stays_ordinary_text_and_later_markers_still_count() -> None:
    found, warnings = extract_citations("Broken [[ctx-1 here, fine [[ctx-2]].")
    assert len(warnings) == 1
    assert [c.source_id for c in found] == ["ctx-2"]
    assert found[0].claim == "Broken [[ctx-1 here, fine"


def test_tip_inside_extra_brackets() -> None:
    assert only("Claim [[[ctx-1]]].").raw == "[[ctx-1]]"


def test_empty_tip_locator_is_kept_and_reported() -> None:
    found, warnings = extract_citations("Claim [[doc:]].")
    assert [(c.source_id, c.locator, c.location) for c in found] == [("doc", "", None)]
    (warning,) = warnings
    assert "''" in warning


# --- pandoc ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("marker", "expected"),
    [
        ("[@key]", [("key", None)]),
        ("[@key, p. 12]", [("key", "p. 12")]),
        ("[@a; @b, pp. 3-4]", [("a", None), ("b", "pp. 3-4")]),
        ("[see @key, p. 33]", [("key", "p. 33")]),
        ("[-@key]", [("key", None)]),
        ("[@{odd key!}, p. 4]", [("odd key!", "p. 4")]),
        ("[@stoker2022, pp. 213-14]", [("stoker2022", "pp. 213-14")]),
        ("[@key, l. 5]", [("key", "l. 5")]),
        ("[@key, ll. 5-9]", [("key", "ll. 5-9")]),
        ("[@key, sec. Methods]", [("key", "sec. Methods")]),
        ("[@key, § 2]", [("key", "§ 2")]),
        ("[@key, section intro]", [("key", "section intro")]),
        ("[@key p. 7]", [("key", "p. 7")]),
        ("[@key, L42-67]", [("key", "L42-67")]),
        ("[@key, p. 33 and passim]", [("key", "p. 33")]),
        ("[@key, and passim]", [("key", None)]),
        ("[@doe:2020.v2/x, p. 1]", [("doe:2020.v2/x", "p. 1")]),
        ("[@_under]", [("_under", None)]),
        ("[@1999smith]", [("1999smith", None)]),
        ("[@doe99.]", [("doe99", None)]),
        ("[@{https://x.org/a;b}, p. 2]", [("https://x.org/a;b", "p. 2")]),
        ("[@key, pg. 99]", [("key", "pg. 99")]),
        ("[@key, S. 99]", [("key", "S. 99")]),
        ("[@key, 33-35]", [("key", "p. 33-35")]),  # pandoc: a number with no term is a page
        ("[@key, 89, and suffix]", [("key", "p. 89")]),
        ("[@key, s.v. Water]", [("key", None)]),
    ],
)
def test_pandoc_citation(marker: str, expected: list[tuple[str, str | None]]) -> None:
    found = citations(f"Dracula was published in 1897 {marker}.")
    assert [(c.source_id, c.locator) for c in found] == expected
    assert {c.raw for c in found} == {marker}
    assert {c.syntax for c in found} == {"pandoc"}


def test_pandoc_locators_are_parsed_into_locations() -> None:
    found = citations("It was 1897 [@a, pp. 213-14; @b, ll. 5-9; @c, sec. Methods].")
    assert [c.location for c in found] == [
        Location("pages", 213, 214),
        Location("lines", 5, 9),
        Location("section", name="Methods"),
    ]


def test_pandoc_page_terms_become_locations() -> None:
    found = citations("It was 1897 [@a, pg. 99; @b, pgs. 3-4; @c, S. 12; @d, 33-35].")
    assert [c.location for c in found] == [
        Location("pages", 99, 99),
        Location("pages", 3, 4),
        Location("pages", 12, 12),
        Location("pages", 33, 35),
    ]


@pytest.mark.parametrize(
    ("marker", "locator", "location", "said"),
    [
        ("[@key, Table 9]", "Table 9", None, "'Table 9'"),
        ("[@key, p. 12, Table 3]", "p. 12, Table 3", Location("pages", 12, 12), "'Table 3'"),
        ("[@key, pp. 1, 99]", "pp. 1, 99", Location("pages", 1, 99), "1 and 99"),
        (
            "[@key, pp. 33, 35-37, and nowhere else]",
            "pp. 33, 35-37",
            Location("pages", 33, 37),
            "33 and 35-37",
        ),
    ],
)
def test_a_pandoc_suffix_with_a_number_is_kept_and_what_was_not_read_is_said(
    marker: str, locator: str, location: Location | None, said: str
) -> None:
    text = f"It was 1897 {marker}."
    found, warnings = extract_citations(text)
    (citation,) = found
    assert (citation.locator, citation.location) == (locator, location)
    (warning,) = warnings
    assert said in warning
    start = text.index(marker)
    assert warned_spans(warnings) == [Span(start, start + len(marker))]


_SUFFIX = st.text(alphabet="pgPS., :;-–0123456789abTlx§ ", max_size=20).filter(
    lambda suffix: ";" not in suffix
)


@given(_SUFFIX)
def test_no_number_in_a_pandoc_suffix_is_dropped_in_silence(suffix: str) -> None:
    text = f"It was 1897 [@key, {suffix}]."
    found, warnings = extract_citations(text)
    (citation,) = found
    digits = sorted(ch for ch in suffix if ch.isdigit())
    assert sorted(ch for ch in citation.locator or "" if ch.isdigit()) == digits
    if digits and citation.location is None:
        assert citation.span in warned_spans(warnings)


def test_pandoc_locator_that_is_no_location_keeps_locator_and_warns() -> None:
    found, warnings = extract_citations("It was 1897 [@key, chap. 3].")
    (citation,) = found
    assert (citation.locator, citation.location) == ("chap. 3", None)
    (warning,) = warnings
    assert "'chap. 3'" in warning


@pytest.mark.parametrize(
    "text",
    [
        "Write to jane@example.com today.",
        "Write to [jane@example.com] today.",
        "A link [@key](https://example.com) here.",
        "A plain [remark] here.",
        "An at-sign [at @ home] here.",
    ],
)
def test_not_a_pandoc_citation(text: str) -> None:
    assert extract_citations(text) == ([], [])


@pytest.mark.parametrize("text", ["Claim [@].", "Claim [@, p. 3].", "Claim [@a; @]."])
def test_pandoc_citation_without_key_is_malformed(text: str) -> None:
    found, warnings = extract_citations(text)
    assert found == []
    (warning,) = warnings
    assert "pandoc" in warning


def test_unclosed_pandoc_citation_is_malformed() -> None:
    found, warnings = extract_citations("Claim [@key, p. 3\nNext line.")
    assert found == []
    assert warnings == [
        "Ignored a malformed pandoc marker '[@key' at characters 6-11: it is never closed."
    ]


def test_pandoc_citation_may_wrap_a_line_but_not_a_paragraph() -> None:
    assert ids("Claim [see @a,\n p. 3].") == ["a"]
    found, warnings = extract_citations("Claim [see @a,\n\n p. 3].")
    assert found == []  # the brackets do not hold across a paragraph: '@a' is a bare key
    (warning,) = warnings
    assert "'@a' at characters 11-13" in warning


def test_bare_braced_key_is_a_citation_bare_key_only_in_text_mode() -> None:
    assert ids("As @{doe99} shows.") == ["doe99"]
    assert extract_citations("As @doe99 shows.")[0] == []
    found = citations("As @doe99 [p. 33] shows, and @smith04 too.", PandocSyntax(in_text=True))
    assert [(c.source_id, c.locator, c.raw) for c in found] == [
        ("doe99", "p. 33", "@doe99 [p. 33]"),
        ("smith04", None, "@smith04"),
    ]
    assert ids("mail jane@doe99.org", PandocSyntax(in_text=True)) == []


def test_in_text_key_does_not_swallow_a_numeric_marker() -> None:
    text = "As @doe99 [1] shows."
    found = citations(text, [PandocSyntax(in_text=True), "numeric"])
    assert [(c.source_id, c.raw) for c in found] == [("doe99", "@doe99"), ("1", "[1]")]


# --- numeric -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("marker", "expected"),
    [
        ("[1]", ["1"]),
        ("[1, 3]", ["1", "3"]),
        ("[3,1]", ["3", "1"]),
        ("[2-4]", ["2", "3", "4"]),
        ("[2\u20134]", ["2", "3", "4"]),
        ("[1, 3-5; 9]", ["1", "3", "4", "5", "9"]),
        ("[ 7 ]", ["7"]),
    ],
)
def test_numeric_marker(marker: str, expected: list[str]) -> None:
    found = citations(f"Water boils at 100 degrees {marker}.")
    assert [c.source_id for c in found] == expected
    assert {c.raw for c in found} == {marker}
    assert {c.syntax for c in found} == {"numeric"}
    assert {c.locator for c in found} == {None}


def test_numeric_range_is_capped() -> None:
    assert len(citations("Many [1-1000].")) == 1000
    found, warnings = extract_citations("Too many [1-1001].")
    assert found == []
    (warning,) = warnings
    assert "1000" in warning


def test_reversed_numeric_range_is_malformed() -> None:
    found, warnings = extract_citations("Odd [4-2].")
    assert found == []
    assert len(warnings) == 1


@pytest.mark.parametrize(
    "text",
    [
        "Take a[1] and x_2[3].",
        "Take m[1][2].",
        "See [the paper][1] for more.",
        "An image ![1](figure.png) here.",
        "A link [1](https://example.com/paper) here.",
        "Text.\n\n[1]: https://example.com/paper",
        "  [1]: https://example.com/paper",
        "Too long [1234567890].",
        "A word [one] and a decimal [1.5].",
    ],
)
def test_not_a_numeric_citation(text: str) -> None:
    assert extract_citations(text) == ([], [])


def test_colon_after_marker_mid_line_is_still_a_citation() -> None:
    assert ids("As shown [1]: water boils.") == ["1"]


# --- code is never cited -----------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "Use `x[1]` here.",
        "Use `[[ctx-1]]` and `[@key]` here.",
        "Use ``a ` [1] b`` here.",
        "Code:\n```python\nx = y[1] + [[ctx-1]] + [@key]\n```\n",
        "Code:\n~~~\n[1]\n~~~\n",
        "1. Step\n    ```\n    [1]\n    ```\n",
    ],
)
def test_code_is_never_cited(text: str) -> None:
    assert extract_citations(text) == ([], [])


def test_an_unclosed_fence_hides_no_citation() -> None:
    citations, warnings = extract_citations("Unclosed fence:\n```\n[1] [[ctx-1]]\n")
    assert [c.source_id for c in citations] == ["1", "ctx-1"]
    assert warnings == [
        "a code fence '```' at characters 16-19 is never closed: citecheck checks the text "
        "after it, which a Markdown renderer may hide"
    ]


def test_text_after_code_is_scanned() -> None:
    text = "Use `x[1]` then.\n```\n[2]\n```\nWater boils [3] and `[4]` is code [5]."
    assert ids(text) == ["3", "5"]


def test_unmatched_backtick_is_plain_text() -> None:
    assert ids("A stray ` backtick [1].") == ["1"]


def test_inline_code_does_not_span_a_blank_line() -> None:
    assert ids("A `tick\n\nthen [1] and ` more.") == ["1"]


# --- auto and the syntax argument --------------------------------------------------------


def test_auto_prefers_the_earlier_longer_marker() -> None:
    citation = only("Claim [[1]].")
    assert (citation.syntax, citation.source_id, citation.raw) == ("tip", "1", "[[1]]")


def test_auto_finds_all_three_in_text_order() -> None:
    text = "A [[doc:p2]]. B [@key, p. 3]. C [4]."
    assert [(c.syntax, c.source_id) for c in citations(text)] == [
        ("tip", "doc"),
        ("pandoc", "key"),
        ("numeric", "4"),
    ]


def test_syntax_by_name_object_and_sequence() -> None:
    text = "A [[1]] and [@k] and [2]."
    assert [c.raw for c in citations(text, "numeric")] == ["[1]", "[2]"]
    assert [c.raw for c in citations(text, TipSyntax())] == ["[[1]]"]
    assert [c.raw for c in citations(text, ["pandoc", NumericSyntax()])] == ["[1]", "[@k]", "[2]"]
    assert [c.raw for c in citations(text, ("tip", "auto"))] == ["[[1]]", "[@k]", "[2]"]


def test_unknown_syntax_name_raises() -> None:
    with pytest.raises(UnknownBackendError):
        extract_citations("text", "chicago")


def test_text_must_be_a_string() -> None:
    with pytest.raises(InputError):
        extract_citations(b"[1]")  # type: ignore[arg-type]


def test_builtin_syntaxes_follow_the_protocol() -> None:
    for syntax, name in (
        (TipSyntax(), "tip"),
        (PandocSyntax(), "pandoc"),
        (NumericSyntax(), "numeric"),
    ):
        assert isinstance(syntax, CitationSyntax)
        assert syntax.name == name


def test_third_party_syntax_object() -> None:
    class Hashtag:
        name = "hashtag"

        def scan(self, text: str) -> list[object]:
            from citecheck.model import Marker

            start = text.index("#src")
            return [Marker(Span(start, start + 4), "#src", "hashtag", (Reference("src"),))]

    citation = only("Water is wet #src.", Hashtag())
    assert (citation.syntax, citation.source_id, citation.claim) == (
        "hashtag",
        "src",
        "Water is wet",
    )


# --- excerpts and claims -----------------------------------------------------------------


def claims(text: str) -> list[str | None]:
    return [c.claim for c in citations(text)]


def test_several_markers_in_one_sentence() -> None:
    assert claims("Paris is the capital [1] and Berlin is big [2].") == [
        "Paris is the capital",
        "and Berlin is big",
    ]


def test_claims_of_consecutive_sentences() -> None:
    assert claims("Paris is old [1]. Berlin is big [2]! Rome is older [3]?") == [
        "Paris is old",
        "Berlin is big",
        "Rome is older",
    ]


@pytest.mark.parametrize(
    "text",
    [
        "Intro here. Paris is the capital. [1] Next sentence.",
        "Intro here. Paris is the capital.[1] Next sentence.",
        "Intro here. Paris is the capital.[1]Next sentence.",
        "Intro here.\nParis is the capital.\n[1]",
    ],
)
def test_marker_after_the_full_stop_takes_the_sentence_before(text: str) -> None:
    assert claims(text) == ["Paris is the capital."]


def test_marker_at_the_start_has_no_claim() -> None:
    citation = only("[1] Paris is the capital.")
    assert (citation.excerpt, citation.claim, citation.text_span) == (None, None, None)
    assert only("  \n[[doc]] text").claim is None


@pytest.mark.parametrize(
    "text",
    [
        "Paris is the capital [1][2].",
        "Paris is the capital [1], [2].",
        "Paris is the capital [[a]] [[b]].",
        "Paris is the capital [@a; @b].",
        "Paris is the capital [1] [@b].",
        "Paris is the capital [1]. [2]",
    ],
)
def test_adjacent_markers_share_claim(text: str) -> None:
    found = citations(text)
    assert len(found) == 2
    assert {c.claim for c in found} == {"Paris is the capital"}
    assert found[0].text_span == found[1].text_span


def test_markers_separated_by_a_blank_line_do_not_share() -> None:
    # [2] opens a paragraph: no text stands between it and the previous marker.
    assert claims("Paris is big [1]\n\n[2] Berlin.") == ["Paris is big", None]


def test_adjacent_markers_share_excerpt() -> None:
    found = citations('He said "water is wet" [1][2].')
    assert [c.excerpt for c in found] == ["water is wet", "water is wet"]


@pytest.mark.parametrize(
    ("text", "excerpt"),
    [
        ('The report says "It rains. It pours." [[ctx-1]]', "It rains. It pours."),
        ("The report says \u201cIt rains.\u201d [[ctx-1]]", "It rains."),
        ("Der Bericht sagt \u201eEs regnet.\u201c [[ctx-1]]", "Es regnet."),
        ("Le rapport dit \u00abIl pleut\u00bb [[ctx-1]]", "Il pleut"),
        ('The report says "it   rains",  [[ctx-1]]', "it   rains"),
        ('The report says "it rains": [[ctx-1]]', "it rains"),
        ('"it rains" [[ctx-1]]', "it rains"),
        (  # an inner German „…" closed already does not open the quotation “…” ends
            '\u201cEine \u201eCash Card" zum Kauf von \u201eWaren" sei es.\u201d [[ctx-1]]',
            'Eine \u201eCash Card" zum Kauf von \u201eWaren" sei es.',
        ),
        ("Polski \u201ea\u201d b \u201ec\u201d [[ctx-1]]", "c"),
    ],
)
def test_quoted_excerpt(text: str, excerpt: str) -> None:
    citation = only(text)
    assert citation.excerpt == excerpt
    assert citation.text_span is not None
    assert text[citation.text_span.start : citation.text_span.end] == excerpt
    assert citation.claim is not None
    assert excerpt.split()[0] in citation.claim


def test_a_quotation_may_span_blank_lines() -> None:
    """Whitespace of any kind inside a quotation is noise: a multi-paragraph quote is one."""
    citation = only('He wrote "first paragraph\n\nsecond" [2].')
    assert citation.excerpt == "first paragraph\n\nsecond"


def test_claim_of_a_quoted_excerpt_is_the_surrounding_sentence() -> None:
    citation = only('Earlier text. The report says "It rains. It pours." [[ctx-1]] Later.')
    assert citation.excerpt == "It rains. It pours."
    assert citation.claim == 'The report says "It rains. It pours."'


@pytest.mark.parametrize(
    "text",
    [
        '"It rains" said the report [1].',
        'He wrote x"a [1] b" [2].',
        'He wrote a" b [1] c" [2].',
        'He wrote "" [2].',
        'It said x"first paragraph.\n\nlater a stray" [2].',
        'Sizes 5" and 6" [2].',
    ],
)
def test_no_excerpt(text: str) -> None:
    assert citations(text)[-1].excerpt is None


def test_punctuation_alone_is_no_claim() -> None:
    citation = only('"..." [1]')
    assert (citation.excerpt, citation.claim, citation.text_span) == ("...", None, Span(1, 4))
    assert claims('Paris [1]\n"\n\n[2]') == ["Paris", None]


@pytest.mark.parametrize(
    ("text", "excerpt", "inner"),
    [
        ('He wrote "a [1] b" [2].', "a [1] b", ["[1]"]),
        (
            '"Giants (1964) and he wrote The Horns of Nimon (1979). He also played." [[d]]',
            "Giants (1964) and he wrote The Horns of Nimon (1979). He also played.",
            ["Nimon (1979)"],
        ),
        ('Earlier "x" [1]. Then "a \u201cb\u201d [2] c" [3].', "a \u201cb\u201d [2] c", ["[2]"]),
        ('"a" b "c [1] d" [2]', "c [1] d", ["[1]"]),
    ],
)
def test_a_marker_inside_a_quotation_a_later_marker_cites_is_quoted_text(
    text: str, excerpt: str, inner: list[str]
) -> None:
    """A quoted paper's own ``[1]``, or a title's year read as an author–year citation, must not
    cut the quotation in two: the marker after it would vouch only for the words after the cut,
    and a changed word before it would go unchecked. It is left out, with a warning."""
    found, warnings = extract_citations(text)
    assert found[-1].excerpt == excerpt
    assert all(citation.raw not in inner for citation in found)
    for raw in inner:
        (warning,) = [w for w in warnings if w.startswith(repr(raw))]
        start = text.index(raw)
        assert f"at characters {start}-{start + len(raw)} stands inside the quotation" in warning


def test_excerpt_never_spans_a_previous_marker() -> None:
    found = citations('Alpha "one" [1] beta two" [2].')
    assert [c.excerpt for c in found] == ["one", None]


def test_claim_is_cleaned() -> None:
    text = "# Results\n\n- The   sky\n  is blue, [1]\n* Grass is green; [2]\n1. Snow is white: [3]"
    assert claims(text) == ["The sky is blue", "Grass is green", "Snow is white"]


def test_claim_after_a_marker_drops_connecting_punctuation() -> None:
    assert claims("Paris is big [1], and Berlin is bigger [2].") == [
        "Paris is big",
        "and Berlin is bigger",
    ]
    assert claims("Paris is big ([1]) and old [2].")[0] == "Paris is big"


def test_claim_text_span_slices_the_claim_source_region() -> None:
    text = "Intro. The   sky is\nblue [1] and grass is green [2]. Snow. [3]"
    for citation in citations(text):
        span = citation.text_span
        assert span is not None
        assert " ".join(text[span.start : span.end].split()) == citation.claim


def test_every_reference_of_a_marker_shares_its_span() -> None:
    text = "Claim [@a; @b]."
    found = citations(text)
    assert [c.span for c in found] == [Span(6, 14), Span(6, 14)]
    assert all(text[6:14] == c.raw for c in found)


# --- properties --------------------------------------------------------------------------

_NOISY_PIECES = st.sampled_from(
    [
        *'[]@:;,.-\u2013"\u201c\u201d\u201e\u00ab\u00bb`~\n x1pL{}#*!?()_',
        *("[[", "]]", "```", "[@", "\n\n", "[1]", "[[a:p2]]", "[@k, p. 2]"),
    ]
)
_NOISY = st.lists(_NOISY_PIECES, max_size=80).map("".join) | st.text(max_size=200)


@settings(max_examples=400)
@given(_NOISY)
def test_extraction_never_raises_and_raw_matches_span(text: str) -> None:
    found, warnings = extract_citations(text)
    assert all(isinstance(w, str) and w for w in warnings)
    for citation in found:
        assert citation.span is not None
        assert text[citation.span.start : citation.span.end] == citation.raw
        if citation.text_span is not None:
            assert citation.text_span.end <= len(text)
            assert citation.span.start >= citation.text_span.start


_WORDS = st.text(alphabet=string.ascii_letters, min_size=1, max_size=8)
_MARKERS = st.one_of(
    st.builds("[[{}]]".format, st.from_regex(r"ctx-[0-9]{1,2}(:L[1-9][0-9]?)?", fullmatch=True)),
    st.builds("[@{}]".format, st.from_regex(r"[a-z]{1,6}[0-9]{2}(, p\. [1-9])?", fullmatch=True)),
    st.builds("[{}]".format, st.integers(1, 30)),
)
_PIECES = st.one_of(
    _WORDS,
    _WORDS,
    _WORDS,
    _MARKERS,
    st.sampled_from([".", ",", ";", '"', "\u201c", "\u201d", "\n"]),
)


@settings(max_examples=300)
@given(st.lists(_PIECES, min_size=1, max_size=40))
def test_marker_characters_never_leak_into_excerpts_or_claims(pieces: list[str]) -> None:
    """Only a marker left out as quoted text (named in a warning) may stand in one."""
    text = " ".join(pieces)
    found, warnings = extract_citations(text)
    quoted = [
        text[int(m[1]) : int(m[2])]
        for w in warnings
        if "stands inside the quotation" in w
        for m in [_CHARACTERS.search(w)]
        if m is not None
    ]
    for citation in found:
        for part in (citation.excerpt, citation.claim):
            if part is not None:
                for raw in quoted:
                    part = part.replace(raw, "")
                assert not any(bit in part for bit in ("[[", "]]", "[@"))


# --- warnings name where they stand ------------------------------------------------------

_CHARACTERS = re.compile(r"at characters (\d+)-(\d+)")


def warned_spans(warnings: list[str]) -> list[Span]:
    """The ``at characters S-E`` spans the warnings name."""
    return [Span(int(m[1]), int(m[2])) for w in warnings for m in _CHARACTERS.finditer(w)]


@pytest.mark.parametrize(
    ("text", "raw"),
    [
        ("The answer [[ctx-1 is here.", "[[ctx-1"),
        ("Claim [@].", "[@]"),
        ("Odd [4-2].", "[4-2]"),
    ],
)
def test_malformed_marker_warning_names_its_characters(text: str, raw: str) -> None:
    _, warnings = extract_citations(text)
    start = text.index(raw)
    assert warned_spans(warnings) == [Span(start, start + len(raw))]


def test_unparsable_locator_warning_names_its_characters() -> None:
    text = "It was 1897 [@key, chap. 3]."
    _, warnings = extract_citations(text)
    assert warned_spans(warnings) == [Span(12, 27)]


# --- numeric markers with a locator ------------------------------------------------------


@pytest.mark.parametrize(
    ("marker", "expected"),
    [
        ("[1, p. 12]", [("1", "p. 12")]),
        ("[1, pp. 3-4]", [("1", "pp. 3-4")]),
        ("[1: p. 12]", [("1", "p. 12")]),
        ("[1 p. 12]", [("1", "p. 12")]),
        ("[1, p.12]", [("1", "p.12")]),
        ("[12, sec. Methods]", [("12", "sec. Methods")]),
        ("[1, L42-67]", [("1", "L42-67")]),
        ("[1, 3, p. 5]", [("1", None), ("3", "p. 5")]),
        ("[1, p. 2; 3, pp. 4-5]", [("1", "p. 2"), ("3", "pp. 4-5")]),
        ("[1, ch. 3]", [("1", "ch. 3")]),
        ("[1, pg. 99]", [("1", "pg. 99")]),
        ("[1 S. 99]", [("1", "S. 99")]),
        ("[1, Table 9]", [("1", "Table 9")]),
        ("[1: Table 9]", [("1", "Table 9")]),
    ],
)
def test_numeric_marker_with_a_locator(marker: str, expected: list[tuple[str, str | None]]) -> None:
    text = f"Water boils at 100 degrees {marker}."
    found, _ = extract_citations(text)
    assert [(c.source_id, c.locator) for c in found] == expected
    assert {c.raw for c in found} == {marker}
    assert {c.syntax for c in found} == {"numeric"}
    assert {c.claim for c in found} == {"Water boils at 100 degrees"}


def test_numeric_locator_becomes_a_location() -> None:
    (citation,) = citations("Water boils [2, pp. 3-4].")
    assert citation.location == Location("pages", 3, 4)


def test_a_numeric_place_citecheck_cannot_read_is_kept_and_reported() -> None:
    text = "Water boils [1, Table 9]."
    found, warnings = extract_citations(text)
    (citation,) = found
    assert (citation.locator, citation.location) == ("Table 9", None)
    (warning,) = warnings
    assert "'Table 9'" in warning
    assert warned_spans(warnings) == [Span(12, 24)]


def test_a_locator_after_a_range_is_malformed() -> None:
    found, warnings = extract_citations("Water boils [2-4, p. 5].")
    assert found == []
    (warning,) = warnings
    assert "'[2-4, p. 5]'" in warning
    assert "2-4" in warning


# --- marker-like text that no syntax reads is a warning ----------------------------------


@pytest.mark.parametrize(
    ("text", "raw"),
    [
        ("Water boils [1, x].", "[1, x]"),
        ("Water boils [3 apples].", "[3 apples]"),
        ("Water boils [Smith 2020].", "[Smith 2020]"),
        ("Water boils [Smith et al., 2020, p. 4].", "[Smith et al., 2020, p. 4]"),
        ("Water boils [stoker2022, p.213].", "[stoker2022, p.213]"),
        ("Water boils (see Figure 3 in Smith 2020).", "(see Figure 3 in Smith 2020)"),
        ("As @doe99 says, water boils.", "@doe99"),
        ("As @doe99 [p. 33] says, water boils.", "@doe99 [p. 33]"),
        ("Water boils [2 of 5].", "[2 of 5]"),
        ("The sky is blue¹.", "¹"),
        ("The sky is blue²³ in May.", "²³"),
        ("The sky is blue¹⁻³.", "¹⁻³"),
        ("The sky is blue.⁴ It is.", "⁴"),
        ('He called it "blue"⁵.', "⁵"),
        ("The sky (seen at noon)⁶ is blue.", "⁶"),
        ("The sky is blue [^1].\n\n[^1]: Smith 2020.\n", "[^1]"),
        ("The sky is blue [^a].\n\n[^a]: See Smith,\n    p. 4.\n", "[^a]"),
        ("The sky is blue [^note].", "[^note]"),
    ],
)
def test_marker_like_text_no_syntax_reads_is_a_warning(text: str, raw: str) -> None:
    found, warnings = extract_citations(text)
    assert found == []
    (warning,) = warnings
    start = text.index(raw)
    assert warned_spans(warnings) == [Span(start, start + len(raw))]
    assert repr(raw) in warning


@pytest.mark.parametrize(
    "text",
    [
        "See [the docs](https://example.com) and [Smith 2020](https://example.com/s).",
        "Take a[1] and b[1, 2] and m[1][2].",
        "Use `[1, x]` and `(Smith 2020)` here.",
        "It was fine (see above), [sic], [citation needed].",
        "The law passed in the year (2020) after a vote.",
        "Prices rose (March 2020) and (in 2021) and (Q3 2020), (Spring 2019).",
        "An e-mail jane@example.com and [jane@example.com] and [at @ home].",
        "A decimal [1.5] and a long number [1234567890] and a word [one].",
        "Sizes (2 x 3) and (10 kg) and (i) and (a) and [x].",
        "An area of 3 m² or 2 km², x² + y², E = mc², 10⁶ cells, 9.8 m/s², 1 kg·m².",
        "A formula sin² x + cos² x, (a+b)², x²y and H₂O.",
        "A remark [^1].\n\n[^1]: I think so, and so does everyone.\n",
    ],
)
def test_prose_brackets_are_not_marker_like(text: str) -> None:
    assert extract_citations(text) == ([], [])
    assert marker_like_spans(text) == []


def test_markers_that_were_read_are_not_warned_about() -> None:
    text = "A [1, p. 2]. B [@k, p. 3]. C [[d:p4]]. D (Smith, 2020, p. 12). E Lee (2019) said so."
    found, warnings = extract_citations(text)
    assert warnings == []
    assert len(found) == 5


def test_a_restricted_syntax_does_not_warn_about_the_others() -> None:
    text = "A [1]. B [@k]. C (Smith 2020). D [[doc]]. E blue¹. F [^1].\n\n[^1]: Lee 2019.\n"
    found, warnings = extract_citations(text, "tip")
    assert [c.source_id for c in found] == ["doc"]
    assert warnings == []


# --- bare @key: a citation of a known source, else a warning -----------------------------


def test_bare_key_is_a_citation_when_it_names_a_known_source() -> None:
    text = "As @doe99 [p. 33] says, water boils at 100 degrees. @ann thanks!"
    found, warnings = extract_citations(text, known_ids={"doe99", "smith04"})
    assert [(c.source_id, c.locator, c.raw) for c in found] == [
        ("doe99", "p. 33", "@doe99 [p. 33]")
    ]
    (warning,) = warnings
    assert "'@ann'" in warning
    assert warned_spans(warnings) == [Span(text.index("@ann"), text.index("@ann") + 4)]


def test_bare_key_without_known_sources_is_only_a_warning() -> None:
    found, warnings = extract_citations("As @doe99 says, water boils.")
    assert found == []
    assert len(warnings) == 1


def test_in_text_citation_vouches_for_the_words_after_it() -> None:
    text = "Intro. @doe99 found that water boils at 100 degrees. Then more."
    (citation,) = extract_citations(text, known_ids={"doe99"})[0]
    assert citation.claim == "water boils at 100 degrees."
    assert citation.text_span is not None
    assert text[citation.text_span.start : citation.text_span.end] == citation.claim


# --- a reference list at the end is not cited --------------------------------------------

DRAFT = (
    "Water boils at 100 degrees [1]. Ice melts at 0 degrees [2, p. 4].\n\n"
    "## References\n\n"
    "[1] Smith, J. (2020). Boiling points. Journal of Heat, 3(2), 1-10.\n"
    "[2] Lee, K. (2019). Melting. In *Cold things* (pp. 3-9).\n"
    "    Second line of the entry.\n"
)


def test_reference_list_entries_are_not_citations() -> None:
    found, warnings = extract_citations(DRAFT)
    assert [(c.source_id, c.locator) for c in found] == [("1", None), ("2", "p. 4")]
    assert warnings == []


@pytest.mark.parametrize(
    "heading",
    ["## References", "# Bibliography", "Sources:", "**References**", "References", "Works Cited"],
)
def test_reference_list_headings(heading: str) -> None:
    text = f"Water boils [1].\n\n{heading}\n1. Smith, J. (2020). Boiling.\n2) lee2019.md\n"
    reference_list = find_reference_list(text)
    assert reference_list is not None
    assert [(e.number, e.text) for e in reference_list.entries] == [
        ("1", "Smith, J. (2020). Boiling."),
        ("2", "lee2019.md"),
    ]
    for entry in reference_list.entries:
        assert text[entry.span.start : entry.span.end] == entry.text
    assert text[reference_list.span.start :].startswith(heading)


def test_reference_list_entry_spans_continuation_lines() -> None:
    reference_list = find_reference_list(DRAFT)
    assert reference_list is not None
    assert [e.number for e in reference_list.entries] == ["1", "2"]
    second = reference_list.entries[1]
    assert second.text == (
        "Lee, K. (2019). Melting. In *Cold things* (pp. 3-9).\n    Second line of the entry."
    )
    assert DRAFT[second.span.start : second.span.end] == second.text


@pytest.mark.parametrize(
    "text",
    [
        "## Sources of error\nWater boils [1].\n",
        "## References\nThe references are listed below, see [1] for one.\n",
        "Water boils [1].\n```\n## References\n[1] x\n```\n",
    ],
)
def test_not_a_reference_list(text: str) -> None:
    assert find_reference_list(text) is None
    assert ids(text) == ["1"]


# --- properties: nothing marker-like is skipped in silence -------------------------------

_MARKERISH = st.sampled_from(
    [
        *"[]()@:;,.-&\n x1pL{}`'\"",
        *("[[", "]]", "[@", "@doe99", "@x", "[1, p. 2]", "[1, x]", "[Smith 2020]", "Smith"),
        *("(Smith 2020)", "(Smith, 2020, p. 12)", " (2020)", "Lee (2019)", " et al.", " and "),
        *("2020", "2019a", "; ", "p. 12", "## References\n", "[1] ", "\n\n", "`", "](x)"),
    ]
)
_MARKERISH_TEXT = st.lists(_MARKERISH, max_size=60).map("".join) | st.text(max_size=200)


def _inside(span: Span, text: str) -> bool:
    return 0 <= span.start <= span.end <= len(text)


@settings(max_examples=500)
@given(_MARKERISH_TEXT, st.sets(st.sampled_from(["doe99", "x", "Smith"]), max_size=2))
def test_every_marker_like_span_is_a_citation_or_a_warning(text: str, known: set[str]) -> None:
    found, warnings = extract_citations(text, known_ids=known)
    cited = [c.span for c in found if c.span is not None]
    warned = warned_spans(warnings)
    assert all(_inside(span, text) for span in cited + warned)
    for citation in found:
        assert citation.span is not None
        assert text[citation.span.start : citation.span.end] == citation.raw
        if citation.text_span is not None:
            assert _inside(citation.text_span, text)
    for span in marker_like_spans(text):
        assert _inside(span, text)
        assert any(other.contains(span) for other in cited + warned), (span, text)


class CurlySyntax:
    """A plugin's syntax: ``{2}`` cites the second entry of the text's numbering."""

    name = "curly"
    cited_as = "{{{}}}"
    names_by = "number"

    def scan(self, text: str) -> Iterator[Marker]:
        for match in re.finditer(r"\{(\d+)\}", text):
            span = Span(match.start(), match.end())
            yield Marker(span, match.group(), "curly", (Reference(match.group(1)),))


def test_a_syntax_is_one_module_and_a_registry_line(monkeypatch: pytest.MonkeyPatch) -> None:
    """What the verifier needs to resolve a syntax's citations, it reads from the syntax
    itself (``cited_as``, ``names_by``): no other module knows its name."""
    from citecheck import registry

    monkeypatch.setitem(registry._BUILTINS["syntaxes"], "curly", f"{__name__}:CurlySyntax")
    sources = {"smith": "The sky is blue.", "lee": "The sea is calm."}
    report = citecheck.verify(
        '"The sea is calm" {2}', sources, syntax="curly", numeric_sources=["smith", "lee"]
    )
    assert [r.status for r in report.results] == [Status.VERIFIED]
    assert [m.source_id for m in report.mappings] == ["lee"]
    assert [m.label for m in report.mappings] == ["{2}"]
