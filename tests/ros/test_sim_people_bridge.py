"""The simulated people on the host's people topics (the robot side, over DDS)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest

pytest.importorskip("rclpy")

from std_msgs.msg import String

from sim.ros_robot import SimRobotNode
from sim.scenario import load_scenario
from skills.ros_protocol import (
    PersonAnswer,
    PersonCancel,
    PersonRequest,
    decode,
    encode,
    reliable_qos,
)


class Host:
    """The host's end of the people topics, by hand."""

    def __init__(self, node: Any, robot: SimRobotNode, until: Callable[..., Any]) -> None:
        self.answers: list[PersonAnswer] = []
        qos = reliable_qos()
        people = f"{robot.people.host_namespace}/people"
        self._requests = node.create_publisher(String, f"{people}/request", qos)
        self._cancels = node.create_publisher(String, f"{people}/cancel", qos)
        subscription = node.create_subscription(
            String,
            f"{people}/answer",
            lambda m: self.answers.append(decode(PersonAnswer, m.data)),
            qos,
        )
        until(
            lambda: (
                self._requests.get_subscription_count() > 0
                and self._cancels.get_subscription_count() > 0
                and subscription.get_publisher_count() > 0
                and robot.node.count_subscribers(f"{people}/answer") > 0
            ),
            what="the people side and the host to discover each other",
        )

    def ask(self, request_id: str, person: str, ability: str) -> None:
        request = PersonRequest(request_id=request_id, person=person, ability=ability)
        self._requests.publish(String(data=encode(request)))

    def withdraw(self, request_id: str) -> None:
        self._cancels.publish(String(data=encode(PersonCancel(request_id=request_id))))

    def answer_to(self, request_id: str) -> PersonAnswer | None:
        return next((a for a in self.answers if a.request_id == request_id), None)


@pytest.fixture
def people_side(ros: Any) -> Iterator[Callable[..., SimRobotNode]]:
    made: list[SimRobotNode] = []

    def start(step_period_s: float) -> SimRobotNode:
        node = ros.node("cogtree_sim")
        robot = SimRobotNode.from_scenario(
            node,
            load_scenario("robee_bottle"),
            namespaces={"robot1": ros.namespace("robot1"), "base1": ros.namespace("base1")},
            host_namespace=ros.namespace("cogtree"),
            step_period_s=step_period_s,
        )
        made.append(robot)
        return robot

    yield start
    for robot in made:
        robot.close()


def test_a_person_does_the_task_and_a_refusal_comes_at_once(
    ros: Any, people_side: Callable[..., SimRobotNode], until: Callable[..., Any]
) -> None:
    robot = people_side(0.02)
    host = Host(ros.node("cogtree"), robot, until)
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
    ros: Any, people_side: Callable[..., SimRobotNode], until: Callable[..., Any]
) -> None:
    robot = people_side(1.0)  # slow ticks: the withdrawal arrives long before anna is done
    host = Host(ros.node("cogtree"), robot, until)
    host.ask("r1", "anna", "sign")
    until(lambda: robot.people.pending == 1, what="anna to start")
    host.withdraw("r1")
    until(lambda: robot.people.pending == 0, what="the withdrawal")
    assert robot.simulator.people.working == []
    host.ask("r2", "alex", "sign")  # answered at once, after anything owed for r1
    until(lambda: host.answer_to("r2"), what="alex's answer")
    assert host.answer_to("r1") is None
