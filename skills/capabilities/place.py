"""Place: put a held thing on or in a piece of furniture, or beside a landmark.

The skill ``PLACE(object, target, hand, relation?)`` puts the held object on a surface or in a
container (the target's kind decides when no relation is given: the robot approaches it, runs
``put`` and releases), or ``relation`` a landmark (next to, left of, ...: on the surface the
landmark rests on, with ``put_beside``), where there is a free place. The task
``place_relative(object, relation, landmark)`` fetches the object and sets it beside the
landmark (on or in: it brings the object there); the helper ``deliver`` puts a held thing
on or in a place, opening a closed container first.

Free space is modelled simply: a surface or container may say how many objects it takes at
once (``cog:slots``); it is full when the belief puts that many on or in it.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from types import MappingProxyType
from typing import Annotated, Any

from pydantic import BeforeValidator

from cogtree.knowledge.scene.scene_graph import SceneGraph
from cogtree.skills.action_model import checks
from cogtree.skills.action_model.belief import Belief
from cogtree.skills.action_model.specs import (
    SIDE_RELATIONS,
    Args,
    CallSpec,
    Hand,
    NodeId,
    SpatialRelation,
)
from cogtree.skills.capabilities import capability as cap


class PlaceArgs(Args):
    """PLACE: put the held ``object`` on/in ``target``, or ``relation`` to it (next_to, …).

    Without ``relation`` the target's kind decides: in a container, on a surface.
    """

    object: NodeId
    target: NodeId
    hand: Hand
    relation: SpatialRelation | None = None


RELATION_WORDS: Mapping[str, SpatialRelation] = MappingProxyType(
    {
        "beside": "next_to",
        "by": "next_to",
        "alongside": "next_to",
        "next": "next_to",
        "close to": "near",
        "nearby": "near",
        "left": "left_of",
        "right": "right_of",
        "in front": "in_front_of",
        "at the back of": "behind",
        "onto": "on",
        "on top of": "on",
        "into": "in",
        "inside": "in",
    }
)
"""Words for a spatial relation besides its own name with spaces (``next to``, ``left of``)."""


def _relation(value: object) -> object:
    """``"to the left of"`` → ``left_of``; other values are left for validation to judge."""
    if not isinstance(value, str):
        return value
    words = re.sub(r"^(?:to|on) the ", "", " ".join(value.lower().replace("-", " ").split()))
    return RELATION_WORDS.get(words, words.replace(" ", "_"))


class PlaceRelativeArgs(Args):
    """place_relative: put ``object`` ``relation`` ``landmark`` (next_to the plate, in the bowl)."""

    object: NodeId
    relation: Annotated[SpatialRelation, BeforeValidator(_relation)]
    landmark: NodeId


def _checks(belief: Belief, args: PlaceArgs) -> Iterator[checks.Check]:
    yield checks.has_skill(belief, "PLACE")
    yield checks.has_hands(belief)
    yield checks.hand_exists(belief, args.hand)
    yield checks.holding(belief, args.object, args.hand)
    if args.relation in SIDE_RELATIONS:
        yield from _place_beside(belief, args)
        return
    yield (
        target := checks.of_kind(belief, args.target, ("surface", "container"), "target_is_place")
    )
    if not target.ok:
        return
    if args.relation is not None:
        yield (fits := _relation_fits(belief, args.target, args.relation))
        if not fits.ok:
            return
    yield from _put_down_on(belief, args.object, args.target)


def _relation_fits(belief: Belief, target: str, relation: SpatialRelation) -> checks.Check:
    kind = belief.things[target].kind
    wanted = "container" if relation == "in" else "surface"
    if kind == wanted:
        return checks.passed("relation_fits", f"things go {relation} a {kind} like {target}")
    return checks.failed(
        "relation_fits",
        "object_not_found",
        f"{target} is a {kind}: things go {'in' if kind == 'container' else 'on'} it, "
        f"not {relation} it",
    )


def _put_down_on(
    belief: Belief, thing: str, furniture: str, landmark: str | None = None
) -> Iterator[checks.Check]:
    """Checks for setting ``thing`` down on or in ``furniture`` (beside ``landmark``).

    It must be here, open, in reach, with a free place when the furniture has a limit.
    """
    yield checks.in_robot_room(belief, furniture)
    if belief.things[furniture].kind == "container":
        yield checks.container_open(belief, furniture, f"{thing} must go into")
    yield checks.reachable(belief, furniture)
    if belief.things[furniture].slots is not None:
        yield _free_place(belief, furniture, landmark or furniture)


def _place_beside(belief: Belief, args: PlaceArgs) -> Iterator[checks.Check]:
    landmark = belief.things.get(args.target)
    relation = (args.relation or "next_to").replace("_", " ")
    if landmark is None or landmark.kind not in ("object", "surface"):
        what = "not found in the belief" if landmark is None else f"a {landmark.kind}"
        yield checks.failed(
            "landmark_known",
            "object_not_found",
            f"{args.target} is {what}: cannot put {args.object} {relation} it (look for "
            f"{args.target} first, or name an object or a surface)",
        )
        return
    yield checks.passed("landmark_known", f"{args.target} is a {landmark.kind}")
    surface = belief.landmark_surface(args.target)
    if surface is None:
        where = f"held by {landmark.support}" if landmark.relation == "heldBy" else "not placed"
        yield checks.failed(
            "landmark_placed",
            "object_not_found",
            f"{args.target} is {where}: there is no surface to put {args.object} {relation} it",
        )
        return
    yield checks.passed("landmark_placed", f"{args.target} rests on {surface}")
    yield from _put_down_on(belief, args.object, surface, args.target)


def _free_place(belief: Belief, furniture: str, landmark: str) -> checks.Check:
    free = belief.free_places(furniture) or 0
    if free > 0:
        return checks.passed("free_space", f"{furniture} has {free} free place(s)")
    beside = f"next to {landmark} on {furniture}" if landmark != furniture else f"on {furniture}"
    held = ", ".join(belief.contents_of(furniture))
    return checks.failed(
        "free_space",
        "no_free_space",
        f"no free space {beside}: it takes {belief.things[furniture].slots} objects and holds "
        f"{held}; clear a place or choose another spot",
    )


def _effect(belief: Belief, args: PlaceArgs) -> Belief:
    if args.relation not in SIDE_RELATIONS:
        return belief.with_placed(args.object, args.target)
    surface = belief.landmark_surface(args.target)
    if surface is None:
        return belief
    return belief.with_placed(args.object, surface, (args.relation or "next_to", args.target))


def _facts(args: PlaceArgs, doer: str, rooms: Mapping[str, str | None]) -> list[cap.Fact]:
    if args.relation in SIDE_RELATIONS:
        return [cap.Fact("beside", args.object, f"{args.relation}:{args.target}")]
    return [cap.Fact("where", args.object, f"{args.relation or 'onto'}:{args.target}")]


def _reflect(args: Mapping[str, Any], agent: str, belief: SceneGraph) -> tuple[bool, str]:
    thing, target = str(args["object"]), str(args["target"])
    side = str(args.get("relation") or "")
    if side in SIDE_RELATIONS:
        return _set_beside_in(thing, side, target, belief)
    found = cap.placement(thing, belief)
    if found is None:
        return False, f"the belief does not say where {thing} is"
    relation, support = found
    return relation in ("on", "in") and support == target, f"{thing} is {relation} {support}"


def _set_beside_in(
    thing: str, relation: str, landmark: str, belief: SceneGraph
) -> tuple[bool, str]:
    """Whether the belief has ``thing`` set ``relation`` the ``landmark`` (a side placement)."""
    location = belief.locate_object(thing)
    if location is None or location.room is None:
        return False, f"the belief does not say where {thing} is"
    found = [info for info in belief.objects_in_room(location.room) if info.id == thing]
    pairs = [tuple(pair) for info in found for pair in info.beside]
    return (relation, landmark) in pairs, f"{thing} beside {sorted(pairs) or 'nothing'}"


def _commands(
    state: cap.SkillState, thing: str, target: str, hand: Hand, relation: str | None = None
) -> cap.Subtasks:
    if relation not in SIDE_RELATIONS:
        return [("approach", target), ("put", thing, target, hand), ("release", hand)]
    surface = state.belief.landmark_surface(target)
    if surface is None:
        return False
    return [
        ("approach", surface),
        ("put_beside", thing, target, relation, hand),
        ("release", hand),
    ]


def _put(state: cap.SkillState, thing: str, target: str, hand: Hand) -> cap.SkillState | bool:
    if not state.belief.may_hold_in(thing, hand) or state.near != target:
        return False
    state.belief = state.belief.with_placed(thing, target)
    return cap.done(state)


def _put_beside(
    state: cap.SkillState, thing: str, landmark: str, relation: str, hand: Hand
) -> cap.SkillState | bool:
    surface = state.belief.landmark_surface(landmark)
    if surface is None or state.near != surface or not state.belief.may_hold_in(thing, hand):
        return False
    state.belief = state.belief.with_placed(thing, surface, (relation, landmark))
    return cap.done(state)


def _into_bin(state: cap.TaskState, thing: str, place: str) -> cap.Subtasks:
    """Throw ``thing`` into ``place`` when it is a waste bin ("pop it in the recycling").

    DISPOSE (the dispose capability's ``drop_into``) checks it is the bin the disposal table
    chooses; in one it would not choose, the next method, :func:`_deliver`, sets it down there
    as the user said.
    """
    found = state.belief.things.get(place)
    return [("drop_into", thing, place)] if found is not None and "bin" in found.flags else False


def _deliver(state: cap.TaskState, hand: Hand, thing: str, place: str) -> cap.Subtasks:
    if not state.belief.may_hold_in(thing, hand):
        return False
    return cap.into_place(state.belief, place, ("PLACE", thing, place, hand))


def _place_relative(state: cap.TaskState, thing: str, relation: str, landmark: str) -> cap.Subtasks:
    if relation in ("on", "in"):
        return [("bring", thing, landmark)]
    if state.belief.landmark_surface(landmark) is None:
        found = state.belief.things.get(landmark)
        why = "not in the belief" if found is None else "not resting on a surface"
        state.failures.add(
            f"place_relative({thing}, {relation}, {landmark}): {landmark} is {why}: "
            f"look for {landmark} first"
        )
        return False
    return [("fetch", thing), ("set_beside", thing, relation, landmark)]


def _set_beside(
    state: cap.TaskState, hand: Hand, thing: str, relation: str, landmark: str
) -> cap.Subtasks:
    surface = state.belief.landmark_surface(landmark)
    if surface is None or not state.belief.may_hold_in(thing, hand):
        return False
    return [("go_to", surface), ("PLACE", thing, landmark, hand, relation)]


def _outline(
    belief: Belief, args: dict[str, str], said: Sequence[str]
) -> list[tuple[str, dict[str, str]]]:
    thing, relation = args["object"], args["relation"]
    place = {"object": thing, "target": args["landmark"], "relation": relation}
    return [("PICK", {"object": thing}), ("PLACE", place)]


CAPABILITY = cap.Capability(
    name="place",
    skills=(
        cap.SkillKind(
            CallSpec("PLACE", PlaceArgs, "put a held object on a surface or in a container"),
            _checks,
            _effect,
            (_commands,),
            _facts,
            _reflect,
        ),
    ),
    commands=(
        cap.world_command("put", ("object", "target", "hand"), _put),
        cap.world_command("put_beside", ("object", "landmark", "relation", "hand"), _put_beside),
    ),
    tasks=(
        cap.TaskKind(
            CallSpec(
                "place_relative", PlaceRelativeArgs, "put an object next to, left of, ... another"
            ),
            (_place_relative,),
            outline=_outline,
        ),
    ),
    helpers={
        "deliver": (_into_bin, *cap.per_hand("deliver", _deliver)),
        "set_beside": cap.per_hand("set_beside", _set_beside),
    },
)
"""Putting things down."""
