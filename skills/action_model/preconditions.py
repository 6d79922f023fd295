"""Skill preconditions, evaluated on a belief before anything moves.

The belief is a :class:`~skills.action_model.belief.Belief`.

Each precondition is a named check with a typed result (:class:`Check`): whether it holds,
why, and, when it fails, the failure-experience code it maps to. Checks run in order and stop
at the first failure, since later ones rely on earlier ones (there is no reach to check for an
unknown object). A failed report's :attr:`PreconditionReport.message` is the skill's FAILURE
reason; no command is sent for it.

Unknown quantities (a furniture height, a mass, a payload, a capacity) do not fail a check: it
passes and says what it could not check, so the belief's gaps stay visible in the reasons.

Free space is modelled simply: a surface or container may say how many objects it takes at
once (``cog:slots``); it is full when the belief puts that many on or in it. PLACE beside a
landmark needs a free place on the surface the landmark rests on.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from typing import Any

from pydantic import BaseModel, ConfigDict

from cogtree.knowledge.memory.experience import ErrorCode
from cogtree.knowledge.robot_skills import RobotSkill
from cogtree.knowledge.scene.disposal import disposal_table
from cogtree.skills.action_model.belief import Belief, HazardFlag
from cogtree.skills.action_model.people import AVAILABLE
from cogtree.skills.action_model.specs import (
    CloseArgs,
    DisposeArgs,
    FillArgs,
    GotoArgs,
    Hand,
    HandoverArgs,
    OpenArgs,
    PickArgs,
    PlaceArgs,
    PourArgs,
    SkillCall,
    SpatialRelation,
    SwitchArgs,
    WipeArgs,
)

SIDE_RELATIONS: frozenset[SpatialRelation] = frozenset(
    {"next_to", "near", "left_of", "right_of", "behind", "in_front_of"}
)
"""PLACE relations that put an object beside a landmark, on the surface the landmark rests on."""


class Check(BaseModel):
    """The result of one precondition: its name, whether it holds, and why."""

    model_config = ConfigDict(frozen=True)

    name: str
    ok: bool
    reason: str
    code: ErrorCode | None = None
    about: str | None = None
    """The node the check is about, when it is about one (the thing out of reach)."""


class PreconditionReport(BaseModel):
    """The checks a skill call went through, up to and including the first that failed."""

    model_config = ConfigDict(frozen=True)

    call: SkillCall
    checks: tuple[Check, ...]

    @property
    def ok(self) -> bool:
        """True when every precondition holds."""
        return all(check.ok for check in self.checks)

    @property
    def failure(self) -> Check | None:
        """The precondition that failed, if any."""
        return next((check for check in self.checks if not check.ok), None)

    @property
    def message(self) -> str:
        """Why the skill cannot start, or a summary when every precondition holds.

        ``PICK(bottle_blue, right) failed precondition container_open: container_closed —
        bottle_blue is in fridge, which is believed closed: OPEN fridge first``.
        """
        failed = self.failure
        if failed is None:
            return f"{self.call} preconditions hold ({len(self.checks)} checks)"
        return (
            f"{self.call} failed precondition {failed.name}: {failed.code or 'error'} "
            f"— {failed.reason}"
        )


def check_preconditions(call: SkillCall, belief: Belief) -> PreconditionReport:
    """Evaluate ``call``'s preconditions on ``belief``, stopping at the first that fails."""
    checks: list[Check] = []
    for check in _CHECKS[call.skill](belief, call.args):
        checks.append(check)
        if not check.ok:
            break
    return PreconditionReport(call=call, checks=tuple(checks))


def _pass(name: str, reason: str) -> Check:
    return Check(name=name, ok=True, reason=reason)


def _fail(name: str, code: ErrorCode, reason: str, about: str | None = None) -> Check:
    return Check(name=name, ok=False, reason=reason, code=code, about=about)


# -- checks shared by several skills -----------------------------------------------------------


def _has_skill(belief: Belief, skill: RobotSkill) -> Check:
    robot = belief.robot
    if skill in robot.skills:
        return _pass("has_skill", f"{robot.id} has {skill}")
    return _fail(
        "has_skill",
        "capability_missing",
        f"{robot.id} does not have {skill} (its skills: {', '.join(sorted(robot.skills))})",
    )


