"""Which source a citation means: numbers, author–year citations, bibliography keys, bare
``@key``; and the command line that says so."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from citecheck import Citation, Document, Report, Result, Status, Verifier, verify
from citecheck.cli import main
from citecheck.verification.resolution import SourceResolver, Unresolved

BOILING = "Water boils at 100 degrees at sea level. It freezes at 0 degrees."
MELTING = "Ice melts when it is warmed above 0 degrees. Salt lowers the melting point."
SOURCES = {
    "smith2020": Document(
        "smith2020", BOILING, {"author": "Smith, John and Jones, Mary", "year": 2020}
    ),
    "lee": Document("lee", MELTING, {"authors": ["Kim Lee"], "year": "2019", "title": "Melting"}),
}
BIB = {
    "smith2020": {"author": "Smith, John and Jones, Mary", "year": 2020, "title": "Boiling"},
    "lee2019": {"author": "Lee, Kim", "year": 2019, "title": "Melting", "file": "papers/lee.md"},
    "doe2018": {"author": "Doe, Ann", "year": 2018, "title": "Never given"},
}
PLAIN = {"smith2020": BOILING, "lee": MELTING}


def statuses(report: Report) -> list[Status]:
    return [r.status for r in report.results]


def only(report: Report) -> Result:
    assert len(report.results) == 1, report.to_text()
    return report.results[0]


# --- author–year citations -----------------------------------------------------------------


def test_author_year_citations_resolve_against_source_metadata() -> None:
    text = (
        '"Water boils at 100 degrees" (Smith & Jones, 2020). '
        "Lee (2019) found that ice melts when it is warmed above 0 degrees."
    )
    report = verify(text, SOURCES)
    assert statuses(report) == [Status.VERIFIED, Status.VERIFIED], report.to_text()
    assert [(m.cited, m.source_id) for m in report.mappings] == [
        ("Smith & Jones 2020", "smith2020"),
        ("Lee 2019", "lee"),
    ]


def test_author_year_citations_resolve_against_a_bibliography() -> None:
    text = '"Ice melts when it is warmed" (Lee 2019). "Salt lowers the melting point" (Doe 2018).'
    report = Verifier(bibliography=BIB).verify(text, PLAIN)
    first, second = report.results
    assert first.status is Status.VERIFIED  # lee2019's file papers/lee.md is the source 'lee'
    assert second.status is Status.UNCHECKED  # in the bibliography, but its text was not given
    assert "doe2018" in second.reason
    assert "not among the sources" in second.reason


def test_an_author_year_citation_that_matches_nothing_is_not_found_naming_the_candidates() -> None:
    result = only(verify('"Water boils at 100 degrees" (Smith, 2021, p. 3).', SOURCES))
    assert result.status is Status.NOT_FOUND
    assert "Smith 2021" in result.reason
    assert "smith2020" in result.reason  # the nearest candidate: the same author, another year


def test_an_ambiguous_author_year_citation_is_reported_with_both_candidates() -> None:
    sources = {
        "a": Document("a", BOILING, {"author": "Smith, J.", "year": 2020, "title": "Boiling"}),
        "b": Document("b", MELTING, {"author": "Smith, K.", "year": 2020, "title": "Ice"}),
    }
    result = only(verify('"Water boils at 100 degrees" (Smith 2020).', sources))
    assert result.status is Status.UNCHECKED
    assert "'a'" in result.reason
    assert "'b'" in result.reason
    suffixed = verify('"Ice melts when it is warmed" (Smith 2020b).', sources)
    assert only(suffixed).status is Status.VERIFIED  # 2020b: the second by title (APA order)


def test_author_year_without_anything_to_resolve_against_is_unchecked() -> None:
    result = only(verify('"Water boils at 100 degrees" (Smith 2020).', {"a": BOILING}))
    assert result.status is Status.UNCHECKED
    assert "bibliography" in result.reason


def test_author_year_resolves_by_a_source_id_naming_author_and_year() -> None:
    named = {"smith2020": BOILING, "lee2019": MELTING}  # every id names an author and year
    report = verify('"Water boils at 100 degrees" (Smith 2020). "x y z" (Doe 2018).', named)
    assert statuses(report) == [Status.VERIFIED, Status.NOT_FOUND]
    assert "Doe 2018" in report.results[1].reason


SKIES = "Jones says skies are blue and clouds are white."
SMITH_AND_UNKNOWN = [
    Document("a", BOILING, {"author": "Smith", "year": 2020}),
    Document("b", SKIES),  # nothing says who wrote it: it could be any work
]


def test_an_author_year_a_source_of_unknown_authorship_could_be_is_unchecked() -> None:
    result = only(verify("Skies are blue and clouds are white (Jones 2019).", SMITH_AND_UNKNOWN))
    assert result.status is Status.UNCHECKED, result.reason
    assert "'b' could be it" in result.reason
    assert "'a'" not in result.reason  # Smith 2020 is ruled out by its metadata


@pytest.mark.parametrize(
    ("metadata", "status"),
    [
        ({"author": "Jones"}, Status.UNCHECKED),  # the author agrees, the year is unknown
        ({"year": 2019}, Status.UNCHECKED),  # the year agrees, the author is unknown
        ({"title": "Skies"}, Status.UNCHECKED),  # a title says nothing of author and year
        ({"author": "Lee", "year": 2019}, Status.NOT_FOUND),
        ({"author": "Jones", "year": 2018}, Status.NOT_FOUND),
    ],
)
def test_an_author_year_is_not_found_only_when_every_source_is_ruled_out(
    metadata: dict[str, object], status: Status
) -> None:
    sources = [SMITH_AND_UNKNOWN[0], Document("b", SKIES, metadata)]
    result = only(verify("Skies are blue and clouds are white (Jones 2019).", sources))
    assert result.status is status, result.reason


# --- bibliography keys and bare @key -------------------------------------------------------


def test_pandoc_key_resolves_through_the_bibliography_file_field() -> None:
    report = Verifier(bibliography=BIB).verify('"Ice melts when it is warmed" [@lee2019].', PLAIN)
    assert statuses(report) == [Status.VERIFIED]
    assert [(m.cited, m.source_id) for m in report.mappings] == [("lee2019", "lee")]


def test_bare_key_of_a_known_source_is_checked_and_an_unknown_one_is_a_warning() -> None:
    text = "@smith2020 says that water boils at 100 degrees at sea level. Thanks @ann!"
    report = verify(text, PLAIN)
    assert statuses(report) == [Status.VERIFIED]
    (warning,) = report.warnings
    assert "'@ann'" in warning
    start = text.index("@ann")
    assert f"at characters {start}-{start + 4}" in warning


def test_bare_bibliography_key_is_a_citation() -> None:
    report = Verifier(bibliography=BIB).verify("@doe2018 says that salt lowers it.", PLAIN)
    assert statuses(report) == [Status.UNCHECKED]
    assert report.warnings == ()


# --- numbers -----------------------------------------------------------------------------

NUMBERED = (
    '"Ice melts when it is warmed above 0 degrees" [1]. "Water boils at 100 degrees" [2].'
    ' "Nothing" [3].\n\n'
    "## References\n"
    "1. Lee, K. (2019). Melting.\n"
    "2. Smith, J., & Jones, M. (2020). Boiling points.\n"
    "3. Doe, A. (2018). A phantom.\n"
)


def test_numbers_map_through_the_reference_list() -> None:
    report = verify(NUMBERED, SOURCES)
    assert statuses(report)[0] is Status.VERIFIED
    assert statuses(report)[1] is Status.VERIFIED
    assert report.results[1].evidence[0].source_id == "smith2020"
    assert statuses(report)[2] is Status.NOT_FOUND
    assert "Doe, A. (2018)" in report.results[2].reason
    assert [(m.cited, m.source_id) for m in report.mappings] == [("1", "lee"), ("2", "smith2020")]
    (warning,) = report.warnings
    assert "Doe, A. (2018)" in warning
    entry = NUMBERED.index("Doe, A.")
    assert f"at characters {entry}-" in warning


JONES_LISTED = (
    "Skies are blue and clouds are white [1].\n\n## References\n1. Jones, P. Skies. 2019.\n"
)


def test_a_reference_entry_a_source_of_unknown_authorship_could_be_is_unchecked() -> None:
    report = verify(JONES_LISTED, SMITH_AND_UNKNOWN)
    result = only(report)
    assert result.status is Status.UNCHECKED, result.reason
    assert "Jones, P. Skies. 2019." in result.reason
    assert "'b' could be it" in result.reason


@pytest.mark.parametrize(
    ("metadata", "status"),
    [
        ({"author": "Jones"}, Status.UNCHECKED),  # agrees, but says too little to match
        ({"title": "Rain"}, Status.NOT_FOUND),
        ({"author": "Lee", "year": 2019}, Status.NOT_FOUND),
    ],
)
def test_a_reference_entry_is_not_found_only_when_every_source_is_ruled_out(
    metadata: dict[str, object], status: Status
) -> None:
    sources = [SMITH_AND_UNKNOWN[0], Document("b", SKIES, metadata)]
    assert only(verify(JONES_LISTED, sources)).status is status


def test_a_source_another_entry_names_is_ruled_out() -> None:
    text = '"It freezes at 0 degrees" [1]. "x y z" [2].\n\nSources:\n[1] a.md\n[2] Doe, A. 2018.\n'
    report = verify(text, {"a": BOILING, "b": MELTING})
    assert statuses(report) == [Status.VERIFIED, Status.UNCHECKED]
    assert "'b' could be it" in report.results[1].reason
    named = verify(text.replace("[2] Doe", "[3] b.md\n[2] Doe"), {"a": BOILING, "b": MELTING})
    assert statuses(named) == [Status.VERIFIED, Status.NOT_FOUND]


def test_a_reference_entry_matching_several_sources_is_unchecked() -> None:
    sources = [
        Document("a", BOILING, {"author": "Smith", "year": 2020}),
        Document("b", MELTING, {"author": "Smith", "year": 2020}),
    ]
    text = '"x y z" [1].\n\nReferences\n[1] Smith, J. (2020). Water.\n'
    result = only(verify(text, sources))
    assert result.status is Status.UNCHECKED
    assert "several sources" in result.reason


def test_with_no_sources_given_every_citation_is_unchecked_with_one_warning() -> None:
    resolver = SourceResolver({}, sources_given=False)
    cited = [
        Citation("doc", syntax="tip"),
        Citation("1", syntax="numeric"),
        Citation("Smith 2020", syntax="author_year"),
        Citation("key", syntax="pandoc"),
    ]
    for citation in cited:
        outcome = resolver.resolve(citation)
        assert isinstance(outcome, Unresolved)
        assert outcome.status is Status.UNCHECKED
        assert "no sources were given" in outcome.reason
    (warning,) = resolver.warnings
    assert warning == "No sources were given, so none of the 4 citations could be checked."


def test_reference_list_entries_match_by_file_name_and_title() -> None:
    text = (
        '"Salt lowers the melting point" [1]. "It freezes at 0 degrees" [2].\n\n'
        "Sources:\n[1] Kim Lee, Melting, 2019.\n[2] smith2020.pdf\n"
    )
    report = verify(text, {"lee": SOURCES["lee"], "smith2020": BOILING})
    assert statuses(report) == [Status.VERIFIED, Status.VERIFIED]
    assert all("order" not in w for w in report.warnings)


def test_a_number_missing_from_the_reference_list_is_not_found() -> None:
    text = '"x y z" [4].\n\nReferences\n[1] smith2020\n'
    result = only(verify(text, PLAIN))
    assert result.status is Status.NOT_FOUND
    assert "reference list" in result.reason


def test_explicit_numbers_win_and_say_so() -> None:
    text = '"Water boils at 100 degrees" [1]. "x y z" [2].'
    report = verify(text, PLAIN, numeric_sources={"1": "smith2020"})
    assert statuses(report) == [Status.VERIFIED, Status.NOT_FOUND]
    assert "numeric_sources" in report.results[1].reason
    assert [(m.cited, m.source_id, m.by) for m in report.mappings] == [
        ("1", "smith2020", "numeric_sources")
    ]
    assert report.warnings == ()


def test_numbers_by_order_are_a_last_resort_with_a_warning() -> None:
    report = verify('"Water boils at 100 degrees" [1].', PLAIN)
    assert statuses(report) == [Status.VERIFIED]
    (warning,) = report.warnings
    assert "order" in warning
    assert "[1] = 'smith2020'" in warning
    assert [m.by for m in report.mappings] == ["order"]


def test_mappings_are_in_the_json_and_text_report() -> None:
    report = verify(NUMBERED, SOURCES)
    data = json.loads(report.to_json())
    assert [(m["cited"], m["source_id"]) for m in data["mappings"]] == [
        ("1", "lee"),
        ("2", "smith2020"),
    ]
    assert "[1] = 'lee'" in report.to_text()


def test_the_reference_list_is_not_checked() -> None:
    text = '"Water boils at 100 degrees" [1].\n\n# Sources\n[1] smith2020 (Smith 2020), p. 1\n'
    report = verify(text, PLAIN)
    assert [r.citation.raw for r in report.results] == ["[1]"]
    assert statuses(report) == [Status.VERIFIED]
    assert report.warnings == ()


# --- the command line --------------------------------------------------------------------


@pytest.fixture
def papers(tmp_path: Path) -> Path:
    folder = tmp_path / "papers"
    folder.mkdir()
    (folder / "smith.md").write_text(BOILING + "\n", encoding="utf-8")
    (folder / "lee.md").write_text(MELTING + "\n", encoding="utf-8")
    return folder


def test_cli_map_numbers_names_each_file(
    papers: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    draft = tmp_path / "draft.md"
    draft.write_text('"Water boils at 100 degrees" [1]. "Salt lowers the melting point" [2].')
    code = main(["verify", str(draft), str(papers), "--map-numbers", "1=smith.md,2=lee"])
    out = capsys.readouterr().out
    assert code == 0, out
    assert "[1] = 'smith'" in out
    assert "smith.md" in out
    assert "order" not in out


def test_cli_says_when_numbers_were_mapped_by_order(
    papers: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    draft = tmp_path / "draft.md"
    draft.write_text('"Salt lowers the melting point" [1].')
    assert main(["verify", str(draft), str(papers), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["mappings"][0]["source_id"] == "lee"
    assert data["mappings"][0]["path"].endswith("lee.md")
    assert any("order" in w for w in data["warnings"])


def test_cli_bad_map_numbers_exits_two(
    papers: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    draft = tmp_path / "draft.md"
    draft.write_text("Water [1].")
    assert main(["verify", str(draft), str(papers), "--map-numbers", "1=ghost.pdf"]) == 2
    assert "ghost.pdf" in capsys.readouterr().err
    assert main(["verify", str(draft), str(papers), "--map-numbers", "one"]) == 2
    assert "--map-numbers" in capsys.readouterr().err


def test_cli_bib_resolves_author_year(
    papers: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bib = tmp_path / "refs.json"
    bib.write_text(
        json.dumps(
            [
                {
                    "id": "smith",
                    "author": [{"family": "Smith"}],
                    "issued": {"date-parts": [[2020]]},
                },
                {"id": "lee", "author": [{"family": "Lee"}], "issued": {"date-parts": [[2019]]}},
            ]
        )
    )
    draft = tmp_path / "draft.md"
    draft.write_text('"Water boils at 100 degrees" (Smith, 2020). Lee (2019) said "Salt lowers".')
    assert main(["verify", str(draft), str(papers), "--bib", str(bib)]) == 0, capsys.readouterr()
    assert main(["verify", str(draft), str(papers), "--bib", str(tmp_path / "none.bib")]) == 2
    assert "none.bib" in capsys.readouterr().err


def test_reference_list_entries_match_by_url_metadata() -> None:
    sources = [
        Document("a", BOILING, {"url": "https://example.org/boiling"}),
        Document("b", MELTING, {"url": "https://example.org/melting/"}),
    ]
    text = (
        '"Salt lowers the melting point" [1].\n\nSources:\n'
        "[1]: https://example.org/melting/\n[2]: https://example.org/boiling\n"
    )
    report = verify(text, sources)
    assert statuses(report) == [Status.VERIFIED]
    assert report.warnings == ()


def test_names_match_across_particles_accents_and_acronyms() -> None:
    sources = [
        Document(
            "a", BOILING, {"author": [{"literal": "World Health Organization"}], "year": 2019}
        ),
        Document("b", MELTING, {"author": "Anna van der Berg and José Müller", "year": 2018}),
    ]
    text = '"Water boils at 100 degrees" (WHO, 2019). "Salt lowers" (Berg & Muller 2018).'
    assert statuses(verify(text, sources)) == [Status.VERIFIED, Status.VERIFIED]
    by_id = verify('"Salt lowers" (van der Berg 2018).', {"berg-2018": MELTING})
    assert statuses(by_id) == [Status.VERIFIED]
    assert [m.by for m in by_id.mappings] == ["id"]


def test_a_pandoc_key_may_be_a_sources_key_metadata() -> None:
    sources = [Document("file-17", BOILING, {"key": "smith2020"})]
    report = verify('"Water boils at 100 degrees" [@smith2020]. @smith2020 agrees.', sources)
    assert statuses(report)[0] is Status.VERIFIED
    assert report.mappings[0].describe() == "@smith2020 = 'file-17', by the sources' metadata"
    assert all("@smith2020" not in w for w in report.warnings)


def test_verify_with_no_sources_at_all_is_unchecked_with_one_warning() -> None:
    import citecheck

    report = citecheck.verify("x [[doc]]", {})
    assert report.results[0].status is citecheck.Status.UNCHECKED
    assert "no sources were given" in report.results[0].reason
    assert len(report.warnings) == 1
