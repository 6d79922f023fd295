"""RosExecutor against the simulated robot node, over real DDS (two participants per test)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from concurrent.futures import Future
from typing import Any

import pytest

pytest.importorskip("rclpy")

from std_msgs.msg import String

from knowledge.closing import Closeable
from sim.ros_robot import SimRobotNode
from skills.commands import Command, Feedback
from skills.controller import RunStatus, SkillRun
from skills.decomposition import SkillPlan
from skills.preconditions import PreconditionReport
from skills.ros.executor import RosExecutor
from skills.ros.protocol import CommandGoal, CommandStatus, decode, encode, reliable_qos
from skills.ros.routes import CommandRoutes
from skills.specs import skill_call

SCENARIO = "robee_bottle"  # robot1 (humanoid) and base1 (mobile base) in the hallway
RESULT_TIMEOUT_S = 15.0


def navigate(target: str, robot: str = "robot1") -> Command:
    return Command(robot=robot, skill="GOTO", name="navigate", args={"target": target})


def grasp(obj: str) -> Command:
    return Command(
        robot="robot1", skill="PICK", name="grasp", args={"object": obj, "hand": "right"}
    )


class ExecutorBench(Closeable):
    """The host's executors and the simulated robot side of ``SCENARIO``, each on a participant.

    ``ns`` are this test's namespaces of the scenario's robots, the default of both sides.
    """

    def __init__(
        self, ros: Any, until: Callable[..., Any], robot_side: Callable[..., SimRobotNode]
    ) -> None:
        self.ros = ros
        self.until = until
        self.ns = ros.namespaces("robot1", "base1")
        self._robot_side = robot_side
        self._executors: list[RosExecutor] = []

    def robot(self, **options: Any) -> SimRobotNode:
        """Start the robot side (``options``: :class:`~sim.ros_robot.SimRobotNode`'s)."""
        options.setdefault("namespaces", self.ns)
        return self._robot_side(SCENARIO, **options)

    def executor(self, **options: Any) -> RosExecutor:
        """Make the host's executor (``options``: :class:`RosExecutor`'s)."""
        options.setdefault("robots", self.ns)
        node = self.ros.node("cogtree", spin=False)
        self._executors.append(RosExecutor(node, **options))
        self.ros.spin(node)
        return self._executors[-1]

    def close(self) -> None:
        """Close every executor made here."""
        for executor in self._executors:
            executor.close()
        self._executors.clear()


@pytest.fixture
def bench(
    ros: Any, until: Callable[..., Any], robot_side: Callable[..., SimRobotNode]
) -> Iterator[ExecutorBench]:
    """This test's :class:`ExecutorBench`; its executors are closed after the test."""
    with ExecutorBench(ros, until, robot_side) as made:
        yield made


def result(future: Future[Feedback]) -> Feedback:
    return future.result(timeout=RESULT_TIMEOUT_S)


def test_a_command_succeeds_and_moves_the_simulated_robot(bench: ExecutorBench) -> None:
    robot = bench.robot()
    executor = bench.executor()
    feedback = result(executor.submit(navigate("kitchen")))
    assert feedback == Feedback(ok=True, message="robot1 is in kitchen")
    assert robot.simulator.world.state.robots["robot1"].room == "kitchen"
    assert executor.in_flight == 0


def test_a_failing_command_carries_its_code_and_reason(bench: ExecutorBench) -> None:
    bench.robot()
    feedback = result(bench.executor().submit(grasp("bottle")))
    assert feedback == Feedback(
        ok=False, code="object_not_visible", message="bottle is not in hallway"
    )


def test_cancel_stops_the_command_on_the_robot_side(bench: ExecutorBench) -> None:
    robot = bench.robot(step_period_s=0.2)  # hallway -> bedroom takes 4 ticks: 0.8 s
    status_topic = f"{bench.ns['robot1']}/command/status"
    [statuses] = bench.ros.spy(status_topic)
    executor = bench.executor()
    bench.until(  # the robot side's status writer knows the spy and the host
        lambda: robot.node.count_subscribers(status_topic) == 2, what="discovery"
    )
    command = navigate("bedroom")
    future = executor.submit(command)
    bench.until(lambda: robot.goals_accepted == 1, what="the robot side to accept the goal")
    executor.cancel(command)
    assert future.cancelled()
    bench.until(lambda: any('"cancelled"' in s for s in statuses), what="the cancelled status")
    record = robot.simulator.log[-1]
    assert record.cancelled and record.feedback is None
    assert robot.simulator.world.state.robots["robot1"].room == "hallway"
    assert result(executor.submit(navigate("kitchen"))).ok  # the robot goes on


def test_no_robot_side_fails_with_a_timeout_that_says_what_to_start(bench: ExecutorBench) -> None:
    feedback = result(bench.executor(accept_timeout_s=0.5).submit(navigate("kitchen")))
    assert not feedback.ok and feedback.code == "timeout"
    assert f"nobody subscribes to {bench.ns['robot1']}/command after 0.5 s" in feedback.message
    assert "cogtree sim-ros" in feedback.message


def test_a_robot_that_accepts_then_goes_silent_fails_the_skill_on_time(
    bench: ExecutorBench,
) -> None:
    bench.robot(stop_answering_after=1)
    executor = bench.executor(command_timeout_s=1.0)
    plan = SkillPlan(
        call=skill_call("GOTO", target="table_2"),
        preconditions=PreconditionReport(call=skill_call("GOTO", target="table_2"), checks=()),
        commands=(navigate("bedroom"), navigate("table_2")),
    )
    run = SkillRun(plan, executor)
    bench.until(lambda: run.step() is not RunStatus.RUNNING, what="the skill to end")
    outcome = run.outcome
    assert outcome is not None and outcome.status is RunStatus.FAILED
    assert outcome.code == "timeout"
    assert outcome.failed_command == navigate("table_2")  # the first command succeeded
    assert "accepted but not finished within 1 s" in outcome.message
    assert executor.in_flight == 0


def test_malformed_messages_are_dropped_and_both_sides_keep_working(
    bench: ExecutorBench, caplog: pytest.LogCaptureFixture
) -> None:
    bench.robot()
    executor = bench.executor()
    vandal = bench.ros.node("vandal")
    goals = f"{bench.ns['robot1']}/command"
    topics = [goals, f"{goals}/status", f"{goals}/cancel"]
    publishers = [vandal.create_publisher(String, name, reliable_qos()) for name in topics]
    bench.until(lambda: all(p.get_subscription_count() > 0 for p in publishers), what="discovery")
    for publisher in publishers:
        for junk in ("not json", "[]", '{"goal_id": ""}'):
            publisher.publish(String(data=junk))
    bench.until(lambda: caplog.text.count("malformed") >= 9, what="nine malformed-message warnings")
    assert f"malformed CommandGoal on {goals}:" in caplog.text
    assert f"malformed CommandStatus on {goals}/status:" in caplog.text
    assert result(executor.submit(navigate("kitchen"))).ok


def test_a_malformed_status_of_a_goal_in_flight_fails_that_goal(bench: ExecutorBench) -> None:
    """A robot bridge answering with an unknown failure code: the goal fails at once."""
    bridge = bench.ros.node("bad_bridge", spin=False)
    goals = f"{bench.ns['robot1']}/command"
    statuses = bridge.create_publisher(String, f"{goals}/status", reliable_qos())

    def answer(message: Any) -> None:
        goal = decode(CommandGoal, message.data)
        late = CommandStatus(goal_id="f" * 32, state="succeeded")  # unknown goal: ignored
        statuses.publish(String(data=encode(late)))
        for state in ("accepted", "feedback"):
            statuses.publish(String(data=encode(CommandStatus(goal_id=goal.goal_id, state=state))))
        bad = f'{{"goal_id": "{goal.goal_id}", "state": "failed", "code": "exploded"}}'
        statuses.publish(String(data=bad))

    bridge.create_subscription(String, goals, answer, reliable_qos())
    bench.ros.spin(bridge)
    executor = bench.executor()
    bench.until(lambda: statuses.get_subscription_count() > 0, what="the bridge to hear the host")
    feedback = result(executor.submit(navigate("kitchen")))
    assert not feedback.ok
    assert feedback.message.startswith("navigate(target=kitchen): malformed CommandStatus")
    assert "field `code`" in feedback.message and "exploded" in feedback.message


def test_two_robots_in_two_namespaces_get_their_own_commands(bench: ExecutorBench) -> None:
    team = bench.ros.namespace("team")
    namespaces = {"robot1": f"{team}/r1", "base1": f"{team}/b1"}
    robot = bench.robot(namespaces=namespaces)
    r1_goals, b1_goals = bench.ros.spy(f"{team}/r1/command", f"{team}/b1/command")
    executor = bench.executor(robots=namespaces)
    for name in namespaces:  # the robot side and the spy hear each goal topic
        bench.until(lambda name=name: executor.subscribers(name) == 2, what=f"{name}'s subscribers")
    futures = [executor.submit(navigate("kitchen")), executor.submit(navigate("bedroom", "base1"))]
    assert [result(f).ok for f in futures] == [True, True]
    rooms = {name: pose.room for name, pose in robot.simulator.world.state.robots.items()}
    assert rooms == {"robot1": "kitchen", "base1": "bedroom"}
    assert [decode(CommandGoal, g).command.robot for g in r1_goals] == ["robot1"]
    assert [decode(CommandGoal, g).command.robot for g in b1_goals] == ["base1"]


def test_a_goal_on_another_robots_namespace_fails_and_says_where_it_belongs(
    bench: ExecutorBench,
) -> None:
    bench.robot()
    robot1 = bench.ns["robot1"]
    executor = bench.executor(robots={"base1": robot1})  # misconfigured: base1 onto robot1's
    feedback = result(executor.submit(navigate("kitchen", "base1")))
    assert not feedback.ok
    where = f"goal for base1 arrived on {robot1}/command, which serves robot1"
    assert where in feedback.message


def test_a_command_for_a_robot_the_executor_was_not_given_fails_at_once_saying_how_to_add_it(
    bench: ExecutorBench,
) -> None:
    robot1 = bench.ns["robot1"]
    executor = bench.executor(robots={"robot1": robot1})
    future = executor.submit(navigate("kitchen", "base1"))
    assert future.done() and executor.in_flight == 0  # no waiting for a robot side
    feedback = future.result()
    assert not feedback.ok
    assert "no namespace is configured for base1 (the host's robots: robot1)" in feedback.message
    assert f"`cogtree ros --robot robot1={robot1} --robot base1=NS`" in feedback.message
    assert bench.executor(robots=None).namespace_of("base1") == "/base1"  # not given: the default


def test_routes_send_navigation_to_its_own_topic(bench: ExecutorBench) -> None:
    routes = CommandRoutes.model_validate({"commands": {"navigate": "navigate_to_pose"}})
    bench.robot(routes=routes)
    robot1 = bench.ns["robot1"]
    navigation, other = bench.ros.spy(f"{robot1}/navigate_to_pose", f"{robot1}/command")
    executor = bench.executor(routes=routes)
    bench.until(lambda: executor.subscribers("robot1") == 2, what="the robot side and the spies")
    assert result(executor.submit(navigate("kitchen"))).ok
    result(executor.submit(grasp("mug")))
    bench.until(lambda: navigation and other, what="the spies' copies of both goals")
    assert [decode(CommandGoal, g).command.name for g in navigation] == ["navigate"]
    assert [decode(CommandGoal, g).command.name for g in other] == ["grasp"]
