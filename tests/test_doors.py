"""Every door citecheck registers, through the one door contract (:mod:`citecheck.testing.doors`),
and the adapters that reach them through the registry."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from typing import Any

import pytest

from citecheck import Citation, Location, Status, Verifier, registry
from citecheck.documents import Document
from citecheck.errors import ConfigError, InputError, UnknownBackendError
from citecheck.papers import DraftVerifier, PaperLibrary
from citecheck.protocols import Verifier as Door
from citecheck.quotes import QuoteLocator
from citecheck.records import RecordVerifier
from citecheck.references import ReferenceVerifier
from citecheck.testing import DoorConformance, HashingEmbedder
from papers_texts import PAPER

SKY = {"doc": "The sky is blue. The sea is calm."}
MAP = {"Bala": [100, 43], "Ayodhya": [10, 10, 12]}
MINUTES = {"minutes": "The committee approved the budget on Tuesday after a long debate."}
HAS_BM25 = importlib.util.find_spec("bm25s") is not None


def test_every_door_is_registered() -> None:
    assert registry.available("doors")[:5] == [
        "markers",
        "quotes",
        "references",
        "records",
        "papers",
    ]
    with pytest.raises(UnknownBackendError, match="no door named 'essays'"):
        registry.load("doors", "essays")


class TestMarkers(DoorConformance):
    @pytest.fixture
    def door(self) -> Door:
        return Verifier()

    @pytest.fixture
    def passing(self) -> tuple[Any, Any]:
        return '"The sky is blue" [[doc:L1]]', dict(SKY)

    @pytest.fixture
    def failing(self) -> tuple[Any, Any]:
        return '"The sky is green" [[doc:L1]] and "the sea is calm" [[doc:L1]]', dict(SKY)


@pytest.mark.skipif(not HAS_BM25, reason="the quotes door needs the bm25 extra")
class TestQuotes(DoorConformance):
    @pytest.fixture
    def door(self) -> Door:
        return QuoteLocator()

    @pytest.fixture
    def passing(self) -> tuple[Any, Any]:
        return ["approved the budget on Tuesday"], dict(MINUTES)

    @pytest.fixture
    def failing(self) -> tuple[Any, Any]:
        return ["approved the budget", "rejected every proposal outright"], dict(MINUTES)


class TestReferences(DoorConformance):
    @pytest.fixture
    def door(self) -> Door:
        return ReferenceVerifier(against=MAP)

    @pytest.fixture
    def passing(self) -> tuple[Any, Any]:
        return "Rama went [Bala Kanda 1.1] and then (Ayodhya 2.3).", None

    @pytest.fixture
    def failing(self) -> tuple[Any, Any]:
        return "True [Bala 1.1]; false [Bala 1.999].", None


def _record(key: str, citation: str) -> dict[str, Any]:
    return {
        "id": key,
        "source_text": "Content from minutes\n" + MINUTES["minutes"],
        "citations": [{"citation": citation}],
    }


class TestRecords(DoorConformance):
    @pytest.fixture
    def door(self) -> Door:
        return RecordVerifier(embedder=HashingEmbedder(1024))

    @pytest.fixture
    def passing(self) -> tuple[Any, Any]:
        return [_record("r1", MINUTES["minutes"])], None

    @pytest.fixture
    def failing(self) -> tuple[Any, Any]:
        return [
            _record("r1", MINUTES["minutes"]),
            _record("r2", "Penguins migrate across the desert every winter season."),
        ], None


@pytest.fixture(scope="module")
def library(tmp_path_factory: pytest.TempPathFactory) -> PaperLibrary:
    folder = tmp_path_factory.mktemp("papers")
    paper = folder / "stoker2022.md"
    paper.write_text(PAPER, encoding="utf-8")
    library = PaperLibrary(folder / "lib", embedder=HashingEmbedder(), judge=None)
    library.add(paper)
    return library


class TestPapers(DoorConformance):
    @pytest.fixture
    def door(self) -> Door:
        return DraftVerifier(reviser=None)

    @pytest.fixture
    def passing(self, library: PaperLibrary) -> tuple[Any, Any]:
        sentence = library.pages("stoker2022")[0].text.split(".")[0].strip()
        return f"{sentence} [@stoker2022, p. 1].", library

    @pytest.fixture
    def failing(self, library: PaperLibrary) -> tuple[Any, Any]:
        return "Bananas are blue [@nobody2020].", library


# -- the contracts of a citation and a location -----------------------------------------------


class PluginLocation:
    """A plugin's own location type: not citecheck's, with the four attributes."""

    def __init__(self, kind: str, start: int | None, end: int | None = None) -> None:
        self.kind, self.start, self.end, self.name = kind, start, end, None


class PluginCitation:
    """A plugin's own citation type."""

    def __init__(self, source_id: str, excerpt: str, location: Any = None) -> None:
        self.source_id, self.excerpt, self.location = source_id, excerpt, location
        self.claim = None
        self.locator = "L1"


