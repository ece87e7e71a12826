"""What citecheck puts under the ``pinecone`` SDK's HTTP layer, which has no setting for it.

The SDK (10.x) sends its requests with httpx over httpcore. Three things are fitted there:

* **A total deadline per request.** httpx's timeouts bound each read, not the request: a
  server that sends a byte every 0.3 s held one search 27.5 s with ``timeout=1.0``. The
  connection pool's network backend is wrapped so that every connect, TLS handshake, write
  and read gets only what is left of the deadline the caller set with :func:`deadline`, and
  fails as a timeout once it has passed: status line, headers and body alike.
* **Answers checked before the SDK decodes them.** Its response models fill missing fields
  with defaults, so an HTTP 200 of ``{}`` reads as "no matches", "no records", "no
  namespaces". A successful answer to a data-plane route without the field that route always
  has (as captured on the wire) raises :class:`UnexpectedAnswer` instead.
* **No retries of its own.** Its transport retries 408, 429 and 5xx three times with 2–5 s
  sleeps, on top of citecheck's retries, and the data-plane client takes no setting for it;
  citecheck retries with its own backoff, count and budget instead.

All three reach private attributes of SDK 10 (``Index._http._client._transport``, the
httpx transport's ``_pool``); :func:`fit` changes what it finds, and a client of another
shape keeps per-read timeouts only.
"""

from __future__ import annotations

import dataclasses
import json
import time
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

import httpcore
import httpx

__all__ = ["UnexpectedAnswer", "deadline", "fit"]

_DEADLINE: ContextVar[float | None] = ContextVar("citecheck_pinecone_deadline", default=None)

EXPECTED: dict[tuple[str, str], tuple[str, type]] = {
    ("POST", "/query"): ("matches", list),
    ("GET", "/vectors/fetch"): ("vectors", dict),
    ("POST", "/vectors/fetch_by_metadata"): ("vectors", dict),
    ("GET", "/vectors/list"): ("vectors", list),
    ("POST", "/describe_index_stats"): ("namespaces", dict),
    ("POST", "/vectors/upsert"): ("upsertedCount", int),
}
"""The field every successful answer of a data-plane route carries, and its JSON type."""

_JSON_NAMES = {list: "an array", dict: "an object", int: "a number"}


class UnexpectedAnswer(Exception):
    """A successful HTTP status with a body Pinecone never sends; the message says what is
    wrong with it without quoting it (a body may echo the request's API key)."""


@contextmanager
def deadline(seconds: float) -> Iterator[None]:
    """Requests sent by this thread inside the block end within ``seconds`` in all."""
    token = _DEADLINE.set(time.monotonic() + seconds)
    try:
        yield
    finally:
        _DEADLINE.reset(token)


def _left(timeout: float | None, expired: type[httpcore.TimeoutException]) -> float | None:
    """``timeout`` cut to what is left of the deadline; ``expired`` once nothing is."""
    end = _DEADLINE.get()
    if end is None:
        return timeout
    left = end - time.monotonic()
    if left <= 0:
        raise expired("the request's total deadline passed")
    return left if timeout is None else min(timeout, left)


class _DeadlineStream(httpcore.NetworkStream):
    def __init__(self, inner: httpcore.NetworkStream) -> None:
        self._inner = inner

    def read(self, max_bytes: int, timeout: float | None = None) -> bytes:
        return self._inner.read(max_bytes, _left(timeout, httpcore.ReadTimeout))

    def write(self, buffer: bytes, timeout: float | None = None) -> None:
        self._inner.write(buffer, _left(timeout, httpcore.WriteTimeout))

    def close(self) -> None:
        self._inner.close()

    def start_tls(
        self,
        ssl_context: Any,
        server_hostname: str | None = None,
        timeout: float | None = None,
    ) -> httpcore.NetworkStream:
        bounded = _left(timeout, httpcore.ConnectTimeout)
        return _DeadlineStream(self._inner.start_tls(ssl_context, server_hostname, bounded))

    def get_extra_info(self, info: str) -> Any:
        return self._inner.get_extra_info(info)


class _DeadlineBackend(httpcore.NetworkBackend):
    """Connections whose every step is bounded by the caller's deadline (name lookups
    excepted: ``getaddrinfo`` takes no timeout)."""

    def __init__(self, inner: httpcore.NetworkBackend) -> None:
        self._inner = inner

    def connect_tcp(
        self,
        host: str,
        port: int,
        timeout: float | None = None,
        local_address: str | None = None,
        socket_options: Iterable[Any] | None = None,
    ) -> httpcore.NetworkStream:
        bounded = _left(timeout, httpcore.ConnectTimeout)
        stream = self._inner.connect_tcp(host, port, bounded, local_address, socket_options)
        return _DeadlineStream(stream)

    def connect_unix_socket(
        self,
        path: str,
        timeout: float | None = None,
        socket_options: Iterable[Any] | None = None,
    ) -> httpcore.NetworkStream:
        bounded = _left(timeout, httpcore.ConnectTimeout)
        return _DeadlineStream(self._inner.connect_unix_socket(path, bounded, socket_options))

    def sleep(self, seconds: float) -> None:
        self._inner.sleep(seconds)


class _CheckedTransport(httpx.BaseTransport):
    """Reads a successful answer of a known route and refuses it when it lacks its field."""

    def __init__(self, inner: httpx.BaseTransport) -> None:
        self.inner = inner

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        response = self.inner.handle_request(request)
        expected = EXPECTED.get((request.method, request.url.path))
        if expected is None or not response.is_success:
            return response
        try:
            problem = _problem(response.read(), *expected)
        except BaseException:
            response.close()
            raise
        if problem is not None:
            response.close()
            raise UnexpectedAnswer(f"HTTP {response.status_code} with {problem}")
        return response

    def close(self) -> None:
        self.inner.close()


def _problem(body: bytes, field: str, kind: type) -> str | None:
    """What is wrong with ``body`` as an answer that must carry ``field`` of ``kind``."""
    try:
        data = json.loads(body)
    except ValueError:
        return f"a body that is not JSON ({len(body)} bytes)"
    if not isinstance(data, dict):
        return f"{_JSON_NAMES.get(type(data), 'a JSON value')} where a JSON object belongs"
    value = data.get(field)
    if field not in data:
        return f"no {field!r} in it"
    if not isinstance(value, kind) or isinstance(value, bool):
        shown = "null" if value is None else _JSON_NAMES.get(type(value), type(value).__name__)
        return f"{field!r} {shown}, not {_JSON_NAMES[kind]}"
    return None


def fit(client: object) -> None:
    """Fit ``client`` (a ``pinecone.Index``) with the deadline, the answer checks and no SDK
    retries. A client of another shape is left as it is; one already fitted (shared by
    several indexes) is fitted once."""
    http: Any = getattr(getattr(client, "_http", None), "_client", None)
    transport: Any = getattr(http, "_transport", None)
    if isinstance(transport, _CheckedTransport) or not hasattr(transport, "handle_request"):
        return
    policy: Any = getattr(transport, "_config", None)
    if hasattr(policy, "max_retries") and hasattr(policy, "__dataclass_fields__"):
        transport._config = dataclasses.replace(policy, max_retries=0)
    pool: Any = getattr(getattr(transport, "_transport", None), "_pool", None)
    backend: Any = getattr(pool, "_network_backend", None)
    if isinstance(backend, httpcore.NetworkBackend) and not isinstance(backend, _DeadlineBackend):
        pool._network_backend = _DeadlineBackend(backend)
    http._transport = _CheckedTransport(transport)
