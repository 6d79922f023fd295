"""``RosPeopleChannel``: a human channel over a ROS 2 action.

It implements :class:`~skills.execution.human_channel.HumanChannel`.

The host asks a person to do one of their abilities with a
``cogtree_interfaces/action/DelegateTask`` goal on ``people/delegate``, relative to the
node's namespace (``/cogtree/people/delegate`` for the host node; remappable with
``--ros-args -r``). Whoever speaks for the people serves it (``cogtree sim-ros`` plays the
simulated people; a real deployment puts a phone app or a speech dialogue behind it).

The future :meth:`RosPeopleChannel.delegate` returns resolves with the goal's end as a
:class:`~skills.action_model.commands.Feedback`: done (``ok``), or the person's failure code and
reason; or with a ``person_unavailable`` failure that names the action and what to start when:

- no server of the action appears within ``discovery_timeout_s`` (discovery takes a moment,
  so the request waits that long), or it does not accept the goal within that time;
- the goal was accepted but did not end within ``answer_timeout_s`` (it is then cancelled,
  so a person who answers later is not counted on).

A request that ends on the host's side (time limit, :meth:`RosPeopleChannel.cancel`,
:meth:`RosPeopleChannel.close`) is cancelled on the people side: through its goal handle once
accepted; sent but not accepted yet, by its goal id at once (the middleware may have lost the
acceptance of a goal the people side is working on; see :mod:`skills.ros.goal_sender`), and
again through its handle if the acceptance arrives later.

Time limits are wall-clock seconds, checked by a timer on the node every ``poll_period_s``.
Threading: the node's callbacks run on its executor's thread, ``delegate``/``cancel`` on the
tree's; the table of requests is guarded by a lock and futures are resolved outside it.
"""

from __future__ import annotations

import logging
import threading
import time
from concurrent.futures import Future, InvalidStateError
from dataclasses import dataclass
from typing import Any

from action_msgs.msg import GoalStatus
from cogtree_interfaces.action import DelegateTask
from rclpy.action.client import ClientGoalHandle
from rclpy.clock import Clock
from rclpy.clock_type import ClockType
from rclpy.node import Node
from rclpy.task import Future as RosFuture
from rclpy.timer import Timer
from unique_identifier_msgs.msg import UUID

from cogtree.knowledge.closing import Closeable
from cogtree.skills.action_model.commands import Feedback
from cogtree.skills.execution.human_channel import HumanRequest
from cogtree.skills.ros.goal_sender import GoalSender, new_goal_id
from cogtree.skills.ros.messages import MessageError, failure_code_of
from cogtree.skills.ros.protocol import DELEGATE_ACTION

log = logging.getLogger(__name__)

DEFAULT_ANSWER_TIMEOUT_S = 300.0
"""Seconds a person may take to end a task they were asked for."""

DEFAULT_DISCOVERY_TIMEOUT_S = 5.0
"""Seconds a request waits for the action's server, and then for it to accept."""

PEOPLE_SIDE_HINT = (
    "start the people side on the same ROS_DOMAIN_ID (`cogtree sim-ros SCENARIO` plays the "
    "simulated people) or remap people/delegate to your own bridge"
)
"""What to do when nobody answers (the end of the messages that say so)."""


@dataclass
class _Request:
    """A request in flight: what was asked, its future, when it was made, sent, accepted."""

    person: str
    task: HumanRequest
    future: Future[Feedback]
    made_at: float
    sent_at: float | None = None
    goal_id: UUID | None = None
    accepted_at: float | None = None
    handle: ClientGoalHandle[Any, Any, Any] | None = None
    withdrawn: bool = False


