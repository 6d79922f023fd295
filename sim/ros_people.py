"""``SimPeopleBridge``: the simulator's people, serving the host's ``people/delegate`` action.

The host (``cogtree ros``) asks a person to do one of their abilities with a
``cogtree_interfaces/action/DelegateTask`` goal on ``people/delegate`` under its namespace
(default ``/cogtree``). The bridge accepts every goal, delegates it to the simulated
:class:`~sim.humans.People`, sends one feedback (``accepted``) and ends the goal when the
person finishes (succeeded, DONE) or declines (aborted, REFUSED with ``person_refused`` or
TIMEOUT with ``person_unavailable``, and the reason); a refusal ends it at once. A cancel
request withdraws the task.

People work in simulated time: their tasks advance when the simulator steps (the robot
node's timer does that while anyone is working). Callbacks must not run concurrently with
the simulator's steps: give the bridge the node that steps it, spun by one thread.
"""

from __future__ import annotations

import logging
from concurrent.futures import Future
from typing import Any

from cogtree_interfaces.action import DelegateTask
from rclpy.action.server import ActionServer, CancelResponse, ServerGoalHandle
from rclpy.node import Node
from rclpy.task import Future as RosFuture

from cogtree.knowledge.closing import Closeable
from cogtree.sim.humans import DelegatedTask, People
from cogtree.skills.action_model.commands import Feedback
from cogtree.skills.ros.protocol import DEFAULT_HOST_NAMESPACE, DELEGATE_ACTION, topic

log = logging.getLogger(__name__)


class SimPeopleBridge(Closeable):
    """Plays ``people`` on the delegate action under ``host_namespace`` (see the module docs)."""

    def __init__(
        self, node: Node, people: People, *, host_namespace: str = DEFAULT_HOST_NAMESPACE
    ) -> None:
        self.node = node
        self.people = people
        self.host_namespace = host_namespace
        self._pending: dict[bytes, Future[Feedback]] = {}
        self._server = ActionServer(
            node,
            DelegateTask,
            topic(host_namespace, DELEGATE_ACTION),
            execute_callback=self._execute,
            cancel_callback=self._on_cancel_request,
        )

    @property
    def pending(self) -> int:
        """Requests a person is still working on."""
        return len(self._pending)

    async def _execute(self, handle: ServerGoalHandle[Any, Any, Any]) -> Any:
        request: DelegateTask.Goal = handle.request
        task = DelegatedTask(ability=request.ability, description=request.description)
        future = self.people.delegate(request.person, task)
        goal_id = bytes(handle.goal_id.uuid)
        self._pending[goal_id] = future
        handle.publish_feedback(DelegateTask.Feedback(accepted=True, message="asked"))
        ended: RosFuture[Future[Feedback]] = RosFuture()
        future.add_done_callback(lambda done: ended.set_result(done))
        log.debug("asked %s to %s", request.person, request.ability)
        done = await ended
        assert done is not None  # set only with the person's future
        self._pending.pop(goal_id, None)
        if done.cancelled():
            handle.canceled()
            return DelegateTask.Result(outcome=DelegateTask.Result.TIMEOUT, message="withdrawn")
        feedback = done.result()
        if feedback.ok:
            handle.succeed()
            return DelegateTask.Result(outcome=DelegateTask.Result.DONE, message=feedback.message)
        handle.abort()
        outcome = (
            DelegateTask.Result.REFUSED
            if feedback.code == "person_refused"
            else DelegateTask.Result.TIMEOUT
        )
        return DelegateTask.Result(
            outcome=outcome, failure_code=feedback.code or "", message=feedback.message
        )

    def _on_cancel_request(self, handle: ServerGoalHandle[Any, Any, Any]) -> CancelResponse:
        future = self._pending.get(bytes(handle.goal_id.uuid))
        if future is None:
            return CancelResponse.REJECT
        self.people.cancel(future)
        return CancelResponse.ACCEPT

    def close(self) -> None:
        """Stop serving (tasks in progress stay in the simulator)."""
        self._server.destroy()
