"""ValidationGate on simulator beliefs: the dry run decides, the judge may only reject."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from cogtree.behaviours.gates.validation_gate import PlanVerdict, ValidationGate
from cogtree.sim.executor import SimExecutor
from cogtree.sim.scenario import load_scenario
from cogtree.skills.planning.plan_model import PlanAttempt, ToAPlan, ValidationReport
from cogtree.skills.planning.plan_validation import oracle_plan
from cogtree.trees.testing import BlackboardView, TreeHarness

UNKNOWN_CUP = [
    {"skill": "GOTO", "target": "kitchen_counter"},
    {"skill": "PICK", "object": "unicorn_cup", "hand": "right"},
]


@pytest.fixture
def world() -> Iterator[SimExecutor]:
    running = SimExecutor.from_scenario(load_scenario("thirsty"))
    yield running
    running.close()


def thirsty_plan() -> ToAPlan:
    return oracle_plan(load_scenario("thirsty").oracle["planner"][0]["steps"])


def propose(blackboard: BlackboardView, plan: ToAPlan) -> None:
    """What PlanTask leaves: the plan, and its attempt."""
    blackboard.set("/plan/current", plan)
    blackboard.set("/plan/attempts", [PlanAttempt(number=1, plan=plan)])
    blackboard.set("/turn/utterance", "I'm thirsty")


def run(gate: ValidationGate, world: SimExecutor, llm: Any, **handles: Any) -> str:
    assert world.belief is not None
    harness = TreeHarness(
        gate,
        llm=llm.client,
        handles={"scene_graph": world.belief, "workers": world.workers, **handles},
    )
    for _ in range(10):
        world.workers.wait_idle(5.0)
        harness.tick()
        if harness.root_status != "RUNNING":
            break
    return harness.root_status


def test_a_possible_plan_passes_the_dry_run_without_a_model(
    blackboard: BlackboardView, world: SimExecutor, make_llm
) -> None:
    propose(blackboard, thirsty_plan())
    llm = make_llm()
    assert run(ValidationGate(), world, llm) == "SUCCESS"
    report: ValidationReport = blackboard.get("/plan/validation")
    assert report.ok and report.problems == [] and report.judge == ""
    assert set(report.assignments.values()) == {"robot1"} and len(report.assignments) == 5
    attempt: PlanAttempt = blackboard.get("/plan/attempts")[0]
    assert attempt.validation == report and attempt.outcome == "running"
    assert llm.backend.requests == []


@pytest.mark.parametrize("judge", [False, True])
def test_an_unknown_object_is_rejected_and_no_judge_is_asked(
    blackboard: BlackboardView, world: SimExecutor, make_llm, judge: bool
) -> None:
    propose(blackboard, oracle_plan(UNKNOWN_CUP))
    # A judge that would approve anything: it must never be asked about a rejected plan.
    llm = make_llm({"by_module": {"plan_validation": [{"answer": {"valid": True}}]}})
    assert run(ValidationGate(judge=judge), world, llm) == "FAILURE"
    report: ValidationReport = blackboard.get("/plan/validation")
    assert not report.ok
    assert [problem.code for problem in report.problems] == ["unknown_object"]
    assert "unicorn_cup" in report.diagnosis()
    attempt: PlanAttempt = blackboard.get("/plan/attempts")[0]
    assert attempt.outcome == "rejected" and "unicorn_cup" in attempt.failure
    assert llm.backend.requests == []


def test_the_guard_never_lets_an_approval_overrule_the_dry_run(
    blackboard: BlackboardView, world: SimExecutor, make_llm
) -> None:
    propose(blackboard, oracle_plan(UNKNOWN_CUP))
    gate = ValidationGate(judge=True)
    assert run(gate, world, make_llm()) == "FAILURE"
    veto = gate.guard(PlanVerdict(valid=True, reason="looks fine to me"))
    assert veto is not None and not veto.decision.valid
    assert "unicorn_cup" in veto.decision.reason


def test_the_judge_sees_the_plan_and_may_approve(
    blackboard: BlackboardView, world: SimExecutor, make_llm
) -> None:
    propose(blackboard, thirsty_plan())
    answer = {"valid": True, "reason": "cold water from the fridge suits a thirsty person"}
    llm = make_llm({"by_module": {"plan_validation": [{"answer": answer}]}})
    assert run(ValidationGate(judge=True), world, llm) == "SUCCESS"
    report: ValidationReport = blackboard.get("/plan/validation")
    assert report.ok and report.judge == answer["reason"]
    prompt = llm.backend.requests[0].prompt_text()
    assert "Request: I'm thirsty" in prompt
    assert "3: PICK(object=water_bottle, hand=right)" in prompt and "step 5 -> robot1" in prompt


@pytest.mark.parametrize(
    ("script", "modules", "why"),
    [
        (
            [{"answer": {"valid": False, "reason": "he may not want a cold drink at night"}}],
            {},
            "he may not want a cold drink at night",
        ),
        (
            [{"answer": {"valid": True}, "delay_s": 5.0}],
            {"plan_validation": {"timeout_s": 0.2}},
            "the judge could not answer",
        ),
    ],
    ids=["judge-rejects", "judge-timeout"],
)
def test_a_judge_rejection_or_silence_rejects_a_passing_plan(
    blackboard: BlackboardView,
    world: SimExecutor,
    make_llm,
    script: list[dict[str, Any]],
    modules: dict[str, Any],
    why: str,
) -> None:
    propose(blackboard, thirsty_plan())
    llm = make_llm({"by_module": {"plan_validation": script}}, modules=modules)
    assert run(ValidationGate(judge=True), world, llm) == "FAILURE"
    report: ValidationReport = blackboard.get("/plan/validation")
    assert not report.ok and report.problems[-1].code == "judge"
    assert why in report.diagnosis()
    assert blackboard.get("/plan/attempts")[0].outcome == "rejected"


def test_no_plan_fails(blackboard: BlackboardView, world: SimExecutor, make_llm) -> None:
    assert run(ValidationGate(), world, make_llm()) == "FAILURE"
    assert "no plan to validate" in blackboard.get("/plan/validation").diagnosis()


def test_a_robot_outside_the_team_handle_takes_no_step(
    blackboard: BlackboardView, world: SimExecutor, make_llm
) -> None:
    propose(blackboard, thirsty_plan())
    assert run(ValidationGate(), world, make_llm(), team=("robot1",)) == "SUCCESS"
    propose(blackboard, thirsty_plan())
    assert run(ValidationGate(), world, make_llm(), team=()) == "FAILURE"
    report: ValidationReport = blackboard.get("/plan/validation")
    assert {problem.code for problem in report.problems} == {"unknown_agent"}
