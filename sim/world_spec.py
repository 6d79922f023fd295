"""What a world holds at its start: rooms, doors, furniture, objects, robots, people, a clock.

These frozen pydantic models are the *spec* of a world, and exactly what a scenario's
``world:`` section contains (:mod:`sim.scenario` has the authoring guide). Field checks live
on the models (a passage cannot close, a robot with hands needs reach heights); references
between them (an object ``on`` a surface that exists, a door between known rooms) are checked
by :meth:`WorldSpec.problems`, which lists every problem with its field, so an author sees
them all at once. :class:`sim.world.World` turns a spec into a running world.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime, timezone
from types import MappingProxyType
from typing import Annotated, Any, Literal

from pydantic import (
    AfterValidator,
    AwareDatetime,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    model_validator,
)
from typing_extensions import Self

from cogtree.knowledge.scene.disposal import BinKind
from cogtree.skills.action_model.belief import ONTOLOGY_SKILLS, HazardFlag

_ID = re.compile(r"[a-z][a-z0-9_]*")
_TYPE_ID = re.compile(r"[A-Z][A-Za-z0-9]*")


def _check_id(value: str) -> str:
    if not _ID.fullmatch(value):
        raise ValueError(
            f"{value!r} is not an id: use lowercase letters, digits and _, "
            "starting with a letter (e.g. table_1)"
        )
    return value


def _check_type_id(value: str) -> str:
    if not _TYPE_ID.fullmatch(value):
        raise ValueError(
            f"{value!r} is not a type: use the ontology's CamelCase name (e.g. Bottle, Table)"
        )
    return value


def _normalise_label(value: str) -> str:
    label = " ".join(value.split()).lower()
    if not label:
        raise ValueError("a label needs some text")
    return label


Id = Annotated[str, AfterValidator(_check_id)]
"""A node id: lowercase letters, digits and ``_`` (``table_1``); unique across the world."""

TypeId = Annotated[str, AfterValidator(_check_type_id)]
"""An object type of the ontology (``Bottle``, ``Table``) or of the world's ``types``."""

Label = Annotated[str, AfterValidator(_normalise_label)]
"""A name people use, stored lowercase with single spaces (the ontology's convention)."""

CARRY = "Carry"
"""The ontology's skill that grants no robot skill: carrying things in a mounted locker."""

SKILL_INDIVIDUALS: tuple[str, ...] = (*ONTOLOGY_SKILLS, CARRY)
"""The skills of the ontology (``cog:Skill`` instances) a robot profile may list."""


def _check_skill(value: str) -> str:
    if value not in SKILL_INDIVIDUALS:
        raise ValueError(f"{value!r} is no skill of the ontology ({', '.join(SKILL_INDIVIDUALS)})")
    return value


SkillIndividual = Annotated[str, AfterValidator(_check_skill)]
"""A skill of the ontology a robot profile lists (``Pick``, ``Carry``)."""

Availability = Literal["available", "busy", "away", "asleep"]
"""Whether a person can help now (the ontology's ``cog:availability`` values)."""

Kind = Literal["room", "door", "surface", "container", "object", "robot", "person"]
"""What an id names in the world."""

Relation = Literal["on", "in", "room", "held_by"]
"""How an object is placed: on a surface, in a container, on a room's floor, in someone's hand."""

DEFAULT_START = datetime(2025, 6, 2, 8, 0, tzinfo=timezone.utc)
"""When a world's clock starts unless its spec says otherwise."""

DEFAULT_TASK_TICKS = 5
"""How long a person takes for a delegated task when their ability does not say."""


@dataclass(frozen=True)
class Problem:
    """One thing wrong with a world or scenario: the field it is in and what is wrong."""

    field: str
    message: str

    def under(self, prefix: str) -> Problem:
        """The same problem with ``prefix.`` before its field."""
        return Problem(f"{prefix}.{self.field}" if self.field else prefix, self.message)

    def __str__(self) -> str:
        return f"field `{self.field or '<root>'}`: {self.message}"


