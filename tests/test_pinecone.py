"""PineconeIndex through the real ``pinecone`` SDK: against the loopback emulator always, against
real Pinecone when ``PINECONE_API_KEY`` and ``CITECHECK_PINECONE_TEST_HOST`` are set."""

from __future__ import annotations

import http.client
import json
import os
import socket
import sys
import time
import uuid
from collections.abc import Iterator
from typing import Any

import pytest

pinecone = pytest.importorskip("pinecone")

from citecheck import registry  # noqa: E402
from citecheck.errors import (  # noqa: E402
    BackendError,
    ConfigError,
    FilterError,
    InputError,
    MissingDependencyError,
    RecordError,
)
from citecheck.indexes import Record  # noqa: E402
from citecheck.indexes.pinecone import MAX_REQUEST_BYTES, PineconeIndex, wire_id  # noqa: E402
from citecheck.protocols import Index  # noqa: E402
from citecheck.testing import IndexConformance  # noqa: E402
from citecheck.testing.pinecone_emulator import API_VERSION, PineconeEmulator  # noqa: E402

KEY = "test-key"


class Sleeps(list[float]):
    """A ``sleep`` that waits for nothing and remembers what it was asked to wait."""

    def __call__(self, seconds: float) -> None:
        self.append(seconds)


@pytest.fixture(scope="module")
def emulator() -> Iterator[PineconeEmulator]:
    with PineconeEmulator(dimension=4, api_key=KEY) as running:
        yield running


@pytest.fixture(scope="module")
def sdk_client(emulator: PineconeEmulator) -> Iterator[Any]:
    """One SDK client for the module: building one loads the TLS trust store (~50 ms)."""
    client = pinecone.Index(host=emulator.host, api_key=KEY)
    yield client
    client.close()


@pytest.fixture(autouse=True)
def clean_emulator(emulator: PineconeEmulator) -> Iterator[None]:
    emulator.reset()
    yield
    assert emulator.violations == ()


@pytest.fixture
def sleeps() -> Sleeps:
    return Sleeps()


@pytest.fixture
def index(emulator: PineconeEmulator, sdk_client: Any, sleeps: Sleeps) -> PineconeIndex:
    return PineconeIndex(emulator.host, KEY, dimension=4, client=sdk_client, sleep=sleeps)


def records(count: int, metadata: dict[str, Any] | None = None) -> list[Record]:
    return [
        Record(f"rec-{i:05d}", [1.0, float(i % 7), 0.5, float(i % 3)], metadata or {"n": i})
        for i in range(count)
    ]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


# -- the contract, against the emulator and against real Pinecone -------------------------------


class TestPineconeIndex(IndexConformance):
    @pytest.fixture
    def index(self, emulator: PineconeEmulator, sdk_client: Any) -> Index:
        return PineconeIndex(emulator.host, KEY, dimension=4, client=sdk_client, sleep=Sleeps())


REAL_HOST = os.environ.get("CITECHECK_PINECONE_TEST_HOST", "")
REAL_KEY = os.environ.get("PINECONE_API_KEY", "")


@pytest.mark.skipif(
    not (REAL_HOST and REAL_KEY),
    reason="set PINECONE_API_KEY and CITECHECK_PINECONE_TEST_HOST (a dense index of dimension 4, "
    "cosine) to run the contract against real Pinecone",
)
class TestRealPinecone(IndexConformance):
    """Each test in a namespace of its own, emptied afterwards."""

    @pytest.fixture
    def index(self) -> Iterator[Index]:
        namespace = f"citecheck-test-{uuid.uuid4().hex[:12]}"
        index = PineconeIndex(REAL_HOST, REAL_KEY, namespace=namespace, dimension=4)
        yield index
        cleaner = pinecone.Index(host=REAL_HOST, api_key=REAL_KEY)
        try:
            cleaner.delete(delete_all=True, namespace=namespace)
        except pinecone.NotFoundError:
            pass  # nothing was ever written there
        finally:
            cleaner.close()
            index.close()

    def settle(self, index: Index) -> None:
        """Pinecone is eventually consistent and says nothing of when a write shows: wait until
        the count and a search over everything read the same three times, a second apart (a
        heuristic; a minute at most)."""
        deadline = time.monotonic() + 60
        readings: list[object] = []
        while time.monotonic() < deadline:
            hits = index.search([1.0, 1.0, 1.0, 1.0], k=100)
            readings.append((index.count(), sorted((h.id, repr(h.metadata)) for h in hits)))
            if len(readings) >= 3 and readings[-1] == readings[-2] == readings[-3]:
                return
            time.sleep(1.0)
        pytest.fail("Pinecone did not settle within a minute")


