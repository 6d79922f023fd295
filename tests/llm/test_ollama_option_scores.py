"""Option scoring through the real ``ollama`` client against fake Ollama servers.

Each fake is a real HTTP server (``http.server`` in a thread, on a free loopback port) that
answers ``/api/chat``, ``/api/version`` and ``/api/tags`` the way Ollama does. The chat reply
with log-probabilities has the shape of Ollama 0.12.11's release notes (``logprobs`` at the
top level: ``token``, ``logprob``, ``bytes``, ``top_logprobs``) and is parsed by the
installed ollama-python's own ``ChatResponse``.
"""

from __future__ import annotations

import json
import math
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import ollama
import pytest

from cogtree.knowledge.llm.client import LLMClient
from cogtree.knowledge.llm.config import LLMConfig
from cogtree.knowledge.llm.errors import LLMTimeoutError, LLMUnavailableError
from cogtree.knowledge.llm.ollama_backend import (
    OLLAMA_LOGPROBS_SINCE,
    TOP_LOGPROBS,
    OllamaBackend,
    _require_logprobs_client,
)
from cogtree.knowledge.llm.option_scores import (
    LogprobsUnavailableError,
    OptionPrompt,
    letter_probabilities,
)
from cogtree.knowledge.llm.types import Message, ModuleSettings
from tests.llm.test_deadline_transport import DRIP_BYTES, DripServer, chat_response
from tests.llm.test_ollama_backend import chat_reply

MODEL = "qwen2.5:3b"
PROMPT = OptionPrompt(
    messages=(
        Message(role="system", content="Answer with the letter of one option."),
        Message(role="user", content="Which cup? A) the green cup B) the tall cup C) neither"),
    ),
    letters=("A", "B", "C"),
)


def token(text: str, logprob: float) -> dict[str, Any]:
    """One candidate token as Ollama sends it (``bytes`` holds the token's UTF-8 bytes)."""
    return {"token": text, "logprob": logprob, "bytes": list(text.encode())}


FIRST_TOKEN_CANDIDATES = [
    token(" B", -0.40),
    token(" A", -1.60),
    token("B", -2.50),
    token(" C", -3.70),
    token("The", -4.20),
]
"""The top candidates of the one generated token, most likely first."""

WITH_LOGPROBS = chat_reply(
    " B",
    model=MODEL,
    done_reason="length",
    eval_count=1,
    logprobs=[{**FIRST_TOKEN_CANDIDATES[0], "top_logprobs": FIRST_TOKEN_CANDIDATES}],
)
WITHOUT_LOGPROBS = chat_reply(" B", model=MODEL, done_reason="length", eval_count=1)


@dataclass
class FakeOllama:
    """A local HTTP server answering ``/api/chat``, ``/api/version`` and ``/api/tags``.

    ``version`` None makes ``/api/version`` answer 404 (as a non-Ollama server would).
    Every ``/api/chat`` body is kept in ``chats``.
    """

    chat: dict[str, Any]
    version: str | None = "0.13.0"
    chats: list[dict[str, Any]] = field(default_factory=list)

    def __post_init__(self) -> None:
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                if self.path == "/api/version" and fake.version is not None:
                    self._json(200, {"version": fake.version})
                elif self.path == "/api/tags":
                    self._json(200, {"models": [{"name": MODEL, "model": MODEL}]})
                else:
                    self._json(404, {"error": "404 page not found"})

            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length", 0))
                body = json.loads(self.rfile.read(length))
                if self.path != "/api/chat":
                    self._json(404, {"error": "404 page not found"})
                    return
                fake.chats.append(body)
                self._json(200, fake.chat)

            def _json(self, status: int, payload: dict[str, Any]) -> None:
                data = json.dumps(payload).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, format: str, *args: Any) -> None:
                pass  # keep the test output clean

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        # serve_forever polls for shutdown every 0.5 s by default: each test's exit waited that
        self._thread = threading.Thread(
            target=self.server.serve_forever, kwargs={"poll_interval": 0.01}, daemon=True
        )
        self._thread.start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}"

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()
        self._thread.join(timeout=5)


