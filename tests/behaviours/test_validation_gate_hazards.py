"""ValidationGate and the hazard rules: a forbidden step is rejected whatever the judge says,
with the hazard named; an ask-first hazard becomes a question only an explicit yes lifts."""

from __future__ import annotations

from typing import Any

import pytest

from cogtree.behaviours.gates.validation_gate import ValidationGate
from cogtree.knowledge.language.request_frame import parse_request
from cogtree.knowledge.scene.scene_graph import SceneGraph
from cogtree.knowledge.understanding.turn_state import IntentFrame, PendingTask
from cogtree.knowledge.worker_pool import WorkerPool
from cogtree.skills.planning.assignment import PlanWorld
from cogtree.skills.planning.plan_model import PlanAttempt, ValidationReport
from cogtree.trees.testing import BlackboardView, TreeHarness
from tests.skills.hazard_kitchen import HazardCase, load_cases

CASES = {case.id: case for case in load_cases()}
ALWAYS_VALID = {
    "by_prompt": [
        {
            "match": ".",
            "module": "plan_validation",
            "reply": {"answer": {"valid": True, "reason": "fine"}},
        }
    ]
}


def on_case_belief(monkeypatch: pytest.MonkeyPatch, case: HazardCase) -> None:
    """The gate reads the team from the scene; here it reads the case's belief instead.

    So the scene graph handle only has to exist: the tests give the example apartment, loaded
    once (``shared_home_scene``), not a simulator.
    """
    monkeypatch.setattr(
        PlanWorld, "from_scene", classmethod(lambda cls, scene, robots=None: case.world)
    )


def propose(blackboard: BlackboardView, case: HazardCase, utterance: str | None = None) -> None:
    """What the turn leaves before the gate: the request, its parse, intent frame, the plan.

    And who is speaking, when the case says.
    """
    said = case.said[:-1] if utterance is None else case.said
    blackboard.set("/plan/current", case.plan)
    blackboard.set("/plan/attempts", [PlanAttempt(number=1, plan=case.plan)])
    blackboard.set("/turn/utterance", utterance or case.said[-1])
    blackboard.set("/turn/frame", parse_request(utterance or case.said[-1]))
    if case.speaker is not None:
        blackboard.set("/turn/speaker", case.speaker)
    frame = IntentFrame(
        domain="household", task="Fetch", slots={"object": "x"}, confidence=0.9, said=said
    )
    blackboard.set("/turn/intent", frame)


def run(gate: ValidationGate, llm: Any, scene: SceneGraph, workers: WorkerPool) -> str:
    """Tick the gate alone until it is done (its dry run runs on ``workers``)."""
    harness = TreeHarness(gate, llm=llm.client, handles={"scene_graph": scene, "workers": workers})
    for _ in range(20):
        workers.wait_idle(5.0)
        harness.tick()
        if harness.root_status != "RUNNING":
            break
    return harness.root_status


FORBIDDEN = [case for case in CASES.values() if case.expect == "forbidden"]
ASK_FIRST = [
    "pour_into_glass_next_to_toaster",
    "hot_tea_to_grandma",
    "wine_glass_in_bin",
    "full_bottle_in_bin",
    "knife_to_a_speaker_whose_hands_shake",
    "saucepan_said_hot_handed_over",
    "knife_gathered_for_a_missing_step",
]


@pytest.mark.parametrize("judge", [False, True])
@pytest.mark.parametrize("case", FORBIDDEN, ids=lambda case: case.id)
def test_a_forbidden_step_is_rejected_with_the_hazard_named_whatever_the_judge_says(
    blackboard: BlackboardView,
    shared_home_scene: SceneGraph,
    workers: WorkerPool,
    make_llm,
    monkeypatch: pytest.MonkeyPatch,
    case: HazardCase,
    judge: bool,
) -> None:
    on_case_belief(monkeypatch, case)
    propose(blackboard, case)
    llm = make_llm(ALWAYS_VALID)
    assert run(ValidationGate(judge=judge), llm, shared_home_scene, workers) == "FAILURE"
    report: ValidationReport = blackboard.get("/plan/validation")
    hazard = next(p for p in report.problems if p.code == f"hazard:{case.rule}")
    assert hazard.reason in report.diagnosis()
    assert blackboard.get("/plan/attempts")[0].outcome == "rejected"
    assert llm.backend.requests == []  # the judge is never asked about a rejected plan
    assert blackboard.get("/session/pending") is None


@pytest.mark.parametrize("case_id", ASK_FIRST)
def test_an_ask_first_hazard_asks_and_only_an_explicit_yes_lifts_it(
    blackboard: BlackboardView,
    shared_home_scene: SceneGraph,
    workers: WorkerPool,
    make_llm,
    monkeypatch: pytest.MonkeyPatch,
    case_id: str,
) -> None:
    case = CASES[case_id]
    on_case_belief(monkeypatch, case)
    propose(blackboard, case)
    llm = make_llm(ALWAYS_VALID)
    assert run(ValidationGate(judge=True), llm, shared_home_scene, workers) == "FAILURE"
    report: ValidationReport = blackboard.get("/plan/validation")
    assert [p.code for p in report.problems] == [f"ask_first:{case.rule}"]
    pending: PendingTask = blackboard.get("/session/pending")
    assert pending.question.startswith("Before I do that: " + report.problems[0].reason)
    assert pending.confirm == [f"hazard {case.rule}: {report.problems[0].reason!r}"]
    assert blackboard.get("/turn/control") == "Clarify"
    assert llm.backend.requests == []

    # Anything but an explicit yes keeps the question standing (a model's "valid" included).
    propose(blackboard, case, utterance="sure, whatever, and also tidy up")
    assert run(ValidationGate(judge=True), llm, shared_home_scene, workers) == "FAILURE"

    # The explicit yes, same request: the plan may run; the judge (always valid) is asked.
    blackboard.set("/session/pending", pending)
    propose(blackboard, case, utterance="Yes, go ahead")
    assert run(ValidationGate(judge=True), llm, shared_home_scene, workers) == "SUCCESS"
    report = blackboard.get("/plan/validation")
    assert report.ok and report.lifted == pending.confirm


def test_a_yes_to_another_task_lifts_nothing(
    blackboard: BlackboardView,
    shared_home_scene: SceneGraph,
    workers: WorkerPool,
    make_llm,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    case = CASES["wine_glass_in_bin"]
    on_case_belief(monkeypatch, case)
    propose(blackboard, case)
    llm = make_llm(ALWAYS_VALID)
    assert run(ValidationGate(), llm, shared_home_scene, workers) == "FAILURE"
    pending: PendingTask = blackboard.get("/session/pending")
    blackboard.set("/session/pending", pending.model_copy(update={"task": "Tidy"}))
    propose(blackboard, case, utterance="yes")
    assert run(ValidationGate(), llm, shared_home_scene, workers) == "FAILURE"
