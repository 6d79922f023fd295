"""The controller: runs a skill's commands through an executor, one at a time, without blocking.

A :class:`SkillRun` is driven by polling, which is what a behaviour's ``update()`` needs:
each :meth:`SkillRun.step` checks the command in flight and, once its future is done, either
submits the next command or ends the run. Command feedback becomes the skill's outcome
(:class:`SkillOutcome`); a failure message names the skill, the command, the failure code and
the executor's reason, e.g. ``PICK(bottle, right) failed at grasp: object_not_visible — bottle
is not on table_1``. A skill whose preconditions failed ends at once, and nothing is sent.
"""

from __future__ import annotations

import logging
import threading
from concurrent.futures import Future
from enum import Enum

from pydantic import BaseModel, ConfigDict, Field

from cogtree.knowledge.memory.experience import ErrorCode
from cogtree.skills.action_model.checks import Check
from cogtree.skills.action_model.commands import Command, Executor, Feedback
from cogtree.skills.capabilities.calls import SkillCall
from cogtree.skills.planning.decomposition import SkillPlan

log = logging.getLogger(__name__)


class RunStatus(str, Enum):
    """Where a skill run is: still running, or how it ended."""

    RUNNING = "running"
    SUCCEEDED = "succeeded"
    FAILED = "failed"
    CANCELLED = "cancelled"


class CommandResult(BaseModel):
    """A command that ran and the feedback it ended with."""

    model_config = ConfigDict(frozen=True)

    command: Command
    feedback: Feedback


class SkillOutcome(BaseModel):
    """How a skill run ended, and why.

    ``failed_command`` / ``code``: the command that failed and its failure code;
    ``failed_precondition``: the precondition that stopped the skill before any command.
    """

    model_config = ConfigDict(frozen=True)

    call: SkillCall
    status: RunStatus
    message: str
    code: ErrorCode | None = None
    failed_command: Command | None = None
    failed_precondition: Check | None = None
    results: tuple[CommandResult, ...] = ()
    context: dict[str, str] = Field(
        default_factory=dict,
        description="the call's facets when it started (see failure_context), for the explainer",
    )


class SkillRun:
    """One skill call being executed, command by command, through ``executor``.

    Call :meth:`step` on every tick until it returns something other than
    :attr:`RunStatus.RUNNING`; :attr:`outcome` then says how it ended. :meth:`cancel` stops
    it. Each step submits at most one command, and never waits for one.
    """

    def __init__(self, plan: SkillPlan, executor: Executor) -> None:
        self.plan = plan
        self._executor = executor
        self._lock = threading.Lock()
        self._next = 0
        self._in_flight: tuple[Command, Future[Feedback]] | None = None
        self._results: list[CommandResult] = []
        self._outcome: SkillOutcome | None = None
        if not plan.ok:
            self._end(
                RunStatus.FAILED,
                plan.message,
                code=plan.preconditions.failure.code if plan.preconditions.failure else None,
                failed_precondition=plan.preconditions.failure,
            )

    @property
    def call(self) -> SkillCall:
        """The skill call this run executes."""
        return self.plan.call

    @property
    def status(self) -> RunStatus:
        """RUNNING until the run ends, then how it ended."""
        with self._lock:
            return self._outcome.status if self._outcome is not None else RunStatus.RUNNING

    @property
    def outcome(self) -> SkillOutcome | None:
        """How the run ended; None while it is running."""
        with self._lock:
            return self._outcome

    @property
    def in_flight(self) -> Command | None:
        """The command the executor is running now, if any."""
        with self._lock:
            return self._in_flight[0] if self._in_flight is not None else None

    @property
    def results(self) -> tuple[CommandResult, ...]:
        """The commands that have ended so far, with their feedback."""
        with self._lock:
            return tuple(self._results)

    def step(self) -> RunStatus:
        """Advance without blocking: collect the finished command, submit the next one."""
        with self._lock:
            if self._outcome is not None:
                return self._outcome.status
            if self._in_flight is not None:
                command, future = self._in_flight
                if not future.done():
                    return RunStatus.RUNNING
                self._in_flight = None
                feedback = _feedback_of(future)
                self._results.append(CommandResult(command=command, feedback=feedback))
                if not feedback.ok:
                    reason = feedback.message or "no reason given"
                    self._end(
                        RunStatus.FAILED,
                        f"{self.call} failed at {command.name}: {feedback.code or 'error'} "
                        f"— {reason}",
                        code=feedback.code,
                        failed_command=command,
                    )
                    return RunStatus.FAILED
            commands = self.plan.commands
            if self._next == len(commands):
                self._end(RunStatus.SUCCEEDED, f"{self.call} succeeded ({len(commands)} commands)")
                return RunStatus.SUCCEEDED
            command = commands[self._next]
            self._next += 1
            self._in_flight = (command, self._submit(command))
            return RunStatus.RUNNING

    def cancel(self) -> None:
        """Stop the run: ask the executor to stop the command in flight; nothing more is sent."""
        with self._lock:
            if self._outcome is not None:
                return
            in_flight = self._in_flight
            self._in_flight = None
            if in_flight is None:
                where = "before its first command" if self._next == 0 else "between commands"
            else:
                where = f"at {in_flight[0].name}"
            self._end(RunStatus.CANCELLED, f"{self.call} cancelled {where}")
        if in_flight is not None:
            try:
                self._executor.cancel(in_flight[0])
            except Exception:
                log.exception("executor failed to cancel %s", in_flight[0].describe())

    def _submit(self, command: Command) -> Future[Feedback]:
        try:
            return self._executor.submit(command)
        except Exception as error:
            log.exception("executor raised on submit of %s", command.describe())
            failed: Future[Feedback] = Future()
            failed.set_result(
                Feedback(ok=False, message=f"the executor refused the command: {error}")
            )
            return failed

    def _end(
        self,
        status: RunStatus,
        message: str,
        *,
        code: ErrorCode | None = None,
        failed_command: Command | None = None,
        failed_precondition: Check | None = None,
    ) -> None:
        self._outcome = SkillOutcome(
            call=self.call,
            status=status,
            message=message,
            code=code,
            failed_command=failed_command,
            failed_precondition=failed_precondition,
            results=tuple(self._results),
            context=dict(self.plan.context),
        )
        log.log(logging.INFO if status is RunStatus.SUCCEEDED else logging.WARNING, "%s", message)


def _feedback_of(future: Future[Feedback]) -> Feedback:
    """The feedback of a done future; a failed one when it was cancelled, raised or lied."""
    if future.cancelled():
        return Feedback(ok=False, message="the executor cancelled the command")
    error = future.exception()
    if error is not None:
        return Feedback(ok=False, message=f"the executor raised {type(error).__name__}: {error}")
    result = future.result()
    if not isinstance(result, Feedback):
        return Feedback(ok=False, message=f"the executor answered {result!r}, not Feedback")
    return result
