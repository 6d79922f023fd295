"""``cogtree sim-ros`` as a separate process, driven from the test process over DDS."""

from __future__ import annotations

import time
from typing import Any

import pytest

from tests.ros.ros_extra import ROS_EXTRA

pytest.importorskip("rclpy", reason=ROS_EXTRA)

from cogtree.skills.action_model.commands import Command
from cogtree.skills.ros.belief import fetch_robot_state
from cogtree.skills.ros.executor import RosExecutor
from cogtree.trees.cli.main import main
from tests.cogtree_cli import interrupt, running


def test_sim_ros_serves_a_command_across_processes_and_stops_cleanly_on_sigint(ros: Any) -> None:
    robot1, base1 = ros.namespace("robot1"), ros.namespace("base1")
    with running(
        *("sim-ros", "robee_bottle", "--rate", "50"),
        *("--namespace", f"robot1={robot1}", "--namespace", f"base1={base1}"),
        *("--host-namespace", ros.namespace("cogtree")),
        env=ros.env,
    ) as process:
        host = ros.node("cogtree", spin=False)
        started = time.perf_counter()
        state = fetch_robot_state(host, robot1, timeout_s=60.0)  # the process is up
        print(f"\nsim-ros up and discovered after {time.perf_counter() - started:.2f} s")
        assert state.robot == "robot1"
        with RosExecutor(host, robots={"robot1": robot1, "base1": base1}) as executor:
            ros.spin(host)
            command = Command(
                robot="base1", skill="GOTO", name="navigate", args={"target": "kitchen"}
            )
            feedback = executor.submit(command).result(timeout=15.0)
        assert feedback.ok and feedback.message == "base1 is in kitchen"
        code, out, err = interrupt(process, timeout_s=15.0)
    assert code == 0, err
    assert f"ROS_DOMAIN_ID {ros.domain_id}: robot1 on {robot1}, base1 on {base1}" in out
    assert "stopped after 1 goals" in out


def test_sim_ros_reports_a_robot_the_scenario_lacks(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["sim-ros", "robee_bottle", "--namespace", "robot9=/r9"]) == 2
    assert "no robot robot9 in the world (robots: robot1, base1)" in capsys.readouterr().err
