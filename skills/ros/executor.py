"""``RosExecutor``: runs low-level commands on ROS 2 robots as ``ExecuteSkill`` action goals.

It implements :class:`skills.action_model.commands.Executor` over an rclpy node that someone
else spins (the host node). :meth:`RosExecutor.submit` sends the command as an
``cogtree_interfaces/action/ExecuteSkill`` goal to the action of the command's route
(:mod:`skills.ros.routes`, ``NS/execute_skill`` by default) and returns a future that the
goal's result resolves:

- result SUCCEEDED -> ``Feedback(ok=True, message)``; ABORTED -> ``Feedback(ok=False, code,
  message)`` (a code outside cogtree's vocabulary fails it with the problem); CANCELED (the
  robot stopped on its own) -> a failure saying so.
- a goal the robot side rejects fails at once, saying so.
- action feedback (current command, progress) is logged at DEBUG.

Time limits (wall clock, checked every ``poll_period_s`` by a timer on the node):

- No action server yet: the goal waits (discovery takes a moment) and fails with ``timeout``
  after ``accept_timeout_s``, saying the robot side is not running and how to start it.
- Sent but neither accepted nor rejected within ``accept_timeout_s``: ``timeout``; the goal is
  cancelled on the robot by its id, for the robot may have accepted it and be running it while
  the middleware lost the acceptance (see :mod:`skills.ros.goal_sender`).
- Accepted but no result within the route's ``timeout_s`` (else ``command_timeout_s``):
  ``timeout``; the goal is cancelled so a robot that wakes up does not act on it later.

:meth:`RosExecutor.cancel` cancels the goal on the robot and cancels the future at once, like
the simulator's executor: through the goal handle once accepted; a goal sent but not accepted
yet is cancelled by its id at once, and again through its handle if the acceptance arrives
later. :meth:`RosExecutor.close` cancels the goals in flight the same way. ``submit`` never
raises: a command for a robot whose
name cannot be a namespace, or that is not among the robots the executor was given, fails at
once with the reason (and, for the latter, the ``--robot`` option to add).

The belief is up to date when a future resolves, as with the simulator's executor: the robot
publishes a command's observations before it finishes the goal, but on a topic, and the
node may take the result first; so a result resolves its future from a guard condition,
which the node's executor serves after the callbacks that were ready with the result. A
:class:`~skills.ros.belief.BeliefListener` on the same node has then applied every
observation that reached the host with the result or before it.

Threading: callbacks may run on any executor thread, ``submit``/``cancel`` on any other
thread (the tree's tick); the goal table is guarded by a lock, and futures are resolved
outside it.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Mapping
from concurrent.futures import Future, InvalidStateError
from dataclasses import dataclass, field
from typing import Any

from action_msgs.msg import GoalStatus
from cogtree_interfaces.action import ExecuteSkill
from rclpy.action.client import ClientGoalHandle
from rclpy.clock import Clock
from rclpy.clock_type import ClockType
from rclpy.guard_condition import GuardCondition
from rclpy.node import Node
from rclpy.task import Future as RosFuture
from rclpy.timer import Timer
from unique_identifier_msgs.msg import UUID

from cogtree.knowledge.closing import Closeable
from cogtree.skills.action_model.commands import Command, Feedback
from cogtree.skills.ros.goal_sender import GoalSender, new_goal_id
from cogtree.skills.ros.messages import MessageError, failure_code_of, goal_msg
from cogtree.skills.ros.protocol import START_HINT, check_namespace, default_namespace, topic
from cogtree.skills.ros.routes import CommandRoutes

log = logging.getLogger(__name__)

DEFAULT_COMMAND_TIMEOUT_S = 60.0
"""Seconds a command may run after the robot accepted it (unless its route says otherwise)."""

DEFAULT_ACCEPT_TIMEOUT_S = 5.0
"""Seconds to wait for the robot's action server, and then for it to accept a goal."""


@dataclass
class _Goal:
    command: Command
    future: Future[Feedback]
    sender: GoalSender
    action: str
    timeout_s: float
    submitted_at: float
    sent_at: float | None = None
    goal_id: UUID | None = None
    """The goal's id on the robot, chosen when it is sent."""
    accepted_at: float | None = None
    handle: ClientGoalHandle[Any, Any, Any] | None = None
    cancelled: bool = False
    last_feedback: str = ""


@dataclass
class _Table:
    goals: list[_Goal] = field(default_factory=list)
    senders: dict[str, GoalSender] = field(default_factory=dict)
    answered: list[tuple[_Goal, Feedback]] = field(default_factory=list)
    """Goals the robot ended, resolved by the guard condition (see the module docs)."""


