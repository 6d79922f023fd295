"""``Explain``: RoBee's explainer as a tree node, from a failed skill to suggested fixes."""

from __future__ import annotations

from typing import Any

import py_trees
from py_trees.common import Status

from cogtree.behaviours import keys
from cogtree.behaviours.setup_handles import require_handle
from cogtree.knowledge.memory.experience import ExperienceStore
from cogtree.skills.execution.controller import RunStatus


class Explain(keys.DeclaredKeys, py_trees.behaviour.Behaviour):
    """Suggest fixes for the last failed skill from the failure-experience store.

    Handle: ``experience`` (:class:`~knowledge.memory.experience.ExperienceStore`). Retrieval is an
    in-memory similarity lookup (about a millisecond), so it runs within the tick.

    Reads ``/skill/outcome`` (the failed skill, its code and context: only records whose
    context fits are kept) and ``/turn/utterance`` (the request, to rank similar cases).
    Writes ``/skill/explanation`` (the suggestions, their record ids, and the first one's
    recovery in the plan vocabulary). SUCCESS: at least one suggestion. FAILURE: no failed skill
    to explain, a failure without a code, or no record matches. Never RUNNING.
    """

    reads = (keys.SKILL_OUTCOME, keys.UTTERANCE)
    writes = (keys.EXPLANATION,)

    def __init__(self, name: str = "Explain", *, k: int = 3) -> None:
        super().__init__(name)
        self.k = k
        self.store: ExperienceStore | None = None
        self.outcome_key = self.key_of(keys.SKILL_OUTCOME)
        self.utterance_key = self.key_of(keys.UTTERANCE)
        self.explanation_key = self.key_of(keys.EXPLANATION)

    def setup(self, **kwargs: Any) -> None:
        """Take the ``experience`` handle."""
        self.store = require_handle(self, kwargs, "experience", ExperienceStore)

    def update(self) -> Status:
        """Look up the failure and write the suggestions."""
        assert self.store is not None
        outcome = (
            self.blackboard.get(self.outcome_key)
            if self.blackboard.exists(self.outcome_key)
            else None
        )
        if outcome is None or outcome.status != RunStatus.FAILED:
            self.feedback_message = "no failed skill to explain"
            return Status.FAILURE
        if outcome.code is None:
            self.feedback_message = f"the failure has no code to look up: {outcome.message}"
            return Status.FAILURE
        request = (
            str(self.blackboard.get(self.utterance_key))
            if self.blackboard.exists(self.utterance_key)
            else ""
        )
        found = self.store.retrieve(
            outcome.call.skill,
            outcome.code,
            request,
            self.k,
            error_text=outcome.message,
            context=outcome.context,
        )
        if not found:
            self.feedback_message = f"no experience with {outcome.call.skill}/{outcome.code}"
            return Status.FAILURE
        self.blackboard.set(
            self.explanation_key,
            keys.Explanation(
                skill=outcome.call.skill,
                code=outcome.code,
                failure=outcome.message,
                suggestions=[suggestion.text for suggestion in found],
                scores=[round(suggestion.score, 4) for suggestion in found],
                fallback=any(suggestion.fallback for suggestion in found),
                records=[suggestion.record.id for suggestion in found],
                context=dict(outcome.context),
                recovery=list(found[0].recovery),
            ),
        )
        self.feedback_message = f"suggest ({found[0].record.id}): {found[0].text}"
        return Status.SUCCESS
