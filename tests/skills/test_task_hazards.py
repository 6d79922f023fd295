"""The hazards of what a task asks for, named when the task planner finds no plan for it."""

from __future__ import annotations

from cogtree.knowledge.safety.hazard_rules import shipped_hazard_rules
from cogtree.skills.action_model.belief import Belief
from cogtree.skills.planning.tasks import TaskPlanner, task_call
from cogtree.skills.safety.task_hazards import fitting, intended_skills, task_hazards

RULES = shipped_hazard_rules()


def rules_of(tasks: list[tuple[str, dict[str, str]]], belief: Belief, *said: str) -> list[str]:
    return [hazard.rule for hazard in task_hazards(RULES, tasks, belief, said)]


def test_a_task_stands_for_the_skills_of_its_simplest_plan(hazard_kitchen: Belief) -> None:
    calls = intended_skills(
        "heat", {"object": "foil_tray", "appliance": "microwave"}, hazard_kitchen
    )
    assert [str(call) for call in calls] == [
        "PICK(foil_tray, right)",
        "PLACE(foil_tray, microwave, right)",
        "SWITCH_ON(microwave)",
    ]
    handed = intended_skills("bring", {"object": "tea_mug", "to": "grandma"}, hazard_kitchen)
    assert [call.skill for call in handed] == ["PICK", "HANDOVER"]
    assert intended_skills("tidy", {"room": "kitchen"}, hazard_kitchen) == []  # not outlined


def test_the_rules_judge_the_intended_skills_in_order(hazard_kitchen: Belief) -> None:
    # a foil tray is metal (forbidden) and may have a lid nobody has seen (asked about)
    foil = ["metal_in_microwave", "maybe_sealed_in_microwave"]
    assert (
        rules_of([("heat", {"object": "foil_tray", "appliance": "microwave"})], hazard_kitchen)
        == foil
    )
    assert rules_of([("bring", {"object": "tea_mug", "to": "ana"})], hazard_kitchen) == [
        "hot_to_person"
    ]
    assert rules_of([("bring", {"object": "grandma", "to": "counter"})], hazard_kitchen) == [
        "person_as_object"
    ]
    thrown = [("bring", {"object": "vase", "to": "ana"})]
    assert rules_of(thrown, hazard_kitchen, "throw me the vase") == ["fragile_thrown"]
    assert rules_of(thrown, hazard_kitchen, "bring me the vase") == []
    # in the order said: the tray goes in, then the microwave is switched on
    steps = [("bring", {"object": "foil_tray", "to": "microwave"}),
             ("switch_on", {"appliance": "microwave"})]  # fmt: skip
    assert rules_of(steps, hazard_kitchen) == foil
    assert (
        rules_of([("heat", {"object": "ceramic_bowl", "appliance": "microwave"})], hazard_kitchen)
        == []
    )


def test_an_unsaid_argument_is_guessed_only_among_things_that_fit(hazard_kitchen: Belief) -> None:
    assert fitting(hazard_kitchen, "heat", "appliance") == ["microwave"]
    assert "toaster" in fitting(hazard_kitchen, "switch_on", "appliance")
    assert fitting(hazard_kitchen, "bring", "to") == []  # never guessed


def test_no_plan_names_the_hazard_before_the_failed_preconditions(hazard_kitchen: Belief) -> None:
    plan = TaskPlanner().plan(task_call("bring", object="tea_mug", to="ana"), hazard_kitchen)
    assert not plan.ok
    assert plan.failures[0] == "The mug of tea is hot and could burn ana."  # its label
    assert any("not_hot" in failure for failure in plan.failures[1:])
    safe = TaskPlanner().plan(task_call("bring", object="ceramic_bowl", to="ana"), hazard_kitchen)
    assert safe.ok and not any("hot" in failure for failure in safe.failures)


def test_nothing_to_do_is_still_refused_when_the_manner_is_forbidden(
    hazard_kitchen: Belief,
) -> None:
    given = hazard_kitchen.with_given("vase", "ana")
    call = task_call("bring", object="vase", to="ana")
    thrown = TaskPlanner().plan(call, given, ("throw it to me",))
    assert not thrown.ok
    assert thrown.failures == (
        "The vase is fragile; I set it down gently and never throw or drop it.",
    )
    handed = TaskPlanner().plan(call, given, ("bring it to me",))
    assert handed.ok and handed.skills == ()
