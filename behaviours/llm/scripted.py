"""A deterministic backend that answers from a script, for tests and benchmarks.

Answers are chosen, in this order, by the first prompt rule whose regular expression matches
the prompt, then from the queue of the calling module, then from the shared in-order queue.
A call with nothing left to answer fails with an :class:`LLMError` that says so, which a gate
treats like any other failed call (safe decision), and which tests can see in the call log.
"""

from __future__ import annotations

import json
import re
import threading
import time
from collections import deque
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from behaviours.llm.backend import BackendStatus
from behaviours.llm.errors import (
    LLMCancelledError,
    LLMConfigError,
    LLMError,
    LLMTimeoutError,
    first_problem,
)
from behaviours.llm.tokens import TokenCounter, best_counter
from behaviours.llm.types import Completion, LLMRequest, ModuleSettings


class ScriptedReply(BaseModel):
    """One answer: a JSON object (``answer``) or raw text (``text``, e.g. malformed output)."""

    model_config = ConfigDict(extra="forbid")

    answer: dict[str, Any] | None = None
    text: str | None = None
    delay_s: float = Field(0.0, ge=0.0, description="simulated thinking time")

    @model_validator(mode="after")
    def _one_payload(self) -> ScriptedReply:
        if (self.answer is None) == (self.text is None):
            raise ValueError("a scripted reply needs exactly one of `answer` or `text`")
        return self

    def render(self) -> str:
        """The text the backend returns."""
        return self.text if self.text is not None else json.dumps(self.answer)


class PromptRule(BaseModel):
    """Answer ``reply`` whenever ``match`` (a regex) is found in the prompt."""

    model_config = ConfigDict(extra="forbid")

    match: str
    reply: ScriptedReply
    module: str | None = Field(None, description="only for this module when set")


class Script(BaseModel):
    """The whole script of a scripted backend."""

    model_config = ConfigDict(extra="forbid")

    by_prompt: list[PromptRule] = []
    by_module: dict[str, list[ScriptedReply]] = {}
    in_order: list[ScriptedReply] = []

    @classmethod
    def load(cls, path: str | Path) -> Script:
        """Read a script from YAML or JSON, with errors that name the file and field."""
        source = Path(path)
        try:
            data = yaml.safe_load(source.read_text(encoding="utf-8")) or {}
        except (OSError, yaml.YAMLError) as error:
            raise LLMConfigError(f"cannot read LLM script {source}: {error}") from error
        try:
            return cls.model_validate(data)
        except ValidationError as error:
            raise LLMConfigError(f"{source}: {first_problem(error)}") from error


class ScriptedBackend:
    """Backend ``scripted``: deterministic answers; records every request in ``requests``.

    Token counts come from the SmolLM2 GGUF's tokenizer when llama-cpp-python is installed
    (so benchmark token figures are real counts), else from the labelled estimate.

    ``hold()`` makes every call wait until ``release()`` (or cancellation, or the module's
    timeout), so a test can keep a call in flight for exactly as many ticks as it wants.
    """

    name = "scripted"

    def __init__(
        self,
        script: Script | Mapping[str, Any] | None = None,
        *,
        token_counter: TokenCounter | None = None,
    ) -> None:
        self.script = script if isinstance(script, Script) else Script.model_validate(script or {})
        self.requests: list[LLMRequest] = []
        self._counter = token_counter or best_counter()
        self._by_module = {m: deque(replies) for m, replies in self.script.by_module.items()}
        self._in_order = deque(self.script.in_order)
        self._lock = threading.Lock()
        self._gate = threading.Event()
        self._gate.set()

    def hold(self) -> None:
        """Make calls wait until :meth:`release`."""
        self._gate.clear()

    def release(self) -> None:
        """Let held calls answer."""
        self._gate.set()

    def complete(self, request: LLMRequest, cancel: threading.Event) -> Completion:
        """Answer from the script, after its delay; see the module docstring for the order."""
        with self._lock:
            self.requests.append(request)
            reply = self._next_reply(request)
        timeout = request.settings.timeout_s
        if reply.delay_s > 0 and cancel.wait(min(reply.delay_s, timeout)):
            raise LLMCancelledError("cancelled while the scripted model was thinking")
        if reply.delay_s > timeout:
            raise LLMTimeoutError(f"scripted reply takes {reply.delay_s}s, timeout is {timeout}s")
        self._wait_for_gate(cancel, timeout)
        text = reply.render()
        return Completion(
            text=text,
            model="scripted",
            prompt_tokens=self._counter.count(request.prompt_text()),
            completion_tokens=self._counter.count(text),
            tokens_estimated=self._counter.estimated,
        )

    def _wait_for_gate(self, cancel: threading.Event, timeout: float) -> None:
        deadline = time.monotonic() + timeout
        while not self._gate.wait(0.01):
            if cancel.is_set():
                raise LLMCancelledError("cancelled while the scripted model was held")
            if time.monotonic() >= deadline:
                raise LLMTimeoutError(f"held scripted call exceeded its timeout of {timeout}s")

    def _next_reply(self, request: LLMRequest) -> ScriptedReply:
        prompt = request.prompt_text()
        for rule in self.script.by_prompt:
            if rule.module in (None, request.module) and re.search(rule.match, prompt):
                return rule.reply
        queue = self._by_module.get(request.module)
        if queue:
            return queue.popleft()
        if self._in_order:
            return self._in_order.popleft()
        raise LLMError(
            f"scripted backend has no answer left for module {request.module!r} "
            f"(after {len(self.requests) - 1} earlier calls); add one to the script"
        )

    def prepare(self, settings: ModuleSettings) -> None:
        """Load the token counter's vocabulary now rather than on a worker thread."""
        self._counter.count("prepare")

    def model_name(self, settings: ModuleSettings) -> str:
        """Always ``scripted``."""
        return "scripted"

    def probe(self, settings: ModuleSettings) -> BackendStatus:
        """Always ready."""
        return BackendStatus(self.name, True, "answers from a script")
