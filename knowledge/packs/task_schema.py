"""Task schemas (the pydantic models of domain-pack tasks): required slots, the partial form.

A task schema's required fields are the slots a gate must know before the robot may act;
the partial form has every field optional, for a task still being filled in.

A schema may also need *one of several groups* of slots, complete: JANUS's AddToDatabase needs
either the foods it remembers or all four daily targets. It declares them as the class
attribute :data:`ALTERNATIVES` (a tuple of slot-name tuples). The group the user started is
then required in full; when the user started none, the first group is. Groups of
:data:`TOGETHER` are required in full once one of their slots is said (the four daily
targets). A flag in a group (a bool slot, set by a cue word: "set me up") starts it but is
never asked for.

A slot may be one the belief supplies when the user does not say it (:data:`BELIEVED`): put
away, the object goes to its home place. When the belief holds no such fact either, the slot
is asked for (:func:`unbelieved`): "Where should I put the keys?", never a guess.

A schema may name its *user slot* (:data:`USER_SLOT`): the slot that says whom the task is
for (JANUS's SubstituteDish and AddToDatabase need a user identifier). When the speaker is not
known and the user slot is empty, the gate asks for it rather than assume anyone
(:func:`missing_user`); a schema may narrow that with a ``needs_user(values)`` classmethod.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Optional

from pydantic import BaseModel, Field, create_model

from cogtree.knowledge.scene.scene_graph import COG, SceneGraph

ALTERNATIVES = "required_alternatives"
"""Class attribute of a task schema: groups of slots, one of which must be complete."""

TOGETHER = "required_together"
"""Class attribute of a task schema: groups of slots said together (once one is, all are)."""

FIRST_PERSON = re.compile(r"\b(i|me|my|mine|myself)\b", re.IGNORECASE)
"""Words whose referent is the speaker: "my mug" needs to know who is speaking."""

SPEAKER = "speaker"
"""The slot a gate asks for when it must know who is speaking (the turn state's speaker slot)."""

ASKS = "asks_speaker"
"""Class attribute of a task schema: False when the task never waits to know who is speaking
(it answers for whoever it is, saying what it cannot check)."""

USER_SLOT = "user_slot"
"""Class attribute of a task schema: the slot naming whom the task is for (the speaker when
known and the slot is empty)."""


BELIEVED = "believed_slots"
"""Class attribute of a task schema: slot -> (the slot of the thing it is about, the property
of the scene graph's ontology that holds it for that thing), for optional slots the belief
supplies when they are not said: ``{"destination": ("object", "homePlace")}``."""


def said(value: Any) -> bool:
    """Whether a slot value says something (not None, blank text or an empty list)."""
    return not (value is None or (isinstance(value, str) and not value.strip()) or value == [])


def alternatives(task_schema: type[BaseModel]) -> tuple[tuple[str, ...], ...]:
    """The schema's groups of slots one of which must be complete (none: no such rule)."""
    groups: Sequence[Sequence[str]] = getattr(task_schema, ALTERNATIVES, ())
    return tuple(tuple(group) for group in groups)


def chosen_alternative(
    task_schema: type[BaseModel], values: Mapping[str, Any] | None
) -> tuple[str, ...]:
    """The group the user started in ``values``, else the first group.

    Of several started, the first complete one (nothing is left to ask), else the first one.
    """
    groups = alternatives(task_schema)
    if not groups:
        return ()
    started = [
        group
        for group in groups
        if values is not None and any(said(values.get(name)) for name in group)
    ]
    for group in started:
        assert values is not None
        if all(said(values.get(name)) for name in group if not _flag(task_schema, name)):
            return group
    return started[0] if started else groups[0]


def together(task_schema: type[BaseModel], values: Mapping[str, Any] | None) -> set[str]:
    """The slots of every :data:`TOGETHER` group ``values`` started: once one is said, all are."""
    groups: Sequence[Sequence[str]] = getattr(task_schema, TOGETHER, ())
    return {
        name
        for group in groups
        if values is not None and any(said(values.get(name)) for name in group)
        for name in group
    }


def _flag(task_schema: type[BaseModel], name: str) -> bool:
    info = task_schema.model_fields.get(name)
    return info is not None and info.annotation is bool


def user_slot(task_schema: type[BaseModel]) -> str | None:
    """The schema's user slot (:data:`USER_SLOT`), or None when it has none."""
    slot = getattr(task_schema, USER_SLOT, None)
    return slot if isinstance(slot, str) else None


def missing_user(task_schema: type[BaseModel], values: Mapping[str, Any]) -> str | None:
    """The user slot when the task needs a user and ``values`` name none; else None.

    Only for a turn whose speaker is unknown: a known speaker is the user.
    """
    slot = user_slot(task_schema)
    if slot is None or said(values.get(slot)):
        return None
    needs = getattr(task_schema, "needs_user", None)
    if callable(needs) and not needs(values):
        return None
    return slot


def asked_first(
    task_schema: type[BaseModel],
    values: Mapping[str, Any],
    issues: Mapping[str, str],
    *,
    acts_for_speaker: bool,
) -> dict[str, str] | None:
    """For a speaker the robot does not know: ``issues`` with whom the task is for asked first.

    A task whose schema names a user slot asks for it when it needs a user nobody named
    (:func:`missing_user`), and needs no speaker once one is named. Otherwise, when the task
    acts for the speaker or a slot was said in the first person ("my mug"), ``speaker`` (the
    turn state's speaker slot) is asked first and the first-person slots wait for the answer
    (it may settle them), unless the schema says it never asks (:data:`ASKS`). None: nothing to
    ask first.
    """
    user = missing_user(task_schema, values)
    if user is not None:
        return {user: "missing", **issues}
    named = user_slot(task_schema)
    if (named is not None and said(values.get(named))) or not getattr(task_schema, ASKS, True):
        return None
    first_person = {
        name
        for name, value in values.items()
        if isinstance(value, str | list)
        and FIRST_PERSON.search(" ".join(str(item) for item in _listed(value)))
    }
    if not first_person and not acts_for_speaker:
        return None
    return {SPEAKER: "missing", **{k: v for k, v in issues.items() if k not in first_person}}


def _listed(value: str | list[Any]) -> list[Any]:
    return [item for item in value if said(item)] if isinstance(value, list) else [value]


def required_slots(
    task_schema: type[BaseModel], values: Mapping[str, Any] | None = None
) -> list[str]:
    """Names of the slots required before acting, in declaration order.

    The schema's required fields, plus the group of :data:`ALTERNATIVES` that ``values`` (the
    slots said so far) started, or the first group when they started none.
    """
    group = set(chosen_alternative(task_schema, values)) | together(task_schema, values)
    return [
        name
        for name, info in task_schema.model_fields.items()
        if info.is_required() or (name in group and info.annotation is not bool)
    ]


def unbelieved(
    task_schema: type[BaseModel], values: Mapping[str, Any], holds: Callable[[str, str], bool]
) -> list[str]:
    """The :data:`BELIEVED` slots that ``values`` leave unsaid and the belief cannot supply.

    ``values`` are the checked slot values (ids); ``holds(thing, property)`` says whether the
    belief has that property for that thing. A slot whose thing is not one known id is left
    to the other checks.
    """
    believed: Mapping[str, tuple[str, str]] = getattr(task_schema, BELIEVED, {})
    return [
        slot
        for slot, (about, prop) in believed.items()
        if not said(values.get(slot))
        and isinstance(values.get(about), str)
        and not holds(values[about], prop)
    ]


def scene_holds(scene: SceneGraph | None) -> Callable[[str, str], bool]:
    """``holds(thing, property)`` for :func:`unbelieved`, read in ``scene``.

    One indexed triple pattern; without a scene nothing can be checked, nor asked for.
    """
    if scene is None:
        return lambda thing, prop: True
    return lambda thing, prop: (scene.iri(thing), COG[prop], None) in scene.graph


def slots_that_may_be_required(task_schema: type[BaseModel]) -> list[str]:
    """Every slot some turn may require: required, in an alternative, or believed.

    The required fields, every alternative's slots and the slots the belief may lack
    (:data:`BELIEVED`).
    """
    grouped = {name for group in alternatives(task_schema) for name in group}
    grouped |= set(getattr(task_schema, BELIEVED, {}))
    return [
        name
        for name, info in task_schema.model_fields.items()
        if info.is_required() or name in grouped
    ]


def partial_model(task_schema: type[BaseModel]) -> type[BaseModel]:
    """The task schema with every field optional (None = not said yet)."""
    fields: dict[str, Any] = {
        name: (Optional[info.annotation], Field(None, description=info.description))  # noqa: UP045
        for name, info in task_schema.model_fields.items()
    }
    return create_model(f"Partial{task_schema.__name__}", **fields)
