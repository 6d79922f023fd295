"""The world's own safety re-checks (ground truth, whatever the host believes): a sharp object
is handed over handle first, a brimful container is not handed over, nothing is taken from a
switched-on heat source, and a grasp over the payload fails."""

from __future__ import annotations

from pathlib import Path

from cogtree.sim.perception import belief_from_world
from cogtree.sim.scenario import load_scenario
from cogtree.sim.world import Liquid, Placement, World
from cogtree.skills.action_model.belief import Belief
from cogtree.skills.capabilities.fill import FillArgs, fill_amount
from cogtree.skills.capabilities.registry import COMMANDS


def holding(world: World, obj: str, person: str) -> None:
    """Put ``obj`` in robot1's right hand, with ``person`` beside it."""
    world.move_object(obj, Placement(relation="held_by", support="robot1", hand="right"))
    world.move_person(person, world.state.robots["robot1"].room)


def test_a_sharp_object_is_handed_over_only_handle_first(sharp_knife_scenario: Path) -> None:
    world = World(load_scenario(sharp_knife_scenario).world)
    holding(world, "chef_knife", "sam")
    refused = world.handover("robot1", "chef_knife", "sam", "right")
    assert not refused.ok and refused.code == "unsafe_object"
    assert "blade first" in refused.message
    assert world.held("robot1") == {"right": "chef_knife"}
    assert world.present_handle("robot1", "chef_knife", "right").ok
    assert world.handover("robot1", "chef_knife", "sam", "right").ok
    assert world.state.handle_first == []  # the turn ends with the handover


def test_a_blunt_object_needs_no_handle_first() -> None:
    world = World(load_scenario("knife_running").world)  # the shipped knife is not flagged
    holding(world, "bread_knife", "sam")
    assert world.handover("robot1", "bread_knife", "sam", "right").ok


def test_a_container_filled_to_the_brim_is_not_handed_over() -> None:
    world = World(load_scenario("kitchen_fill_glass").world)
    holding(world, "glass", "sam")
    world.state.liquids["glass"] = Liquid(liquid="water", ml=300.0)  # its capacity
    refused = world.handover("robot1", "glass", "sam", "right")
    assert not refused.ok and refused.code == "unsafe_object"
    assert "filled to the brim with water" in refused.message
    world.state.liquids["glass"] = Liquid(liquid="water", ml=250.0)
    assert world.handover("robot1", "glass", "sam", "right").ok


def test_a_glass_filled_with_no_amount_asked_is_not_brimful_and_is_handed_over() -> None:
    scenario = load_scenario("kitchen_fill_glass")
    world = World(scenario.world)
    holding(world, "glass", "sam")
    scene = belief_from_world(world, "robot1", scenario.belief)
    belief = Belief.from_scene(scene, "robot1")
    amount = fill_amount(belief, FillArgs(container="glass", source="sink", hand="right"))
    assert amount == 240.0  # 80% of its 300 ml
    assert world.approach("robot1", "sink").ok
    filled = {"container": "glass", "source": "sink", "hand": "right", "amount_ml": amount}
    assert COMMANDS["fill"].simulate(world, "robot1", filled).ok
    assert not world.state.spills
    assert world.handover("robot1", "glass", "sam", "right").ok


def test_nothing_is_grasped_from_a_switched_on_stove() -> None:
    world = World(load_scenario("kitchen_stove_off").world)
    assert world.is_powered("stove")
    assert world.approach("robot1", "stove").ok
    refused = world.grasp("robot1", "pan", "right")
    assert not refused.ok and refused.code == "unsafe_object"
    assert refused.message == "pan is on stove, which is on: too hot"
    assert world.held("robot1") == {}
    world.state.powered["stove"] = False
    assert world.grasp("robot1", "pan", "right").ok


def test_a_grasp_over_the_payload_fails_on_ground_truth() -> None:
    world = World(load_scenario("too_heavy").world)
    world.state.robots["robot1"].room = "storeroom"
    assert world.approach("robot1", "storeroom_shelf").ok
    refused = world.grasp("robot1", "cooler_refill", "right")
    assert not refused.ok and refused.code == "payload_exceeded"
    assert world.held("robot1") == {}
