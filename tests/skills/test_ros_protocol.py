"""The ROS 2 payloads, names and routes: plain Python, no rclpy needed."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from skills.commands import Command
from skills.ros.protocol import (
    CommandGoal,
    CommandStatus,
    ObservationBatch,
    ProtocolError,
    decode,
    encode,
    new_id,
    parse_robot_namespaces,
    robot_namespaces,
    topic,
)
from skills.ros.routes import CommandRoutes, RoutesError, load_routes


def test_a_goal_survives_its_json_round_trip() -> None:
    command = Command(robot="robot1", skill="PICK", name="grasp", args={"object": "cup"})
    goal = CommandGoal(goal_id=new_id(), command=command, sent_at=1.5)
    assert decode(CommandGoal, encode(goal)) == goal
    assert len(goal.goal_id) == 32 and goal.goal_id != new_id()


@pytest.mark.parametrize(
    ("data", "problem"),
    [
        ("not json", "field `<root>`: Invalid JSON"),
        ("[1]", "field `<root>`: Input should be an object"),
        ('{"goal_id": "g", "state": "done"}', "field `state`: Input should be 'accepted'"),
        ('{"goal_id": "g", "state": "failed", "code": "oops"}', "field `code`"),
        ('{"state": "failed"}', "field `goal_id`: Field required"),
    ],
)
def test_a_malformed_payload_names_the_model_the_topic_and_the_field(
    data: str, problem: str
) -> None:
    with pytest.raises(ProtocolError) as raised:
        decode(CommandStatus, data, topic="/robot1/command/status")
    assert str(raised.value).startswith("malformed CommandStatus on /robot1/command/status: ")
    assert problem in str(raised.value)


def test_unknown_fields_from_a_newer_peer_are_ignored() -> None:
    status = decode(CommandStatus, '{"goal_id": "g", "state": "accepted", "eta_s": 3}')
    assert status == CommandStatus(goal_id="g", state="accepted")
    assert decode(ObservationBatch, '{"robot": "r"}').forgotten == ()


def test_topics_join_a_namespace_and_a_relative_name() -> None:
    assert topic("/robot1", "command") == "/robot1/command"
    assert topic("/team/r1", "command/status") == "/team/r1/command/status"
    assert topic("/", "people/request") == "/people/request"
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


def test_routes_send_every_command_to_command_unless_told_otherwise(tmp_path: Path) -> None:
    assert CommandRoutes().route("navigate").topic == "command"
    path = tmp_path / "routes.yaml"
    path.write_text(
        "default: {topic: base_cmd, timeout_s: 30}\n"
        "commands:\n"
        "  navigate: {topic: navigate_to_pose, timeout_s: 120}\n"
        "  grasp: manipulation\n",
        encoding="utf-8",
    )
    routes = load_routes(path)
    assert routes.route("navigate").timeout_s == 120
    assert routes.route("grasp").topic == "manipulation"
    assert routes.route("grasp").timeout_s is None
    assert routes.route("speak").topic == "base_cmd"
    assert routes.goal_topics() == ["base_cmd", "navigate_to_pose", "manipulation"]


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("commands: {fly: x}", "field `commands.fly.[key]`"),
        ("commands: {navigate: /abs}", "is not a relative ROS topic name"),
        ("commands: {navigate: observations}", "is taken by the protocol"),
        ("commands: {navigate: command/status}", "is taken by the protocol"),
        ("commands: {navigate: {topic: nav, timeout_s: 0}}", "greater than 0"),
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
        "import sys; import skills.ros.protocol, skills.ros.routes, trees.cli.main; "
        "print('rclpy' in sys.modules)"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "False"
