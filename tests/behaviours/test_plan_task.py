"""PlanTask on simulator beliefs: the HTN fast path, the planner model, and its guards."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from cogtree.behaviours.actions.planning.plan_task import PlanTask
from cogtree.behaviours.setup_handles import MissingHandleError
from cogtree.knowledge.llm.client import LLMClient
from cogtree.knowledge.llm.config import LLMConfig
from cogtree.knowledge.packs.domain_registry import DomainRegistry
from cogtree.sim.executor import SimExecutor
from cogtree.sim.scenario import load_scenario
from cogtree.skills.planning.plan_model import PlanAttempt, StepProblem, ToAPlan, ValidationReport
from cogtree.skills.planning.plan_validation import oracle_plan
from cogtree.trees.testing import BlackboardView, TreeHarness


@pytest.fixture(scope="module")
def domains() -> DomainRegistry:
    return DomainRegistry.discover(only=["household"])


@pytest.fixture
def world(request: pytest.FixtureRequest) -> Iterator[SimExecutor]:
    running = SimExecutor.from_scenario(load_scenario(request.param))
    yield running
    running.close()


def oracle_answer(scenario: str, index: int = 0) -> dict[str, Any]:
    """The scenario's oracle plan as the planner model would answer it (ToAPlan JSON)."""
    steps = load_scenario(scenario).oracle["planner"][index]["steps"]
    answer = oracle_plan(steps, "the oracle's plan").model_dump(mode="json")
    answer.pop("source")
    return answer


def preset(blackboard: BlackboardView, domains: DomainRegistry, task: str, **slots: str) -> None:
    schema = domains.get("household").schema_for(task)
    blackboard.set("/turn/domain", "household")
    blackboard.set("/turn/task", schema(**slots))


def run(node: PlanTask, world: SimExecutor, llm: Any, domains: DomainRegistry) -> str:
    """Tick until the node ends (the scene worker and model calls settled between ticks)."""
    assert world.belief is not None
    harness = TreeHarness(
        node,
        llm=llm if isinstance(llm, LLMClient) else llm.client,
        handles={"scene_graph": world.belief, "workers": world.workers, "domains": domains},
    )
    for _ in range(10):
        world.workers.wait_idle(5.0)
        harness.tick()
        if harness.root_status != "RUNNING":
            break
    return harness.root_status


@pytest.mark.parametrize("world", ["robee_bottle"], indirect=True)
def test_a_templated_request_is_planned_by_htn_without_a_model(
    blackboard: BlackboardView, world: SimExecutor, domains: DomainRegistry, make_llm
) -> None:
    preset(blackboard, domains, "Bring", object="bottle", destination="table_2")
    llm = make_llm()
    assert run(PlanTask(), world, llm, domains) == "SUCCESS"
    plan: ToAPlan = blackboard.get("/plan/current")
    assert plan.source == "htn"
    assert [step.describe() for step in plan.steps] == [
        "1: GOTO(target=table_1) by robot1",
        "2: PICK(object=bottle, hand=right) by robot1",
        "3: GOTO(target=table_2) by robot1",
        "4: PLACE(object=bottle, target=table_2, hand=right) by robot1",
    ]
    assert [step.depends_on for step in plan.steps] == [[], [1], [2], [3]]
    attempts: list[PlanAttempt] = blackboard.get("/plan/attempts")
    assert [(a.number, a.outcome) for a in attempts] == [(1, "running")]
    assert llm.calls == [] and llm.backend.requests == []
    assert blackboard.get("/rationale/plantask").source == "fast_path"


@pytest.mark.parametrize("world", ["robee_bottle"], indirect=True)
def test_without_a_model_no_htn_plan_is_the_answer(
    blackboard: BlackboardView, world: SimExecutor, domains: DomainRegistry
) -> None:
    # The milk is in the closed fridge; a fridge is no place to hand it to.
    preset(blackboard, domains, "Bring", object="milk", destination="kitchen")
    with LLMClient(LLMConfig.load().with_backend("none")) as llm:
        assert run(PlanTask(), world, llm, domains) == "FAILURE"
        assert llm.call_log.records() == []
    plan: ToAPlan = blackboard.get("/plan/current")
    assert plan.steps == [] and plan.source == "htn"
    assert "I found no way to do it" in plan.rationale and "kitchen" in plan.rationale
    attempt = blackboard.get("/plan/attempts")[0]
    assert attempt.outcome == "failed" and attempt.failure == plan.rationale


@pytest.mark.parametrize("world", ["robee_bottle"], indirect=True)
def test_with_a_model_no_htn_plan_goes_to_the_planner_with_the_reason(
    blackboard: BlackboardView, world: SimExecutor, domains: DomainRegistry, make_llm
) -> None:
    preset(blackboard, domains, "Bring", object="milk", destination="kitchen")
    llm = make_llm({"by_module": {"planner": [{"answer": {"steps": [], "rationale": "none"}}]}})
    assert run(PlanTask(), world, llm, domains) == "FAILURE"
    prompt = llm.backend.requests[0].prompt_text()
    assert "The task-level methods found no plan" in prompt and "kitchen" in prompt