class SpecModel(BaseModel):
    """Base of the authored models: unknown fields are errors, values never change."""

    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)


def _keyed(value: Any) -> Any:
    """Let a mapping of ids be written as a plain list of ids (``rooms: [kitchen, hall]``)."""
    if isinstance(value, list) and all(isinstance(item, str) for item in value):
        return {item: {} for item in value}
    return value


# -- the spec ---------------------------------------------------------------------------------


class Room(SpecModel):
    """A room of the home."""

    label: Label | None = Field(None, description="default: the id with spaces")
    synonyms: tuple[Label, ...] = ()


class Door(SpecModel):
    """A connection between two rooms: a door (may close, lock, be blocked) or a passage."""

    between: tuple[Id, Id]
    kind: Literal["door", "passage"] = "door"
    open: bool = True
    locked: bool = False
    blocked: bool = Field(False, description="something stands in the way")

    @model_validator(mode="after")
    def _consistent(self) -> Self:
        if self.between[0] == self.between[1]:
            raise ValueError(f"a door joins two different rooms, got {list(self.between)}")
        if self.kind == "passage" and (not self.open or self.locked):
            raise ValueError("a passage has no door: it cannot be closed or locked")
        if self.locked and self.open:
            raise ValueError("a locked door is closed: set open: false")
        return self


class Kitchen(SpecModel):
    """What makes a thing part of a kitchen: flags, material, owner and the state it starts in.

    ``flags`` are the belief's hazard flags (sharp, appliance, water_source, ...); a thing also
    has the flags its type typically has in the household taxonomy (a knife is sharp), except
    those in ``not_flags`` (a toy knife: ``not_flags: [sharp]``). ``powered`` is the start
    state of something with the ``appliance`` flag (default off).
    """

    flags: tuple[HazardFlag, ...] = ()
    not_flags: tuple[HazardFlag, ...] = Field((), description="typical flags it lacks")
    material: Label | None = None
    powered: bool | None = Field(None, description="appliances only: on at the start")
    hot: bool | None = None
    owner: Id | None = Field(None, description="a person")

    @model_validator(mode="after")
    def _switchable(self) -> Self:
        if self.powered is not None and "appliance" not in self.flags:
            raise ValueError("only an appliance is powered: add `appliance` to `flags`")
        if both := sorted(set(self.flags) & set(self.not_flags)):
            raise ValueError(f"{', '.join(both)} in both `flags` and `not_flags`: keep one")
        return self


class Furniture(Kitchen):
    """A surface things are put on or a container things are put in (which opens and closes).

    A piece of furniture stands in a ``room``, or is ``mounted_on`` a robot (a locker). A
    kitchen adds: ``bin`` (a waste bin and the waste it takes), ``slots`` (how many objects
    it takes at once: free space, modelled simply), ``clean`` (a surface's start state).
    """

    kind: Literal["surface", "container"]
    type: TypeId
    room: Id | None = None
    mounted_on: Id | None = Field(None, description="a robot that carries it")
    height_m: float = Field(0.75, ge=0.0, le=3.0, description="where things on/in it rest")
    open: bool | None = Field(None, description="containers only; default closed")
    label: Label | None = None
    synonyms: tuple[Label, ...] = ()
    bin: BinKind | None = Field(None, description="a waste bin: recycling, compost, landfill")
    slots: int | None = Field(None, ge=1, description="objects it takes at once (None: any)")
    clean: bool | None = Field(None, description="surfaces: clean at the start")

    @model_validator(mode="after")
    def _consistent(self) -> Self:
        if self.bin is not None and self.kind != "container":
            raise ValueError("a bin is a container: set kind: container")
        if self.clean is not None and self.kind != "surface":
            raise ValueError("only a surface is wiped clean: remove `clean`")
        if (self.room is None) == (self.mounted_on is None):
            raise ValueError("give exactly one of `room` or `mounted_on`")
        if self.kind == "surface" and self.open is not None:
            raise ValueError("only containers open and close: remove `open` from a surface")
        return self

    @property
    def is_open_at_start(self) -> bool:
        """Whether the container starts open (surfaces: always)."""
        return self.kind == "surface" or bool(self.open)


