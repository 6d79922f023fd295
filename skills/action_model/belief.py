"""``Belief``: an immutable snapshot of the scene graph, seen from one robot, for planning.

Preconditions and HTN planning need many small lookups (where is the bottle, is the fridge
open, which rooms connect); a snapshot answers them from memory, so one planning call costs
a handful of scene-graph queries however long it searches. The snapshot is immutable: the
``with_*`` methods return the belief *after* an effect (the robot moved, an object was
picked), which is how the HTN planners project a plan forward without touching the graph.

Furniture heights (``cog:heightM``, for the reach check) and home places (``cog:homePlace``,
for putting things away) and the hand each held thing is in (``cog:heldIn``) come from the
scene graph; :class:`SupplementaryFacts` may add or override them. Without a height the reach
check passes with a note; without a home place ``put_away`` has nothing to do; without a
hand, any hand not known to hold something else may hold it.
"""

from __future__ import annotations

import logging
import re
from collections import deque
from collections.abc import Mapping
from dataclasses import dataclass, replace
from functools import cached_property
from types import MappingProxyType
from typing import Any, Literal, get_args

from pydantic import BaseModel, ConfigDict, Field
from typing_extensions import Self

from cogtree.knowledge.robot_skills import BUILT_IN_SKILLS, RobotSkill
from cogtree.knowledge.safety.thing_properties import Descriptions, safety_properties
from cogtree.knowledge.scene.scene_graph import SceneGraph
from cogtree.knowledge.scene.scene_index import Node as IndexedNode
from cogtree.knowledge.scene.scene_models import (
    ObjectInfo,
    Relation,
    RobotState,
    ThingKind,
)
from cogtree.knowledge.scene.taxonomy import household_taxonomy
from cogtree.skills.action_model.people import Person, person_of
from cogtree.skills.action_model.specs import HAND_NAMES, Hand

log = logging.getLogger(__name__)

ONTOLOGY_SKILLS: Mapping[str, RobotSkill] = MappingProxyType(
    {
        skill.title().replace("_", ""): skill
        for skill in get_args(RobotSkill)
        if skill not in BUILT_IN_SKILLS
    }
)
"""Skill individuals of the ontology and the skill each one grants: the ontology names a
skill's individual in CamelCase (``cog:SwitchOn`` grants ``SWITCH_ON``)."""

NodeKind = Literal["room", "surface", "container", "object", "person", "robot"]
"""What a node of the belief is."""

FURNITURE_KINDS: frozenset[ThingKind] = frozenset({"surface", "container"})

USUAL_FILL = 0.8
"""How full people fill what they serve or carry: short of the brim, so it does not spill."""


class BeliefError(ValueError):
    """The scene graph lacks the robot, or supplementary facts name unknown things."""


class SupplementaryFacts(BaseModel):
    """Facts skills need that the scene graph does not model yet (all optional).

    ``furniture_heights_m``: height of each surface or container above the floor, in metres.
    ``home_places``: where each object belongs (a surface or a container).
    ``hand_holding``: which hand holds each object the robot holds.
    """

    model_config = ConfigDict(extra="forbid", frozen=True)

    furniture_heights_m: dict[str, float] = Field(default_factory=dict)
    home_places: dict[str, str] = Field(default_factory=dict)
    hand_holding: dict[str, Hand] = Field(default_factory=dict)


HazardFlag = Literal[
    "sharp", "fragile", "electrical", "food", "drink", "chemical", "heat_source", "appliance",
    "bin", "cleaning_tool", "water_source", "medicine", "animal", "choking",
]  # fmt: skip
"""Properties of a thing that skills and hazard rules reason about (the ontology's flags)."""

FLAG_ATTRIBUTES: Mapping[str, HazardFlag] = MappingProxyType(
    {re.sub("_(.)", lambda m: m[1].upper(), f): f for f in get_args(HazardFlag) if f != "bin"}
)
"""The ontology's boolean attribute for each flag (``cog:heatSource`` → heat_source); the
``bin`` flag comes from ``cog:binKind`` instead."""


