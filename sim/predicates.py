"""Goal predicates over ground truth: ``on(bottle, table_2)``, parsed, checked, evaluated.

A predicate is written ``name(arg, ...)``, optionally after ``not``::

    on(bottle, table_2)        object bottle is on surface table_2
    in(milk, fridge)           object milk is in container fridge
    in_room(bottle, bedroom)   the thing (object, furniture, robot, person) is in that room
    holds(robot1, bottle)      the robot or person holds the object
    is_open(fridge)            the container or door is open (passages always are)
    at(robot1, kitchen)        the robot or person is in that room
    delivered(bottle, alex)    the person holds the object (it was handed over, or taken)
    did(anna, sign)            the person finished a delegated task of that ability
    next_to(cup, plate)        the object was set next to the landmark (also near, left_of,
                               right_of, behind, in_front_of)
    powered(kettle)            the appliance, tap or light is switched on
    contains(glass, water)     the container holds that liquid (any amount)
    clean(counter)             the surface is clean (wiped, and nothing spilled on it since)
    spilled(counter)           liquid spilled on the thing
    not on(bottle, table_1)    negation

Parsing checks the syntax, the name and the number of arguments
(:meth:`Predicate.parse`, ValueError with the fix); :meth:`Predicate.problems` checks the
arguments against a world (each names something of the right kind); :meth:`Predicate.holds`
evaluates it on ground truth.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Mapping
from types import MappingProxyType
from typing import Annotated, Any, Literal

from pydantic import BaseModel, BeforeValidator, ConfigDict, PlainSerializer

from cogtree.sim.world import World
from cogtree.sim.world_spec import Kind, Problem, WorldSpec

PredicateName = Literal[
    "on",
    "in",
    "in_room",
    "holds",
    "is_open",
    "at",
    "delivered",
    "did",
    "next_to",
    "near",
    "left_of",
    "right_of",
    "behind",
    "in_front_of",
    "powered",
    "contains",
    "clean",
    "spilled",
]
"""The predicates goals and event conditions may use."""

SIDE_RELATIONS = ("next_to", "near", "left_of", "right_of", "behind", "in_front_of")
"""Predicates that an object was set beside a landmark in that relation."""

Parameter = tuple[str, tuple[Kind, ...]]
"""A predicate's parameter: its role in words, and the kinds of thing it accepts (none: a word)."""

SIGNATURES: Mapping[str, tuple[Parameter, ...]] = MappingProxyType(
    {
        "on": (("object", ("object",)), ("surface", ("surface",))),
        "in": (("object", ("object",)), ("container", ("container",))),
        "in_room": (
            ("thing", ("object", "surface", "container", "robot", "person")),
            ("room", ("room",)),
        ),
        "holds": (("agent", ("robot", "person")), ("object", ("object",))),
        "is_open": (("container or door", ("container", "door")),),
        "at": (("agent", ("robot", "person")), ("room", ("room",))),
        "delivered": (("object", ("object",)), ("person", ("person",))),
        "did": (("person", ("person",)), ("ability", ())),
        **{
            relation: (("object", ("object",)), ("landmark", ("object", "surface")))
            for relation in SIDE_RELATIONS
        },
        "powered": (("appliance", ("object", "surface", "container")),),
        "contains": (("container", ("object",)), ("liquid", ())),
        "clean": (("surface", ("surface",)),),
        "spilled": (("thing", ("object", "surface", "container")),),
    }
)
"""Each predicate's parameters, in order."""

_SHAPE = re.compile(r"\s*(not\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*\((.*)\)\s*")
_ARGUMENT = re.compile(r"[a-z][a-z0-9_]*")


def _usage(name: str) -> str:
    return f"{name}({', '.join(role for role, _ in SIGNATURES[name])})"