class RosExecutor(Closeable):
    """Sends commands to ROS 2 robots as action goals (see the module docs).

    Args:
        node: the rclpy node to create the action clients and the timer on; spun by its owner.
        robots: robot name -> namespace (``/robot1``); the only robots it commands (a command
            for another fails at once, saying how to add it). None: every robot, on ``/<robot>``.
        routes: the action and time limit per command (all on ``execute_skill`` by default).
        command_timeout_s: seconds from acceptance to result, unless the route says otherwise.
        accept_timeout_s: seconds to wait for the action server, and then for acceptance.
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
            for action in self.routes.actions():
                self._sender(topic(namespace, action))
        self._timer: Timer = node.create_timer(
            poll_period_s, self._check_time_limits, clock=Clock(clock_type=ClockType.STEADY_TIME)
        )
        self._answers: GuardCondition = node.create_guard_condition(self._resolve_answered)

    def namespace_of(self, robot: str) -> str:
        """The namespace ``robot``'s actions live under.

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

    def servers_ready(self, robot: str) -> bool:
        """True when every action ``robot``'s commands go to has a server."""
        with self._lock:
            senders = [
                self._sender(topic(self.namespace_of(robot), action))
                for action in self.routes.actions()
            ]
        return all(sender.server_is_ready() for sender in senders)

    @property
    def in_flight(self) -> int:
        """How many goals have not ended yet."""
        with self._lock:
            return len(self._table.goals)

    # -- the Executor protocol -----------------------------------------------------------------

    def submit(self, command: Command) -> Future[Feedback]:
        """Send ``command`` to its robot (or wait for its action server; see above)."""
        future: Future[Feedback] = Future()
        route = self.routes.route(command.name)
        try:
            action = topic(self.namespace_of(command.robot), route.action)
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
                command=command,
                future=future,
                sender=self._sender(action),
                action=action,
                timeout_s=route.timeout_s or self.command_timeout_s,
                submitted_at=time.monotonic(),
            )
            self._table.goals.append(goal)
        self._send_if_served(goal)
        log.debug("goal: %s on %s", command.describe(), action)
        return future

    def cancel(self, command: Command) -> None:
        """Cancel the oldest goal in flight for ``command``: on the robot, and its future."""
        with self._lock:
            goal = next((g for g in self._table.goals if g.command == command), None)
            if goal is None:
                return
            self._table.goals.remove(goal)
            goal.cancelled = True
        _cancel_on_robot(goal)
        goal.future.cancel()
        log.debug("goal cancelled: %s", command.describe())

    def cancel_all(self) -> None:
        """Cancel every goal in flight (as :meth:`cancel` does for one)."""
        with self._lock:
            commands = [goal.command for goal in self._table.goals]
        for command in commands:
            self.cancel(command)

    def close(self) -> None:
        """Resolve the goals the robot ended, cancel and fail those in flight, leave the node.

        The timer, the guard condition and the action clients are removed from the node. A
        goal sent but not yet accepted is cancelled by its id now, and again when the robot's
        acceptance arrives (``_on_response``), so its action's clients stay with the node until
        the node is destroyed: destroying them now could lose the cancel or the acceptance and
        leave the robot moving.
        """
        with self._lock:
            if self._closed:
                return
            self._closed = True
            goals = list(self._table.goals)
            self._table.goals.clear()
            for goal in goals:
                goal.cancelled = True
            awaiting = {
                id(goal.sender)
                for goal in goals
                if goal.sent_at is not None and goal.handle is None
            }
            senders = list(self._table.senders.values())
            self._table.senders.clear()
        self._resolve_answered()
        for goal in goals:
            _cancel_on_robot(goal)
            _resolve(goal, Feedback(ok=False, message="the ROS executor was closed"))
        self.node.destroy_timer(self._timer)
        self.node.destroy_guard_condition(self._answers)
        for sender in senders:
            if id(sender) not in awaiting:
                sender.destroy()

    # -- goals ---------------------------------------------------------------------------------

    def _sender(self, action: str) -> GoalSender:
        """The goal sender of ``action``, made on first use (call with the lock held)."""
        sender = self._table.senders.get(action)
        if sender is None:
            sender = GoalSender(
                self.node,
                ExecuteSkill,
                action,
                side="the robot",
                retry_for_s=self.accept_timeout_s,
            )
            self._table.senders[action] = sender
        return sender

    def _send_if_served(self, goal: _Goal) -> None:
        """Send ``goal`` once its action has a server."""
        with self._lock:
            if goal.sent_at is not None or goal.cancelled or self._closed:
                return
            if not goal.sender.server_is_ready():
                return
            goal.sent_at = time.monotonic()
            goal.goal_id = goal_id = new_goal_id()
        sent = goal.sender.send(
            goal_msg(goal.command),
            goal_id,
            feedback_callback=lambda message: self._on_feedback(goal, message),
        )
        sent.add_done_callback(lambda done: self._on_response(goal, done))

    def _on_feedback(self, goal: _Goal, message: Any) -> None:
        news: ExecuteSkill.Feedback = message.feedback
        goal.last_feedback = f"{news.current_command} {news.progress:.0%} {news.message}".strip()
        log.debug("%s: %s", goal.command.describe(), goal.last_feedback)

    def _on_response(self, goal: _Goal, response: RosFuture[Any]) -> None:
        handle: ClientGoalHandle[Any, Any, Any] | None = response.result()
        if handle is None or not handle.accepted:
            if goal.goal_id is not None:
                goal.sender.forget(goal.goal_id)
            self._end(goal, _failed(goal, f"{goal.action} rejected the goal"))
            return
        with self._lock:
            goal.handle = handle
            goal.accepted_at = time.monotonic()
            cancelled = goal.cancelled
        if cancelled:
            handle.cancel_goal_async()
            return
        handle.get_result_async().add_done_callback(lambda done: self._on_result(goal, done))

    def _on_result(self, goal: _Goal, response: RosFuture[Any]) -> None:
        answer = response.result()
        if answer is None:
            self._end(goal, _failed(goal, f"{goal.action} gave no result"))
            return
        self._end(goal, _feedback(goal, answer.status, answer.result))

    def _end(self, goal: _Goal, feedback: Feedback) -> None:
        """Resolve ``goal`` with the robot's answer once the node is done with what came with it."""
        with self._lock:
            if goal not in self._table.goals:  # cancelled or timed out meanwhile
                return
            self._table.goals.remove(goal)
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
            goals = list(self._table.goals)
        for goal in goals:
            self._send_if_served(goal)
        with self._lock:
            senders = list(self._table.senders.values())
            for goal in list(self._table.goals):
                feedback = self._overdue(goal, now)
                if feedback is not None:
                    self._table.goals.remove(goal)
                    goal.cancelled = True  # accepted later: cancelled at once
                    expired.append((goal, feedback))
        for goal, feedback in expired:
            _cancel_on_robot(goal)
            log.warning("%s", feedback.message)
            _resolve(goal, feedback)
        for sender in senders:
            sender.retry_cancels()

    def _overdue(self, goal: _Goal, now: float) -> Feedback | None:
        """A ``timeout`` failure if ``goal`` is past a time limit, else None."""
        if goal.sent_at is None:
            if now - goal.submitted_at < self.accept_timeout_s:
                return None
            reason = (
                f"no action server on {goal.action} after {self.accept_timeout_s:g} s: the robot "
                f"side is not running; {START_HINT}"
            )
        elif goal.accepted_at is None:
            if now - goal.sent_at < self.accept_timeout_s:
                return None
            reason = (
                f"{goal.action} neither accepted nor rejected the goal within "
                f"{self.accept_timeout_s:g} s (it was cancelled on the robot in case the "
                f"robot had accepted it and only the acceptance was lost); {START_HINT}"
            )
        else:
            if now - goal.accepted_at < goal.timeout_s:
                return None
            last = f" (last feedback: {goal.last_feedback})" if goal.last_feedback else ""
            reason = (
                f"accepted but not finished within {goal.timeout_s:g} s{last}: the robot side "
                f"stopped answering on {goal.action}; the goal was cancelled"
            )
        return Feedback(
            ok=False,
            code="timeout",
            message=f"{goal.command.robot} {goal.command.describe()}: {reason}",
        )


