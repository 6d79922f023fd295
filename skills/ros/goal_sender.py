"""``GoalSender``: an action client that names its goals, so a goal can be cancelled unanswered.

A middleware may lose a goal's acceptance: rmw_fastrtps drops a service response when the
server has not matched the client's reply reader yet (right after discovery), yet the server
accepts and runs the goal. The client then never gets a goal handle to cancel it with. So a
:class:`GoalSender` chooses each goal's UUID itself (:meth:`GoalSender.send`), and
:meth:`GoalSender.cancel_unaccepted` cancels a goal by that UUID straight on the action's
cancel service (``<action>/_action/cancel_goal``, ``action_msgs/srv/CancelGoal``, a plain
service client made with the action client and destroyed with it). Its owner cancels a goal
that ends on its side (time limit, cancel, close) with :meth:`GoalSender.cancel`: through the
goal handle once accepted, by the UUID while the acceptance has not arrived; an acceptance
that arrives later still gets the goal handle, and the owner cancels through it as well.

Best effort, never blocking: the request is sent asynchronously, at once if the cancel service
is matched, else by :meth:`GoalSender.retry_cancels` (the owner's timer) once it is. A server
that answers that it does not know the goal (a cancel can overtake its goal request: they
travel on different DDS writers) is asked again, until ``retry_for_s`` have passed since the
cancel. Every such cancel is logged at WARNING with the goal's UUID.

Threading: ``send`` and the cancels may run on the tree's thread while the node's executor
runs the callbacks; the table of cancels is guarded by a lock.
"""

from __future__ import annotations

import logging
import threading
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import Any

from action_msgs.msg import GoalInfo
from action_msgs.srv import CancelGoal
from rclpy.action.client import ActionClient, ClientGoalHandle
from rclpy.client import Client
from rclpy.node import Node
from rclpy.task import Future as RosFuture
from unique_identifier_msgs.msg import UUID

log = logging.getLogger(__name__)


def cancel_service(action: str) -> str:
    """The cancel service of ``action`` (``/robot1/execute_skill/_action/cancel_goal``)."""
    return f"{action}/_action/cancel_goal"


def new_goal_id() -> UUID:
    """A fresh random goal id."""
    return UUID(uuid=list(uuid.uuid4().bytes))


def goal_text(goal_id: UUID) -> str:
    """``goal_id`` as the usual UUID text (``1b4e28ba-2fa1-...``)."""
    return str(uuid.UUID(bytes=bytes(goal_id.uuid)))


@dataclass
class _Cancel:
    """A cancel by goal id not yet confirmed: what it is for and until when to retry it."""

    goal_id: UUID
    what: str
    until: float
    in_flight: bool = False
    unknown: bool = False
    """The server answered that it does not know the goal (yet)."""


