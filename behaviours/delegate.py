"""``DelegateToHuman``: ask a person to do one of their abilities, and wait without blocking."""

from __future__ import annotations

import time
from collections.abc import Callable
from concurrent.futures import CancelledError, Future
from typing import Any

import py_trees
from py_trees.common import Status

from behaviours.setup_handles import MissingHandleError, require_handle
from knowledge.experience import ErrorCode
from skills.commands import Feedback
from skills.human_channel import DelegationOutcome, HumanChannel, HumanRequest

Clock = Callable[[], float]
"""Seconds on a monotonic clock (wall time by default; simulated time in the simulator)."""


class DelegateToHuman(py_trees.behaviour.Behaviour):
    """Send ``person`` a request to do ``ability`` over the human channel and wait for them.

    Handles: ``people`` (:class:`~skills.human_channel.HumanChannel`; the simulator's is
    ``SimExecutor.people``) and, optionally, ``clock`` (a callable giving seconds; the default
    is :func:`time.monotonic`, the simulator passes its simulated time) for the timeout.

    Blackboard: none. The outcome is in :attr:`outcome` and ``feedback_message``; the person's
    own answer, once there is one, in :attr:`answer`.
    SUCCESS: the person reported the task done. FAILURE: they refused, were unavailable, or
    had not finished after ``timeout_s`` seconds (the request is then withdrawn); the feedback
    message says which and why. RUNNING: waiting for them (the feedback says who and for how
    long). Interrupted, it withdraws the request.
    """

    def __init__(
        self,
        name: str,
        person: str,
        ability: str,
        description: str = "",
        *,
        timeout_s: float = 300.0,
    ) -> None:
        super().__init__(name)
        if not person.strip() or not ability.strip():
            raise ValueError(
                f"{name}: a delegation names a person and one of their abilities, "
                f"got person={person!r}, ability={ability!r}"
            )
        if not timeout_s > 0:
            raise ValueError(f"{name}: timeout_s must be a number of seconds > 0, got {timeout_s}")
        self.person = person
        self.request = HumanRequest(ability=ability, description=description)
        self.timeout_s = timeout_s
        self.outcome: DelegationOutcome | None = None
        self.answer: Feedback | None = None
        self.channel: HumanChannel | None = None
        self.clock: Clock = time.monotonic
        self._pending: Future[Feedback] | None = None
        self._started_at = 0.0

    def setup(self, **kwargs: Any) -> None:
        """Take the ``people`` handle and the optional ``clock``."""
        self.channel = require_handle(self, kwargs, "people", HumanChannel)  # type: ignore[type-abstract]
        clock = kwargs.get("clock")
        if clock is not None and not callable(clock):
            raise MissingHandleError(
                f"{self.name}: handle `clock` must be a callable giving seconds, "
                f"got {type(clock).__name__}"
            )
        self.clock = clock if clock is not None else time.monotonic

    def initialise(self) -> None:
        """Send the request."""
        if self.channel is None:
            raise RuntimeError(f"{self.name}: setup(people=...) was not called")
        self.outcome, self.answer = None, None
        self._started_at = self.clock()
        try:
            self._pending = self.channel.delegate(self.person, self.request)
        except Exception as error:  # a channel that cannot carry the request
            self._pending = None
            self._end("person_unavailable", f"could not ask {self.person}: {error}")

    def update(self) -> Status:
        """Poll the answer; give up after the timeout."""
        if self.outcome is not None:
            return self._status()
        assert self._pending is not None
        ability = self.request.ability
        if self._pending.done():
            return self._finish(self._pending)
        waited = self.clock() - self._started_at
        if waited >= self.timeout_s:
            self._withdraw()
            return self._end(
                "timeout", f"{self.person} had not done {ability} after {self.timeout_s:g} s"
            )
        self.feedback_message = (
            f"waiting for {self.person} to {ability} ({waited:.0f} s of {self.timeout_s:g} s)"
        )
        return Status.RUNNING

    def terminate(self, new_status: Status) -> None:
        """Withdraw the request when interrupted (RUNNING -> INVALID)."""
        if self.status == Status.RUNNING and new_status == Status.INVALID and self._withdraw():
            self.feedback_message = f"withdrew the request to {self.person}"

    def _finish(self, future: Future[Feedback]) -> Status:
        try:
            feedback = future.result(timeout=0)
        except CancelledError:
            return self._end("person_unavailable", f"the request to {self.person} was withdrawn")
        except Exception as error:  # a channel that failed instead of answering
            return self._end("person_unavailable", f"no answer from {self.person}: {error}")
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

    def _withdraw(self) -> bool:
        pending, self._pending = self._pending, None
        if pending is None or pending.done() or self.channel is None:
            return False
        return self.channel.cancel(pending)
