"""A loopback emulator of Pinecone's data-plane REST API, to test through the real SDK.

Pinecone's own emulator needs Docker and speaks an older API, so the tests carry this one: the
requests the ``pinecone`` SDK 10.2 sends (API version ``2026-07``), answered in the camelCase
shapes the SDK parses, as captured on the wire. It keeps Pinecone's rules with its own small
evaluator, independent of :mod:`citecheck.indexes.filters`, so the index conformance suite
cross-checks two implementations of the filter language. It stores numbers as floats, as
Pinecone does, so a backend that forgets to restore integers fails the suite.

It also watches the client: every request is logged (:attr:`PineconeEmulator.requests`), wire
mistakes (a missing API version header, a batch over Pinecone's limits) are refused with the
status Pinecone gives and listed in :attr:`PineconeEmulator.violations`, and the next requests
can be made to fail (:meth:`PineconeEmulator.fail_next`, echoing the API key as careless
proxies do), hang (:meth:`PineconeEmulator.delay_next`), get an answer Pinecone never gives
(:meth:`PineconeEmulator.answer_next`) or trickle in a byte at a time
(:meth:`PineconeEmulator.drip_next`)::

    with PineconeEmulator(dimension=4) as emulator:
        index = pinecone.Index(host=emulator.host, api_key="test-key")
"""

from __future__ import annotations

import base64
import contextlib
import json
import math
import operator
import socket
import sys
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from types import TracebackType
from typing import Any, TypeAlias
from urllib.parse import parse_qs, urlsplit

__all__ = ["API_VERSION", "PineconeEmulator", "WireRequest"]

API_VERSION = "2026-07"
MAX_UPSERT_RECORDS = 1000
MAX_REQUEST_BYTES = 2 * 1024 * 1024
MAX_IDS = 1000
MAX_TOP_K = 10_000
MAX_METADATA_BYTES = 40 * 1024
MAX_ID_LENGTH = 512
STATS_DEFAULT_NAMESPACE = "__default__"

_UTF8_JSON = json.JSONEncoder(ensure_ascii=False)

# gRPC status codes Pinecone puts in its error bodies, by HTTP status.
_GRPC_CODES = {400: 3, 403: 7, 404: 5, 408: 4, 429: 8, 500: 13, 502: 14, 503: 14, 504: 4}

Metadata: TypeAlias = dict[str, Any]
Predicate: TypeAlias = Callable[[Metadata], bool]


@dataclass(frozen=True, slots=True)
class WireRequest:
    """One request as it reached the emulator, with the status it got.

    ``headers`` has lower-case names and the API key replaced by ``***``; ``body`` is the parsed
    JSON (``None`` for a GET); ``vectors`` counts the records of an upsert and ``ids`` the ids of
    a fetch or delete, so tests can check batching without digging into bodies.
    """

    method: str
    path: str
    query: Mapping[str, list[str]]
    headers: Mapping[str, str]
    body: Any
    body_size: int
    vectors: int
    ids: int
    status: int

    @property
    def namespace(self) -> str | None:
        """The namespace as sent (body or query string); ``None`` when the client left it out."""
        if isinstance(self.body, dict) and "namespace" in self.body:
            return str(self.body["namespace"])
        values = self.query.get("namespace")
        return values[0] if values else None


class _Reject(Exception):
    """An error answer; ``violation`` marks a mistake of the client on the wire, not of data."""

    def __init__(
        self,
        status: int,
        message: str,
        *,
        violation: bool = False,
        retry_after: float | None = None,
    ) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.violation = violation
        self.retry_after = retry_after

    def payload(self) -> dict[str, Any]:
        if self.status == 401:
            return {"error": {"code": "UNAUTHENTICATED", "message": self.message}, "status": 401}
        return {"code": _GRPC_CODES.get(self.status, 2), "message": self.message, "details": []}


@dataclass(slots=True)
class _Fault:
    """What to do to the next ``remaining`` requests (to ``path`` only, when set)."""

    remaining: int
    path: str | None
    status: int | None = None
    delay: float = 0.0
    retry_after: float | None = None
    echo_key: bool = False
    body: Any = None
    raw: bool = False  # answer ``status`` with ``body`` as it is, whatever was asked
    drip: float = 0.0  # seconds between bytes of the answer
    drip_headers: bool = True  # the status line and headers trickle too, not just the body
    tamper: Callable[[dict[str, Any]], Any] | None = None  # changes the true answer


