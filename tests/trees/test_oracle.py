"""The scripted oracle: scenario oracle answers converted to today's decision schemas."""

from __future__ import annotations

import pytest

from cogtree.behaviours.gates.task_readiness import InnerSpeech
from cogtree.evaluation.react.model import FINISH, ReActDecision
from cogtree.evaluation.scenarios.oracle import (
    oracle_modules,
    oracle_script,
    plan_answer,
    react_answers,
    readiness_answer,
)
from cogtree.sim.scenario import Scenario, load_scenario
from cogtree.skills.planning.plan_model import DELEGATE, ToAPlan, plan_graph


@pytest.fixture(scope="module")
def robee() -> Scenario:
    return load_scenario("robee_bottle")


def test_readiness_answer_is_inner_speech_without_slots() -> None:
    entry = {
        "control": "Clarify",
        "slots": {"recipient": "alex"},
        "missing": ["object"],
        "rationale": "two bottles match",
    }
    answer = readiness_answer(entry)
    assert "slots" not in answer
    decision = InnerSpeech.model_validate(answer)
    assert (decision.control, decision.missing, decision.rationale) == (
        "Clarify",
        ["object"],
        "two bottles match",
    )


def test_readiness_answer_keeps_a_switch_target_and_fills_a_missing_rationale() -> None:
    answer = readiness_answer({"control": "SwitchDomain", "domain": "office"})
    assert answer["domain"] == "office"
    assert answer["rationale"].startswith("oracle")


def test_plan_answer_is_a_sequential_oracle_plan(robee: Scenario) -> None:
    plan = ToAPlan.model_validate(plan_answer(robee.oracle["planner"][0]))
    assert plan.source == "oracle"
    assert [step.action for step in plan.steps] == ["GOTO", "PICK", "GOTO", "PLACE"]
    assert plan.steps[1].args == {"object": "bottle", "hand": "right"}
    assert sorted(plan_graph(plan).edges) == [(1, 2), (2, 3), (3, 4)]


def test_plan_answer_assigns_a_delegation_to_its_person() -> None:
    entry = {"steps": [{"skill": DELEGATE, "person": "anna", "ability": "sign"}]}
    plan = ToAPlan.model_validate(plan_answer(entry))
    assert plan.steps[0].assignee == "anna"
    assert plan.steps[0].args == {"person": "anna", "ability": "sign"}


def test_react_answers_are_one_action_per_step_then_finish(robee: Scenario) -> None:
    decisions = [ReActDecision.model_validate(a) for a in react_answers(robee.oracle["planner"])]
    steps = sum(len(plan["steps"]) for plan in robee.oracle["planner"])
    assert len(decisions) == steps + 1
    assert [d.action for d in decisions] == [
        *("GOTO", "PICK", "GOTO", "PLACE"),
        *("GOTO", "LOOK", "PICK", "GOTO", "PLACE"),
        FINISH,
    ]
    assert decisions[1].args == {"object": "bottle", "hand": "right"}
    assert decisions[-1].args["reply"]


def test_the_script_answers_each_module_in_order_per_tree(robee: Scenario) -> None:
    gated = oracle_script(robee)
    react = oracle_script(robee, tree="react")
    assert oracle_modules(gated) == ["inner_speech", "planner"]
    assert oracle_modules(react) == ["inner_speech", "react"]
    assert len(gated.by_module["planner"]) == 2
    assert len(react.by_module["react"]) == 10
    first = gated.by_module["inner_speech"][0].answer
    assert first is not None and first["control"] == "Proceed"


def test_an_infeasible_scenario_scripts_only_inner_speech() -> None:
    script = oracle_script(load_scenario("too_heavy"))
    assert oracle_modules(script) == ["inner_speech"]
    reply = script.by_module["inner_speech"][0].answer
    assert reply is not None and reply["control"] == "Reject"
