"""``RosExecutor``: runs low-level commands on ROS 2 robots (see :mod:`skills.ros.protocol`).

It implements :class:`skills.commands.Executor` over an rclpy node that someone else spins
(the host node). :meth:`RosExecutor.submit` sends a :class:`~skills.ros.protocol.CommandGoal`
on the goal topic of the command's route (:mod:`skills.ros.routes`) under the robot's
namespace, and returns a future that the robot's :class:`~skills.ros.protocol.CommandStatus`
resolves:

- ``succeeded`` -> ``Feedback(ok=True, message)``; ``failed`` -> ``Feedback(ok=False, code,
  message)``; ``cancelled`` (the robot stopped on its own) -> a failure saying so.
- ``accepted`` and ``feedback`` keep it running (feedback is logged at DEBUG).
- A status whose JSON is malformed but names a goal in flight fails that goal with the
  problem; other malformed, late or unknown statuses are logged and ignored.

Time limits (wall clock, checked every ``poll_period_s`` by a timer on the node):

- No robot side yet (nobody subscribes to the goal topic, or nobody publishes statuses): the
  goal waits (discovery takes a moment) and fails with ``timeout`` after
  ``accept_timeout_s``, saying the robot side is not running and how to start it. Once both
  are matched, the goal is sent.
- Sent but not ``accepted`` within ``accept_timeout_s``: ``timeout`` (no answer).
- Accepted but not finished within the route's ``timeout_s`` (else ``command_timeout_s``):
  ``timeout``; a cancel is sent so a robot that wakes up does not act on it later.

:meth:`RosExecutor.cancel` sends a :class:`~skills.ros.protocol.CommandCancel` and cancels
the future at once, like the simulator's executor; the robot's ``cancelled`` answer then
arrives for a goal no longer in flight and is ignored. ``submit`` never raises: a command for
a robot whose name cannot be a namespace, or that is not among the robots the executor was
given, fails at once with the reason (and, for the latter, the ``--robot`` option to add).

The belief is up to date when a future resolves, as with the simulator's executor (which
updates its belief before it resolves). The robot publishes a command's observations before
its terminal status, but on another topic, and the node may take the status first; so a
robot's answer resolves its future from a guard condition, which the node's executor serves
after the callbacks that were ready with the status. A
:class:`~skills.ros.belief.BeliefListener` on the same node has then applied every
observation that reached the host with the status or before it.

Threading: callbacks may run on any executor thread, ``submit``/``cancel`` on any other
thread (the tree's tick); the goal table is guarded by a lock, and futures are resolved
outside it.
"""

from __future__ import annotations

import json
import logging
import threading
import time
from collections.abc import Mapping
from concurrent.futures import Future, InvalidStateError
from dataclasses import dataclass, field
from typing import Any

from rclpy.clock import Clock
from rclpy.clock_type import ClockType
from rclpy.guard_condition import GuardCondition
from rclpy.node import Node
from rclpy.subscription import Subscription
from rclpy.timer import Timer

from knowledge.closing import Closeable
from skills.commands import Command, Feedback
from skills.ros.json_topics import JsonPublisher, subscribe_json
from skills.ros.protocol import (
    START_HINT,
    TERMINAL_STATES,
    CommandCancel,
    CommandGoal,
    CommandStatus,
    ProtocolError,
    cancel_topic,
    check_namespace,
    default_namespace,
    new_id,
    reliable_qos,
    status_topic,
    topic,
)
from skills.ros.routes import CommandRoutes

log = logging.getLogger(__name__)

DEFAULT_COMMAND_TIMEOUT_S = 60.0
"""Seconds a command may run after the robot accepted it (unless its route says otherwise)."""

DEFAULT_ACCEPT_TIMEOUT_S = 5.0
"""Seconds to wait for the robot side to subscribe and then to accept a goal."""


@dataclass
class _Channel:
    """One goal topic of one robot: goals out, cancels out, statuses in."""

    goals: JsonPublisher[CommandGoal]
    cancels: JsonPublisher[CommandCancel]
    statuses: Subscription[Any] | None = None

    @property
    def connected(self) -> bool:
        """Someone takes the goals, and someone publishes statuses."""
        statuses = self.statuses
        return self.goals.subscribers > 0 and bool(statuses and statuses.get_publisher_count())


