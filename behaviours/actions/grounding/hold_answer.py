"""``HoldAnswer``: keep a knowledge task's answer on the blackboard for the turns that follow."""

from __future__ import annotations

from py_trees.common import Status

from cogtree.behaviours import keys
from cogtree.behaviours.answer_node import TurnAnswerNode
from cogtree.knowledge.understanding.evidence_needs import TurnTask, hold
from cogtree.knowledge.understanding.turn_state import EvidenceBundle, EvidenceItem, HeldAnswer


class HoldAnswer(TurnAnswerNode):
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
        self.utterance_key = self.key_of(keys.UTTERANCE)

    def update(self) -> Status:
        """Hold the answer, or say why not; SUCCESS either way."""
        try:
            task = self.turn_task()
        except LookupError as problem:
            return self._done(f"nothing held: {problem}")
        needs = task.spec.evidence
        if needs is None or needs.reusable_s == 0:
            return self._done(f"nothing held: {task.spec.name}'s answers are not reused")
        item = self._template_answer(task)
        key = self.key_now(task)
        if item is None or key is None:
            return self._done(f"nothing held: no answer of {task.spec.query} this turn")
        answer = HeldAnswer(
            domain=task.pack.name,
            task=task.spec.name,
            key=key,
            item=item,
            at=self.clock(),
            utterance=keys.read_optional(self.blackboard, self.utterance_key, str) or "",
        )
        self.blackboard.set(self.held_key, hold(self.held(), answer))
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
