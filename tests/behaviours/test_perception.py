"""Perception nodes tick by tick: RUNNING while the query runs, then the answer on the blackboard.

Between ticks the tests wait for the ``workers`` pool (``wait_idle``), so every trace is
the same on every run: the tick that submits a query is always RUNNING, the next one answers.
"""

from __future__ import annotations

import threading

import py_trees
import pytest
from py_trees.common import Status

from cogtree.behaviours.actions.grounding.perception import (
    GetMapRooms,
    GetObjectsInRoom,
    LocateObject,
    ResolveReferent,
)
from cogtree.behaviours.setup_handles import MissingHandleError
from cogtree.knowledge.scene.scene_graph import SceneGraph
from cogtree.knowledge.worker_pool import WorkerPool
from cogtree.trees.testing import TreeHarness


def run(harness: TreeHarness, workers: WorkerPool, ticks: int) -> None:
    for _ in range(ticks):
        assert workers.wait_idle(10.0)
        harness.tick()


def harness_for(
    root: py_trees.behaviour.Behaviour, scene: SceneGraph, workers: WorkerPool, make_llm
) -> TreeHarness:
    handles = {"scene_graph": scene, "workers": workers}
    return TreeHarness(root, llm=make_llm().client, handles=handles)


def test_get_map_rooms(blackboard, make_llm, scene: SceneGraph, workers) -> None:
    node = GetMapRooms()
    harness = harness_for(node, scene, workers, make_llm)
    run(harness, workers, 2)
    harness.trace.expect("""
        tick  GetMapRooms
        1     R
        2     S
    """)
    rooms = blackboard.get("/perception/rooms")
    assert [room.id for room in rooms] == [
        "bathroom",
        "bedroom",
        "hallway",
        "kitchen",
        "living_room",
    ]
    assert node.feedback_message.startswith("5 rooms: bathroom")


def test_get_map_rooms_fails_without_a_map(blackboard, make_llm, workers) -> None:
    with SceneGraph() as empty:
        harness = harness_for(GetMapRooms(), empty, workers, make_llm)
        run(harness, workers, 2)
    assert harness.trace.letters("GetMapRooms") == "RF"
    assert blackboard.get("/perception/rooms") is None


def test_get_objects_in_room_reads_the_target_room_key(
    blackboard, make_llm, scene, workers
) -> None:
    blackboard.set("/perception/target_room", "living_room")
    node = GetObjectsInRoom()
    harness = harness_for(node, scene, workers, make_llm)
    run(harness, workers, 2)
    assert harness.trace.letters("GetObjectsInRoom") == "RS"
    objects = blackboard.get("/perception/objects")
    assert [o.id for o in objects] == ["book", "bookshelf", "coffee_table"]
    assert node.feedback_message == "in living_room: book, bookshelf, coffee_table"


def test_get_objects_in_a_constant_room_with_nothing_in_it(blackboard, make_llm, workers) -> None:
    text = (
        "@prefix : <https://cogtree.dev/scene#> .\n"
        "@prefix cog: <https://cogtree.dev/ontology#> .\n"
        ":attic a cog:Room ."
    )
    with SceneGraph.from_turtle_text(text) as attic:
        node = GetObjectsInRoom("LookInAttic", room="attic")
        harness = harness_for(node, attic, workers, make_llm)
        run(harness, workers, 2)
    assert harness.trace.letters("LookInAttic") == "RS"
    assert blackboard.get("/perception/objects") == []


def test_unknown_room_fails_lists_the_rooms_and_clears_the_old_answer(
    blackboard, make_llm, scene, workers
) -> None:
    """Decision: an unknown room is FAILURE (not an empty list), so a tree cannot mistake a
    typo for an empty room; the previous answer is unset so nobody reads it by mistake."""
    node = GetObjectsInRoom()
    harness = harness_for(node, scene, workers, make_llm)
    blackboard.set("/perception/target_room", "kitchen")
    run(harness, workers, 2)
    assert blackboard.get("/perception/objects")
    blackboard.set("/perception/target_room", "garage")
    run(harness, workers, 2)
    assert harness.trace.letters("GetObjectsInRoom") == "RSRF"
    assert "no room 'garage' in the scene graph; rooms: bathroom" in node.feedback_message
    assert blackboard.get("/perception/objects") is None


def test_missing_or_blank_input_fails_at_once(blackboard, make_llm, scene, workers) -> None:
    node = GetObjectsInRoom()
    harness = harness_for(node, scene, workers, make_llm)
    run(harness, workers, 1)
    blackboard.set("/perception/target_room", "  ")
    run(harness, workers, 1)
    assert harness.trace.letters("GetObjectsInRoom") == "FF"
    assert node.feedback_message == "/perception/target_room is not set: nothing to look for"


