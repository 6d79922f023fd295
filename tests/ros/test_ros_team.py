"""A two-robot team over ROS 2: each plan step reaches its assignee's own namespace.

The host runs in this process with the scenario's oracle as planner (so the plan has steps for
both robots); the simulated robots serve the team under namespaces that are not the default
``/<robot>``. A spy participant listens on each robot's ``NS/command``.
"""

from __future__ import annotations

import time
from typing import Any

import pytest

pytest.importorskip("rclpy")

from sim.scenario import load_scenario
from skills.ros.protocol import COMMAND_TOPIC, CommandGoal, decode, topic
from tests.ros.host_session import HostBench
from trees.assistant_session import AssistantSession
from trees.evaluation.scenario_run import oracle_client
from trees.ros.host import TreeHooks

SCENARIO = "parcel_into_base"
"""robot1 (a humanoid) loads the parcel into base1's locker; base1 drives it to reception."""


@pytest.fixture
def team(ros: Any) -> dict[str, str]:
    """The team's namespaces, under a namespace of this test's own (not ``/<robot>``)."""
    root = ros.namespace("team")
    return {"robot1": f"{root}/humanoid", "base1": f"{root}/base"}


@pytest.fixture
def commands(ros: Any, team: dict[str, str]) -> dict[str, list[str]]:
    """The goals heard on each robot's ``NS/command``, by robot (a spy participant)."""
    heard = ros.spy(*(topic(namespace, COMMAND_TOPIC) for namespace in team.values()))
    return dict(zip(team, heard, strict=True))


def goals(payloads: list[str]) -> list[CommandGoal]:
    """The goals in a spy's payloads."""
    return [decode(CommandGoal, payload) for payload in payloads]


def test_each_step_reaches_its_robots_namespace_and_the_goal_is_reached(
    host_bench: HostBench, team: dict[str, str], commands: dict[str, list[str]]
) -> None:
    scenario = load_scenario(SCENARIO)
    robots = host_bench.robot(SCENARIO, namespaces=team)
    handles: dict[str, Any] = {}
    with oracle_client(scenario) as planner:
        open_assistant = host_bench.assistant(planner, speaker=scenario.request.speaker)

        def open_session(hooks: TreeHooks) -> AssistantSession:
            handles.update(hooks.handles)
            return open_assistant(hooks)

        serving, user = host_bench.serve(open_session, robots=team)
        for robot in team:  # the spy hears every goal: the robot side and it are both matched
            host_bench.until(
                lambda robot=robot: serving.executor.subscribers(robot) == 2, what=robot
            )
        started = time.perf_counter()
        reply = user.say(scenario.request.text)
        print(f"\nteam turn over ROS 2: {time.perf_counter() - started:.2f} s; reply: {reply}")
    assert reply and "could not" not in reply, reply  # the task's reply, said on speech
    assert scenario.goal.unmet(robots.simulator.world) == []
    sent = {robot: goals(payloads) for robot, payloads in commands.items()}
    for robot, robot_goals in sent.items():
        assert robot_goals, f"no command reached {team[robot]}/command"
        assert {goal.command.robot for goal in robot_goals} == {robot}, robot_goals
    assert {goal.command.name for goal in sent["base1"]} == {"navigate"}
    assert {"grasp", "open", "put"} <= {goal.command.name for goal in sent["robot1"]}
    assert robots.goals_accepted == sum(len(robot_goals) for robot_goals in sent.values())
    belief = handles["scene_graph"]  # base1's observations came on its own namespace
    assert {state.id: state.room for state in belief.robot_state()} == {
        "robot1": "open_office",
        "base1": "reception",
    }


def test_a_plan_for_a_robot_the_host_was_not_given_is_rejected_before_anything_runs(
    host_bench: HostBench,
    team: dict[str, str],
    commands: dict[str, list[str]],
    caplog: pytest.LogCaptureFixture,
) -> None:
    scenario = load_scenario(SCENARIO)
    host_bench.robot(SCENARIO, namespaces=team)
    with oracle_client(scenario) as planner:
        serving, user = host_bench.serve(
            host_bench.assistant(planner, speaker=scenario.request.speaker),
            robots={"robot1": team["robot1"]},
        )
        reply = user.say(scenario.request.text)
    assert "robots the host has no namespace for: base1" in caplog.text  # said at start
    assert "give each with --robot NAME=NS" in caplog.text
    # the plan names base1, which the host cannot command: the dry run rejects it, so the
    # humanoid does not do its half for nothing, and no step is handed to another robot
    assert "'base1' is assigned, but the team is robot1" in reply, reply
    assert "Nothing was done" in reply
    assert commands["robot1"] == [] and commands["base1"] == []
    assert serving.turns == 1
