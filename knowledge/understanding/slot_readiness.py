"""Slot readiness: a request's slots held against its task schema, deterministic, no model.

:func:`check_slots` says whether the intent frame and the resolved referents make the task
whole: every required slot said in the user's words, resolved to exactly one thing (or one per
item of a list slot), and the task instance valid; else, per slot, what stops it (missing,
ungrounded, unresolved, ambiguous, invalid). :func:`ask_speaker_first` asks whom a task is for
first when the speaker is not known. The readiness gate
(:class:`~behaviours.gates.task_readiness.TaskReadinessGate`) reads and writes the blackboard;
these decide.
"""

from __future__ import annotations

import types
from dataclasses import dataclass, field, replace
from typing import Any, Literal, Union, get_args, get_origin

from pydantic import BaseModel, ValidationError

from cogtree.knowledge.packs.domain_pack import SPEAKER_ARGUMENT, SlotSpec, TaskSpec
from cogtree.knowledge.packs.task_schema import asked_first, required_slots
from cogtree.knowledge.understanding.slot_filling import grounded_in
from cogtree.knowledge.understanding.turn_state import (
    MISSING_TASK,
    IntentFrame,
    SlotResolution,
    SlotValue,
)

SlotIssue = Literal["missing", "ungrounded", "unresolved", "ambiguous", "invalid"]
"""Why a slot stops the task: not said, not in the words, fits nothing, several, or invalid."""


@dataclass(frozen=True)
class SlotCheck:
    """The frame held against the task schema: the task instance, or what stops it.

    ``values`` are the slot values for the schema (one resolved id per scene/kg/value slot,
    lists for list slots, text for text slots); ``issues`` names each slot that stops the
    task and why, in schema order; ``task`` is the validated instance when nothing does;
    ``dropped`` lists optional values left out because the user never said them.
    """

    values: dict[str, Any]
    issues: dict[str, SlotIssue]
    task: BaseModel | None
    dropped: list[str] = field(default_factory=list)

    @property
    def complete(self) -> bool:
        """Every required slot is said, resolved to exactly one thing, and the task is valid."""
        return not self.issues and self.task is not None

    @property
    def to_ask(self) -> list[str]:
        """The slots a clarification question must name."""
        return list(self.issues)

    def describe(self) -> str:
        """The issues as a short sentence (``dish unresolved; targets missing``)."""
        if not self.issues:
            return "every required slot is said and resolved"
        return "; ".join(f"{slot} {issue}" for slot, issue in self.issues.items())


def _empty(value: Any) -> bool:
    return value is None or (isinstance(value, str) and not value.strip()) or value == []


def _items(value: Any) -> list[str]:
    if isinstance(value, list | tuple):
        return [str(item) for item in value if not _empty(item)]
    return [] if _empty(value) else [str(value)]


def _takes_list(annotation: Any) -> bool:
    """Whether a schema field holds a list (``list[str]``, ``list[str] | None``)."""
    origin = get_origin(annotation)
    if origin is list:
        return True
    if origin in (Union, types.UnionType):
        return any(_takes_list(arg) for arg in get_args(annotation))
    return False


def _strictest(spec: SlotSpec | None, resolution: SlotResolution | None) -> str:
    """How a slot must be resolved: by ids when the pack or the resolution says so."""
    kinds = [item.resolve for item in (spec,) if item is not None]
    kinds += [item.kind for item in (resolution,) if item is not None]
    for kind in ("scene", "kg", "value"):
        if kind in kinds:
            return kind
    return "text"


def _resolve(
    kind: str, many: bool, said_value: SlotValue, surface: Any, resolution: SlotResolution | None
) -> tuple[Any, SlotIssue | None]:
    """The task value of one said slot, or why there is none."""
    count = len(_items(surface))
    ids = list(resolution.ids) if resolution is not None else []
    if kind in ("scene", "kg"):
        if not ids or (many and len(ids) < count):
            return None, "unresolved"
        if len(ids) > (count if many else 1) or (resolution is not None and resolution.guessed):
            return None, "ambiguous"
        return (ids if many else ids[0]), None
    if kind == "value" and ids:
        if not many and len(ids) > 1:
            return None, "ambiguous"
        return (ids if many else ids[0]), None
    value = said_value if not _empty(said_value) else surface
    if many:
        return _items(value), None
    return (" ".join(_items(value)) if isinstance(value, list) else value), None


def check_slots(
    schema: type[BaseModel],
    spec: TaskSpec,
    frame: IntentFrame,
    resolved: dict[str, SlotResolution],
    said: list[str],
) -> SlotCheck:
    """Hold ``frame`` and ``resolved`` against ``schema``; deterministic, no model.

    A value counts only when it is grounded in ``said`` (the user's utterances: whole words,
    no pronoun; flags are exempt, they come from cue words). Scene and kg slots (by the pack's
    declaration or the resolution's kind, whichever is stricter) need exactly one id (list
    slots: one per item said); a value slot with several ids is ambiguous.
    """
    values: dict[str, Any] = {}
    issues: dict[str, SlotIssue] = {}
    dropped: list[str] = []
    required = set(required_slots(schema, frame.slots))
    for name, info in schema.model_fields.items():
        slot_spec = spec.slots.get(name)
        said_value = frame.slots.get(name)
        resolution = resolved.get(name)
        surface: Any = resolution.said if resolution is not None else said_value
        if _empty(surface):
            surface = said_value
        if _empty(surface):
            if name in required:
                issues[name] = "missing"
            continue
        if isinstance(said_value, bool):
            values[name] = said_value
            continue
        if not grounded_in(surface, said):
            if name in required:
                issues[name] = "ungrounded"
            else:
                dropped.append(f"{name}={surface!r}")
            continue
        many = slot_spec.many if slot_spec is not None else _takes_list(info.annotation)
        kind = _strictest(slot_spec, resolution)
        value, issue = _resolve(kind, many, said_value, surface, resolution)
        every = slot_spec is not None and slot_spec.every
        if every and resolution is not None and resolution.ids and not resolution.guessed:
            value, issue = list(resolution.ids), None  # a question about each thing it fits
        if issue is not None:
            issues[name] = issue
        else:
            values[name] = value
    task: BaseModel | None = None
    if not issues:
        try:
            task = schema.model_validate(values)
        except ValidationError as error:
            for problem in error.errors():
                slot = str(problem["loc"][0]) if problem["loc"] else MISSING_TASK
                issues.setdefault(slot, "invalid")
    return SlotCheck(values=values, issues=issues, task=task, dropped=dropped)


def ask_speaker_first(
    spec: TaskSpec, check: SlotCheck, frame: IntentFrame, schema: type[BaseModel]
) -> SlotCheck:
    """``check`` for a speaker the robot does not know: whom the task is for is asked first.

    The user slot the schema names, or who is speaking when the task's plan acts for the
    speaker (a ``$speaker`` argument) or a slot was said in the first person ("my mug"), see
    :func:`~knowledge.packs.task_schema.asked_first`. Otherwise ``check`` as it is.
    """
    acts = spec.plan is not None and SPEAKER_ARGUMENT in spec.plan.args.values()
    issues = asked_first(schema, frame.slots, check.issues, acts_for_speaker=acts)
    return check if issues is None else replace(check, issues=issues, task=None)  # type: ignore[arg-type]
