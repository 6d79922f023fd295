"""Task schemas of the household pack: errands, tidying, questions and the kitchen.

Fetch, bring, put away, tidy, open, close, assist, where-is, where-it-goes, and the kitchen
tasks: place beside, dispose, switch on/off, fill, pour, wipe.

Every value is what the user said (a referring expression such as "my reading glasses");
PostProcess resolves it to a node of the robot's scene graph before the task runs.
"""

from __future__ import annotations

from typing import ClassVar

from pydantic import BaseModel, ConfigDict, Field

from cogtree.knowledge.memory.note import Introduction, Note
from cogtree.knowledge.memory.questions import MemoryQuery

__all__ = [
    "Assist",
    "Bring",
    "Close",
    "Fetch",
    "HaveAny",
    "HomeOf",
    "HowMany",
    "Introduction",
    "MemoryQuery",
    "Note",
    "Open",
    "PutAway",
    "StateOf",
    "Tidy",
    "WhatThings",
    "WhereIs",
]


class Fetch(BaseModel):
    """Bring an object to the person who asked."""

    model_config = ConfigDict(extra="forbid")

    object: str = Field(description="which object to bring to the person speaking")


class Bring(BaseModel):
    """Take an object to a place or to another person."""

    model_config = ConfigDict(extra="forbid")

    object: str = Field(description="which object to take")
    destination: str = Field(
        description="where to take it: a room, a piece of furniture or a person"
    )


class PutAway(BaseModel):
    """Put an object back where it belongs: where the user says, else its home place.

    The home place is the belief's (``believed_slots``): for a thing with none, the robot
    asks where it goes.
    """

    model_config = ConfigDict(extra="forbid")

    object: str = Field(description="which object to put away")
    destination: str | None = Field(
        None, description="where to put it: a piece of furniture or a container"
    )
    believed_slots: ClassVar[dict[str, tuple[str, str]]] = {"destination": ("object", "homePlace")}


class Tidy(BaseModel):
    """Put away everything that is out of place in a room."""

    model_config = ConfigDict(extra="forbid")

    room: str = Field(description="which room to tidy up")


class Open(BaseModel):
    """Open a container: a fridge, a wardrobe, a cupboard, a drawer."""

    model_config = ConfigDict(extra="forbid")

    container: str = Field(description="which container to open")


class Close(BaseModel):
    """Close a container that is open."""

    model_config = ConfigDict(extra="forbid")

    container: str = Field(description="which container to close")


class Assist(BaseModel):
    """Help with a need the person states (no object named): the planner works out how."""

    model_config = ConfigDict(extra="forbid")

    need: str = Field(description="what the person needs, as they said it (I'm thirsty)")


class WhereIs(BaseModel):
    """Say where the robot believes an object is."""

    model_config = ConfigDict(extra="forbid")

    object: list[str] = Field(description="the objects the person is looking for")


class HomeOf(BaseModel):
    """Say where an object goes: its home place, as the robot believes it."""

    model_config = ConfigDict(extra="forbid")

    object: str = Field(description="which object the person asks where to put")


class HowMany(BaseModel):
    """Say how many things of a kind the robot believes are here, and where."""

    model_config = ConfigDict(extra="forbid")

    kind: str = Field(description="what kind of thing to count, as the person said it")
    place: str | None = Field(None, description="where to count, as said ('in the bedroom')")


class HaveAny(BaseModel):
    """Say whether there is anything of a kind in the home, and where."""

    model_config = ConfigDict(extra="forbid")

    kind: str = Field(description="what kind of thing the person asks about, as they said it")
    place: str | None = Field(None, description="where they ask about, as said ('in the fridge')")


class StateOf(BaseModel):
    """Say whether a thing is switched on or off, open or shut, or in a place, from the belief."""

    model_config = ConfigDict(extra="forbid")

    kind: str = Field(
        description="the thing and the state or place asked about, as said ('the oven on')"
    )


class WhatThings(BaseModel):
    """Name the things of a kind in the home, or everything in or on a place."""

    model_config = ConfigDict(extra="forbid")

    kind: str | None = Field(None, description="what kind of thing, as said ('fruit')")
    place: str | None = Field(None, description="where, as said ('on the table')")


class PlaceRelative(BaseModel):
    """Put an object beside another thing: next to, near, left of, right of, behind, in front."""

    model_config = ConfigDict(extra="forbid")

    object: str = Field(description="which object to put down")
    relation: str = Field(description="where relative to the landmark: next to, left of, ...")
    landmark: str = Field(description="the object or piece of furniture to put it beside")


class Dispose(BaseModel):
    """Throw an object away into the right bin (recycling, compost or general waste)."""

    model_config = ConfigDict(extra="forbid")

    object: str = Field(description="which object to throw away")


class SwitchOn(BaseModel):
    """Switch on an appliance, a tap or a light."""

    model_config = ConfigDict(extra="forbid")

    appliance: str = Field(description="which appliance, tap or light to switch on")


class Heat(BaseModel):
    """Put an object in an appliance and switch the appliance on (warm it in the microwave)."""

    model_config = ConfigDict(extra="forbid")

    object: str = Field(description="the object to warm")
    appliance: str = Field(description="the appliance it goes in, e.g. the microwave")


class SwitchOff(BaseModel):
    """Switch off an appliance, a tap or a light."""

    model_config = ConfigDict(extra="forbid")

    appliance: str = Field(description="which appliance, tap or light to switch off")


class Fill(BaseModel):
    """Fill a container with water at the tap."""

    model_config = ConfigDict(extra="forbid")

    container: str = Field(description="which cup, glass, jug or pot to fill")


class Pour(BaseModel):
    """Pour what one container holds into another."""

    model_config = ConfigDict(extra="forbid")

    source: str = Field(description="the container to pour from")
    target: str = Field(description="the container to pour into")


class Wipe(BaseModel):
    """Wipe a surface clean with a cloth or a sponge."""

    model_config = ConfigDict(extra="forbid")

    surface: str = Field(description="which table, counter or worktop to wipe")
    tool: str | None = Field(
        None, description="the cloth or sponge to wipe with, when the user names one"
    )
