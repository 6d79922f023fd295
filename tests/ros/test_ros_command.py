"""``cogtree ros`` options and parameters that cannot run: exit 2 with what to fix."""

from __future__ import annotations

from typing import Any

import pytest

from tests.ros.ros_extra import ROS_EXTRA

pytest.importorskip("rclpy", reason=ROS_EXTRA)

from cogtree.trees.cli.main import main


@pytest.mark.parametrize(
    ("options", "expected"),
    [
        (["--namespace", "cogtree"], "--namespace: 'cogtree' is not a ROS namespace"),
        (["--robot", "robot1=robot1"], "'robot1=robot1': 'robot1' is not a ROS namespace"),
        (["--rate", "0"], "rate_hz must be a positive number, got 0.0"),
        (
            ["--tree", "physical"],
            "unknown tree 'physical': use assistant, gated, react or MODULE:FUNCTION",
        ),
        (["--tree", "nowhere_at_all:build"], "nowhere_at_all"),
        (["--ros-args", "-p", "rate_hz:=fast"], "parameter rate_hz"),
        (["--ros-args", "-p", "robots:=[robot1=/r1,robot1=/r2]"], "is given twice"),
    ],
)
def test_bad_options_and_parameters_stop_with_what_to_fix(
    ros: Any, options: list[str], expected: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["ros", "--llm", "none", "--memory", "/nonexistent/never", *options]) == 2
    err = capsys.readouterr().err
    assert "cogtree ros: error:" in err
    assert expected in err