def _has_hands(belief: Belief) -> Check:
    robot = belief.robot
    if robot.hands:
        return _pass("has_hands", f"{robot.id} has {len(robot.hands)} hand(s)")
    return _fail("has_hands", "capability_missing", f"{robot.id} has no arm or hand")


def _hand_exists(belief: Belief, hand: Hand) -> Check:
    hands = belief.robot.hands
    if hand in hands:
        return _pass("hand_exists", f"{belief.robot.id} has a {hand} hand")
    return _fail(
        "hand_exists",
        "capability_missing",
        f"{belief.robot.id} has no {hand} hand (hands: {', '.join(hands)}); use one of those",
    )


def _robot_located(belief: Belief) -> Check:
    if belief.robot_room is not None:
        return _pass("robot_located", f"{belief.robot.id} is in {belief.robot_room}")
    return _fail(
        "robot_located",
        "path_blocked",
        f"the belief has no room for {belief.robot.id}: localise it first",
    )


def _in_robot_room(belief: Belief, thing: str) -> Check:
    room, here = belief.room_of(thing), belief.robot_room
    if room is not None and room == here:
        return _pass("in_robot_room", f"{thing} is in {room}, like {belief.robot.id}")
    return _fail(
        "in_robot_room",
        "out_of_reach",
        f"{thing} is in {room or 'an unknown room'} and {belief.robot.id} is in "
        f"{here or 'an unknown room'}: GOTO {thing} first",
    )


def _reachable(belief: Belief, thing: str) -> Check:
    robot = belief.robot
    height = belief.place_height(thing)
    place = _where(belief, thing)
    if height is None:
        return _pass("reachable", f"height of {place} unknown: reach not checked")
    low, high = robot.min_reach_m, robot.max_reach_m
    if high is not None and height > high:
        return _fail(
            "reachable",
            "out_of_reach",
            f"{place} is at {height:g} m, above {robot.id}'s highest reach of {high:g} m",
            thing,
        )
    if low is not None and height < low:
        return _fail(
            "reachable",
            "out_of_reach",
            f"{place} is at {height:g} m, below {robot.id}'s lowest reach of {low:g} m",
            thing,
        )
    return _pass("reachable", f"{place} is at {height:g} m, within {robot.id}'s reach")


def _where(belief: Belief, thing: str) -> str:
    """``vase on top_shelf``, ``ball on the floor``, or ``fridge`` for furniture."""
    found = belief.things[thing]
    if found.is_furniture:
        return thing
    if found.relation == "inRoom":
        return f"{thing} on the floor"
    return f"{thing} {found.relation} {found.support}"


def _container_open(belief: Belief, container: str, purpose: str) -> Check:
    if belief.things[container].is_open is False:
        return _fail(
            "container_open",
            "container_closed",
            f"{purpose} {container}, which is believed closed: OPEN {container} first",
        )
    return _pass("container_open", f"{container} is not believed closed")


def _holding(belief: Belief, thing: str, hand: Hand) -> Check:
    if thing not in belief.held:
        return _fail("holding", "not_holding", f"{belief.robot.id} does not hold {thing}")
    if not belief.may_hold_in(thing, hand):
        where = belief.held[thing]
        in_hand = f"in the {where} hand" if where else "in another hand"
        return _fail("holding", "not_holding", f"{thing} is {in_hand}, not the {hand} hand")
    return _pass("holding", f"{belief.robot.id} holds {thing}")


def _free_hand(belief: Belief, hand: Hand | None) -> Check:
    hands = [hand] if hand is not None else list(belief.robot.hands)
    free = [h for h in hands if belief.hand_is_free(h)]
    if free:
        return _pass("hand_free", f"the {free[0]} hand is free")
    held = ", ".join(belief.held) or "nothing"
    which = f"the {hand} hand is not" if hand is not None else "no hand is"
    return _fail("hand_free", "hand_full", f"{which} free ({belief.robot.id} holds {held})")


def _furniture(belief: Belief, thing: str, kinds: tuple[str, ...], name: str) -> Check:
    found = belief.things.get(thing)
    if found is not None and found.kind in kinds:
        return _pass(name, f"{thing} is a {found.kind}")
    kind = belief.kind_of(thing)
    what = f"a {kind}" if kind is not None else "not in the belief"
    return _fail(name, "object_not_found", f"{thing} is {what}; expected a {' or '.join(kinds)}")


# -- one generator of checks per skill ---------------------------------------------------------


