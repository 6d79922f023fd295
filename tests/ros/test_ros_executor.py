"""RosExecutor against the simulated robot node, over real DDS (two participants per test)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from concurrent.futures import Future
from typing import Any

import pytest

from tests.ros.ros_extra import ROS_EXTRA

pytest.importorskip("rclpy", reason=ROS_EXTRA)

from cogtree_interfaces.action import ExecuteSkill
from rclpy.action import ActionServer, GoalResponse

from cogtree.knowledge.closing import Closeable
from cogtree.sim.ros_robot import SimRobotNode
from cogtree.skills.action_model.commands import Command, Feedback
from cogtree.skills.capabilities.calls import PreconditionReport, skill_call
from cogtree.skills.execution.controller import RunStatus, SkillRun
from cogtree.skills.planning.decomposition import SkillPlan
from cogtree.skills.ros.executor import RosExecutor
from cogtree.skills.ros.messages import command_of
from cogtree.skills.ros.protocol import topic
from cogtree.skills.ros.routes import CommandRoutes
from tests.ros.action_discovery import NewClients
from tests.ros.lost_acceptance import ForgetfulEnd

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

    ``ns`` are this test's namespaces of the scenario's robots, the default of both sides. An
    executor is returned once the robot sides serving its actions have found its clients (see
    :mod:`tests.ros.action_discovery`), so no acceptance is lost on the way.
    """

    def __init__(
        self, ros: Any, until: Callable[..., Any], robot_side: Callable[..., SimRobotNode]
    ) -> None:
        self.ros = ros
        self.until = until
        self.ns = ros.namespaces("robot1", "base1")
        self._robot_side = robot_side
        self._executors: list[RosExecutor] = []
        self._served: list[tuple[Any, str]] = []  # (the server's node, the action)

    def robot(self, **options: Any) -> SimRobotNode:
        """Start the robot side (``options``: :class:`~sim.ros_robot.SimRobotNode`'s)."""
        options.setdefault("namespaces", self.ns)
        robot = self._robot_side(SCENARIO, **options)
        for namespace in robot.namespaces.values():
            self.serving(robot.node, *(topic(namespace, a) for a in robot.routes.actions()))
        return robot

    def serving(self, node: Any, *actions: str) -> None:
        """Note that ``node`` serves ``actions``, for the executors made after."""
        self._served.extend((node, action) for action in actions)

    def executor(self, **options: Any) -> RosExecutor:
        """Make the host's executor (``options``: :class:`RosExecutor`'s)."""
        options.setdefault("robots", self.ns)
        new_clients = NewClients(self._served)
        node = self.ros.node("cogtree", spin=False)
        executor = RosExecutor(node, **options)
        self._executors.append(executor)
        self.ros.spin(node)
        targets = {
            topic(namespace, action)
            for namespace in executor.robots.values()
            for action in executor.routes.actions()
        }
        self.until(lambda: new_clients.found(targets), what="the robot side to find the executor")
        return executor

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
    executor = bench.executor()
    command = navigate("bedroom")
    future = executor.submit(command)
    bench.until(lambda: robot.goals_accepted == 1, what="the robot side to accept the goal")
    bench.until(lambda: robot.simulator.log, what="the command to start in the simulator")
    executor.cancel(command)
    assert future.cancelled()
    bench.until(lambda: robot.simulator.log[-1].cancelled, what="the simulator to cancel it")
    assert robot.simulator.log[-1].feedback is None
    assert robot.simulator.world.state.robots["robot1"].room == "hallway"
    assert result(executor.submit(navigate("kitchen"))).ok  # the robot goes on


def test_no_robot_side_fails_with_a_timeout_that_says_what_to_start(bench: ExecutorBench) -> None:
    feedback = result(bench.executor(accept_timeout_s=0.5).submit(navigate("kitchen")))
    assert not feedback.ok and feedback.code == "timeout"
    where = f"{bench.ns['robot1']}/execute_skill"
    assert f"no action server on {where} after 0.5 s" in feedback.message
    assert "cogtree sim-ros" in feedback.message


