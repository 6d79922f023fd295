"""A hand-made server of the people's ``people/delegate`` action, for the host's tests.

:class:`PeopleEnd` answers every goal with what its ``answer`` function says (None: never,
until the goal is cancelled), and records the goals and the cancel requests it got.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from cogtree_interfaces.action import DelegateTask
from rclpy.action import ActionServer, CancelResponse
from rclpy.task import Future as RosFuture


@dataclass(frozen=True)
class Answer:
    """How the hand-made people end a goal: succeeded (``done``) or aborted with a code."""

    done: bool
    message: str = ""
    code: str = ""


class PeopleEnd:
    """Serves ``<namespace>/people/delegate`` on a participant of its own."""

    def __init__(
        self, ros: Any, answer: Callable[[DelegateTask.Goal], Answer | None], namespace: str = ""
    ) -> None:
        self.requests: list[DelegateTask.Goal] = []
        self.cancels = 0
        self._answer = answer
        self._silent: list[RosFuture] = []
        node = ros.node("people", spin=False)
        self.server = ActionServer(
            node,
            DelegateTask,
            f"{namespace}/people/delegate",
            execute_callback=self._execute,
            cancel_callback=self._on_cancel,
        )
        ros.spin(node)

    async def _execute(self, handle: Any) -> DelegateTask.Result:
        self.requests.append(handle.request)
        answer = self._answer(handle.request)
        if answer is None:
            woken = RosFuture()
            self._silent.append(woken)
            await woken
            handle.canceled()
            return DelegateTask.Result()
        if answer.done:
            handle.succeed()
        else:
            handle.abort()
        outcome = DelegateTask.Result.DONE if answer.done else DelegateTask.Result.REFUSED
        return DelegateTask.Result(
            outcome=outcome, failure_code=answer.code, message=answer.message
        )

    def _on_cancel(self, handle: Any) -> CancelResponse:
        self.cancels += 1
        for woken in self._silent:
            if not woken.done():
                woken.set_result(True)
        return CancelResponse.ACCEPT
