"""Tool grounding (JANUS's ρ): which evidence a task needs, and ``NeedsEvidence``, the gate on it.

A ``knowledge_query`` task is answered from the rows of its pack's query template, run on the
pack's knowledge graph (or the scene graph). The working context cannot stand in for the
domain's knowledge in general: it holds what the user said about themselves. It can hold an
answer, though: one an earlier turn of the conversation fetched, for the same things and the
same profile (:mod:`knowledge.understanding.answer_reuse`); then the task is not grounded again. The
working context also shapes the query: a template may take *memory-bound parameters* filled
from its facts (``?avoid`` and ``?favour`` from ``food.<id>`` facts, ``?diet`` from
``diet.<id>`` facts), and ``?speaker`` from ``/turn/speaker``.
"""

from __future__ import annotations

import time
from abc import ABC, abstractmethod
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import py_trees
from py_trees.common import Status
from pydantic import BaseModel

from cogtree.behaviours import keys
from cogtree.behaviours.background import Clock
from cogtree.behaviours.btcpp.steering import take_clock
from cogtree.behaviours.setup_handles import require_handle
from cogtree.knowledge.memory.model import Fact, WorkingContext
from cogtree.knowledge.packs.domain_pack import DomainPack, TaskSpec
from cogtree.knowledge.packs.domain_registry import DomainRegistry
from cogtree.knowledge.understanding.answer_reuse import Reuse, answer_key, find_reusable
from cogtree.knowledge.understanding.turn_state import EvidenceBundle, HeldAnswer, IntentFrame

MODEL_QUERY = "model-query"
"""The evidence source of rows that a model-written query returned."""

SPEAKER_PARAMETER = "speaker"
"""The template parameter bound to the person speaking (``/turn/speaker``)."""

MEMORY_PARAMETERS = ("avoid", "favour", "diet")
"""Template parameters bound from the working context's facts."""

ASKED_PARAMETER = "asked"
"""The constraints query's parameter bound to the kg ids the request's slots name."""

_FOOD_SLOT = "food."
_DIET_SLOT = "diet."


@dataclass(frozen=True)
class TurnTask:
    """The task of this turn, looked up in its domain pack."""

    pack: DomainPack
    spec: TaskSpec

    @property
    def sources(self) -> frozenset[str]:
        """Evidence sources that answer the task: its template's name, or a model's query."""
        return frozenset({self.spec.query or MODEL_QUERY, MODEL_QUERY})


def find_task(domains: DomainRegistry, domain: object, intent: object) -> TurnTask:
    """The pack and task of ``/turn/domain`` and ``/turn/intent``; LookupError says what lacks."""
    if not isinstance(intent, IntentFrame) or intent.task is None:
        raise LookupError("no task this turn (/turn/intent has none)")
    name = domain if isinstance(domain, str) else intent.domain
    if name not in domains:
        raise LookupError(f"domain {name!r} is not loaded (loaded: {', '.join(domains.names)})")
    pack = domains.get(name)
    try:
        return TurnTask(pack=pack, spec=pack.task(intent.task))
    except KeyError as error:
        raise LookupError(str(error.args[0])) from None


def task_on_blackboard(
    domains: DomainRegistry | None,
    client: py_trees.blackboard.Client,
    domain_key: str,
    intent_key: str,
) -> TurnTask:
    """:func:`find_task` for the ``/turn/domain`` and ``/turn/intent`` that ``client`` reads.

    RuntimeError when ``domains`` is None (the node's ``setup`` was not called).
    """
    if domains is None:
        raise RuntimeError("setup(domains=...) was not called before ticking")
    return find_task(domains, keys.read(client, domain_key), keys.read(client, intent_key))