@pytest.fixture
def new_server() -> Iterator[FakeOllama]:
    server = FakeOllama(WITH_LOGPROBS)
    yield server
    server.close()


@pytest.fixture
def old_server() -> Iterator[FakeOllama]:
    server = FakeOllama(WITHOUT_LOGPROBS, version="0.12.6")
    yield server
    server.close()


@pytest.fixture
def backend() -> Iterator[OllamaBackend]:
    instance = OllamaBackend()
    yield instance
    instance.close()


def settings_for(url: str, **more: Any) -> ModuleSettings:
    return ModuleSettings.model_validate({"backend": "ollama", "ollama_host": url, **more})


def client_for(url: str, **more: Any) -> LLMClient:
    defaults = {"backend": "ollama", "ollama_host": url, "model": MODEL, **more}
    return LLMClient(LLMConfig.from_mapping({"defaults": defaults}))


# -- a server that returns log-probabilities ----------------------------------------------------


def test_letters_are_scored_from_the_first_token_s_candidates(
    new_server: FakeOllama, backend: OllamaBackend
) -> None:
    scores = backend.score_letters(PROMPT, settings_for(new_server.url), threading.Event())

    assert scores.logprobs["B"] == pytest.approx(math.log(math.exp(-0.40) + math.exp(-2.50)))
    assert scores.logprobs["A"] == pytest.approx(-1.60)
    assert scores.logprobs["C"] == pytest.approx(-3.70)
    assert (scores.model, scores.prompt_tokens, scores.tokens_estimated) == (MODEL, 31, False)


def test_the_request_asks_for_one_token_and_its_alternatives(
    new_server: FakeOllama, backend: OllamaBackend
) -> None:
    settings = settings_for(new_server.url, num_ctx=2048, seed=3, temperature=0.7)
    backend.score_letters(PROMPT, settings, threading.Event())

    (body,) = new_server.chats
    assert (body["logprobs"], body["top_logprobs"]) == (True, TOP_LOGPROBS)
    assert body["options"] == {"temperature": 0.0, "num_ctx": 2048, "num_predict": 1, "seed": 3}
    assert "format" not in body or body["format"] is None
    assert body["messages"] == [{"role": m.role, "content": m.content} for m in PROMPT.messages]


def test_the_client_turns_them_into_probabilities_over_the_letters(new_server: FakeOllama) -> None:
    with client_for(new_server.url) as client:
        scores = client.score_options("intent", PROMPT)
    assert sum(scores.probabilities.values()) == pytest.approx(1.0)
    assert max(scores.probabilities, key=scores.probabilities.__getitem__) == "B"
    assert (scores.backend, scores.model, scores.record.outcome) == ("ollama", MODEL, "ok")


def test_a_letter_outside_the_top_candidates_gets_the_smallest_shown(
    backend: OllamaBackend,
) -> None:
    server = FakeOllama(WITH_LOGPROBS)
    prompt = OptionPrompt(messages=PROMPT.messages, letters=("A", "B", "C", "D"))
    try:
        scores = backend.score_letters(prompt, settings_for(server.url), threading.Event())
    finally:
        server.close()
    assert scores.logprobs["D"] == pytest.approx(-4.20)  # "The", the least likely shown


def test_a_lone_letter_among_other_tokens_is_not_made_certain(backend: OllamaBackend) -> None:
    lone = [token("Sure", -0.1), token(" A", -3.0), token("I", -3.5), token("The", -4.0)]
    reply = chat_reply(
        "Sure", model=MODEL, done_reason="length", logprobs=[{**lone[0], "top_logprobs": lone}]
    )
    server = FakeOllama(reply)
    try:
        scores = backend.score_letters(PROMPT, settings_for(server.url), threading.Event())
    finally:
        server.close()
    probabilities = letter_probabilities(scores.logprobs, PROMPT.letters)
    assert probabilities["A"] == pytest.approx(1 / (1 + 2 * math.exp(-1.0)))  # not 1.0
    assert probabilities["B"] == probabilities["C"] > 0.2


# -- a server without log-probabilities -----------------------------------------------------------


