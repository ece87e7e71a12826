"""The Valmiki Ramayana for real (``../shared/data/references/ramayana``, or
``$CITECHECK_DATA/references/ramayana``): every shloka of the map exists, phantoms do not — by
the structure map, through the memory index and through the Pinecone emulator."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from citecheck.indexes.memory import MemoryIndex
from citecheck.indexes.records import Record
from citecheck.model import Status
from citecheck.references import (
    IndexCatalog,
    ReferenceVerifier,
    StructureMap,
    load_valmiki_shlokas,
    valmiki_ramayana,
)

DATA = (
    (
        Path(os.environ["CITECHECK_DATA"])
        if "CITECHECK_DATA" in os.environ
        else Path(__file__).parents[1] / ".." / "shared" / "data"
    )
    / "references"
    / "ramayana"
)

pytestmark = pytest.mark.skipif(
    not (DATA / "ramayan_map.json").exists(), reason="shared Ramayana data not present"
)

SCHEME = valmiki_ramayana()
PHANTOMS = "[Bala 1.999] (Bala 78.1) Ramayana 8.1.1 [Sundara 68.100] (Uttara 112.1)"
PHANTOM_CANONICALS = ["Bala 1.999", "Bala 78.1", "Ramayana 8.1.1", "Sundara 68.100", "Uttara 112.1"]


@pytest.fixture(scope="module")
def structure() -> StructureMap:
    return StructureMap.from_file(DATA / "ramayan_map.json", SCHEME)


@pytest.fixture(scope="module")
def every_reference(structure: StructureMap) -> str:
    """One text citing every shloka of the map, as an answer would."""
    return "\n".join(f"[{ref.canonical}]" for ref in structure.references())


def test_the_map_holds_every_shloka_of_the_text(structure: StructureMap) -> None:
    texts = load_valmiki_shlokas(DATA)
    refs = [ref.canonical for ref in structure.references()]
    assert len(refs) == 23_581
    assert refs == list(texts)


def test_every_shloka_exists(structure: StructureMap, every_reference: str) -> None:
    report = ReferenceVerifier(SCHEME, structure).verify(every_reference)
    assert len(report) == 23_581
    assert report.result == "PASS"


def test_phantoms_do_not_exist(structure: StructureMap) -> None:
    report = ReferenceVerifier(SCHEME, structure).verify(PHANTOMS)
    assert report.result == "FAIL"
    assert report.phantom_citations == PHANTOM_CANONICALS
    reasons = [r.reason for r in report]
    assert reasons[0] == "Bala sarga 1 has 100 shlokas"
    assert reasons[1] == "Bala has 77 sargas"
    assert reasons[2] == "the Valmiki Ramayana has 7 kandas"
    eighth = SCHEME.reference("8", (1, 1))
    assert structure.lookup([eighth])[eighth].exists is False


def test_a_real_shloka_is_quoted_where_it_stands(structure: StructureMap) -> None:
    texts = load_valmiki_shlokas(DATA)
    first_line = texts["Sundara 15.30"].splitlines()[0].rstrip(" ।")
    verifier = ReferenceVerifier(SCHEME, structure, texts=texts)
    report = verifier.verify(
        f'"{first_line}" [Sundara 15.30], "{first_line}" [Sundara 15.31], "{first_line}" [Bala 1.1]'
    )
    assert [r.status for r in report] == [
        Status.VERIFIED,
        Status.WRONG_LOCATION,  # the next shloka: a wrong number, not a fabrication
        Status.UNSUPPORTED,  # another kanda: not looked for
    ]
    assert "stands in Sundara 15.30, not in Sundara 15.31" in report.results[1].reason
    assert report.phantom_citations == []


def shloka_records(structure: StructureMap) -> list[Record]:
    return [
        Record(f"{ref.book}.{ref.numbers[0]}.{ref.numbers[1]}", [1.0, float(i % 10)], {})
        for i, ref in enumerate(structure.references())
    ]


class CountingIndex(MemoryIndex):
    def __init__(self) -> None:
        super().__init__()
        self.fetched: list[int] = []

    def fetch(self, ids: Any) -> Any:
        wanted = list(ids)
        self.fetched.append(len(wanted))
        return super().fetch(wanted)


def test_the_same_through_the_memory_index(structure: StructureMap, every_reference: str) -> None:
    index = CountingIndex()
    index.upsert(shloka_records(structure))
    verifier = ReferenceVerifier(SCHEME, IndexCatalog(index, SCHEME))
    assert verifier.verify(every_reference).result == "PASS"
    assert max(index.fetched) <= 1000
    assert len(index.fetched) == 24  # 23,581 ids, a thousand a request
    assert verifier.verify(PHANTOMS).phantom_citations == PHANTOM_CANONICALS


@pytest.fixture(scope="module")
def pinecone_index(structure: StructureMap) -> Iterator[tuple[Any, Any]]:
    pinecone = pytest.importorskip("pinecone")
    from citecheck.indexes.pinecone import PineconeIndex
    from citecheck.testing.pinecone_emulator import PineconeEmulator

    with PineconeEmulator(dimension=2, api_key="key") as emulator:
        client = pinecone.Index(host=emulator.host, api_key="key")
        index = PineconeIndex(emulator.host, "key", dimension=2, client=client, batch_size=1000)
        index.upsert(shloka_records(structure))
        yield emulator, index
        client.close()
        assert emulator.violations == ()


def test_the_same_through_pinecone(pinecone_index: tuple[Any, Any], every_reference: str) -> None:
    emulator, index = pinecone_index
    verifier = ReferenceVerifier(SCHEME, IndexCatalog(index, SCHEME))
    before = len(emulator.requests)
    assert verifier.verify(every_reference).result == "PASS"
    fetches = [r for r in emulator.requests[before:] if r.path.endswith("/vectors/fetch")]
    assert len(emulator.requests) - before == len(fetches) == 24
    assert max(r.ids for r in fetches) <= 1000
    report = verifier.verify(PHANTOMS)
    assert report.phantom_citations == PHANTOM_CANONICALS


def test_a_pinecone_outage_is_unchecked(pinecone_index: tuple[Any, Any]) -> None:
    from citecheck.indexes.pinecone import PineconeIndex

    emulator, _ = pinecone_index
    impatient = PineconeIndex(
        emulator.host, "key", dimension=2, retries=1, sleep=lambda seconds: None
    )
    verifier = ReferenceVerifier(SCHEME, IndexCatalog(impatient, SCHEME))
    emulator.fail_next(503, times=2)  # the try and the one retry
    report = verifier.verify("[Bala 1.1] and [Bala 1.999]")
    impatient.close()
    assert report.result == "UNCHECKED"
    assert report.phantom_citations == []
    assert "503" in report.results[0].reason
