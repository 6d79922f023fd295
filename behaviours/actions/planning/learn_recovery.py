"""``LearnRecovery``: a recovery that reached the goal goes into the experience store.

RoBee's explainer learns: when the recovery loop succeeds after failed attempts, each
failure (skill, code, context) is recorded with what finally worked and its provenance, so
the next similar failure is fixed at once instead of by trial: the first failure of the
turn too, whose own suggestion may have been the one that did not work. What worked is, in
the plan vocabulary, the recovery the successful plan started with: the explainer's recovery
when the HTN replan used one, else the steps the successful plan ran before doing the failed
skill again (``GOTO(kitchen), LOOK()`` when the planner model looked elsewhere first).
"""

from __future__ import annotations

from typing import Any

from py_trees.common import Status

from cogtree.behaviours import keys
from cogtree.behaviours.actions.planning.plan_attempts import step_text
from cogtree.behaviours.background import BackgroundWork
from cogtree.behaviours.keys import read_attempts
from cogtree.behaviours.setup_handles import require_handle
from cogtree.knowledge.memory.experience import (
    ExperienceRecord,
    ExperienceStore,
    RecoveryStep,
    recovery_text,
)
from cogtree.knowledge.worker_pool import WorkerPool
from cogtree.skills.planning.plan_model import PlanAttempt, PlanStep

LEARNT_FACETS = ("object_type", "place_type", "room")
"""The failure's facets a learnt record requires: kinds of things and the room, not ids, so
it serves the next bottle too, in this home. Without a known type the object's id is kept
instead, so a lesson about the car keys never applies to anything else."""

SAME_THING_ARGS = ("object", "target", "person", "container")
"""Arguments that say a step does the failed skill again on the same thing."""


class LearnRecovery(keys.DeclaredKeys, BackgroundWork[list[ExperienceRecord]]):
    """Record what fixed this turn's failure, once the recovery loop has succeeded.

    Handles: ``experience`` (:class:`~knowledge.memory.experience.ExperienceStore`, written through
    to its database, if it has one) and ``workers`` (the write runs there).

    Reads ``/plan/attempts`` and ``/turn/utterance``. Writes nothing on the blackboard.
    SUCCESS always: records learnt, nothing to learn (no failed skill before the success,
    or the same lessons are already stored), or the store refused them (logged, never
    fatal). RUNNING while the records are written.
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
        """Find the lessons of this turn's attempts and start writing them; SUCCESS if none."""
        assert self.store is not None
        attempts = read_attempts(self.blackboard)
        lessons = _lessons(attempts)
        new = [
            (failed, worked) for failed, worked in lessons if not _known(self.store, failed, worked)
        ]
        if not new:
            self.feedback_message = (
                "already known"
                if lessons
                else "nothing to learn: no skill failed before the success"
            )
            return Status.SUCCESS
        request = str(keys.read(self.blackboard, self.utterance_key) or "")
        return self.submit(self._record, new, attempts[-1], request)

    def finish(self, result: list[ExperienceRecord]) -> Status:
        """SUCCESS, saying what was learnt."""
        learnt = "; ".join(f"{record.id}: {record.suggestion}" for record in result)
        self.feedback_message = f"learnt {learnt}"
        return Status.SUCCESS

    def on_error(self, error: Exception) -> Status:
        """A store that refused the record: logged by the base, SUCCESS all the same."""
        super().on_error(error)
        return Status.SUCCESS

    def _record(
        self, lessons: list[Lesson], success: PlanAttempt, request: str
    ) -> list[ExperienceRecord]:
        assert self.store is not None
        return [
            self.store.add_recovery(
                skill=failed.failed_skill,
                error_code=failed.error_code,
                error_text=failed.failure,
                request=request,
                context=learnt_context(failed),
                suggestion=_suggestion(failed, worked),
                recovery=worked,
                worked=", ".join(map(step_text, success.plan.steps)),
                suggested_by=failed.experience,
            )
            for failed, worked in lessons
        ]


Lesson = tuple[PlanAttempt, tuple[RecoveryStep, ...]]
"""A failed attempt, and what worked after it."""


def _lessons(attempts: list[PlanAttempt]) -> list[Lesson]:
    """Each failed skill before a successful last attempt, with what worked in the end."""
    if len(attempts) < 2 or attempts[-1].outcome != "succeeded":
        return []
    success = attempts[-1]
    lessons: list[Lesson] = []
    for failed in attempts[:-1]:
        if not (failed.failed_skill and failed.error_code):
            continue
        if success.recovered_with:
            lessons.append((failed, success.recovered_with))
            continue
        before = _steps_before_redo(success.plan.steps, failed)
        if before is not None:
            lessons.append((failed, before))
    return lessons


def learnt_context(failed: PlanAttempt) -> dict[str, str]:
    """The facets a record learnt from ``failed`` requires (:data:`LEARNT_FACETS`)."""
    context = {facet: failed.context[facet] for facet in LEARNT_FACETS if facet in failed.context}
    if "object_type" not in context and "object" in failed.context:
        context["object"] = failed.context["object"]
    return context


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
    where = ", ".join(f"{facet} {value}" for facet, value in learnt_context(failed).items())
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
    context = learnt_context(failed)
    return any(
        record.learnt
        and record.skill == failed.failed_skill
        and record.error_code == failed.error_code
        and record.context == context
        and record.recovery == worked
        for record in store.records
    )