@dataclass(frozen=True)
class Thing:
    """An object or a piece of furniture, where it is believed to rest, and what it is like.

    ``material`` (metal, foil, glass, plastic, paper, cardboard, organic, ceramic, …) and
    ``flags`` (:data:`HazardFlag`) describe it; ``powered`` says whether an appliance, tap or
    light is switched on; ``liquid`` / ``liquid_ml`` / ``capacity_ml`` what it contains and
    holds; ``clean`` whether a surface is clean; ``beside`` the spatial relations it was
    placed in relative to landmarks, e.g. ``(("next_to", "apple"),)``. ``bin_kind`` is the
    waste a bin takes (recycling, compost, landfill); ``slots`` how many objects a surface or
    container takes at once (None: unlimited); ``type`` its ontology type (``Microwave``).
    """

    id: str
    kind: ThingKind
    room: str
    relation: Relation | None = None
    support: str | None = None
    graspable: bool | None = None
    hot: bool = False
    mass_kg: float | None = None
    is_open: bool | None = None
    material: str | None = None
    flags: frozenset[HazardFlag] = frozenset()
    powered: bool | None = None
    liquid: str | None = None
    liquid_ml: float = 0.0
    capacity_ml: float | None = None
    clean: bool | None = None
    beside: tuple[tuple[str, str], ...] = ()
    bin_kind: str | None = None
    slots: int | None = None
    type: str | None = None
    label: str | None = None
    """What people call it ("comic book"), for sentences; None: say its id."""
    owner: str | None = None
    """The person it belongs to (``cog:ownedBy``); None when nobody or unknown."""
    contents_seen: bool = False
    """Whether the robot knows what it holds (its liquid was seen, even none, or it is known to
    be empty); False: a vessel may hold anything."""

    @property
    def is_furniture(self) -> bool:
        """True for surfaces and containers."""
        return self.kind in FURNITURE_KINDS

    @property
    def is_empty(self) -> bool:
        """Whether it holds no liquid (what the disposal table asks)."""
        return self.liquid_ml <= 0

    @property
    def free_ml(self) -> float | None:
        """How much more liquid fits; None when the capacity is unknown."""
        return None if self.capacity_ml is None else max(self.capacity_ml - self.liquid_ml, 0.0)

    @property
    def room_ml(self) -> float | None:
        """What a fill of no stated amount adds: up to its :data:`USUAL_FILL` (None: unknown)."""
        if self.capacity_ml is None:
            return None
        return max(USUAL_FILL * self.capacity_ml - self.liquid_ml, 0.0)


@dataclass(frozen=True)
class RobotProfile:
    """What a robot is: hands, payload, reach, skills, mounted storage (fixed while planning)."""

    id: str
    hands: tuple[Hand, ...]
    payload_kg: float | None
    min_reach_m: float | None
    max_reach_m: float | None
    skills: frozenset[RobotSkill]
    storage: frozenset[str] = frozenset()
    """The containers mounted on it (a delivery base's locker): they go where it goes."""

    @classmethod
    def from_state(cls, state: RobotState) -> RobotProfile:
        """The profile of a robot as the scene graph describes it."""
        if state.hands > len(HAND_NAMES):
            log.warning(
                "%s has %d hands; skills use only %s",
                state.id,
                state.hands,
                " and ".join(HAND_NAMES),
            )
        granted = {ONTOLOGY_SKILLS[s] for s in state.skills if s in ONTOLOGY_SKILLS}
        return cls(
            id=state.id,
            hands=HAND_NAMES[: state.hands],
            payload_kg=state.payload_kg,
            min_reach_m=state.min_reach_m,
            max_reach_m=state.max_reach_m,
            skills=frozenset(granted) | BUILT_IN_SKILLS,
            storage=frozenset(state.storage),
        )


