"""The simulated people on the host's people topics (the robot side, over DDS)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

pytest.importorskip("rclpy")

from sim.ros_robot import SimRobotNode
from skills.ros.protocol import PersonAnswer
from tests.ros.people_topics import HostEnd


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


def test_a_person_does_the_task_and_a_refusal_comes_at_once(
    ros: Any, people_side: Callable[[float], SimRobotNode], until: Callable[..., Any]
) -> None:
    robot = people_side(0.02)
    host = HostEnd(ros, until, robot)
    host.ask("r1", "anna", "sign")  # anna, in the kitchen, can sign
    host.ask("r2", "alex", "sign")  # alex cannot
    host.ask("r3", "nobody", "sign")
    done = until(lambda: host.answer_to("r1"), what="anna's answer")
    assert done == PersonAnswer(request_id="r1", ok=True, message="anna did sign")
    assert robot.simulator.world.tick > 0  # people work in simulated time
    refused = until(lambda: host.answer_to("r2"), what="alex's answer")
    assert not refused.ok and refused.code == "person_refused"
    assert "alex cannot sign" in refused.message
    unknown = until(lambda: host.answer_to("r3"), what="the answer about nobody")
    assert not unknown.ok and "no person 'nobody'" in unknown.message


def test_a_withdrawn_request_frees_the_person_and_gets_no_answer(
    ros: Any, people_side: Callable[[float], SimRobotNode], until: Callable[..., Any]
) -> None:
    robot = people_side(1.0)  # slow ticks: the withdrawal arrives long before anna is done
    host = HostEnd(ros, until, robot)
    host.ask("r1", "anna", "sign")
    until(lambda: robot.people.pending == 1, what="anna to start")
    host.withdraw("r1")
    until(lambda: robot.people.pending == 0, what="the withdrawal")
    assert robot.simulator.people.working == []
    host.ask("r2", "alex", "sign")  # answered at once, after anything owed for r1
    until(lambda: host.answer_to("r2"), what="alex's answer")
    assert host.answer_to("r1") is None
