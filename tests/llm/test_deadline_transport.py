"""A model call ends at its total deadline, even against a server that drips bytes.

The servers here are raw sockets on loopback that send a byte at a time: each wait between
bytes is far below httpx's read timeout, so only the call's total deadline can end the call.
Every server stops by itself after a bounded number of bytes.
"""

from __future__ import annotations

import json
import socket
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field

import httpcore
import httpx
import pytest

from cogtree.knowledge.llm.client import LLMClient
from cogtree.knowledge.llm.config import LLMConfig
from cogtree.knowledge.llm.deadline_transport import DeadlineNetwork, deadline_transport
from cogtree.knowledge.llm.errors import LLMCancelledError, LLMTimeoutError
from cogtree.knowledge.llm.ollama_backend import OllamaBackend
from cogtree.knowledge.llm.types import LLMRequest, Message, ModuleSettings
from tests.llm.test_ollama_backend import FetchIntent, chat_reply

MESSAGES = (Message(role="user", content="bring me the red mug"),)
DRIP_BYTES = 400
"""The most a dripping server sends before it gives up by itself (20 s at one per 50 ms)."""


@dataclass
class DripServer:
    """Answers every connection with ``head`` after ``pause_s``, then ``body`` byte by byte."""

    head: bytes
    body: bytes
    gap_s: float = 0.05
    """The wait between two bytes of ``body``; 0 sends it whole."""
    pause_s: float = 0.0
    """The silence between the request and ``head``."""
    sent: list[int] = field(default_factory=list)
    """How many dripped bytes each connection got before the client hung up or all was sent."""

    def __post_init__(self) -> None:
        self.dripping = threading.Event()
        """Set once a connection got ``head`` and the body starts."""
        self._listener = socket.create_server(("127.0.0.1", 0))
        self._stop = threading.Event()
        self._threads: list[threading.Thread] = []
        self._accepting = threading.Thread(target=self._accept, daemon=True)
        self._accepting.start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self._listener.getsockname()[1]}"

    def _accept(self) -> None:
        self._listener.settimeout(0.1)
        while not self._stop.is_set():
            try:
                connection, _ = self._listener.accept()
            except TimeoutError:
                continue
            except OSError:
                return
            thread = threading.Thread(target=self._drip, args=(connection,), daemon=True)
            thread.start()
            self._threads.append(thread)

    def _drip(self, connection: socket.socket) -> None:
        count = 0
        with connection:
            connection.settimeout(1.0)
            try:
                connection.recv(65536)  # the request (small enough for one read)
                if self._stop.wait(self.pause_s):
                    return
                connection.sendall(self.head)
                self.dripping.set()
                if self.gap_s == 0:
                    connection.sendall(self.body)
                    count = len(self.body)
                for byte in self.body[:DRIP_BYTES] if self.gap_s else b"":
                    if self._stop.wait(self.gap_s):
                        break
                    connection.sendall(bytes([byte]))
                    count += 1
            except OSError:
                pass  # the client hung up: what we want to see
        self.sent.append(count)

    def close(self) -> None:
        self._stop.set()
        self._listener.close()
        self._accepting.join(timeout=2)
        for thread in self._threads:
            thread.join(timeout=2)


def chat_response(body: bytes) -> bytes:
    """The status line and headers of a JSON ``/api/chat`` answer of ``len(body)`` bytes."""
    return (
        b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n"
        + f"Content-Length: {len(body)}\r\n\r\n".encode()
    )


@pytest.fixture
def body() -> bytes:
    reply = chat_reply(json.dumps({"action": "fetch", "target": "mug"}))
    return json.dumps(reply).encode() + b" " * DRIP_BYTES


@pytest.fixture
def drip_body(body: bytes) -> Iterator[DripServer]:
    server = DripServer(head=chat_response(body), body=body)
    yield server
    server.close()


@pytest.fixture
def drip_headers(body: bytes) -> Iterator[DripServer]:
    head = chat_response(body)
    server = DripServer(head=b"", body=head + body)
    yield server
    server.close()


def chat_request(url: str, timeout_s: float) -> LLMRequest:
    settings = ModuleSettings(ollama_host=url, timeout_s=timeout_s)
    return LLMRequest("intent", MESSAGES, FetchIntent, settings)