@dataclass(frozen=True, slots=True)
class _Answer:
    """What the handler sends back: status, body bytes, extra headers, and how fast."""

    status: int
    data: bytes
    headers: Mapping[str, str]
    drip: float = 0.0
    drip_headers: bool = True


@dataclass(slots=True)
class _Stored:
    values: list[float]
    metadata: Metadata = field(default_factory=dict)

    def as_json(self, values: bool = True, metadata: bool = True) -> dict[str, Any]:
        """The record as Pinecone shows it: no ``metadata`` key when there is none."""
        shown: dict[str, Any] = {"values": list(self.values) if values else []}
        if metadata and self.metadata:
            shown["metadata"] = {
                key: list(value) if isinstance(value, list) else value
                for key, value in self.metadata.items()
            }
        return shown


# -- Pinecone's rules for ids, vectors and metadata ---------------------------------------------


def _is_number(value: object) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _check_id(value: object) -> str:
    if not isinstance(value, str) or not 1 <= len(value) <= MAX_ID_LENGTH:
        raise _Reject(400, f"Vector ID must be a string of 1 to {MAX_ID_LENGTH} characters")
    if not value.isascii() or "\x00" in value:
        raise _Reject(400, f"Vector ID must be ASCII without NUL, got {value!r}")
    return value


def _check_values(rid: str, values: object, dimension: int) -> list[float]:
    if not isinstance(values, list) or not all(_is_number(v) for v in values):
        raise _Reject(400, f"Vector ID '{rid}': values must be a list of numbers")
    if len(values) != dimension:
        message = f"Vector dimension {len(values)} does not match the dimension of the index"
        raise _Reject(400, f"{message} {dimension}")
    if not all(math.isfinite(v) for v in values):
        raise _Reject(400, f"Vector ID '{rid}' has a NaN or infinite value")
    if not any(values):
        message = "Dense vectors must contain at least one non-zero value."
        raise _Reject(400, f"{message} Vector ID '{rid}' contains only zeros")
    return [float(v) for v in values]


def _check_metadata(metadata: object) -> Metadata:
    """Metadata as Pinecone keeps it: every number a float64; null and nested objects refused."""
    if metadata is None:
        return {}
    if not isinstance(metadata, dict):
        raise _Reject(400, "Metadata must be an object")
    kept: Metadata = {}
    for key, value in metadata.items():
        if isinstance(value, str | bool):
            kept[key] = value
        elif _is_number(value) and math.isfinite(value):
            kept[key] = float(value)
        elif isinstance(value, list) and all(isinstance(item, str) for item in value):
            kept[key] = list(value)
        else:
            kinds = "a string, number, boolean or list of strings"
            raise _Reject(400, f"Metadata value for key '{key}' must be {kinds}")
    if len(_UTF8_JSON.encode(kept).encode()) > MAX_METADATA_BYTES:
        raise _Reject(400, f"Metadata size exceeds the limit of {MAX_METADATA_BYTES} bytes")
    return kept


# -- the filter language, compiled to predicates --------------------------------------------------

_ORDERINGS: dict[str, Callable[[float, float], bool]] = {
    "$gt": operator.gt,
    "$gte": operator.ge,
    "$lt": operator.lt,
    "$lte": operator.le,
}


def _kind(value: object) -> str | None:
    """Pinecone compares like with like: ``true`` is not ``1`` and ``"1"`` is not ``1``."""
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int | float):
        return "number" if math.isfinite(value) else None
    return "string" if isinstance(value, str) else None


def _scalar(operand: object, op: str) -> object:
    if _kind(operand) is None:
        raise _Reject(400, f"{op} needs a string, number or boolean, got {operand!r}")
    return operand


def _elements(value: object) -> list[object]:
    """A list field matches element by element; any other field is a list of one."""
    return list(value) if isinstance(value, list) else [value]


def _equals_any(value: object, operands: list[object]) -> bool:
    return any(
        _kind(element) == _kind(operand) and element == operand
        for element in _elements(value)
        for operand in operands
    )


