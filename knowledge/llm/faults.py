"""A backend wrapper that injects faults at a given rate and seed.

Faults: malformed JSON, wrong-but-valid answers, timeouts and connection errors, so trees can
be tested against what real local models and servers do. Option scoring gets the same kinds:
malformed scores name no offered letter, wrong ones move each letter's score to the next one.
"""

from __future__ import annotations

import json
import random
import threading
from dataclasses import replace
from typing import Any, Literal, get_args

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from cogtree.knowledge.llm.backend import Backend, BackendStatus, WrappedBackend
from cogtree.knowledge.llm.errors import (
    LLMConfigError,
    LLMTimeoutError,
    LLMUnavailableError,
    first_problem,
)
from cogtree.knowledge.llm.option_scores import (
    LetterScores,
    LetterScoringBackend,
    LogprobsUnavailableError,
    OptionPrompt,
)
from cogtree.knowledge.llm.types import Completion, LLMRequest, ModuleSettings

FaultKind = Literal["malformed", "wrong", "timeout", "connection"]
FAULT_KINDS: tuple[FaultKind, ...] = get_args(FaultKind)


class FaultPlan(BaseModel):
    """Which faults to inject and how often; the same seed gives the same faults."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    rate: float = Field(0.2, ge=0.0, le=1.0, description="probability that a call is faulted")
    seed: int = 0
    kinds: tuple[FaultKind, ...] = FAULT_KINDS

    @classmethod
    def parse(cls, spec: str) -> FaultPlan:
        """Parse ``rate=0.3,seed=7,kinds=malformed+timeout`` (the CLI's ``--faults``)."""
        values: dict[str, Any] = {}
        for part in filter(None, (p.strip() for p in spec.split(","))):
            key, sep, value = part.partition("=")
            if not sep or key not in cls.model_fields:
                raise LLMConfigError(
                    f"bad fault spec {part!r}: expected key=value with key in "
                    f"{', '.join(cls.model_fields)} (e.g. rate=0.3,seed=7,kinds=malformed+timeout)"
                )
            values[key] = tuple(value.split("+")) if key == "kinds" else value
        try:
            return cls.model_validate(values)
        except ValidationError as error:
            raise LLMConfigError(
                f"bad fault spec {spec!r}: {first_problem(error)} "
                f"(kinds are {', '.join(FAULT_KINDS)})"
            ) from error


class FaultInjectingBackend(WrappedBackend):
    """Wraps a backend; each call is faulted with probability ``plan.rate``.

    ``injected`` lists (module, kind) for every fault, so tests can check what happened.
    """

    def __init__(self, inner: Backend, plan: FaultPlan) -> None:
        super().__init__(inner)
        self.plan = plan
        self.injected: list[tuple[str, FaultKind]] = []
        self._random = random.Random(plan.seed)
        self._lock = threading.Lock()

    def complete(self, request: LLMRequest, cancel: threading.Event) -> Completion:
        """Run the inner backend, or fail or corrupt the call as the plan's dice say."""
        kind = self._roll(request.module, request.settings, cancel)
        completion = self.inner.complete(request, cancel)
        if kind == "malformed":
            return replace(completion, text=completion.text[: len(completion.text) // 2] + "…")
        if kind == "wrong":
            with self._lock:
                wrong = wrong_but_valid(completion.text, request.schema, self._random)
            return replace(completion, text=wrong)
        return completion

    def score_letters(
        self, prompt: OptionPrompt, settings: ModuleSettings, cancel: threading.Event
    ) -> LetterScores:
        """Score with the inner backend, or fail or corrupt the scores as the dice say.

        ``injected`` names these calls ``option scoring`` (a backend is not told the module).
        Malformed scores name no offered letter (the client then spreads the probability
        evenly); wrong ones give each letter the next letter's score, so the ranking changes.
        """
        if not isinstance(self.inner, LetterScoringBackend):
            raise LogprobsUnavailableError(
                f"the {self.inner.name} backend gives no next-token log-probabilities"
            )
        kind = self._roll("option scoring", settings, cancel)
        scores = self.inner.score_letters(prompt, settings, cancel)
        if kind == "malformed":
            return replace(scores, logprobs={})
        if kind == "wrong":
            letters = prompt.letters
            shifted = {
                letter: scores.logprobs[following]
                for letter, following in zip(letters, letters[1:] + letters[:1], strict=True)
                if following in scores.logprobs
            }
            return replace(scores, logprobs=shifted)
        return scores

    def _roll(
        self, call: str, settings: ModuleSettings, cancel: threading.Event
    ) -> FaultKind | None:
        """Throw the dice for one call; raise a connection or timeout fault at once.

        Returns the fault to apply to the inner backend's answer, or None for a clean call.
        """
        with self._lock:
            faulted = self._random.random() < self.plan.rate
            kind = self._random.choice(self.plan.kinds) if faulted else None
            if kind is not None:
                self.injected.append((call, kind))
        if kind == "connection":
            raise LLMUnavailableError("injected fault: connection refused")
        if kind == "timeout":
            cancel.wait(settings.timeout_s)
            raise LLMTimeoutError(f"injected fault: no answer within {settings.timeout_s}s")
        return kind

    def probe(self, settings: ModuleSettings) -> BackendStatus:
        """The inner backend's status, marked as fault-injected."""
        status = self.inner.probe(settings)
        return BackendStatus(status.backend, status.ready, f"{status.detail} (faults injected)")


def wrong_but_valid(text: str, schema: type[BaseModel], rng: random.Random) -> str:
    """Another answer that still validates against ``schema`` but differs from ``text``.

    One field is changed: an enum or literal to another allowed value, a boolean flipped, a
    number moved, a list emptied or a string replaced. ``text`` is returned unchanged when it is
    not valid or no field can be changed without breaking the schema.
    """
    try:
        original = schema.model_validate_json(text).model_dump(mode="json")
    except ValidationError:
        return text
    properties = _resolved_properties(schema.model_json_schema())
    names = list(original)
    rng.shuffle(names)
    for name in names:
        for candidate in _alternatives(original[name], properties.get(name, {}), rng):
            changed = {**original, name: candidate}
            try:
                schema.model_validate(changed)
            except ValidationError:
                continue
            return json.dumps(changed)
    return text


def _resolved_properties(json_schema: dict[str, Any]) -> dict[str, dict[str, Any]]:
    definitions = json_schema.get("$defs", {})
    resolved = {}
    for name, prop in json_schema.get("properties", {}).items():
        ref = prop.get("$ref") or next(
            (option["$ref"] for option in prop.get("anyOf", []) if "$ref" in option), None
        )
        resolved[name] = definitions.get(ref.rsplit("/", 1)[-1], prop) if ref else prop
    return resolved


def _alternatives(value: Any, prop: dict[str, Any], rng: random.Random) -> list[Any]:
    if "enum" in prop:
        others = [option for option in prop["enum"] if option != value]
        rng.shuffle(others)
        return others
    if isinstance(value, bool):
        return [not value]
    if isinstance(value, (int, float)):
        return [value + 1, value - 1]
    if isinstance(value, list):
        return [[]] if value else []
    if isinstance(value, str):
        return ["something else", ""]
    return []
