"""``DelegateToHuman``: ask a person to do one of their abilities, and wait without blocking."""

from __future__ import annotations

import time
from concurrent.futures import CancelledError, Future
from typing import Any

from py_trees.common import Status

from cogtree.behaviours.background import BackgroundWork, Pending
from cogtree.behaviours.setup_handles import MissingHandleError, require_handle
from cogtree.knowledge.memory.experience import ErrorCode
from cogtree.skills.action_model.commands import Feedback
from cogtree.skills.execution.human_channel import DelegationOutcome, HumanChannel, HumanRequest


class DelegateToHuman(BackgroundWork[Feedback]):
    """Send ``person`` a request to do ``ability`` over the human channel and wait for them.

    Handles: ``people`` (:class:`~skills.execution.human_channel.HumanChannel`; the simulator's is
    ``SimExecutor.people``) and, optionally, ``clock`` (a callable giving seconds; the default
    is :func:`time.monotonic`, the simulator passes its simulated time) for the timeout.

    Blackboard: none. The outcome is in :attr:`outcome` and ``feedback_message``; the person's
    own answer, once there is one, in :attr:`answer`.
    SUCCESS: the person reported the task done. FAILURE: they refused, were unavailable, or
    had not finished after ``timeout_s`` seconds (the request is then withdrawn); the feedback
    message says which and why. RUNNING: waiting for them (the feedback says who and for how
    long). Interrupted, it withdraws the request.
    """

    first_poll_next_tick = False

    def __init__(
        self,
        name: str,
        person: str,
        ability: str,
        description: str = "",
        *,
        timeout_s: float = 300.0,
    ) -> None:
        super().__init__(name, timeout_s=timeout_s)
        if not person.strip() or not ability.strip():
            raise ValueError(
                f"{name}: a delegation names a person and one of their abilities, "
                f"got person={person!r}, ability={ability!r}"
            )
        self.person = person
        self.request = HumanRequest(ability=ability, description=description)
        self.outcome: DelegationOutcome | None = None
        self.answer: Feedback | None = None
        self.channel: HumanChannel | None = None

    def setup(self, **kwargs: Any) -> None:
        """Take the ``people`` handle and the optional ``clock``."""
        super().setup(**kwargs)
        self.channel = require_handle(self, kwargs, "people", HumanChannel)  # type: ignore[type-abstract]
        clock = kwargs.get("clock")
        if clock is not None and not callable(clock):
            raise MissingHandleError(
                f"{self.name}: handle `clock` must be a callable giving seconds, "
                f"got {type(clock).__name__}"
            )
        self.clock = clock if clock is not None else time.monotonic

    def start(self) -> Future[Feedback] | Status:
        """Send the request; FAILURE at once when the channel cannot carry it."""
        assert self.channel is not None
        self.outcome, self.answer = None, None
        try:
            return self.channel.delegate(self.person, self.request)
        except Exception as error:  # a channel that cannot carry the request
            return self._end("person_unavailable", f"could not ask {self.person}: {error}")

    def waiting(self, waited: float) -> str:
        """Who is asked to do what, for how long so far."""
        return (
            f"waiting for {self.person} to {self.request.ability} "
            f"({waited:.0f} s of {self.timeout_s:g} s)"
        )

    def on_timeout(self, work: Pending[Feedback], waited: float) -> Status:
        """Withdraw the request; FAILURE (``timeout``)."""
        self._withdraw(work)
        return self._end(
            "timeout",
            f"{self.person} had not done {self.request.ability} after {self.timeout_s:g} s",
        )

    def on_cancel(self, work: Pending[Feedback]) -> None:
        """Withdraw the request (interrupted)."""
        if self._withdraw(work):
            self.feedback_message = f"withdrew the request to {self.person}"

    def on_error(self, error: Exception) -> Status:
        """FAILURE: the request was withdrawn, or the channel failed instead of answering."""
        if isinstance(error, CancelledError):
            return self._end("person_unavailable", f"the request to {self.person} was withdrawn")
        return self._end("person_unavailable", f"no answer from {self.person}: {error}")

    def finish(self, feedback: Feedback) -> Status:
        """SUCCESS when the person reports the task done; FAILURE with their reason."""
        self.answer = feedback
        if feedback.ok:
            message = feedback.message or f"{self.person} did {self.request.ability}"
            self.outcome = DelegationOutcome(
                person=self.person, ability=self.request.ability, status="done", message=message
            )
            return self._status()
        return self._end(feedback.code or "person_unavailable", feedback.message or "no reason")

    def _end(self, code: ErrorCode, reason: str) -> Status:
        self.outcome = DelegationOutcome(
            person=self.person,
            ability=self.request.ability,
            status="failed",
            code=code,
            message=f"{self.person} did not {self.request.ability}: {reason}",
        )
        return self._status()

    def _status(self) -> Status:
        assert self.outcome is not None
        self.feedback_message = self.outcome.message
        return Status.SUCCESS if self.outcome.status == "done" else Status.FAILURE

    def _withdraw(self, work: Pending[Feedback]) -> bool:
        if work.done() or self.channel is None or not isinstance(work, Future):
            return False
        return self.channel.cancel(work)