def _goto(belief: Belief, args: GotoArgs) -> Iterator[Check]:
    yield _has_skill(belief, "GOTO")
    yield _robot_located(belief)
    kind = belief.kind_of(args.target)
    if kind is None or kind == "robot":
        yield _fail(
            "target_known",
            "object_not_found",
            f"{args.target} is not a room, furniture, object or person of the belief",
        )
        return
    yield _pass("target_known", f"{args.target} is a {kind}")
    target_room = belief.room_of(args.target)
    if target_room is None:
        yield _fail("target_located", "object_not_found", f"the room of {args.target} is unknown")
        return
    yield _pass("target_located", f"{args.target} is in {target_room}")
    yield _route(belief, target_room, args.target)


def _route(belief: Belief, room: str, target: str) -> Check:
    start = belief.robot_room
    path = None if start is None else belief.route(start, room)
    if path is None:
        return _fail(
            "route",
            "path_blocked",
            f"no connected rooms lead from {start} to {target} in {room}",
        )
    return _pass("route", f"route {' -> '.join(path)}")


def _pick(belief: Belief, args: PickArgs) -> Iterator[Check]:
    yield _has_skill(belief, "PICK")
    yield _has_hands(belief)
    yield _hand_exists(belief, args.hand)
    thing = belief.things.get(args.object)
    if thing is None or thing.kind != "object":
        what = "not in the belief" if thing is None else f"a {thing.kind}, not a portable object"
        yield _fail("object_known", "object_not_found", f"{args.object} is {what}")
        return
    yield _pass("object_known", f"{args.object} is an object in {thing.room}")
    if thing.graspable is False:
        yield _fail(
            "graspable", "capability_missing", f"{args.object} is not graspable", args.object
        )
        return
    yield _pass("graspable", f"{args.object} is not known to be ungraspable")
    if thing.hot:
        yield _fail("not_hot", "unsafe_object", f"{args.object} is hot: grasping it is unsafe")
        return
    yield _pass("not_hot", f"{args.object} is not known to be hot")
    if thing.relation not in ("on", "in", "inRoom"):
        yield _fail(
            "object_resting",
            "object_not_found",
            f"{args.object} is held by {thing.support}, not resting where it can be picked",
        )
        return
    yield _pass("object_resting", f"{args.object} is {thing.relation} {thing.support}")
    yield _in_robot_room(belief, args.object)
    if thing.relation == "in" and thing.support is not None:
        yield _container_open(belief, thing.support, f"{args.object} is in")
    yield _reachable(belief, args.object)
    yield _payload(belief, args.object)
    yield _free_hand(belief, args.hand)


def _payload(belief: Belief, thing: str) -> Check:
    robot, mass = belief.robot, belief.things[thing].mass_kg
    if mass is None or robot.payload_kg is None:
        return _pass("payload", f"mass of {thing} or payload of {robot.id} unknown: not checked")
    load = belief.load_kg() + mass
    if load > robot.payload_kg:
        return _fail(
            "payload",
            "payload_exceeded",
            f"{thing} weighs {mass:g} kg; with what it holds {robot.id} would carry "
            f"{load:g} kg, over its payload of {robot.payload_kg:g} kg",
            thing,
        )
    return _pass("payload", f"{load:g} kg is within {robot.id}'s payload")