class Predicate(BaseModel):
    """One parsed predicate, e.g. ``on(bottle, table_2)``; ``str()`` writes it back."""

    model_config = ConfigDict(frozen=True)

    name: PredicateName
    args: tuple[str, ...]
    negated: bool = False

    @classmethod
    def parse(cls, text: str) -> Predicate:
        """Parse ``text``; ValueError says what is wrong and how to write it."""
        shape = _SHAPE.fullmatch(text)
        if shape is None:
            raise ValueError(
                f"bad predicate {text!r}: write name(arg, ...), e.g. on(bottle, table_2)"
            )
        negation, name, inside = shape.groups()
        if name not in SIGNATURES:
            close = difflib.get_close_matches(name, SIGNATURES, n=1)
            hint = f"did you mean {close[0]}? " if close else ""
            usages = ", ".join(_usage(known) for known in SIGNATURES)
            raise ValueError(f"unknown predicate {name!r} in {text!r}: {hint}use one of {usages}")
        args = tuple(arg.strip() for arg in inside.split(",")) if inside.strip() else ()
        if any(len(arg.split()) > 1 for arg in args):
            raise ValueError(
                f"bad predicate {text!r}: separate the arguments with commas, "
                "e.g. on(bottle, table_2)"
            )
        wanted = SIGNATURES[name]
        if len(args) != len(wanted):
            raise ValueError(
                f"{name} takes {len(wanted)} argument{'s' * (len(wanted) != 1)}: "
                f"{_usage(name)}, got {len(args)} in {text!r}"
            )
        for arg in args:
            if not _ARGUMENT.fullmatch(arg):
                raise ValueError(
                    f"argument {arg!r} of {text!r} is not an id: use lowercase letters, digits "
                    "and _ (e.g. table_2)"
                )
        return cls(name=name, args=args, negated=negation is not None)

    def __str__(self) -> str:
        return f"{'not ' if self.negated else ''}{self.name}({', '.join(self.args)})"

    def problems(self, spec: WorldSpec, field: str) -> list[Problem]:
        """Arguments that name nothing, or something of the wrong kind, in ``spec``."""
        found = []
        for arg, (_, kinds) in zip(self.args, SIGNATURES[self.name], strict=True):
            if kinds:
                found += [
                    Problem(field, f"in {self}: {problem.message}")
                    for problem in spec.reference(field, arg, *kinds)
                ]
        if self.name == "did" and not found:
            person, ability = self.args
            abilities = spec.people[person].abilities
            if ability not in abilities:
                known = ", ".join(abilities) or "none"
                found.append(
                    Problem(field, f"in {self}: {person} has no ability {ability!r} ({known})")
                )
        return found

    def holds(self, world: World) -> bool:
        """Whether the predicate is true of the world now."""
        return self._true(world) != self.negated

    def _true(self, world: World) -> bool:
        first, *rest = self.args
        second = rest[0] if rest else ""
        if self.name in ("in_room", "at"):
            return world.room_of(first) == second
        if self.name == "is_open":
            return world.is_open(first)
        if self.name == "did":
            return world.did(first, second)
        if self.name in SIDE_RELATIONS:
            return world.state.beside.get(first) == (self.name, second)
        if self.name == "powered":
            return world.is_powered(first)
        if self.name == "contains":
            held = world.liquid_in(first)
            return held is not None and second in held.liquid.split(" and ")
        if self.name == "clean":
            return world.state.clean.get(first, False)
        if self.name == "spilled":
            return any(spill.place == first for spill in world.state.spills)
        if self.name == "holds":
            first, second = second, first
        placement = world.state.placements.get(first)
        if placement is None:
            return False
        relation = {"on": "on", "in": "in", "holds": "held_by", "delivered": "held_by"}
        return placement.relation == relation[self.name] and placement.support == second


def _from_text(value: Any) -> Any:
    return Predicate.parse(value) if isinstance(value, str) else value


PredicateText = Annotated[Predicate, BeforeValidator(_from_text), PlainSerializer(str)]
"""A predicate field of a model, written (and dumped) as text: ``"on(bottle, table_2)"``."""