class LockedActionClient(ActionClient):  # type: ignore[type-arg]
    """An rclpy ``ActionClient`` that a node's executor may see while it is being made.

    rclpy 9 (Kilted) adds the client to the node's waitables before it creates the client's
    lock, so an executor spinning on another thread can ask it for its entities in between and
    die on ``AttributeError: ... no attribute '_lock'`` (seen when a client was made on a
    spinning node). The lock exists before the base class registers the client; the base then
    replaces it with one of its own, which only the executor can be holding the old one across
    (for the one call that saw the client half made), so the swap is harmless.
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self._lock = threading.Lock()
        super().__init__(*args, **kwargs)


class GoalSender:
    """Sends goals of one action under UUIDs it chooses (see the module docs).

    Args:
        node: the rclpy node to create the clients on; spun by its owner.
        action_type: the action's type (``ExecuteSkill``, ``DelegateTask``).
        action_name: the action's name; resolved (and remapped) as the action client does.
        side: who serves the action, for the log (``the robot``, ``the people side``).
        retry_for_s: how long a cancel the server does not understand yet is retried.

    """

    def __init__(
        self,
        node: Node,
        action_type: Any,
        action_name: str,
        *,
        side: str,
        retry_for_s: float,
    ) -> None:
        self.node = node
        self.action = node.resolve_topic_name(action_name)
        self.side = side
        self.retry_for_s = retry_for_s
        self.client: ActionClient[Any, Any, Any] = LockedActionClient(
            node, action_type, action_name
        )
        self._canceller: Client[Any, Any] = node.create_client(
            CancelGoal, cancel_service(self.action)
        )
        self._lock = threading.Lock()
        self._cancels: dict[bytes, _Cancel] = {}
        self._destroyed = False

    def server_is_ready(self) -> bool:
        """True when the action has a server."""
        return bool(self.client.server_is_ready())

    def send(
        self,
        goal: Any,
        goal_id: UUID,
        feedback_callback: Callable[[Any], None] | None = None,
    ) -> RosFuture[Any]:
        """Send ``goal`` as ``goal_id`` (:func:`new_goal_id`): the future of its goal handle.

        Keep ``goal_id`` before sending, so a cancel can name the goal at any time after.
        """
        return self.client.send_goal_async(
            goal, feedback_callback=feedback_callback, goal_uuid=goal_id
        )

    def cancel(
        self, handle: ClientGoalHandle[Any, Any, Any] | None, goal_id: UUID | None, what: str
    ) -> None:
        """Cancel a goal sent here: through its ``handle`` once accepted, else by ``goal_id``.

        ``what`` names the goal in the log. Nothing happens for a goal never sent (no id).
        """
        if handle is not None:
            handle.cancel_goal_async()
        elif goal_id is not None:
            self.cancel_unaccepted(goal_id, what)

    def cancel_unaccepted(self, goal_id: UUID, what: str) -> None:
        """Cancel the goal ``goal_id`` on the server, though its acceptance never arrived."""
        log.warning(
            "the acceptance of %s was lost or is late; cancelling goal %s on %s (%s)",
            what,
            goal_text(goal_id),
            self.side,
            self.action,
        )
        with self._lock:
            self._cancels[bytes(goal_id.uuid)] = _Cancel(
                goal_id, what, until=time.monotonic() + self.retry_for_s
            )
        self.retry_cancels()

    def forget(self, goal_id: UUID) -> None:
        """Stop cancelling ``goal_id`` by id (the server rejected it: it never ran)."""
        with self._lock:
            self._cancels.pop(bytes(goal_id.uuid), None)

    def retry_cancels(self) -> None:
        """Send the cancels not yet sent or not yet understood, once the service is matched."""
        now = time.monotonic()
        sent: list[tuple[_Cancel, RosFuture[Any]]] = []
        with self._lock:  # held while the client is used: destroy() cannot come in between
            if self._destroyed:
                return
            ready = self._canceller.service_is_ready()
            for key, cancel in list(self._cancels.items()):
                if now > cancel.until:
                    del self._cancels[key]
                    if not cancel.in_flight:
                        self._give_up(cancel)
                elif ready and not cancel.in_flight:
                    cancel.in_flight = True
                    request = CancelGoal.Request(goal_info=GoalInfo(goal_id=cancel.goal_id))
                    sent.append((cancel, self._canceller.call_async(request)))
        for cancel, answer in sent:  # outside the lock: a done future calls back at once
            answer.add_done_callback(partial(self._on_answer, cancel))

    def destroy(self) -> None:
        """Remove the action client and the cancel client from the node.

        A timer's :meth:`retry_cancels` that comes after does nothing (the owner's timer can
        fire while its owner closes), nor does a second call.
        """
        with self._lock:
            if self._destroyed:
                return
            self._destroyed = True
            self.client.destroy()
            self.node.destroy_client(self._canceller)

    def _on_answer(self, cancel: _Cancel, answer: RosFuture[Any]) -> None:
        response: CancelGoal.Response | None = answer.result()
        code = response.return_code if response is not None else None
        goal = f"goal {goal_text(cancel.goal_id)} ({cancel.what})"
        with self._lock:
            if self._cancels.get(bytes(cancel.goal_id.uuid)) is not cancel:
                return  # forgotten (rejected goal) or given up meanwhile
            if code == CancelGoal.Response.ERROR_UNKNOWN_GOAL_ID:  # not there yet: ask again
                cancel.in_flight = False
                cancel.unknown = True
            else:
                del self._cancels[bytes(cancel.goal_id.uuid)]
        if code == CancelGoal.Response.ERROR_UNKNOWN_GOAL_ID:
            log.debug("%s does not know %s (yet): asking again", self.side, goal)
            return
        if code == CancelGoal.Response.ERROR_GOAL_TERMINATED:
            log.info("%s had ended %s already", self.side, goal)
        elif response is not None and response.goals_canceling:
            log.info("%s is cancelling %s", self.side, goal)
        else:
            log.warning("%s refused to cancel %s", self.side, goal)

    def _give_up(self, cancel: _Cancel) -> None:
        """Say why ``cancel`` is dropped unconfirmed after ``retry_for_s``."""
        why = (
            f"{self.side} does not know it (it ended long ago, or never arrived)"
            if cancel.unknown
            else f"{cancel_service(self.action)} never appeared"
        )
        log.warning(
            "gave up cancelling goal %s (%s) after %g s: %s",
            goal_text(cancel.goal_id),
            cancel.what,
            self.retry_for_s,
            why,
        )