@dataclass(frozen=True)
class Belief:
    """What one robot believes, frozen: the basis of preconditions and HTN planning.

    ``held`` maps each object the robot holds to its hand (None when the belief does not
    say). ``rooms`` maps each room to the rooms it opens onto. Use :meth:`from_scene`.
    """

    robot: RobotProfile
    robot_room: str | None
    held: Mapping[str, Hand | None]
    things: Mapping[str, Thing]
    people: Mapping[str, Person]
    rooms: Mapping[str, tuple[str, ...]]
    heights: Mapping[str, float]
    homes: Mapping[str, str]

    def __deepcopy__(self, memo: dict[int, Any]) -> Self:
        """A belief is immutable, so a deep copy (a planner copying its state) is itself."""
        return self

    # -- construction --------------------------------------------------------------------------

    @classmethod
    def from_scene(
        cls, scene: SceneGraph, robot: str, facts: SupplementaryFacts | None = None
    ) -> Belief:
        """The belief of ``robot`` read from ``scene``, plus optional supplementary facts.

        Raises :class:`BeliefError` for a robot the scene does not know (listing the known
        robots) or supplementary facts that name unknown or unsuitable things. Read once per
        version of the scene (``scene.derived``): a turn's nodes share it until a change.
        """
        key = ("belief", robot, facts.model_dump_json() if facts is not None else None)
        return scene.derived.get(key, lambda: cls._read(scene, robot, facts))

    @classmethod
    def _read(cls, scene: SceneGraph, robot: str, facts: SupplementaryFacts | None) -> Belief:
        states = scene.robot_state(robot)
        if not states:
            known = ", ".join(state.id for state in scene.robot_state()) or "none"
            raise BeliefError(f"no robot {robot!r} in the scene graph; robots: {known}")
        state = states[0]
        rooms = {room.id: tuple(room.connected_to) for room in scene.rooms()}
        infos = [info for room in rooms for info in scene.objects_in_room(room)]
        things = {info.id: _thing(info, scene.index.node(info.id)) for info in infos}
        heights = {info.id: info.height_m for info in infos if info.height_m is not None}
        homes = {info.id: info.home for info in infos if info.home is not None}
        people = {
            human.id: person_of(human, scene.index.node(human.id)) for human in scene.humans()
        }
        extra = facts or SupplementaryFacts()
        _check_facts(extra, state, things)
        return cls(
            robot=RobotProfile.from_state(state),
            robot_room=state.room,
            held={
                thing: extra.hand_holding.get(thing) or _hand_in(state, thing)
                for thing in state.holding
            },
            things=things,
            people=people,
            rooms=rooms,
            heights={**heights, **extra.furniture_heights_m},
            homes={**homes, **extra.home_places},
        )

    # -- lookups -------------------------------------------------------------------------------

    def kind_of(self, node: str) -> NodeKind | None:
        """What ``node`` is in this belief; None when it is unknown."""
        if node in self.rooms:
            return "room"
        if node in self.people:
            return "person"
        if node == self.robot.id:
            return "robot"
        thing = self.things.get(node)
        return thing.kind if thing is not None and thing.kind != "room" else None

    @cached_property
    def resting_on(self) -> Mapping[str, tuple[str, ...]]:
        """Each support -> the things resting on or in it (read once per belief, not per ask)."""
        found: dict[str, list[str]] = {}
        for thing in self.things.values():
            if thing.support is not None:
                found.setdefault(thing.support, []).append(thing.id)
        return {support: tuple(ids) for support, ids in found.items()}

    @cached_property
    def standing_beside(self) -> Mapping[str, tuple[str, ...]]:
        """Each landmark -> the things placed beside it (next to, left of...)."""
        found: dict[str, list[str]] = {}
        for thing in self.things.values():
            for _, landmark in thing.beside:
                found.setdefault(landmark, []).append(thing.id)
        return {landmark: tuple(ids) for landmark, ids in found.items()}

    def room_of(self, node: str) -> str | None:
        """The room ``node`` is in (a room is in itself); None when unknown."""
        if node in self.rooms:
            return node
        if node == self.robot.id:
            return self.robot_room
        if node in self.people:
            return self.people[node].room
        thing = self.things.get(node)
        return thing.room if thing is not None else None

    def route(self, start: str, goal: str) -> list[str] | None:
        """The rooms from ``start`` to ``goal`` through connected rooms; None if there is none."""
        previous: dict[str, str | None] = {start: None}
        frontier = deque([start])
        while frontier:
            room = frontier.popleft()
            if room == goal:
                path = [room]
                while (step := previous[path[-1]]) is not None:
                    path.append(step)
                return path[::-1]
            for neighbour in self.rooms.get(room, ()):
                if neighbour not in previous:
                    previous[neighbour] = room
                    frontier.append(neighbour)
        return None

    def place_height(self, thing: str) -> float | None:
        """How high ``thing`` (furniture) or the place an object rests on is; None if unknown.

        An object on the floor (placed ``inRoom``) is at 0 m.
        """
        found = self.things.get(thing)
        if found is None or found.is_furniture:
            return self.heights.get(thing)
        if found.relation == "inRoom":
            return 0.0
        if found.relation in ("on", "in") and found.support is not None:
            return self.heights.get(found.support)
        return None

    def objects_in(self, hand: Hand) -> list[str]:
        """The objects the belief puts in ``hand``."""
        return [thing for thing, held_in in self.held.items() if held_in == hand]

    def hand_is_free(self, hand: Hand) -> bool:
        """Whether ``hand`` can take an object.

        It must exist, nothing may be known to be in it, and the robot must hold fewer
        objects than it has hands.
        """
        return (
            hand in self.robot.hands
            and not self.objects_in(hand)
            and len(self.held) < len(self.robot.hands)
        )

    def may_hold_in(self, thing: str, hand: Hand) -> bool:
        """Whether ``thing`` may be in ``hand``.

        True when the belief puts it there, or holds it in an unnamed hand while nothing
        else is known to be in ``hand``.
        """
        if thing not in self.held or hand not in self.robot.hands:
            return False
        held_in = self.held[thing]
        return held_in == hand or (held_in is None and not self.objects_in(hand))

    def contents_of(self, furniture: str) -> list[str]:
        """The objects believed on or in ``furniture``."""
        return sorted(
            t.id
            for t in self.things.values()
            if t.relation in ("on", "in") and t.support == furniture
        )

    def landmark_surface(self, landmark: str) -> str | None:
        """Where something set beside ``landmark`` goes; None when that is unknown.

        That is the furniture the landmark rests on, or the landmark itself for a surface.
        """
        found = self.things.get(landmark)
        if found is None:
            return None
        if found.kind == "surface":
            return landmark
        if found.kind == "object" and found.relation in ("on", "in"):
            return found.support
        return None

    def free_places(self, furniture: str) -> int | None:
        """How many more objects fit on or in ``furniture``; None when it has no limit."""
        found = self.things.get(furniture)
        if found is None or found.slots is None:
            return None
        return max(found.slots - len(self.contents_of(furniture)), 0)

    def load_kg(self) -> float:
        """The known mass of everything the robot holds (unknown masses count as 0)."""
        return sum(self.things[t].mass_kg or 0.0 for t in self.held if t in self.things)

    def is_at_home(self, thing: str) -> bool:
        """Whether ``thing`` rests on or in its home place (False without a home)."""
        home = self.homes.get(thing)
        found = self.things.get(thing)
        return home is not None and found is not None and found.support == home

    # -- effects (the belief after an action) --------------------------------------------------

    def with_robot_in(self, room: str) -> Belief:
        """The belief after the robot moved to ``room``.

        What it carries moves with it: the objects it holds, the storage mounted on it (a
        delivery base's locker) and what is in that storage.
        """
        storage = self.robot.storage
        stored = {t.id for t in self.things.values() if t.relation == "in" and t.support in storage}
        carried = (set(self.held) | storage | stored) & set(self.things)
        moved = {thing: replace(self.things[thing], room=room) for thing in carried}
        return replace(self, robot_room=room, things={**self.things, **moved})

    def with_picked(self, thing: str, hand: Hand) -> Belief:
        """The belief after the robot took ``thing`` into ``hand``."""
        picked = replace(
            self.things[thing],
            relation="heldBy",
            support=self.robot.id,
            room=self.robot_room or self.things[thing].room,
        )
        return replace(self, held={**self.held, thing: hand}, things={**self.things, thing: picked})

    def with_placed(self, thing: str, target: str, beside: tuple[str, str] | None = None) -> Belief:
        """The belief after the robot set ``thing`` down on or in ``target``.

        ``beside`` is the (relation, landmark) it was set in, e.g. ``("next_to", "apple")``.
        """
        support = self.things[target]
        relation: Relation = "in" if support.kind == "container" else "on"
        placed = replace(
            self.things[thing],
            relation=relation,
            support=target,
            room=support.room,
            beside=() if beside is None else (beside,),
        )
        held = {t: h for t, h in self.held.items() if t != thing}
        return replace(self, held=held, things={**self.things, thing: placed})

    def with_given(self, thing: str, person: str) -> Belief:
        """The belief after the robot handed ``thing`` to ``person``."""
        room = self.people[person].room or self.things[thing].room
        given = replace(self.things[thing], relation="heldBy", support=person, room=room)
        held = {t: h for t, h in self.held.items() if t != thing}
        return replace(self, held=held, things={**self.things, thing: given})

    def with_container(self, container: str, is_open: bool) -> Belief:
        """The belief after ``container`` was opened or closed."""
        return self._changed(container, is_open=is_open)

    def with_powered(self, appliance: str, powered: bool) -> Belief:
        """The belief after ``appliance`` was switched on or off."""
        return self._changed(appliance, powered=powered)

    def with_liquid(
        self, container: str, liquid: str | None, amount_ml: float, *, hot: bool = False
    ) -> Belief:
        """The belief after ``container`` got ``amount_ml`` of ``liquid`` (or lost it, < 0).

        Nothing is clamped: filling past the capacity shows as ``liquid_ml > capacity_ml``,
        which is how a projected plan makes an overfill visible. Emptied, it holds no liquid.
        A ``hot`` liquid makes the container hot (a cup of tea from the pot burns like the pot).
        """
        found = self.things[container]
        total = max(found.liquid_ml + amount_ml, 0.0)
        held, warmed = (liquid if total > 0 else None), found.hot or (hot and amount_ml > 0)
        return self._changed(
            container, liquid=held, liquid_ml=total, contents_seen=True, hot=warmed
        )

    def with_clean(self, surface: str) -> Belief:
        """The belief after ``surface`` was wiped clean."""
        return self._changed(surface, clean=True)

    def with_disposed(self, thing: str, bin_id: str) -> Belief:
        """The belief after the robot dropped ``thing`` into the waste bin ``bin_id``."""
        return self.with_placed(thing, bin_id)

    def _changed(self, thing: str, **fields: Any) -> Belief:
        changed = replace(self.things[thing], **fields)
        return replace(self, things={**self.things, thing: changed})


