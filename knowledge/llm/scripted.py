"""A deterministic backend that answers from a script, for tests and benchmarks.

Answers are chosen, in this order, by the first prompt rule whose regular expression matches
the prompt, then from the queue of the calling module, then from the shared in-order queue.
A call with nothing left to answer fails with an :class:`LLMError` that says so, which a gate
treats like any other failed call (safe decision), and which tests can see in the call log.

A reply is one of three forms: ``answer`` (a JSON object), ``text`` (raw, e.g. malformed) for
:meth:`ScriptedBackend.complete`, or ``letter_logprobs`` for
:meth:`ScriptedBackend.score_letters` (lettered options scored by log-probabilities)::

    by_prompt:
      - match: "the red mug"
        reply: {letter_logprobs: {A: -0.2, B: -1.9}}   # C absent: probability ~0
    in_order:
      - letter_logprobs: {}                             # no letter seen: even shares

A scoring call does not know its module, so it takes prompt rules without ``module`` and the
in-order queue only. A call that meets a reply of the other form fails with an
:class:`LLMError` naming it.
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

from cogtree.knowledge.llm.backend import BackendStatus
from cogtree.knowledge.llm.errors import (
    LLMCancelledError,
    LLMConfigError,
    LLMError,
    LLMTimeoutError,
    first_problem,
)
from cogtree.knowledge.llm.option_scores import LetterScores, OptionPrompt
from cogtree.knowledge.llm.tokens import TokenCounter, best_counter
from cogtree.knowledge.llm.types import Completion, LLMRequest, ModuleSettings


class ScriptedReply(BaseModel):
    """One answer: JSON (``answer``), raw text (``text``) or letters' log-probabilities.

    ``text`` serves malformed output; ``letter_logprobs`` maps each letter to the natural-log
    probability of it as the next token, for option scoring.
    """

    model_config = ConfigDict(extra="forbid")

    answer: dict[str, Any] | None = None
    text: str | None = None
    letter_logprobs: dict[str, float] | None = Field(
        None, description="for option scoring: letter -> log-probability (a letter may be absent)"
    )
    delay_s: float = Field(0.0, ge=0.0, description="simulated thinking time")

    @model_validator(mode="after")
    def _one_payload(self) -> ScriptedReply:
        given = [p for p in (self.answer, self.text, self.letter_logprobs) if p is not None]
        if len(given) != 1:
            raise ValueError(
                "a scripted reply needs exactly one of `answer`, `text` or `letter_logprobs`"
            )
        return self

    def render(self) -> str:
        """The text the backend returns (``answer`` or ``text`` replies)."""
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
    """Backend ``scripted``: deterministic answers, every call recorded.

    Completions are recorded in ``requests``, scored option prompts in ``scored``.

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
        self.scored: list[OptionPrompt] = []
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
        prompt = request.prompt_text()
        with self._lock:
            self.requests.append(request)
            reply = self._next_reply(prompt, request.module)
        if reply.letter_logprobs is not None:
            raise LLMError(
                f"the scripted reply for module {request.module!r} is `letter_logprobs`, but the "
                "call wants a completion; give it `answer` or `text`"
            )
        self._think(reply, cancel, request.settings.timeout_s)
        text = reply.render()
        return Completion(
            text=text,
            model="scripted",
            prompt_tokens=self._counter.count(prompt),
            completion_tokens=self._counter.count(text),
            tokens_estimated=self._counter.estimated,
        )

    def score_letters(
        self, prompt: OptionPrompt, settings: ModuleSettings, cancel: threading.Event
    ) -> LetterScores:
        """The next ``letter_logprobs`` reply of the script, after its delay."""
        text = "\n".join(message.content for message in prompt.messages)
        with self._lock:
            self.scored.append(prompt)
            reply = self._next_reply(text, None)
        if reply.letter_logprobs is None:
            raise LLMError(
                "the scripted reply for an option-scoring call has no `letter_logprobs` "
                f"(letters {', '.join(prompt.letters)}); add them to the script"
            )
        self._think(reply, cancel, settings.timeout_s)
        return LetterScores(
            logprobs=dict(reply.letter_logprobs),
            model="scripted",
            prompt_tokens=self._counter.count(text),
            tokens_estimated=self._counter.estimated,
        )

    def _think(self, reply: ScriptedReply, cancel: threading.Event, timeout: float) -> None:
        """Wait out the reply's delay and any hold; raise on cancel or past ``timeout``."""
        if reply.delay_s > 0 and cancel.wait(min(reply.delay_s, timeout)):
            raise LLMCancelledError("cancelled while the scripted model was thinking")
        if reply.delay_s > timeout:
            raise LLMTimeoutError(f"scripted reply takes {reply.delay_s}s, timeout is {timeout}s")
        self._wait_for_gate(cancel, timeout)

    def _wait_for_gate(self, cancel: threading.Event, timeout: float) -> None:
        deadline = time.monotonic() + timeout
        while not self._gate.wait(0.01):
            if cancel.is_set():
                raise LLMCancelledError("cancelled while the scripted model was held")
            if time.monotonic() >= deadline:
                raise LLMTimeoutError(f"held scripted call exceeded its timeout of {timeout}s")

    def _next_reply(self, prompt: str, module: str | None) -> ScriptedReply:
        """The reply for ``prompt`` from ``module`` (None: an option-scoring call)."""
        for rule in self.script.by_prompt:
            if rule.module in (None, module) and re.search(rule.match, prompt):
                return rule.reply
        queue = self._by_module.get(module) if module is not None else None
        if queue:
            return queue.popleft()
        if self._in_order:
            return self._in_order.popleft()
        calls = len(self.requests) + len(self.scored) - 1
        asked = f"module {module!r}" if module is not None else "an option-scoring call"
        raise LLMError(
            f"scripted backend has no answer left for {asked} "
            f"(after {calls} earlier calls); add one to the script"
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
