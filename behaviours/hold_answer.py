"""``HoldAnswer``: keep a knowledge task's answer on the blackboard for the turns that follow."""

from __future__ import annotations

from typing import Any

import py_trees
from py_trees.common import Status
from pydantic import BaseModel

from behaviours import keys
from behaviours.answer_reuse import hold
from behaviours.evidence import (
    Clock,
    TurnTask,
    optional_clock,
    task_on_blackboard,
    turn_answer_key,
)
from behaviours.setup_handles import require_handle
from behaviours.turn_state import EvidenceBundle, EvidenceItem, HeldAnswer
from knowledge.domain_registry import DomainRegistry
from knowledge.memory_model import WorkingContext


class HoldAnswer(keys.DeclaredKeys, py_trees.behaviour.Behaviour):
    """Hold this turn's template answer so that a later turn may reuse it (``NeedsEvidence``).

    The answer is held with what it depends on (its task's evidence slots, the profile the
    working context bound and the speaker) and the time; a session keeps the last eight.
    Nothing is held for a task that declares no evidence needs or is never reused, nor for a
    model-written query (its columns are the model's).

    Handles: ``domains``; ``clock`` optional (as ``NeedsEvidence``'s). Reads ``/turn/domain``,
    ``/turn/intent``, ``/turn/task``, ``/turn/speaker``, ``/turn/utterance``,
    ``/turn/evidence``, ``/memory/working``, ``/session/held_answers``. Writes
    ``/session/held_answers``. SUCCESS always (holding is bookkeeping: the feedback says what
    was held or why nothing was). Never RUNNING or FAILURE.
    """

    reads = (
        keys.DOMAIN,
        keys.INTENT,
        keys.TASK,
        keys.SPEAKER,
        keys.UTTERANCE,
        keys.EVIDENCE,
        keys.WORKING,
        keys.HELD,
    )
    writes = (keys.HELD,)

    def __init__(self, name: str = "HoldAnswer") -> None:
        super().__init__(name)
        self.domains: DomainRegistry | None = None
        self.clock: Clock = optional_clock(self, {})
        self.domain_key = self.key_of(keys.DOMAIN)
        self.intent_key = self.key_of(keys.INTENT)
        self.task_key = self.key_of(keys.TASK)
        self.speaker_key = self.key_of(keys.SPEAKER)
        self.utterance_key = self.key_of(keys.UTTERANCE)
        self.evidence_key = self.key_of(keys.EVIDENCE)
        self.working_key = self.key_of(keys.WORKING)
        self.held_key = self.key_of(keys.HELD)

    def setup(self, **kwargs: Any) -> None:
        """Take the ``domains`` handle and the optional ``clock``."""
        self.domains = require_handle(self, kwargs, "domains", DomainRegistry)
        self.clock = optional_clock(self, kwargs)

    def update(self) -> Status:
        """Hold the answer, or say why not; SUCCESS either way."""
        try:
            task = task_on_blackboard(
                self.domains, self.blackboard, self.domain_key, self.intent_key
            )
        except LookupError as problem:
            return self._done(f"nothing held: {problem}")
        needs = task.spec.evidence
        if needs is None or needs.reusable_s == 0:
            return self._done(f"nothing held: {task.spec.name}'s answers are not reused")
        item = self._template_answer(task)
        instance = keys.read(self.blackboard, self.task_key)
        if item is None or not isinstance(instance, BaseModel):
            return self._done(f"nothing held: no answer of {task.spec.query} this turn")
        working = keys.read(self.blackboard, self.working_key)
        speaker = keys.read_optional(self.blackboard, self.speaker_key, str)
        answer = HeldAnswer(
            domain=task.pack.name,
            task=task.spec.name,
            key=turn_answer_key(
                task,
                dict(instance),
                working if isinstance(working, WorkingContext) else None,
                speaker,
            ),
            item=item,
            at=self.clock(),
            utterance=keys.read_optional(self.blackboard, self.utterance_key, str) or "",
        )
        held = keys.read(self.blackboard, self.held_key)
        self.blackboard.set(self.held_key, hold(held if isinstance(held, list) else [], answer))
        return self._done(f"held {len(item.rows)} rows of {task.spec.query}")

    def _template_answer(self, task: TurnTask) -> EvidenceItem | None:
        """The last evidence item of this turn from the task's template."""
        evidence = keys.read(self.blackboard, self.evidence_key)
        if not isinstance(evidence, EvidenceBundle) or task.spec.query is None:
            return None
        found = [item for item in evidence.items if item.source == task.spec.query]
        return found[-1] if found else None

    def _done(self, message: str) -> Status:
        self.feedback_message = message
        return Status.SUCCESS
