"""Which evidence a knowledge task needs (JANUS's tool grounding, ρ), without the tree.

A ``knowledge_query`` task is answered from the rows of its pack's query template, run on the
pack's knowledge graph (or the scene graph). The working context shapes the query: a template
may take *memory-bound parameters* filled from its facts (``?avoid`` and ``?favour`` from
``food.<id>`` facts, ``?diet`` from ``diet.<id>`` facts, ``(?daily ?target)`` from the user's
``target.<nutrient>`` facts), and ``?speaker`` from the person speaking. The gate that
decides whether to fetch is :class:`~behaviours.gates.evidence.NeedsEvidence`.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from cogtree.knowledge.memory.model import Fact, WorkingContext
from cogtree.knowledge.packs.domain_pack import DomainPack, TaskSpec
from cogtree.knowledge.packs.domain_registry import DomainRegistry
from cogtree.knowledge.packs.rows_hook import post_processed
from cogtree.knowledge.understanding.turn_state import EvidenceBundle, IntentFrame

MODEL_QUERY = "model-query"
"""The evidence source of rows that a model-written query returned."""

SPEAKER_PARAMETER = "speaker"
"""The template parameter bound to the person speaking (``/turn/speaker``)."""

MEMORY_PARAMETERS = ("avoid", "favour", "diet")
"""Template parameters bound from the working context's facts."""

TARGETS_PARAMETER = "daily_target"
"""The template parameter bound to the user's daily targets, rows of (nutrient, amount):
``energy=2000`` in :func:`memory_bindings`, from a ``target.energy`` fact."""

ASKED_PARAMETER = "asked"
"""The constraints query's parameter bound to the kg ids the request's slots name."""

_FOOD_SLOT = "food."
_DIET_SLOT = "diet."
_TARGET_SLOT = "target."
_TARGET_AMOUNT = re.compile(r"\btarget is (\d+(?:\.\d+)?) (?:kcal|g)$")
"""The amount in a target fact's text, as AddToDatabase words it ("... target is 2000 kcal")."""


@dataclass(frozen=True)
class TurnTask:
    """The task of this turn, looked up in its domain pack."""

    pack: DomainPack
    spec: TaskSpec

    @property
    def sources(self) -> frozenset[str]:
        """Evidence sources that answer the task: its template's name, or a model's query."""
        return frozenset({self.spec.answer_source or MODEL_QUERY, MODEL_QUERY})


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


def memory_bindings(working: WorkingContext | None) -> dict[str, list[str]]:
    """The kg ids the working context gives each memory-bound parameter (empty lists if none).

    Facts on ``food.<id>`` slots: hard constraints (allergies, intolerances, exclusions) bind
    ``avoid``, preferences bind ``favour``; facts on ``diet.<id>`` bind ``diet``. Recalled
    archive facts count unless a newer fact replaced them; a withdrawal ("no longer allergic")
    binds nothing. The user's own ``target.<nutrient>`` facts bind :data:`TARGETS_PARAMETER`
    as ``nutrient=amount`` (someone else's targets are on ``about.`` slots and bind nothing).
    """
    bound: dict[str, list[str]] = {name: [] for name in (*MEMORY_PARAMETERS, TARGETS_PARAMETER)}
    if working is None:
        return bound
    facts: list[Fact] = [*working.facts]
    facts.extend(recall.fact for recall in working.recalled if not recall.superseded)
    targets: dict[str, list[tuple[int, str]]] = {}
    for fact in (fact for fact in facts if fact.holds):
        slot = fact.slot or ""
        if slot.startswith(_FOOD_SLOT) and fact.kind == "hard_constraint":
            _add(bound["avoid"], slot[len(_FOOD_SLOT) :])
        elif slot.startswith(_FOOD_SLOT) and fact.kind == "preference":
            _add(bound["favour"], slot[len(_FOOD_SLOT) :])
        elif slot.startswith(_DIET_SLOT):
            _add(bound["diet"], slot[len(_DIET_SLOT) :])
        elif slot.startswith(_TARGET_SLOT) and (amount := _TARGET_AMOUNT.search(fact.text)):
            targets.setdefault(slot[len(_TARGET_SLOT) :], []).append((fact.turn, amount.group(1)))
    for nutrient, amounts in targets.items():  # the newest, should a correction sit beside it
        bound[TARGETS_PARAMETER].append(f"{nutrient}={max(amounts)[1]}")
    return bound


def task_rows(
    task: TurnTask, rows: Sequence[dict[str, str | None]], working: WorkingContext | None
) -> list[dict[str, str | None]]:
    """The rows of ``task``'s template after its pack's ``post_process`` hook.

    The hook (:mod:`knowledge.packs.rows_hook`) gets what ``working`` binds now.
    """
    return post_processed(task.pack.hooks.get(task.spec.name), rows, memory_bindings(working))


def answered(evidence: EvidenceBundle | None, task: TurnTask) -> bool:
    """Whether this turn's evidence already holds an answer to ``task`` from a query."""
    return evidence is not None and any(item.source in task.sources for item in evidence.items)


def _add(found: list[str], identifier: str) -> None:
    if identifier and identifier not in found:
        found.append(identifier)