def typical_flags(info: ObjectInfo) -> frozenset[HazardFlag]:
    """The what-it-is flags (chemical, food, sharp...) of every type ``info``'s descriptions name.

    Its ontology type, its label and its id are all read, and the union is taken
    (:func:`~knowledge.safety.thing_properties.safety_properties`): a bottle typed ``Bottle``
    and labelled "drain cleaner" is a chemical. A thing whose *declared* type is an appliance
    (a ``Toaster``) is one: it can be switched (a label alone grants no skill).
    """
    material = info.attributes.get("material")
    described = Descriptions(
        id=info.id,
        type=info.type,
        label=info.label or None,
        material=material if isinstance(material, str) else None,
    )
    kinds = set(safety_properties(described).kinds)
    taxonomy = household_taxonomy()
    if info.type in taxonomy.types and "appliance" in taxonomy.properties(info.type).flags:
        kinds.add("appliance")
    return frozenset(flag for flag in get_args(HazardFlag) if flag in kinds)


def _thing(info: ObjectInfo, indexed: IndexedNode | None = None) -> Thing:
    """The Thing of ``info``: what the scene says, over what its type is typically like.

    A flag the scene sets (``cog:chemical true``) holds; one it denies (``cog:food false``)
    does not, whatever the type; otherwise the type's typical flags hold (:func:`typical_flags`).
    """
    attributes = info.attributes
    denied = {flag for name, flag in FLAG_ATTRIBUTES.items() if attributes.get(name) is False}
    flags = {flag for name, flag in FLAG_ATTRIBUTES.items() if attributes.get(name) is True}
    flags.update(typical_flags(info) - denied)
    bin_kind = attributes.get("binKind")
    if isinstance(bin_kind, str):
        flags.add("bin")
    return Thing(
        id=info.id,
        kind=info.kind,
        room=info.room,
        relation=info.relation,
        support=info.support,
        graspable=info.graspable,
        hot=attributes.get("hot") is True,
        mass_kg=info.mass_kg,
        is_open=info.is_open,
        material=_text(attributes.get("material")),
        flags=frozenset(flags),
        powered=_flag(attributes.get("powered")),
        liquid=_text(attributes.get("liquid")),
        liquid_ml=_number(attributes.get("liquidMl")) or 0.0,
        capacity_ml=_number(attributes.get("capacityMl")),
        clean=_flag(attributes.get("clean")),
        beside=tuple(info.beside),
        bin_kind=bin_kind if isinstance(bin_kind, str) else None,
        slots=_whole(attributes.get("slots")),
        type=info.type,
        label=info.label or None,
        owner=indexed.owners[0] if indexed is not None and indexed.owners else None,
        contents_seen="liquidMl" in attributes or attributes.get("empty") is True,
    )


