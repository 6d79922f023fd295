"""The host's belief over DDS: the robot's latched state, then its observations."""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import Future
from pathlib import Path
from typing import Any

import pytest

from tests.ros.ros_extra import ROS_EXTRA

pytest.importorskip("rclpy", reason=ROS_EXTRA)

from datetime import UTC, datetime

from cogtree_interfaces.msg import ObservationBatch

from cogtree.knowledge.safety.hazard_rules import shipped_hazard_rules
from cogtree.knowledge.scene.scene_graph import SceneGraph
from cogtree.knowledge.scene.scene_models import AttributeValue, Observation
from cogtree.sim.executor import SimExecutor
from cogtree.sim.ros_robot import SimRobotNode
from cogtree.sim.scenario import SCENARIOS_DIR, load_scenario
from cogtree.sim.world import Liquid, Placement
from cogtree.skills.action_model.belief import Belief
from cogtree.skills.action_model.commands import Command, Feedback
from cogtree.skills.ros.belief import (
    BeliefListener,
    RobotStateError,
    belief_from_state,
    fetch_robot_state,
)
from cogtree.skills.ros.executor import RosExecutor
from cogtree.skills.ros.messages import batch_msg, time_msg, time_of
from cogtree.skills.ros.protocol import perception_source, reliable_qos
from cogtree.skills.safety.task_hazards import task_hazards


def room_of(scene: SceneGraph, robot: str) -> str | None:
    states = scene.robot_state(robot)
    return states[0].room if states else None


def test_the_host_builds_its_belief_from_the_state_and_follows_the_observations(
    ros: Any, robot_side: Callable[..., SimRobotNode], until: Callable[..., Any]
) -> None:
    robots = ros.namespaces("robot1", "base1")
    robot = robot_side("robee_bottle", namespaces=robots)
    host = ros.node("cogtree", spin=False)
    state = fetch_robot_state(host, robots["robot1"], timeout_s=10.0)
    assert state.robot == "robot1"
    assert time_of(state.world_time) == robot.simulator.world.now()
    with belief_from_state(state) as scene, RosExecutor(host, robots=robots) as executor:
        assert room_of(scene, "robot1") == "hallway"
        assert scene.locate_object("bottle").support == "table_1"  # type: ignore[union-attr]
        with BeliefListener(host, scene, robots) as listener:
            ros.spin(host)
            for name in robots.values():  # the robot side's writers know the listener
                until(
                    lambda name=name: robot.node.count_subscribers(f"{name}/observations") > 0,
                    what="discovery",
                )
            # Anna moves the bottle to the counter as soon as the robot starts acting.
            for command in (
                Command(robot="robot1", skill="GOTO", name="navigate", args={"target": "kitchen"}),
                Command(robot="robot1", skill="LOOK", name="observe"),
                Command(robot="base1", skill="GOTO", name="navigate", args={"target": "bedroom"}),
            ):
                assert executor.submit(command).result(timeout=15.0).ok
            until(lambda: listener.batches_applied == 3, what="one batch per command")
            assert room_of(scene, "base1") == "bedroom"
            assert room_of(scene, "robot1") == "kitchen"
            located = scene.locate_object("bottle")  # looked: the bottle is no longer on table_1
            assert located is None or located.support != "table_1"


SEEN = datetime(2025, 6, 2, 8, tzinfo=UTC)


def seen(subject: str, predicate: str, value: AttributeValue) -> Observation:
    return Observation(subject=subject, predicate=predicate, object=value, source="x", time=SEEN)


def batch(robot: str, sequence: int, *facts: Observation, forgotten: tuple[str, ...] = ()) -> Any:
    return batch_msg(robot, sequence, facts, forgotten, time_msg(SEEN))