def _cancel_on_robot(goal: _Goal) -> None:
    """Cancel ``goal`` on the robot: through its handle, or by its id if sent but unaccepted.

    Call it once ``goal.cancelled`` is set, outside the lock: an acceptance that arrives later
    is then cancelled through its handle too (``_on_response``).
    """
    what = f"{goal.command.robot} {goal.command.describe()}"
    goal.sender.cancel(goal.handle, goal.goal_id, what)


def _failed(goal: _Goal, why: str) -> Feedback:
    return Feedback(ok=False, message=f"{goal.command.robot} {goal.command.describe()}: {why}")


def _feedback(goal: _Goal, status: int, result: ExecuteSkill.Result) -> Feedback:
    """The feedback a goal's terminal ``status`` and ``result`` mean."""
    if status == GoalStatus.STATUS_SUCCEEDED:
        return Feedback(ok=True, message=result.message)
    if status == GoalStatus.STATUS_CANCELED:
        why = f": {result.message}" if result.message else ""
        return _failed(goal, f"the robot cancelled it{why}")
    try:
        code = failure_code_of(result.failure_code)
    except MessageError as error:
        return Feedback(ok=False, message=f"{goal.command.describe()}: {error}")
    return Feedback(
        ok=False,
        code=code,
        message=result.message or f"{goal.command.describe()} failed (no reason given)",
    )


def _resolve(goal: _Goal, feedback: Feedback) -> None:
    """Resolve ``goal``'s future, unless someone cancelled it meanwhile."""
    try:
        goal.future.set_result(feedback)
    except InvalidStateError:
        log.debug("%s was cancelled before its result arrived", goal.command.describe())