class Placement(BaseModel):
    """Where an object is: ``relation`` to ``support`` (and the hand, when a robot holds it)."""

    model_config = ConfigDict(frozen=True)

    relation: Relation
    support: str
    hand: str | None = None

    def describe(self) -> str:
        """``on table_1``, ``in fridge``, ``on the floor of kitchen``, ``held by alex``."""
        if self.relation == "room":
            return f"on the floor of {self.support}"
        if self.relation == "held_by":
            hand = f" ({self.hand} hand)" if self.hand else ""
            return f"held by {self.support}{hand}"
        return f"{self.relation} {self.support}"


class PlacementSpec(SpecModel):
    """Where an object is, written as exactly one of ``on``, ``in``, ``room``, ``held_by``."""

    on: Id | None = Field(None, description="a surface")
    in_: Id | None = Field(None, alias="in", description="a container")
    room: Id | None = Field(None, description="on the floor of a room")
    held_by: Id | None = Field(None, description="a robot or a person")
    hand: Id | None = Field(None, description="which hand of the robot (default: a free one)")

    @model_validator(mode="after")
    def _one_place(self) -> Self:
        given = [name for name, value in self._places() if value is not None]
        if len(given) != 1:
            raise ValueError(
                "give exactly one of `on`, `in`, `room`, `held_by`"
                + (f" (got {', '.join(given)})" if given else "")
            )
        if self.hand is not None and self.held_by is None:
            raise ValueError("`hand` only goes with `held_by`")
        return self

    def _places(self) -> list[tuple[Relation, str | None]]:
        return [("on", self.on), ("in", self.in_), ("room", self.room), ("held_by", self.held_by)]

    @property
    def placement(self) -> Placement:
        """The placement this spec describes."""
        relation, support = next((r, s) for r, s in self._places() if s is not None)
        return Placement(relation=relation, support=support, hand=self.hand)


class WorldObject(PlacementSpec, Kitchen):
    """A portable item, where it starts, and what it is like.

    A kitchen adds ``flags`` and ``material`` (:class:`Kitchen`), and for a container of
    liquid its ``capacity_ml`` and the ``liquid`` / ``liquid_ml`` it starts with.
    """

    type: TypeId
    label: Label | None = None
    synonyms: tuple[Label, ...] = ()
    colour: Label | None = None
    flavour: Label | None = None
    caffeinated: bool | None = None
    liquid: Label | None = None
    liquid_ml: float = Field(0.0, ge=0.0)
    capacity_ml: float | None = Field(None, gt=0.0)
    empty: bool | None = Field(None, description="it holds nothing any more")
    mass_kg: float = Field(0.3, gt=0.0)
    graspable: bool = True
    next_to: Id | None = Field(
        None, description="another object on the same surface that it starts next to"
    )

    @model_validator(mode="after")
    def _liquid(self) -> Self:
        if (self.liquid is None) != (self.liquid_ml == 0):
            raise ValueError("give `liquid` and `liquid_ml` together (or neither, for empty)")
        if self.capacity_ml is not None and self.liquid_ml > self.capacity_ml:
            raise ValueError(f"liquid_ml ({self.liquid_ml}) is over capacity_ml")
        return self

    def attributes(self) -> dict[str, str | bool]:
        """The descriptive attributes that are set, by ontology property name."""
        values = {
            "colour": self.colour,
            "flavour": self.flavour,
            "material": self.material,
            "caffeinated": self.caffeinated,
            "hot": self.hot,
            "empty": self.empty,
        }
        return {name: value for name, value in values.items() if value is not None}


class RobotProfile(SpecModel):
    """What a kind of robot can do: skills, named hands, payload and reach heights."""

    skills: tuple[SkillIndividual, ...]
    hands: tuple[Id, ...] = Field(description="hand names; () for a base without an arm")
    payload_kg: float = Field(ge=0.0)
    min_reach_m: float | None = Field(None, ge=0.0)
    max_reach_m: float | None = Field(None, ge=0.0)


