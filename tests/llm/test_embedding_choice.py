"""Which embedder memory recall uses: ``auto`` asks Ollama only when something listens there."""

from __future__ import annotations

import socket

import pytest
from pytest_httpserver import HTTPServer

from cogtree.knowledge.llm import ollama_backend
from cogtree.knowledge.llm.embedding import DEFAULT_EMBED_MODEL, choose_recall
from cogtree.knowledge.llm.errors import LLMUnavailableError
from cogtree.knowledge.llm.types import ModuleSettings


@pytest.fixture
def silent_host() -> str:
    """The URL of a local port with nothing listening on it."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    return f"http://127.0.0.1:{port}"


def _tags(server: HTTPServer, *models: str) -> str:
    server.expect_request("/api/tags").respond_with_json(
        {"models": [{"model": model} for model in models]}
    )
    return server.url_for("/").rstrip("/")


def test_auto_with_nothing_listening_falls_back_without_the_http_probe(
    silent_host: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    def probe(*_: object) -> None:
        raise AssertionError("the HTTP probe ran although nothing listens")

    monkeypatch.setattr(ollama_backend.OllamaBackend, "probe", probe)
    choice = choose_recall("auto", ModuleSettings(ollama_host=silent_host))
    assert choice.embedder is None
    assert choice.method == "tf-idf + synonyms"
    assert choice.detail == f"no embedding model: not reachable at {silent_host}"


def test_ollama_by_name_with_nothing_listening_says_the_fix(silent_host: str) -> None:
    with pytest.raises(LLMUnavailableError, match="ollama serve"):
        choose_recall("ollama", ModuleSettings(ollama_host=silent_host))


def test_auto_uses_a_listening_ollama_that_has_the_model(httpserver: HTTPServer) -> None:
    host = _tags(httpserver, f"{DEFAULT_EMBED_MODEL}:latest")
    choice = choose_recall("auto", ModuleSettings(ollama_host=host))
    assert choice.embedder is not None
    assert choice.method == f"ollama embeddings ({DEFAULT_EMBED_MODEL})"


def test_auto_falls_back_when_the_listening_ollama_lacks_the_model(
    httpserver: HTTPServer,
) -> None:
    host = _tags(httpserver, "qwen2.5:3b")
    choice = choose_recall("auto", ModuleSettings(ollama_host=host))
    assert choice.embedder is None
    assert choice.detail.startswith(f"no embedding model: model {DEFAULT_EMBED_MODEL} is not on")
