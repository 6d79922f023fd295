"""The simulator's kitchen: side relations, free places, bins, appliance power, liquids and
spills, wiping; the goal predicates over them; perception and `sim show`. Every kitchen
scenario with no model: tests/sim/test_kitchen_scenarios.py."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from cogtree.sim.executor import SimExecutor
from cogtree.sim.predicates import Predicate
from cogtree.sim.scenario import load_scenario
from cogtree.sim.show import render_world
from cogtree.sim.world import Liquid, World
from cogtree.skills.action_model.belief import Belief
from cogtree.skills.action_model.commands import Command, Feedback


@pytest.fixture
def sim() -> Iterator[SimExecutor]:
    executor = SimExecutor.from_scenario(load_scenario("kitchen_pour_milk"))
    yield executor
    executor.close()


def run(sim: SimExecutor, name: str, **args: str | float) -> Feedback:
    return sim.run(Command(robot="robot1", skill="PICK", name=name, args=args))  # type: ignore[arg-type]


def holds(world: World, text: str) -> bool:
    return Predicate.parse(text).holds(world)


def pick(sim: SimExecutor, thing: str, support: str) -> None:
    assert run(sim, "approach", target=support).ok
    assert run(sim, "open_gripper", hand="right").ok
    assert run(sim, "grasp", object=thing, hand="right").ok


def test_pour_moves_liquid_and_an_overflow_spills_on_the_table(sim: SimExecutor) -> None:
    world = sim.world
    assert holds(world, "contains(milk_jug, milk)") and not holds(
        world, "contains(cereal_bowl, milk)"
    )
    pick(sim, "milk_jug", "counter")
    assert run(sim, "approach", target="kitchen_table").ok
    poured = run(sim, "pour", source="milk_jug", target="cereal_bowl", hand="right", amount_ml=200)
    assert poured.ok and holds(world, "contains(cereal_bowl, milk)")
    assert world.liquid_in("milk_jug") is not None and world.liquid_in("milk_jug").ml == 100  # type: ignore[union-attr]
    world.state.liquids["milk_jug"].ml = 500  # a refill, to overflow the bowl
    over = run(sim, "pour", source="milk_jug", target="cereal_bowl", hand="right", amount_ml=500)
    assert over.ok and "spilled on kitchen_table" in over.message
    assert holds(world, "spilled(kitchen_table)") and not holds(world, "clean(kitchen_table)")
    assert world.liquid_in("milk_jug") is None  # all poured out
    world.state.liquids["milk_jug"] = Liquid(liquid="milk", ml=100)
    full = run(sim, "pour", source="milk_jug", target="cereal_bowl", hand="right", amount_ml=50)
    assert full.code == "container_full"
    assert world.liquid_in("milk_jug") == Liquid(liquid="milk", ml=100)  # nothing left the jug
    assert "ml spilled" in render_world(world)


def test_pouring_from_an_empty_container_fails(sim: SimExecutor) -> None:
    sim.world.state.liquids.pop("milk_jug")
    pick(sim, "milk_jug", "counter")
    assert run(sim, "approach", target="kitchen_table").ok
    failed = run(sim, "pour", source="milk_jug", target="cereal_bowl", hand="right", amount_ml=10)
    assert failed.code == "container_empty"


def test_fill_at_the_tap_and_not_elsewhere(sim: SimExecutor) -> None:
    pick(sim, "cereal_bowl", "kitchen_table")
    assert run(sim, "approach", target="counter").ok
    wrong = run(sim, "fill", container="cereal_bowl", source="counter", hand="right", amount_ml=50)
    assert wrong.code == "wrong_tool"
    assert run(sim, "approach", target="sink").ok
    assert run(sim, "fill", container="cereal_bowl", source="sink", hand="right", amount_ml=100).ok
    assert holds(sim.world, "contains(cereal_bowl, water)")


def test_switches_wipes_and_bins() -> None:
    executor = SimExecutor.from_scenario(load_scenario("kitchen_wipe_counter"))
    try:
        world = executor.world
        assert run(executor, "approach", target="stove").ok
        assert run(executor, "switch_on", appliance="stove").ok and holds(world, "powered(stove)")
        assert run(executor, "switch_on", appliance="toaster").code == "object_not_found"
        assert run(executor, "approach", target="counter").ok
        assert run(executor, "switch_on", appliance="counter").code == "not_an_appliance"
        pick(executor, "sponge", "sink")
        assert run(executor, "approach", target="counter").ok
        assert not holds(world, "clean(counter)")
        assert run(executor, "wipe", surface="counter", tool="sponge", hand="right").ok
        assert holds(world, "clean(counter)")
        assert run(executor, "approach", target="recycling_bin").ok
        dropped = run(executor, "drop_in", object="sponge", bin="recycling_bin", hand="right")
        assert dropped.ok and holds(world, "in(sponge, recycling_bin)")
    finally:
        executor.close()


def test_put_beside_records_the_relation_and_a_full_table_refuses() -> None:
    executor = SimExecutor.from_scenario(load_scenario("kitchen_no_room_beside_plate"))
    try:
        pick(executor, "cup", "counter")
        assert run(executor, "navigate", target="dining_table").ok
        full = run(
            executor, "put_beside", object="cup", landmark="plate", relation="next_to", hand="right"
        )
        assert full.code == "no_free_space" and "next to plate on dining_table" in full.message
        executor.world.move_object(
            "fork",
            executor.world.placement("cup").model_copy(
                update={"relation": "room", "support": "dining_room", "hand": None}
            ),
        )
        placed = run(
            executor, "put_beside", object="cup", landmark="plate", relation="left_of", hand="right"
        )
        assert placed.ok and holds(executor.world, "left_of(cup, plate)")
        assert holds(executor.world, "on(cup, dining_table)")
        assert "left of plate" in render_world(executor.world)
        assert executor.belief is not None
        belief = Belief.from_scene(executor.belief, "robot1")
        assert belief.things["cup"].beside == (("left_of", "plate"),)
        assert belief.things["cup"].support == "dining_table"
    finally:
        executor.close()


def test_the_starting_belief_holds_the_kitchen_state() -> None:
    executor = SimExecutor.from_scenario(load_scenario("kitchen_kettle_on"))
    try:
        assert executor.belief is not None
        belief = Belief.from_scene(executor.belief, "robot1")
        kettle = belief.things["kettle"]
        assert kettle.flags == {"appliance", "electrical", "heat_source"}
        assert kettle.powered is False and kettle.liquid == "water" and kettle.liquid_ml == 800
        assert belief.things["recycling_bin"].bin_kind == "recycling"
        assert belief.things["counter"].clean is False
        assert belief.things["sink"].flags == {"water_source", "appliance"}
    finally:
        executor.close()


def test_bad_kitchen_specs_are_refused() -> None:
    from cogtree.sim.world_spec import Furniture, WorldObject

    with pytest.raises(ValueError, match="only an appliance is powered"):
        WorldObject.model_validate({"type": "Cup", "on": "table", "powered": True})
    with pytest.raises(ValueError, match="give `liquid` and `liquid_ml` together"):
        WorldObject.model_validate({"type": "Cup", "on": "table", "liquid": "tea"})
    with pytest.raises(ValueError, match="a bin is a container"):
        Furniture.model_validate({"kind": "surface", "type": "Bin", "room": "k", "bin": "compost"})
