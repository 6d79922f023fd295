"""The Ollama backend against a local HTTP server that speaks Ollama's REST API."""

from __future__ import annotations

import json
import socket
import threading
from collections.abc import Iterator
from typing import Any, Literal

import pytest
from pydantic import BaseModel
from pytest_httpserver import HTTPServer
from werkzeug import Request, Response

from cogtree.knowledge.llm.backend import Backend
from cogtree.knowledge.llm.client import LLMClient
from cogtree.knowledge.llm.config import LLMConfig, resolve_host
from cogtree.knowledge.llm.errors import (
    LLMError,
    LLMTimeoutError,
    LLMUnavailableError,
    MalformedOutputError,
    ModelMissingError,
)
from cogtree.knowledge.llm.ollama_backend import OllamaBackend
from cogtree.knowledge.llm.types import LLMRequest, Message, ModuleSettings


class FetchIntent(BaseModel):
    """A tiny task schema, enough to check that ``format`` carries it."""

    action: Literal["fetch", "place"]
    target: str


MESSAGES = (
    Message(role="system", content="Answer with JSON only."),
    Message(role="user", content="bring me the red mug"),
)


def base_url(server: HTTPServer) -> str:
    """The server's URL without the trailing slash, as a user would write OLLAMA_HOST."""
    return server.url_for("/").rstrip("/")


def chat_reply(content: str, model: str = "qwen2.5:3b", **extra: Any) -> dict[str, Any]:
    """A non-streaming ``/api/chat`` answer the way Ollama sends it."""
    return {
        "model": model,
        "created_at": "2025-01-01T00:00:00Z",
        "message": {"role": "assistant", "content": content},
        "done": True,
        "done_reason": "stop",
        "total_duration": 1_000_000,
        "prompt_eval_count": 31,
        "eval_count": 12,
        **extra,
    }


def make_request(settings: ModuleSettings, module: str = "intent") -> LLMRequest:
    """A request for ``FetchIntent`` with the shared messages."""
    return LLMRequest(module, MESSAGES, FetchIntent, settings)


@pytest.fixture
def backend() -> Iterator[OllamaBackend]:
    """A fresh backend whose cached clients are closed afterwards."""
    instance = OllamaBackend()
    yield instance
    instance.close()


