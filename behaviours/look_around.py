"""``LookAround``: the robot looks at the room it is in, refreshing its belief."""

from __future__ import annotations

from concurrent.futures import Future
from typing import Any

import py_trees
from py_trees.common import Status

from behaviours.setup_handles import require_handle
from skills.commands import Command, Executor, Feedback


class LookAround(py_trees.behaviour.Behaviour):
    """Send one ``observe`` command for ``robot`` and wait for it, without blocking.

    What the robot sees updates the scene-graph belief on the executor's side (the simulator
    adds what it sees and forgets what it no longer finds where the belief put it).

    Handle: ``executor`` (:class:`~skills.commands.Executor`). Blackboard: none.
    SUCCESS: the robot looked. FAILURE: the executor reported a failure (the feedback message
    says why). RUNNING: the observation is in progress. Interrupted, it cancels it.
    """

    def __init__(self, name: str = "LookAround", *, robot: str = "robot1") -> None:
        super().__init__(name)
        self.command = Command(robot=robot, skill="LOOK", name="observe")
        self.executor: Executor | None = None
        self._pending: Future[Feedback] | None = None

    def setup(self, **kwargs: Any) -> None:
        """Take the ``executor`` handle."""
        self.executor = require_handle(self, kwargs, "executor", Executor)  # type: ignore[type-abstract]

    def initialise(self) -> None:
        """Start looking."""
        assert self.executor is not None
        self._pending = self.executor.submit(self.command)

    def update(self) -> Status:
        """SUCCESS once the observation is done."""
        assert self._pending is not None
        if not self._pending.done():
            self.feedback_message = f"{self.command.robot} is looking around"
            return Status.RUNNING
        feedback = self._pending.result()
        self.feedback_message = feedback.message or (
            f"{self.command.robot} looked around" if feedback.ok else "looking failed"
        )
        return Status.SUCCESS if feedback.ok else Status.FAILURE

    def terminate(self, new_status: Status) -> None:
        """Cancel the observation when interrupted (RUNNING -> INVALID)."""
        if self.status == Status.RUNNING and new_status == Status.INVALID and self.executor:
            self.executor.cancel(self.command)
