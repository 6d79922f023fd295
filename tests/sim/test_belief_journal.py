"""JournalingSceneGraph: what the robot's perception told its belief, in order, by robot."""

from __future__ import annotations

from datetime import datetime, timezone

from cogtree.knowledge.scene.scene_graph import SceneGraph
from cogtree.knowledge.scene.scene_models import Observation
from cogtree.sim.belief_journal import BeliefChange, JournalingSceneGraph
from cogtree.sim.executor import SimExecutor
from cogtree.sim.scenario import load_scenario
from cogtree.skills.action_model.commands import Command

SEEN = datetime(2025, 6, 2, 8, 0, tzinfo=timezone.utc)


def seen(subject: str, predicate: str, value: str, source: str = "sim:robot1") -> Observation:
    return Observation(subject=subject, predicate=predicate, object=value, source=source, time=SEEN)


def test_changes_are_journaled_by_source_in_order_and_merged_only_when_order_holds() -> None:
    with JournalingSceneGraph() as scene:
        scene.observe([seen("mug", "inRoom", "kitchen"), seen("cup", "inRoom", "hallway")])
        scene.observe([seen("plate", "inRoom", "kitchen", source="sim:base1")])
        assert scene.forget_placement("plate")  # after base1's look: base1's absence
        assert not scene.forget_placement("nothing_here")  # nothing forgotten: not journaled
        scene.observe([seen("mug", "inRoom", "hallway", source="sim:base1")])
        changes = scene.drain()
        assert scene.drain() == []
    assert changes == [
        BeliefChange(
            "sim:robot1", (seen("mug", "inRoom", "kitchen"), seen("cup", "inRoom", "hallway"))
        ),
        BeliefChange(
            "sim:base1", (seen("plate", "inRoom", "kitchen", source="sim:base1"),), ("plate",)
        ),
        BeliefChange("sim:base1", (seen("mug", "inRoom", "hallway", source="sim:base1"),)),
    ]


def test_replaying_the_journal_on_a_copy_of_the_start_gives_the_same_belief() -> None:
    """What the host does: start from the robot's starting belief, apply every change."""
    scenario = load_scenario("robee_bottle_carried")
    world = scenario.new_world()
    journal = JournalingSceneGraph.taking_over(scenario.new_belief(world))
    start = journal.graph.serialize(format="turtle")
    simulator = SimExecutor(
        world, events=scenario.new_events(), people=scenario.new_people(world), belief=journal
    )
    for name, args in (("navigate", {"target": "kitchen"}), ("observe", {})):
        assert simulator.run(Command(robot="robot1", skill="LOOK", name=name, args=args)).ok
    changes = journal.drain()
    assert any(change.forgotten == ("bottle",) for change in changes)  # moved by anna
    with SceneGraph.from_turtle_text(start) as host:
        for change in changes:
            host.observe(change.observations)
            for thing in change.forgotten:
                host.forget_placement(thing)
        assert set(host.graph) == set(journal.graph)
    journal.close()
