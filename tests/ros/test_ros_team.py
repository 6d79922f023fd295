"""A two-robot team over ROS 2: each plan step reaches its assignee's own namespace.

The host runs in this process with the scenario's oracle as planner (so the plan has steps for
both robots); the simulated robots serve the team under namespaces that are not the default
``/<robot>``. A spy participant listens on each robot's ``NS/command``.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import pytest

pytest.importorskip("rclpy")

from std_msgs.msg import String

from sim.ros_robot import SimRobotNode
from sim.scenario import load_scenario
from skills.ros_protocol import COMMAND_TOPIC, CommandGoal, decode, reliable_qos, topic
from tests.ros.host_session import assistant, start
from tests.ros.ros_user import User
from trees.assistant_session import AssistantSession
from trees.ros_host import RosHost, TreeHooks
from trees.scenario_run import oracle_client

SCENARIO = "parcel_into_base"
"""robot1 (a humanoid) loads the parcel into base1's locker; base1 drives it to reception."""


@pytest.fixture
def team(ros: Any) -> dict[str, str]:
    """The team's namespaces, under a namespace of this test's own (not ``/<robot>``)."""
    root = ros.namespace("team")
    return {"robot1": f"{root}/humanoid", "base1": f"{root}/base"}


@pytest.fixture
def commands(ros: Any, team: dict[str, str]) -> dict[str, list[CommandGoal]]:
    """The goals heard on each robot's ``NS/command``, by robot (a spy participant)."""
    heard: dict[str, list[CommandGoal]] = {robot: [] for robot in team}
    spy = ros.node("spy", spin=False)
    for robot, namespace in team.items():
        spy.create_subscription(
            String,
            topic(namespace, COMMAND_TOPIC),
            lambda message, robot=robot: heard[robot].append(decode(CommandGoal, message.data)),
            reliable_qos(),
        )
    ros.spin(spy)
    return heard


def test_each_step_reaches_its_robots_namespace_and_the_goal_is_reached(
    ros: Any,
    host: Callable[..., RosHost],
    robot_side: Callable[..., SimRobotNode],
    session_parts: dict[str, Any],
    team: dict[str, str],
    commands: dict[str, list[CommandGoal]],
    until: Callable[..., Any],
) -> None:
    scenario = load_scenario(SCENARIO)
    robots = robot_side(SCENARIO, namespaces=team)
    handles: dict[str, Any] = {}
    with oracle_client(scenario) as planner:
        open_assistant = assistant(session_parts, planner, speaker=scenario.request.speaker)

        def open_session(hooks: TreeHooks) -> AssistantSession:
            handles.update(hooks.handles)
            return open_assistant(hooks)

        serving = host(open_session, robots=team)
        user = User(ros, until)
        start(serving, until)
        for robot in team:  # the spy hears every goal: the robot side and it are both matched
            until(lambda robot=robot: serving.executor.subscribers(robot) == 2, what=robot)
        started = time.perf_counter()
        reply = user.say(scenario.request.text)
        print(f"\nteam turn over ROS 2: {time.perf_counter() - started:.2f} s; reply: {reply}")
    assert reply and "could not" not in reply, reply  # the task's reply, said on speech
    assert scenario.goal.unmet(robots.simulator.world) == []
    for robot, goals in commands.items():
        assert goals, f"no command reached {team[robot]}/command"
        assert {goal.command.robot for goal in goals} == {robot}, goals
    assert {goal.command.name for goal in commands["base1"]} == {"navigate"}
    assert {"grasp", "open", "put"} <= {goal.command.name for goal in commands["robot1"]}
    assert robots.goals_accepted == sum(len(goals) for goals in commands.values())
    belief = handles["scene_graph"]  # base1's observations came on its own namespace
    assert {state.id: state.room for state in belief.robot_state()} == {
        "robot1": "open_office",
        "base1": "reception",
    }


def test_a_plan_for_a_robot_the_host_was_not_given_is_rejected_before_anything_runs(
    ros: Any,
    host: Callable[..., RosHost],
    robot_side: Callable[..., SimRobotNode],
    session_parts: dict[str, Any],
    team: dict[str, str],
    commands: dict[str, list[CommandGoal]],
    until: Callable[..., Any],
    caplog: pytest.LogCaptureFixture,
) -> None:
    scenario = load_scenario(SCENARIO)
    robot_side(SCENARIO, namespaces=team)
    with oracle_client(scenario) as planner:
        serving = host(
            assistant(session_parts, planner, speaker=scenario.request.speaker),
            robots={"robot1": team["robot1"]},
        )
        user = User(ros, until)
        start(serving, until)
        reply = user.say(scenario.request.text)
    assert "robots the host has no namespace for: base1" in caplog.text  # said at start
    assert "give each with --robot NAME=NS" in caplog.text
    # the plan names base1, which the host cannot command: the dry run rejects it, so the
    # humanoid does not do its half for nothing, and no step is handed to another robot
    assert "'base1' is assigned, but the team is robot1" in reply, reply
    assert "Nothing was done" in reply
    assert commands["robot1"] == [] and commands["base1"] == []
    assert serving.turns == 1
