"""Partial observability and the starting belief built from a world."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from cogtree.knowledge.scene.scene_graph import SceneGraph
from cogtree.sim.perception import BeliefSpec, belief_from_world, observe, update_belief, visible
from cogtree.sim.world import World
from cogtree.sim.world_spec import Placement, WorldSpec


@pytest.fixture
def belief(world: World) -> Iterator[SceneGraph]:
    with belief_from_world(world, "robot1") as scene:
        yield scene


def in_kitchen(world: World) -> World:
    assert world.navigate("robot1", "kitchen").ok
    return world


# -- what a robot sees ------------------------------------------------------------------------


def test_a_robot_sees_its_own_room_only(world: World) -> None:
    seen = visible(in_kitchen(world), "robot1")
    assert "bottle" in seen and "table_1" in seen and "anna" in seen and "robot1" in seen
    assert "book" not in seen and "table_2" not in seen and "alex" not in seen
    assert "base1" not in seen  # it stayed in the hallway


def test_closed_containers_hide_their_contents(world: World) -> None:
    in_kitchen(world)
    assert "milk" not in visible(world, "robot1")
    world.set_open("fridge", True)
    assert "milk" in visible(world, "robot1")


def test_observations_are_stamped_with_the_robot_and_the_simulated_time(world: World) -> None:
    world.advance(30)
    observations = observe(in_kitchen(world), "robot1")
    assert {o.source for o in observations} == {"sim:robot1"}
    assert {o.time for o in observations} == {world.now()}
    facts = {(o.subject, o.predicate, o.object) for o in observations}
    assert ("bottle", "on", "table_1") in facts
    assert ("fridge", "isOpen", False) in facts
    assert ("anna", "inRoom", "kitchen") in facts and ("anna", "availability", "available") in facts
    assert ("robot1", "inRoom", "kitchen") in facts
    assert not any(subject == "book" for subject, _, _ in facts)


def test_what_someone_holds_is_seen_as_holds(world: World) -> None:
    in_kitchen(world)
    world.move_object("coffee", Placement(relation="held_by", support="anna"))
    facts = {(o.subject, o.predicate, o.object) for o in observe(world, "robot1")}
    assert ("anna", "holds", "coffee") in facts


# -- the starting belief ----------------------------------------------------------------------


def test_the_prior_map_has_no_provenance(belief: SceneGraph) -> None:
    assert [room.id for room in belief.rooms()] == [
        "attic",
        "bathroom",
        "bedroom",
        "hallway",
        "kitchen",
    ]
    hallway = next(room for room in belief.rooms() if room.id == "hallway")
    assert hallway.connected_to == ["bathroom", "bedroom", "kitchen"]
    assert belief.observations_of("table_1") == []
    [robot1] = belief.robot_state("robot1")
    assert (robot1.hands, robot1.payload_kg, robot1.max_reach_m) == (2, 3.0, 1.8)
    [base1] = belief.robot_state("base1")
    assert base1.storage == ["base1_locker"] and base1.hands == 0


def test_last_seen_places_come_from_prior_before_the_start(
    world: World, belief: SceneGraph
) -> None:
    location = belief.locate_object("bottle")
    assert location is not None
    assert (location.relation, location.support, location.room) == ("on", "table_1", "kitchen")
    assert location.source == "prior"
    assert location.last_seen is not None and (world.now() - location.last_seen).seconds == 600
    [alex] = belief.humans("alex")
    assert (alex.room, alex.availability) == ("bedroom", "available")
    robot = belief.locate_object("robot1")
    assert robot is not None and robot.source == "sim:robot1"
    milk = next(o for o in belief.objects_in_room("kitchen") if o.id == "milk")
    assert milk.relation == "in" and milk.support == "fridge"
    fridge = next(o for o in belief.objects_in_room("kitchen") if o.id == "fridge")
    assert fridge.is_open is False


def test_belief_spec_limits_and_misplaces_what_the_robot_knows(world: World) -> None:
    spec = BeliefSpec.model_validate(
        {"objects": ["bottle"], "people": "none", "misplaced": {"coffee": {"on": "table_2"}}}
    )
    with belief_from_world(world, "robot1", spec) as scene:
        known = {o.id for room in ("kitchen", "bedroom") for o in scene.objects_in_room(room)}
        assert {"bottle", "coffee"} <= known and "milk" not in known and "book" not in known
        coffee = scene.locate_object("coffee")
        assert coffee is not None and coffee.support == "table_2"
        assert scene.humans() == []


def test_unknown_object_types_are_declared(home_data: dict[str, Any]) -> None:
    home_data["types"] = {"Document": {"label": "document", "synonyms": ["form"]}}
    home_data["objects"]["form"] = {"type": "Document", "on": "table_2"}
    home_data["objects"]["vase"] = {"type": "FlowerVase", "on": "table_2"}
    world = World(WorldSpec.model_validate(home_data))
    with belief_from_world(world, "robot1") as scene:
        assert [c.id for c in scene.resolve_referent("the form")] == ["form"]
        assert [c.id for c in scene.resolve_referent("the flower vase")] == ["vase"]


def test_bad_robot_or_belief_spec_is_refused(world: World) -> None:
    with pytest.raises(ValueError, match="no robot 'robot9'"):
        belief_from_world(world, "robot9")
    bad = BeliefSpec.model_validate({"misplaced": {"bottle": {"in": "table_2"}}})
    with pytest.raises(ValueError, match="table_2 is a surface, not a container"):
        belief_from_world(world, "robot1", bad)


def test_belief_spec_shorthands() -> None:
    assert BeliefSpec.model_validate({"objects": "all"}).objects is None
    assert BeliefSpec.model_validate({"objects": "none"}).objects == ()
    with pytest.raises(ValueError, match="write all, none, or a list of ids"):
        BeliefSpec.model_validate({"people": "some"})


# -- updating it ------------------------------------------------------------------------------


def test_unseen_changes_leave_a_stale_belief_until_retracted(
    world: World, belief: SceneGraph
) -> None:
    world.move_object("book", Placement(relation="on", support="table_1"), by="anna")
    world.advance(10)
    update_belief(belief, in_kitchen(world), "robot1")
    stale = belief.locate_object("milk")  # in the closed fridge: not seen, not contradicted
    assert stale is not None and stale.support == "fridge" and stale.source == "prior"
    coffee = belief.locate_object("coffee")
    assert coffee is not None and coffee.source == "sim:robot1"
    removed = belief.retract_stale(world.now())
    assert ("milk", "in", "fridge") in {(o.subject, o.predicate, o.object) for o in removed}
    assert belief.locate_object("milk") is None
    assert belief.observations_of("table_1") == []  # the map stays


def test_looking_where_an_object_was_believed_is_evidence_of_absence(
    world: World, belief: SceneGraph
) -> None:
    world.move_object("bottle", Placement(relation="on", support="table_2"), by="anna")
    world.advance(10)
    update_belief(belief, in_kitchen(world), "robot1")
    assert belief.locate_object("bottle") is None  # looked at table_1: the bottle is gone
    milk = belief.locate_object("milk")  # inside the closed fridge: could not be seen
    assert milk is not None and milk.support == "fridge"
    world.navigate("robot1", "bedroom")
    update_belief(belief, world, "robot1")
    seen = belief.locate_object("bottle")
    assert seen is not None and (seen.support, seen.source) == ("table_2", "sim:robot1")


def test_an_object_first_seen_is_introduced_with_its_identity(world: World) -> None:
    spec = BeliefSpec.model_validate({"objects": "none"})
    with belief_from_world(world, "robot1", spec) as scene:
        assert scene.resolve_referent("the blue bottle") == []
        update_belief(scene, in_kitchen(world), "robot1")
        [bottle] = scene.resolve_referent("the blue bottle")
        assert bottle.id == "bottle" and bottle.type == "Bottle"
        info = next(o for o in scene.objects_in_room("kitchen") if o.id == "bottle")
        assert info.mass_kg == 0.5 and info.graspable is True
        assert info.attributes == {"colour": "blue"}


def test_looking_around_keeps_what_the_robot_holds(world: World, belief: SceneGraph) -> None:
    in_kitchen(world)
    world.approach("robot1", "table_1")
    world.open_gripper("robot1", "right")
    assert world.grasp("robot1", "bottle", "right").ok
    update_belief(belief, world, "robot1")
    update_belief(belief, world, "robot1")  # looking again must not forget the bottle in hand
    held = belief.locate_object("bottle")
    assert held is not None and (held.relation, held.support) == ("heldBy", "robot1")
    assert belief.robot_state("robot1")[0].held_in == {"bottle": "right"}
