import threading
from typing import Literal

import pytest
from pydantic import BaseModel

from cogtree.knowledge.llm.backend import BackendStatus
from cogtree.knowledge.llm.client import LLMClient
from cogtree.knowledge.llm.config import LLMConfig
from cogtree.knowledge.llm.errors import (
    LLMConfigError,
    LLMError,
    LLMUnavailableError,
    MalformedOutputError,
)
from cogtree.knowledge.llm.scripted import Script, ScriptedBackend
from cogtree.knowledge.llm.tokens import EstimatedTokenCounter
from cogtree.knowledge.llm.types import Completion, LLMRequest, Message, ModuleSettings


class Verdict(BaseModel):
    ok: bool
    colour: Literal["red", "blue"] = "red"


PROMPT = [Message(role="user", content="is the cup red?")]


def client_for(script: dict, **kwargs) -> LLMClient:
    config = LLMConfig.load().with_backend("scripted")
    backend = ScriptedBackend(script, token_counter=EstimatedTokenCounter())
    return LLMClient(config, backends={"scripted": backend}, **kwargs)


def test_decide_returns_validated_instance_and_record() -> None:
    client = client_for({"in_order": [{"answer": {"ok": True, "colour": "blue"}}]})
    decision = client.decide("intent", PROMPT, Verdict)
    assert decision.value == Verdict(ok=True, colour="blue")
    record = decision.record
    assert (record.module, record.backend, record.outcome) == ("intent", "scripted", "ok")
    assert record.prompt_tokens > 0 and record.completion_tokens > 0
    assert record.tokens_estimated is True
    assert client.call_log.records() == [record]


def test_schema_violation_raises_malformed_with_record() -> None:
    client = client_for({"in_order": [{"answer": {"ok": "perhaps"}}, {"text": "{not json"}]})
    for _ in range(2):
        with pytest.raises(MalformedOutputError) as raised:
            client.decide("intent", PROMPT, Verdict)
        assert raised.value.record is not None
        assert raised.value.record.outcome == "malformed"
    assert [r.outcome for r in client.call_log.records()] == ["malformed", "malformed"]


def test_script_order_prompt_rules_then_module_then_shared_queue() -> None:
    script = {
        "by_prompt": [{"match": "blue", "reply": {"answer": {"ok": True, "colour": "blue"}}}],
        "by_module": {"intent": [{"answer": {"ok": False}}]},
        "in_order": [{"answer": {"ok": True}}],
    }
    client = client_for(script)
    blue = [Message(role="user", content="a blue cup")]
    assert client.decide("intent", blue, Verdict).value.colour == "blue"
    assert client.decide("intent", PROMPT, Verdict).value.ok is False
    assert client.decide("intent", PROMPT, Verdict).value.ok is True
    with pytest.raises(LLMError, match="no answer left for module 'intent'"):
        client.decide("intent", PROMPT, Verdict)


def test_script_file_errors_name_the_field(tmp_path) -> None:
    path = tmp_path / "script.yaml"
    path.write_text("in_order:\n  - {answer: {ok: true}, text: 'both'}\n", encoding="utf-8")
    with pytest.raises(LLMConfigError, match="script.yaml: field `in_order.0`"):
        Script.load(path)


class Exploding:
    name = "ollama"

    def complete(self, request: LLMRequest, cancel: threading.Event) -> Completion:
        raise KeyError("surprise")

    def prepare(self, settings: ModuleSettings) -> None:
        pass

    def model_name(self, settings: ModuleSettings) -> str:
        return settings.model

    def probe(self, settings: ModuleSettings) -> BackendStatus:
        return BackendStatus(self.name, True, "")


def test_unexpected_backend_errors_become_llm_errors() -> None:
    config = LLMConfig.load().with_backend("ollama")
    client = LLMClient(config, backends={"ollama": Exploding()})
    with pytest.raises(LLMError, match="ollama backend failed: KeyError") as raised:
        client.decide("intent", PROMPT, Verdict)
    assert raised.value.record is not None and raised.value.record.outcome == "error"


def test_submit_returns_at_once_and_completes_on_a_worker() -> None:
    backend = ScriptedBackend({"in_order": [{"answer": {"ok": True}}]})
    backend.hold()
    client = LLMClient(LLMConfig.load().with_backend("scripted"), backends={"scripted": backend})
    pending = client.submit("intent", PROMPT, Verdict)
    assert not pending.done()
    backend.release()
    assert pending.future.result(timeout=5).value.ok is True
    assert client.wait_for_calls(5)
    client.close()


def test_scripted_backend_must_be_given() -> None:
    client = LLMClient(LLMConfig.load().with_backend("scripted"))
    with pytest.raises(LLMConfigError, match="--script FILE"):
        client.decide("intent", PROMPT, Verdict)


def test_auto_falls_back_to_none_and_says_why(monkeypatch) -> None:
    from cogtree.knowledge.llm import llama_cpp_backend, ollama_backend

    def not_ready(name: str, fix: str):
        return lambda self, settings: BackendStatus(name, False, f"{name} absent", fix)

    monkeypatch.setattr(ollama_backend.OllamaBackend, "probe", not_ready("ollama", "ollama serve"))
    monkeypatch.setattr(llama_cpp_backend.LlamaCppBackend, "probe", not_ready("llama-cpp", ""))
    client = LLMClient(LLMConfig.load())
    assert client.offline
    assert "auto -> none" in client.describe()["intent"]
    with pytest.raises(LLMUnavailableError, match="no LLM backend"):
        client.decide("intent", PROMPT, Verdict)


def test_auto_never_picks_llama_cpp_even_when_it_is_ready(monkeypatch) -> None:
    from cogtree.knowledge.llm import llama_cpp_backend, ollama_backend

    monkeypatch.setattr(
        ollama_backend.OllamaBackend,
        "probe",
        lambda self, settings: BackendStatus("ollama", False, "not reachable", "ollama serve"),
    )
    monkeypatch.setattr(
        llama_cpp_backend.LlamaCppBackend,
        "probe",
        lambda self, settings: BackendStatus("llama-cpp", True, "SmolLM2 here"),
    )
    client = LLMClient(LLMConfig.load())
    assert client.backend_for("intent").name == "none"
    assert client.describe()["intent"] == "auto -> none: ollama: not reachable"
    client.close()


def test_auto_prefers_ollama_when_ready(monkeypatch) -> None:
    from cogtree.knowledge.llm import ollama_backend

    monkeypatch.setattr(
        ollama_backend.OllamaBackend,
        "probe",
        lambda self, settings: BackendStatus("ollama", True, "qwen2.5:3b on localhost"),
    )
    client = LLMClient(LLMConfig.load())
    assert client.backend_for("intent").name == "ollama"
    assert not client.offline
