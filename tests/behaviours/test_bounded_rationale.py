"""Rationales are cut, never refused: a model's long text cannot fail a decision or a tick."""

from __future__ import annotations

import pytest
from py_trees.common import Status
from pydantic import BaseModel, Field

from cogtree.behaviours.actions.dialogue.respond import ReplyDecision
from cogtree.behaviours.actions.grounding.query_generation import QueryDecision
from cogtree.behaviours.gates.intent import IntentDecision
from cogtree.behaviours.gates.recall import Sufficiency
from cogtree.behaviours.gates.task_readiness import InnerSpeech
from cogtree.behaviours.gates.validation_gate import PlanVerdict
from cogtree.behaviours.llm_behaviour import LLMBehaviour
from cogtree.evaluation.react.model import ReActDecision
from cogtree.knowledge.llm.types import Message
from cogtree.knowledge.understanding.turn_state import GateRationale, ScopeDecision
from cogtree.knowledge.wording import ELLIPSIS, BoundedText
from cogtree.skills.planning.plan_model import PlanStep, ToAPlan
from cogtree.trees.testing import TreeHarness

LONG = "because " + "the model goes on and on " * 40  # 1,008 characters
assert len(LONG) > 1000


class Permit(BoundedText):
    granted: bool
    rationale: str = Field(max_length=300, description="one sentence")


class PermitGate(LLMBehaviour[Permit]):
    """Grants what the model grants; the safe decision quotes the reason whole."""

    module = "inner_speech"

    def __init__(self) -> None:
        super().__init__("PermitGate", Permit)

    def messages(self) -> list[Message]:
        return [Message(role="user", content="may I?")]

    def safe_decision(self, reason: str) -> Permit:
        return Permit(granted=False, rationale=f"refused: {reason} {LONG}")

    def apply(self, decision: Permit) -> Status:
        return Status.SUCCESS if decision.granted else Status.FAILURE


def _ticked(blackboard, make_llm, replies: list, ticks: int) -> tuple[PermitGate, GateRationale]:
    llm = make_llm({"by_module": {"inner_speech": replies}})
    gate = PermitGate()
    harness = TreeHarness(gate, llm=llm.client)
    harness.tick(ticks)
    return gate, blackboard.get("/rationale/permitgate")


def test_a_model_answer_with_a_1000_character_rationale_is_taken_and_cut(
    blackboard, make_llm
) -> None:
    gate, why = _ticked(blackboard, make_llm, [{"answer": {"granted": True, "rationale": LONG}}], 2)
    assert gate.status == Status.SUCCESS
    assert why.source == "model"
    assert len(why.rationale) == 300 and why.rationale.endswith(ELLIPSIS)
    assert len(why.decision["rationale"]) == 300


def test_a_safe_decision_quoting_a_long_reason_is_cut_not_raised(blackboard, make_llm) -> None:
    gate, why = _ticked(blackboard, make_llm, [{"text": "not json"}, {"text": LONG}], 3)
    assert gate.status == Status.FAILURE
    assert why.source == "safe_default"
    assert why.decision["granted"] is False
    assert len(why.decision["rationale"]) == 300
    assert why.decision["rationale"].startswith("refused: model output malformed twice")


@pytest.mark.parametrize(
    ("model", "values", "field"),
    [
        (Sufficiency, {"sufficient": False}, "rationale"),
        (ReplyDecision, {"reply": "Yes."}, "rationale"),
        (QueryDecision, {"sparql": ""}, "rationale"),
        (ScopeDecision, {"domain": "OutOfScope", "confidence": 0.5}, "rationale"),
        (IntentDecision, {"task": "none"}, "rationale"),
        (InnerSpeech, {"control": "Clarify"}, "rationale"),
        (PlanVerdict, {"valid": False}, "reason"),
        (ReActDecision, {"action": "FINISH"}, "thought"),
        (PlanStep, {"id": 1, "action": "LOOK", "args": {}}, "thought"),
        (ToAPlan, {"steps": []}, "rationale"),
    ],
)
def test_every_shipped_decision_cuts_its_free_text(
    model: type[BaseModel], values: dict, field: str
) -> None:
    limit = model.model_fields[field].metadata[0].max_length
    made = model.model_validate({**values, field: LONG})
    assert getattr(made, field) == LONG[: limit - 1] + ELLIPSIS
    schema = model.model_json_schema()["properties"][field]
    assert schema["maxLength"] == limit  # the model is still asked for short text