def test_a_plugins_citation_and_location_are_checked_as_citechecks_own() -> None:
    from citecheck.protocols import Citation as CitationContract
    from citecheck.protocols import Location as LocationContract

    documents = {"doc": Document("doc", SKY["doc"])}
    theirs = PluginCitation("doc", "The sky is blue", PluginLocation("lines", 1, 1))
    assert isinstance(theirs, CitationContract)
    assert isinstance(theirs.location, LocationContract)
    assert isinstance(Citation("doc"), CitationContract)
    assert isinstance(Location.parse("p3"), LocationContract)
    ours = Citation("doc", Location("lines", 1, 1), excerpt="The sky is blue", locator="L1")
    verifier = Verifier()
    assert verifier.check(theirs, documents).status is Status.VERIFIED
    assert verifier.check(theirs, documents).to_dict() == verifier.check(ours, documents).to_dict()
    wrong = PluginCitation("doc", "The sky is green", PluginLocation("lines", 1, 1))
    assert verifier.check(wrong, documents).status is not Status.VERIFIED


def test_a_citation_without_a_source_is_refused_by_name() -> None:
    with pytest.raises(InputError, match="source_id"):
        Verifier().check(object(), {})  # type: ignore[arg-type]
    with pytest.raises(InputError, match="kind, start, end and name"):
        Verifier().check(PluginCitation("doc", "x", location=object()), {})


# -- adapters reach the doors through the registry --------------------------------------------


def test_a_door_is_built_by_name_with_its_options() -> None:
    door = registry.create("doors", "markers", threshold=0.9)
    assert isinstance(door, Verifier)
    quotes = registry.create("doors", "quotes", candidates=5)
    assert quotes.config.candidates == 5
    with pytest.raises(ConfigError):
        registry.create("doors", "quotes", no_such_option=1)


def test_the_records_door_takes_no_sources() -> None:
    with pytest.raises(InputError, match="carry their own source text"):
        RecordVerifier(embedder=HashingEmbedder(64)).verify([], {"a": "b"})  # type: ignore[arg-type]


def test_the_papers_door_opens_a_library_by_its_folder(tmp_path: Path) -> None:
    paper = tmp_path / "stoker2022.md"
    paper.write_text(PAPER, encoding="utf-8")
    PaperLibrary(tmp_path / "lib", embedder=None, judge=None).add(paper)
    door = DraftVerifier(reviser=None, embedder=None, judge=None)
    report = door.verify("Bananas are blue [@nobody2020].", tmp_path / "lib")
    assert [r.status for r in report.results] == [Status.NOT_FOUND]
    with pytest.raises(InputError, match="PaperLibrary or its folder"):
        door.verify("x [@a].", 42)  # type: ignore[arg-type]


def test_an_integration_reaches_its_door_through_the_registry() -> None:
    from citecheck.integrations.answers import as_verifier

    assert isinstance(as_verifier(None), Verifier)
    assert isinstance(as_verifier("markers"), Verifier)
    assert as_verifier({"threshold": 0.9, "matchers": ["exact"]}).name == "markers"
    references = ReferenceVerifier(against=MAP)
    assert as_verifier(references) is references
    with pytest.raises(ConfigError, match="the quotes door checks items, not an answer"):
        as_verifier("quotes")
    with pytest.raises(ConfigError, match="unknown verifier option"):
        as_verifier({"treshold": 0.9})
    with pytest.raises(ConfigError, match="a door, its name or the Verifier's options"):
        as_verifier(42)


def test_every_kind_of_report_is_listed() -> None:
    from citecheck.report import KINDS

    for door, subject, sources in (
        ("markers", '"The sky is blue" [[doc:L1]]', dict(SKY)),
        ("references", "Rama went [Bala Kanda 1.1].", None),
    ):
        built = registry.create("doors", door, **({"against": MAP} if door == "references" else {}))
        assert built.verify(subject, sources).kind in KINDS
