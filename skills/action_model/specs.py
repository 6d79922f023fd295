"""Typed call specs: a skill's or task's arguments as a pydantic model, and how they validate.

A :class:`CallSpec` names an action and its argument model (based on :class:`Args`);
:func:`find_spec` and :func:`typed_args` find and apply one, raising
:class:`SkillArgumentError` naming the problem and listing the valid names or arguments. The
skill calls (:mod:`cogtree.skills.capabilities.calls`) and task calls
(:mod:`cogtree.skills.planning.tasks`) are built on them.

Hands are named ``right`` and ``left``; a robot with one hand has only ``right``
(:data:`HAND_NAMES`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Annotated, Any, Literal, TypeVar

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    ValidationError,
)

from cogtree.knowledge.validation_errors import first_problem

SpatialRelation = Literal[
    "on", "in", "next_to", "near", "left_of", "right_of", "behind", "in_front_of"
]
"""Where PLACE puts an object relative to its target: on or in a piece of furniture (the
target's kind decides when the relation is not given), or beside a landmark (an object, a
place or a piece of furniture) on the surface the landmark stands on."""

SIDE_RELATIONS: frozenset[SpatialRelation] = frozenset(
    {"next_to", "near", "left_of", "right_of", "behind", "in_front_of"}
)
"""PLACE relations that put an object beside a landmark, on the surface the landmark rests on."""

Hand = Literal["right", "left"]
"""A robot hand; see :data:`HAND_NAMES`."""

HAND_NAMES: tuple[Hand, ...] = ("right", "left")
"""Hand names in the order planning tries them; a robot with ``n`` hands has the first ``n``."""

NodeId = Annotated[
    str,
    Field(
        pattern=r"^[A-Za-z_][A-Za-z0-9_.-]*$",
        description="short id of a node of the belief (kitchen, bottle_blue, user)",
    ),
]
"""The short id of a scene-graph node, as skill arguments name things."""


_Key = TypeVar("_Key", bound=str)


class SkillArgumentError(ValueError):
    """An unknown skill or task, or arguments that do not fit its spec."""


class Args(BaseModel):
    """Base of every argument model: immutable, and unknown fields are errors."""

    model_config = ConfigDict(extra="forbid", frozen=True)


@dataclass(frozen=True)
class CallSpec:
    """A named action with typed arguments: a skill, or a task of the task planner."""

    name: str
    args: type[BaseModel]
    summary: str

    @property
    def parameters(self) -> tuple[str, ...]:
        """The argument names, in the order positional values take them."""
        return tuple(self.args.model_fields)

    def signature(self) -> str:
        """``PICK(object, hand)``; an optional argument ends in ``?``: ``PLACE(…, relation?)``."""
        names = (
            name if field.is_required() else f"{name}?"
            for name, field in self.args.model_fields.items()
        )
        return f"{self.name}({', '.join(names)})"

    def validate(self, args: Mapping[str, Any]) -> BaseModel:
        """``args`` as this spec's model; :class:`SkillArgumentError` names the bad field."""
        try:
            return self.args.model_validate(dict(args))
        except ValidationError as error:
            raise SkillArgumentError(
                f"{self.name}: {first_problem(error)}; {self.signature()} takes "
                f"{', '.join(self.parameters)}"
            ) from error


def find_spec(kind: str, specs: Mapping[_Key, CallSpec], name: str) -> CallSpec:
    """The spec called ``name``; :class:`SkillArgumentError` lists the valid ones."""
    for key, spec in specs.items():
        if key == name:
            return spec
    valid = ", ".join(spec.signature() for spec in specs.values())
    raise SkillArgumentError(f"unknown {kind} {name!r}: valid {kind}s are {valid}")


def typed_args(data: Any, name_field: str, specs: Mapping[_Key, CallSpec]) -> Any:
    """Raw model input whose ``args`` are validated by the spec ``data[name_field]`` names.

    For ``mode="before"`` validators of call models, so a call read back from JSON gets its
    arguments as the spec's model. An unknown name is left for the name field to reject.
    """
    if not isinstance(data, Mapping) or name_field not in data:
        return data
    spec = next((spec for key, spec in specs.items() if key == data[name_field]), None)
    args = data.get("args", {})
    if spec is None or isinstance(args, spec.args):
        return data
    raw = args.model_dump() if isinstance(args, BaseModel) else args
    return {**data, "args": spec.args.model_validate(raw)}