def memory_bindings(working: WorkingContext | None) -> dict[str, list[str]]:
    """The kg ids the working context gives each memory-bound parameter (empty lists if none).

    Facts on ``food.<id>`` slots: hard constraints (allergies, intolerances, exclusions) bind
    ``avoid``, preferences bind ``favour``; facts on ``diet.<id>`` bind ``diet``. Recalled
    archive facts count unless a newer fact replaced them; a withdrawal ("no longer allergic")
    binds nothing.
    """
    bound: dict[str, list[str]] = {name: [] for name in MEMORY_PARAMETERS}
    if working is None:
        return bound
    facts: list[Fact] = [*working.facts]
    facts.extend(recall.fact for recall in working.recalled if not recall.superseded)
    for fact in (fact for fact in facts if fact.holds):
        slot = fact.slot or ""
        if slot.startswith(_FOOD_SLOT) and fact.kind == "hard_constraint":
            _add(bound["avoid"], slot[len(_FOOD_SLOT) :])
        elif slot.startswith(_FOOD_SLOT) and fact.kind == "preference":
            _add(bound["favour"], slot[len(_FOOD_SLOT) :])
        elif slot.startswith(_DIET_SLOT):
            _add(bound["diet"], slot[len(_DIET_SLOT) :])
    return bound


def answered(evidence: EvidenceBundle | None, task: TurnTask) -> bool:
    """Whether this turn's evidence already holds an answer to ``task`` from a query."""
    return evidence is not None and any(item.source in task.sources for item in evidence.items)


class TurnAnswerNode(keys.DeclaredKeys, py_trees.behaviour.Behaviour, ABC):
    """What ``NeedsEvidence`` and ``HoldAnswer`` share: the turn's task, its answer key, a clock.

    Handles: ``domains``; ``clock`` optional (seconds; default the monotonic clock).
    """

    def __init__(self, name: str) -> None:
        super().__init__(name)
        self.domains: DomainRegistry | None = None
        self.clock: Clock = time.monotonic
        self.domain_key = self.key_of(keys.DOMAIN)
        self.intent_key = self.key_of(keys.INTENT)
        self.task_key = self.key_of(keys.TASK)
        self.speaker_key = self.key_of(keys.SPEAKER)
        self.evidence_key = self.key_of(keys.EVIDENCE)
        self.working_key = self.key_of(keys.WORKING)
        self.held_key = self.key_of(keys.HELD)

    def setup(self, **kwargs: Any) -> None:
        """Take the ``domains`` handle and the optional ``clock``."""
        self.domains = require_handle(self, kwargs, "domains", DomainRegistry)
        self.clock = take_clock(self, kwargs)

    @abstractmethod
    def update(self) -> Status:
        """Decide (``NeedsEvidence``) or hold (``HoldAnswer``)."""

    def turn_task(self) -> TurnTask:
        """The pack and task of this turn; LookupError says what lacks."""
        return task_on_blackboard(self.domains, self.blackboard, self.domain_key, self.intent_key)

    def key_now(self, task: TurnTask) -> dict[str, list[str]] | None:
        """What an answer to this turn depends on; None without a task instance."""
        instance = keys.read(self.blackboard, self.task_key)
        if not isinstance(instance, BaseModel):
            return None
        parameters = list(task.pack.query(task.spec.query).parameters) if task.spec.query else []
        return answer_key(
            task.spec,
            parameters,
            dict(instance),
            memory_bindings(self.working()),
            keys.read_optional(self.blackboard, self.speaker_key, str),
        )

    def working(self) -> WorkingContext | None:
        """``/memory/working``, when it is set."""
        working = keys.read(self.blackboard, self.working_key)
        return working if isinstance(working, WorkingContext) else None

    def held(self) -> list[HeldAnswer]:
        """``/session/held_answers`` (empty when unset)."""
        held = keys.read(self.blackboard, self.held_key)
        return held if isinstance(held, list) else []


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
            items = [*(bundle.items if bundle else []), reuse.item]
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
            keys.GateRationale(
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


def _add(found: list[str], identifier: str) -> None:
    if identifier and identifier not in found:
        found.append(identifier)
