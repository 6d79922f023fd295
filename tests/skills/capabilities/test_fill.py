"""The fill capability: FILL runs water from a tap into a held container (to its usual level
unless an amount is asked for); the fill task fetches the container and finds the tap."""

from __future__ import annotations

from cogtree.skills.action_model.belief import Belief
from cogtree.skills.capabilities.calls import project, skill_call
from cogtree.skills.capabilities.fill import DEFAULT_FILL_ML
from cogtree.skills.planning.already import already_so
from cogtree.skills.planning.tasks import TaskPlanner, task_call
from tests.skills.capabilities.kitchen import (
    commands,
    failure,
    holding,
    plan,
)


def test_fill_with_no_amount_runs_to_the_usual_level_short_of_the_brim(kitchen: Belief) -> None:
    belief = holding(kitchen, "cup")  # 250 ml: filled to 80%
    assert commands(belief, "FILL", container="cup", source="sink", hand="right") == [
        "approach(target=sink)",
        "fill(container=cup, source=sink, hand=right, amount_ml=200.0)",
    ]
    after = project(skill_call("FILL", container="cup", source="sink", hand="right"), belief)
    cup = after.things["cup"]
    assert cup.liquid == "water" and cup.liquid_ml == 200 and cup.free_ml == 50
    topped = project(skill_call("FILL", container="cup", source="sink", hand="right"), after)
    assert topped.things["cup"].liquid_ml == 200  # already at its usual level: nothing runs


def test_fill_more_than_fits_shows_as_an_overfill(kitchen: Belief) -> None:
    belief = holding(kitchen, "cup")
    call = skill_call("FILL", container="cup", source="sink", hand="right", amount_ml=400)
    after = project(call, belief)
    cup = after.things["cup"]
    assert cup.capacity_ml is not None and cup.liquid_ml > cup.capacity_ml


def test_fill_without_a_known_capacity_runs_a_glassful(kitchen: Belief) -> None:
    belief = holding(kitchen, "plate")
    after = project(skill_call("FILL", container="plate", source="sink", hand="right"), belief)
    assert after.things["plate"].liquid_ml == DEFAULT_FILL_ML


def test_fill_failures(kitchen: Belief) -> None:
    belief = holding(kitchen, "cup")
    assert failure(belief, "FILL", container="cup", source="counter", hand="right")[:2] == (
        "is_water_source",
        "wrong_tool",
    )
    full = belief.with_liquid("cup", "water", 250)
    assert failure(full, "FILL", container="cup", source="sink", hand="right")[:2] == (
        "not_full",
        "container_full",
    )


def test_fill_finds_the_tap(kitchen: Belief) -> None:
    assert plan(kitchen, "fill", container="cup") == ["PICK(cup, right)", "FILL(cup, sink, right)"]


def test_filling_what_is_already_at_its_usual_fill_does_nothing(kitchen: Belief) -> None:
    usual = kitchen.with_liquid("cup", "water", 200)  # 80% of its 250 ml
    found = TaskPlanner().plan(task_call("fill", {"container": "cup"}), usual)
    assert found.ok and not found.skills
    assert already_so(found.tasks, usual) == "Nothing needed doing: the cup is already full."
    # a FILL of no amount has nothing to run (a command of 0 ml is no command)
    held = holding(usual, "cup")
    assert failure(held, "FILL", container="cup", source="sink", hand="right")[:3] == (
        "not_full",
        "container_full",
        "cup is already at its usual fill",
    )
    # an amount asked for may still go up to the brim
    call = skill_call("FILL", container="cup", source="sink", hand="right", amount_ml=50)
    assert project(call, held).things["cup"].liquid_ml == 250
