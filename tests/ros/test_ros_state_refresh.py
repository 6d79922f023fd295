"""The robot side's latched state is its current belief, so a host that starts late knows it."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from tests.ros.ros_extra import ROS_EXTRA

pytest.importorskip("rclpy", reason=ROS_EXTRA)

from cogtree.skills.action_model.commands import Command
from cogtree.skills.ros.belief import belief_from_state, fetch_robot_state
from cogtree.skills.ros.executor import RosExecutor
from cogtree.skills.ros.messages import time_of
from cogtree.skills.ros.protocol import topic
from tests.ros.action_discovery import NewClients


def test_a_host_that_starts_after_the_robot_moved_gets_the_robots_current_belief(
    ros: Any, robot_side: Callable[..., Any], until: Callable[..., Any]
) -> None:
    robots = ros.namespaces("robot1", "base1")
    robot = robot_side("robee_bottle", namespaces=robots)
    served = [
        (robot.node, topic(namespace, action))
        for namespace in robot.namespaces.values()
        for action in robot.routes.actions()
    ]
    new_clients = NewClients(served)  # made before the host's clients (see action_discovery)
    commander = ros.node("cogtree_commander", spin=False)
    with RosExecutor(commander, robots=robots) as executor:
        ros.spin(commander)
        targets = {
            topic(namespace, action)
            for namespace in executor.robots.values()
            for action in executor.routes.actions()
        }
        until(lambda: new_clients.found(targets), what="the robot side to find the host")
        for command in (
            Command(robot="robot1", skill="GOTO", name="navigate", args={"target": "kitchen"}),
            Command(robot="robot1", skill="LOOK", name="observe"),
        ):
            assert executor.submit(command).result(timeout=15.0).ok
    now = robot.simulator.world.now()  # the simulator is idle: its clock stands

    def current_state() -> Any:
        late_host = ros.node("cogtree_late", spin=False)  # a host that starts only now
        state = fetch_robot_state(late_host, robots["robot1"], timeout_s=5.0)
        return state if time_of(state.world_time) == now else None

    state = until(current_state, timeout_s=10.0, what="the state after the commands")
    with belief_from_state(state) as scene:
        assert [pose.room for pose in scene.robot_state("robot1")] == ["kitchen"]
        located = scene.locate_object("bottle")  # looked: the bottle is no longer on table_1
        assert located is None or located.support != "table_1"