def test_a_robot_that_accepts_then_goes_silent_fails_the_skill_on_time(
    bench: ExecutorBench,
) -> None:
    bench.robot(stop_answering_after=1)
    executor = bench.executor(command_timeout_s=3.0)
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
    assert "accepted but not finished within 3 s" in outcome.message
    assert executor.in_flight == 0


def bridge(
    bench: ExecutorBench, answer: Callable[[Any], ExecuteSkill.Result], *, accept: bool = True
) -> None:
    """A hand-made robot bridge on robot1's action: accepts (or rejects) and answers."""
    node = bench.ros.node("bridge", spin=False)

    def execute(handle: Any) -> ExecuteSkill.Result:
        handle.abort()
        return answer(handle.request)

    action = f"{bench.ns['robot1']}/execute_skill"
    bench.serving(node, action)
    ActionServer(
        node,
        ExecuteSkill,
        action,
        execute_callback=execute,
        goal_callback=lambda goal: GoalResponse.ACCEPT if accept else GoalResponse.REJECT,
    )
    bench.ros.spin(node)


def test_a_rejected_goal_fails_the_command_at_once(bench: ExecutorBench) -> None:
    bridge(bench, lambda goal: ExecuteSkill.Result(), accept=False)
    feedback = result(bench.executor().submit(navigate("kitchen")))
    assert not feedback.ok
    assert f"{bench.ns['robot1']}/execute_skill rejected the goal" in feedback.message


def test_a_failure_code_outside_the_vocabulary_fails_the_goal_naming_it(
    bench: ExecutorBench,
) -> None:
    """A robot bridge answering with an unknown failure code: the goal fails and says so."""
    bridge(bench, lambda goal: ExecuteSkill.Result(outcome=1, failure_code="exploded"))
    feedback = result(bench.executor().submit(navigate("kitchen")))
    assert not feedback.ok and feedback.code is None
    assert feedback.message.startswith("navigate(target=kitchen): failure code 'exploded'")


def test_the_goal_carries_the_command_with_typed_arguments(bench: ExecutorBench) -> None:
    heard: list[Any] = []

    def answer(goal: Any) -> ExecuteSkill.Result:
        heard.append(goal)
        return ExecuteSkill.Result(outcome=1, failure_code="timeout", message="slow")

    bridge(bench, answer)
    command = Command(robot="robot1", skill="WAIT", name="wait", args={"seconds": 2.5})
    assert result(bench.executor().submit(command)).code == "timeout"
    [goal] = heard
    assert (goal.robot, goal.skill, goal.command) == ("robot1", "WAIT", "wait")
    [argument] = goal.arguments
    assert argument.name == "seconds" and argument.value.double_value == 2.5


def test_two_robots_in_two_namespaces_get_their_own_commands(bench: ExecutorBench) -> None:
    team = bench.ros.namespace("team")
    namespaces = {"robot1": f"{team}/r1", "base1": f"{team}/b1"}
    robot = bench.robot(namespaces=namespaces)
    executor = bench.executor(robots=namespaces)
    futures = [executor.submit(navigate("kitchen")), executor.submit(navigate("bedroom", "base1"))]
    assert [result(f).ok for f in futures] == [True, True]
    rooms = {name: pose.room for name, pose in robot.simulator.world.state.robots.items()}
    assert rooms == {"robot1": "kitchen", "base1": "bedroom"}


def test_a_goal_on_another_robots_namespace_fails_and_says_where_it_belongs(
    bench: ExecutorBench,
) -> None:
    bench.robot()
    robot1 = bench.ns["robot1"]
    executor = bench.executor(robots={"base1": robot1})  # misconfigured: base1 onto robot1's
    feedback = result(executor.submit(navigate("kitchen", "base1")))
    assert not feedback.ok
    where = f"goal for base1 arrived on {robot1}/execute_skill, which serves robot1"
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


