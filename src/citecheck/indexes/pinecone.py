"""Pinecone behind the :class:`~citecheck.protocols.Index` protocol (extra ``pinecone``).

Talks to an existing index by its host through the official ``pinecone`` SDK (REST); it never
creates, configures or deletes indexes. On top of the SDK it keeps citecheck's contract:

* Records and filters are checked before anything is sent, so bad input writes nothing.
* Upserts go in batches within Pinecone's limits (records and bytes a request), fetches and
  deletes in chunks of at most 1,000 ids.
* Ids Pinecone refuses (not printable ASCII, or over 512 characters) are stored under a
  deterministic ASCII id, a readable slug and a hash; the original stays in the metadata and is
  what every method takes and returns.
* Metadata comes back with the types written: Pinecone keeps numbers as float64, so the names
  of the integer fields travel with the record and are turned back into ``int`` on reading.
* Rate limits, server errors, timeouts and dropped connections are retried with exponential
  backoff and jitter, within one time budget a request; what still fails (or is refused: 401,
  403, a closed port) raises :class:`~citecheck.errors.BackendError` naming the host and the
  HTTP status.
* An HTTP 200 whose body lacks what Pinecone always sends (``{}`` for a query) is an error,
  never an empty result, and an upsert Pinecone does not confirm in full is one too.
* ``timeout`` bounds each try in full (connect, send and every read), not each read
  (:mod:`citecheck.indexes.pinecone_guards`).
* The API key reaches no message, and no error is chained to the SDK's (whose message or
  body may echo it), so no traceback or log shows it.

Pinecone is eventually consistent: a record just written may take a moment to be counted,
fetched or found. Metadata keys starting with ``_citecheck_`` are reserved.
"""

from __future__ import annotations

import hashlib
import json
import os
import random
import re
import time
import unicodedata
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar
from urllib.parse import quote

from citecheck.errors import (
    BackendError,
    ConfigError,
    InputError,
    MissingDependencyError,
    RecordError,
)
from citecheck.indexes.filters import Filter, check_filter
from citecheck.indexes.records import (
    METRICS,
    Hit,
    MetadataValue,
    Record,
    check_count,
    check_ids,
    check_k,
    check_records,
    check_vector,
)

if TYPE_CHECKING:
    import pinecone
    from pinecone.errors.exceptions import PineconeError
    from pinecone.models.vectors.responses import DescribeIndexStatsResponse

__all__ = ["PineconeIndex", "wire_id"]

T = TypeVar("T")

MAX_BATCH = 1000
MAX_REQUEST_BYTES = 2_000_000  # Pinecone's 2 MB, less room for the request envelope
MAX_METADATA_BYTES = 40 * 1024
MAX_IDS = 1000
MAX_TOP_K = 10_000
FETCH_URL_BUDGET = 32_000  # fetch ids travel in the URL; keep well under common server limits
RESERVED_PREFIX = "_citecheck_"
ID_KEY = "_citecheck_id"
INTS_KEY = "_citecheck_ints"
HASHED_PREFIX = "~cc~"
_EXACT_INTEGERS = 2**53  # beyond this a float64 no longer holds every integer
_PLAIN_ID = re.compile(r"[\x20-\x7e]{1,512}")
_RETRIED_STATUSES = frozenset({408, 429})


def wire_id(rid: str) -> str:
    """The id Pinecone stores for ``rid``: itself when printable ASCII of at most 512
    characters, else ``~cc~`` + a readable ASCII slug + ``~`` + 128 bits of its SHA-256.

    Ids that already start with ``~cc~`` are hashed too, so a plain id never equals the stored
    form of another one.
    """
    if _PLAIN_ID.fullmatch(rid) and not rid.startswith(HASHED_PREFIX):
        return rid
    digest = hashlib.sha256(rid.encode("utf-8", "surrogatepass")).hexdigest()[:32]
    folded = unicodedata.normalize("NFKD", rid).encode("ascii", "ignore").decode()
    slug = re.sub(r"[^A-Za-z0-9._:-]+", "-", folded).strip("-")[:48]
    return f"{HASHED_PREFIX}{slug}~{digest}"


_COMPACT_JSON = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"))


def _json_size(value: object) -> int:
    """Bytes ``value`` takes in a request body (one encoder for all: building one is slow)."""
    return len(_COMPACT_JSON.encode(value).encode())