def test_untrusted_or_rejected_batches_are_dropped_and_the_listener_goes_on(
    ros: Any, until: Callable[..., Any], caplog: pytest.LogCaptureFixture
) -> None:
    scene = SceneGraph()
    host = ros.node("cogtree", spin=False)
    namespace = ros.namespace("robot1")
    with BeliefListener(host, scene, {"robot1": namespace}, applied={"robot1": 4}) as listener:
        ros.spin(host)
        robot = ros.node("fake_robot").create_publisher(
            ObservationBatch, f"{namespace}/observations", reliable_qos()
        )
        until(lambda: robot.get_subscription_count() > 0, what="the listener")
        for message in (
            batch("robot1", 5, seen("cup", "inRoom", "kitchen"), forgotten=("not an id!",)),
            batch("base1", 6, seen("cup", "inRoom", "hallway")),  # foreign
            batch("robot1", 4, seen("cup", "inRoom", "bedroom")),  # already in the state
            batch("robot1", 2**63 - 1, seen("mug", "material", "ceramic")),  # far ahead
            batch("robot1", 6, seen("mug", "colour", "red")),
            batch("robot1", 6, seen("mug", "colour", "blue")),  # a replay of 6
        ):
            robot.publish(message)
        until(lambda: listener.dropped == 4, what="four untrusted batches")
        assert listener.batches_applied == 1
    assert "observations of robot1 not applied" in caplog.text
    assert "the batch says it is from 'base1', but this namespace is robot1's" in caplog.text
    assert "batch 4 of robot1 is out of order (the last applied is 5)" in caplog.text
    assert "batch 6 of robot1 is out of order (the last applied is 6)" in caplog.text
    assert f"batch {2**63 - 1} of robot1 jumps more than 10000 past the last applied" in caplog.text
    assert scene.observations_of("cup") == []  # the rejected batch changed nothing
    assert [o.object for o in scene.observations_of("mug")] == ["red"]
    scene.close()


def forge_then_submit(
    ros: Any, robot: SimRobotNode, until: Callable[..., Any], forged: Observation, command: Command
) -> Feedback:
    """Have a forger clear a property in the host's belief, then send ``command`` to robot1.

    The forger writes robot1's own perception as the source and a fresh time (the host takes a
    lowered hazard from nobody else). Asserts that the host is fooled (it applied the forged
    fact) and returns the robot's answer.
    """
    robots = ros.namespaces("robot1")
    host = ros.node("cogtree", spin=False)
    state = fetch_robot_state(host, robots["robot1"])
    forged = forged.model_copy(
        update={"source": perception_source("robot1"), "time": time_of(state.world_time)}
    )
    with (
        belief_from_state(state) as scene,
        BeliefListener(host, scene, robots, applied={"robot1": state.sequence}) as listener,
        RosExecutor(host, robots=robots) as executor,
    ):
        ros.spin(host)
        forger = ros.node("forger").create_publisher(
            ObservationBatch, f"{robots['robot1']}/observations", reliable_qos()
        )
        until(lambda: forger.get_subscription_count() > 0, what="the listener")
        forger.publish(batch("robot1", state.sequence + 100, forged))
        until(lambda: listener.batches_applied == 1, what="the forged batch")
        believed = [
            o.object
            for o in scene.observations_of(forged.subject)
            if o.predicate == forged.predicate
        ]
        assert believed == [forged.object]  # the host is fooled
        return executor.submit(command).result(timeout=15.0)


def robot1(name: str, **args: str) -> Command:
    return Command(robot="robot1", skill="PICK", name=name, args=args)  # type: ignore[arg-type]


def test_a_forged_observation_that_clears_hot_does_not_get_the_hot_pan_grasped(
    ros: Any, robot_side: Callable[..., SimRobotNode], until: Callable[..., Any]
) -> None:
    """Someone on the network says the pan is cold; the host believes it, the robot does not."""
    robot = robot_side("hot_pan", namespaces=ros.namespaces("robot1"))
    grasp = robot1("grasp", object="frying_pan", hand="right")
    feedback = forge_then_submit(ros, robot, until, seen("frying_pan", "hot", False), grasp)
    assert not feedback.ok and feedback.code == "unsafe_object"
    assert "frying_pan is hot" in feedback.message
    assert robot.simulator.world.held("robot1") == {}


def test_a_forged_observation_that_clears_sharp_does_not_get_a_blade_handed_over(
    ros: Any,
    robot_side: Callable[..., SimRobotNode],
    until: Callable[..., Any],
    sharp_knife_scenario: Path,
) -> None:
    """The host believes the knife blunt and skips present_handle; the robot will not hand it."""
    robot = robot_side(str(sharp_knife_scenario), namespaces=ros.namespaces("robot1"))
    world = robot.simulator.world
    world.move_object("chef_knife", Placement(relation="held_by", support="robot1", hand="right"))
    world.move_person("sam", "kitchen")
    handover = robot1("handover", object="chef_knife", person="sam", hand="right")
    feedback = forge_then_submit(ros, robot, until, seen("chef_knife", "sharp", False), handover)
    assert not feedback.ok and feedback.code == "unsafe_object"
    assert "blade first" in feedback.message
    assert world.held("robot1") == {"right": "chef_knife"}


