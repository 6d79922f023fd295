"""Move: drive to a room, a piece of furniture, an object's place or a person's room.

The skill ``GOTO(target)`` needs a located robot and a route to the target's room; it runs
``navigate`` (to the furniture an object rests on, else its room; to a person's room) and
leaves the robot in the target's room. The helper task ``go_to`` does nothing when the robot
is already in the target's room. ``approach`` (come within reach of something in the room) is
the command every skill that acts on a thing starts with.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from cogtree.knowledge.scene.scene_graph import SceneGraph
from cogtree.skills.action_model import checks
from cogtree.skills.action_model.belief import Belief
from cogtree.skills.action_model.specs import Args, CallSpec, NodeId
from cogtree.skills.capabilities import capability as cap


class GotoArgs(Args):
    """GOTO: drive to a room, a piece of furniture, an object's place or a person's room."""

    target: NodeId


def _checks(belief: Belief, args: GotoArgs) -> Iterator[checks.Check]:
    yield checks.has_skill(belief, "GOTO")
    yield checks.robot_located(belief)
    kind = belief.kind_of(args.target)
    if kind is None or kind == "robot":
        yield checks.failed(
            "target_known",
            "object_not_found",
            f"{args.target} is not a room, furniture, object or person of the belief",
        )
        return
    yield checks.passed("target_known", f"{args.target} is a {kind}")
    target_room = belief.room_of(args.target)
    if target_room is None:
        yield checks.failed(
            "target_located", "object_not_found", f"the room of {args.target} is unknown"
        )
        return
    yield checks.passed("target_located", f"{args.target} is in {target_room}")
    yield checks.route_to(belief, target_room, args.target)


def _effect(belief: Belief, args: GotoArgs) -> Belief:
    room = belief.room_of(args.target)
    return belief if room is None else belief.with_robot_in(room)


def _facts(args: GotoArgs, doer: str, rooms: Mapping[str, str | None]) -> list[cap.Fact]:
    room = rooms.get(args.target)
    return [cap.Fact("at", doer, room)] if room else []


def _reflect(args: Mapping[str, Any], agent: str, belief: SceneGraph) -> tuple[bool, str]:
    target = str(args["target"])
    room = cap.robot_room(agent, belief)
    if room is None:
        return False, f"the belief does not say where {agent} is"
    if room == target:
        return True, f"{agent} is in {room}"
    location = belief.locate_object(target)
    target_room = location.room if location is not None else None
    where = f"{target} is in {target_room}" if target_room else f"{target} has no known room"
    return room == target_room, f"{agent} is in {room}; {where}"


def _to_place(state: cap.SkillState, target: str) -> cap.Subtasks:
    if state.belief.kind_of(target) not in ("room", "surface", "container"):
        return False
    return [("navigate", target)]


def _to_object(state: cap.SkillState, target: str) -> cap.Subtasks:
    found = state.belief.things.get(target)
    if found is None or found.kind != "object":
        return False
    on_furniture = found.relation in ("on", "in") and found.support is not None
    return [("navigate", found.support if on_furniture else found.room)]


def _to_person(state: cap.SkillState, target: str) -> cap.Subtasks:
    person = state.belief.people.get(target)
    if person is None or person.room is None:
        return False
    return [("navigate", person.room)]


def _navigate(state: cap.SkillState, target: str) -> cap.SkillState | bool:
    room = state.belief.room_of(target)
    if room is None:
        return False
    state.belief = state.belief.with_robot_in(room)
    state.near = target if state.belief.kind_of(target) in ("surface", "container") else None
    return cap.done(state)


def _approach(state: cap.SkillState, target: str) -> cap.SkillState | bool:
    room = state.belief.room_of(target)
    if room is None or room != state.belief.robot_room:
        return False
    state.near = target
    return cap.done(state)


def _already_here(state: cap.TaskState, target: str) -> cap.Subtasks:
    room = state.belief.room_of(target)
    return [] if room is not None and room == state.belief.robot_room else False


def _travel(state: cap.TaskState, target: str) -> cap.Subtasks:
    found = state.belief.things.get(target)
    if found is not None and found.relation in ("on", "in") and found.support is not None:
        return [("GOTO", found.support)]
    return [("GOTO", target)]


CAPABILITY = cap.Capability(
    name="move",
    skills=(
        cap.SkillKind(
            CallSpec("GOTO", GotoArgs, "drive to a room, furniture, object or person"),
            _checks,
            _effect,
            (_to_place, _to_object, _to_person),
            _facts,
            _reflect,
            recovery="goes",
        ),
    ),
    commands=(
        cap.world_command("navigate", ("target",), _navigate),
        cap.world_command("approach", ("target",), _approach),
    ),
    helpers={"go_to": (_already_here, _travel)},
)
"""Driving about the home."""
