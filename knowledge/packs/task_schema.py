"""Task schemas (the pydantic models of domain-pack tasks): required slots, the partial form.

A task schema's required fields are the slots a gate must know before the robot may act;
the partial form has every field optional, for a task still being filled in.

A schema may also need *one of several groups* of slots, complete: JANUS's AddToDatabase needs
either the foods it remembers or all four daily targets. It declares them as the class
attribute :data:`ALTERNATIVES` (a tuple of slot-name tuples). The group the user started is
then required in full; when the user started none, the first group is.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Optional

from pydantic import BaseModel, Field, create_model

ALTERNATIVES = "required_alternatives"
"""Class attribute of a task schema: groups of slots, one of which must be complete."""


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
    """The group the user started in ``values`` (the first one started), else the first group."""
    groups = alternatives(task_schema)
    if not groups:
        return ()
    for group in groups:
        if values is not None and any(said(values.get(name)) for name in group):
            return group
    return groups[0]


def required_slots(
    task_schema: type[BaseModel], values: Mapping[str, Any] | None = None
) -> list[str]:
    """Names of the slots required before acting, in declaration order.

    The schema's required fields, plus the group of :data:`ALTERNATIVES` that ``values`` (the
    slots said so far) started, or the first group when they started none.
    """
    group = set(chosen_alternative(task_schema, values))
    return [
        name
        for name, info in task_schema.model_fields.items()
        if info.is_required() or name in group
    ]


def slots_that_may_be_required(task_schema: type[BaseModel]) -> list[str]:
    """Every slot some turn may require: the required fields and every alternative's slots."""
    grouped = {name for group in alternatives(task_schema) for name in group}
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