@pytest.mark.parametrize("server", ["drip_body", "drip_headers"])
def test_a_dripping_server_is_cut_off_at_the_deadline(
    server: str, request: pytest.FixtureRequest
) -> None:
    drip: DripServer = request.getfixturevalue(server)
    backend = OllamaBackend()
    try:
        with pytest.raises(LLMTimeoutError, match="did not answer within 0.5s"):
            backend.complete(chat_request(drip.url, 0.5), threading.Event())
    finally:
        backend.close()
    drip.close()
    assert len(drip.sent) == 1
    assert drip.sent[0] < DRIP_BYTES  # the client hung up; the server did not finish


def test_cancelling_a_call_ends_it_before_its_deadline(drip_body: DripServer) -> None:
    backend = OllamaBackend()
    backend.prepare(chat_request(drip_body.url, 60.0).settings)  # as LLMClient does at setup
    cancel = threading.Event()
    # Cancel once the body drips, however long a busy machine takes to get there.
    canceller = threading.Thread(
        target=lambda: drip_body.dripping.wait(30.0) and cancel.set(), daemon=True
    )
    canceller.start()
    try:
        with pytest.raises(LLMCancelledError):
            backend.complete(chat_request(drip_body.url, 60.0), cancel)
    finally:
        drip_body.dripping.set()
        canceller.join(timeout=5.0)
        backend.close()
    drip_body.close()
    assert drip_body.sent[0] < DRIP_BYTES


def test_four_dripping_calls_free_the_client_s_workers(drip_body: DripServer) -> None:
    config = LLMConfig.from_mapping(
        {"defaults": {"backend": "ollama", "ollama_host": drip_body.url, "timeout_s": 0.5}}
    )
    with LLMClient(config, max_workers=4) as client:
        pending = [client.submit("intent", MESSAGES, FetchIntent) for _ in range(4)]
        errors = [call.future.exception(timeout=30) for call in pending]
        assert all(isinstance(error, LLMTimeoutError) for error in errors), errors
        assert client.wait_for_calls(timeout_s=30)


def test_a_silent_pause_shorter_than_the_deadline_is_waited_out(body: bytes) -> None:
    """The cancel poll (a quarter second) is not a read timeout: a model may think longer."""
    server = DripServer(head=chat_response(body), body=body, gap_s=0.0, pause_s=0.8)
    backend = OllamaBackend()
    try:
        completion = backend.complete(chat_request(server.url, 10.0), threading.Event())
    finally:
        backend.close()
        server.close()
    assert json.loads(completion.text) == {"action": "fetch", "target": "mug"}


def test_any_httpx_client_on_the_transport_ends_at_the_call_deadline(
    drip_body: DripServer,
) -> None:
    network = DeadlineNetwork()
    with (
        httpx.Client(transport=deadline_transport(network), timeout=5.0) as client,
        network.call(0.4, threading.Event()),
        pytest.raises(httpx.ReadTimeout),
    ):
        client.post(f"{drip_body.url}/api/chat", json={})


def test_a_thread_without_a_call_keeps_httpx_timeouts() -> None:
    network = DeadlineNetwork()
    assert network.bound(1.0, httpcore.ReadTimeout).wait == 1.0
    assert network.bound(None, httpcore.ReadTimeout).wait is None
    with network.call(10.0, threading.Event()):
        assert network.bound(None, httpcore.ReadTimeout).wait == pytest.approx(0.25)
    assert network.bound(None, httpcore.ReadTimeout).wait is None


def test_a_cancelled_or_expired_call_fails_its_next_read() -> None:
    network = DeadlineNetwork()
    cancel = threading.Event()
    cancel.set()
    with network.call(10.0, cancel), pytest.raises(httpcore.ReadTimeout, match="cancelled"):
        network.bound(1.0, httpcore.ReadTimeout)
    with (
        network.call(0.0, threading.Event()),
        pytest.raises(httpcore.WriteTimeout, match="deadline"),
    ):
        network.bound(1.0, httpcore.WriteTimeout)


def test_the_transport_runs_on_the_deadline_network() -> None:
    """Guards the one private attribute used: httpx keeps its connection pool in ``_pool``."""
    network = DeadlineNetwork()
    transport = deadline_transport(network)
    pool = transport._pool
    assert isinstance(pool, httpcore.ConnectionPool)
    assert pool._network_backend is network
