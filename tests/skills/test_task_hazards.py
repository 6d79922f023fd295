"""The hazards of what a task asks for, named when the task planner finds no plan for it."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from cogtree.evaluation.scenarios.hazard_set import HAZARD_WORLDS
from cogtree.knowledge.safety.hazard_rules import shipped_hazard_rules
from cogtree.sim.perception import belief_from_world
from cogtree.sim.scenario import load_scenario
from cogtree.sim.world import World
from cogtree.skills.action_model.belief import Belief
from cogtree.skills.planning.tasks import TaskPlanner, task_call
from cogtree.skills.safety.task_hazards import fitting, intended_skills, task_hazards

RULES = shipped_hazard_rules()


@pytest.fixture(scope="module")
def kitchen() -> Iterator[Belief]:
    scenario = load_scenario(HAZARD_WORLDS / "kitchen.yaml")
    scene = belief_from_world(World(scenario.world), "robot1", scenario.belief)
    try:
        yield Belief.from_scene(scene, "robot1")
    finally:
        scene.close()


def rules_of(tasks: list[tuple[str, dict[str, str]]], belief: Belief, *said: str) -> list[str]:
    return [hazard.rule for hazard in task_hazards(RULES, tasks, belief, said)]


def test_a_task_stands_for_the_skills_of_its_simplest_plan(kitchen: Belief) -> None:
    calls = intended_skills("heat", {"object": "foil_tray", "appliance": "microwave"}, kitchen)
    assert [str(call) for call in calls] == [
        "PICK(foil_tray, right)",
        "PLACE(foil_tray, microwave, right)",
        "SWITCH_ON(microwave)",
    ]
    handed = intended_skills("bring", {"object": "tea_mug", "to": "grandma"}, kitchen)
    assert [call.skill for call in handed] == ["PICK", "HANDOVER"]
    assert intended_skills("tidy", {"room": "kitchen"}, kitchen) == []  # not outlined


def test_the_rules_judge_the_intended_skills_in_order(kitchen: Belief) -> None:
    # a foil tray is metal (forbidden) and may have a lid nobody has seen (asked about)
    foil = ["metal_in_microwave", "maybe_sealed_in_microwave"]
    assert rules_of([("heat", {"object": "foil_tray", "appliance": "microwave"})], kitchen) == foil
    assert rules_of([("bring", {"object": "tea_mug", "to": "ana"})], kitchen) == ["hot_to_person"]
    assert rules_of([("bring", {"object": "grandma", "to": "counter"})], kitchen) == [
        "person_as_object"
    ]
    thrown = [("bring", {"object": "vase", "to": "ana"})]
    assert rules_of(thrown, kitchen, "throw me the vase") == ["fragile_thrown"]
    assert rules_of(thrown, kitchen, "bring me the vase") == []
    # in the order said: the tray goes in, then the microwave is switched on
    steps = [("bring", {"object": "foil_tray", "to": "microwave"}),
             ("switch_on", {"appliance": "microwave"})]  # fmt: skip
    assert rules_of(steps, kitchen) == foil
    assert rules_of([("heat", {"object": "ceramic_bowl", "appliance": "microwave"})], kitchen) == []


def test_an_unsaid_argument_is_guessed_only_among_things_that_fit(kitchen: Belief) -> None:
    assert fitting(kitchen, "heat", "appliance") == ["microwave"]
    assert "toaster" in fitting(kitchen, "switch_on", "appliance")
    assert fitting(kitchen, "bring", "to") == []  # never guessed


def test_no_plan_names_the_hazard_before_the_failed_preconditions(kitchen: Belief) -> None:
    plan = TaskPlanner().plan(task_call("bring", object="tea_mug", to="ana"), kitchen)
    assert not plan.ok
    assert plan.failures[0] == "The tea mug is hot and could burn ana."
    assert any("not_hot" in failure for failure in plan.failures[1:])
    safe = TaskPlanner().plan(task_call("bring", object="ceramic_bowl", to="ana"), kitchen)
    assert safe.ok and not any("hot" in failure for failure in safe.failures)


def test_nothing_to_do_is_still_refused_when_the_manner_is_forbidden(kitchen: Belief) -> None:
    given = kitchen.with_given("vase", "ana")
    call = task_call("bring", object="vase", to="ana")
    thrown = TaskPlanner().plan(call, given, ("throw it to me",))
    assert not thrown.ok
    assert thrown.failures == (
        "The vase is fragile; I set it down gently and never throw or drop it.",
    )
    handed = TaskPlanner().plan(call, given, ("bring it to me",))
    assert handed.ok and handed.skills == ()