def test_a_forged_observation_that_the_stove_is_off_does_not_get_the_pan_grasped(
    ros: Any, robot_side: Callable[..., SimRobotNode], until: Callable[..., Any]
) -> None:
    robot = robot_side("kitchen_stove_off", namespaces=ros.namespaces("robot1"))
    world = robot.simulator.world
    world.state.robots["robot1"].near = "stove"
    grasp = robot1("grasp", object="pan", hand="right")
    feedback = forge_then_submit(ros, robot, until, seen("stove", "powered", False), grasp)
    assert not feedback.ok and feedback.code == "unsafe_object"
    assert "stove, which is on" in feedback.message
    assert world.held("robot1") == {}


def test_a_forged_light_mass_does_not_get_an_over_payload_grasp_done(
    ros: Any, robot_side: Callable[..., SimRobotNode], until: Callable[..., Any]
) -> None:
    robot = robot_side("too_heavy", namespaces=ros.namespaces("robot1"))
    world = robot.simulator.world
    world.state.robots["robot1"].room = "storeroom"
    world.state.robots["robot1"].near = "storeroom_shelf"
    grasp = robot1("grasp", object="cooler_refill", hand="right")
    feedback = forge_then_submit(ros, robot, until, seen("cooler_refill", "massKg", 1.0), grasp)
    assert not feedback.ok and feedback.code == "payload_exceeded"
    assert world.held("robot1") == {}


def test_a_forged_empty_glass_is_not_handed_over_brimful(
    ros: Any, robot_side: Callable[..., SimRobotNode], until: Callable[..., Any]
) -> None:
    robot = robot_side("kitchen_fill_glass", namespaces=ros.namespaces("robot1"))
    world = robot.simulator.world
    world.move_object("glass", Placement(relation="held_by", support="robot1", hand="right"))
    world.state.liquids["glass"] = Liquid(liquid="water", ml=300.0)
    handover = robot1("handover", object="glass", person="sam", hand="right")
    feedback = forge_then_submit(ros, robot, until, seen("glass", "empty", True), handover)
    assert not feedback.ok and feedback.code == "unsafe_object"
    assert "filled to the brim" in feedback.message
    assert world.held("robot1") == {"right": "glass"}


def test_a_forged_batch_cannot_make_a_foil_tray_ceramic_and_get_it_microwaved(
    ros: Any,
    robot_side: Callable[..., SimRobotNode],
    until: Callable[..., Any],
    caplog: pytest.LogCaptureFixture,
    tmp_path: Path,
) -> None:
    """ "The foil tray is a ceramic dish", from no perception of the robot's: refused, logged;
    the belief keeps the tray metal, the hazard check still refuses, the next batch is taken."""
    text = (SCENARIOS_DIR / "kitchen_hazard_foil_tray_microwave.yaml").read_text("utf-8")
    scenario = tmp_path / "kitchen_hazard_leftovers_microwave.yaml"
    scenario.write_text(text.replace("foil_tray", "leftovers"), "utf-8")  # no foil in its id
    robots = ros.namespaces("robot1")
    robot_side(str(scenario), namespaces=robots)
    host = ros.node("cogtree", spin=False)
    state = fetch_robot_state(host, robots["robot1"])
    now = time_of(state.world_time)
    with (
        belief_from_state(state) as scene,
        BeliefListener(host, scene, robots, applied={"robot1": state.sequence}) as listener,
    ):
        ros.spin(host)
        forger = ros.node("forger").create_publisher(
            ObservationBatch, f"{robots['robot1']}/observations", reliable_qos()
        )
        until(lambda: forger.get_subscription_count() > 0, what="the listener")
        said = [("material", "ceramic"), ("label", "ceramic dish")]
        forged = [seen("leftovers", p, v).model_copy(update={"time": now}) for p, v in said]
        forger.publish(batch("robot1", state.sequence + 1, *forged))
        forger.publish(batch("robot1", state.sequence + 2, seen("counter", "clean", True)))
        until(lambda: listener.refused == 1 and listener.batches_applied == 1, what="both")
        belief = Belief.from_scene(scene, "robot1")
    tray = belief.things["leftovers"]
    assert (tray.label, tray.material) == ("foil tray", "foil")
    heat = [("heat", {"object": "leftovers", "appliance": "microwave"})]
    found = [h.rule for h in task_hazards(shipped_hazard_rules(), heat, belief, ())]
    assert found[0] == "metal_in_microwave"  # forbidden first (a lid nobody saw is asked too)
    assert belief.things["counter"].clean is True  # the belief did not freeze
    assert "less hazardous (no longer metal)" in caplog.text
    assert "it comes from x, not robot1's own perception (sim:robot1)" in caplog.text