@dataclass
class _Goal:
    goal_id: str
    command: Command
    future: Future[Feedback]
    channel: _Channel
    timeout_s: float
    submitted_at: float
    sent_at: float | None = None
    accepted_at: float | None = None
    last_feedback: str = ""


@dataclass
class _Table:
    goals: dict[str, _Goal] = field(default_factory=dict)
    channels: dict[str, _Channel] = field(default_factory=dict)
    answered: list[tuple[_Goal, Feedback]] = field(default_factory=list)
    """Goals the robot ended, resolved by the guard condition (see the module docs)."""


class RosExecutor(Closeable):
    """Sends commands to ROS 2 robots and resolves their futures (see the module docs).

    Args:
        node: the rclpy node to create topics and the timer on; spun by its owner.
        robots: robot name -> namespace (``/robot1``); the only robots it commands (a command
            for another fails at once, saying how to add it). None: every robot, on ``/<robot>``.
        routes: the goal topic and time limit per command (all on ``command`` by default).
        command_timeout_s: seconds from acceptance to result, unless the route says otherwise.
        accept_timeout_s: seconds to wait for a subscriber, and then for ``accepted``.
        poll_period_s: how often the time limits are checked.

    Raises ValueError for a namespace that is not an absolute ROS namespace.

    """

    def __init__(
        self,
        node: Node,
        *,
        robots: Mapping[str, str] | None = None,
        routes: CommandRoutes | None = None,
        command_timeout_s: float = DEFAULT_COMMAND_TIMEOUT_S,
        accept_timeout_s: float = DEFAULT_ACCEPT_TIMEOUT_S,
        poll_period_s: float = 0.05,
    ) -> None:
        if command_timeout_s <= 0 or accept_timeout_s <= 0:
            raise ValueError("command_timeout_s and accept_timeout_s must be > 0 seconds")
        self.node = node
        self.robots = {robot: check_namespace(ns) for robot, ns in (robots or {}).items()}
        self._only_listed = robots is not None
        self.routes = routes if routes is not None else CommandRoutes()
        self.command_timeout_s = command_timeout_s
        self.accept_timeout_s = accept_timeout_s
        self._lock = threading.Lock()
        self._table = _Table()
        self._closed = False
        for namespace in self.robots.values():  # early, so discovery starts now
            for goal_topic in self.routes.goal_topics():
                self._channel(topic(namespace, goal_topic))
        self._timer: Timer = node.create_timer(
            poll_period_s, self._check_time_limits, clock=Clock(clock_type=ClockType.STEADY_TIME)
        )
        self._answers: GuardCondition = node.create_guard_condition(self._resolve_answered)

    def namespace_of(self, robot: str) -> str:
        """The namespace ``robot``'s topics live under.

        Raises ValueError when ``robot`` cannot be one, or is not among the robots the executor
        was given (the message says how to give it).
        """
        if robot in self.robots:
            return self.robots[robot]
        if self._only_listed:
            given = " ".join(f"--robot {name}={ns}" for name, ns in self.robots.items())
            raise ValueError(
                f"no namespace is configured for {robot} (the host's robots: "
                f"{', '.join(self.robots) or 'none'}); run the host with {robot}'s namespace too, "
                f"e.g. `cogtree ros {given} --robot {robot}=NS`"
            )
        return default_namespace(robot)

    def subscribers(self, robot: str) -> int:
        """How many subscribers ``robot``'s least-heard goal topic has (0: no robot side yet)."""
        with self._lock:
            channels = [
                self._channel(topic(self.namespace_of(robot), goal_topic))
                for goal_topic in self.routes.goal_topics()
            ]
            return min(channel.goals.subscribers for channel in channels)

    @property
    def in_flight(self) -> int:
        """How many goals have not ended yet."""
        with self._lock:
            return len(self._table.goals)

    # -- the Executor protocol -----------------------------------------------------------------

    def submit(self, command: Command) -> Future[Feedback]:
        """Send ``command`` to its robot (or wait for the robot side to appear; see above)."""
        future: Future[Feedback] = Future()
        route = self.routes.route(command.name)
        try:
            goal_topic = topic(self.namespace_of(command.robot), route.topic)
        except ValueError as error:
            future.set_result(
                Feedback(ok=False, message=f"cannot address robot {command.robot!r}: {error}")
            )
            return future
        with self._lock:
            if self._closed:
                future.set_result(Feedback(ok=False, message="the ROS executor is closed"))
                return future
            goal = _Goal(
                goal_id=new_id(),
                command=command,
                future=future,
                channel=self._channel(goal_topic),
                timeout_s=route.timeout_s or self.command_timeout_s,
                submitted_at=time.monotonic(),
            )
            self._table.goals[goal.goal_id] = goal
            self._send_if_heard(goal)
        log.debug("goal %s: %s on %s", goal.goal_id, command.describe(), goal_topic)
        return future

    def cancel(self, command: Command) -> None:
        """Cancel the oldest goal in flight for ``command``: tell the robot, cancel the future."""
        with self._lock:
            goal = next((g for g in self._table.goals.values() if g.command == command), None)
            if goal is None:
                return
            del self._table.goals[goal.goal_id]
            if goal.sent_at is not None:
                goal.channel.cancels.publish(CommandCancel(goal_id=goal.goal_id))
        goal.future.cancel()
        log.debug("goal %s cancelled: %s", goal.goal_id, command.describe())

    def close(self) -> None:
        """Resolve the goals the robot ended, fail those in flight, and leave the node.

        The timer, the guard condition and the topics are removed from the node.
        """
        with self._lock:
            if self._closed:
                return
            self._closed = True
            goals = list(self._table.goals.values())
            self._table.goals.clear()
            channels = list(self._table.channels.values())
            self._table.channels.clear()
        self._resolve_answered()
        for goal in goals:
            _resolve(goal, Feedback(ok=False, message="the ROS executor was closed"))
        self.node.destroy_timer(self._timer)
        self.node.destroy_guard_condition(self._answers)
        for channel in channels:
            channel.goals.destroy()
            channel.cancels.destroy()
            if channel.statuses is not None:
                self.node.destroy_subscription(channel.statuses)

    # -- topics --------------------------------------------------------------------------------

    def _channel(self, goal_topic: str) -> _Channel:
        """The channel of ``goal_topic``, created on first use (call with the lock held)."""
        channel = self._table.channels.get(goal_topic)
        if channel is None:
            qos = reliable_qos()
            channel = _Channel(
                goals=JsonPublisher(self.node, CommandGoal, goal_topic, qos),
                cancels=JsonPublisher(self.node, CommandCancel, cancel_topic(goal_topic), qos),
            )
            channel.statuses = subscribe_json(
                self.node,
                CommandStatus,
                status_topic(goal_topic),
                self._on_status,
                qos,
                on_malformed=self._on_malformed_status,
            )
            self._table.channels[goal_topic] = channel
        return channel

    def _send_if_heard(self, goal: _Goal) -> None:
        """Send ``goal`` once a robot side is matched both ways (call with the lock held)."""
        if goal.sent_at is None and goal.channel.connected:
            goal.sent_at = time.monotonic()
            goal.channel.goals.publish(
                CommandGoal(goal_id=goal.goal_id, command=goal.command, sent_at=time.time())
            )

    # -- answers -------------------------------------------------------------------------------

    def _on_status(self, status: CommandStatus) -> None:
        with self._lock:
            goal = self._table.goals.get(status.goal_id)
            if goal is None:
                log.debug(
                    "status %s for goal %s not in flight: ignored", status.state, status.goal_id
                )
                return
            if goal.accepted_at is None:
                goal.accepted_at = time.monotonic()
            if status.state == "feedback":
                goal.last_feedback = status.message
                log.debug("goal %s feedback: %s", goal.goal_id, status.message)
            if status.state not in TERMINAL_STATES:
                return
            del self._table.goals[goal.goal_id]
        self._answer(goal, _feedback(goal, status))

    def _on_malformed_status(self, data: str, error: ProtocolError) -> None:
        goal_id = _goal_id_in(data)
        with self._lock:
            goal = self._table.goals.pop(goal_id, None) if goal_id else None
        if goal is None:
            log.warning("%s; dropped", error)
            return
        self._answer(goal, Feedback(ok=False, message=f"{goal.command.describe()}: {error}"))

    def _answer(self, goal: _Goal, feedback: Feedback) -> None:
        """Resolve ``goal`` with the robot's answer once the node is done with what came with it."""
        with self._lock:
            if not self._closed:  # close() resolves what is left, then drops the guard
                self._table.answered.append((goal, feedback))
                self._answers.trigger()
                return
        _resolve(goal, feedback)

    def _resolve_answered(self) -> None:
        """Resolve the goals the robot ended (the guard condition's callback)."""
        with self._lock:
            answered, self._table.answered = self._table.answered, []
        for goal, feedback in answered:
            _resolve(goal, feedback)

    # -- time limits ---------------------------------------------------------------------------

    def _check_time_limits(self) -> None:
        now = time.monotonic()
        expired: list[tuple[_Goal, Feedback]] = []
        with self._lock:
            for goal in list(self._table.goals.values()):
                self._send_if_heard(goal)
                feedback = self._overdue(goal, now)
                if feedback is not None:
                    del self._table.goals[goal.goal_id]
                    if goal.sent_at is not None:
                        goal.channel.cancels.publish(CommandCancel(goal_id=goal.goal_id))
                    expired.append((goal, feedback))
        for goal, feedback in expired:
            log.warning("%s", feedback.message)
            _resolve(goal, feedback)

    def _overdue(self, goal: _Goal, now: float) -> Feedback | None:
        """A ``timeout`` failure if ``goal`` is past a time limit, else None."""
        goal_topic = goal.channel.goals.topic
        what = f"{goal.command.robot} {goal.command.describe()}"
        if goal.sent_at is None:
            if now - goal.submitted_at < self.accept_timeout_s:
                return None
            missing = (
                f"nobody publishes on {status_topic(goal_topic)}"
                if goal.channel.goals.subscribers
                else f"nobody subscribes to {goal_topic}"
            )
            reason = (
                f"{missing} after {self.accept_timeout_s:g} s: the robot side is not running; "
                f"{START_HINT}"
            )
        elif goal.accepted_at is None:
            if now - goal.sent_at < self.accept_timeout_s:
                return None
            reason = (
                f"no answer on {status_topic(goal_topic)} within {self.accept_timeout_s:g} s: "
                f"the robot side did not accept the goal; {START_HINT}"
            )
        else:
            if now - goal.accepted_at < goal.timeout_s:
                return None
            last = f" (last feedback: {goal.last_feedback})" if goal.last_feedback else ""
            reason = (
                f"accepted but not finished within {goal.timeout_s:g} s{last}: the robot side "
                f"stopped answering on {status_topic(goal_topic)}; the goal was cancelled"
            )
        return Feedback(ok=False, code="timeout", message=f"{what}: {reason}")


def _feedback(goal: _Goal, status: CommandStatus) -> Feedback:
    """The feedback a terminal ``status`` of ``goal`` means."""
    if status.state == "succeeded":
        return Feedback(ok=True, message=status.message)
    if status.state == "failed":
        return Feedback(
            ok=False,
            code=status.code,
            message=status.message or f"{goal.command.describe()} failed (no reason given)",
        )
    why = f": {status.message}" if status.message else ""
    return Feedback(
        ok=False, message=f"{goal.command.robot} cancelled {goal.command.describe()}{why}"
    )


def _goal_id_in(data: str) -> str | None:
    """The ``goal_id`` of a malformed status, if its JSON still names one."""
    try:
        parsed = json.loads(data)
    except ValueError:
        return None
    goal_id = parsed.get("goal_id") if isinstance(parsed, dict) else None
    return goal_id if isinstance(goal_id, str) else None


def _resolve(goal: _Goal, feedback: Feedback) -> None:
    """Resolve ``goal``'s future, unless someone cancelled it meanwhile."""
    try:
        goal.future.set_result(feedback)
    except InvalidStateError:
        log.debug("goal %s was cancelled before its result arrived", goal.goal_id)
