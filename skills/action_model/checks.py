"""Precondition checks: the typed result of one check, and the checks several skills share.

Each precondition is a named check with a typed result (:class:`Check`): whether it holds,
why, and, when it fails, the failure-experience code it maps to. A capability's preconditions
(:mod:`cogtree.skills.capabilities`) are a generator of checks built from these; they run in
order and stop at the first failure, since later ones rely on earlier ones (there is no reach
to check for an unknown object).

Unknown quantities (a furniture height, a mass, a payload, a capacity) do not fail a check: it
passes and says what it could not check, so the belief's gaps stay visible in the reasons.
"""

from __future__ import annotations

from collections.abc import Iterator

from pydantic import BaseModel, ConfigDict

from cogtree.knowledge.memory.experience import ErrorCode
from cogtree.knowledge.robot_skills import RobotSkill
from cogtree.skills.action_model.belief import Belief, HazardFlag
from cogtree.skills.action_model.specs import Hand


class Check(BaseModel):
    """The result of one precondition: its name, whether it holds, and why."""

    model_config = ConfigDict(frozen=True)

    name: str
    ok: bool
    reason: str
    code: ErrorCode | None = None
    about: str | None = None
    """The node the check is about, when it is about one (the thing out of reach)."""


def passed(name: str, reason: str) -> Check:
    """A check that holds."""
    return Check(name=name, ok=True, reason=reason)


def failed(name: str, code: ErrorCode, reason: str, about: str | None = None) -> Check:
    """A check that fails with ``code``; ``about``: the node it is about."""
    return Check(name=name, ok=False, reason=reason, code=code, about=about)


def has_skill(belief: Belief, skill: RobotSkill) -> Check:
    """The robot has ``skill``."""
    robot = belief.robot
    if skill in robot.skills:
        return passed("has_skill", f"{robot.id} has {skill}")
    return failed(
        "has_skill",
        "capability_missing",
        f"{robot.id} does not have {skill} (its skills: {', '.join(sorted(robot.skills))})",
    )


def has_hands(belief: Belief) -> Check:
    """The robot has at least one hand."""
    robot = belief.robot
    if robot.hands:
        return passed("has_hands", f"{robot.id} has {len(robot.hands)} hand(s)")
    return failed("has_hands", "capability_missing", f"{robot.id} has no arm or hand")


def hand_exists(belief: Belief, hand: Hand) -> Check:
    """The robot has the hand ``hand``."""
    hands = belief.robot.hands
    if hand in hands:
        return passed("hand_exists", f"{belief.robot.id} has a {hand} hand")
    return failed(
        "hand_exists",
        "capability_missing",
        f"{belief.robot.id} has no {hand} hand (hands: {', '.join(hands)}); use one of those",
    )


def robot_located(belief: Belief) -> Check:
    """The belief knows the robot's room."""
    if belief.robot_room is not None:
        return passed("robot_located", f"{belief.robot.id} is in {belief.robot_room}")
    return failed(
        "robot_located",
        "path_blocked",
        f"the belief has no room for {belief.robot.id}: localise it first",
    )


def in_robot_room(belief: Belief, thing: str) -> Check:
    """``thing`` is in the robot's room."""
    room, here = belief.room_of(thing), belief.robot_room
    if room is not None and room == here:
        return passed("in_robot_room", f"{thing} is in {room}, like {belief.robot.id}")
    return failed(
        "in_robot_room",
        "out_of_reach",
        f"{thing} is in {room or 'an unknown room'} and {belief.robot.id} is in "
        f"{here or 'an unknown room'}: GOTO {thing} first",
    )


def reachable(belief: Belief, thing: str) -> Check:
    """The place of ``thing`` is within the robot's reach (unknown height: not checked)."""
    robot = belief.robot
    height = belief.place_height(thing)
    place = where_is(belief, thing)
    if height is None:
        return passed("reachable", f"height of {place} unknown: reach not checked")
    low, high = robot.min_reach_m, robot.max_reach_m
    if high is not None and height > high:
        return failed(
            "reachable",
            "out_of_reach",
            f"{place} is at {height:g} m, above {robot.id}'s highest reach of {high:g} m",
            thing,
        )
    if low is not None and height < low:
        return failed(
            "reachable",
            "out_of_reach",
            f"{place} is at {height:g} m, below {robot.id}'s lowest reach of {low:g} m",
            thing,
        )
    return passed("reachable", f"{place} is at {height:g} m, within {robot.id}'s reach")


def where_is(belief: Belief, thing: str) -> str:
    """``vase on top_shelf``, ``ball on the floor``, or ``fridge`` for furniture."""
    found = belief.things[thing]
    if found.is_furniture:
        return thing
    if found.relation == "inRoom":
        return f"{thing} on the floor"
    return f"{thing} {found.relation} {found.support}"