def test_an_old_server_is_named_with_its_version_and_the_upgrade(
    old_server: FakeOllama, backend: OllamaBackend
) -> None:
    with pytest.raises(LogprobsUnavailableError) as raised:
        backend.score_letters(PROMPT, settings_for(old_server.url), threading.Event())
    message = str(raised.value)
    assert "version 0.12.6" in message and old_server.url in message
    assert f"upgrade Ollama to {OLLAMA_LOGPROBS_SINCE} or later" in message


def test_an_unknown_server_version_is_said_to_be_unknown(backend: OllamaBackend) -> None:
    server = FakeOllama(WITHOUT_LOGPROBS, version=None)
    try:
        with pytest.raises(LogprobsUnavailableError, match="version unknown"):
            backend.score_letters(PROMPT, settings_for(server.url), threading.Event())
    finally:
        server.close()


def test_submit_scores_hands_the_caller_a_logprobs_unavailable_error(
    old_server: FakeOllama,
) -> None:
    with client_for(old_server.url) as client:
        pending = client.submit_scores("intent", PROMPT)
        error = pending.future.exception(timeout=30)
    assert isinstance(error, LogprobsUnavailableError)
    assert isinstance(error, LLMUnavailableError)  # a gate's "no model" branch catches it
    assert error.record is not None and error.record.outcome == "unavailable"
    assert "0.12.6" in error.record.detail


def test_an_ollama_python_without_logprobs_is_named_with_the_fix(
    monkeypatch: pytest.MonkeyPatch, backend: OllamaBackend
) -> None:
    def chat_of_0_6_0(self: ollama.Client, model: str = "", messages: Any = None) -> None:
        raise AssertionError("never called: the check reads the signature")

    monkeypatch.setattr(ollama.Client, "chat", chat_of_0_6_0)
    _require_logprobs_client.cache_clear()
    try:
        with pytest.raises(LogprobsUnavailableError, match="pip install -U ollama"):
            backend.score_letters(PROMPT, settings_for("http://127.0.0.1:9"), threading.Event())
    finally:
        _require_logprobs_client.cache_clear()


# -- a server that drips its answer ---------------------------------------------------------------


@pytest.fixture
def dripping() -> Iterator[DripServer]:
    body = json.dumps(WITH_LOGPROBS).encode() + b" " * DRIP_BYTES
    server = DripServer(head=chat_response(body), body=body)
    yield server
    server.close()


def test_a_dripping_server_times_out_at_the_total_deadline(
    dripping: DripServer, backend: OllamaBackend
) -> None:
    with pytest.raises(LLMTimeoutError, match="within 0.5s"):
        backend.score_letters(PROMPT, settings_for(dripping.url, timeout_s=0.5), threading.Event())
    dripping.close()
    assert dripping.sent[0] < DRIP_BYTES  # the client hung up before the answer was whole


def test_submit_scores_hands_the_caller_a_timeout_error(dripping: DripServer) -> None:
    with client_for(dripping.url, timeout_s=0.5) as client:
        pending = client.submit_scores("intent", PROMPT)
        error = pending.future.exception(timeout=30)
    assert isinstance(error, LLMTimeoutError)
    assert error.record is not None and error.record.outcome == "timeout"


# -- what `cogtree doctor` asks ----------------------------------------------------------------


def test_logprobs_status_from_the_server_version(
    new_server: FakeOllama, old_server: FakeOllama, backend: OllamaBackend
) -> None:
    ready = backend.logprobs_status(settings_for(new_server.url))
    old = backend.logprobs_status(settings_for(old_server.url))

    assert ready.ready and "Ollama 0.13.0" in ready.detail
    assert not old.ready and "0.12.6" in old.detail and str(OLLAMA_LOGPROBS_SINCE) in old.fix
    assert new_server.chats == [] and old_server.chats == []  # no model call


def test_logprobs_status_of_an_unreachable_server(backend: OllamaBackend) -> None:
    status = backend.logprobs_status(settings_for("http://127.0.0.1:9", timeout_s=1.0))
    assert not status.ready and "cannot read /api/version" in status.detail
