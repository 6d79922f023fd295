"""Tool grounding from the working context (JANUS's ρ): may a held answer serve this request.

A knowledge task declares its evidence needs in ``pack.yaml`` (``evidence``, see
:class:`~knowledge.packs.domain_pack.EvidenceNeeds`): the slots that fix its answer, the part of the
answer a slot picks, how long an answer stays good. An answer is *held* after its turn with
the key it was computed for (:func:`answer_key`: those slots' ids, and the memory-bound and
speaker parameters its template took). :func:`find_reusable` compares the request's key with
the held answers, newest first, and returns the rows that serve it, or why none does.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from cogtree.knowledge.packs.domain_pack import EvidenceNeeds, EvidencePart, TaskSpec
from cogtree.knowledge.understanding.turn_state import EvidenceItem, HeldAnswer

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