# -- on the wire ----------------------------------------------------------------------------------


def test_every_request_names_the_api_version_and_carries_the_key(
    index: PineconeIndex, emulator: PineconeEmulator
) -> None:
    index.upsert(records(3))
    index.search([1.0, 0.0, 0.0, 0.0], k=2)
    index.fetch(["rec-00001"])
    index.delete(["rec-00001"])
    index.count()
    sent = emulator.requests
    assert [r.path for r in sent] == [
        "/vectors/upsert",
        "/query",
        "/vectors/fetch",
        "/vectors/delete",
        "/describe_index_stats",
    ]
    assert {r.headers["x-pinecone-api-version"] for r in sent} == {API_VERSION}
    assert {r.headers["api-key"] for r in sent} == {"***"}
    assert all(r.status == 200 for r in sent)


def test_the_default_namespace_is_the_empty_string_on_the_wire(
    index: PineconeIndex, emulator: PineconeEmulator
) -> None:
    index.upsert(records(2))
    index.fetch(["rec-00000"])
    index.delete(["rec-00000"])
    upsert, fetch, delete = emulator.requests
    assert upsert.namespace is None, "the SDK leaves the default namespace out of an upsert"
    assert fetch.namespace is None
    assert delete.namespace == ""
    assert set(emulator.stored("")) == {"rec-00001"}


def test_a_named_namespace_goes_on_every_request(
    emulator: PineconeEmulator, sdk_client: Any
) -> None:
    index = PineconeIndex(
        emulator.host, KEY, namespace="smith-2020", dimension=4, client=sdk_client
    )
    index.upsert(records(2))
    index.search([1.0, 0.0, 0.0, 0.0], k=1)
    index.fetch(["rec-00000"])
    index.delete(filter={"n": 0})
    assert {r.namespace for r in emulator.requests} == {"smith-2020"}
    assert set(emulator.stored("smith-2020")) == {"rec-00001"}
    assert emulator.stored("") == {}
    assert index.count() == 1
    assert PineconeIndex(emulator.host, KEY, dimension=4, client=sdk_client).count() == 0


def test_a_large_upsert_goes_in_batches_of_at_most_batch_size(
    emulator: PineconeEmulator, sdk_client: Any
) -> None:
    index = PineconeIndex(emulator.host, KEY, dimension=4, batch_size=1000, client=sdk_client)
    assert index.upsert(records(2500)) == 2500
    assert [r.vectors for r in emulator.requests] == [1000, 1000, 500]
    assert index.count() == 2500
    emulator.reset()
    PineconeIndex(emulator.host, KEY, dimension=4, client=sdk_client).upsert(records(250))
    assert [r.vectors for r in emulator.requests] == [100, 100, 50], "batch_size defaults to 100"


def test_batches_stay_under_two_megabytes(index: PineconeIndex, emulator: PineconeEmulator) -> None:
    index.batch_size = 1000
    heavy = records(120, {"text": "x" * 30_000})
    assert index.upsert(heavy) == 120
    sizes = [r.body_size for r in emulator.requests]
    assert len(sizes) >= 2
    assert max(sizes) <= MAX_REQUEST_BYTES
    assert sum(r.vectors for r in emulator.requests) == 120


