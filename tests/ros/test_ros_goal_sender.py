"""GoalSender over real DDS: a cancel by goal id, also one that overtakes its goal."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

import pytest

from tests.ros.ros_extra import ROS_EXTRA

pytest.importorskip("rclpy", reason=ROS_EXTRA)

from cogtree_interfaces.action import ExecuteSkill

from cogtree.skills.action_model.commands import Command
from cogtree.skills.ros.goal_sender import GoalSender, LockedActionClient, goal_text, new_goal_id
from cogtree.skills.ros.messages import goal_msg
from tests.ros.lost_acceptance import ForgetfulEnd

WAIT = Command(robot="robot1", skill="WAIT", name="wait", args={"seconds": 1.0})


def sender_and_robot(ros: Any, until: Callable[..., Any]) -> tuple[GoalSender, ForgetfulEnd]:
    """A sender on the host's participant and a robot that loses its acceptances, matched."""
    action = f"{ros.namespace('robot1')}/execute_skill"
    robot = ForgetfulEnd(ros, ExecuteSkill, action)
    node = ros.node("cogtree", spin=False)
    sender = GoalSender(node, ExecuteSkill, action, side="the robot", retry_for_s=30.0)
    ros.spin(node)
    until(sender.server_is_ready, what="the robot's action server")
    return sender, robot


def test_a_goal_is_sent_under_the_id_the_sender_chose(ros: Any, until: Callable[..., Any]) -> None:
    sender, robot = sender_and_robot(ros, until)
    goal_id = new_goal_id()
    sender.send(goal_msg(WAIT), goal_id)
    assert until(robot.started_ids, what="the robot to run the goal") == [goal_text(goal_id)]
    sender.cancel_unaccepted(goal_id, "robot1 wait(seconds=1.0)")
    until(lambda: robot.stopped == [goal_text(goal_id)], what="the robot to stop the goal")
    sender.destroy()


def test_a_cancel_that_overtakes_its_goal_is_asked_again_until_the_robot_knows_the_goal(
    ros: Any, until: Callable[..., Any], caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG, logger="cogtree.skills.ros.goal_sender")
    sender, robot = sender_and_robot(ros, until)
    goal_id = new_goal_id()
    sender.cancel_unaccepted(goal_id, "robot1 wait(seconds=1.0)")  # before the goal: unknown
    until(lambda: "does not know goal" in caplog.text, what="the robot's answer: unknown goal")
    sender.send(goal_msg(WAIT), goal_id)
    until(robot.started_ids, what="the robot to run the goal")

    def stopped_after_a_retry() -> bool:
        sender.retry_cancels()  # what the owner's timer does
        return robot.stopped == [goal_text(goal_id)]

    until(stopped_after_a_retry, what="the retried cancel to stop the goal")
    assert set(robot.cancels) == {goal_text(goal_id)}
    sender.destroy()


def test_the_action_client_has_its_lock_before_an_executor_can_see_it(
    ros: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """rclpy registers an action client with its node before making the client's lock; an
    executor spinning meanwhile would ask the client for its entities and die."""
    node = ros.node("cogtree", spin=False)
    seen: list[bool] = []
    register = node.add_waitable

    def add_waitable(waitable: Any) -> None:
        seen.append(hasattr(waitable, "_lock"))
        register(waitable)

    monkeypatch.setattr(node, "add_waitable", add_waitable)
    LockedActionClient(node, ExecuteSkill, "/bench/lock_check")
    assert seen == [True]


def test_a_retry_after_the_sender_is_destroyed_does_nothing(
    ros: Any, until: Callable[..., Any]
) -> None:
    """The owner's timer can fire while its owner closes: the destroyed clients stay unused
    (rclpy would raise InvalidHandle on the timer's thread)."""
    sender, _ = sender_and_robot(ros, until)
    sender.cancel_unaccepted(new_goal_id(), "robot1 wait(seconds=1.0)")
    sender.destroy()
    sender.retry_cancels()
    sender.cancel_unaccepted(new_goal_id(), "robot1 wait(seconds=1.0)")
