"""Bibliographies: BibTeX, CSL JSON and mappings read into one list of entries."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from citecheck.documents.bibliography import BibEntry, Bibliography, family_names, read_bibliography
from citecheck.errors import ConfigError, InputError, MissingDependencyError

BIBTEX = r"""
@article{smith2020,
  author = {Smith, John and van der Berg, Anna and M{\"u}ller, K.},
  title = {Boiling {Points} of Water},
  year = 2020,
  file = {:papers/smith2020.pdf:PDF},
}
@book{who2019, author = {{World Health Organization}}, title = {Report}, date = {2019-05-01}}
@misc{lee, author = {Kim Lee}, title = {Melting}, year = {2019a}}
"""

CSL = [
    {
        "id": "smith2020",
        "author": [{"family": "Smith", "given": "John"}, {"family": "Jones", "given": "M."}],
        "issued": {"date-parts": [[2020, 5]]},
        "title": "Boiling points of water",
    },
    {
        "id": "who2019",
        "author": [{"literal": "World Health Organization"}],
        "issued": {"raw": "2019"},
    },
]


def test_bibtex_file(tmp_path: Path) -> None:
    pytest.importorskip("bibtexparser")
    path = tmp_path / "refs.bib"
    path.write_text(BIBTEX, encoding="utf-8")
    bibliography = read_bibliography(path)
    assert [e.key for e in bibliography] == ["smith2020", "who2019", "lee"]
    smith = bibliography.get("smith2020")
    assert smith == BibEntry(
        key="smith2020",
        authors=("Smith", "van der Berg", "Müller"),
        year="2020",
        title="Boiling Points of Water",
        file="papers/smith2020.pdf",
    )
    assert bibliography.get("who2019") == BibEntry(
        "who2019", ("World Health Organization",), "2019", "Report"
    )
    assert bibliography.get("lee") == BibEntry("lee", ("Lee",), "2019a", "Melting")
    assert bibliography.warnings == ()


def test_a_broken_bibtex_entry_is_a_warning_naming_its_line(tmp_path: Path) -> None:
    pytest.importorskip("bibtexparser")
    path = tmp_path / "refs.bib"
    path.write_text("@article{a, title = {unclosed\n@misc{ok, title = {Fine}, year = 2001}\n")
    bibliography = read_bibliography(path)
    assert [e.key for e in bibliography] == ["ok"]
    (warning,) = bibliography.warnings
    assert str(path) in warning
    assert "line 1" in warning


def test_bibtex_without_the_extra_names_it(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    import sys

    monkeypatch.setitem(sys.modules, "bibtexparser", None)
    path = tmp_path / "refs.bib"
    path.write_text(BIBTEX)
    with pytest.raises(MissingDependencyError, match="bib"):
        read_bibliography(path)


def test_csl_json_file(tmp_path: Path) -> None:
    path = tmp_path / "refs.json"
    path.write_text(json.dumps(CSL), encoding="utf-8")
    bibliography = read_bibliography(path)
    assert list(bibliography) == [
        BibEntry("smith2020", ("Smith", "Jones"), "2020", "Boiling points of water"),
        BibEntry("who2019", ("World Health Organization",), "2019"),
    ]


def test_mapping_of_key_to_fields() -> None:
    bibliography = read_bibliography(
        {
            "smith2020": {"author": "Smith, John and Jones, Mary", "year": 2020, "file": "s.pdf"},
            "lee2019": {"authors": ["Kim Lee"], "date": "2019-03-01", "title": "Melting"},
        }
    )
    assert list(bibliography) == [
        BibEntry("smith2020", ("Smith", "Jones"), "2020", None, "s.pdf"),
        BibEntry("lee2019", ("Lee",), "2019", "Melting"),
    ]
    assert read_bibliography(bibliography) is bibliography


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("Smith, John and Jones, Mary", ("Smith", "Jones")),
        ("John Smith and Mary Jones", ("Smith", "Jones")),
        ("John Smith, Mary Jones", ("Smith", "Jones")),
        ("Smith, John", ("Smith",)),
        ("Smith J, Jones MA", ("Smith", "Jones")),
        ("Smith, J.; Jones, M.", ("Smith", "Jones")),
        ("J. Smith & M. Jones", ("Smith", "Jones")),
        ("Anna van der Berg", ("van der Berg",)),
        (["John Smith", {"family": "Jones"}, {"literal": "WHO"}], ("Smith", "Jones", "WHO")),
        ("", ()),
    ],
)
def test_family_names(value: object, expected: tuple[str, ...]) -> None:
    assert family_names(value) == expected


@pytest.mark.parametrize(
    "bad",
    [
        "missing.bib",
        {"k": "not a mapping of fields"},
        [{"title": "no id"}],
        42,
    ],
)
def test_bad_bibliographies_are_input_errors(bad: object, tmp_path: Path) -> None:
    with pytest.raises(InputError):
        read_bibliography(tmp_path / bad if isinstance(bad, str) else bad)  # type: ignore[arg-type]


def test_unknown_suffix_and_bad_json_name_the_file(tmp_path: Path) -> None:
    odd = tmp_path / "refs.ris"
    odd.write_text("TY  - JOUR")
    with pytest.raises(ConfigError, match=r"refs\.ris"):
        read_bibliography(odd)
    broken = tmp_path / "refs.json"
    broken.write_text("[{")
    with pytest.raises(InputError, match=r"refs\.json"):
        read_bibliography(broken)


def test_entries_from_source_metadata() -> None:
    entry = BibEntry.from_fields("paper", {"authors": "Smith, J.", "year": "2020", "path": "x.pdf"})
    assert entry == BibEntry("paper", ("Smith",), "2020", None, "x.pdf")
    assert Bibliography((entry,)).get("paper") is entry
    assert Bibliography((entry,)).get("other") is None
