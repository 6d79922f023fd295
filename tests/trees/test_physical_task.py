"""The physical-task subtree in the simulator: plan, validate, execute, recover, report."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest

from cogtree.knowledge.memory.experience import ExperienceStore, RecoveryStep
from cogtree.knowledge.packs.domain_registry import DomainRegistry
from cogtree.sim.executor import SimExecutor
from cogtree.sim.scenario import Scenario, load_scenario
from cogtree.skills.planning.plan_validation import oracle_plan
from cogtree.trees.physical_task import create_physical_task
from cogtree.trees.testing import BlackboardView, ScriptedLLM, TreeHarness

UNKNOWN_CUP = {
    "steps": [
        {"id": 1, "action": "GOTO", "args": {"target": "kitchen_counter"}},
        {"id": 2, "action": "PICK", "args": {"object": "unicorn_cup", "hand": "right"}},
    ]
}


@pytest.fixture(scope="module")
def domains() -> DomainRegistry:
    return DomainRegistry.discover(only=["household"])


@pytest.fixture
def experience() -> Iterator[ExperienceStore]:
    with ExperienceStore() as store:
        yield store


@dataclass
class Run:
    status: str
    scenario: Scenario
    sim: SimExecutor
    llm: ScriptedLLM

    def planner_prompts(self) -> list[str]:
        return [r.prompt_text() for r in self.llm.backend.requests if r.module == "planner"]


@pytest.fixture
def run_task(
    blackboard: BlackboardView, domains: DomainRegistry, experience: ExperienceStore, make_llm
) -> Iterator[Any]:
    sims: list[SimExecutor] = []

    def run(
        scenario_id: str, task: str, slots: dict[str, str], planner: list[Any], **options: Any
    ) -> Run:
        scenario = load_scenario(scenario_id)
        sim = SimExecutor.from_scenario(scenario)
        sims.append(sim)
        assert sim.belief is not None
        schema = domains.get("household").schema_for(task)
        blackboard.set("/turn/utterance", scenario.request.text)
        blackboard.set("/turn/domain", "household")
        blackboard.set("/turn/speaker", scenario.request.speaker)
        blackboard.set("/turn/task", schema(**slots))
        llm = make_llm({"by_module": {"planner": planner}})
        handles = {
            "scene_graph": sim.belief,
            "workers": sim.workers,
            "executor": sim,
            "domains": domains,
            "experience": experience,
            "people": sim.people,
        }
        harness = TreeHarness(create_physical_task(**options), llm=llm.client, handles=handles)
        for _ in range(scenario.limits.max_ticks):
            sim.step()
            sim.workers.wait_idle(5.0)
            harness.tick()
            if harness.root_status != "RUNNING":
                break
        return Run(harness.root_status, scenario, sim, llm)

    yield run
    for sim in sims:
        sim.close()


def oracle_answer(scenario: str, index: int = 0) -> dict[str, Any]:
    steps = load_scenario(scenario).oracle["planner"][index]["steps"]
    answer = oracle_plan(steps).model_dump(mode="json")
    answer.pop("source")
    return {"answer": answer}


def evidence(blackboard: BlackboardView) -> Any:
    items = blackboard.get("/turn/evidence").items
    assert len(items) == 1 and items[0].source == "plan"
    return items[0]


def test_the_tree_builds_with_unique_names() -> None:
    names = [node.name for node in create_physical_task().iterate()]
    assert len(names) == len(set(names))
    assert {"PlanTask", "ValidationGate", "ExecutePlan", "Explain", "ReportGaveUp"} <= set(names)
    with pytest.raises(ValueError, match="max_attempts must be at least 1"):
        create_physical_task(max_attempts=0)


def test_thirsty_is_planned_validated_executed_and_reaches_the_goal(
    blackboard: BlackboardView, run_task: Any
) -> None:
    run = run_task("thirsty", "Assist", {"need": "I'm thirsty"}, [oracle_answer("thirsty")])
    assert run.status == "SUCCESS"
    assert run.scenario.goal.unmet(run.sim.world) == []
    item = evidence(blackboard)
    assert item.ok is True and "HANDOVER(water_bottle, alex, right)" in item.text
    assert [a.outcome for a in blackboard.get("/plan/attempts")] == ["succeeded"]
    assert len(run.planner_prompts()) == 1


def test_a_rejected_plan_is_replanned_with_its_diagnosis(
    blackboard: BlackboardView, run_task: Any
) -> None:
    planner = [{"answer": UNKNOWN_CUP}, oracle_answer("thirsty")]
    run = run_task("thirsty", "Assist", {"need": "I'm thirsty"}, planner)
    assert run.status == "SUCCESS"
    assert run.scenario.goal.unmet(run.sim.world) == []
    first, second = run.planner_prompts()
    assert "unicorn_cup" not in first
    assert "Validation: step 2:" in second and "unicorn_cup" in second
    attempts = blackboard.get("/plan/attempts")
    assert [a.outcome for a in attempts] == ["rejected", "succeeded"]
    item = evidence(blackboard)
    assert item.ok is True and "It took 2 attempts" in item.text
    assert "rejected before anything ran" in item.text


def test_attempts_are_bounded_and_nothing_from_an_invalid_plan_runs(
    blackboard: BlackboardView, run_task: Any
) -> None:
    planner = [{"answer": UNKNOWN_CUP}] * 3
    run = run_task("thirsty", "Assist", {"need": "I'm thirsty"}, planner, max_attempts=2)
    assert run.status == "FAILURE"
    assert len(run.planner_prompts()) == 2
    assert run.sim.log == []
    assert [a.outcome for a in blackboard.get("/plan/attempts")] == ["rejected", "rejected"]
    item = evidence(blackboard)
    assert item.ok is False
    assert item.text.startswith("I could not do it after 2 attempts (at most 2).")
    assert item.text.endswith("Nothing was done.")


@pytest.mark.parametrize(
    "answer", [{"text": "I would fetch water"}, {"answer": {"steps": "none"}}], ids=["prose", "bad"]
)
def test_malformed_planner_output_executes_nothing_and_says_so(
    blackboard: BlackboardView, run_task: Any, answer: dict[str, Any]
) -> None:
    run = run_task("thirsty", "Assist", {"need": "I'm thirsty"}, [answer, answer])
    assert run.status == "FAILURE"
    assert run.sim.log == []
    assert len(blackboard.get("/plan/attempts")) == 1  # no plan: another try would not help
    item = evidence(blackboard)
    assert item.ok is False and "found no plan" in item.text and "malformed" in item.text


def test_the_htn_replan_starts_with_the_explainers_recovery_and_learns_it(
    blackboard: BlackboardView, run_task: Any, experience: ExperienceStore
) -> None:
    # RoBee's example as the paper tells it: Anna moves the bottle to the counter, PICK fails
    # at table_1 (object_not_visible), the explainer suggests looking where the bottle was last
    # seen, and the HTN replan (no model) looks, picks it on the counter and places it.
    slots = {"object": "bottle", "destination": "table_2"}
    run = run_task("robee_bottle", "Bring", slots, [])
    assert run.status == "SUCCESS"
    assert run.scenario.goal.unmet(run.sim.world) == []
    attempts = blackboard.get("/plan/attempts")
    assert [(a.plan.source, a.outcome) for a in attempts] == [
        ("htn", "failed"),
        ("htn", "succeeded"),
    ]
    failed, recovered = attempts
    assert failed.error_code == "object_not_visible" and failed.failed_skill == "PICK"
    assert failed.context["room"] == "kitchen" and failed.context["object_type"] == "bottle"
    assert failed.experience == ["pick-not-visible-look-where-last-seen"]
    assert [step.text() for step in failed.recovery] == ["GOTO(kitchen)", "LOOK()"]
    # The robot is already in the kitchen: the replan looks at once, then does the task.
    assert [step.action for step in recovered.plan.steps] == ["LOOK", "PICK", "GOTO", "PLACE"]
    assert recovered.recovered_with == failed.recovery
    assert run.planner_prompts() == []
    # What worked is learnt, with its provenance, for kinds of things rather than ids.
    (learnt,) = [record for record in experience.records if record.learnt]
    assert (learnt.skill, learnt.error_code) == ("PICK", "object_not_visible")
    assert learnt.context == {"object_type": "bottle", "place_type": "table", "room": "kitchen"}
    assert [step.text() for step in learnt.recovery] == ["GOTO(kitchen)", "LOOK()"]
    assert learnt.provenance.kind == "recovered"
    assert learnt.provenance.suggested_by == ("pick-not-visible-look-where-last-seen",)
    assert learnt.provenance.worked.startswith("LOOK(), PICK(bottle, right)")
    assert evidence(blackboard).ok is True


def test_a_recovery_the_htn_cannot_run_goes_to_the_planner_with_the_suggestion(
    blackboard: BlackboardView, run_task: Any, experience: ExperienceStore
) -> None:
    # A learnt lesson whose fix changes the world (asking Anna) is not the HTN's to run: the
    # planner model gets the failure, the suggestion and its steps at the first replan.
    experience.add_recovery(
        skill="PICK",
        error_code="object_not_visible",
        error_text="PICK(bottle, right) failed at grasp: object_not_visible",
        request="bring the bottle",
        context={"object_type": "bottle", "room": "kitchen"},
        suggestion="Ask Anna where the bottle went.",
        recovery=[RecoveryStep(action="DELEGATE", args={"person": "anna", "ability": "sign"})],
        run_id="test",
    )
    slots = {"object": "bottle", "destination": "table_2"}
    run = run_task("robee_bottle", "Bring", slots, [oracle_answer("robee_bottle", index=1)])
    assert run.status == "SUCCESS"
    attempts = blackboard.get("/plan/attempts")
    assert [(a.plan.source, a.outcome) for a in attempts] == [
        ("htn", "failed"),
        ("model", "succeeded"),
    ]
    (prompt,) = run.planner_prompts()
    assert "Failure: PICK(bottle, right) failed" in prompt
    assert "Suggestion: Ask Anna where the bottle went." in prompt
    assert "Suggested first steps: DELEGATE(anna, sign)" in prompt
    assert evidence(blackboard).ok is True
