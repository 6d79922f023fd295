"""Fetch and bring: pick a thing up, and take it to a person or a place.

The skill ``PICK(object, hand)`` takes an object resting in the robot's room that is
graspable, not hot, in reach and within the payload (the robot approaches the object or the
furniture it rests on, opens the gripper, grasps, checks the grasp and lifts). The skill
``HANDOVER(object, person, hand)`` gives the held object to a person (going to their room
first; a sharp object is announced and turned handle first). The task ``fetch(object)`` has
the object in a hand (opening the closed container it is in, and closing it again when a hand
is free); ``bring(object, to)`` hands it to a person or puts it on or in a place (a closed
container that is the destination is opened after fetching or, when the fetch leaves no hand
free to open it, before).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

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
    passed,
    reachable,
    robot_located,
    route_to,
)
from cogtree.skills.action_model.people import AVAILABLE
from cogtree.skills.action_model.specs import Args, CallSpec, Hand, NodeId
from cogtree.skills.capabilities.capability import (
    Capability,
    CommandKind,
    SkillKind,
    SkillState,
    Step,
    Subtasks,
    TaskKind,
    TaskState,
    closed_place,
    done,
    per_hand,
)


class PickArgs(Args):
    """PICK: take ``object`` with ``hand`` from where it rests in the robot's room."""

    object: NodeId
    hand: Hand


class HandoverArgs(Args):
    """HANDOVER: give the held ``object`` to ``person`` (going to their room first)."""

    object: NodeId
    person: NodeId
    hand: Hand


class FetchArgs(Args):
    """fetch: have ``object`` in one of the robot's hands."""

    object: NodeId


class BringArgs(Args):
    """bring: take ``object`` to a person or onto a surface / into a container (``to``)."""

    object: NodeId
    to: NodeId


# -- PICK --------------------------------------------------------------------------------------


def _pick_checks(belief: Belief, args: PickArgs) -> Iterator[Check]:
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


def _picked(belief: Belief, args: PickArgs) -> Belief:
    return belief.with_picked(args.object, args.hand)


def _grasp_steps(approach: str, thing: str, hand: Hand) -> list[Step]:
    return [
        ("approach", approach),
        ("open_gripper", hand),
        ("grasp", thing, hand),
        ("verify_grasp", thing, hand),
        ("lift", thing, hand),
    ]


def _pick_from_furniture(state: SkillState, thing: str, hand: Hand) -> Subtasks:
    found = state.belief.things.get(thing)
    if found is None or found.relation not in ("on", "in") or found.support is None:
        return False
    return _grasp_steps(found.support, thing, hand)


def _pick_from_floor(state: SkillState, thing: str, hand: Hand) -> Subtasks:
    found = state.belief.things.get(thing)
    if found is None or found.relation != "inRoom":
        return False
    return _grasp_steps(thing, thing, hand)


def _open_gripper(state: SkillState, hand: Hand) -> SkillState | bool:
    if not state.belief.hand_is_free(hand):
        return False
    state.gripper_open = (*state.gripper_open, hand)
    return done(state)


def _grasp(state: SkillState, thing: str, hand: Hand) -> SkillState | bool:
    found = state.belief.things.get(thing)
    if found is None or state.near not in (found.support, thing):
        return False
    if hand not in state.gripper_open or not state.belief.hand_is_free(hand):
        return False
    state.belief = state.belief.with_picked(thing, hand)
    state.gripper_open = tuple(h for h in state.gripper_open if h != hand)
    return done(state)


def _check_hold(state: SkillState, thing: str, hand: Hand) -> SkillState | bool:
    return done(state) if state.belief.may_hold_in(thing, hand) else False


def _release(state: SkillState, hand: Hand) -> SkillState | bool:
    if hand not in state.belief.robot.hands or state.belief.objects_in(hand):
        return False
    state.gripper_open = (*state.gripper_open, hand)
    return done(state)


def _handover(state: SkillState, thing: str, person: str, hand: Hand) -> SkillState | bool:
    if state.near != person or not state.belief.may_hold_in(thing, hand):
        return False
    state.belief = state.belief.with_given(thing, person)
    return done(state)


def _present_handle(state: SkillState, thing: str, hand: Hand) -> SkillState | bool:
    return done(state) if state.belief.may_hold_in(thing, hand) else False


# -- HANDOVER ----------------------------------------------------------------------------------


def _handover_checks(belief: Belief, args: HandoverArgs) -> Iterator[Check]:
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


def _given(belief: Belief, args: HandoverArgs) -> Belief:
    room = belief.people[args.person].room
    moved = belief if room is None else belief.with_robot_in(room)
    return moved.with_given(args.object, args.person)


SHARP_WARNING = "Careful, {object} is sharp: I am handing it to you handle first."
"""What the robot says before handing over a sharp object."""


def _give_steps(belief: Belief, thing: str, person: str, hand: Hand) -> list[Step]:
    """Approach, hand over, let go; a sharp object is announced and turned handle first."""
    found = belief.things.get(thing)
    if found is None or "sharp" not in found.flags:
        return [("approach", person), ("handover", thing, person, hand), ("release", hand)]
    return [
        ("approach", person),
        ("speak", SHARP_WARNING.format(object=thing)),
        ("present_handle", thing, hand),
        ("handover", thing, person, hand),
        ("release", hand),
    ]


