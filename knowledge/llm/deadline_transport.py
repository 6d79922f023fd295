"""A total deadline for a model call over HTTP, enforced on every socket read and write.

httpx bounds each read, not a call: a server that sends one byte a second never trips its read
timeout, so the worker thread that waits for it is never freed. :class:`DeadlineNetwork` is the
network layer under an httpx transport (:func:`deadline_transport`): on every connect, read and
write it looks up the call the calling thread is making (set with :meth:`DeadlineNetwork.call`),
waits at most until that call's deadline, and fails with httpx's own timeout error once the
deadline has passed, or within :data:`CANCEL_POLL_S` once the call's cancel event is set.
Between calls the connections stay pooled as usual. Reads and writes of a thread that set no
call keep httpx's per-operation timeouts.
"""

from __future__ import annotations

import math
import threading
import time
import typing
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from typing import NamedTuple

import httpcore
import httpx

CANCEL_POLL_S = 0.25
"""The longest a read or write waits before it checks the call's cancel event again."""


class CallDeadline(NamedTuple):
    """The call a thread is making: when it must end and the event that cancels it."""

    at: float
    """``time.monotonic()`` value after which every read and write fails."""
    cancel: threading.Event


class _Bound(NamedTuple):
    wait: float | None
    """How long one wait may last (None: no limit)."""
    until: float
    """``time.monotonic()`` after which the caller's own timeout has expired (inf: never)."""


class _DeadlineStream(httpcore.NetworkStream):
    """A connection whose reads and writes respect the current thread's call deadline."""

    def __init__(self, inner: httpcore.NetworkStream, network: DeadlineNetwork) -> None:
        self._inner = inner
        self._network = network

    def read(self, max_bytes: int, timeout: float | None = None) -> bytes:
        while True:
            bound = self._network.bound(timeout, httpcore.ReadTimeout)
            try:
                return self._inner.read(max_bytes, bound.wait)
            except httpcore.ReadTimeout:
                if time.monotonic() >= bound.until:
                    raise  # the caller's own read timeout

    def write(self, buffer: bytes, timeout: float | None = None) -> None:
        while True:
            bound = self._network.bound(timeout, httpcore.WriteTimeout)
            try:
                self._inner.write(buffer, bound.wait)
                return
            except httpcore.WriteTimeout:
                if time.monotonic() >= bound.until:
                    raise

    def close(self) -> None:
        self._inner.close()

    def start_tls(
        self,
        ssl_context: typing.Any,
        server_hostname: str | None = None,
        timeout: float | None = None,
    ) -> httpcore.NetworkStream:
        wait = self._network.bound(timeout, httpcore.ConnectTimeout, poll=False).wait
        return _DeadlineStream(
            self._inner.start_tls(ssl_context, server_hostname, wait), self._network
        )

    def get_extra_info(self, info: str) -> typing.Any:
        return self._inner.get_extra_info(info)


class DeadlineNetwork(httpcore.NetworkBackend):
    """httpcore's synchronous sockets, bounded by the deadline of the calling thread's call."""

    def __init__(self) -> None:
        self._inner = httpcore.SyncBackend()
        self._calls = threading.local()

    @contextmanager
    def call(self, deadline_s: float, cancel: threading.Event) -> Iterator[CallDeadline]:
        """Bound every network operation of this thread for ``deadline_s`` seconds from now."""
        previous: CallDeadline | None = getattr(self._calls, "current", None)
        current = CallDeadline(time.monotonic() + deadline_s, cancel)
        self._calls.current = current
        try:
            yield current
        finally:
            self._calls.current = previous

    def bound(
        self,
        timeout: float | None,
        error: type[httpcore.TimeoutException],
        *,
        poll: bool = True,
    ) -> _Bound:
        """How long the next wait may last; raises ``error`` when the call is over."""
        now = time.monotonic()
        until = math.inf if timeout is None else now + timeout
        current: CallDeadline | None = getattr(self._calls, "current", None)
        if current is None:
            return _Bound(timeout, until)
        if current.cancel.is_set():
            raise error("the call was cancelled")
        left = current.at - now
        if left <= 0:
            raise error("the call's total deadline has passed")
        wait = min(left, CANCEL_POLL_S if poll else math.inf, until - now)
        return _Bound(wait, until)

    def connect_tcp(
        self,
        host: str,
        port: int,
        timeout: float | None = None,
        local_address: str | None = None,
        socket_options: Iterable[httpcore.SOCKET_OPTION] | None = None,
    ) -> httpcore.NetworkStream:
        """A TCP connection, opened within the call's deadline."""
        wait = self.bound(timeout, httpcore.ConnectTimeout, poll=False).wait
        stream = self._inner.connect_tcp(host, port, wait, local_address, socket_options)
        return _DeadlineStream(stream, self)

    def connect_unix_socket(
        self,
        path: str,
        timeout: float | None = None,
        socket_options: Iterable[httpcore.SOCKET_OPTION] | None = None,
    ) -> httpcore.NetworkStream:
        """A Unix socket connection, opened within the call's deadline."""
        wait = self.bound(timeout, httpcore.ConnectTimeout, poll=False).wait
        return _DeadlineStream(self._inner.connect_unix_socket(path, wait, socket_options), self)

    def sleep(self, seconds: float) -> None:
        """Sleep (httpcore's retries between connection attempts)."""
        self._inner.sleep(seconds)


def deadline_transport(network: DeadlineNetwork) -> httpx.HTTPTransport:
    """An httpx transport whose connections run on ``network`` (pooled, plain or TLS).

    httpx's ``HTTPTransport`` has no parameter for the network layer; it keeps its
    ``httpcore.ConnectionPool`` in ``_pool``, which is replaced here by one on ``network``
    (``tests/llm/test_deadline_transport.py`` fails if a new httpx changes that).
    """
    transport = httpx.HTTPTransport()
    transport._pool = httpcore.ConnectionPool(network_backend=network, keepalive_expiry=5.0)
    return transport
