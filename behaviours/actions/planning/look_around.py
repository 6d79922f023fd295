"""``LookAround``: the robot looks at the room it is in, refreshing its belief."""

from __future__ import annotations

from concurrent.futures import Future
from typing import Any

from py_trees.common import Status

from cogtree.behaviours.background import BackgroundWork, Pending
from cogtree.behaviours.setup_handles import require_handle
from cogtree.skills.action_model.commands import Command, Executor, Feedback


class LookAround(BackgroundWork[Feedback]):
    """Send one ``observe`` command for ``robot`` and wait for it, without blocking.

    What the robot sees updates the scene-graph belief on the executor's side (the simulator
    adds what it sees and forgets what it no longer finds where the belief put it).

    Handle: ``executor`` (:class:`~skills.action_model.commands.Executor`). Blackboard: none.
    SUCCESS: the robot looked. FAILURE: the executor reported a failure (the feedback message
    says why). RUNNING: the observation is in progress. Interrupted, it cancels it.
    """

    first_poll_next_tick = False

    def __init__(self, name: str = "LookAround", *, robot: str = "robot1") -> None:
        super().__init__(name)
        self.command = Command(robot=robot, skill="LOOK", name="observe")
        self.executor: Executor | None = None

    def setup(self, **kwargs: Any) -> None:
        """Take the ``executor`` handle."""
        super().setup(**kwargs)
        self.executor = require_handle(self, kwargs, "executor", Executor)  # type: ignore[type-abstract]

    def start(self) -> Future[Feedback]:
        """Start looking."""
        assert self.executor is not None
        return self.executor.submit(self.command)

    def waiting(self, waited: float) -> str:
        """Who is looking."""
        return f"{self.command.robot} is looking around"

    def finish(self, feedback: Feedback) -> Status:
        """SUCCESS once the robot looked; FAILURE with the executor's reason."""
        self.feedback_message = feedback.message or (
            f"{self.command.robot} looked around" if feedback.ok else "looking failed"
        )
        return Status.SUCCESS if feedback.ok else Status.FAILURE

    def on_cancel(self, work: Pending[Feedback]) -> None:
        """Cancel the observation on the executor (interrupted)."""
        assert self.executor is not None
        self.executor.cancel(self.command)
        self.feedback_message = f"{self.command.robot} stopped looking around"
