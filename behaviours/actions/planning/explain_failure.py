"""``ExplainFailure``: what went wrong in this attempt, written down for the next one.

After an attempt of the recovery loop fails, the planner of the next attempt must know why:
the validation's diagnosis when the plan was rejected before it ran, or the failed skill's
message (the controller's failure message), the explainer's suggestion (RoBee's explainer:
:class:`~behaviours.actions.dialogue.explain.Explain` on the failure-experience store) and the
reflections of the steps that ran (InteractGen's manager). This node writes them into the attempt's
record in ``/plan/attempts``, where :class:`~behaviours.actions.planning.plan_task.PlanTask` reads
them.
"""

from __future__ import annotations

from py_trees.behaviour import Behaviour
from py_trees.common import Status

from cogtree.behaviours import keys
from cogtree.behaviours.keys import Explanation, update_last_attempt
from cogtree.skills.execution.controller import RunStatus, SkillOutcome
from cogtree.skills.planning.plan_model import PlanAttempt, Reflection

UNKNOWN_FAILURE = "a step of the plan failed, and no skill outcome says why"
"""The failure recorded when execution failed without a failed ``/skill/outcome``."""


class ExplainFailure(keys.DeclaredKeys, Behaviour):
    """Record the current attempt's failure, suggestion and reflections in ``/plan/attempts``.

    Reads ``/skill/outcome`` (the failed skill), ``/skill/explanation`` (used only when it
    explains that same failure), ``/plan/reflections`` and ``/plan/attempts``. Writes
    ``/plan/attempts`` (the last attempt: ``failure``, ``suggestion`` and its ``recovery``
    steps and ``experience`` record, the failed skill, code and context, ``reflections``,
    ``outcome`` ``failed`` unless validation already marked it ``rejected``).

    SUCCESS: the attempt was updated. FAILURE: there is no attempt to record. Never RUNNING.
    The tree should clear ``/skill/outcome``, ``/skill/explanation`` and ``/plan/reflections``
    when an attempt starts, so an older attempt's failure is never recorded again.
    """

    reads = (keys.SKILL_OUTCOME, keys.EXPLANATION, keys.REFLECTIONS)
    writes = (keys.ATTEMPTS,)

    def __init__(self, name: str = "ExplainFailure") -> None:
        super().__init__(name)
        self.outcome_key = self.key_of(keys.SKILL_OUTCOME)
        self.explanation_key = self.key_of(keys.EXPLANATION)
        self.reflections_key = self.key_of(keys.REFLECTIONS)

    def update(self) -> Status:
        """Update the last attempt from what the attempt's nodes left on the blackboard."""
        recorded = update_last_attempt(self.blackboard, self._recorded)
        if recorded is None:
            self.feedback_message = "no attempt to record (/plan/attempts is empty)"
            return Status.FAILURE
        suggestion = f"; suggestion: {recorded.suggestion}" if recorded.suggestion else ""
        self.feedback_message = (
            f"attempt {recorded.number} {recorded.outcome}: {recorded.failure}{suggestion}"
        )
        return Status.SUCCESS

    def _recorded(self, attempt: PlanAttempt) -> PlanAttempt:
        """``attempt`` with this attempt's failure, suggestion and reflections."""
        if attempt.outcome == "rejected" or not attempt.plan.steps:
            return attempt  # validation or the planner already said why; nothing ran
        outcome = keys.read_optional(self.blackboard, self.outcome_key, SkillOutcome)
        failed = outcome if outcome is not None and outcome.status != RunStatus.SUCCEEDED else None
        failure = failed.message if failed is not None else attempt.failure or UNKNOWN_FAILURE
        explanation = keys.read_optional(self.blackboard, self.explanation_key, Explanation)
        if explanation is None or failed is None or explanation.failure != failed.message:
            explanation = None
        reflections = keys.read_optional(self.blackboard, self.reflections_key, list) or []
        return attempt.model_copy(
            update={
                "outcome": "failed",
                "failure": failure,
                "suggestion": explanation.suggestions[0] if explanation else "",
                "reflections": [r for r in reflections if isinstance(r, Reflection)],
                "failed_skill": failed.call.skill if failed is not None else "",
                "error_code": failed.code or "" if failed is not None else "",
                "context": dict(failed.context) if failed is not None else {},
                "recovery": tuple(explanation.recovery) if explanation else (),
                "experience": explanation.records[:1] if explanation else [],
            }
        )