def test_fetch_and_delete_of_many_ids_go_in_chunks_of_at_most_1000(
    index: PineconeIndex, emulator: PineconeEmulator
) -> None:
    index.batch_size = 1000
    written = records(2500)
    index.upsert(written)
    before = len(emulator.requests)
    found = index.fetch([r.id for r in written])
    assert len(found) == 2500
    assert found["rec-02499"].metadata == {"n": 2499}
    fetches = emulator.requests[before:]
    assert [r.ids for r in fetches] == [1000, 1000, 500]
    index.delete([r.id for r in written])
    deletes = emulator.requests[before + 3 :]
    assert [(r.path, r.ids) for r in deletes] == [("/vectors/delete", n) for n in (1000, 1000, 500)]
    assert index.count() == 0


IDS_PINECONE_REFUSES = (
    "Rāmāyaṇa 1.1.3",
    "日本語の文書",
    "x" * 600,
    "tab\there",
    "~cc~looks-hashed",
)


def test_ids_pinecone_refuses_round_trip_through_ascii_ids(
    index: PineconeIndex, emulator: PineconeEmulator
) -> None:
    written = [
        Record(rid, [1.0, float(i), 0.0, 0.0], {"i": i})
        for i, rid in enumerate(IDS_PINECONE_REFUSES)
    ]
    index.upsert([*written, Record("plain-id", [0.0, 0.0, 1.0, 0.0], {"i": 99})])
    stored = emulator.stored()
    assert "plain-id" in stored, "printable ASCII ids are stored as they are"
    for stored_id in stored:
        assert stored_id.isascii()
        assert 1 <= len(stored_id) <= 512
    assert wire_id("Rāmāyaṇa 1.1.3").startswith("~cc~Ramayana-1.1.3~")
    assert len({wire_id(rid) for rid in IDS_PINECONE_REFUSES}) == len(IDS_PINECONE_REFUSES)
    found = index.fetch(IDS_PINECONE_REFUSES)
    assert set(found) == set(IDS_PINECONE_REFUSES)
    assert found["日本語の文書"].id == "日本語の文書"
    assert found["日本語の文書"].metadata == {"i": 1}, "the original id is not user metadata"
    hits = index.search([1.0, 1.0, 0.0, 0.0], k=10)
    assert {h.id for h in hits} == {*IDS_PINECONE_REFUSES, "plain-id"}
    index.delete(["Rāmāyaṇa 1.1.3"])
    assert "Rāmāyaṇa 1.1.3" not in index.fetch(IDS_PINECONE_REFUSES)


def test_metadata_types_survive_pinecone_s_float64(
    index: PineconeIndex, emulator: PineconeEmulator
) -> None:
    metadata = {"page": 12, "line": -3, "score": 2.0, "ratio": 0.25, "ok": False, "tags": ["a"]}
    index.upsert([Record("r", [1.0, 0.0, 0.0, 0.0], metadata)])
    stored = emulator.stored()["r"]["metadata"]
    assert type(stored["page"]) is float, "the emulator keeps numbers as Pinecone does"
    assert stored["_citecheck_ints"] == ["line", "page"]
    got = index.fetch(["r"])["r"].metadata
    assert got == metadata
    assert {key: type(value) for key, value in got.items()} == {
        key: type(value) for key, value in metadata.items()
    }
    [hit] = index.search([1.0, 0.0, 0.0, 0.0], k=1, filter={"page": {"$gte": 12}})
    assert hit.metadata == metadata
    with pytest.raises(RecordError, match="float64"):
        index.upsert([Record("big", [1.0, 0.0, 0.0, 0.0], {"n": 2**60})])


@pytest.mark.parametrize("key", ["_citecheck_id", "_citecheck_ints", "_citecheck_other"])
def test_reserved_metadata_keys_are_refused_before_sending(
    index: PineconeIndex, emulator: PineconeEmulator, key: str
) -> None:
    with pytest.raises(RecordError, match="reserved"):
        index.upsert([Record("r", [1.0, 0.0, 0.0, 0.0], {key: "x"})])
    assert emulator.requests == ()