def container_open(belief: Belief, container: str, purpose: str) -> Check:
    """``container`` is not believed closed; ``purpose`` says why it matters."""
    if belief.things[container].is_open is False:
        return failed(
            "container_open",
            "container_closed",
            f"{purpose} {container}, which is believed closed: OPEN {container} first",
        )
    return passed("container_open", f"{container} is not believed closed")


def holding(belief: Belief, thing: str, hand: Hand) -> Check:
    """The robot holds ``thing`` in ``hand``."""
    if thing not in belief.held:
        return failed("holding", "not_holding", f"{belief.robot.id} does not hold {thing}")
    if not belief.may_hold_in(thing, hand):
        where = belief.held[thing]
        in_hand = f"in the {where} hand" if where else "in another hand"
        return failed("holding", "not_holding", f"{thing} is {in_hand}, not the {hand} hand")
    return passed("holding", f"{belief.robot.id} holds {thing}")


def free_hand(belief: Belief, hand: Hand | None) -> Check:
    """``hand`` (None: any hand) is free."""
    hands = [hand] if hand is not None else list(belief.robot.hands)
    free = [h for h in hands if belief.hand_is_free(h)]
    if free:
        return passed("hand_free", f"the {free[0]} hand is free")
    held = ", ".join(belief.held) or "nothing"
    which = f"the {hand} hand is not" if hand is not None else "no hand is"
    return failed("hand_free", "hand_full", f"{which} free ({belief.robot.id} holds {held})")


def of_kind(belief: Belief, thing: str, kinds: tuple[str, ...], name: str) -> Check:
    """``thing`` is furniture of one of ``kinds``; the check is called ``name``."""
    found = belief.things.get(thing)
    if found is not None and found.kind in kinds:
        return passed(name, f"{thing} is a {found.kind}")
    kind = belief.kind_of(thing)
    what = f"a {kind}" if kind is not None else "not in the belief"
    return failed(name, "object_not_found", f"{thing} is {what}; expected a {' or '.join(kinds)}")


# -- one generator of checks per skill ---------------------------------------------------------


def route_to(belief: Belief, room: str, target: str) -> Check:
    """Connected rooms lead from the robot's room to ``room``, where ``target`` is."""
    start = belief.robot_room
    path = None if start is None else belief.route(start, room)
    if path is None:
        return failed(
            "route",
            "path_blocked",
            f"no connected rooms lead from {start} to {target} in {room}",
        )
    return passed("route", f"route {' -> '.join(path)}")


def flagged(belief: Belief, thing: str, flag: HazardFlag, code: ErrorCode, what: str) -> Check:
    """Whether ``thing`` is in the belief and has ``flag`` (a bin, an appliance, a tap, ...)."""
    name = f"is_{flag}"
    found = belief.things.get(thing)
    if found is None:
        return failed(name, "object_not_found", f"{thing} is not in the belief")
    if flag not in found.flags:
        return failed(name, code, f"{thing} is not {what}")
    return passed(name, f"{thing} is {what}")


def held_tool(belief: Belief, thing: str, hand: Hand, skill: RobotSkill) -> Iterator[Check]:
    """The checks every skill with a held object starts with."""
    yield has_skill(belief, skill)
    yield has_hands(belief)
    yield hand_exists(belief, hand)
    yield holding(belief, thing, hand)


def room_for_liquid(belief: Belief, container: str, *, usual: bool = False) -> Check:
    """``container`` has room for more liquid (unknown capacity: not checked).

    ``usual``: room up to its usual fill (:attr:`~skills.action_model.belief.Thing.room_ml`,
    for an amount left open), else up to the brim.
    """
    found = belief.things[container]
    free = found.room_ml if usual else found.free_ml
    if free is None:
        return passed("not_full", f"capacity of {container} unknown: not checked")
    if free <= 0:
        level = "at its usual fill" if usual and found.free_ml else "full"
        return failed("not_full", "container_full", f"{container} is already {level}")
    return passed("not_full", f"{container} takes {free:g} ml more")


def not_brimful(belief: Belief, thing: str) -> Check:
    """``thing`` is not filled to the brim (handed over, it would spill on the person).

    One known to be closed does not spill.
    """
    found = belief.things.get(thing)
    if found is None or found.free_ml is None or found.free_ml > 0 or found.liquid_ml <= 0:
        return passed("not_brimful", f"{thing} is not filled to the brim")
    if found.is_open is False:
        return passed("not_brimful", f"{thing} is full but closed")
    return failed(
        "not_brimful",
        "unsafe_object",
        f"{thing} is filled to the brim with {found.liquid}: it would spill on the person",
    )