PROFILES: Mapping[str, RobotProfile] = MappingProxyType(
    {
        "humanoid": RobotProfile(
            skills=tuple(ONTOLOGY_SKILLS),
            hands=("left", "right"),
            payload_kg=3.0,
            min_reach_m=0.1,
            max_reach_m=1.8,
        ),
        "mobile_base": RobotProfile(
            skills=("Goto", CARRY),
            hands=(),
            payload_kg=15.0,
        ),
    }
)
"""Built-in robot profiles: a two-armed humanoid (every skill but Carry) and a mobile base
with no arm."""


def _with_profile(value: Any) -> Any:
    """Fill a robot's unset profile fields from its named ``profile``."""
    if not isinstance(value, dict) or value.get("profile") is None:
        return value
    name = value["profile"]
    if name not in PROFILES:
        raise ValueError(f"unknown profile {name!r}: use one of {', '.join(PROFILES)}")
    return {**PROFILES[name].model_dump(), **value}


class Robot(RobotProfile):
    """A robot: its profile (named, or given field by field) and the room it starts in."""

    profile: str | None = Field(None, description="humanoid or mobile_base; fields override")
    room: Id
    label: Label | None = None

    @model_validator(mode="before")
    @classmethod
    def _profile(cls, value: Any) -> Any:
        return _with_profile(value)

    @model_validator(mode="after")
    def _reach(self) -> Self:
        if self.hands and (self.min_reach_m is None or self.max_reach_m is None):
            raise ValueError("a robot with hands needs `min_reach_m` and `max_reach_m`")
        if (
            self.min_reach_m is not None
            and self.max_reach_m is not None
            and self.min_reach_m > self.max_reach_m
        ):
            raise ValueError(
                f"min_reach_m ({self.min_reach_m}) is above max_reach_m ({self.max_reach_m})"
            )
        if len(set(self.hands)) != len(self.hands):
            raise ValueError(f"hand names must differ, got {list(self.hands)}")
        return self


class ScheduleEntry(SpecModel):
    """A person's availability from one tick until (not including) another."""

    from_tick: int = Field(0, ge=0)
    until_tick: int | None = Field(None, description="exclusive; None: from then on")
    status: Availability

    @model_validator(mode="after")
    def _ordered(self) -> Self:
        if self.until_tick is not None and self.until_tick <= self.from_tick:
            raise ValueError(f"until_tick ({self.until_tick}) must be after from_tick")
        return self

    def covers(self, tick: int) -> bool:
        """Whether the entry is in force at ``tick``."""
        return self.from_tick <= tick and (self.until_tick is None or tick < self.until_tick)


def _abilities(value: Any) -> Any:
    """``abilities: [sign, print]`` is short for each taking the default number of ticks."""
    return {item: DEFAULT_TASK_TICKS for item in value} if isinstance(value, list) else value


class Person(SpecModel):
    """Someone in (or away from) the home who may answer questions and take on tasks."""

    label: Label | None = None
    room: Id | None = Field(None, description="None: not at home")
    availability: Availability = "available"
    schedule: tuple[ScheduleEntry, ...] = Field((), description="first entry in force wins")
    reachable: bool = Field(True, description="can be asked at all (in person or by phone)")
    abilities: Annotated[dict[Id, Annotated[int, Field(ge=1)]], BeforeValidator(_abilities)] = (
        Field(default_factory=dict, description="task name -> ticks it takes (list: default)")
    )
    refuses: tuple[str, ...] = Field((), description="object ids or types, or abilities")
    age_group: Literal["toddler", "child", "adult", "elderly"] | None = None
    vulnerabilities: tuple[Label, ...] = Field((), description="dementia, frail, weak grip...")
    relation: Label | None = Field(None, description="who they are to the user: father, wife...")


class ObjectType(SpecModel):
    """An object type the ontology lacks, declared by the world (``Sofa``, ``Document``)."""

    label: Label | None = Field(None, description="default: the type name in lowercase")
    broader: TypeId | None = Field(None, description="e.g. Drink for a new kind of drink")
    synonyms: tuple[Label, ...] = ()


