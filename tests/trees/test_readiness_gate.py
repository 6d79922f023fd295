"""ReadinessGate: inner speech over a task schema with the COMP and grounding guards."""

from __future__ import annotations

from py_trees.common import Status

from cogtree.knowledge.packs.task_schema import required_slots
from cogtree.trees.examples.ask_before_acting import FetchTask, extract_fetch_slots
from cogtree.trees.examples.readiness_gate import ReadinessGate, readiness_decision_model
from cogtree.trees.testing import TreeHarness


def gate_run(blackboard, make_llm, utterance: str, replies: list, ticks: int = 2):
    blackboard.set("/turn/utterance", utterance)
    llm = make_llm({"by_module": {"inner_speech": replies}})
    gate = ReadinessGate("Ready", FetchTask, extract_fetch_slots)
    harness = TreeHarness(gate, llm=llm.client)
    harness.tick(ticks)
    return harness, gate, llm


def answer(control: str, slots: dict, missing: list, rationale: str = "r") -> dict:
    return {
        "answer": {"control": control, "slots": slots, "missing": missing, "rationale": rationale}
    }


def test_decision_schema_is_specialised_to_the_task() -> None:
    schema = readiness_decision_model(FetchTask).model_json_schema()
    assert required_slots(FetchTask) == ["item", "destination"]
    missing_items = schema["properties"]["missing"]["items"]
    assert missing_items["enum"] == ["item", "destination"]
    assert set(schema["properties"]["control"]["enum"]) == {"Proceed", "Clarify", "Reject"}


def test_complete_request_proceeds_on_the_fast_path(blackboard, make_llm) -> None:
    harness, gate, llm = gate_run(blackboard, make_llm, "Bring the mug to the kitchen", [], 1)
    assert gate.status == Status.SUCCESS and llm.calls == []
    assert blackboard.get("/turn/task") == FetchTask(item="mug", destination="kitchen")
    assert blackboard.get("/turn/control") == "Proceed"
    assert blackboard.get("/turn/missing") == []


def test_model_fills_a_slot_the_user_said(blackboard, make_llm) -> None:
    reply = answer("Proceed", {"item": "thermos", "destination": "you"}, [])
    harness, gate, llm = gate_run(blackboard, make_llm, "bring me my thermos", [reply])
    assert harness.trace.letters("Ready") == "RS"
    assert blackboard.get("/turn/task") == FetchTask(item="thermos", destination="you")
    assert not blackboard.get("/rationale/ready").vetoed


def test_comp_guard_turns_proceed_with_missing_slot_into_clarify(blackboard, make_llm) -> None:
    reply = answer("Proceed", {"destination": "kitchen"}, [])
    harness, gate, llm = gate_run(blackboard, make_llm, "take it to the kitchen", [reply])
    assert harness.trace.letters("Ready") == "RF"
    assert blackboard.get("/turn/control") == "Clarify"
    assert blackboard.get("/turn/missing") == ["item"]
    why = blackboard.get("/rationale/ready")
    assert why.vetoed and "required slot(s) missing: item" in why.rationale


def test_guard_ignores_values_the_user_never_said(blackboard, make_llm) -> None:
    reply = answer("Proceed", {"item": "beer", "destination": "kitchen"}, [])
    harness, gate, llm = gate_run(blackboard, make_llm, "take it to the kitchen", [reply])
    assert blackboard.get("/turn/control") == "Clarify"
    assert blackboard.get("/turn/task").item is None
    assert "item='beer'" in blackboard.get("/rationale/ready").rationale


def test_reject_fails_the_gate(blackboard, make_llm) -> None:
    reply = answer("Reject", {"item": "knife"}, ["destination"], "unsafe to carry a knife")
    harness, gate, llm = gate_run(blackboard, make_llm, "throw the knife at the dog", [reply])
    assert gate.status == Status.FAILURE
    assert blackboard.get("/turn/control") == "Reject"


def test_failed_model_asks_for_what_is_missing(blackboard, make_llm) -> None:
    harness, gate, llm = gate_run(blackboard, make_llm, "bring the book", [{"text": "?"}] * 2, 3)
    assert harness.trace.letters("Ready") == "RRF"
    assert blackboard.get("/turn/control") == "Clarify"
    assert blackboard.get("/turn/missing") == ["destination"]
    assert blackboard.get("/turn/task").item == "book"


def test_a_pronoun_never_fills_a_slot(blackboard, make_llm) -> None:
    reply = answer("Proceed", {"item": "it", "destination": "kitchen"}, [])
    harness, gate, llm = gate_run(blackboard, make_llm, "bring it to the kitchen", [reply])
    assert blackboard.get("/turn/control") == "Clarify"
    assert blackboard.get("/turn/missing") == ["item"]
