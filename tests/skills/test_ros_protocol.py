"""The ROS 2 names and routes: plain Python, no rclpy needed."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from cogtree.skills.ros.protocol import parse_robot_namespaces, robot_namespaces, topic
from cogtree.skills.ros.routes import CommandRoutes, RoutesError, load_routes


def test_topics_join_a_namespace_and_a_relative_name() -> None:
    assert topic("/robot1", "execute_skill") == "/robot1/execute_skill"
    assert topic("/team/r1", "nav/go") == "/team/r1/nav/go"
    assert topic("/", "people/delegate") == "/people/delegate"
    for namespace in ("robot1", "/1robot", "/a//b", "/a/"):
        with pytest.raises(ValueError, match="is not a ROS namespace: write it absolute"):
            topic(namespace, "command")
    with pytest.raises(ValueError, match="is not a relative ROS topic name"):
        topic("/robot1", "/command")


def test_robot_namespaces_default_to_the_robot_name_and_reject_unknown_robots() -> None:
    assert parse_robot_namespaces(["robot1=/r1", "base1"]) == {"robot1": "/r1", "base1": "/base1"}
    assert robot_namespaces(["robot1", "base1"], {"robot1": "/r1"}) == {
        "robot1": "/r1",
        "base1": "/base1",
    }
    with pytest.raises(ValueError, match=r"no robot ghost in the world \(robots: robot1\)"):
        robot_namespaces(["robot1"], {"ghost": "/g"})
    for item, message in (
        ("=/r1", "expected ROBOT=NAMESPACE"),
        ("robot1=r1", "'robot1=r1': 'r1' is not a ROS namespace"),
    ):
        with pytest.raises(ValueError, match=message):
            parse_robot_namespaces([item])
    with pytest.raises(ValueError, match="robot 'robot1' is given twice"):
        parse_robot_namespaces(["robot1", "robot1=/x"])


def test_routes_send_every_command_to_execute_skill_unless_told_otherwise(
    tmp_path: Path,
) -> None:
    assert CommandRoutes().route("navigate").action == "execute_skill"
    path = tmp_path / "routes.yaml"
    path.write_text(
        "default: {action: base_cmd, timeout_s: 30}\n"
        "commands:\n"
        "  navigate: {action: navigate_to_pose, timeout_s: 120}\n"
        "  grasp: manipulation\n",
        encoding="utf-8",
    )
    routes = load_routes(path)
    assert routes.route("navigate").timeout_s == 120
    assert routes.route("grasp").action == "manipulation"
    assert routes.route("grasp").timeout_s is None
    assert routes.route("speak").action == "base_cmd"
    assert routes.actions() == ["base_cmd", "navigate_to_pose", "manipulation"]


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("commands: {fly: x}", "field `commands.fly.[key]`"),
        ("commands: {navigate: /abs}", "is not a relative ROS topic name"),
        ("commands: {navigate: observations}", "is a topic of the robot"),
        ("commands: {navigate: {action: nav, timeout_s: 0}}", "greater than 0"),
        ("defaults: command", "field `defaults`: Extra inputs are not permitted"),
        ("commands: [", "malformed YAML"),
    ],
)
def test_a_bad_routes_file_names_the_file_and_the_problem(
    tmp_path: Path, text: str, problem: str
) -> None:
    path = tmp_path / "routes.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(RoutesError) as raised:
        load_routes(path)
    assert str(raised.value).startswith(f"{path}: ")
    assert problem in str(raised.value)


def test_a_missing_routes_file_says_it_cannot_be_read(tmp_path: Path) -> None:
    with pytest.raises(RoutesError, match="cannot read it: No such file"):
        load_routes(tmp_path / "absent.yaml")


def test_the_core_import_path_works_without_rclpy() -> None:
    """The ros extra is optional: the protocol, the routes and the CLI never import rclpy."""
    code = (
        "import sys; import cogtree.skills.ros.protocol, cogtree.skills.ros.routes; "
        "import cogtree.trees.cli.main; "
        "print('rclpy' in sys.modules)"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "False"