def _plain(value: Any) -> Any:
    """``value`` as the dicts, lists and built-in scalars the SDK's JSON encoder takes (it
    refuses other mappings and numpy numbers)."""
    if isinstance(value, Mapping):
        return {str(key): _plain(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(item) for item in value]
    if isinstance(value, bool):
        return bool(value)
    if isinstance(value, int):
        return int(value)
    if isinstance(value, float):
        return float(value)
    return str(value) if isinstance(value, str) else value


def _wire_metadata(
    rid: str, stored_id: str, metadata: Mapping[str, MetadataValue]
) -> dict[str, Any]:
    """The metadata Pinecone stores: the caller's, the integer field names, the original id."""
    where = f"record {rid!r}"
    integers = []
    for key, value in metadata.items():
        if key.startswith(RESERVED_PREFIX):
            reserved = f"keys starting with {RESERVED_PREFIX!r} are reserved for citecheck"
            raise RecordError(f"{where}: metadata {reserved}, got {key!r}")
        if isinstance(value, int) and not isinstance(value, bool):
            if abs(value) > _EXACT_INTEGERS:
                lost = "does not survive Pinecone's float64 numbers; store it as a string"
                raise RecordError(f"{where}: metadata {key!r} = {value} {lost}")
            integers.append(key)
    wire: dict[str, Any] = _plain(metadata)
    if integers:
        wire[INTS_KEY] = sorted(integers)
    if stored_id != rid:
        wire[ID_KEY] = rid
    try:
        size = _json_size(wire)
    except UnicodeEncodeError:  # a lone surrogate: no JSON encoder sends it
        raise RecordError(f"{where}: the id or metadata is not valid Unicode text") from None
    if size > MAX_METADATA_BYTES:
        limit = f"Pinecone keeps at most {MAX_METADATA_BYTES}"
        raise RecordError(f"{where}: metadata is {size} bytes as JSON; {limit}")
    return wire


def _read_metadata(stored: Mapping[str, Any] | None) -> dict[str, MetadataValue]:
    """The caller's metadata from what Pinecone returns: reserved keys gone, integers back."""
    metadata = dict(stored or {})
    metadata.pop(ID_KEY, None)
    integers = set(metadata.pop(INTS_KEY, None) or ())
    for key, value in metadata.items():
        if isinstance(value, bool):
            continue
        if key in integers and isinstance(value, float) and value.is_integer():
            metadata[key] = int(value)
        elif isinstance(value, int) and key not in integers:
            metadata[key] = float(value)
        elif isinstance(value, list):
            metadata[key] = list(value)
    return metadata


def _original_id(stored_id: str, stored: Mapping[str, Any] | None) -> str:
    original = (stored or {}).get(ID_KEY)
    return original if isinstance(original, str) else stored_id


def _runs(
    items: Sequence[T], most: int, budget: int, cost: Callable[[T], int]
) -> Iterator[list[T]]:
    """Consecutive runs of at most ``most`` items whose costs add up to at most ``budget``."""
    run: list[T] = []
    used = 0
    for item in items:
        price = cost(item)
        if run and (len(run) == most or used + price > budget):
            yield run
            run, used = [], 0
        run.append(item)
        used += price
    if run:
        yield run


def _sdk() -> Any:
    """The ``pinecone`` module, imported only when a Pinecone index is built."""
    try:
        import pinecone
    except ImportError:
        raise MissingDependencyError("pinecone", "pinecone") from None
    return pinecone


def _refused(error: BaseException) -> bool:
    """Whether a connection error was a refusal (nothing listens) rather than a drop."""
    seen: set[int] = set()
    link: BaseException | None = error
    while link is not None and id(link) not in seen:
        if isinstance(link, ConnectionRefusedError):
            return True
        seen.add(id(link))
        link = link.__cause__ or link.__context__
    return False


@dataclass(frozen=True, slots=True)
class _Failure:
    """What went wrong with one request, and whether trying again may help."""

    reason: str
    retryable: bool
    retry_after: float | None = None


def _failure(error: PineconeError, timeout: float) -> _Failure:
    from pinecone.errors.exceptions import (
        ApiError,
        PineconeConnectionError,
        PineconeTimeoutError,
        RateLimitError,
    )

    if isinstance(error, ApiError):
        status = error.status_code
        retryable = status in _RETRIED_STATUSES or status >= 500
        wait = error.retry_after if isinstance(error, RateLimitError) else None
        return _Failure(f"HTTP {status}: {error.message}", retryable, wait)
    if isinstance(error, PineconeTimeoutError):
        return _Failure(f"no answer within {timeout:.3g} s", True)
    if isinstance(error, PineconeConnectionError):
        if _refused(error):
            return _Failure("connection refused", False)
        return _Failure(f"connection failed: {error.message}", True)
    return _Failure(f"{type(error).__name__}: {error.message}", False)


class PineconeIndex:
    """An existing Pinecone index (or one namespace of it), reached by ``host``.

    ``api_key`` falls back to ``PINECONE_API_KEY``. ``dimension`` is read from the index when
    not given (by the first search, upsert or count); ``metric`` must be the index's own
    (``"cosine"`` or ``"dotproduct"``). Upserts go ``batch_size`` records at a time (at most
    1,000, and never over 2 MB). Each try of a request has ``timeout`` seconds in all, connect
    and every read included; after a rate limit, a server error, a timeout or a dropped
    connection it is tried again up to ``retries`` times, waiting ``backoff`` seconds doubled
    each time, with jitter (``sleep`` waits; tests pass a no-op), as long as the tries and the
    waits fit in ``deadline`` seconds for the request (unless given, the time of every try
    and of the waits before jitter: ``(retries + 1) * timeout + backoff * (2**retries - 1)``):
    a wait that would end past it is not taken, and the error says so. ``client`` is an SDK
    ``pinecone.Index`` already built, for sharing connections or custom headers; it is fitted
    the same way (:func:`~citecheck.indexes.pinecone_guards.fit`: no SDK retries, the
    deadline, the answer checks) and its API key is kept out of messages too.

    A :class:`~citecheck.errors.BackendError` in the middle of a large upsert may leave the
    batches before it written; upserts replace, so sending the same records again is safe.
    """

    name = "pinecone"

    def __init__(
        self,
        host: str,
        api_key: str | None = None,
        *,
        namespace: str = "",
        dimension: int | None = None,
        metric: str = "cosine",
        batch_size: int = 100,
        timeout: float = 10.0,
        retries: int = 3,
        backoff: float = 0.5,
        deadline: float | None = None,
        sleep: Callable[[float], object] = time.sleep,
        client: pinecone.Index | None = None,
    ) -> None:
        _check_options(namespace, dimension, metric, batch_size, timeout, retries, backoff)
        if deadline is not None and not (_seconds(deadline) and deadline > 0):
            raise ConfigError(f"deadline must be a positive number of seconds, got {deadline!r}")
        self.host = host
        self.namespace = namespace
        self.dimension = dimension
        self.metric = metric
        self.batch_size = batch_size
        self.timeout = timeout
        self.retries = retries
        self.backoff = backoff
        nominal_waits = backoff * (2.0**retries - 1)
        self.deadline = (
            deadline if deadline is not None else (retries + 1) * timeout + nominal_waits
        )
        self._sleep = sleep
        self._secret = api_key or os.environ.get("PINECONE_API_KEY") or ""
        self._secrets = [self._secret] if self._secret else []
        self._owns_client = client is None
        self._client = client if client is not None else self._connect()
        from citecheck.indexes import pinecone_guards  # needs the SDK's httpx and httpcore

        client_key = getattr(getattr(self._client, "_config", None), "api_key", None)
        # longest first: a key that contains the other is hidden whole
        self._secrets = sorted({self._secret, client_key or ""} - {""}, key=len, reverse=True)
        pinecone_guards.fit(self._client)

    def __repr__(self) -> str:
        return (
            f"PineconeIndex(host={self.host!r}, namespace={self.namespace!r}, "
            f"dimension={self.dimension}, metric={self.metric!r})"
        )

    def _connect(self) -> pinecone.Index:
        sdk = _sdk()
        from pinecone.errors.exceptions import PineconeError

        if not self._secret:
            raise ConfigError("no Pinecone API key: pass api_key= or set PINECONE_API_KEY")
        try:
            client: pinecone.Index = sdk.Index(
                host=self.host, api_key=self._secret, timeout=self.timeout
            )
        except PineconeError as error:
            raise ConfigError(
                self._redact(f"cannot use Pinecone host {self.host!r}: {error}")
            ) from None
        return client

    def close(self) -> None:
        """Close the SDK client's connections, if this index built the client."""
        if self._owns_client:
            self._client.close()

    # -- the Index protocol -------------------------------------------------------------------

    def upsert(
        self, records: Iterable[Record | tuple[str, Sequence[float], Mapping[str, Any]]]
    ) -> int:
        ids, matrix, metadata = check_records(records, self.dimension)
        if not ids:
            return 0
        payloads = []
        for rid, row, meta in zip(ids, matrix, metadata, strict=True):
            stored_id = wire_id(rid)
            wire_meta = _wire_metadata(rid, stored_id, meta)
            payload = {"id": stored_id, "values": row.tolist(), "metadata": wire_meta}
            size = _json_size(payload) + 1
            if size > MAX_REQUEST_BYTES:
                raise RecordError(f"record {rid!r} alone is over Pinecone's 2 MB a request")
            payloads.append((payload, size))
        self._learn_dimension(matrix.shape[1])
        for run in _runs(payloads, self.batch_size, MAX_REQUEST_BYTES, lambda pair: pair[1]):
            batch = [payload for payload, _ in run]
            answer = self._call("upsert", self._client.upsert, vectors=batch, **self._where())
            if answer.upserted_count != len(batch):
                wrote = f"wrote {answer.upserted_count} of {len(batch)} records"
                raise BackendError(f"Pinecone at {self.host}: upsert {wrote} of a batch")
        return len(ids)

    def search(
        self, vector: Sequence[float], k: int = 10, filter: Filter | None = None
    ) -> list[Hit]:
        k = check_k(k)
        if k > MAX_TOP_K:
            raise InputError(f"k is at most {MAX_TOP_K} on Pinecone, got {k}")
        if filter is not None:
            check_filter(filter)
        if self.dimension is None:
            self.dimension = self._index_dimension()
        query = check_vector(vector, self.dimension, "query")
        if self.dimension is None:
            return []
        response = self._call(
            "query",
            self._client.query,
            top_k=k,
            vector=query.tolist(),
            filter=_plain(filter) if filter is not None else None,
            include_metadata=True,
            **self._where(),
        )
        self._check_namespace("query", getattr(response, "namespace", None))
        matches = response.matches
        if len(matches) > k:
            raise self._off_protocol("query", f"{len(matches)} matches for top_k {k}")
        return [
            Hit(_original_id(m.id, m.metadata), float(m.score), _read_metadata(m.metadata))
            for m in matches
        ]

    def fetch(self, ids: Iterable[str]) -> dict[str, Record]:
        wanted = check_ids(ids)
        originals = {wire_id(rid): rid for rid in wanted}
        found: dict[str, Record] = {}
        for chunk in _runs(list(originals), MAX_IDS, FETCH_URL_BUDGET, _url_cost):
            response = self._call("fetch", self._client.fetch, ids=chunk, **self._where())
            self._check_namespace("fetch", getattr(response, "namespace", None))
            asked = set(chunk)
            if response.vectors and self.dimension is None:
                self.dimension = self._index_dimension()  # once: records are held to it
            for stored_id, vector in response.vectors.items():
                rid = originals[self._checked_record(stored_id, vector, asked)]
                found[rid] = Record(rid, list(vector.values), _read_metadata(vector.metadata))
        return {rid: found[rid] for rid in wanted if rid in found}

    def _checked_record(self, key: str, vector: Any, asked: set[str]) -> str:
        """``key``, when the record fetched under it is one Pinecone would send: asked for, of
        its own id, with values of the index's dimension; else a :class:`BackendError` saying
        what is wrong, so that nothing it holds becomes a verdict."""
        if key not in asked:
            raise self._off_protocol("fetch", f"a record {key[:80]!r} that was not asked for")
        own = getattr(vector, "id", None)
        if own != key:
            raise self._off_protocol(
                "fetch", f"the record under {key[:80]!r} has the id {str(own)[:80]!r}"
            )
        values = getattr(vector, "values", None)
        if values is None:
            raise self._off_protocol("fetch", f"the record {key[:80]!r} has no values")
        if self.dimension is not None and len(values) != self.dimension:
            raise self._off_protocol(
                "fetch",
                f"the record {key[:80]!r} has {len(values)} values, the index {self.dimension}",
            )
        return key

    def _check_namespace(self, what: str, answered: object) -> None:
        """A :class:`BackendError` when an answer names another namespace than was asked."""
        if answered is None:
            return
        default = ("", "__default__")
        if answered == self.namespace or (answered in default and self.namespace in default):
            return
        raise self._off_protocol(
            what, f"it is for namespace {str(answered)[:80]!r}, not {self.namespace!r}"
        )

    def _off_protocol(self, what: str, problem: str) -> BackendError:
        return BackendError(
            f"Pinecone at {self.host}: the {what} answer is not one Pinecone sends ({problem}); "
            "nothing in it was used"
        )

    def delete(self, ids: Iterable[str] | None = None, *, filter: Filter | None = None) -> None:
        if (ids is None) == (filter is None):
            raise InputError("delete needs either ids or a filter, not both and not neither")
        if filter is not None:
            check_filter(filter)
            self._call("delete", self._client.delete, filter=_plain(filter), **self._where())
            return
        stored_ids = list(dict.fromkeys(wire_id(rid) for rid in check_ids(ids or ())))
        for start in range(0, len(stored_ids), MAX_IDS):
            chunk = stored_ids[start : start + MAX_IDS]
            self._call("delete", self._client.delete, ids=chunk, **self._where())

    def count(self) -> int:
        stats = self._stats()
        names = (
            (self.namespace,) if self.namespace not in ("", "__default__") else ("__default__", "")
        )
        for name in names:
            if name in stats.namespaces:
                return int(stats.namespaces[name].vector_count)
        return 0

    # -- requests -----------------------------------------------------------------------------

    def _where(self) -> dict[str, Any]:
        return {"namespace": self.namespace}

    def _stats(self) -> DescribeIndexStatsResponse:
        """The index's statistics; the dimension, when none was known, is learnt from them."""
        stats = self._call("describe_index_stats", self._client.describe_index_stats)
        if self.dimension is None and stats.dimension:
            self.dimension = int(stats.dimension)
        return stats

    def _index_dimension(self) -> int | None:
        dimension = self._stats().dimension
        return int(dimension) if dimension else None

    def _learn_dimension(self, width: int) -> None:
        """Take the index's dimension when none was given (the records' on an index that has
        none yet), and refuse records of another width before writing any."""
        if self.dimension is None:
            self.dimension = self._index_dimension() or width
        if width != self.dimension:
            raise RecordError(f"the vectors have {width} values, the index {self.dimension}")

    def _call(self, what: str, method: Callable[..., T], **arguments: Any) -> T:
        """``method(**arguments)``, each try within ``timeout`` seconds in all, tried again
        while the failure may pass and the wait fits in the ``deadline``; else a
        :class:`BackendError`, raised outside the ``except`` so that nothing is chained to it:
        the SDK's error may quote what the server echoed, the API key included."""
        from pinecone.errors.exceptions import PineconeError

        from citecheck.indexes import pinecone_guards as guards

        ends = time.monotonic() + self.deadline
        attempt = 0
        while True:
            allowed = min(self.timeout, max(ends - time.monotonic(), 0.001))
            try:
                with guards.deadline(allowed):
                    return method(**arguments, timeout=allowed)
            except PineconeError as error:
                failure = _failure(error, allowed)
            except guards.UnexpectedAnswer as error:
                failure = _Failure(f"unexpected answer: {error}", False)
            attempt += 1
            reason = failure.reason
            if failure.retryable and attempt <= self.retries:
                delay = self._delay(attempt, failure.retry_after)
                if time.monotonic() + delay < ends:
                    self._sleep(delay)
                    continue
                reason += f"; a wait of {delay:.2g} s would pass its {self.deadline:g} s budget"
            tries = f"after {attempt} attempts" if attempt > 1 else "at once"
            message = f"Pinecone at {self.host}: {what} failed {tries}: {reason}"
            raise BackendError(self._redact(message)) from None

    def _delay(self, attempt: int, retry_after: float | None) -> float:
        """``backoff`` doubled per attempt, half of it jittered so clients spread out; at least
        what a 429 asked for (up to a minute)."""
        step = self.backoff * 2.0 ** (attempt - 1)
        delay = step / 2 + random.uniform(0, step / 2)
        return max(delay, min(retry_after or 0.0, 60.0))

    def _redact(self, message: str) -> str:
        """Servers and proxies sometimes echo what they got; the key never reaches a message."""
        for secret in self._secrets:
            message = message.replace(secret, "***")
        return message


def _url_cost(stored_id: str) -> int:
    return len(quote(stored_id, safe="")) + len("&ids=")


def _check_options(
    namespace: str,
    dimension: int | None,
    metric: str,
    batch_size: int,
    timeout: float,
    retries: int,
    backoff: float,
) -> None:
    """A :class:`ConfigError` for the first option out of range, before any connection."""
    if not isinstance(namespace, str):
        raise ConfigError(f"namespace must be a string, got {namespace!r}")
    if dimension is not None:
        check_count("dimension", dimension)
    if metric not in METRICS:
        raise ConfigError(f"metric must be one of {METRICS}, got {metric!r}")
    if check_count("batch_size", batch_size) > MAX_BATCH:
        raise ConfigError(f"batch_size must be at most {MAX_BATCH}, got {batch_size!r}")
    check_count("retries", retries, 0)
    if not (_seconds(timeout) and timeout > 0):
        raise ConfigError(f"timeout must be a positive number of seconds, got {timeout!r}")
    if not _seconds(backoff):
        raise ConfigError(f"backoff must be a non-negative number of seconds, got {backoff!r}")


def _seconds(value: object) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and value >= 0