def _field_predicate(key: str, op: str, operand: object) -> Predicate:
    """One condition on one field. A record without the field passes only ``$exists: false``."""
    if op == "$exists":
        if not isinstance(operand, bool):
            raise _Reject(400, f"$exists needs true or false, got {operand!r}")
        return lambda metadata: (key in metadata) is operand
    if op in ("$eq", "$ne"):
        wanted = [_scalar(operand, op)]
    elif op in ("$in", "$nin"):
        if not isinstance(operand, list):
            raise _Reject(400, f"{op} needs an array, got {operand!r}")
        wanted = [_scalar(item, op) for item in operand]
    elif op in _ORDERINGS:
        if _kind(operand) != "number" or not isinstance(operand, int | float):
            raise _Reject(400, f"{op} needs a number, got {operand!r}")
        compare, bound = _ORDERINGS[op], float(operand)
        return lambda metadata: _is_number(metadata.get(key)) and compare(metadata[key], bound)
    else:
        raise _Reject(400, f"unsupported filter operator '{op}'")
    negated = op in ("$ne", "$nin")
    return lambda metadata: key in metadata and _equals_any(metadata[key], wanted) is not negated


def _compile(node: object) -> Predicate:
    """``node`` as a predicate on metadata; a 400 names the first malformed part."""
    if not isinstance(node, dict) or not node:
        raise _Reject(400, "a filter must be a non-empty object")
    parts: list[Predicate] = []
    for key, value in node.items():
        if key in ("$and", "$or"):
            if not isinstance(value, list) or not value:
                raise _Reject(400, f"{key} needs a non-empty array of filters")
            parts.append(_junction(key, [_compile(branch) for branch in value]))
        elif key.startswith("$"):
            raise _Reject(400, f"unsupported filter operator '{key}'")
        else:
            conditions = value if isinstance(value, dict) else {"$eq": value}
            if not conditions:
                raise _Reject(400, f"the condition on '{key}' is empty")
            parts.extend(_field_predicate(key, op, operand) for op, operand in conditions.items())
    return lambda metadata: all(part(metadata) for part in parts)


def _junction(key: str, branches: list[Predicate]) -> Predicate:
    if key == "$and":
        return lambda metadata: all(branch(metadata) for branch in branches)
    return lambda metadata: any(branch(metadata) for branch in branches)


def _optional_filter(body: Mapping[str, Any]) -> Predicate:
    return _compile(body["filter"]) if body.get("filter") is not None else lambda metadata: True


# -- paging ---------------------------------------------------------------------------------------


def _first(query: Mapping[str, list[str]], name: str) -> str | None:
    values = query.get(name)
    return values[0] if values else None


def _token(offset: int) -> str:
    return base64.b64encode(str(offset).encode()).decode()


def _offset(token: str | None) -> int:
    if not token:
        return 0
    try:
        return int(base64.b64decode(token).decode())
    except ValueError:
        raise _Reject(400, f"invalid pagination token {token!r}") from None


def _limit(value: Any, default: int, maximum: int) -> int:
    if value is None:
        return default
    try:
        limit = int(value)
    except (TypeError, ValueError):
        raise _Reject(400, f"limit must be an integer, got {value!r}") from None
    if not 1 <= limit <= maximum:
        raise _Reject(400, f"limit must be between 1 and {maximum}, got {limit}")
    return limit


