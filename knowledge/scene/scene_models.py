"""Typed results of the scene graph's perception queries, and the observations it takes in.

Every id is a short id: the local name of a node (``kitchen``, ``bottle_blue``, ``Bottle``).
Scene nodes live in ``https://cogtree.dev/scene#``; ontology terms (types, skills) in
``https://cogtree.dev/ontology#``.
"""

from __future__ import annotations

from datetime import datetime
from typing import Final, Literal

from pydantic import AwareDatetime, BaseModel, ConfigDict, Field

AttributeValue = str | bool | int | float
"""The value of a datatype property (a colour, a flag, a mass)."""

Relation = Literal["on", "in", "inRoom", "mountedOn", "heldBy"]
"""How a thing is placed: on a surface, in a container, in a room, on a robot, or in a hand."""

ThingKind = Literal["object", "surface", "container", "room"]
"""What kind of node a result is: an object, a piece of furniture, or a room."""


class Observation(BaseModel):
    """One observed fact with its provenance, as perception or a person reports it.

    ``predicate`` is the local name of an ontology property (``inRoom``, ``on``, ``colour``,
    ``holds``), or ``type`` / ``label``. ``object`` is a short id for properties between
    nodes (``kitchen``; for ``objectType`` and ``type``, an ontology term such as ``Bottle``)
    and a plain value for datatype properties (``"blue"``, ``True``, ``0.4``).
    """

    model_config = ConfigDict(frozen=True)

    subject: str = Field(min_length=1, description="short id (or full IRI) of the node")
    predicate: str = Field(min_length=1, description="ontology property local name")
    object: AttributeValue = Field(description="short id of a node, or a value")
    source: str = Field(min_length=1, description="who or what reported it")
    time: AwareDatetime = Field(description="when it was seen (timezone-aware)")


class Room(BaseModel):
    """A room and the rooms it opens onto."""

    id: str
    label: str
    connected_to: list[str] = Field(default_factory=list)


class ObjectInfo(BaseModel):
    """An object or piece of furniture found in a room."""

    id: str
    label: str
    kind: ThingKind
    type: str | None = Field(None, description="ontology type id, e.g. Bottle")
    relation: Relation | None = Field(None, description="how it is placed")
    support: str | None = Field(None, description="what it is on/in/held by, or its room")
    room: str
    graspable: bool | None = None
    mass_kg: float | None = None
    is_open: bool | None = Field(None, description="containers only")
    height_m: float | None = Field(None, description="furniture only: height above the floor")
    home: str | None = Field(None, description="objects only: where it is put away")
    attributes: dict[str, AttributeValue] = Field(default_factory=dict)
    beside: list[tuple[str, str]] = Field(
        default_factory=list,
        description="objects only: (relation, landmark) it was set beside, e.g. next_to apple",
    )


class Location(BaseModel):
    """Where a thing, a person or a robot is believed to be, and who saw it there when."""

    thing: str
    relation: Relation
    support: str = Field(description="what it is on/in/mounted on/held by, or its room")
    room: str | None = Field(None, description="the room that placement leads to")
    source: str | None = Field(None, description="None for prior knowledge")
    last_seen: datetime | None = None


class RobotState(BaseModel):
    """A robot's profile and state."""

    id: str
    label: str
    room: str | None = None
    hands: int = 0
    payload_kg: float | None = None
    min_reach_m: float | None = None
    max_reach_m: float | None = None
    skills: list[str] = Field(default_factory=list)
    holding: list[str] = Field(default_factory=list)
    held_in: dict[str, str] = Field(
        default_factory=dict, description="the hand each held thing is in, where it is known"
    )
    storage: list[str] = Field(default_factory=list, description="containers mounted on it")


class HumanInfo(BaseModel):
    """A person, where they are, whether they can help and what they can be asked to do."""

    id: str
    label: str
    room: str | None = None
    availability: str | None = None
    abilities: list[str] = Field(
        default_factory=list, description="what they can be asked to do (print, sign)"
    )
    source: str | None = Field(None, description="who last saw them in that room")
    last_seen: datetime | None = None


UNOWNED_NOTE: Final = "'my': nothing is known to be yours; nobody is known to own this"
"""A candidate's reason when "my" was said and the things fit that nobody is known to own."""


class Candidate(BaseModel):
    """A node a description may refer to, with why it matched each word."""

    id: str
    label: str
    kind: ThingKind
    type: str | None = None
    reasons: list[str] = Field(description="one entry per matched word or phrase")
    among: int | None = Field(
        None, description="how many things the description matched, when more than were given"
    )
    by_label: bool = Field(
        False,
        description="matched only by words of its label, as nothing else matched, or with a "
        "word comparing sizes the belief cannot check: a guess that may answer a question, "
        "never move a thing unconfirmed",
    )
    by_content: bool = Field(
        False,
        description="matched by what it holds, not by what it is ('a drink': a can of cola): "
        "things so matched are told apart by their contents",
    )
    by_use: bool = Field(
        False,
        description="matched by what it is for, not by what it is ('something to write with': "
        "a pen): things so matched serve alike unless the hazard rules tell them apart",
    )
