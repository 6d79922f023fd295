"""The simulated people serving the host's people/delegate action (the robot side, over DDS)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from tests.ros.ros_extra import ROS_EXTRA

pytest.importorskip("rclpy", reason=ROS_EXTRA)

from cogtree.sim.ros_robot import SimRobotNode
from cogtree.skills.execution.human_channel import HumanRequest
from cogtree.skills.ros.people import RosPeopleChannel

RESULT_TIMEOUT_S = 15.0


@pytest.fixture
def people_side(
    ros: Any, robot_side: Callable[..., SimRobotNode]
) -> Callable[[float], SimRobotNode]:
    """Start robee_bottle's robot side with its people on this test's host namespace."""

    def start(step_period_s: float) -> SimRobotNode:
        return robot_side(
            "robee_bottle",
            namespaces=ros.namespaces("robot1", "base1"),
            host_namespace=ros.namespace("cogtree"),
            step_period_s=step_period_s,
        )

    return start


def host_channel(ros: Any) -> RosPeopleChannel:
    """The host's channel in this test's host namespace."""
    node = ros.node("cogtree", spin=False, namespace=ros.namespace("cogtree"))
    channel = RosPeopleChannel(node)
    ros.spin(node)
    return channel


def test_a_person_does_the_task_and_a_refusal_comes_at_once(
    ros: Any, people_side: Callable[[float], SimRobotNode]
) -> None:
    robot = people_side(0.02)
    with host_channel(ros) as people:
        done = people.delegate("anna", HumanRequest(ability="sign"))  # anna can sign
        refused = people.delegate("alex", HumanRequest(ability="sign"))  # alex cannot
        unknown = people.delegate("nobody", HumanRequest(ability="sign"))
        assert done.result(timeout=RESULT_TIMEOUT_S).message == "anna did sign"
        assert robot.simulator.world.tick > 0  # people work in simulated time
        no = refused.result(timeout=RESULT_TIMEOUT_S)
        assert not no.ok and no.code == "person_refused" and "alex cannot sign" in no.message
        absent = unknown.result(timeout=RESULT_TIMEOUT_S)
        assert not absent.ok and "no person 'nobody'" in absent.message


def test_a_withdrawn_request_frees_the_person(
    ros: Any, people_side: Callable[[float], SimRobotNode], until: Callable[..., Any]
) -> None:
    robot = people_side(1.0)  # slow ticks: the withdrawal arrives long before anna is done
    with host_channel(ros) as people:
        future = people.delegate("anna", HumanRequest(ability="sign"))
        until(lambda: robot.people.pending == 1, what="anna to start")
        assert people.cancel(future)
        until(lambda: robot.people.pending == 0, what="the withdrawal")
        assert robot.simulator.people.working == []
        refused = people.delegate("alex", HumanRequest(ability="sign"))
        assert refused.result(timeout=RESULT_TIMEOUT_S).code == "person_refused"