def _text(value: object) -> str | None:
    return value if isinstance(value, str) and value else None


def _flag(value: object) -> bool | None:
    return value if isinstance(value, bool) else None


def _number(value: object) -> float | None:
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) else None


def _whole(value: object) -> int | None:
    number = _number(value)
    return None if number is None else int(number)


def _check_facts(facts: SupplementaryFacts, robot: RobotState, things: Mapping[str, Thing]) -> None:
    """Raise :class:`BeliefError` for supplementary facts about unknown or unsuitable things."""
    furniture = sorted(t.id for t in things.values() if t.is_furniture)
    for name, height in facts.furniture_heights_m.items():
        if name not in furniture:
            raise BeliefError(
                f"furniture_heights_m names {name!r}, which is not furniture of the belief; "
                f"furniture: {', '.join(furniture)}"
            )
        if height < 0:
            raise BeliefError(f"furniture_heights_m[{name!r}] is {height}: use metres >= 0")
    for thing, home in facts.home_places.items():
        if thing not in things or things[thing].is_furniture:
            raise BeliefError(f"home_places names {thing!r}, which is not an object of the belief")
        if home not in furniture:
            raise BeliefError(
                f"home_places[{thing!r}] is {home!r}: use a surface or container "
                f"({', '.join(furniture)})"
            )
    for thing, hand in facts.hand_holding.items():
        if thing not in robot.holding:
            held = ", ".join(robot.holding) or "nothing"
            raise BeliefError(
                f"hand_holding names {thing!r}, but {robot.id} holds {held} in the belief"
            )
        if hand not in HAND_NAMES[: robot.hands]:
            raise BeliefError(
                f"hand_holding[{thing!r}] is {hand!r}, but {robot.id} has "
                f"{robot.hands} hand(s): {', '.join(HAND_NAMES[: robot.hands]) or 'none'}"
            )


def _hand_in(state: RobotState, thing: str) -> Hand | None:
    """The hand the scene graph puts ``thing`` in, when that is one of the robot's hands."""
    return next((h for h in HAND_NAMES[: state.hands] if h == state.held_in.get(thing)), None)
