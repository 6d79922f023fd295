"""Which evidence a knowledge task needs, and whether a held answer serves it (JANUS's ρ).

A ``knowledge_query`` task is answered from the rows of its pack's query template, run on the
pack's knowledge graph (or the scene graph). The working context shapes the query: a template
may take *memory-bound parameters* filled from its facts (``?avoid`` and ``?favour`` from
``food.<id>`` facts, ``?diet`` from ``diet.<id>`` facts, ``(?daily ?target)`` from the user's
``target.<nutrient>`` facts), and ``?speaker`` from the person speaking. The gate that
decides whether to fetch is :class:`~behaviours.gates.evidence.NeedsEvidence`.

Tool grounding from the working context: a knowledge task declares its evidence needs in
``pack.yaml`` (``evidence``, see :class:`~knowledge.packs.domain_pack.EvidenceNeeds`): the
slots that fix its answer, the part of the answer a slot picks, how long an answer stays good.
An answer is *held* after its turn with the key it was computed for (:func:`answer_key`: those
slots' ids, and the memory-bound and speaker parameters its template took).
:func:`find_reusable` compares the request's key with the held answers, newest first, and
returns the rows that serve it, or why none does.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from cogtree.knowledge.memory.model import Fact, WorkingContext
from cogtree.knowledge.packs.domain_pack import DomainPack, EvidenceNeeds, EvidencePart, TaskSpec
from cogtree.knowledge.packs.domain_registry import DomainRegistry
from cogtree.knowledge.packs.rows_hook import post_processed
from cogtree.knowledge.understanding.turn_state import (
    EvidenceBundle,
    EvidenceItem,
    HeldAnswer,
    IntentFrame,
)

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


SPEAKER_KEY = "speaker"
"""The key entry of the person speaking, when the task's template takes ``?speaker``."""

MAX_HELD = 8
"""How many answers a session holds (the oldest is dropped first)."""

CONTEXT_KEYS = ("avoid", "favour", "diet", "daily_target")
"""Key entries bound from the working context (the profile memory holds, daily targets too)."""


def ids_of(value: object) -> list[str]:
    """A slot value as a sorted list of ids (None and empty values: an empty list)."""
    if value is None or value == "" or value is False:
        return []
    items = value if isinstance(value, list | tuple | set | frozenset) else [value]
    return sorted({str(item).strip().lower() for item in items if str(item).strip()})


def answer_key(
    spec: TaskSpec,
    parameters: Sequence[str],
    values: Mapping[str, object],
    bindings: Mapping[str, Sequence[str]],
    speaker: str | None,
) -> dict[str, list[str]]:
    """What the answer to ``spec`` with these slot ``values`` depends on.

    ``parameters`` are the template's; ``bindings`` the ids the working context gives its
    memory-bound parameters (:func:`behaviours.gates.evidence.memory_bindings`); ``speaker`` the
    person speaking. Only the parameters the template takes count.
    """
    needs = spec.evidence
    slots = [*needs.slots, *([needs.part.slot] if needs and needs.part else [])] if needs else []
    key = {slot: ids_of(values.get(slot)) for slot in slots}
    for name in CONTEXT_KEYS:
        if name in parameters:
            key[name] = ids_of(list(bindings.get(name, ())))
    if SPEAKER_KEY in parameters:
        key[SPEAKER_KEY] = ids_of(speaker)
    return key


@dataclass(frozen=True)
class Reuse:
    """A held answer that serves the request: the rows it gives now, and whose they were."""

    item: EvidenceItem
    held: HeldAnswer
    age_s: float


def find_reusable(
    spec: TaskSpec,
    domain: str,
    key: Mapping[str, list[str]],
    held: Sequence[HeldAnswer],
    now: float,
) -> Reuse | str:
    """The newest held answer that serves ``key``, or the reason none does (a sentence)."""
    needs = spec.evidence
    if needs is None:
        return f"{spec.name} declares no evidence needs, so every request runs its query"
    if needs.reusable_s == 0:
        return f"{spec.name}'s answers are never reused (what it reads changes under the robot)"
    same_task = [answer for answer in held if answer.domain == domain and answer.task == spec.name]
    if not same_task:
        return f"no earlier answer to {spec.name} is held in this conversation"
    reasons: list[str] = []
    for answer in reversed(same_task):
        outcome = _serves(needs, answer, key, now)
        if isinstance(outcome, EvidenceItem):
            return Reuse(outcome, answer, max(0.0, now - answer.at))
        reasons.append(outcome)
    return f"the held answers to {spec.name} do not serve it: {reasons[0]}"


def _serves(
    needs: EvidenceNeeds, answer: HeldAnswer, key: Mapping[str, list[str]], now: float
) -> EvidenceItem | str:
    """The rows ``answer`` gives a request with ``key``, or why it gives none."""
    age = now - answer.at
    if age > needs.reusable_s:
        return f"the latest is {age:.0f} s old (good for {needs.reusable_s:.0f} s)"
    part = needs.part
    for name, ids in key.items():
        if part is not None and name == part.slot:
            continue
        if answer.key.get(name, []) != ids:
            said = "+".join(answer.key.get(name, [])) or "nothing"
            now_ids = "+".join(ids) or "nothing"
            why = "the profile memory binds" if name in CONTEXT_KEYS else "it was for"
            return f"{why} {name}={said}, now {name}={now_ids}"
    if part is None:
        return answer.item
    return _part_of(part, answer, key.get(part.slot, []))


def _part_of(part: EvidencePart, answer: HeldAnswer, asked: list[str]) -> EvidenceItem | str:
    """The rows of ``answer`` for the part ``asked`` (empty: every part)."""
    held = answer.key.get(part.slot, [])
    if not asked:
        if held:
            return f"it held only {part.slot}={'+'.join(held)}, and every part is asked"
        return answer.item
    if asked == held:  # the same question: all its answer (a profile's target shares too)
        return answer.item
    wanted = {topic for value in asked for topic in part.expands.get(value, [value])}
    if held:
        covered = {topic for value in held for topic in part.expands.get(value, [value])}
        if not wanted <= covered:
            return f"it held {part.slot}={'+'.join(held)}, not {'+'.join(sorted(wanted))}"
    keep = wanted | set(part.always)
    rows = [
        {**row, **({part.slot: "+".join(asked)} if part.slot in row else {})}
        for row in answer.item.rows
        if (row.get(part.column) or "") in keep
    ]
    return answer.item.model_copy(update={"rows": rows})


def hold(held: Sequence[HeldAnswer], answer: HeldAnswer, limit: int = MAX_HELD) -> list[HeldAnswer]:
    """``held`` with ``answer`` added last; an answer for the same key is replaced."""
    kept = [
        old
        for old in held
        if (old.domain, old.task, old.key) != (answer.domain, answer.task, answer.key)
    ]
    return [*kept, answer][-limit:]