def test_bad_input_sends_nothing(index: PineconeIndex, emulator: PineconeEmulator) -> None:
    good = Record("good", [1.0, 0.0, 0.0, 0.0], {"doc": "fine"})
    with pytest.raises(RecordError):
        index.upsert([good, Record("bad", [1.0, 0.0, 0.0, 0.0], {"page": None})])  # type: ignore[dict-item]
    with pytest.raises(RecordError):
        index.upsert([good, Record("huge", [1.0, 0.0, 0.0, 0.0], {"text": "x" * 50_000})])
    with pytest.raises(FilterError):
        index.search([1.0, 0.0, 0.0, 0.0], k=3, filter={"doc": {"$regex": "f.*"}})
    with pytest.raises(InputError, match="10000"):
        index.search([1.0, 0.0, 0.0, 0.0], k=10_001)
    with pytest.raises(InputError):
        index.delete(["good"], filter={"doc": "fine"})
    assert emulator.requests == ()


def test_the_dimension_is_read_from_the_index(emulator: PineconeEmulator, sdk_client: Any) -> None:
    index = PineconeIndex(emulator.host, KEY, client=sdk_client)
    assert index.dimension is None
    assert index.search([1.0, 0.0, 0.0, 0.0], k=1) == []
    assert index.dimension == 4
    assert [r.path for r in emulator.requests] == ["/describe_index_stats", "/query"]
    fresh = PineconeIndex(emulator.host, KEY, client=sdk_client)
    with pytest.raises(RecordError, match="3 values, the index 4"):
        fresh.upsert([Record("r", [1.0, 2.0, 3.0])])
    assert "/vectors/upsert" not in {r.path for r in emulator.requests}


def test_an_index_without_vectors_takes_the_first_upsert_s_dimension() -> None:
    with PineconeEmulator(metric="dotproduct") as empty:
        index = PineconeIndex(empty.host, KEY, metric="dotproduct")
        assert index.search([1.0, 2.0], k=3) == []
        index.upsert([Record("short", [1.0, 0.0, 0.0]), Record("long", [3.0, 0.5, 0.0])])
        assert index.dimension == empty.dimension == 3
        hits = index.search([1.0, 0.0, 0.0], k=2)
        assert [h.id for h in hits] == ["long", "short"]
        assert hits[0].score == pytest.approx(3.0), "dot product scores are not bounded"
        index.close()


# -- failures: clear errors, retries without waiting ---------------------------------------------


def test_a_wrong_key_fails_at_once_without_retrying(
    emulator: PineconeEmulator, sleeps: Sleeps
) -> None:
    index = PineconeIndex(emulator.host, "wrong-key", dimension=4, sleep=sleeps)
    with pytest.raises(BackendError) as caught:
        index.count()
    message = str(caught.value)
    assert emulator.host in message
    assert "401" in message
    assert "wrong-key" not in message
    assert "wrong-key" not in repr(index)
    assert len(emulator.requests) == 1
    assert sleeps == []
    index.close()


@pytest.mark.parametrize("status", [400, 403, 404])
def test_other_refusals_are_not_retried(
    index: PineconeIndex, emulator: PineconeEmulator, sleeps: Sleeps, status: int
) -> None:
    emulator.fail_next(status)
    with pytest.raises(BackendError, match=f"HTTP {status}"):
        index.count()
    assert len(emulator.requests) == 1
    assert sleeps == []


def test_a_rate_limit_is_waited_out(
    index: PineconeIndex, emulator: PineconeEmulator, sleeps: Sleeps
) -> None:
    index.upsert(records(3))
    emulator.fail_next(429, path="/query")
    hits = index.search([1.0, 0.0, 0.0, 0.0], k=3)
    assert len(hits) == 3
    queries = [r.status for r in emulator.requests if r.path == "/query"]
    assert queries == [429, 200]
    assert len(sleeps) == 1
    assert 0.25 <= sleeps[0] <= 0.5
    emulator.fail_next(429, retry_after=7)
    assert index.count() == 3
    assert sleeps[1] >= 7, "a Retry-After header is honoured"


