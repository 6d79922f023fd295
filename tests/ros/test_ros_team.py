"""A two-robot team over ROS 2: each plan step reaches its assignee's own namespace.

The host runs in this process with the scenario's oracle as planner (so the plan has steps for
both robots); the simulated robots serve the team under namespaces that are not the default
``/<robot>``. The simulator's log says which robot ran what.
"""

from __future__ import annotations

import time
from typing import Any

import pytest

from tests.ros.ros_extra import ROS_EXTRA

pytest.importorskip("rclpy", reason=ROS_EXTRA)

from cogtree.evaluation.scenarios.scenario_run import oracle_client
from cogtree.sim.scenario import load_scenario
from cogtree.trees.assistant_session import AssistantSession
from cogtree.trees.ros.host import TreeHooks
from tests.ros.host_session import HostBench

SCENARIO = "parcel_into_base"
"""robot1 (a humanoid) loads the parcel into base1's locker; base1 drives it to reception."""


@pytest.fixture
def team(ros: Any) -> dict[str, str]:
    """The team's namespaces, under a namespace of this test's own (not ``/<robot>``)."""
    root = ros.namespace("team")
    return {"robot1": f"{root}/humanoid", "base1": f"{root}/base"}


def test_each_step_reaches_its_robots_namespace_and_the_goal_is_reached(
    host_bench: HostBench, team: dict[str, str]
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
        for robot in team:
            host_bench.until(lambda robot=robot: serving.executor.servers_ready(robot), what=robot)
        started = time.perf_counter()
        reply = user.say(scenario.request.text)
        print(f"\nteam turn over ROS 2: {time.perf_counter() - started:.2f} s; reply: {reply}")
    assert reply and "could not" not in reply, reply  # the task's reply, said on speech
    assert scenario.goal.unmet(robots.simulator.world) == []
    # each namespace's server runs only its own robot's goals (another robot's are aborted)
    ran = {
        robot: [r.command.name for r in robots.simulator.log if r.command.robot == robot]
        for robot in team
    }
    assert set(ran["base1"]) == {"navigate"}
    assert {"grasp", "open", "put"} <= set(ran["robot1"])
    assert robots.goals_accepted == len(robots.simulator.log)
    belief = handles["scene_graph"]  # base1's observations came on its own namespace
    assert {state.id: state.room for state in belief.robot_state()} == {
        "robot1": "open_office",
        "base1": "reception",
    }


def test_a_plan_for_a_robot_the_host_was_not_given_is_rejected_before_anything_runs(
    host_bench: HostBench,
    team: dict[str, str],
    caplog: pytest.LogCaptureFixture,
) -> None:
    scenario = load_scenario(SCENARIO)
    robots = host_bench.robot(SCENARIO, namespaces=team)
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
    assert robots.goals_accepted == 0 and robots.simulator.log == []
    assert serving.turns == 1