def _handover_here(state: SkillState, thing: str, person: str, hand: Hand) -> Subtasks:
    if state.belief.room_of(person) != state.belief.robot_room:
        return False
    return _give_steps(state.belief, thing, person, hand)


def _handover_elsewhere(state: SkillState, thing: str, person: str, hand: Hand) -> Subtasks:
    room = state.belief.room_of(person)
    if room is None or room == state.belief.robot_room:
        return False
    return [("navigate", room), *_give_steps(state.belief, thing, person, hand)]


# -- the fetch and bring tasks -----------------------------------------------------------------


def _closed_container(belief: Belief, thing: str) -> str | None:
    """The closed container ``thing`` is believed to be in, if any."""
    found = belief.things.get(thing)
    if found is None or found.relation != "in" or found.support is None:
        return None
    return found.support if closed_place(belief, found.support) else None


def _fetch_held(state: TaskState, thing: str) -> Subtasks:
    return [] if thing in state.belief.held else False


def _fetch(state: TaskState, hand: Hand, thing: str) -> Subtasks:
    if thing in state.belief.held:
        return False
    container = _closed_container(state.belief, thing)
    if container is None:
        return [("go_to", thing), ("PICK", thing, hand)]
    return [
        ("go_to", thing),
        ("OPEN", container),
        ("PICK", thing, hand),
        ("close_if_possible", container),
    ]


def _delivered(state: TaskState, thing: str, destination: str) -> Subtasks:
    found = state.belief.things.get(thing)
    return [] if found is not None and found.support == destination else False


def _bring_to_person(state: TaskState, thing: str, person: str) -> Subtasks:
    if state.belief.kind_of(person) != "person":
        return False
    return [("fetch", thing), ("give", thing, person)]


def _bring_to_place(state: TaskState, thing: str, place: str) -> Subtasks:
    if state.belief.kind_of(place) not in ("surface", "container"):
        return False
    return [("fetch", thing), ("deliver", thing, place)]


def _bring_opening_first(state: TaskState, thing: str, place: str) -> Subtasks:
    """For a closed container: open it before fetching, so a hand is free to open it."""
    if not closed_place(state.belief, place):
        return False
    return [
        ("go_to", place),
        ("OPEN", place),
        ("fetch", thing),
        ("deliver", thing, place),
        ("close_if_possible", place),
    ]


def _unknown_destination(state: TaskState, thing: str, destination: str) -> Subtasks:
    if state.belief.kind_of(destination) not in ("person", "surface", "container"):
        state.failures.add(
            f"bring({thing}, {destination}): {destination} is not a person, surface or "
            "container of the belief"
        )
    return False


def _give(state: TaskState, hand: Hand, thing: str, person: str) -> Subtasks:
    if not state.belief.may_hold_in(thing, hand):
        return False
    return [("HANDOVER", thing, person, hand)]


def _bring(
    belief: Belief, args: dict[str, str], said: Sequence[str]
) -> list[tuple[str, dict[str, str]]]:
    thing, to = args["object"], args["to"]
    if to in belief.people:
        return [("PICK", {"object": thing}), ("HANDOVER", {"object": thing, "person": to})]
    return [("PICK", {"object": thing}), ("PLACE", {"object": thing, "target": to})]


def _fetch_outline(
    belief: Belief, args: dict[str, str], said: Sequence[str]
) -> list[tuple[str, dict[str, str]]]:
    return [("PICK", {"object": args["object"]})]


CAPABILITY = Capability(
    name="fetch",
    skills=(
        SkillKind(
            CallSpec("PICK", PickArgs, "pick an object up with one hand"),
            _pick_checks,
            _picked,
            (_pick_from_furniture, _pick_from_floor),
        ),
        SkillKind(
            CallSpec("HANDOVER", HandoverArgs, "give a held object to a person"),
            _handover_checks,
            _given,
            (_handover_here, _handover_elsewhere),
        ),
    ),
    commands=(
        CommandKind("open_gripper", ("hand",), _open_gripper),
        CommandKind("grasp", ("object", "hand"), _grasp),
        CommandKind("verify_grasp", ("object", "hand"), _check_hold),
        CommandKind("lift", ("object", "hand"), _check_hold),
        CommandKind("release", ("hand",), _release),
        CommandKind("handover", ("object", "person", "hand"), _handover),
        CommandKind("present_handle", ("object", "hand"), _present_handle),
    ),
    tasks=(
        TaskKind(
            CallSpec("fetch", FetchArgs, "have an object in hand"),
            (_fetch_held, *per_hand("fetch", _fetch)),
            outline=_fetch_outline,
        ),
        TaskKind(
            CallSpec("bring", BringArgs, "take an object to a person or a place"),
            (
                _delivered,
                _bring_to_person,
                _bring_to_place,
                _bring_opening_first,
                _unknown_destination,
            ),
            outline=_bring,
        ),
    ),
    helpers={"give": per_hand("give", _give)},
)
"""Picking things up, handing them over, fetching and bringing them."""
