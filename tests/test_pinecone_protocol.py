"""A Pinecone answer that breaks the protocol never becomes a verdict: the references it was
asked about are ``unchecked``, and the reason says what was wrong (issue 31).

Each fault is a well-formed HTTP 200 that the loopback emulator makes from its true answer
(``tamper_next``): a record whose id differs from its key, an id never asked for, vectors of
another dimension, an answer for another namespace, a record without values."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest

pinecone = pytest.importorskip("pinecone")

from citecheck.errors import BackendError  # noqa: E402
from citecheck.indexes.pinecone import PineconeIndex  # noqa: E402
from citecheck.model import Status  # noqa: E402
from citecheck.references import IndexCatalog, ReferenceVerifier, valmiki_ramayana  # noqa: E402
from citecheck.testing.catalog_conformance import corpus_records  # noqa: E402
from citecheck.testing.pinecone_emulator import PineconeEmulator  # noqa: E402

RAMAYANA = valmiki_ramayana()
ANSWER = "As told in [Bala 1.1] and in the phantom [Bala 1.999]."


@pytest.fixture(scope="module")
def emulator() -> Iterator[PineconeEmulator]:
    with PineconeEmulator(dimension=4, api_key="key") as running:
        yield running


@pytest.fixture
def index(emulator: PineconeEmulator) -> Iterator[PineconeIndex]:
    emulator.reset()
    client = pinecone.Index(host=emulator.host, api_key="key")
    made = PineconeIndex(emulator.host, "key", dimension=4, client=client, retries=0)
    made.upsert(corpus_records())
    yield made
    client.close()


def _first_record_renamed(answer: dict[str, Any]) -> dict[str, Any]:
    """The phantom asked for comes back, under its key, as a record of another id."""
    vectors = answer["vectors"]
    if "Bala.1.1" in vectors:
        vectors["Bala.1.999"] = dict(vectors["Bala.1.1"])  # its id stays "Bala.1.1"
    return answer


def _only_an_id_never_asked(answer: dict[str, Any]) -> dict[str, Any]:
    answer["vectors"] = {"Ayodhya.9.9": {"id": "Ayodhya.9.9", "values": [1, 0, 0, 0]}}
    return answer


def _wrong_dimension(answer: dict[str, Any]) -> dict[str, Any]:
    for record in answer["vectors"].values():
        record["values"] = [*record["values"], 0.5]
    return answer


def _other_namespace(answer: dict[str, Any]) -> dict[str, Any]:
    answer["namespace"] = "someone-else"
    return answer


def _no_values(answer: dict[str, Any]) -> dict[str, Any]:
    for record in answer["vectors"].values():
        record.pop("values", None)
    return answer


FAULTS: dict[str, tuple[Callable[[dict[str, Any]], Any], str]] = {
    "id differs from its key": (_first_record_renamed, "has the id"),
    "an id never asked for": (_only_an_id_never_asked, "not asked for"),
    "wrong dimension": (_wrong_dimension, "5 values, the index 4"),
    "another namespace": (_other_namespace, "namespace 'someone-else'"),
    "no values": (_no_values, "must have either values"),  # the SDK's own check
}


@pytest.mark.parametrize("fault", FAULTS, ids=FAULTS.keys())
def test_an_off_protocol_fetch_leaves_every_reference_unchecked(
    emulator: PineconeEmulator, index: PineconeIndex, fault: str
) -> None:
    change, said = FAULTS[fault]
    verifier = ReferenceVerifier(RAMAYANA, IndexCatalog(index, RAMAYANA))
    assert [r.status for r in verifier.verify(ANSWER).results] == [
        Status.VERIFIED,
        Status.NOT_FOUND,
    ]  # the true answer: one reference exists, the phantom does not
    emulator.tamper_next(change, times=5, path="/vectors/fetch")
    report = verifier.verify(ANSWER)
    assert {r.status for r in report.results} == {Status.UNCHECKED}, report.results
    assert report.outcome == "UNCHECKED"
    assert all(said in r.reason for r in report.results), report.results


@pytest.mark.parametrize("fault", FAULTS, ids=FAULTS.keys())
def test_the_index_raises_a_backend_error_naming_the_fault(
    emulator: PineconeEmulator, index: PineconeIndex, fault: str
) -> None:
    change, said = FAULTS[fault]
    emulator.tamper_next(change, path="/vectors/fetch")
    with pytest.raises(BackendError, match=said):
        index.fetch(["Bala.1.1", "Bala.1.999"])


def test_a_query_answer_for_another_namespace_is_refused(
    emulator: PineconeEmulator, index: PineconeIndex
) -> None:
    emulator.tamper_next(_other_namespace, path="/query")
    with pytest.raises(BackendError, match="namespace 'someone-else'"):
        index.search([1.0, 0.0, 0.0, 0.0], k=3)


def test_a_query_with_more_matches_than_asked_is_refused(
    emulator: PineconeEmulator, index: PineconeIndex
) -> None:
    def padded(answer: dict[str, Any]) -> dict[str, Any]:
        answer["matches"] = answer["matches"] * 3
        return answer

    emulator.tamper_next(padded, path="/query")
    with pytest.raises(BackendError, match="matches for top_k 2"):
        index.search([1.0, 0.0, 0.0, 0.0], k=2)
