"""RosHost in this process over real DDS: readiness, turns that act, fail, raise; shutdown.

The host's node and the simulated robot's node each have their own participant (as if in
their own processes). ``start_if_ready`` runs on this, the main, thread, as ``cogtree ros``
does: py_trees' tree setup needs it.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import py_trees
import pytest
from py_trees.common import Status

pytest.importorskip("rclpy")

from std_msgs.msg import String

from behaviours import keys
from sim.ros_robot import SimRobotNode
from sim.scenario import load_scenario
from skills.ros_protocol import reliable_qos
from tests.ros.host_session import assistant, start
from tests.ros.ros_user import User
from trees.assistant_session import AssistantSession
from trees.ros_host import NOT_READY, RosHost, TreeHooks
from trees.scenario_run import oracle_client
from trees.viewer.feed import TickFeed

SCENARIO = "mug_to_sink"  # the no-model fast path solves it: GOTO, PICK, PLACE
REQUEST = "take the mug from the kitchen table to the sink"


def test_without_a_robot_the_host_says_it_is_not_ready(
    ros: Any,
    host: Callable[..., RosHost],
    session_parts: dict[str, Any],
    until: Callable[..., Any],
) -> None:
    waiting = host(assistant(session_parts))
    user = User(ros, until)
    assert not waiting.start_if_ready()
    assert user.say(REQUEST) == NOT_READY.format(topic="/robot1/state")
    assert not waiting.ready and waiting.turns == 0


def test_a_request_reaches_the_goal_through_the_robot_and_the_reply_is_said(
    ros: Any,
    host: Callable[..., RosHost],
    robot_side: Callable[..., SimRobotNode],
    session_parts: dict[str, Any],
    until: Callable[..., Any],
) -> None:
    robot = robot_side(SCENARIO)
    serving = host(assistant(session_parts))
    user = User(ros, until)
    start(serving, until)
    first = until(lambda: user.snapshots and json.loads(user.snapshots[0]), what="a snapshot")
    assert first["tick"]["tick"] == 0  # the idle tree, published when the host became ready
    reply = user.say(REQUEST)
    assert "mug" in reply and "sink" in reply, reply
    assert load_scenario(SCENARIO).goal.unmet(robot.simulator.world) == []
    assert robot.goals_accepted >= 3  # navigate, then the grasp and place commands
    feed = TickFeed()
    for message in user.snapshots:  # what `cogtree view` does with the topic
        feed.push_json(json.loads(message))
    index = feed.index()
    assert index.last is not None and index.last > 1
    assert feed.tree == "trees.assistant:create_root"


def test_a_delegation_reaches_the_simulated_person_over_the_people_topics(
    ros: Any,
    host: Callable[..., RosHost],
    robot_side: Callable[..., SimRobotNode],
    session_parts: dict[str, Any],
    until: Callable[..., Any],
) -> None:
    """The oracle plans (print by Priya, then carry the agenda); Priya answers over DDS."""
    scenario = load_scenario("print_agenda")
    robot = robot_side("print_agenda")
    with oracle_client(scenario) as planner:
        serving = host(assistant(session_parts, planner))
        user = User(ros, until)
        start(serving, until)
        reply = user.say(scenario.request.text)
    assert "could not" not in reply, reply
    assert scenario.goal.unmet(robot.simulator.world) == []  # did(priya, print) among them
    assert robot.people.pending == 0


def test_a_robot_that_goes_silent_fails_the_skill_and_the_host_goes_on(
    ros: Any,
    host: Callable[..., RosHost],
    robot_side: Callable[..., SimRobotNode],
    session_parts: dict[str, Any],
    until: Callable[..., Any],
) -> None:
    # navigate succeeds; the next command (approach) is accepted and never ends
    robot_side(SCENARIO, stop_answering_after=1)
    serving = host(assistant(session_parts), command_timeout_s=0.5)
    user = User(ros, until)
    start(serving, until)
    reply = user.say(REQUEST)
    assert "could not" in reply and "timeout" in reply, reply
    assert "stopped answering on /robot1/command/status" in reply
    assert "mug" in user.say("where is the mug?")
    assert serving.turns == 2


def test_a_tree_that_cannot_be_set_up_says_why_on_every_utterance(
    ros: Any, host: Callable[..., RosHost], robot_side: Callable[..., SimRobotNode], until: Any
) -> None:
    def broken(hooks: TreeHooks) -> AssistantSession:
        raise RuntimeError("no domain packs found in /nowhere")

    robot_side(SCENARIO)
    serving = host(broken)
    user = User(ros, until)
    until(serving.start_if_ready, what="the host to try")
    assert not serving.ready
    assert serving.failure == "no domain packs found in /nowhere"
    assert user.say(REQUEST) == "I cannot take requests: no domain packs found in /nowhere"


class Exploding(py_trees.behaviour.Behaviour):
    """Raises when told to explode; otherwise replies "fine"."""

    def __init__(self) -> None:
        super().__init__("Exploding")
        self.client = self.attach_blackboard_client(self.name)
        self.client.register_key(keys.UTTERANCE.name, access=py_trees.common.Access.READ)
        self.client.register_key(keys.REPLY.name, access=py_trees.common.Access.WRITE)

    def update(self) -> Status:
        if self.client.get(keys.UTTERANCE.name) == "explode":
            raise RuntimeError("boom")
        self.client.set(keys.REPLY.name, "fine")
        return Status.SUCCESS


def test_a_turn_that_raises_is_reported_and_the_next_turn_runs(
    ros: Any,
    host: Callable[..., RosHost],
    robot_side: Callable[..., SimRobotNode],
    session_parts: dict[str, Any],
    until: Callable[..., Any],
) -> None:
    def exploding(hooks: TreeHooks) -> AssistantSession:
        return AssistantSession(
            llm=session_parts["llm"],
            domains=session_parts["domains"],
            memory=session_parts["memory"],
            before_tick=hooks.before_tick,
            on_tick=hooks.on_tick,
            rate_hz=None,
            root_factory=lambda robot: Exploding(),
            handles=hooks.handles,
        )

    robot_side(SCENARIO)
    serving = host(exploding)
    user = User(ros, until)
    start(serving, until)
    assert user.say("explode") == (
        "Sorry, something went wrong while I was doing that (boom). I stopped it."
    )
    assert user.say("hello") == "fine"


def test_close_stops_a_turn_in_progress_and_cancels_its_command(
    ros: Any,
    host: Callable[..., RosHost],
    robot_side: Callable[..., SimRobotNode],
    session_parts: dict[str, Any],
    until: Callable[..., Any],
) -> None:
    # accepts the navigation, never finishes it
    robot = robot_side(SCENARIO, stop_answering_after=0)
    serving = host(assistant(session_parts), command_timeout_s=60.0)
    user = User(ros, until)
    cancels: list[str] = []
    spy = ros.node("spy", spin=False)
    spy.create_subscription(
        String, "/robot1/command/cancel", lambda m: cancels.append(m.data), reliable_qos()
    )
    ros.spin(spy)
    start(serving, until)
    user.speak(REQUEST)
    until(lambda: robot.goals_accepted == 1, what="the robot to accept the navigation")
    serving.close()
    until(lambda: cancels, what="the cancel of the navigation")
    assert user.heard == []  # the stopped turn said nothing


def test_with_a_given_belief_and_no_robot_the_skill_fails_saying_what_to_start(
    ros: Any,
    host: Callable[..., RosHost],
    session_parts: dict[str, Any],
    until: Callable[..., Any],
) -> None:
    scenario = load_scenario(SCENARIO)
    with scenario.new_belief(scenario.new_world()) as belief:
        serving = host(assistant(session_parts), belief=belief, accept_timeout_s=0.5)
        user = User(ros, until)
        start(serving, until)  # no robot state needed
        reply = user.say(REQUEST)
    assert reply.startswith("I could not do it"), reply
    assert "nobody subscribes to /robot1/command after 0.5 s" in reply
    assert "cogtree sim-ros" in reply
