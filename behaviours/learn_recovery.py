"""``LearnRecovery``: a recovery that reached the goal goes into the experience store.

RoBee's explainer learns: when the recovery loop succeeds after a failed attempt, the failure
(skill, code, context) and what worked are recorded, with their provenance, so the next
similar failure is fixed at once instead of by trial. What worked is, in the plan
vocabulary, the recovery the successful plan started with: the explainer's recovery when the
HTN replan used one, else the steps the successful plan ran before doing the failed skill
again (``GOTO(kitchen), LOOK()`` when the planner model looked elsewhere first).
"""

from __future__ import annotations

from typing import Any

from py_trees.common import Status

from behaviours import keys
from behaviours.background import BackgroundWork
from behaviours.plan_attempts import read_attempts, step_text
from behaviours.setup_handles import require_handle
from knowledge.experience import (
    ExperienceRecord,
    ExperienceStore,
    RecoveryStep,
    recovery_text,
)
from knowledge.worker_pool import WorkerPool
from skills.plan_model import PlanAttempt, PlanStep

LEARNT_FACETS = ("object_type", "place_type", "room")
"""The failure's facets a learnt record requires: kinds of things and the room, not ids, so
it serves the next bottle too, in this home."""

SAME_THING_ARGS = ("object", "target", "person", "container")
"""Arguments that say a step does the failed skill again on the same thing."""


class LearnRecovery(keys.DeclaredKeys, BackgroundWork[ExperienceRecord | None]):
    """Record what fixed this turn's failure, once the recovery loop has succeeded.

    Handles: ``experience`` (:class:`~knowledge.experience.ExperienceStore`, written through
    to its database, if it has one) and ``workers`` (the write runs there).

    Reads ``/plan/attempts`` and ``/turn/utterance``. Writes nothing on the blackboard.
    SUCCESS always: a record learnt, nothing to learn (no failed skill before the success,
    or the same lesson is already stored), or the store refused it (logged, never fatal).
    RUNNING while the record is written.
    """

    reads = (keys.ATTEMPTS, keys.UTTERANCE)

    def __init__(self, name: str = "LearnRecovery") -> None:
        super().__init__(name)
        self.store: ExperienceStore | None = None
        self.utterance_key = self.key_of(keys.UTTERANCE)

    def setup(self, **kwargs: Any) -> None:
        """Take the ``experience`` and ``workers`` handles."""
        super().setup(**kwargs)
        self.store = require_handle(self, kwargs, "experience", ExperienceStore)
        self.workers = require_handle(self, kwargs, "workers", WorkerPool)

    def start(self) -> Any:
        """Find the lesson of this turn's attempts and start writing it; SUCCESS if none."""
        assert self.store is not None
        attempts = read_attempts(self.blackboard)
        lesson = _lesson(attempts)
        if lesson is None:
            self.feedback_message = "nothing to learn: no skill failed before the success"
            return Status.SUCCESS
        failed, worked = lesson
        if _known(self.store, failed, worked):
            self.feedback_message = f"already known: {recovery_text(worked) or 'retry'}"
            return Status.SUCCESS
        request = str(keys.read(self.blackboard, self.utterance_key) or "")
        return self.submit(self._record, failed, worked, attempts[-1], request)

    def finish(self, result: ExperienceRecord | None) -> Status:
        """SUCCESS, saying what was learnt."""
        if result is not None:
            self.feedback_message = f"learnt {result.id}: {result.suggestion}"
        return Status.SUCCESS

    def on_error(self, error: Exception) -> Status:
        """A store that refused the record: logged by the base, SUCCESS all the same."""
        super().on_error(error)
        return Status.SUCCESS

    def _record(
        self,
        failed: PlanAttempt,
        worked: tuple[RecoveryStep, ...],
        success: PlanAttempt,
        request: str,
    ) -> ExperienceRecord:
        assert self.store is not None
        return self.store.add_recovery(
            skill=failed.failed_skill,
            error_code=failed.error_code,
            error_text=failed.failure,
            request=request,
            context={f: failed.context[f] for f in LEARNT_FACETS if f in failed.context},
            suggestion=_suggestion(failed, worked),
            recovery=worked,
            worked=", ".join(map(step_text, success.plan.steps)),
            suggested_by=failed.experience,
        )


def _lesson(attempts: list[PlanAttempt]) -> tuple[PlanAttempt, tuple[RecoveryStep, ...]] | None:
    """The last failed skill before a successful last attempt, and what worked after it."""
    if len(attempts) < 2 or attempts[-1].outcome != "succeeded":
        return None
    failed = next(
        (a for a in reversed(attempts[:-1]) if a.failed_skill and a.error_code),
        None,
    )
    if failed is None:
        return None
    success = attempts[-1]
    if success.recovered_with:
        return failed, success.recovered_with
    before = _steps_before_redo(success.plan.steps, failed)
    return (failed, before) if before is not None else None


def _steps_before_redo(
    steps: list[PlanStep], failed: PlanAttempt
) -> tuple[RecoveryStep, ...] | None:
    """The steps the plan runs before doing the failed skill again on the same thing.

    None when the plan never does it again (it reached the goal another way: no clear
    lesson about this failure).
    """
    same = {arg: failed.context[arg] for arg in SAME_THING_ARGS if arg in failed.context}
    before: list[RecoveryStep] = []
    for step in steps:
        if step.action == failed.failed_skill and all(
            step.args.get(arg) == value for arg, value in same.items() if arg in step.args
        ):
            return tuple(before)
        args = {k: v for k, v in step.args.items() if isinstance(v, str | float | int)}
        before.append(RecoveryStep(action=step.action, args=args))
    return None


def _suggestion(failed: PlanAttempt, worked: tuple[RecoveryStep, ...]) -> str:
    where = ", ".join(f"{f} {failed.context[f]}" for f in LEARNT_FACETS if f in failed.context)
    situation = f"{failed.failed_skill} failed with {failed.error_code}" + (
        f" ({where})" if where else ""
    )
    if not worked:
        return f"Last time {situation}, trying again as planned worked."
    return (
        f"Last time {situation}, this worked: {recovery_text(worked)}, then the task was "
        "planned again."
    )


def _known(store: ExperienceStore, failed: PlanAttempt, worked: tuple[RecoveryStep, ...]) -> bool:
    """Whether a learnt record already holds this lesson (same failure, context and fix)."""
    context = {f: failed.context[f] for f in LEARNT_FACETS if f in failed.context}
    return any(
        record.learnt
        and record.skill == failed.failed_skill
        and record.error_code == failed.error_code
        and record.context == context
        and record.recovery == worked
        for record in store.records
    )