def test_malformed_room_id_fails_with_the_fix(blackboard, make_llm, scene, workers) -> None:
    node = GetObjectsInRoom(room="living room")
    harness = harness_for(node, scene, workers, make_llm)
    run(harness, workers, 2)
    assert harness.trace.letters("GetObjectsInRoom") == "RF"
    assert "not a node id: use a local name such as 'kitchen'" in node.feedback_message


def test_locate_object(blackboard, make_llm, scene, workers) -> None:
    blackboard.set("/perception/target_object", "bottle_blue")
    node = LocateObject()
    harness = harness_for(node, scene, workers, make_llm)
    run(harness, workers, 2)
    assert harness.trace.letters("LocateObject") == "RS"
    location = blackboard.get("/perception/location")
    assert (location.relation, location.support, location.room) == ("in", "fridge", "kitchen")
    assert node.feedback_message == "bottle_blue: in fridge in kitchen (seen by robot1_head_camera)"


def test_locate_unknown_object_fails(blackboard, make_llm, scene, workers) -> None:
    node = LocateObject(thing="unicorn")
    harness = harness_for(node, scene, workers, make_llm)
    run(harness, workers, 2)
    assert harness.trace.letters("LocateObject") == "RF"
    assert node.feedback_message == "no belief about where unicorn is"
    assert blackboard.get("/perception/location") is None


@pytest.mark.parametrize(
    ("referent", "speaker", "expected"),
    [
        ("the blue bottle", None, ["bottle_blue"]),
        ("my mug", "user", ["mug_red"]),
        ("a caffeinated drink", None, ["coffee", "tea"]),
        ("a purple unicorn", None, []),
    ],
)
def test_resolve_referent_succeeds_with_zero_one_or_several(
    blackboard, make_llm, scene, workers, referent: str, speaker: str | None, expected: list[str]
) -> None:
    blackboard.set("/turn/referent", referent)
    if speaker:
        blackboard.set("/turn/speaker", speaker)
    node = ResolveReferent()
    harness = harness_for(node, scene, workers, make_llm)
    run(harness, workers, 2)
    harness.trace.expect("""
        tick  ResolveReferent
        1     R
        2     S
    """)
    assert [c.id for c in blackboard.get("/turn/candidates")] == expected
    assert repr(referent) in node.feedback_message


def test_resolve_referent_without_a_referent_fails(blackboard, make_llm, scene, workers) -> None:
    node = ResolveReferent()
    harness = harness_for(node, scene, workers, make_llm)
    run(harness, workers, 1)
    assert harness.trace.letters("ResolveReferent") == "F"
    assert node.feedback_message == "/turn/referent is not set: nothing to look for"


def test_nodes_in_a_sequence(blackboard, make_llm, scene, workers) -> None:
    blackboard.set("/turn/referent", "my mug")
    blackboard.set("/turn/speaker", "user")
    blackboard.set("/perception/target_object", "mug_red")
    root = py_trees.composites.Sequence("Perceive", memory=True)
    root.add_children([GetMapRooms(), ResolveReferent(), LocateObject()])
    harness = harness_for(root, scene, workers, make_llm)
    run(harness, workers, 6)
    harness.trace.expect("""
        tick  GetMapRooms  ResolveReferent  LocateObject  Perceive
        1     R            -                -             R
        2     S            R                -             R
        3     S            S                R             R
        4     S            S                S             S
        5     R            -                -             R
        6     S            R                -             R
    """)


def test_missing_scene_graph_handle_names_the_fix(make_llm) -> None:
    with pytest.raises(MissingHandleError, match=r"GetMapRooms .*needs the `scene_graph` handle"):
        TreeHarness(GetMapRooms(), llm=make_llm().client)
    with pytest.raises(MissingHandleError, match="must be a SceneGraph"):
        GetMapRooms().setup(scene_graph="home.ttl")


def test_interrupting_a_running_query_cancels_it(blackboard, make_llm, monkeypatch) -> None:
    with SceneGraph() as scene, WorkerPool(1, "test-one-worker") as workers:
        calls: list[str] = []
        monkeypatch.setattr(scene, "rooms", lambda: calls.append("rooms") or [])
        release = threading.Event()
        workers.submit(release.wait, 10.0)  # keeps the only worker busy: the query waits
        root = py_trees.composites.Selector("Root", memory=False)
        node = GetMapRooms()
        root.add_children([node])
        harness = harness_for(root, scene, workers, make_llm)
        harness.tick()
        assert node.status == Status.RUNNING
        root.stop(Status.INVALID)
        release.set()
        assert workers.wait_idle(10.0)
        assert calls == []  # the queued query was cancelled before it ran
        assert node.feedback_message == "cancelled while the query was running"
        assert blackboard.get("/perception/rooms") is None
