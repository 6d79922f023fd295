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

from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from cogtree.knowledge.scene.scene_graph import SceneGraph
from cogtree.skills.action_model import checks
from cogtree.skills.action_model.belief import Belief
from cogtree.skills.action_model.ground_truth import thing_arg
from cogtree.skills.action_model.people import AVAILABLE
from cogtree.skills.action_model.specs import Args, CallSpec, Hand, NodeId
from cogtree.skills.capabilities import capability as cap


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


def _pick_checks(belief: Belief, args: PickArgs) -> Iterator[checks.Check]:
    yield checks.has_skill(belief, "PICK")
    yield checks.has_hands(belief)
    yield checks.hand_exists(belief, args.hand)
    thing = belief.things.get(args.object)
    if thing is None or thing.kind != "object":
        what = "not in the belief" if thing is None else f"a {thing.kind}, not a portable object"
        yield checks.failed("object_known", "object_not_found", f"{args.object} is {what}")
        return
    yield checks.passed("object_known", f"{args.object} is an object in {thing.room}")
    if thing.graspable is False:
        yield checks.failed(
            "graspable", "capability_missing", f"{args.object} is not graspable", args.object
        )
        return
    yield checks.passed("graspable", f"{args.object} is not known to be ungraspable")
    if thing.hot:
        yield checks.failed(
            "not_hot", "unsafe_object", f"{args.object} is hot: grasping it is unsafe"
        )
        return
    yield checks.passed("not_hot", f"{args.object} is not known to be hot")
    if thing.relation not in ("on", "in", "inRoom"):
        yield checks.failed(
            "object_resting",
            "object_not_found",
            f"{args.object} is held by {thing.support}, not resting where it can be picked",
        )
        return
    yield checks.passed("object_resting", f"{args.object} is {thing.relation} {thing.support}")
    yield checks.in_robot_room(belief, args.object)
    if thing.relation == "in" and thing.support is not None:
        yield checks.container_open(belief, thing.support, f"{args.object} is in")
    yield checks.reachable(belief, args.object)
    yield _payload(belief, args.object)
    yield checks.free_hand(belief, args.hand)


def _payload(belief: Belief, thing: str) -> checks.Check:
    robot, mass = belief.robot, belief.things[thing].mass_kg
    if mass is None or robot.payload_kg is None:
        return checks.passed(
            "payload", f"mass of {thing} or payload of {robot.id} unknown: not checked"
        )
    load = belief.load_kg() + mass
    if load > robot.payload_kg:
        return checks.failed(
            "payload",
            "payload_exceeded",
            f"{thing} weighs {mass:g} kg; with what it holds {robot.id} would carry "
            f"{load:g} kg, over its payload of {robot.payload_kg:g} kg",
            thing,
        )
    return checks.passed("payload", f"{load:g} kg is within {robot.id}'s payload")


def _picked(belief: Belief, args: PickArgs) -> Belief:
    return belief.with_picked(args.object, args.hand)


def _pick_facts(args: PickArgs, doer: str, rooms: Mapping[str, str | None]) -> list[cap.Fact]:
    return [cap.Fact("where", args.object, f"heldBy:{doer}")]


def _holds(args: Mapping[str, Any], agent: str, belief: SceneGraph) -> tuple[bool, str]:
    thing = str(args["object"])
    states = belief.robot_state(agent)
    if not states:
        return False, f"the belief has no robot {agent}"
    holding = states[0].holding
    return thing in holding, f"{agent} holds {', '.join(holding) or 'nothing'}"


def _grasp_steps(approach: str, thing: str, hand: Hand) -> list[cap.Step]:
    return [
        ("approach", approach),
        ("open_gripper", hand),
        ("grasp", thing, hand),
        ("verify_grasp", thing, hand),
        ("lift", thing, hand),
    ]


def _pick_from_furniture(state: cap.SkillState, thing: str, hand: Hand) -> cap.Subtasks:
    found = state.belief.things.get(thing)
    if found is None or found.relation not in ("on", "in") or found.support is None:
        return False
    return _grasp_steps(found.support, thing, hand)


