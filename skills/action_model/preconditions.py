"""The preconditions of the robot skills no capability module holds yet.

Each skill's preconditions are a generator of checks (:mod:`cogtree.skills.action_model.checks`)
run on a belief before anything moves, in order, up to the first that fails.

Free space is modelled simply: a surface or container may say how many objects it takes at
once (``cog:slots``); it is full when the belief puts that many on or in it. PLACE beside a
landmark needs a free place on the surface the landmark rests on.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from typing import Any

from cogtree.knowledge.robot_skills import RobotSkill
from cogtree.skills.action_model.belief import Belief
from cogtree.skills.action_model.checks import (
    Check,
    container_open,
    failed,
    free_hand,
    hand_exists,
    has_hands,
    has_skill,
    holding,
    in_robot_room,
    of_kind,
    passed,
    reachable,
    robot_located,
    route_to,
)
from cogtree.skills.action_model.people import AVAILABLE
from cogtree.skills.action_model.specs import (
    GotoArgs,
    HandoverArgs,
    PickArgs,
    PlaceArgs,
    SpatialRelation,
)

SIDE_RELATIONS: frozenset[SpatialRelation] = frozenset(
    {"next_to", "near", "left_of", "right_of", "behind", "in_front_of"}
)
"""PLACE relations that put an object beside a landmark, on the surface the landmark rests on."""


def _goto(belief: Belief, args: GotoArgs) -> Iterator[Check]:
    yield has_skill(belief, "GOTO")
    yield robot_located(belief)
    kind = belief.kind_of(args.target)
    if kind is None or kind == "robot":
        yield failed(
            "target_known",
            "object_not_found",
            f"{args.target} is not a room, furniture, object or person of the belief",
        )
        return
    yield passed("target_known", f"{args.target} is a {kind}")
    target_room = belief.room_of(args.target)
    if target_room is None:
        yield failed("target_located", "object_not_found", f"the room of {args.target} is unknown")
        return
    yield passed("target_located", f"{args.target} is in {target_room}")
    yield route_to(belief, target_room, args.target)


def _pick(belief: Belief, args: PickArgs) -> Iterator[Check]:
    yield has_skill(belief, "PICK")
    yield has_hands(belief)
    yield hand_exists(belief, args.hand)
    thing = belief.things.get(args.object)
    if thing is None or thing.kind != "object":
        what = "not in the belief" if thing is None else f"a {thing.kind}, not a portable object"
        yield failed("object_known", "object_not_found", f"{args.object} is {what}")
        return
    yield passed("object_known", f"{args.object} is an object in {thing.room}")
    if thing.graspable is False:
        yield failed(
            "graspable", "capability_missing", f"{args.object} is not graspable", args.object
        )
        return
    yield passed("graspable", f"{args.object} is not known to be ungraspable")
    if thing.hot:
        yield failed("not_hot", "unsafe_object", f"{args.object} is hot: grasping it is unsafe")
        return
    yield passed("not_hot", f"{args.object} is not known to be hot")
    if thing.relation not in ("on", "in", "inRoom"):
        yield failed(
            "object_resting",
            "object_not_found",
            f"{args.object} is held by {thing.support}, not resting where it can be picked",
        )
        return
    yield passed("object_resting", f"{args.object} is {thing.relation} {thing.support}")
    yield in_robot_room(belief, args.object)
    if thing.relation == "in" and thing.support is not None:
        yield container_open(belief, thing.support, f"{args.object} is in")
    yield reachable(belief, args.object)
    yield _payload(belief, args.object)
    yield free_hand(belief, args.hand)


def _payload(belief: Belief, thing: str) -> Check:
    robot, mass = belief.robot, belief.things[thing].mass_kg
    if mass is None or robot.payload_kg is None:
        return passed("payload", f"mass of {thing} or payload of {robot.id} unknown: not checked")
    load = belief.load_kg() + mass
    if load > robot.payload_kg:
        return failed(
            "payload",
            "payload_exceeded",
            f"{thing} weighs {mass:g} kg; with what it holds {robot.id} would carry "
            f"{load:g} kg, over its payload of {robot.payload_kg:g} kg",
            thing,
        )
    return passed("payload", f"{load:g} kg is within {robot.id}'s payload")


def _place(belief: Belief, args: PlaceArgs) -> Iterator[Check]:
    yield has_skill(belief, "PLACE")
    yield has_hands(belief)
    yield hand_exists(belief, args.hand)
    yield holding(belief, args.object, args.hand)
    if args.relation in SIDE_RELATIONS:
        yield from _place_beside(belief, args)
        return
    yield (target := of_kind(belief, args.target, ("surface", "container"), "target_is_place"))
    if not target.ok:
        return
    if args.relation is not None:
        yield (fits := _relation_fits(belief, args.target, args.relation))
        if not fits.ok:
            return
    yield from _put_down_on(belief, args.object, args.target)


def _relation_fits(belief: Belief, target: str, relation: SpatialRelation) -> Check:
    kind = belief.things[target].kind
    wanted = "container" if relation == "in" else "surface"
    if kind == wanted:
        return passed("relation_fits", f"things go {relation} a {kind} like {target}")
    return failed(
        "relation_fits",
        "object_not_found",
        f"{target} is a {kind}: things go {'in' if kind == 'container' else 'on'} it, "
        f"not {relation} it",
    )


def _put_down_on(
    belief: Belief, thing: str, furniture: str, landmark: str | None = None
) -> Iterator[Check]:
    """Checks for setting ``thing`` down on or in ``furniture`` (beside ``landmark``).

    It must be here, open, in reach, with a free place when the furniture has a limit.
    """
    yield in_robot_room(belief, furniture)
    if belief.things[furniture].kind == "container":
        yield container_open(belief, furniture, f"{thing} must go into")
    yield reachable(belief, furniture)
    if belief.things[furniture].slots is not None:
        yield _free_place(belief, furniture, landmark or furniture)


def _place_beside(belief: Belief, args: PlaceArgs) -> Iterator[Check]:
    landmark = belief.things.get(args.target)
    relation = (args.relation or "next_to").replace("_", " ")
    if landmark is None or landmark.kind not in ("object", "surface"):
        what = "not found in the belief" if landmark is None else f"a {landmark.kind}"
        yield failed(
            "landmark_known",
            "object_not_found",
            f"{args.target} is {what}: cannot put {args.object} {relation} it (look for "
            f"{args.target} first, or name an object or a surface)",
        )
        return
    yield passed("landmark_known", f"{args.target} is a {landmark.kind}")
    surface = belief.landmark_surface(args.target)
    if surface is None:
        where = f"held by {landmark.support}" if landmark.relation == "heldBy" else "not placed"
        yield failed(
            "landmark_placed",
            "object_not_found",
            f"{args.target} is {where}: there is no surface to put {args.object} {relation} it",
        )
        return
    yield passed("landmark_placed", f"{args.target} rests on {surface}")
    yield from _put_down_on(belief, args.object, surface, args.target)


def _free_place(belief: Belief, furniture: str, landmark: str) -> Check:
    free = belief.free_places(furniture) or 0
    if free > 0:
        return passed("free_space", f"{furniture} has {free} free place(s)")
    beside = f"next to {landmark} on {furniture}" if landmark != furniture else f"on {furniture}"
    held = ", ".join(belief.contents_of(furniture))
    return failed(
        "free_space",
        "no_free_space",
        f"no free space {beside}: it takes {belief.things[furniture].slots} objects and holds "
        f"{held}; clear a place or choose another spot",
    )


def _handover(belief: Belief, args: HandoverArgs) -> Iterator[Check]:
    yield has_skill(belief, "HANDOVER")
    yield has_hands(belief)
    yield hand_exists(belief, args.hand)
    yield holding(belief, args.object, args.hand)
    person = belief.people.get(args.person)
    if person is None:
        known = ", ".join(sorted(belief.people)) or "none"
        yield failed(
            "person_known",
            "object_not_found",
            f"{args.person} is not a person of the belief (people: {known})",
        )
        return
    yield passed("person_known", f"{args.person} is a person")
    if person.room is None:
        yield failed("person_located", "person_unavailable", f"where {args.person} is is unknown")
        return
    yield passed("person_located", f"{args.person} is in {person.room}")
    if person.availability not in (None, AVAILABLE):
        yield failed(
            "person_available", "person_unavailable", f"{args.person} is {person.availability}"
        )
    yield passed("person_available", f"{args.person} is {person.availability or 'not known busy'}")
    yield robot_located(belief)
    yield route_to(belief, person.room, args.person)


def _skill_only(skill: RobotSkill) -> Callable[[Belief, Any], Iterator[Check]]:
    def checks(belief: Belief, args: Any) -> Iterator[Check]:
        yield has_skill(belief, skill)

    return checks


UNMOVED_CHECKS: Mapping[RobotSkill, Callable[[Belief, Any], Iterator[Check]]] = {
    "GOTO": _goto,
    "PICK": _pick,
    "PLACE": _place,
    "HANDOVER": _handover,
    "SAY": _skill_only("SAY"),
    "WAIT": _skill_only("WAIT"),
}
"""The preconditions of the robot skills no capability module holds yet, by skill."""