@pytest.mark.parametrize("status", [500, 503])
def test_a_server_error_that_persists_ends_in_a_backend_error(
    emulator: PineconeEmulator, sdk_client: Any, sleeps: Sleeps, status: int
) -> None:
    index = PineconeIndex(
        emulator.host, KEY, dimension=4, retries=3, backoff=0.5, client=sdk_client, sleep=sleeps
    )
    emulator.fail_next(status, times=100)
    with pytest.raises(BackendError, match=f"after 4 attempts: HTTP {status}") as caught:
        index.upsert(records(2))
    assert emulator.host in str(caught.value)
    assert len(emulator.requests) == 4, "citecheck retries, the SDK does not retry on top"
    assert len(sleeps) == 3
    for attempt, slept in enumerate(sleeps):
        step = 0.5 * 2**attempt
        assert step / 2 <= slept <= step, "exponential backoff, half of each step jittered"


def test_a_server_error_that_passes_is_retried(
    index: PineconeIndex, emulator: PineconeEmulator, sleeps: Sleeps
) -> None:
    emulator.fail_next(503, times=2)
    assert index.upsert(records(2)) == 2
    assert [r.status for r in emulator.requests] == [503, 503, 200]
    assert len(sleeps) == 2


def test_a_request_that_times_out_ends_in_a_backend_error(
    emulator: PineconeEmulator, sdk_client: Any, sleeps: Sleeps
) -> None:
    index = PineconeIndex(
        emulator.host, KEY, dimension=4, timeout=0.05, retries=1, client=sdk_client, sleep=sleeps
    )
    emulator.delay_next(5.0, times=2)
    started = time.monotonic()
    with pytest.raises(BackendError, match=r"after 2 attempts: no answer within 0\.05 s"):
        index.count()
    # cut off long before either 5 s answer: a loaded machine may delay the threads, not 5 s
    assert time.monotonic() - started < 4.0
    assert len(sleeps) == 1


def test_a_closed_port_fails_at_once(sleeps: Sleeps) -> None:
    host = f"http://127.0.0.1:{free_port()}"
    index = PineconeIndex(host, KEY, dimension=4, sleep=sleeps)
    with pytest.raises(BackendError, match="connection refused") as caught:
        index.search([1.0, 0.0, 0.0, 0.0])
    assert host in str(caught.value)
    assert sleeps == []
    index.close()


def test_a_stopped_emulator_answers_nothing(sleeps: Sleeps) -> None:
    with PineconeEmulator(dimension=4) as short_lived:
        index = PineconeIndex(short_lived.host, KEY, dimension=4, retries=0, sleep=sleeps)
        assert index.count() == 0
    with pytest.raises(BackendError):
        index.count()
    index.close()


# -- the emulator itself: Pinecone's shapes and refusals, and the client's mistakes ---------------

HEADERS = {"X-Pinecone-Api-Version": API_VERSION, "Api-Key": KEY}


def raw(
    emulator: PineconeEmulator, method: str, path: str, body: Any = None, headers: Any = HEADERS
) -> tuple[int, Any]:
    """One request without the SDK, to send what the SDK never would."""
    connection = http.client.HTTPConnection(emulator.host.removeprefix("http://"), timeout=2)
    try:
        data = None if body is None else json.dumps(body).encode()
        connection.request(method, path, body=data, headers=headers)
        response = connection.getresponse()
        return response.status, json.loads(response.read())
    finally:
        connection.close()


def test_the_emulator_answers_in_the_shapes_pinecone_gives(emulator: PineconeEmulator) -> None:
    def ok(method: str, path: str, body: Any = None) -> Any:
        status, answer = raw(emulator, method, path, body)
        assert status == 200, answer
        return answer

    record = {"id": "a", "values": [1, 0, 0, 0], "metadata": {"page": 1, "tags": ["x"]}}
    assert ok("POST", "/vectors/upsert", {"vectors": [record]}) == {"upsertedCount": 1}
    stats = ok("POST", "/describe_index_stats", {})
    assert stats["namespaces"] == {"__default__": {"vectorCount": 1}}
    assert (stats["dimension"], stats["totalVectorCount"], stats["metric"]) == (4, 1, "cosine")
    fetched = ok("GET", "/vectors/fetch?ids=a&ids=nope")
    stored = {"id": "a", "values": [1.0, 0.0, 0.0, 0.0], "metadata": {"page": 1.0, "tags": ["x"]}}
    assert fetched["vectors"] == {"a": stored}
    assert fetched["namespace"] == ""
    found = ok("POST", "/query", {"topK": 5, "id": "a"})
    assert found["matches"] == [{"id": "a", "values": [], "score": 1.0}]
    listed = ok("GET", "/vectors/list?limit=1")
    assert listed["vectors"] == [{"id": "a"}]
    assert "pagination" not in listed