def _place(belief: Belief, args: PlaceArgs) -> Iterator[Check]:
    yield _has_skill(belief, "PLACE")
    yield _has_hands(belief)
    yield _hand_exists(belief, args.hand)
    yield _holding(belief, args.object, args.hand)
    if args.relation in SIDE_RELATIONS:
        yield from _place_beside(belief, args)
        return
    yield (target := _furniture(belief, args.target, ("surface", "container"), "target_is_place"))
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
        return _pass("relation_fits", f"things go {relation} a {kind} like {target}")
    return _fail(
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
    yield _in_robot_room(belief, furniture)
    if belief.things[furniture].kind == "container":
        yield _container_open(belief, furniture, f"{thing} must go into")
    yield _reachable(belief, furniture)
    if belief.things[furniture].slots is not None:
        yield _free_place(belief, furniture, landmark or furniture)


def _place_beside(belief: Belief, args: PlaceArgs) -> Iterator[Check]:
    landmark = belief.things.get(args.target)
    relation = (args.relation or "next_to").replace("_", " ")
    if landmark is None or landmark.kind not in ("object", "surface"):
        what = "not found in the belief" if landmark is None else f"a {landmark.kind}"
        yield _fail(
            "landmark_known",
            "object_not_found",
            f"{args.target} is {what}: cannot put {args.object} {relation} it (look for "
            f"{args.target} first, or name an object or a surface)",
        )
        return
    yield _pass("landmark_known", f"{args.target} is a {landmark.kind}")
    surface = belief.landmark_surface(args.target)
    if surface is None:
        where = f"held by {landmark.support}" if landmark.relation == "heldBy" else "not placed"
        yield _fail(
            "landmark_placed",
            "object_not_found",
            f"{args.target} is {where}: there is no surface to put {args.object} {relation} it",
        )
        return
    yield _pass("landmark_placed", f"{args.target} rests on {surface}")
    yield from _put_down_on(belief, args.object, surface, args.target)


def _free_place(belief: Belief, furniture: str, landmark: str) -> Check:
    free = belief.free_places(furniture) or 0
    if free > 0:
        return _pass("free_space", f"{furniture} has {free} free place(s)")
    beside = f"next to {landmark} on {furniture}" if landmark != furniture else f"on {furniture}"
    held = ", ".join(belief.contents_of(furniture))
    return _fail(
        "free_space",
        "no_free_space",
        f"no free space {beside}: it takes {belief.things[furniture].slots} objects and holds "
        f"{held}; clear a place or choose another spot",
    )


def _flagged(belief: Belief, thing: str, flag: HazardFlag, code: ErrorCode, what: str) -> Check:
    """Whether ``thing`` is in the belief and has ``flag`` (a bin, an appliance, a tap, ...)."""
    name = f"is_{flag}"
    found = belief.things.get(thing)
    if found is None:
        return _fail(name, "object_not_found", f"{thing} is not in the belief")
    if flag not in found.flags:
        return _fail(name, code, f"{thing} is not {what}")
    return _pass(name, f"{thing} is {what}")


def _held_tool(belief: Belief, thing: str, hand: Hand, skill: RobotSkill) -> Iterator[Check]:
    """The checks every skill with a held object starts with."""
    yield _has_skill(belief, skill)
    yield _has_hands(belief)
    yield _hand_exists(belief, hand)
    yield _holding(belief, thing, hand)


def _dispose(belief: Belief, args: DisposeArgs) -> Iterator[Check]:
    yield from _held_tool(belief, args.object, args.hand, "DISPOSE")
    yield (is_bin := _flagged(belief, args.bin, "bin", "object_not_found", "a waste bin"))
    if not is_bin.ok:
        return
    yield _in_robot_room(belief, args.bin)
    if belief.things[args.bin].kind == "container":
        yield _container_open(belief, args.bin, f"{args.object} must go into")
    yield _reachable(belief, args.bin)
    yield _right_bin(belief, args.object, args.bin)


def _right_bin(belief: Belief, thing: str, bin_id: str) -> Check:
    found, bin_kind = belief.things[thing], belief.things[bin_id].bin_kind
    decision = disposal_table().decide(thing, found.material, found.is_empty)
    if decision.bin == bin_kind:
        return _pass("right_bin", decision.reason)
    return _fail(
        "right_bin",
        "wrong_bin",
        f"{bin_id} is a {bin_kind} bin, but {decision.reason}: use a {decision.bin} bin",
    )


def _switch(skill: RobotSkill) -> Callable[[Belief, SwitchArgs], Iterator[Check]]:
    def checks(belief: Belief, args: SwitchArgs) -> Iterator[Check]:
        yield _has_skill(belief, skill)
        yield _has_hands(belief)
        yield (
            appliance := _flagged(
                belief,
                args.appliance,
                "appliance",
                "not_an_appliance",
                "an appliance, a tap or a light that switches on and off",
            )
        )
        if not appliance.ok:
            return
        yield _in_robot_room(belief, args.appliance)
        yield _reachable(belief, args.appliance)
        yield _free_hand(belief, None)

    return checks


def _fill(belief: Belief, args: FillArgs) -> Iterator[Check]:
    yield from _held_tool(belief, args.container, args.hand, "FILL")
    yield (tap := _flagged(belief, args.source, "water_source", "wrong_tool", "a tap"))
    if not tap.ok:
        return
    yield _in_robot_room(belief, args.source)
    yield _reachable(belief, args.source)
    yield _room_for_liquid(belief, args.container)


def _room_for_liquid(belief: Belief, container: str) -> Check:
    free = belief.things[container].free_ml
    if free is None:
        return _pass("not_full", f"capacity of {container} unknown: not checked")
    if free <= 0:
        return _fail("not_full", "container_full", f"{container} is already full")
    return _pass("not_full", f"{container} takes {free:g} ml more")


def _pour(belief: Belief, args: PourArgs) -> Iterator[Check]:
    yield from _held_tool(belief, args.source, args.hand, "POUR")
    source = belief.things[args.source]
    if source.liquid_ml <= 0:
        yield _fail("has_liquid", "container_empty", f"{args.source} holds no liquid to pour")
        return
    yield _pass("has_liquid", f"{args.source} holds {source.liquid_ml:g} ml of {source.liquid}")
    target = belief.things.get(args.target)
    if target is None or target.kind not in ("object", "container") or args.target in belief.held:
        what = "not in the belief" if target is None else "not something to pour into here"
        yield _fail("target_known", "object_not_found", f"{args.target} is {what}")
        return
    yield _pass("target_known", f"{args.target} is a {target.kind}")
    yield _in_robot_room(belief, args.target)
    if target.kind == "container":
        yield _container_open(belief, args.target, "the liquid must go into")
    elif target.relation == "in" and target.support is not None:
        yield _container_open(belief, target.support, f"{args.target} is in")
    yield _reachable(belief, args.target)
    yield _room_for_liquid(belief, args.target)


def _wipe(belief: Belief, args: WipeArgs) -> Iterator[Check]:
    yield from _held_tool(belief, args.tool, args.hand, "WIPE")
    yield _flagged(belief, args.tool, "cleaning_tool", "wrong_tool", "a cloth or a sponge")
    yield (surface := _furniture(belief, args.surface, ("surface",), "is_surface"))
    if not surface.ok:
        return
    yield _in_robot_room(belief, args.surface)
    yield _reachable(belief, args.surface)


def _open_or_close(skill: RobotSkill) -> Callable[[Belief, OpenArgs | CloseArgs], Iterator[Check]]:
    def checks(belief: Belief, args: OpenArgs | CloseArgs) -> Iterator[Check]:
        yield _has_skill(belief, skill)
        yield _has_hands(belief)
        yield (container := _furniture(belief, args.container, ("container",), "is_container"))
        if not container.ok:
            return
        yield _in_robot_room(belief, args.container)
        yield _reachable(belief, args.container)
        yield _free_hand(belief, None)

    return checks


def _handover(belief: Belief, args: HandoverArgs) -> Iterator[Check]:
    yield _has_skill(belief, "HANDOVER")
    yield _has_hands(belief)
    yield _hand_exists(belief, args.hand)
    yield _holding(belief, args.object, args.hand)
    person = belief.people.get(args.person)
    if person is None:
        known = ", ".join(sorted(belief.people)) or "none"
        yield _fail(
            "person_known",
            "object_not_found",
            f"{args.person} is not a person of the belief (people: {known})",
        )
        return
    yield _pass("person_known", f"{args.person} is a person")
    if person.room is None:
        yield _fail("person_located", "person_unavailable", f"where {args.person} is is unknown")
        return
    yield _pass("person_located", f"{args.person} is in {person.room}")
    if person.availability not in (None, AVAILABLE):
        yield _fail(
            "person_available", "person_unavailable", f"{args.person} is {person.availability}"
        )
    yield _pass("person_available", f"{args.person} is {person.availability or 'not known busy'}")
    yield _robot_located(belief)
    yield _route(belief, person.room, args.person)


def _skill_only(skill: RobotSkill) -> Callable[[Belief, Any], Iterator[Check]]:
    def checks(belief: Belief, args: Any) -> Iterator[Check]:
        yield _has_skill(belief, skill)

    return checks


_CHECKS: Mapping[RobotSkill, Callable[[Belief, Any], Iterator[Check]]] = {
    "GOTO": _goto,
    "PICK": _pick,
    "PLACE": _place,
    "OPEN": _open_or_close("OPEN"),
    "CLOSE": _open_or_close("CLOSE"),
    "HANDOVER": _handover,
    "DISPOSE": _dispose,
    "SWITCH_ON": _switch("SWITCH_ON"),
    "SWITCH_OFF": _switch("SWITCH_OFF"),
    "FILL": _fill,
    "POUR": _pour,
    "WIPE": _wipe,
    "SAY": _skill_only("SAY"),
    "WAIT": _skill_only("WAIT"),
}