def _pick_from_floor(state: cap.SkillState, thing: str, hand: Hand) -> cap.Subtasks:
    found = state.belief.things.get(thing)
    if found is None or found.relation != "inRoom":
        return False
    return _grasp_steps(thing, thing, hand)


def _open_gripper(state: cap.SkillState, hand: Hand) -> cap.SkillState | bool:
    if not state.belief.hand_is_free(hand):
        return False
    state.gripper_open = (*state.gripper_open, hand)
    return cap.done(state)


def _grasp(state: cap.SkillState, thing: str, hand: Hand) -> cap.SkillState | bool:
    found = state.belief.things.get(thing)
    if found is None or state.near not in (found.support, thing):
        return False
    if hand not in state.gripper_open or not state.belief.hand_is_free(hand):
        return False
    state.belief = state.belief.with_picked(thing, hand)
    state.gripper_open = tuple(h for h in state.gripper_open if h != hand)
    return cap.done(state)


def _check_hold(state: cap.SkillState, thing: str, hand: Hand) -> cap.SkillState | bool:
    return cap.done(state) if state.belief.may_hold_in(thing, hand) else False


def _release(state: cap.SkillState, hand: Hand) -> cap.SkillState | bool:
    if hand not in state.belief.robot.hands or state.belief.objects_in(hand):
        return False
    state.gripper_open = (*state.gripper_open, hand)
    return cap.done(state)


def _handover(state: cap.SkillState, thing: str, person: str, hand: Hand) -> cap.SkillState | bool:
    if state.near != person or not state.belief.may_hold_in(thing, hand):
        return False
    state.belief = state.belief.with_given(thing, person)
    return cap.done(state)


def _present_handle(state: cap.SkillState, thing: str, hand: Hand) -> cap.SkillState | bool:
    return cap.done(state) if state.belief.may_hold_in(thing, hand) else False


# -- HANDOVER ----------------------------------------------------------------------------------


def _handover_checks(belief: Belief, args: HandoverArgs) -> Iterator[checks.Check]:
    yield checks.has_skill(belief, "HANDOVER")
    yield checks.has_hands(belief)
    yield checks.hand_exists(belief, args.hand)
    yield checks.holding(belief, args.object, args.hand)
    yield checks.not_brimful(belief, args.object)
    person = belief.people.get(args.person)
    if person is None:
        known = ", ".join(sorted(belief.people)) or "none"
        yield checks.failed(
            "person_known",
            "object_not_found",
            f"{args.person} is not a person of the belief (people: {known})",
        )
        return
    yield checks.passed("person_known", f"{args.person} is a person")
    if person.room is None:
        yield checks.failed(
            "person_located", "person_unavailable", f"where {args.person} is is unknown"
        )
        return
    yield checks.passed("person_located", f"{args.person} is in {person.room}")
    if person.availability not in (None, AVAILABLE):
        yield checks.failed(
            "person_available", "person_unavailable", f"{args.person} is {person.availability}"
        )
    yield checks.passed(
        "person_available", f"{args.person} is {person.availability or 'not known busy'}"
    )
    yield checks.robot_located(belief)
    yield checks.route_to(belief, person.room, args.person)


def _given(belief: Belief, args: HandoverArgs) -> Belief:
    room = belief.people[args.person].room
    moved = belief if room is None else belief.with_robot_in(room)
    return moved.with_given(args.object, args.person)


def _handover_facts(
    args: HandoverArgs, doer: str, rooms: Mapping[str, str | None]
) -> list[cap.Fact]:
    return [cap.Fact("where", args.object, f"heldBy:{args.person}")]


def _handed_over(args: Mapping[str, Any], agent: str, belief: SceneGraph) -> tuple[bool, str]:
    thing, person = str(args["object"]), str(args["person"])
    found = cap.placement(thing, belief)
    if found is None:
        return False, f"the belief does not say where {thing} is"
    relation, support = found
    return (relation, support) == ("heldBy", person), f"{thing} is {relation} {support}"