@pytest.mark.parametrize(
    ("path", "body", "message"),
    [
        ("/vectors/upsert", {"vectors": [{"id": "z", "values": [0, 0, 0, 0]}]}, "only zeros"),
        ("/vectors/upsert", {"vectors": [{"id": "w", "values": [1, 1, 1]}]}, "dimension 3"),
        (
            "/vectors/upsert",
            {"vectors": [{"id": "n", "values": [1, 1, 1, 1], "metadata": {"x": None}}]},
            "key 'x'",
        ),
        (
            "/vectors/upsert",
            {"vectors": [{"id": "n", "values": [1, 1, 1, 1], "metadata": {"x": {"y": 1}}}]},
            "key 'x'",
        ),
        ("/vectors/upsert", {"vectors": [{"id": "é", "values": [1, 1, 1, 1]}]}, "ASCII"),
        ("/query", {"topK": 1, "vector": [1, 1, 1, 1], "filter": {"k": {"$regex": "B"}}}, "$regex"),
        ("/query", {"topK": 1, "vector": [1, 1, 1, 1], "filter": {"k": {"$gt": "2"}}}, "$gt"),
        ("/vectors/delete", {"ids": ["a"], "deleteAll": True}, "exactly one"),
    ],
)
def test_the_emulator_refuses_what_pinecone_refuses(
    emulator: PineconeEmulator, path: str, body: dict[str, Any], message: str
) -> None:
    status, answer = raw(emulator, "POST", path, body)
    assert status == 400
    assert message in answer["message"]
    assert emulator.stored() == {}


def test_the_emulator_records_the_client_s_wire_mistakes(emulator: PineconeEmulator) -> None:
    one = {"id": "v", "values": [1.0, 0.0, 0.0, 0.0]}
    no_version = {"Api-Key": KEY}
    no_key = {"X-Pinecone-Api-Version": API_VERSION}
    ids = "&".join(f"ids=v{i}" for i in range(1001))
    answers = [
        raw(emulator, "POST", "/describe_index_stats", {}, no_version),
        raw(emulator, "POST", "/describe_index_stats", {}, no_key),
        raw(emulator, "POST", "/vectors/upsert", {"vectors": [one] * 1001}),
        raw(emulator, "POST", "/query", {"topK": 10_001, "vector": [1.0, 0.0, 0.0, 0.0]}),
        raw(emulator, "GET", f"/vectors/fetch?{ids}"),
        raw(emulator, "POST", "/vectors/upsert", {"vectors": [one], "namespace": 7}),
    ]
    assert [status for status, _ in answers] == [400, 401, 400, 400, 400, 400]
    assert len(emulator.violations) == 6
    assert "X-Pinecone-Api-Version" in emulator.violations[0]
    emulator.reset()
    assert emulator.violations == ()


# -- building one ---------------------------------------------------------------------------------


