"""``NeedsEvidence``: JANUS's tool-grounding gate (ρ): must a query fetch the task's evidence.

What the task needs, and whether an answer an earlier turn fetched for the same things and
profile may serve, is :mod:`knowledge.understanding.evidence_needs`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from py_trees.common import Status

from cogtree.behaviours import keys
from cogtree.behaviours.answer_node import TurnAnswerNode
from cogtree.knowledge.understanding.evidence_needs import (
    MEMORY_PARAMETERS,
    Reuse,
    TurnTask,
    answered,
    find_reusable,
    memory_bindings,
    task_rows,
)
from cogtree.knowledge.understanding.turn_state import EvidenceBundle, GateRationale


class NeedsEvidence(TurnAnswerNode):
    """Condition, JANUS's tool-grounding decision (ρ): must a query fetch the task's evidence.

    A ``knowledge_query`` task is grounded (its query runs) unless the working context already
    satisfies its evidence needs (``evidence`` in ``pack.yaml``): an answer held from an
    earlier turn of the conversation (``/session/held_answers``) for the same slot ids, the
    same profile in memory (the template's ``avoid``/``favour``/``diet``) and the same
    speaker, young enough, holding the part asked for. Then that answer's rows become this
    turn's evidence and no query runs; the rationale says which answer it was.

    Handles: ``domains``; ``clock`` optional (seconds; the clock
    :class:`~behaviours.actions.grounding.hold_answer.HoldAnswer` stamps answers with). Reads
    ``/turn/domain``,
    ``/turn/intent``, ``/turn/task``, ``/turn/speaker``, ``/turn/evidence``,
    ``/memory/working``, ``/session/held_answers``. Writes ``/rationale/<node>``
    (deterministic, source ``fast_path``) and, on reuse, ``/turn/evidence``.
    SUCCESS: a query must run (the feedback names the template, the memory-bound parameters
    the working context fills, and why no held answer serves). FAILURE: no task, an unknown
    domain or task, another grounding, the evidence is already there this turn, or a held
    answer serves it ("already known from ...: no query"). Never RUNNING.
    """

    reads = (
        keys.DOMAIN,
        keys.INTENT,
        keys.TASK,
        keys.SPEAKER,
        keys.EVIDENCE,
        keys.WORKING,
        keys.HELD,
    )
    writes = (keys.RATIONALE, keys.EVIDENCE)

    def __init__(self, name: str = "NeedsEvidence") -> None:
        super().__init__(name)
        self.rationale_key = self.key_of(keys.RATIONALE)

    def update(self) -> Status:
        """Compare the task's evidence needs with what this turn and the context hold."""
        try:
            task = self.turn_task()
        except LookupError as problem:
            return self._decide(False, str(problem), {})
        facts = {"task": task.spec.name, "grounding": task.spec.grounding}
        if task.spec.grounding != "knowledge_query":
            why = f"{task.spec.name} is grounded by {task.spec.grounding}, not by a query"
            return self._decide(False, why, facts)
        evidence = keys.read(self.blackboard, self.evidence_key)
        bundle = evidence if isinstance(evidence, EvidenceBundle) else None
        if answered(bundle, task):
            return self._decide(False, f"{task.spec.name} is already answered this turn", facts)
        reuse = self._reusable(task)
        if isinstance(reuse, Reuse):
            rows = task_rows(task, reuse.item.rows, self.working())  # with today's context
            items = [
                *(bundle.items if bundle else []),
                reuse.item.model_copy(update={"rows": rows}),
            ]
            self.blackboard.set(self.evidence_key, EvidenceBundle(items=items))
            asked = f" to {reuse.held.utterance!r}" if reuse.held.utterance else ""
            why = (
                f"already known from the answer{asked} {reuse.age_s:.0f} s ago "
                f"({_key_text(reuse.held.key)}): no query"
            )
            return self._decide(False, why, {**facts, "reused": True})
        why = f"{self._requirement(task)}; {reuse}"
        return self._decide(True, why, {**facts, "template": task.spec.query})

    def _reusable(self, task: TurnTask) -> Reuse | str:
        """The held answer that serves this request, or why none does."""
        key = self.key_now(task)
        if key is None:
            return "no task instance to compare with held answers"
        return find_reusable(task.spec, task.pack.name, key, self.held(), self.clock())

    def _requirement(self, task: TurnTask) -> str:
        """What the query needs, in words: its template and what memory fills in."""
        target = (
            "its database"
            if task.pack.on_database
            else "its knowledge graph"
            if task.pack.has_own_knowledge
            else "the scene graph"
        )
        text = f"{task.spec.name} needs the rows of {task.spec.query} on {target}"
        context = self.working()
        parameters = task.pack.query(task.spec.query).parameters if task.spec.query else {}
        wanted = [name for name in MEMORY_PARAMETERS if name in parameters]
        if wanted and context is None:
            return f"{text}; no working context, so {', '.join(wanted)} stay unbound"
        bound = memory_bindings(context)
        filled = [f"{name}={'+'.join(bound[name])}" for name in wanted if bound[name]]
        return f"{text}; from memory: {', '.join(filled)}" if filled else text

    def _decide(self, needed: bool, why: str, facts: Mapping[str, Any]) -> Status:
        self.blackboard.set(
            self.rationale_key,
            GateRationale(
                node=self.name,
                module="tool_grounding",
                source="fast_path",
                decision={"needs_evidence": needed, **facts},
                rationale=why,
            ),
        )
        self.feedback_message = why
        return Status.SUCCESS if needed else Status.FAILURE


def _key_text(key: Mapping[str, list[str]]) -> str:
    return ", ".join(f"{name}={'+'.join(ids)}" for name, ids in key.items() if ids) or "no slots"