class PineconeEmulator:
    """One Pinecone index on ``127.0.0.1``, all namespaces in memory.

    ``dimension`` is fixed here or by the first upsert; ``metric`` is ``"cosine"`` or
    ``"dotproduct"``. With ``api_key`` set, any other key gets 401; without, any non-empty key
    passes. Start and stop it with ``with`` (or :meth:`start` / :meth:`stop`); :meth:`reset`
    empties it between tests, which is much cheaper than a new server.
    """

    def __init__(
        self, dimension: int | None = None, metric: str = "cosine", api_key: str | None = None
    ) -> None:
        if metric not in ("cosine", "dotproduct"):
            raise ValueError(f"the emulator scores cosine or dotproduct, not {metric!r}")
        self.metric = metric
        self.api_key = api_key
        self._initial_dimension = dimension
        self._dimension = dimension
        self._namespaces: dict[str, dict[str, _Stored]] = {}
        self._log: list[WireRequest] = []
        self._violations: list[str] = []
        self._faults: list[_Fault] = []
        self._lock = threading.Lock()
        self._wake = threading.Event()
        self._server: _Server | None = None
        self._thread: threading.Thread | None = None

    # -- lifecycle --------------------------------------------------------------------------

    def start(self) -> PineconeEmulator:
        """Listen on a free port of 127.0.0.1 (the SDK refuses hosts without a dot)."""
        if self._server is None:
            self._server = _Server(self)
            self._thread = threading.Thread(
                target=self._server.serve_forever,
                kwargs={"poll_interval": 0.05},
                name="pinecone-emulator",
                daemon=True,
            )
            self._thread.start()
        return self

    def stop(self) -> None:
        """Stop listening and drop open connections, so a stopped emulator answers nothing."""
        if self._server is None:
            return
        with self._lock:
            self._abandon_delayed()
        self._server.shutdown()
        self._server.close_connections()
        self._server.server_close()
        if self._thread is not None:
            self._thread.join()
        self._server = self._thread = None

    def __enter__(self) -> PineconeEmulator:
        return self.start()

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.stop()

    @property
    def host(self) -> str:
        """``http://127.0.0.1:PORT``, the form ``pinecone.Index(host=...)`` takes."""
        if self._server is None:
            raise RuntimeError("the emulator is not running; call start() first")
        return f"http://127.0.0.1:{self._server.server_address[1]}"

    def reset(self) -> None:
        """Forget records, log, violations and faults; abandon requests still being delayed."""
        with self._lock:
            self._abandon_delayed()
            self._dimension = self._initial_dimension
            self._namespaces.clear()
            self._log.clear()
            self._violations.clear()
            self._faults.clear()

    def _abandon_delayed(self) -> None:
        """Wake requests held by :meth:`delay_next`; they hang up instead of answering late."""
        self._wake.set()
        self._wake = threading.Event()

    # -- what tests look at -----------------------------------------------------------------

    @property
    def dimension(self) -> int | None:
        return self._dimension

    @property
    def requests(self) -> tuple[WireRequest, ...]:
        """Every request since the last reset, in arrival order."""
        with self._lock:
            return tuple(self._log)

    @property
    def violations(self) -> tuple[str, ...]:
        """Wire mistakes of the client since the last reset; empty for a well-behaved one."""
        with self._lock:
            return tuple(self._violations)

    def stored(self, namespace: str = "") -> dict[str, dict[str, Any]]:
        """A copy of a namespace as stored: ``{id: {"values": [...], "metadata": {...}}}``."""
        with self._lock:
            records = self._namespaces.get(namespace, {})
            return {rid: record.as_json() for rid, record in records.items()}

    def fail_next(
        self,
        status: int,
        times: int = 1,
        path: str | None = None,
        retry_after: float | None = None,
        *,
        echo_key: bool = False,
    ) -> None:
        """Answer the next ``times`` requests (to ``path`` only, if given) with ``status``;
        with ``echo_key`` the error message repeats the ``Api-Key`` header it got, as some
        servers and proxies do, to test that the key reaches no message, traceback or log."""
        with self._lock:
            fault = _Fault(times, path, status, retry_after=retry_after, echo_key=echo_key)
            self._faults.append(fault)

    def delay_next(self, seconds: float, times: int = 1, path: str | None = None) -> None:
        """Hold the next ``times`` requests (to ``path`` only) ``seconds`` before answering."""
        with self._lock:
            self._faults.append(_Fault(times, path, delay=seconds))

    def answer_next(self, status: int, body: Any, times: int = 1, path: str | None = None) -> None:
        """Answer the next ``times`` requests (to ``path`` only) with ``status`` and ``body``
        (a JSON value, or ``bytes`` sent as they are) without looking at them: an ``HTTP 200``
        of ``{}`` or of HTML, which Pinecone never sends and a client must not read as data."""
        with self._lock:
            self._faults.append(_Fault(times, path, status, body=body, raw=True))

    def tamper_next(
        self, change: Callable[[dict[str, Any]], Any], times: int = 1, path: str | None = None
    ) -> None:
        """Answer the next ``times`` requests (to ``path`` only) with HTTP 200 and what
        ``change`` makes of the true answer (a copy): a well-formed answer that breaks the
        protocol, such as a fetched record whose id differs from its key, an id never asked
        for, vectors of another dimension or an answer for another namespace."""
        with self._lock:
            self._faults.append(_Fault(times, path, tamper=change))

    def drip_next(
        self, interval: float, times: int = 1, path: str | None = None, *, headers: bool = True
    ) -> None:
        """Send the answers to the next ``times`` requests (to ``path`` only) one byte every
        ``interval`` seconds — status line and headers too, or with ``headers=False`` only the
        body — so that each read of the client succeeds and only a total deadline stops it.
        The drip stops when the client hangs up or the emulator stops."""
        with self._lock:
            self._faults.append(_Fault(times, path, drip=interval, drip_headers=headers))

    # -- answering --------------------------------------------------------------------------

    def _answer(
        self, method: str, target: str, headers: Mapping[str, str], raw: bytes
    ) -> _Answer | None:
        """The answer to one request; ``None`` to hang up."""
        split = urlsplit(target)
        query = parse_qs(split.query, keep_blank_values=True)
        with self._lock:
            fault, wake = self._take_fault(split.path), self._wake
        if fault is not None and fault.delay and wake.wait(fault.delay):
            return None
        body: Any = None
        extra: dict[str, str] = {}
        try:
            self._check_headers(headers)
            body = self._parse(raw) if method == "POST" else None
            if fault is not None and fault.raw and fault.status is not None:
                status, payload = fault.status, fault.body
            elif fault is not None and fault.status is not None:
                echoed = f" (got Api-Key {headers.get('api-key')})" if fault.echo_key else ""
                message = f"injected by the emulator{echoed}"
                raise _Reject(fault.status, message, retry_after=fault.retry_after)
            else:
                with self._lock:
                    status, payload = 200, self._route(method, split.path, body, query)
                if fault is not None and fault.tamper is not None:
                    payload = fault.tamper(json.loads(json.dumps(payload)))
        except _Reject as reject:
            status, payload = reject.status, reject.payload()
            if reject.retry_after is not None:
                extra["Retry-After"] = str(reject.retry_after)
            if reject.violation:
                with self._lock:
                    self._violations.append(f"{method} {split.path}: {reject.message}")
        with self._lock:
            self._log.append(self._entry(method, split.path, query, headers, body, raw, status))
        data = payload if isinstance(payload, bytes) else json.dumps(payload).encode()
        if fault is not None and fault.drip:
            return _Answer(status, data, extra, fault.drip, fault.drip_headers)
        return _Answer(status, data, extra)

    def _take_fault(self, path: str) -> _Fault | None:
        for fault in self._faults:
            if fault.remaining > 0 and fault.path in (None, path):
                fault.remaining -= 1
                return fault
        return None

    def _check_headers(self, headers: Mapping[str, str]) -> None:
        if not headers.get("x-pinecone-api-version"):
            raise _Reject(400, "missing X-Pinecone-Api-Version header", violation=True)
        key = headers.get("api-key")
        if not key:
            raise _Reject(401, "missing Api-Key header", violation=True)
        if self.api_key is not None and key != self.api_key:
            raise _Reject(401, "Invalid API Key")

    @staticmethod
    def _parse(raw: bytes) -> dict[str, Any]:
        if len(raw) > MAX_REQUEST_BYTES:
            message = f"Request size {len(raw)} bytes exceeds the maximum of {MAX_REQUEST_BYTES}"
            raise _Reject(400, message, violation=True)
        try:
            body = json.loads(raw or b"{}")
        except ValueError:
            raise _Reject(400, "the request body is not JSON", violation=True) from None
        if not isinstance(body, dict):
            raise _Reject(400, "the request body must be a JSON object", violation=True)
        return body

    @staticmethod
    def _entry(
        method: str,
        path: str,
        query: dict[str, list[str]],
        headers: Mapping[str, str],
        body: Any,
        raw: bytes,
        status: int,
    ) -> WireRequest:
        shown = {name: "***" if name == "api-key" else value for name, value in headers.items()}
        parts = body if isinstance(body, dict) else {}
        vectors = parts.get("vectors") if path == "/vectors/upsert" else None
        ids = parts.get("ids") if method == "POST" else query.get("ids")
        return WireRequest(
            method=method,
            path=path,
            query=query,
            headers=shown,
            body=body,
            body_size=len(raw),
            vectors=len(vectors) if isinstance(vectors, list) else 0,
            ids=len(ids) if isinstance(ids, list) else 0,
            status=status,
        )

    def _route(
        self, method: str, path: str, body: Any, query: dict[str, list[str]]
    ) -> dict[str, Any]:
        if method == "GET" and path == "/vectors/fetch":
            return self._fetch(query)
        if method == "GET" and path == "/vectors/list":
            return self._list(query)
        posts: dict[str, Callable[[dict[str, Any]], dict[str, Any]]] = {
            "/vectors/upsert": self._upsert,
            "/query": self._query,
            "/vectors/fetch_by_metadata": self._fetch_by_metadata,
            "/vectors/delete": self._delete,
            "/vectors/update": self._update,
            "/describe_index_stats": self._stats,
        }
        if method == "POST" and path in posts:
            return posts[path](body)
        raise _Reject(404, f"no route {method} {path}")

    # -- namespaces -------------------------------------------------------------------------

    @staticmethod
    def _namespace_name(value: object) -> str:
        """The default namespace is ``""`` on the wire (``"__default__"`` is accepted too)."""
        if value is None:
            return ""
        if not isinstance(value, str):
            raise _Reject(400, f"namespace must be a string, got {value!r}", violation=True)
        return "" if value == STATS_DEFAULT_NAMESPACE else value

    def _records(self, namespace: object) -> dict[str, _Stored]:
        return self._namespaces.get(self._namespace_name(namespace), {})

    def _query_namespace(self, query: dict[str, list[str]]) -> str | None:
        values = query.get("namespace", [])
        if len(values) > 1:
            raise _Reject(400, "namespace given more than once", violation=True)
        return values[0] if values else None

    # -- routes -----------------------------------------------------------------------------

    def _upsert(self, body: dict[str, Any]) -> dict[str, Any]:
        vectors = body.get("vectors")
        if not isinstance(vectors, list) or not vectors:
            raise _Reject(400, "vectors must be a non-empty array")
        if len(vectors) > MAX_UPSERT_RECORDS:
            message = f"{len(vectors)} vectors in one upsert; the maximum is {MAX_UPSERT_RECORDS}"
            raise _Reject(400, message, violation=True)
        namespace = self._namespace_name(body.get("namespace"))
        checked = self._checked_vectors(vectors)
        self._namespaces.setdefault(namespace, {}).update(checked)
        return {"upsertedCount": len(checked)}

    def _checked_vectors(self, vectors: list[Any]) -> dict[str, _Stored]:
        """All vectors checked before any is stored: a 400 writes nothing."""
        checked: dict[str, _Stored] = {}
        dimension = self._dimension
        for item in vectors:
            if not isinstance(item, dict):
                raise _Reject(400, "each vector must be an object")
            rid = _check_id(item.get("id"))
            if dimension is None and isinstance(item.get("values"), list):
                dimension = len(item["values"])
            values = _check_values(rid, item.get("values"), dimension or 0)
            checked[rid] = _Stored(values, _check_metadata(item.get("metadata")))
        self._dimension = dimension
        return checked

    def _query(self, body: dict[str, Any]) -> dict[str, Any]:
        top_k = body.get("topK")
        if not isinstance(top_k, int) or isinstance(top_k, bool) or top_k < 1:
            raise _Reject(400, f"topK must be a positive integer, got {top_k!r}")
        if top_k > MAX_TOP_K:
            raise _Reject(400, f"topK {top_k} exceeds the maximum of {MAX_TOP_K}", violation=True)
        records = self._records(body.get("namespace"))
        vector = self._query_vector(body, records)
        keep = _optional_filter(body)
        passing = [
            (rid, r) for rid, r in records.items() if vector is not None and keep(r.metadata)
        ]
        scored = [(self._score(vector or [], r.values), rid, r) for rid, r in passing]
        scored.sort(key=lambda item: -item[0])
        values, metadata = bool(body.get("includeValues")), bool(body.get("includeMetadata"))
        matches = [
            {"id": rid, **record.as_json(values, metadata), "score": score}
            for score, rid, record in scored[:top_k]
        ]
        namespace = self._namespace_name(body.get("namespace"))
        return {"matches": matches, "namespace": namespace, "usage": {"readUnits": 1}}

    def _query_vector(
        self, body: dict[str, Any], records: dict[str, _Stored]
    ) -> list[float] | None:
        """The query's vector, or a stored record's; ``None`` when there is nothing to rank."""
        if ("vector" in body) == ("id" in body):
            raise _Reject(400, "a query needs exactly one of vector and id")
        if "id" in body:
            stored = records.get(_check_id(body["id"]))
            return stored.values if stored is not None else None
        vector = body["vector"]
        if not isinstance(vector, list) or not vector or not all(_is_number(v) for v in vector):
            raise _Reject(400, "vector must be a non-empty array of numbers")
        if self._dimension is not None and len(vector) != self._dimension:
            message = f"Query vector dimension {len(vector)} does not match the dimension of"
            raise _Reject(400, f"{message} the index {self._dimension}")
        return [float(v) for v in vector] if self._dimension is not None else None

    def _score(self, query: list[float], values: list[float]) -> float:
        """Cosine in [-1, 1] or the dot product; higher is closer. A zero query scores 0."""
        dot = sum(a * b for a, b in zip(query, values, strict=True))
        if self.metric == "dotproduct":
            return dot
        norms = math.sqrt(sum(a * a for a in query)) * math.sqrt(sum(b * b for b in values))
        return dot / norms if norms else 0.0

    def _fetch(self, query: dict[str, list[str]]) -> dict[str, Any]:
        ids = query.get("ids", [])
        if not ids:
            raise _Reject(400, "ids must be given")
        if len(ids) > MAX_IDS:
            raise _Reject(
                400, f"{len(ids)} ids in one fetch; the maximum is {MAX_IDS}", violation=True
            )
        namespace = self._namespace_name(self._query_namespace(query))
        records = self._namespaces.get(namespace, {})
        found = {rid: {"id": rid, **records[rid].as_json()} for rid in ids if rid in records}
        return {"vectors": found, "namespace": namespace, "usage": {"readUnits": 1}}

    def _fetch_by_metadata(self, body: dict[str, Any]) -> dict[str, Any]:
        keep = _compile(body.get("filter"))
        records = self._records(body.get("namespace"))
        passing = sorted(rid for rid, record in records.items() if keep(record.metadata))
        start, limit = _offset(body.get("paginationToken")), _limit(body.get("limit"), 100, 10_000)
        page = passing[start : start + limit]
        answer: dict[str, Any] = {
            "vectors": {rid: {"id": rid, **records[rid].as_json()} for rid in page},
            "namespace": self._namespace_name(body.get("namespace")),
            "usage": {"readUnits": 1},
        }
        if start + limit < len(passing):
            answer["pagination"] = {"next": _token(start + limit)}
        return answer

    def _delete(self, body: dict[str, Any]) -> dict[str, Any]:
        selectors = [key for key in ("ids", "filter", "deleteAll") if body.get(key)]
        if len(selectors) != 1:
            raise _Reject(400, "delete needs exactly one of ids, filter and deleteAll")
        namespace = self._namespace_name(body.get("namespace"))
        records = self._namespaces.get(namespace, {})
        if selectors == ["ids"]:
            ids = body["ids"]
            if not isinstance(ids, list) or len(ids) > MAX_IDS:
                raise _Reject(
                    400, f"delete takes an array of at most {MAX_IDS} ids", violation=True
                )
            doomed = [_check_id(rid) for rid in ids]
        elif selectors == ["filter"]:
            keep = _compile(body["filter"])
            doomed = [rid for rid, record in records.items() if keep(record.metadata)]
        else:
            doomed = list(records)
        for rid in doomed:
            records.pop(rid, None)
        if not records:
            self._namespaces.pop(namespace, None)
        return {}

    def _update(self, body: dict[str, Any]) -> dict[str, Any]:
        """Minimal: new values and/or merged metadata, for one id or every record a filter picks."""
        records = self._records(body.get("namespace"))
        if "id" in body:
            rid = _check_id(body["id"])
            chosen = [records[rid]] if rid in records else []
        else:
            keep = _compile(body.get("filter"))
            chosen = [record for record in records.values() if keep(record.metadata)]
        metadata = _check_metadata(body.get("setMetadata"))
        values = body.get("values")
        for record in chosen:
            if values is not None:
                record.values = _check_values("update", values, len(record.values))
            record.metadata.update(metadata)
        return {"matchedRecords": len(chosen)}

    def _stats(self, body: dict[str, Any]) -> dict[str, Any]:
        keep = _optional_filter(body)
        counts = {
            name or STATS_DEFAULT_NAMESPACE: sum(keep(r.metadata) for r in records.values())
            for name, records in self._namespaces.items()
        }
        return {
            "namespaces": {name: {"vectorCount": n} for name, n in counts.items() if n},
            "dimension": self._dimension,
            "indexFullness": 0.0,
            "totalVectorCount": sum(counts.values()),
            "metric": self.metric,
            "vectorType": "dense",
        }

    def _list(self, query: dict[str, list[str]]) -> dict[str, Any]:
        namespace = self._namespace_name(self._query_namespace(query))
        prefix = _first(query, "prefix") or ""
        limit = _limit(_first(query, "limit"), 100, 100)
        start = _offset(_first(query, "paginationToken"))
        ids = sorted(rid for rid in self._namespaces.get(namespace, {}) if rid.startswith(prefix))
        answer: dict[str, Any] = {
            "vectors": [{"id": rid} for rid in ids[start : start + limit]],
            "namespace": namespace,
            "usage": {"readUnits": 1},
        }
        if start + limit < len(ids):
            answer["pagination"] = {"next": _token(start + limit)}
        return answer