def test_routes_send_navigation_to_its_own_action(bench: ExecutorBench) -> None:
    routes = CommandRoutes.model_validate({"commands": {"navigate": "navigate_skill"}})
    bench.robot(routes=routes)
    executor = bench.executor(routes=routes)
    bench.until(lambda: executor.servers_ready("robot1"), what="the robot side's actions")
    assert result(executor.submit(navigate("kitchen"))).ok
    # a robot side serving only the default action never hears the routed command
    unrouted = bench.executor(
        robots={"robot1": bench.ros.namespace("other")}, routes=routes, accept_timeout_s=0.5
    )
    feedback = result(unrouted.submit(navigate("kitchen")))
    assert "no action server on" in feedback.message and "/navigate_skill" in feedback.message


def test_the_robot_will_not_grasp_an_object_it_senses_hot(
    ros: Any, robot_side: Callable[..., SimRobotNode], until: Callable[..., Any]
) -> None:
    namespaces = ros.namespaces("robot1")
    robot = robot_side("hot_pan", namespaces=namespaces)
    new_clients = NewClients([(robot.node, f"{namespaces['robot1']}/execute_skill")])
    node = ros.node("cogtree", spin=False)
    with RosExecutor(node, robots=namespaces) as executor:
        ros.spin(node)
        until(new_clients.found, what="the robot side to find the executor")
        feedback = result(
            executor.submit(
                Command(
                    robot="robot1",
                    skill="PICK",
                    name="grasp",
                    args={"object": "frying_pan", "hand": "right"},
                )
            )
        )
    assert not feedback.ok and feedback.code == "unsafe_object"
    assert "senses that frying_pan is hot" in feedback.message
    assert robot.simulator.log == []  # nothing reached the simulator


def forgetful_robot(bench: ExecutorBench) -> ForgetfulEnd:
    """robot1's action, served by a robot whose acceptances never reach the host."""
    return ForgetfulEnd(bench.ros, ExecuteSkill, f"{bench.ns['robot1']}/execute_skill")


def test_a_goal_whose_acceptance_is_lost_times_out_and_is_cancelled_on_the_robot(
    bench: ExecutorBench, caplog: pytest.LogCaptureFixture
) -> None:
    robot = forgetful_robot(bench)
    executor = bench.executor(accept_timeout_s=1.0)
    feedback = result(executor.submit(navigate("kitchen")))
    assert not feedback.ok and feedback.code == "timeout"
    assert "neither accepted nor rejected the goal within 1 s" in feedback.message
    assert "it was cancelled on the robot" in feedback.message
    [goal] = robot.started_ids()  # the robot did run it
    bench.until(lambda: robot.stopped == [goal], what="the robot side to stop the goal")
    assert set(robot.cancels) == {goal}
    warning = f"navigate(target=kitchen) was lost or is late; cancelling goal {goal} on the robot"
    assert warning in caplog.text
    assert executor.in_flight == 0


def test_cancelling_a_goal_whose_acceptance_is_lost_cancels_that_goal_on_the_robot(
    bench: ExecutorBench,
) -> None:
    robot = forgetful_robot(bench)
    executor = bench.executor(accept_timeout_s=60.0)  # cancelled long before the time limit
    futures = {target: executor.submit(navigate(target)) for target in ("kitchen", "bedroom")}
    bench.until(lambda: len(robot.started) == 2, what="the robot side to run both goals")
    ids = {command_of(request).args["target"]: goal for goal, request in robot.started}
    executor.cancel(navigate("kitchen"))
    assert futures["kitchen"].cancelled() and not futures["bedroom"].done()
    bench.until(lambda: robot.stopped, what="the robot side to stop a goal")
    assert robot.stopped == [ids["kitchen"]]  # exactly that goal: the other runs on
    assert set(robot.cancels) == {ids["kitchen"]}


def test_closing_the_executor_cancels_a_goal_whose_acceptance_is_lost(
    bench: ExecutorBench,
) -> None:
    robot = forgetful_robot(bench)
    executor = bench.executor(accept_timeout_s=60.0)
    future = executor.submit(navigate("kitchen"))
    [goal] = bench.until(robot.started_ids, what="the robot side to run the goal")
    executor.close()
    assert result(future) == Feedback(ok=False, message="the ROS executor was closed")
    bench.until(lambda: robot.stopped == [goal], what="the robot side to stop the goal")