class RosPeopleChannel(Closeable):
    """Delegates tasks to people over the delegate action (see the module docs).

    Args:
        node: the rclpy node to create the action client and the timer on; spun by its owner.
        answer_timeout_s: seconds from acceptance to the end of the task.
        discovery_timeout_s: seconds to wait for the server, and then for acceptance.
        poll_period_s: how often the time limits are checked.

    Raises ValueError for a time limit that is not a positive number of seconds.

    """

    def __init__(
        self,
        node: Node,
        *,
        answer_timeout_s: float = DEFAULT_ANSWER_TIMEOUT_S,
        discovery_timeout_s: float = DEFAULT_DISCOVERY_TIMEOUT_S,
        poll_period_s: float = 0.1,
    ) -> None:
        if not (answer_timeout_s > 0 and discovery_timeout_s > 0 and poll_period_s > 0):
            raise ValueError(
                "answer_timeout_s, discovery_timeout_s and poll_period_s must be > 0 seconds"
            )
        self.node = node
        self.answer_timeout_s = answer_timeout_s
        self.discovery_timeout_s = discovery_timeout_s
        self._sender = GoalSender(
            node,
            DelegateTask,
            DELEGATE_ACTION,
            side="the people side",
            retry_for_s=discovery_timeout_s,
        )
        self.action = self._sender.action
        self._lock = threading.Lock()
        self._pending: list[_Request] = []
        self._closed = False
        self._timer: Timer = node.create_timer(
            poll_period_s, self._check_time_limits, clock=Clock(clock_type=ClockType.STEADY_TIME)
        )

    @property
    def pending(self) -> int:
        """How many requests have not ended yet."""
        with self._lock:
            return len(self._pending)

    # -- the HumanChannel protocol -------------------------------------------------------------

    def delegate(self, person: str, task: HumanRequest) -> Future[Feedback]:
        """Ask ``person`` to do ``task``; the future resolves with how it ended or a timeout."""
        future: Future[Feedback] = Future()
        with self._lock:
            if self._closed:
                future.set_result(_unavailable(f"could not ask {person}: the channel is closed"))
                return future
            request = _Request(person, task, future, made_at=time.monotonic())
            self._pending.append(request)
        self._send_if_served(request)
        log.debug("request: %s to %s", task.ability, person)
        return future

    def cancel(self, future: Future[Feedback]) -> bool:
        """Withdraw the request behind ``future``; False if it had ended already."""
        with self._lock:
            request = next((r for r in self._pending if r.future is future), None)
            if request is None:
                return False
            self._pending.remove(request)
            request.withdrawn = True
        self._withdraw(request)
        future.cancel()
        return True

    def close(self) -> None:
        """Withdraw and fail the requests still pending; remove the timer and the clients.

        While a request sent but not yet accepted is pending, the clients stay with the node
        until it is destroyed: its cancel by id is on its way, and an acceptance that arrives
        later is cancelled through its handle (``_on_response``).
        """
        with self._lock:
            if self._closed:
                return
            self._closed = True
            pending, self._pending = self._pending, []
            for request in pending:
                request.withdrawn = True
        for request in pending:
            self._withdraw(request)
            _resolve(request, _unavailable("the people channel was closed before an answer"))
        self.node.destroy_timer(self._timer)
        if not any(r.sent_at is not None and r.handle is None for r in pending):
            self._sender.destroy()

    # -- internals -----------------------------------------------------------------------------

    def _send_if_served(self, request: _Request) -> None:
        """Send ``request`` once the action has a server."""
        with self._lock:
            if request.sent_at is not None or request.withdrawn or self._closed:
                return
            if not self._sender.server_is_ready():
                return
            request.sent_at = time.monotonic()
            request.goal_id = goal_id = new_goal_id()
        goal = DelegateTask.Goal(
            person=request.person,
            ability=request.task.ability,
            description=request.task.description,
        )
        sent = self._sender.send(goal, goal_id)
        sent.add_done_callback(lambda done: self._on_response(request, done))

    def _withdraw(self, request: _Request) -> None:
        """Cancel ``request`` on the people side: through its handle, or by id if unaccepted.

        Call it once ``request.withdrawn`` is set, outside the lock: an acceptance that arrives
        later is then cancelled through its handle too (``_on_response``).
        """
        what = f"the request to {request.person} ({request.task.ability})"
        self._sender.cancel(request.handle, request.goal_id, what)

    def _on_response(self, request: _Request, response: RosFuture[Any]) -> None:
        handle: ClientGoalHandle[Any, Any, Any] | None = response.result()
        if handle is None or not handle.accepted:
            if request.goal_id is not None:
                self._sender.forget(request.goal_id)
            self._end(request, _unavailable(f"{self.action} rejected the request"))
            return
        with self._lock:
            request.handle = handle
            request.accepted_at = time.monotonic()
            withdrawn = request.withdrawn
        if withdrawn:
            handle.cancel_goal_async()
            return
        handle.get_result_async().add_done_callback(lambda done: self._on_result(request, done))

    def _on_result(self, request: _Request, response: RosFuture[Any]) -> None:
        answer = response.result()
        if answer is None:
            self._end(request, _unavailable(f"{self.action} gave no result"))
            return
        result: DelegateTask.Result = answer.result
        if answer.status == GoalStatus.STATUS_SUCCEEDED:
            done = result.message or f"{request.person} did {request.task.ability}"
            self._end(request, Feedback(ok=True, message=done))
            return
        try:
            code = failure_code_of(result.failure_code) or "person_unavailable"
        except MessageError as error:
            self._end(request, _unavailable(f"{self.action}: {error}"))
            return
        self._end(
            request, Feedback(ok=False, code=code, message=result.message or "no reason given")
        )

    def _end(self, request: _Request, feedback: Feedback) -> None:
        with self._lock:
            if request not in self._pending:
                return
            self._pending.remove(request)
        _resolve(request, feedback)

    def _check_time_limits(self) -> None:
        now = time.monotonic()
        with self._lock:
            waiting = list(self._pending)
        for request in waiting:
            self._send_if_served(request)
        expired: list[tuple[_Request, Feedback]] = []
        with self._lock:
            for request in list(self._pending):
                feedback = self._overdue(request, now)
                if feedback is not None:
                    self._pending.remove(request)
                    request.withdrawn = True
                    expired.append((request, feedback))
        for request, feedback in expired:
            self._withdraw(request)
            log.warning("%s", feedback.message)
            _resolve(request, feedback)
        self._sender.retry_cancels()

    def _overdue(self, request: _Request, now: float) -> Feedback | None:
        """A ``person_unavailable`` failure if ``request`` is past a time limit, else None."""
        what = f"no answer from {request.person} to {request.task.ability}"
        if request.accepted_at is None:
            started = request.sent_at if request.sent_at is not None else request.made_at
            if now - started < self.discovery_timeout_s:
                return None
            missing = "nobody accepted it on" if request.sent_at else "no server of"
            lost = " (withdrawn in case only its acceptance was lost)" if request.sent_at else ""
            return _unavailable(
                f"{what}: {missing} {self.action} after {self.discovery_timeout_s:g} s"
                f"{lost}; {PEOPLE_SIDE_HINT}"
            )
        if now - request.accepted_at < self.answer_timeout_s:
            return None
        return _unavailable(
            f"{what}: it did not end within {self.answer_timeout_s:g} s; the request was withdrawn"
        )


def _unavailable(message: str) -> Feedback:
    return Feedback(ok=False, code="person_unavailable", message=message)


def _resolve(request: _Request, feedback: Feedback) -> None:
    """Resolve ``request``'s future unless it was withdrawn meanwhile."""
    try:
        request.future.set_result(feedback)
    except InvalidStateError:
        log.debug("a request to %s was withdrawn before its answer", request.person)