SHARP_WARNING = "Careful, {object} is sharp: I am handing it to you handle first."
"""What the robot says before handing over a sharp object."""


def _give_steps(belief: Belief, thing: str, person: str, hand: Hand) -> list[cap.Step]:
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


def _handover_here(state: cap.SkillState, thing: str, person: str, hand: Hand) -> cap.Subtasks:
    if state.belief.room_of(person) != state.belief.robot_room:
        return False
    return _give_steps(state.belief, thing, person, hand)


def _handover_elsewhere(state: cap.SkillState, thing: str, person: str, hand: Hand) -> cap.Subtasks:
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
    return found.support if cap.closed_place(belief, found.support) else None


def _fetch_held(state: cap.TaskState, thing: str) -> cap.Subtasks:
    return [] if thing in state.belief.held else False


def _fetch(state: cap.TaskState, hand: Hand, thing: str) -> cap.Subtasks:
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


def _delivered(state: cap.TaskState, thing: str, destination: str) -> cap.Subtasks:
    found = state.belief.things.get(thing)
    return [] if found is not None and found.support == destination else False


def _bring_to_person(state: cap.TaskState, thing: str, person: str) -> cap.Subtasks:
    if state.belief.kind_of(person) != "person":
        return False
    return [("fetch", thing), ("give", thing, person)]


def _bring_to_place(state: cap.TaskState, thing: str, place: str) -> cap.Subtasks:
    if state.belief.kind_of(place) not in ("surface", "container"):
        return False
    return [("fetch", thing), ("deliver", thing, place)]


def _bring_opening_first(state: cap.TaskState, thing: str, place: str) -> cap.Subtasks:
    """For a closed container: open it before fetching, so a hand is free to open it."""
    if not cap.closed_place(state.belief, place):
        return False
    return [
        ("go_to", place),
        ("OPEN", place),
        ("fetch", thing),
        ("deliver", thing, place),
        ("close_if_possible", place),
    ]


def _unknown_destination(state: cap.TaskState, thing: str, destination: str) -> cap.Subtasks:
    if state.belief.kind_of(destination) not in ("person", "surface", "container"):
        state.failures.add(
            f"bring({thing}, {destination}): {destination} is not a person, surface or "
            "container of the belief"
        )
    return False


def _give(state: cap.TaskState, hand: Hand, thing: str, person: str) -> cap.Subtasks:
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


CAPABILITY = cap.Capability(
    name="fetch",
    skills=(
        cap.SkillKind(
            CallSpec("PICK", PickArgs, "pick an object up with one hand"),
            _pick_checks,
            _picked,
            (_pick_from_furniture, _pick_from_floor),
            _pick_facts,
            _holds,
        ),
        cap.SkillKind(
            CallSpec("HANDOVER", HandoverArgs, "give a held object to a person"),
            _handover_checks,
            _given,
            (_handover_here, _handover_elsewhere),
            _handover_facts,
            _handed_over,
        ),
    ),
    commands=(
        cap.world_command("open_gripper", ("hand",), _open_gripper),
        cap.world_command("grasp", ("object", "hand"), _grasp),
        cap.world_command("verify_grasp", ("object", "hand"), _check_hold),
        cap.world_command("lift", ("object", "hand"), _check_hold),
        cap.world_command("release", ("hand",), _release),
        cap.CommandKind(
            "handover",
            ("object", "person", "hand"),
            _handover,
            lambda world, robot, args: world.handover(
                robot,
                thing_arg(args, "object"),
                thing_arg(args, "person"),
                thing_arg(args, "hand") if "hand" in args else None,
            ),
            ticks=2,
        ),
        cap.world_command("present_handle", ("object", "hand"), _present_handle),
    ),
    tasks=(
        cap.TaskKind(
            CallSpec("fetch", FetchArgs, "have an object in hand"),
            (_fetch_held, *cap.per_hand("fetch", _fetch)),
            outline=_fetch_outline,
        ),
        cap.TaskKind(
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
    helpers={"give": cap.per_hand("give", _give)},
)
"""Picking things up, handing them over, fetching and bringing them."""
