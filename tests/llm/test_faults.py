import contextlib
import json
import random
from typing import Literal

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pydantic import BaseModel, Field

from cogtree.knowledge.llm.client import LLMClient
from cogtree.knowledge.llm.config import LLMConfig
from cogtree.knowledge.llm.errors import (
    LLMConfigError,
    LLMTimeoutError,
    LLMUnavailableError,
    MalformedOutputError,
)
from cogtree.knowledge.llm.faults import FaultInjectingBackend, FaultPlan, wrong_but_valid
from cogtree.knowledge.llm.scripted import ScriptedBackend
from cogtree.knowledge.llm.types import Message


class Gate(BaseModel):
    control: Literal["Proceed", "Clarify", "Reject"]
    confident: bool
    missing: list[str] = []
    score: int = Field(0, ge=0, le=10)


PROMPT = [Message(role="user", content="go")]
ANSWER = {"answer": {"control": "Proceed", "confident": True, "missing": [], "score": 5}}


def faulty_client(kind: str, calls: int = 1) -> tuple[LLMClient, FaultInjectingBackend]:
    plan = FaultPlan(rate=1.0, seed=1, kinds=(kind,))
    injector = FaultInjectingBackend(ScriptedBackend({"in_order": [ANSWER] * calls}), plan)
    config = LLMConfig.from_mapping({"modules": {"intent": {"timeout_s": 0.05}}})
    return LLMClient(config.with_backend("scripted"), backends={"scripted": injector}), injector


def test_malformed_fault_breaks_the_json() -> None:
    client, injector = faulty_client("malformed")
    with pytest.raises(MalformedOutputError):
        client.decide("intent", PROMPT, Gate)
    assert injector.injected == [("intent", "malformed")]


def test_wrong_fault_gives_a_different_valid_answer() -> None:
    client, _ = faulty_client("wrong")
    value = client.decide("intent", PROMPT, Gate).value
    assert value != Gate.model_validate(ANSWER["answer"])


def test_timeout_and_connection_faults() -> None:
    client, _ = faulty_client("timeout")
    with pytest.raises(LLMTimeoutError):
        client.decide("intent", PROMPT, Gate)
    client, _ = faulty_client("connection")
    with pytest.raises(LLMUnavailableError, match="connection refused"):
        client.decide("intent", PROMPT, Gate)


def test_same_seed_same_faults() -> None:
    def run(seed: int) -> list:
        plan = FaultPlan(rate=0.5, seed=seed, kinds=("malformed", "wrong"))
        injector = FaultInjectingBackend(ScriptedBackend({"in_order": [ANSWER] * 40}), plan)
        client = LLMClient(
            LLMConfig.load().with_backend("scripted"), backends={"scripted": injector}
        )
        for _ in range(40):
            with contextlib.suppress(MalformedOutputError):
                client.decide("intent", PROMPT, Gate)
        return injector.injected

    first = run(3)
    assert first == run(3)
    assert 5 < len(first) < 35  # about half of 40 calls at rate 0.5
    assert first != run(4)


def test_fault_spec_parsing() -> None:
    plan = FaultPlan.parse("rate=0.3,seed=7,kinds=malformed+timeout")
    assert (plan.rate, plan.seed, plan.kinds) == (0.3, 7, ("malformed", "timeout"))
    with pytest.raises(LLMConfigError, match="kinds are malformed, wrong, timeout, connection"):
        FaultPlan.parse("kinds=gremlins")
    with pytest.raises(LLMConfigError, match="expected key=value"):
        FaultPlan.parse("often")


@given(
    control=st.sampled_from(["Proceed", "Clarify", "Reject"]),
    confident=st.booleans(),
    missing=st.lists(st.text(max_size=5), max_size=3),
    score=st.integers(0, 10),
    seed=st.integers(0, 1000),
)
def test_wrong_but_valid_always_validates_and_differs(
    control: str, confident: bool, missing: list[str], score: int, seed: int
) -> None:
    original = Gate(control=control, confident=confident, missing=missing, score=score)
    text = wrong_but_valid(original.model_dump_json(), Gate, random.Random(seed))
    changed = Gate.model_validate_json(text)
    assert changed != original
    assert json.loads(text).keys() == original.model_dump().keys()