class ClockSpec(SpecModel):
    """When the simulated time starts and how long one tick lasts."""

    start: AwareDatetime = DEFAULT_START
    seconds_per_tick: float = Field(1.0, gt=0.0)


class WorldSpec(SpecModel):
    """Everything a world holds at its start. Ids are unique across all sections."""

    rooms: Annotated[dict[Id, Room], BeforeValidator(_keyed)]
    doors: dict[Id, Door] = Field(default_factory=dict)
    furniture: dict[Id, Furniture] = Field(default_factory=dict)
    objects: dict[Id, WorldObject] = Field(default_factory=dict)
    robots: dict[Id, Robot] = Field(default_factory=dict)
    people: Annotated[dict[Id, Person], BeforeValidator(_keyed)] = Field(default_factory=dict)
    types: dict[TypeId, ObjectType] = Field(default_factory=dict)
    clock: ClockSpec = ClockSpec()
    grasp_slip_probability: float = Field(0.0, ge=0.0, le=1.0)
    ticks_per_room: int = Field(3, ge=1, description="navigation time per door crossed")

    def kind_of(self, thing: str) -> Kind | None:
        """What ``thing`` names, or None when nothing in the world has that id."""
        if thing in self.rooms:
            return "room"
        if thing in self.doors:
            return "door"
        if thing in self.furniture:
            return self.furniture[thing].kind
        if thing in self.objects:
            return "object"
        if thing in self.robots:
            return "robot"
        if thing in self.people:
            return "person"
        return None

    def ids(self, *kinds: Kind) -> list[str]:
        """Every id of the given kinds, in declaration order."""
        sections: list[tuple[Kind, Iterable[str]]] = [
            ("room", self.rooms),
            ("door", self.doors),
            ("surface", (f for f, spec in self.furniture.items() if spec.kind == "surface")),
            ("container", (f for f, spec in self.furniture.items() if spec.kind == "container")),
            ("object", self.objects),
            ("robot", self.robots),
            ("person", self.people),
        ]
        return [thing for kind, ids in sections if kind in kinds for thing in ids]

    def label(self, thing: str) -> str:
        """What people call ``thing``: its label, else its id with spaces."""
        spec: Room | Furniture | WorldObject | Robot | Person | None = (
            self.rooms.get(thing)
            or self.furniture.get(thing)
            or self.objects.get(thing)
            or self.robots.get(thing)
            or self.people.get(thing)
        )
        label = spec.label if spec is not None else None
        return label or thing.replace("_", " ")

    def problems(self) -> list[Problem]:
        """Every broken reference or impossible relation, each with its field (empty: fine)."""
        found: list[Problem] = []
        found += self._duplicate_ids()
        for door_id, door in self.doors.items():
            for position, room in enumerate(door.between):
                found += self.reference(f"doors.{door_id}.between[{position}]", room, "room")
        for furniture_id, furniture in self.furniture.items():
            field = f"furniture.{furniture_id}"
            if furniture.room is not None:
                found += self.reference(f"{field}.room", furniture.room, "room")
            if furniture.mounted_on is not None:
                found += self.reference(f"{field}.mounted_on", furniture.mounted_on, "robot")
                if furniture.kind != "container":
                    found.append(Problem(f"{field}.kind", "only a container can be mounted"))
        for section, things in (("furniture", self.furniture), ("objects", self.objects)):
            for owned, thing in things.items():
                if thing.owner is not None:
                    found += self.reference(f"{section}.{owned}.owner", thing.owner, "person")
        hands_used: dict[tuple[str, str], str] = {}
        for object_id, obj in self.objects.items():
            field = f"objects.{object_id}"
            found += self.placement_problems(field, obj.placement)
            if obj.next_to is not None:
                found += self._next_to_problems(f"{field}.next_to", obj, obj.next_to)
            placement = obj.placement
            if placement.relation == "held_by" and placement.support in self.robots:
                hand = placement.hand
                if hand is not None and (placement.support, hand) in hands_used:
                    other = hands_used[(placement.support, hand)]
                    found.append(Problem(f"{field}.hand", f"{other} is already in that hand"))
                elif hand is not None:
                    hands_used[(placement.support, hand)] = object_id
        for robot_id, robot in self.robots.items():
            found += self.reference(f"robots.{robot_id}.room", robot.room, "room")
        for person_id, person in self.people.items():
            if person.room is not None:
                found += self.reference(f"people.{person_id}.room", person.room, "room")
        found += self._overfull_hands()
        return found

    def _next_to_problems(self, field: str, obj: WorldObject, landmark: str) -> list[Problem]:
        """A start relation `next_to` names another object on the same surface."""
        if problems := self.reference(field, landmark, "object"):
            return problems
        here, there = obj.placement, self.objects[landmark].placement
        if here.relation != "on" or there.relation != "on" or here.support != there.support:
            return [Problem(field, f"{landmark} is not on the same surface; put both `on` it")]
        return []

    def reference(self, field: str, thing: str, *kinds: Kind) -> list[Problem]:
        """A problem when ``thing`` is not of one of ``kinds`` (unknown, or another kind)."""
        kind = self.kind_of(thing)
        if kind in kinds:
            return []
        wanted = " or ".join(kinds)
        known = self.ids(*kinds)
        listing = f" ({wanted}s: {', '.join(known)})" if known else f" (there is no {wanted})"
        if kind is None:
            return [Problem(field, f"no {wanted} {thing!r}{listing}")]
        return [Problem(field, f"{thing} is a {kind}, not a {wanted}{listing}")]

    def placement_problems(self, field: str, placement: Placement) -> list[Problem]:
        """Problems with placing an object there: the support must be of the right kind."""
        kinds: dict[Relation, tuple[Kind, ...]] = {
            "on": ("surface",),
            "in": ("container",),
            "room": ("room",),
            "held_by": ("robot", "person"),
        }
        names = {"on": "on", "in": "in", "room": "room", "held_by": "held_by"}
        problems = self.reference(
            f"{field}.{names[placement.relation]}", placement.support, *kinds[placement.relation]
        )
        if problems or placement.relation != "held_by":
            return problems
        robot = self.robots.get(placement.support)
        if robot is None:
            if placement.hand is not None:
                return [Problem(f"{field}.hand", "only robots have named hands; remove `hand`")]
            return []
        if not robot.hands:
            return [Problem(f"{field}.held_by", f"{placement.support} has no hands")]
        if placement.hand is not None and placement.hand not in robot.hands:
            return [
                Problem(
                    f"{field}.hand",
                    f"{placement.support} has no hand {placement.hand!r} "
                    f"(hands: {', '.join(robot.hands)})",
                )
            ]
        return []

    def _duplicate_ids(self) -> list[Problem]:
        seen: dict[str, str] = {}
        problems = []
        for section in ("rooms", "doors", "furniture", "objects", "robots", "people"):
            for thing in getattr(self, section):
                if thing in seen:
                    problems.append(
                        Problem(
                            f"{section}.{thing}",
                            f"id {thing!r} is already used in {seen[thing]}: ids are unique "
                            "across rooms, doors, furniture, objects, robots and people",
                        )
                    )
                else:
                    seen[thing] = section
        return problems

    def _overfull_hands(self) -> list[Problem]:
        problems = []
        for robot_id, robot in self.robots.items():
            held = [object_id for object_id, obj in self.objects.items() if obj.held_by == robot_id]
            if robot.hands and len(held) > len(robot.hands):
                problems.append(
                    Problem(
                        f"robots.{robot_id}.hands",
                        f"{robot_id} holds {len(held)} objects ({', '.join(held)}) "
                        f"with {len(robot.hands)} hands",
                    )
                )
        return problems


class WorldError(ValueError):
    """A world spec with broken references or impossible relations (lists every problem)."""

    def __init__(self, problems: list[Problem]) -> None:
        self.problems = problems
        super().__init__("invalid world:\n" + "\n".join(f"  {problem}" for problem in problems))