def test_no_robot_state_says_what_to_start(ros: Any) -> None:
    namespace = ros.namespace("robot1")
    with pytest.raises(RobotStateError, match=f"no robot state on {namespace}/state within 0.3 s"):
        fetch_robot_state(ros.node("cogtree", spin=False), namespace, timeout_s=0.3)


MUG_TO_SINK = [
    Command(robot="robot1", skill="GOTO", name="navigate", args={"target": "kitchen_table"}),
    Command(robot="robot1", skill="PICK", name="approach", args={"target": "kitchen_table"}),
    Command(robot="robot1", skill="PICK", name="open_gripper", args={"hand": "right"}),
    Command(robot="robot1", skill="PICK", name="grasp", args={"object": "mug", "hand": "right"}),
    Command(robot="robot1", skill="PICK", name="lift", args={"object": "mug", "hand": "right"}),
    Command(robot="robot1", skill="GOTO", name="navigate", args={"target": "hallway"}),
]
"""Moves, a grasp and a move while holding: every kind of change the host must follow."""


def believed(scene: SceneGraph) -> tuple[object, ...]:
    """The robot's room and holdings, and where each object of mug_to_sink is believed to be."""
    robot = scene.robot_state("robot1")[0]
    objects = tuple(scene.locate_object(thing) for thing in ("mug", "cereal_bowl", "glass"))
    return robot.room, robot.holding, objects


def in_process_beliefs(answered: int | None) -> list[tuple[object, ...]]:
    """SimExecutor's own belief after each command; the unanswered ones are cancelled unrun."""
    scenario = load_scenario("mug_to_sink")
    beliefs = []
    with SimExecutor.from_scenario(scenario) as simulator:
        assert simulator.belief is not None
        for index, command in enumerate(MUG_TO_SINK):
            if answered is None or index < answered:
                assert simulator.run(command).ok, command.describe()
            else:  # the silent robot never runs it; the host cancels it on its time limit
                simulator.submit(command)
                simulator.cancel(command)
            beliefs.append(believed(simulator.belief))
    return beliefs


def belief_when_done(future: Future[Feedback], scene: SceneGraph) -> Future[tuple[object, ...]]:
    """What ``scene`` believes at the moment ``future`` resolves."""
    seen: Future[tuple[object, ...]] = Future()
    future.add_done_callback(lambda _: seen.set_result(believed(scene)))
    return seen


@pytest.mark.parametrize("answered", [None, 3], ids=["answering", "silent-after-3"])
def test_when_a_command_is_done_the_host_believes_what_the_simulator_believes(
    ros: Any,
    robot_side: Callable[..., SimRobotNode],
    until: Callable[..., Any],
    answered: int | None,
) -> None:
    """Each future resolves only once the host's belief holds that command's observations.

    With ``answered=3`` the robot goes silent at the grasp (``cogtree sim-ros
    --stop-answering-after 3``): the grasp and what follows time out and are cancelled, and
    the host still believes what the simulator does (robot1 in the kitchen, the mug on the
    table).
    """
    expected = in_process_beliefs(answered)
    robots = ros.namespaces("robot1")
    robot = robot_side("mug_to_sink", namespaces=robots, stop_answering_after=answered)
    host = ros.node("cogtree", spin=False)
    observations = f"{robots['robot1']}/observations"
    with (
        belief_from_state(fetch_robot_state(host, robots["robot1"])) as scene,
        RosExecutor(host, robots=robots, command_timeout_s=3.0) as executor,
        BeliefListener(host, scene, robots),
    ):
        ros.spin(host)
        until(
            lambda: (
                robot.node.count_subscribers(observations) and host.count_publishers(observations)
            ),
            what="discovery of the observations topic",
        )
        for index, command in enumerate(MUG_TO_SINK):
            future = executor.submit(command)
            when_done = belief_when_done(future, scene)
            feedback = future.result(timeout=15.0)
            assert feedback.ok == (answered is None or index < answered), feedback.message
            assert when_done.result(timeout=1.0) == expected[index], f"after {command.describe()}"
        assert believed(robot.journal) == expected[-1]