class _Handler(BaseHTTPRequestHandler):
    """HTTP/1.1 with keep-alive, as the SDK's connection pool expects; no access log."""

    protocol_version = "HTTP/1.1"
    disable_nagle_algorithm = True  # else delayed ACKs cost ~40 ms a request
    server: _Server

    def setup(self) -> None:
        super().setup()
        self.server.track(self.connection, open=True)

    def finish(self) -> None:
        self.server.track(self.connection, open=False)
        super().finish()

    def do_GET(self) -> None:
        self._reply("GET")

    def do_POST(self) -> None:
        self._reply("POST")

    def _reply(self, method: str) -> None:
        raw = self.rfile.read(int(self.headers.get("Content-Length") or 0))
        headers = {name.lower(): value for name, value in self.headers.items()}
        answer = self.server.emulator._answer(method, self.path, headers, raw)
        if answer is None:
            self.close_connection = True
            return
        try:
            if answer.drip:
                self._drip(answer)
                return
            self.send_response(answer.status)
            for name, value in answer.headers.items():
                self.send_header(name, value)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(answer.data)))
            self.end_headers()
            self.wfile.write(answer.data)
        except OSError:  # the client gave up (a timeout test): nobody to answer
            self.close_connection = True

    def _drip(self, answer: _Answer) -> None:
        """The answer a byte at a time; the connection is closed after it, or when the
        emulator stops (``OSError`` from a client that hung up goes to the caller)."""
        self.close_connection = True
        lines = [f"HTTP/1.1 {answer.status} {self.responses.get(answer.status, ('',))[0]}"]
        lines += [f"{name}: {value}" for name, value in answer.headers.items()]
        lines += ["Content-Type: application/json", f"Content-Length: {len(answer.data)}"]
        head = ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1")
        trickled = head + answer.data if answer.drip_headers else answer.data
        if not answer.drip_headers:
            self.wfile.write(head)
        wake = self.server.emulator._wake
        for position in range(len(trickled)):
            if wake.wait(answer.drip):
                return
            self.wfile.write(trickled[position : position + 1])

    def log_message(self, format: str, *args: Any) -> None:
        """Silent: the request log is :attr:`PineconeEmulator.requests`."""


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    block_on_close = False

    def __init__(self, emulator: PineconeEmulator) -> None:
        super().__init__(("127.0.0.1", 0), _Handler)
        self.emulator = emulator
        self._connections: set[socket.socket] = set()
        self._connections_lock = threading.Lock()

    def track(self, connection: socket.socket, *, open: bool) -> None:
        with self._connections_lock:
            if open:
                self._connections.add(connection)
            else:
                self._connections.discard(connection)

    def close_connections(self) -> None:
        """Hang up on kept-alive clients; else a stopped emulator would go on answering them."""
        with self._connections_lock:
            for connection in self._connections:
                with contextlib.suppress(OSError):
                    connection.shutdown(socket.SHUT_RDWR)
            self._connections.clear()

    def handle_error(self, request: Any, client_address: Any) -> None:
        """Quiet about clients that hang up (timeout tests do); loud about anything else."""
        if not isinstance(sys.exc_info()[1], OSError):
            super().handle_error(request, client_address)