@pytest.mark.parametrize("world", ["thirsty"], indirect=True)
def test_an_open_ended_need_asks_the_planner_with_the_scene(
    blackboard: BlackboardView, world: SimExecutor, domains: DomainRegistry, make_llm
) -> None:
    preset(blackboard, domains, "Assist", need="I'm thirsty")
    blackboard.set("/turn/utterance", "I'm thirsty")
    blackboard.set("/turn/speaker", "alex")
    llm = make_llm({"by_module": {"planner": [{"answer": oracle_answer("thirsty")}]}})
    assert run(PlanTask(), world, llm, domains) == "SUCCESS"
    plan: ToAPlan = blackboard.get("/plan/current")
    assert plan.source == "model" and len(plan.steps) == 5
    prompt = llm.backend.requests[0].prompt_text()
    for expected in (
        "Request: I'm thirsty",
        "Speaker: alex",
        'Assist(need="I\'m thirsty")',
        "- water_bottle: Water",
        "in fridge, room kitchen",
        "- fridge: container, room kitchen, closed",
        "- person alex: room living_room",
        "- robot robot1: room living_room, 2 hands",
        "DELEGATE(person, ability, description)",
        "HANDOVER(object, person, hand)",
    ):
        assert expected in prompt, expected
    assert "did not work" not in prompt


@pytest.mark.parametrize("world", ["thirsty"], indirect=True)
def test_the_last_attempts_diagnosis_and_suggestion_reach_the_prompt(
    blackboard: BlackboardView, world: SimExecutor, domains: DomainRegistry, make_llm
) -> None:
    preset(blackboard, domains, "Assist", need="I'm thirsty")
    rejected = PlanAttempt(
        number=1,
        plan=oracle_plan([{"skill": "PICK", "object": "unicorn_cup", "hand": "right"}]),
        validation=ValidationReport(
            ok=False,
            problems=[StepProblem(step=1, code="unknown_object", reason="no unicorn_cup")],
        ),
        outcome="rejected",
        suggestion="look in the fridge first",
    )
    blackboard.set("/plan/attempts", [rejected])
    llm = make_llm({"by_module": {"planner": [{"answer": oracle_answer("thirsty")}]}})
    assert run(PlanTask(), world, llm, domains) == "SUCCESS"
    prompt = llm.backend.requests[0].prompt_text()
    assert "Validation: step 1: no unicorn_cup" in prompt
    assert "Suggestion: look in the fridge first" in prompt
    assert [a.number for a in blackboard.get("/plan/attempts")] == [1, 2]


@pytest.mark.parametrize("world", ["thirsty"], indirect=True)
@pytest.mark.parametrize(
    ("script", "modules", "why"),
    [
        ({"planner": [{"text": "not json"}, {"text": "{still not"}]}, {}, "malformed twice"),
        (
            {"planner": [{"answer": {"steps": []}, "delay_s": 5.0}]},
            {"planner": {"timeout_s": 0.2}},
            "did not answer within",
        ),
    ],
    ids=["malformed", "timeout"],
)
def test_unusable_model_output_gives_no_plan(
    blackboard: BlackboardView,
    world: SimExecutor,
    domains: DomainRegistry,
    make_llm,
    script: dict[str, Any],
    modules: dict[str, Any],
    why: str,
) -> None:
    preset(blackboard, domains, "Assist", need="I'm thirsty")
    llm = make_llm({"by_module": script}, modules=modules)
    assert run(PlanTask(), world, llm, domains) == "FAILURE"
    plan: ToAPlan = blackboard.get("/plan/current")
    assert plan.steps == [] and why in plan.rationale
    assert blackboard.get("/rationale/plantask").source == "safe_default"
    assert blackboard.get("/plan/attempts")[0].outcome == "failed"


@pytest.mark.parametrize("world", ["thirsty"], indirect=True)
def test_a_cyclic_plan_is_sent_back_once_then_refused(
    blackboard: BlackboardView, world: SimExecutor, domains: DomainRegistry, make_llm
) -> None:
    preset(blackboard, domains, "Assist", need="I'm thirsty")
    cyclic = {
        "steps": [
            {"id": 1, "action": "GOTO", "args": {"target": "fridge"}, "depends_on": [2]},
            {"id": 2, "action": "OPEN", "args": {"container": "fridge"}, "depends_on": [1]},
        ]
    }
    llm = make_llm({"by_module": {"planner": [{"answer": cyclic}, {"answer": cyclic}]}})
    assert run(PlanTask(), world, llm, domains) == "FAILURE"
    assert len(llm.backend.requests) == 2
    assert "cycle" in llm.backend.requests[1].prompt_text()
    plan: ToAPlan = blackboard.get("/plan/current")
    assert plan.steps == [] and plan.rationale.startswith("refused:")
    assert blackboard.get("/rationale/plantask").vetoed


@pytest.mark.parametrize("world", ["thirsty"], indirect=True)
def test_plan_task_needs_domains_and_the_scene(world: SimExecutor, make_llm) -> None:
    with pytest.raises(MissingHandleError, match="needs the `domains` handle"):
        PlanTask().setup(llm=make_llm().client, scene_graph=world.belief)
