"""The pour capability: POUR moves liquid from a held container into another (an overflow
shows); the pour task fetches the source and pours what the target takes."""

from __future__ import annotations

from dataclasses import replace

from cogtree.skills.action_model.belief import Belief
from cogtree.skills.capabilities.calls import project, skill_call
from cogtree.skills.planning.already import already_so
from cogtree.skills.planning.tasks import TaskPlanner, task_call
from tests.skills.capabilities.kitchen import (
    commands,
    failure,
    holding,
    plan,
    reasons,
)


def test_pour_moves_the_liquid_and_an_overflow_is_visible(kitchen: Belief) -> None:
    belief = holding(kitchen, "jug")
    assert commands(belief, "POUR", source="jug", target="bowl", hand="right") == [
        "approach(target=shelf)",
        "pour(source=jug, target=bowl, hand=right, amount_ml=400.0)",
    ]
    after = project(skill_call("POUR", source="jug", target="bowl", hand="right"), belief)
    assert after.things["jug"].liquid_ml == 0 and after.things["jug"].liquid is None
    bowl = after.things["bowl"]
    assert bowl.liquid == "milk" and bowl.liquid_ml == 400 and bowl.capacity_ml == 300
    some = project(
        skill_call("POUR", source="jug", target="bowl", hand="right", amount_ml=100), belief
    )
    assert some.things["jug"].liquid_ml == 300 and some.things["bowl"].liquid_ml == 100


def test_pour_failures(kitchen: Belief) -> None:
    empty = holding(kitchen, "cup")
    assert failure(empty, "POUR", source="cup", target="bowl", hand="right")[:2] == (
        "has_liquid",
        "container_empty",
    )
    belief = holding(kitchen, "jug")
    assert failure(belief, "POUR", source="jug", target="teapot", hand="right")[:2] == (
        "target_known",
        "object_not_found",
    )
    full = belief.with_liquid("bowl", "water", 300)
    assert failure(full, "POUR", source="jug", target="bowl", hand="right")[:2] == (
        "not_full",
        "container_full",
    )


def test_pour_fetches_the_source(kitchen: Belief) -> None:
    # no words ask for all of it: the 400 ml jug pours what the 300 ml bowl takes up to its
    # usual fill (80%, short of the brim)
    assert plan(kitchen, "pour", source="jug", target="bowl") == [
        "PICK(jug, right)",
        "POUR(jug, bowl, right, 240.0)",
    ]
    assert "container_empty" in reasons(kitchen, "pour", source="cup", target="bowl")


def test_pouring_into_what_is_already_at_its_usual_fill_does_nothing(kitchen: Belief) -> None:
    usual = kitchen.with_liquid("bowl", "milk", 240)  # 80% of its 300 ml
    found = TaskPlanner().plan(task_call("pour", {"source": "jug", "target": "bowl"}), usual)
    assert found.ok and not found.skills
    assert already_so(found.tasks, usual) == "Nothing needed doing: the bowl is already full."


def test_a_brimful_container_is_not_handed_over(kitchen: Belief) -> None:
    brimful = holding(kitchen.with_liquid("bowl", "milk", 300), "bowl")
    assert failure(brimful, "HANDOVER", object="bowl", person="sam", hand="right")[:2] == (
        "not_brimful",
        "unsafe_object",
    )


def test_a_hot_liquid_poured_makes_what_it_goes_into_hot(kitchen: Belief) -> None:
    """Checked to fail before: tea poured from a hot pot left the cup cold in the belief, so
    handing the cup over was not checked as handing over a hot thing."""
    held = holding(kitchen, "jug")
    jug = replace(held.things["jug"], hot=True)
    belief = replace(held, things={**held.things, "jug": jug})
    after = project(skill_call("POUR", source="jug", target="bowl", hand="right"), belief)
    assert after.things["bowl"].hot
    cold = project(skill_call("POUR", source="jug", target="bowl", hand="right"), held)
    assert not cold.things["bowl"].hot
