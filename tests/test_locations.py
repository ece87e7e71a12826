from __future__ import annotations

import contextlib

import pytest
from hypothesis import given
from hypothesis import strategies as st

from citecheck import CitecheckError, Location, LocationError


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("general", Location("general")),
        ("L42", Location("lines", 42, 42)),
        ("L42-67", Location("lines", 42, 67)),
        ("l. 5", Location("lines", 5, 5)),
        ("ll. 5-9", Location("lines", 5, 9)),
        ("p12", Location("pages", 12, 12)),
        ("p. 213-214", Location("pages", 213, 214)),
        ("pp. 12–14", Location("pages", 12, 14)),
        ("pp. 213-14", Location("pages", 213, 214)),
        ("page 7", Location("pages", 7, 7)),
        ("sec-intro", Location("section", name="intro")),
        ("§ Methods", Location("section", name="Methods")),
        ("§3.2", Location("section", name="3.2")),
        ("section Related Work", Location("section", name="Related Work")),
        ("2:15", Location("time", 135, 135)),
        ("01:02:03", Location("time", 3723, 3723)),
        ("2:15-3:00", Location("time", 135, 180)),
        ("c100-250", Location("chars", 100, 250)),
        ("  L3  ", Location("lines", 3, 3)),
    ],
)
def test_parse_accepts_every_documented_form(text: str, expected: Location) -> None:
    assert Location.parse(text) == expected


@pytest.mark.parametrize(
    "text", ["", "   ", "banana", "L", "L-3", "p", "12", "1:75", "L0", "L67-42", "c9-3", "p12-10"]
)
def test_parse_rejects_non_locations_quoting_them(text: str) -> None:
    with pytest.raises(LocationError) as info:
        Location.parse(text)
    assert isinstance(info.value, CitecheckError)
    if text.strip():
        assert repr(text) in str(info.value)


def test_reversed_and_negative_ranges_are_errors() -> None:
    with pytest.raises(LocationError, match="reversed"):
        Location("lines", 9, 3)
    with pytest.raises(LocationError, match="negative"):
        Location("chars", -1, 4)


def test_absurd_numbers_are_rejected_not_overflowed() -> None:
    with pytest.raises(LocationError, match="too large"):
        Location.parse("L" + "9" * 40)


def test_describe_reads_like_a_citation() -> None:
    assert Location.parse("p12").describe() == "p. 12"
    assert Location.parse("pp. 12-14").describe() == "pp. 12-14"
    assert Location.parse("L42-67").describe() == "lines 42-67"
    assert Location.parse("sec-intro").describe() == "section 'intro'"


locations = st.one_of(
    st.just(Location("general")),
    st.builds(
        lambda kind, a, n: Location(kind, a, a + n),
        st.sampled_from(["lines", "pages", "time", "chars"]),
        st.integers(1, 10**6),
        st.integers(0, 10**4),
    ),
    st.builds(
        lambda name: Location("section", name=name),
        st.text(st.characters(categories=["L", "N"]), min_size=1, max_size=20),
    ),
)


@given(locations)
def test_str_round_trips_through_parse(location: Location) -> None:
    assert Location.parse(str(location)) == location


@given(st.text(max_size=40))
def test_parse_never_raises_anything_but_location_error(text: str) -> None:
    with contextlib.suppress(LocationError):
        Location.parse(text)