def test_it_is_registered_and_reads_the_key_from_the_environment(
    emulator: PineconeEmulator, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PINECONE_API_KEY", KEY)
    index = registry.create("indexes", "pinecone", host=emulator.host, dimension=4)
    assert isinstance(index, PineconeIndex)
    assert isinstance(index, Index)
    assert index.count() == 0
    index.close()
    monkeypatch.delenv("PINECONE_API_KEY")
    with pytest.raises(ConfigError, match="PINECONE_API_KEY"):
        PineconeIndex(emulator.host)


@pytest.mark.parametrize(
    "options",
    [
        {"metric": "euclidean"},
        {"dimension": 0},
        {"batch_size": 1001},
        {"batch_size": 0},
        {"timeout": 0},
        {"retries": -1},
        {"backoff": -0.5},
        {"deadline": 0},
        {"namespace": None},
    ],
)
def test_bad_options_are_named(options: dict[str, Any], sdk_client: Any) -> None:
    with pytest.raises(ConfigError, match=next(iter(options))):
        PineconeIndex("http://127.0.0.1:1", KEY, client=sdk_client, **options)


def test_a_host_the_sdk_refuses_is_a_config_error() -> None:
    with pytest.raises(ConfigError, match="nohost"):
        PineconeIndex("http://nohost:1", KEY)


def test_without_the_sdk_the_extra_is_named(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "pinecone", None)
    with pytest.raises(MissingDependencyError, match=r"citecheck\[pinecone\]"):
        PineconeIndex("http://127.0.0.1:1", KEY)


# -- a corpus on Pinecone, in the verifier --------------------------------------------------------


def test_a_corpus_on_pinecone_verifies_and_an_outage_is_unchecked_not_a_phantom(
    emulator: PineconeEmulator, sdk_client: Any, sleeps: Sleeps
) -> None:
    from citecheck import Corpus, Status, Verifier
    from citecheck.testing import HashingEmbedder

    index = PineconeIndex(emulator.host, KEY, client=sdk_client, sleep=sleeps, retries=1)
    corpus = Corpus(HashingEmbedder(4), index)
    paper = "[PAGE:3]\nRainfall fell by 12 percent.\n[PAGE:4]\nHospitals reported fewer cases.\n"
    corpus.add({"paper": paper, "notes": "Farmers lost the harvest to the drought."})
    assert corpus.add({"paper": paper}).unchanged == ("paper",), "the hash is read back"
    [hit] = corpus.search("hospitals reported fewer cases", k=1, filter={"page": 4})
    assert (hit.source_id, hit.page) == ("paper", 4)
    assert type(hit.start) is int

    later = Verifier(index=Corpus(HashingEmbedder(4), index))  # knows the ids, not the texts
    text = '"Hospitals reported" [[paper:p4]]. "lost the harvest" [[paper:p3]].'
    emulator.fail_next(503, times=100)
    first, second = later.verify(text, {}).results
    assert first.status is Status.UNCHECKED
    assert second.status is Status.UNCHECKED
    assert "503" in first.reason


# -- under faults: odd answers, echoed secrets, slow servers -------------------------------------


@pytest.mark.parametrize(
    ("path", "body", "missing"),
    [
        ("/query", {}, "matches"),
        ("/query", {"matches": None, "namespace": ""}, "matches"),
        ("/vectors/fetch", {}, "vectors"),
        ("/describe_index_stats", {}, "namespaces"),
        ("/query", b"<html>gateway</html>", "JSON"),
        ("/query", [], "JSON object"),
    ],
)
def test_an_answer_pinecone_never_gives_is_a_backend_error_not_an_empty_result(
    index: PineconeIndex,
    emulator: PineconeEmulator,
    sleeps: Sleeps,
    path: str,
    body: Any,
    missing: str,
) -> None:
    index.upsert(records(3))
    calls = {
        "/query": lambda: index.search([1.0, 0.0, 0.0, 0.0], k=3),
        "/vectors/fetch": lambda: index.fetch(["rec-00000"]),
        "/describe_index_stats": index.count,
    }
    emulator.answer_next(200, body, path=path)
    with pytest.raises(BackendError, match=missing) as caught:
        calls[path]()
    assert "unexpected answer" in str(caught.value)
    assert emulator.host in str(caught.value)
    assert sleeps == [], "an answer of the wrong shape is not retried"


def test_an_upsert_pinecone_does_not_confirm_is_a_backend_error(
    index: PineconeIndex, emulator: PineconeEmulator
) -> None:
    emulator.answer_next(200, {"upsertedCount": 1}, path="/vectors/upsert")
    with pytest.raises(BackendError, match="wrote 1 of 3"):
        index.upsert(records(3))


SECRET = "pcsk_secret-key-0123456789"


@pytest.mark.parametrize("status", [401, 400, 503])
def test_an_echoed_key_reaches_no_message_traceback_or_log(
    status: int, sleeps: Sleeps, caplog: pytest.LogCaptureFixture
) -> None:
    import logging
    import traceback

    with PineconeEmulator(dimension=4) as echoing:
        index = PineconeIndex(echoing.host, SECRET, dimension=4, retries=1, sleep=sleeps)
        echoing.fail_next(status, times=2, echo_key=True)
        with pytest.raises(BackendError) as caught:
            index.count()
        index.close()
    error = caught.value
    printed = "".join(traceback.format_exception(error))
    assert str(status) in printed
    assert "Api-Key ***" in printed, "the echo stays readable, the key does not"
    assert SECRET not in printed
    with caplog.at_level(logging.DEBUG):
        try:
            raise error
        except BackendError:
            logging.getLogger("citecheck.test").exception("the backend failed")
    assert "the backend failed" in caplog.text
    assert SECRET not in caplog.text


def test_the_key_of_a_client_given_is_redacted_too(sleeps: Sleeps) -> None:
    with PineconeEmulator(dimension=4) as echoing:
        client = pinecone.Index(host=echoing.host, api_key=SECRET)
        index = PineconeIndex(echoing.host, "another-key", dimension=4, client=client, sleep=sleeps)
        echoing.fail_next(400, echo_key=True)
        with pytest.raises(BackendError) as caught:
            index.count()
        client.close()
    assert SECRET not in str(caught.value)


@pytest.mark.parametrize("headers", [True, False], ids=["headers-drip", "body-drip"])
def test_a_slow_drip_is_cut_off_at_the_total_deadline(sleeps: Sleeps, headers: bool) -> None:
    """Every read succeeds (a byte every 0.05 s), so only a deadline over the whole request
    stops it; the answer would take about 10 s to arrive."""
    with PineconeEmulator(dimension=4) as slow:
        for timeout in (0.3, 0.6):
            index = PineconeIndex(slow.host, KEY, dimension=4, timeout=timeout, retries=0)
            slow.drip_next(0.05, path="/query", headers=headers)
            started = time.monotonic()
            with pytest.raises(BackendError, match=rf"no answer within {timeout:g} s"):
                index.search([1.0, 0.0, 0.0, 0.0], k=3)
            elapsed = time.monotonic() - started
            # the drip would take about 10 s: a cut at the deadline is far below that, even on a
            # loaded machine that delays the threads
            assert timeout * 0.9 <= elapsed < timeout + 4.0, (timeout, elapsed)
            index.close()


def test_retries_share_one_budget(sleeps: Sleeps) -> None:
    with PineconeEmulator(dimension=4) as slow:
        index = PineconeIndex(
            slow.host, KEY, dimension=4, timeout=0.3, retries=10, backoff=0.05, deadline=0.8
        )
        slow.drip_next(0.05, times=100)
        started = time.monotonic()
        with pytest.raises(BackendError, match=r"0\.8 s budget") as caught:
            index.count()
        elapsed = time.monotonic() - started
        assert elapsed < 0.8 + 4.0, elapsed  # ten retries of 0.3 s each would take over 3 s
        assert "no answer within" in str(caught.value)
        assert len(slow.requests) < 5  # the budget, counted: at most 0.8 s / 0.3 s tries
        index.close()


def test_the_emulator_can_drip_and_answer_anything(emulator: PineconeEmulator) -> None:
    emulator.answer_next(200, b"not json", path="/query")
    connection = http.client.HTTPConnection(emulator.host.removeprefix("http://"), timeout=2)
    connection.request("POST", "/query", body=b"{}", headers=HEADERS)
    assert connection.getresponse().read() == b"not json"
    connection.close()
    emulator.drip_next(0.001, path="/describe_index_stats")
    status, answer = raw(emulator, "POST", "/describe_index_stats", {})
    assert status == 200
    assert answer["namespaces"] == {}