@pytest.fixture
def free_port() -> int:
    """A local port with nothing listening on it."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
    return port


# -- complete -----------------------------------------------------------------------------------


def test_is_a_backend() -> None:
    backend = OllamaBackend()
    assert isinstance(backend, Backend)
    assert backend.name == "ollama"
    assert backend.model_name(ModuleSettings(model="llama3.2:1b")) == "llama3.2:1b"


def test_complete_sends_schema_options_and_returns_counts(
    httpserver: HTTPServer, backend: OllamaBackend
) -> None:
    content = json.dumps({"action": "fetch", "target": "red mug"})
    httpserver.expect_request("/api/chat", method="POST").respond_with_json(chat_reply(content))
    settings = ModuleSettings(
        ollama_host=base_url(httpserver),
        model="qwen2.5:3b",
        temperature=0.3,
        num_ctx=2048,
        seed=7,
        max_tokens=99,
        keep_alive="5m",
    )

    completion = backend.complete(make_request(settings), threading.Event())

    httpserver.check_assertions()
    assert len(httpserver.log) == 1
    body = httpserver.log[0][0].get_json()
    assert body["model"] == "qwen2.5:3b"
    assert body["format"] == FetchIntent.model_json_schema()
    assert body["options"] == {"temperature": 0.3, "num_ctx": 2048, "seed": 7, "num_predict": 99}
    assert body["keep_alive"] == "5m"
    assert body["stream"] is False
    assert body["messages"] == [
        {"role": "system", "content": "Answer with JSON only."},
        {"role": "user", "content": "bring me the red mug"},
    ]
    assert completion.text == content
    assert completion.model == "qwen2.5:3b"
    assert completion.prompt_tokens == 31
    assert completion.completion_tokens == 12
    assert completion.tokens_estimated is False


def test_complete_omits_seed_when_none(httpserver: HTTPServer, backend: OllamaBackend) -> None:
    httpserver.expect_request("/api/chat", method="POST").respond_with_json(chat_reply("{}"))
    settings = ModuleSettings(ollama_host=base_url(httpserver), seed=None)

    backend.complete(make_request(settings), threading.Event())

    options = httpserver.log[0][0].get_json()["options"]
    assert "seed" not in options
    assert options["num_predict"] == settings.max_tokens


def test_missing_counts_become_zero(httpserver: HTTPServer, backend: OllamaBackend) -> None:
    reply = chat_reply("{}")
    del reply["prompt_eval_count"], reply["eval_count"]
    httpserver.expect_request("/api/chat", method="POST").respond_with_json(reply)
    settings = ModuleSettings(ollama_host=base_url(httpserver))

    completion = backend.complete(make_request(settings), threading.Event())

    assert (completion.prompt_tokens, completion.completion_tokens) == (0, 0)
    assert completion.tokens_estimated is False


def test_clients_are_reused_per_host_and_timeout(
    httpserver: HTTPServer, backend: OllamaBackend
) -> None:
    httpserver.expect_request("/api/chat", method="POST").respond_with_json(chat_reply("{}"))
    settings = ModuleSettings(ollama_host=base_url(httpserver))

    backend.complete(make_request(settings), threading.Event())
    backend.complete(make_request(settings), threading.Event())
    assert len(backend._clients) == 1
    backend.complete(
        make_request(settings.model_copy(update={"timeout_s": 5.0})), threading.Event()
    )
    assert len(backend._clients) == 2
    assert len(httpserver.log) == 3


# -- through LLMClient ----------------------------------------------------------------------------


def ollama_config(server: HTTPServer) -> LLMConfig:
    """The packaged manifest with every module on the ollama backend at ``server``."""
    return LLMConfig.from_mapping(
        {"defaults": {"backend": "ollama", "ollama_host": base_url(server)}}
    )


def test_llm_client_returns_validated_decision(httpserver: HTTPServer) -> None:
    content = json.dumps({"action": "place", "target": "plate"})
    reply = chat_reply(content, prompt_eval_count=40, eval_count=9)
    httpserver.expect_request("/api/chat", method="POST").respond_with_json(reply)

    with LLMClient(ollama_config(httpserver)) as client:
        decision = client.decide("intent", MESSAGES, FetchIntent)

    assert decision.value == FetchIntent(action="place", target="plate")
    assert decision.raw == content
    record = decision.record
    assert record.backend == "ollama"
    assert record.model == "qwen2.5:3b"
    assert record.module == "intent"
    assert record.outcome == "ok"
    assert (record.prompt_tokens, record.completion_tokens) == (40, 9)
    assert record.tokens_estimated is False
    assert client.call_log.records() == [record]
    body = httpserver.log[0][0].get_json()
    intent = client.settings_for("intent")
    assert body["options"]["temperature"] == intent.temperature
    assert body["options"]["num_predict"] == intent.max_tokens


def test_llm_client_reports_malformed_output(httpserver: HTTPServer) -> None:
    httpserver.expect_request("/api/chat", method="POST").respond_with_json(
        chat_reply("Sure! I will fetch the mug.")
    )

    with (
        LLMClient(ollama_config(httpserver)) as client,
        pytest.raises(MalformedOutputError) as caught,
    ):
        client.decide("intent", MESSAGES, FetchIntent)

    assert caught.value.raw == "Sure! I will fetch the mug."
    assert caught.value.record is not None
    assert caught.value.record.outcome == "malformed"
    assert caught.value.record.backend == "ollama"
    assert caught.value.record.prompt_tokens == 31


def test_llm_client_records_model_missing(httpserver: HTTPServer) -> None:
    httpserver.expect_request("/api/chat", method="POST").respond_with_json(
        {"error": "model 'qwen2.5:3b' not found"}, status=404
    )

    with (
        LLMClient(ollama_config(httpserver)) as client,
        pytest.raises(ModelMissingError) as caught,
    ):
        client.decide("intent", MESSAGES, FetchIntent)

    assert caught.value.record is not None
    assert caught.value.record.outcome == "model_missing"


# -- errors -------------------------------------------------------------------------------------


def test_404_is_model_missing_with_pull_command(
    httpserver: HTTPServer, backend: OllamaBackend
) -> None:
    httpserver.expect_request("/api/chat", method="POST").respond_with_json(
        {"error": "model 'x' not found"}, status=404
    )
    settings = ModuleSettings(ollama_host=base_url(httpserver), model="x")

    with pytest.raises(ModelMissingError) as caught:
        backend.complete(make_request(settings), threading.Event())

    assert "ollama pull x" in str(caught.value)
    assert base_url(httpserver) in str(caught.value)
    assert isinstance(caught.value, LLMUnavailableError)


def test_404_from_something_else_is_not_model_missing(
    httpserver: HTTPServer, backend: OllamaBackend
) -> None:
    httpserver.expect_request("/api/chat", method="POST").respond_with_data(
        "404 page not found", status=404, content_type="text/plain"
    )
    settings = ModuleSettings(ollama_host=base_url(httpserver), model="x")

    with pytest.raises(LLMUnavailableError) as caught:
        backend.complete(make_request(settings), threading.Event())

    assert not isinstance(caught.value, ModelMissingError)
    assert "OLLAMA_HOST" in str(caught.value)
    assert "404 page not found" in str(caught.value)


def test_other_error_status_is_llm_error_with_server_text(
    httpserver: HTTPServer, backend: OllamaBackend
) -> None:
    httpserver.expect_request("/api/chat", method="POST").respond_with_json(
        {"error": "model requires more system memory (5.0 GiB) than is available"}, status=500
    )
    settings = ModuleSettings(ollama_host=base_url(httpserver))

    with pytest.raises(LLMError) as caught:
        backend.complete(make_request(settings), threading.Event())

    assert type(caught.value) is LLMError
    assert "500" in str(caught.value)
    assert "requires more system memory" in str(caught.value)


def test_connection_refused_is_unavailable(backend: OllamaBackend, free_port: int) -> None:
    settings = ModuleSettings(ollama_host=f"http://127.0.0.1:{free_port}")

    with pytest.raises(LLMUnavailableError) as caught:
        backend.complete(make_request(settings), threading.Event())

    assert type(caught.value) is LLMUnavailableError
    assert "ollama serve" in str(caught.value)
    assert f"127.0.0.1:{free_port}" in str(caught.value)


def test_server_dropping_the_connection_is_unavailable(backend: OllamaBackend) -> None:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen(1)
        port = listener.getsockname()[1]

        def hang_up() -> None:
            connection, _ = listener.accept()
            with connection:
                connection.recv(65536)  # read the request, then close without answering

        thread = threading.Thread(target=hang_up, daemon=True)
        thread.start()
        settings = ModuleSettings(ollama_host=f"127.0.0.1:{port}", timeout_s=5.0)

        with pytest.raises(LLMUnavailableError) as caught:
            backend.complete(make_request(settings), threading.Event())
        thread.join(timeout=5.0)

    assert "ollama serve" in str(caught.value)


def test_slow_server_is_timeout(httpserver: HTTPServer, backend: OllamaBackend) -> None:
    release = threading.Event()

    def slow(request: Request) -> Response:
        release.wait(timeout=1.0)  # longer than timeout_s unless the test releases it
        return Response(json.dumps(chat_reply("{}")), content_type="application/json")

    httpserver.expect_request("/api/chat", method="POST").respond_with_handler(slow)
    settings = ModuleSettings(ollama_host=base_url(httpserver), timeout_s=0.3)

    try:
        with pytest.raises(LLMTimeoutError) as caught:
            backend.complete(make_request(settings), threading.Event())
    finally:
        release.set()  # free the single-threaded test server at once

    assert "0.3s" in str(caught.value)


def test_cancel_before_start_sends_nothing(httpserver: HTTPServer, backend: OllamaBackend) -> None:
    # A unique model name marks this test's request: the shared test server may still log a
    # late request of an earlier test (a slow handler released at its end).
    settings = ModuleSettings(ollama_host=base_url(httpserver), model="never-sent:cancel-test")
    cancel = threading.Event()
    cancel.set()

    with pytest.raises(LLMError) as caught:
        backend.complete(make_request(settings), cancel)

    assert caught.value.outcome == "cancelled"
    sent = [request.get_data(as_text=True) for request, _ in httpserver.log]
    assert not any("never-sent:cancel-test" in body for body in sent)


# -- probe --------------------------------------------------------------------------------------


def tags(*names: str) -> dict[str, Any]:
    """An ``/api/tags`` answer listing ``names``."""
    return {
        "models": [
            {"name": name, "model": name, "modified_at": "2025-01-01T00:00:00Z", "size": 1}
            for name in names
        ]
    }


def test_probe_ready_when_model_listed(httpserver: HTTPServer, backend: OllamaBackend) -> None:
    httpserver.expect_request("/api/tags", method="GET").respond_with_json(
        tags("llama3.2:1b", "qwen2.5:3b")
    )
    settings = ModuleSettings(ollama_host=base_url(httpserver), model="qwen2.5:3b")

    status = backend.probe(settings)

    assert status.ready is True
    assert status.backend == "ollama"
    assert status.detail == f"qwen2.5:3b on {base_url(httpserver)}"


def test_probe_untagged_name_matches_latest(httpserver: HTTPServer, backend: OllamaBackend) -> None:
    httpserver.expect_request("/api/tags", method="GET").respond_with_json(tags("phi3:latest"))
    host = base_url(httpserver)

    assert backend.probe(ModuleSettings(ollama_host=host, model="phi3")).ready is True
    assert backend.probe(ModuleSettings(ollama_host=host, model="phi3:mini")).ready is False


def test_probe_not_ready_when_model_absent(httpserver: HTTPServer, backend: OllamaBackend) -> None:
    httpserver.expect_request("/api/tags", method="GET").respond_with_json(
        tags("llama3.2:1b", "gemma2:2b")
    )
    settings = ModuleSettings(ollama_host=base_url(httpserver), model="qwen2.5:3b")

    status = backend.probe(settings)

    assert status.ready is False
    assert "ollama pull qwen2.5:3b" in status.fix
    assert "llama3.2:1b" in status.detail
    assert "gemma2:2b" in status.detail


def test_probe_with_no_models(httpserver: HTTPServer, backend: OllamaBackend) -> None:
    httpserver.expect_request("/api/tags", method="GET").respond_with_json({"models": []})

    status = backend.probe(ModuleSettings(ollama_host=base_url(httpserver)))

    assert status.ready is False
    assert "no models" in status.detail
    assert "ollama pull qwen2.5:3b" in status.fix


def test_probe_not_reachable(backend: OllamaBackend, free_port: int) -> None:
    status = backend.probe(ModuleSettings(ollama_host=f"127.0.0.1:{free_port}"))

    assert status.ready is False
    assert status.detail == f"not reachable at http://127.0.0.1:{free_port}"
    assert "ollama serve" in status.fix


def test_probe_never_raises_on_garbage(httpserver: HTTPServer, backend: OllamaBackend) -> None:
    httpserver.expect_request("/api/tags", method="GET").respond_with_data(
        "<html>not ollama</html>", content_type="text/html"
    )

    status = backend.probe(ModuleSettings(ollama_host=base_url(httpserver)))

    assert status.ready is False


def test_probe_never_raises_on_bad_host(backend: OllamaBackend) -> None:
    status = backend.probe(ModuleSettings(ollama_host="localhost:notaport"))

    assert status.ready is False
    assert "OLLAMA_HOST" in status.fix


# -- resolve_host -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("env", "expected"),
    [
        ("0.0.0.0:11434", "http://127.0.0.1:11434"),
        ("0.0.0.0", "http://127.0.0.1:11434"),
        ("gpu-box:8080", "http://gpu-box:8080"),
        ("gpu-box", "http://gpu-box:11434"),
        (":9999", "http://127.0.0.1:9999"),
        ("http://gpu-box:11434", "http://gpu-box:11434"),
        ("http://gpu-box:11434/", "http://gpu-box:11434"),
        ("https://ollama.example.org", "https://ollama.example.org:443"),
        ("http://ollama.example.org", "http://ollama.example.org:80"),
        ("gpu-box:11434/proxy/ollama", "http://gpu-box:11434/proxy/ollama"),
        ("[::1]:11434", "http://[::1]:11434"),
        ("  10.0.0.5:11434  ", "http://10.0.0.5:11434"),
    ],
)
def test_resolve_host_from_env(monkeypatch: pytest.MonkeyPatch, env: str, expected: str) -> None:
    monkeypatch.setenv("OLLAMA_HOST", env)

    assert resolve_host(ModuleSettings()) == expected


def test_resolve_host_default(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("OLLAMA_HOST", raising=False)
    assert resolve_host(ModuleSettings()) == "http://127.0.0.1:11434"
    monkeypatch.setenv("OLLAMA_HOST", "")
    assert resolve_host(ModuleSettings()) == "http://127.0.0.1:11434"


def test_settings_host_wins_over_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OLLAMA_HOST", "elsewhere:1")

    assert resolve_host(ModuleSettings(ollama_host="http://nuc:11434")) == "http://nuc:11434"
    assert resolve_host(ModuleSettings(ollama_host="nuc:12345")) == "http://nuc:12345"


def test_env_host_is_used_by_complete(
    monkeypatch: pytest.MonkeyPatch, httpserver: HTTPServer, backend: OllamaBackend
) -> None:
    httpserver.expect_request("/api/chat", method="POST").respond_with_json(chat_reply("{}"))
    monkeypatch.setenv("OLLAMA_HOST", base_url(httpserver).removeprefix("http://"))

    completion = backend.complete(make_request(ModuleSettings()), threading.Event())

    assert completion.text == "{}"
    assert len(httpserver.log) == 1
