"""A robot (or people) side whose goal acceptances never reach the host, for the host's tests.

rmw_fastrtps drops a goal response when the server has not matched the client's reply reader
yet, while the server accepts and runs the goal. :class:`LostAcceptanceServer` does that on
purpose, every time: it accepts and runs every goal but never sends the goal response.
:class:`ForgetfulEnd` serves an action with it, runs every goal until it is cancelled, and
records which goal ids it ran, was asked to cancel and stopped.
"""

from __future__ import annotations

from typing import Any

from action_msgs.msg import GoalInfo
from rclpy.action import ActionServer, CancelResponse
from rclpy.action.server import ServerGoalHandle
from rclpy.task import Future as RosFuture

from cogtree.skills.ros.goal_sender import goal_text


class LostAcceptanceServer(ActionServer):
    """An rclpy action server that accepts and executes goals without answering the request.

    It replaces rclpy's handling of a goal request (``ActionServer._execute_goal_request``
    of ROS 2 Kilted) with what that method does for an accepted goal, minus the goal response:
    track a goal handle and its result future, publish the status, execute.
    """

    async def _execute_goal_request(self, header_and_request: tuple[Any, Any]) -> None:
        _, request = header_and_request
        info = GoalInfo(goal_id=request.goal_id, stamp=self._node.get_clock().now().to_msg())
        with self._lock:
            handle = ServerGoalHandle(self, info, request.goal)
        key = bytes(request.goal_id.uuid)
        self._goal_handles[key] = handle
        self._result_futures[key] = RosFuture()
        self.add_future(self._result_futures[key])
        self._handle.publish_status()
        handle.execute()


class ForgetfulEnd:
    """Serves ``action`` on a participant of its own; its acceptances are lost on the way.

    Every goal runs until a cancel request for it arrives (accepted), then ends cancelled.
    ``started`` has each goal's id (UUID text) and request, ``cancels`` the ids of the cancel
    requests, ``stopped`` the ids of the goals that ended.
    """

    def __init__(self, ros: Any, action_type: Any, action: str) -> None:
        self.started: list[tuple[str, Any]] = []
        self.cancels: list[str] = []
        self.stopped: list[str] = []
        self._action_type = action_type
        self._stops: dict[str, RosFuture[None]] = {}
        node = ros.node("forgetful", spin=False)
        LostAcceptanceServer(
            node,
            action_type,
            action,
            execute_callback=self._execute,
            cancel_callback=self._on_cancel,
        )
        ros.spin(node)

    def started_ids(self) -> list[str]:
        """The ids of the goals it started, in order."""
        return [goal for goal, _ in self.started]

    async def _execute(self, handle: Any) -> Any:
        goal = goal_text(handle.goal_id)
        self.started.append((goal, handle.request))
        await self._stops.setdefault(goal, RosFuture())
        handle.canceled()
        self.stopped.append(goal)
        return self._action_type.Result()

    def _on_cancel(self, handle: Any) -> CancelResponse:
        goal = goal_text(handle.goal_id)
        self.cancels.append(goal)
        stop = self._stops.setdefault(goal, RosFuture())
        if not stop.done():
            stop.set_result(None)
        return CancelResponse.ACCEPT
