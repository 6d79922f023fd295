"""What the ROS 2 parts undo when they fail half way, and how their spin loop ends."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from typing import Any

import pytest

from tests.ros.ros_extra import ROS_EXTRA

pytest.importorskip("rclpy", reason=ROS_EXTRA)

import rclpy
from rclpy.executors import SingleThreadedExecutor
from rclpy.node import Node

from cogtree.sim import ros_robot
from cogtree.sim.executor import SimExecutor
from cogtree.sim.ros_robot import SimRobotNode
from cogtree.sim.scenario import load_scenario
from cogtree.trees.ros import snapshot_source as ros_source
from cogtree.trees.ros.cli_support import init_context, spin_until
from cogtree.trees.ros.snapshot_source import RosSnapshotSource
from cogtree.trees.viewer.feed import TickFeed


def destroyed(node: Node) -> bool:
    try:
        node.get_name()
    except Exception:  # rclpy's InvalidHandle: destruction was requested
        return True
    return False


@pytest.fixture
def context(ros: Any) -> Iterator[Any]:
    made = init_context(domain_id=ros.domain_id)
    yield made
    if made.ok():
        rclpy.shutdown(context=made)


def test_spin_until_runs_callbacks_and_each_until_stopped(context: Any) -> None:
    node = rclpy.create_node("spinner", context=context)
    executor = SingleThreadedExecutor(context=context)
    executor.add_node(node)
    stop = threading.Event()
    fired: list[int] = []
    node.create_timer(0.01, lambda: fired.append(1))
    turns: list[int] = []

    def each() -> None:
        turns.append(1)
        if len(fired) >= 3:
            stop.set()

    spin_until(executor, stop, context, each=each, period_s=0.05)
    assert len(fired) >= 3
    assert turns
    assert executor.get_nodes() == []  # shut down
    node.destroy_node()


def test_spin_until_shuts_the_executor_down_when_a_callback_raises(context: Any) -> None:
    node = rclpy.create_node("failing", context=context)
    executor = SingleThreadedExecutor(context=context)
    executor.add_node(node)

    def fail() -> None:
        raise RuntimeError("a callback failed")

    node.create_timer(0.01, fail)
    with pytest.raises(RuntimeError, match="a callback failed"):
        spin_until(executor, threading.Event(), context)
    assert executor.get_nodes() == []
    node.destroy_node()


def test_spin_until_ends_when_the_context_is_shut_down(context: Any) -> None:
    executor = SingleThreadedExecutor(context=context)
    rclpy.shutdown(context=context)
    spin_until(executor, threading.Event(), context)  # returns at once
    assert executor.get_nodes() == []


@pytest.fixture
def made(ros: Any, monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    """What a viewer source makes, as it makes it: its rclpy context under ``context``."""
    recorded: dict[str, Any] = {}

    def recording_context(**options: Any) -> Any:
        recorded["context"] = init_context(**options)
        return recorded["context"]

    monkeypatch.setattr(ros_source, "init_context", recording_context)
    return recorded


def test_a_viewer_source_that_cannot_subscribe_leaves_no_node_or_context(
    made: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    def recording_node(*args: Any, **options: Any) -> Node:
        node = Node(*args, **options)
        made["node"] = node
        return node

    def refuse(*args: Any, **options: Any) -> Any:
        raise RuntimeError("no subscription today")

    monkeypatch.setattr(rclpy, "create_node", recording_node)
    monkeypatch.setattr(Node, "create_subscription", refuse)
    with pytest.raises(RuntimeError, match="no subscription today"):
        RosSnapshotSource(TickFeed(), "/cogtree/tree/snapshot")
    assert destroyed(made["node"])
    assert not made["context"].ok()


def test_closing_a_viewer_source_whose_context_was_shut_down_destroys_its_node(
    made: dict[str, Any],
) -> None:
    source = RosSnapshotSource(TickFeed(), "/cogtree/tree/snapshot")
    node = source._node
    rclpy.shutdown(context=made["context"])  # e.g. by a signal handler elsewhere
    source.close()
    assert destroyed(node)
    source.close()  # twice does nothing


def test_a_robot_side_that_cannot_start_closes_the_simulator_it_made(
    ros: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    closed: list[SimExecutor] = []

    class RecordingSimulator(SimExecutor):
        def close(self) -> None:
            closed.append(self)
            super().close()

    monkeypatch.setattr(ros_robot, "SimExecutor", RecordingSimulator)
    node = ros.node("cogtree_sim", spin=False)
    with pytest.raises(ValueError, match="nobody"):
        SimRobotNode.from_scenario(
            node, load_scenario("robee_bottle"), namespaces={"nobody": "/nobody"}
        )
    assert len(closed) == 1


def test_closing_the_robot_side_during_a_tick_waits_for_it_and_publishes_nothing_after(
    ros: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    node = ros.node("cogtree_sim", spin=False)  # ticks are run by hand here
    robot = SimRobotNode.from_scenario(node, load_scenario("robee_bottle"), step_period_s=60.0)
    in_tick, release = threading.Event(), threading.Event()
    flush = robot._flush

    def slow_flush() -> None:
        in_tick.set()
        release.wait(10.0)
        flush()

    monkeypatch.setattr(robot, "_flush", slow_flush)
    robot._state_changed, robot._state_published_at = True, float("-inf")  # the tick publishes
    errors: list[BaseException] = []

    def run(target: Any) -> threading.Thread:
        def catching() -> None:
            try:
                target()
            except BaseException as error:  # e.g. rclpy's InvalidHandle from a destroyed topic
                errors.append(error)

        thread = threading.Thread(target=catching)
        thread.start()
        return thread

    tick = run(robot._tick)
    assert in_tick.wait(10.0)
    closing = run(robot.close)
    closing.join(0.2)
    assert closing.is_alive()  # close() waits for the tick under way
    release.set()
    tick.join(10.0)
    closing.join(10.0)
    assert not tick.is_alive() and not closing.is_alive()
    assert errors == []
    robot._tick()  # a timer callback that fires after close(): nothing to publish on, no error
    robot.close()  # twice does nothing
