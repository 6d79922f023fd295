"""World spec checks and world rules: navigation, grasping, placing, containers, handover."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import ValidationError

from cogtree.sim.world import World, WorldState
from cogtree.sim.world_spec import PROFILES, Placement, WorldError, WorldSpec

# -- the spec ---------------------------------------------------------------------------------


def test_profiles_fill_robot_fields_and_explicit_fields_win(home_data: dict[str, Any]) -> None:
    home_data["robots"]["robot1"]["payload_kg"] = 1.0
    spec = WorldSpec.model_validate(home_data)
    robot1, base1 = spec.robots["robot1"], spec.robots["base1"]
    assert robot1.hands == ("left", "right")
    assert robot1.payload_kg == 1.0
    assert robot1.max_reach_m == PROFILES["humanoid"].max_reach_m
    assert base1.hands == () and base1.skills == ("Goto", "Carry")


@pytest.mark.parametrize(
    ("path", "value", "message"),
    [
        (("robots", "robot1", "profile"), "android", "unknown profile 'android'"),
        (("doors", "kitchen_door", "between"), ["kitchen", "kitchen"], "two different rooms"),
        (("doors", "kitchen_door", "kind"), "passage", None),
        (("furniture", "table_1", "open"), True, "only containers open"),
        (("objects", "bottle", "in"), "fridge", "exactly one of `on`, `in`"),
        (("objects", "bottle", "colour"), "", "a label needs some text"),
        (("rooms",), ["Kitchen"], "'Kitchen' is not an id"),
        (("objects", "bottle", "type"), "bottle", "not a type"),
    ],
)
def test_field_checks_name_the_problem(
    home_data: dict[str, Any], path: tuple[str, ...], value: Any, message: str | None
) -> None:
    target = home_data
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    if message is None:
        WorldSpec.model_validate(home_data)  # a passage that is open is fine
        return
    with pytest.raises(ValidationError, match=message):
        WorldSpec.model_validate(home_data)


def test_a_passage_cannot_be_closed(home_data: dict[str, Any]) -> None:
    home_data["doors"]["kitchen_door"].update(kind="passage", open=False)
    with pytest.raises(ValidationError, match="a passage has no door"):
        WorldSpec.model_validate(home_data)


def test_problems_list_every_broken_reference_with_its_field(home_data: dict[str, Any]) -> None:
    home_data["objects"]["bottle"]["on"] = "fridge"
    home_data["objects"]["milk"]["in"] = "table_9"
    home_data["furniture"]["table_2"]["room"] = "garage"
    home_data["people"]["robot1"] = {"room": "kitchen"}
    problems = {str(problem) for problem in WorldSpec.model_validate(home_data).problems()}
    assert any(
        p.startswith("field `objects.bottle.on`: fridge is a container, not a surface")
        for p in problems
    )
    assert any(p.startswith("field `objects.milk.in`: no container 'table_9'") for p in problems)
    assert any(p.startswith("field `furniture.table_2.room`: no room 'garage'") for p in problems)
    assert any("id 'robot1' is already used in robots" in p for p in problems)


def test_world_refuses_a_broken_spec(home_data: dict[str, Any]) -> None:
    home_data["objects"]["bottle"] = {"type": "Bottle", "held_by": "base1"}
    with pytest.raises(WorldError, match="base1 has no hands"):
        World(WorldSpec.model_validate(home_data))


def test_held_objects_get_free_hands_after_explicit_ones(home_data: dict[str, Any]) -> None:
    home_data["objects"]["bottle"] = {"type": "Bottle", "held_by": "robot1"}
    home_data["objects"]["jar"] = {"type": "Bottle", "held_by": "robot1", "hand": "left"}
    world = World(WorldSpec.model_validate(home_data))
    assert world.held("robot1") == {"left": "jar", "right": "bottle"}


def test_state_is_a_model_that_round_trips(world: World) -> None:
    dumped = world.state.model_dump_json()
    assert WorldState.model_validate_json(dumped) == world.state


# -- navigation -------------------------------------------------------------------------------


def test_navigate_follows_open_doors_and_lands_near_furniture(world: World) -> None:
    feedback = world.navigate("robot1", "table_1")
    assert feedback.ok, feedback
    assert world.room_of("robot1") == "kitchen"
    assert world.state.robots["robot1"].near == "table_1"
    assert world.route("kitchen", "bedroom") == ["kitchen_door", "bedroom_door"]


def test_navigate_through_a_closed_door_fails_naming_it(world: World) -> None:
    feedback = world.navigate("robot1", "bathroom")
    assert (feedback.ok, feedback.code) == (False, "door_closed")
    assert "bathroom_door (hallway-bathroom) on the way to bathroom is closed" in feedback.message
    assert world.room_of("robot1") == "hallway"


def test_navigate_through_a_locked_door_says_locked(world: World) -> None:
    world.set_locked("kitchen_door", True)
    feedback = world.navigate("robot1", "kitchen")
    assert feedback.code == "door_closed" and "is locked" in feedback.message


def test_a_blocked_path_and_an_unconnected_room_are_path_blocked(world: World) -> None:
    world.set_blocked("kitchen_door", True)
    blocked = world.navigate("robot1", "kitchen")
    assert blocked.code == "path_blocked" and "blocked at kitchen_door" in blocked.message
    unconnected = world.navigate("robot1", "attic")
    assert unconnected.code == "path_blocked" and "not connected" in unconnected.message


def test_navigate_only_goes_to_rooms_and_furniture(world: World) -> None:
    for target in ("bottle", "alex", "nowhere"):
        feedback = world.navigate("robot1", target)
        assert feedback.code == "object_not_found", target
    assert (
        "navigate to a room or a piece of furniture" in world.navigate("robot1", "bottle").message
    )


def test_unknown_robot_and_missing_skill(world: World) -> None:
    assert world.navigate("robot9", "kitchen").code == "object_not_found"
    world.navigate("base1", "kitchen")
    feedback = world.grasp("base1", "bottle", "left")
    assert feedback.code == "capability_missing" and "lacks the Pick skill" in feedback.message


# -- grasping ---------------------------------------------------------------------------------


def at_table(world: World) -> World:
    assert world.navigate("robot1", "table_1").ok
    return world


def test_grasp_takes_the_object_into_the_hand(world: World) -> None:
    feedback = at_table(world).grasp("robot1", "bottle", "left")
    assert feedback.ok, feedback
    assert world.placement("bottle") == Placement(relation="held_by", support="robot1", hand="left")
    assert world.verify_grasp("robot1", "bottle", "left").ok
    assert world.lift("robot1", "bottle", "left").ok


def test_grasp_where_the_object_is_not_is_object_not_visible(world: World) -> None:
    at_table(world)
    world.move_object("bottle", Placement(relation="on", support="table_2"))
    feedback = world.grasp("robot1", "bottle", "left")
    assert feedback.code == "object_not_visible"
    assert feedback.message == "bottle is not on table_1 in kitchen"


def test_grasp_failure_codes(world: World) -> None:
    at_table(world)
    assert world.grasp("robot1", "ghost", "left").code == "object_not_found"
    assert world.grasp("robot1", "bottle", "third").code == "capability_missing"
    assert world.grasp("robot1", "statue", "left").code == "capability_missing"
    assert world.grasp("robot1", "bottle", "left").ok
    full = world.grasp("robot1", "coffee", "left")
    assert full.code == "hand_full" and "already holds bottle" in full.message
    assert world.open_gripper("robot1", "left").code == "hand_full"
    heavy = world.grasp("robot1", "atlas", "right")
    assert heavy.code == "payload_exceeded" and "over its payload of 3.0 kg" in heavy.message


def test_grasp_needs_to_be_near_and_in_reach(world: World) -> None:
    world.navigate("robot1", "kitchen")
    far = world.grasp("robot1", "bottle", "left")
    assert far.code == "out_of_reach" and "approach it first" in far.message
    assert world.approach("robot1", "jar").ok
    high = world.grasp("robot1", "jar", "left")
    assert high.code == "out_of_reach" and "2.2 m is above robot1's reach" in high.message


def test_grasp_inside_a_closed_container(world: World) -> None:
    world.navigate("robot1", "fridge")
    closed = world.grasp("robot1", "milk", "left")
    assert closed.code == "container_closed" and "fridge, which is closed" in closed.message
    assert world.approach("robot1", "milk").code == "object_not_visible"
    assert world.open_or_close("robot1", "fridge", open_it=True).ok
    assert world.grasp("robot1", "milk", "left").ok


def test_grasp_slip_is_seeded(home_data: dict[str, Any]) -> None:
    def outcomes(seed: int) -> list[bool]:
        world = World(WorldSpec.model_validate(home_data), seed=seed)
        world.set_slip("bottle", 0.5)
        at_table(world)
        results = []
        for _ in range(12):
            feedback = world.grasp("robot1", "bottle", "left")
            results.append(feedback.ok)
            if feedback.ok:
                world.release("robot1", "left")
                world.move_object("bottle", Placement(relation="on", support="table_1"))
            else:
                assert feedback.code == "grasp_slipped"
                assert world.placement("bottle").support == "table_1"
        return results

    assert outcomes(3) == outcomes(3)
    assert True in outcomes(3) and False in outcomes(3)


def test_a_slip_on_lift_puts_the_object_back(world: World) -> None:
    at_table(world)
    assert world.grasp("robot1", "bottle", "right").ok
    world.set_slip(None, 1.0)
    feedback = world.lift("robot1", "bottle", "right")
    assert feedback.code == "grasp_slipped"
    assert world.placement("bottle") == Placement(relation="on", support="table_1")
    assert world.verify_grasp("robot1", "bottle", "right").code == "grasp_slipped"
    assert world.lift("robot1", "bottle", "right").code == "not_holding"


# -- putting, releasing, storing, handing over ------------------------------------------------


def holding_bottle(world: World) -> World:
    assert at_table(world).grasp("robot1", "bottle", "right").ok
    return world


def test_put_on_a_surface_frees_the_hand(world: World) -> None:
    holding_bottle(world)
    assert world.navigate("robot1", "table_2").ok
    feedback = world.put("robot1", "bottle", "table_2", "right")
    assert feedback.ok and feedback.message == "bottle is on table_2"
    assert world.held("robot1") == {}
    assert world.release("robot1", "right").ok


def test_put_failure_codes(world: World) -> None:
    assert world.put("robot1", "bottle", "table_1", "right").code == "not_holding"
    holding_bottle(world)
    assert world.put("robot1", "bottle", "alex", "right").code == "object_not_found"
    assert world.put("robot1", "bottle", "table_2", "right").code == "object_not_visible"
    assert world.put("robot1", "bottle", "fridge", "right").code == "out_of_reach"
    world.approach("robot1", "fridge")
    assert world.put("robot1", "bottle", "fridge", "right").code == "container_closed"
    world.approach("robot1", "top_shelf")
    assert world.put("robot1", "bottle", "top_shelf", "right").code == "out_of_reach"


def test_release_drops_what_the_hand_holds(world: World) -> None:
    holding_bottle(world)
    feedback = world.release("robot1", "right")
    assert feedback.ok and "floor of kitchen" in feedback.message
    assert world.placement("bottle") == Placement(relation="room", support="kitchen")


def test_handover_to_a_present_available_person(world: World) -> None:
    holding_bottle(world)
    assert world.handover("robot1", "bottle", "alex").code == "person_unavailable"
    world.navigate("robot1", "bedroom")
    assert world.handover("robot1", "bottle", "alex", "left").code == "not_holding"
    assert world.handover("robot1", "bottle", "zed").code == "object_not_found"
    feedback = world.handover("robot1", "bottle", "alex")
    assert feedback.ok and world.placement("bottle").support == "alex"


def test_handover_refused_and_busy(world: World) -> None:
    at_table(world).grasp("robot1", "coffee", "left")
    world.navigate("robot1", "bedroom")
    refused = world.handover("robot1", "coffee", "alex", "left")
    assert refused.code == "person_refused" and "refuses to take coffee" in refused.message
    world.set_availability("alex", "busy")
    assert world.handover("robot1", "coffee", "alex").message == "alex is busy"


def test_store_in_the_base_locker_and_hand_over_from_it(world: World) -> None:
    holding_bottle(world)
    assert world.store("robot1", "bottle", "base1_locker").code == "object_not_visible"
    world.navigate("base1", "kitchen")
    assert world.store("robot1", "bottle", "base1_locker").code == "container_closed"
    assert world.store("robot1", "bottle", "fridge").code == "object_not_found"
    assert world.open_or_close("base1", "base1_locker", open_it=True).ok  # its own, by motor
    assert world.store("robot1", "bottle", "base1_locker").ok
    assert world.room_of("bottle") == "kitchen"
    world.navigate("base1", "bedroom")
    assert world.room_of("bottle") == "bedroom"
    assert world.carried_mass("base1") == 0.5
    feedback = world.handover("base1", "bottle", "alex")
    assert feedback.ok and world.placement("bottle").support == "alex"


def test_open_and_close_need_a_free_hand_and_a_door_here(world: World) -> None:
    assert world.open_or_close("robot1", "fridge", open_it=True).code == "object_not_visible"
    assert world.open_or_close("robot1", "bathroom_door", open_it=True).ok
    assert world.navigate("robot1", "bathroom").ok
    assert world.open_or_close("robot1", "bottle", open_it=True).code == "object_not_found"
    assert world.open_or_close("base1", "kitchen_door", open_it=False).code == "capability_missing"
    world.navigate("robot1", "table_1")
    world.grasp("robot1", "bottle", "left")
    world.grasp("robot1", "coffee", "right")
    assert world.open_or_close("robot1", "fridge", open_it=True).code == "hand_full"


def test_availability_follows_schedule_then_events(world: World) -> None:
    assert world.availability("anna") == "available"
    world.advance(50)
    assert world.availability("anna") == "asleep"
    world.set_availability("anna", "busy")
    assert world.availability("anna") == "busy"
    world.set_availability("anna", None)
    assert world.availability("anna") == "asleep"
    with pytest.raises(ValueError, match="only moves forward"):
        world.advance(-1)


def test_history_records_what_happened_with_the_tick(world: World) -> None:
    world.advance(2)
    world.navigate("robot1", "kitchen")
    assert world.state.history[-1] == "[2] robot1 navigated to kitchen through kitchen_door"
