"""What a skill is expected to change: the belief after a successful skill call.

The task planner projects a plan forward with these effects (after PICK the object is in
the hand, after GOTO the robot is in the target's room), so each later skill's
preconditions are checked against the world as the plan will have left it. The hazard rules
read the same projection, so the effects keep every property they look at up to date: PLACE
beside a landmark puts the object on the landmark's surface and records the relation;
SWITCH_ON/OFF set ``powered``; FILL and POUR move liquid without clamping (an overfill shows
as ``liquid_ml > capacity_ml``: the amount that would spill); DISPOSE puts the object in the bin.
"""

from __future__ import annotations

from pydantic import BaseModel

from cogtree.skills.action_model.belief import Belief
from cogtree.skills.action_model.preconditions import SIDE_RELATIONS
from cogtree.skills.action_model.specs import (
    CloseArgs,
    DisposeArgs,
    FillArgs,
    GotoArgs,
    HandoverArgs,
    OpenArgs,
    PickArgs,
    PlaceArgs,
    PourArgs,
    SwitchArgs,
)

DEFAULT_FILL_ML = 250.0
"""How much FILL runs into a container whose capacity the belief does not know (a glassful)."""

USUAL_FILL = 0.8
"""How full a FILL with no amount leaves a container whose capacity the belief knows: as
people fill a glass or a jug, short of the brim, so it can be carried and handed over without
spilling (a brimful container is never handed to a person)."""

FILLED_LIQUID = "water"
"""What FILL takes from a tap."""


def unmoved_effect(skill: str, args: BaseModel, belief: Belief) -> Belief:
    """The belief after ``skill`` with ``args`` succeeds, for a skill no capability holds yet.

    Its preconditions must hold in ``belief``; see
    :func:`cogtree.skills.capabilities.calls.project` for every skill.
    """
    if isinstance(args, GotoArgs):
        room = belief.room_of(args.target)
        return belief if room is None else belief.with_robot_in(room)
    if isinstance(args, PickArgs):
        return belief.with_picked(args.object, args.hand)
    if isinstance(args, PlaceArgs):
        return _placed(belief, args)
    if isinstance(args, OpenArgs | CloseArgs):
        return belief.with_container(args.container, isinstance(args, OpenArgs))
    if isinstance(args, HandoverArgs):
        room = belief.people[args.person].room
        moved = belief if room is None else belief.with_robot_in(room)
        return moved.with_given(args.object, args.person)
    if isinstance(args, DisposeArgs):
        return belief.with_disposed(args.object, args.bin)
    if isinstance(args, SwitchArgs):
        return belief.with_powered(args.appliance, skill == "SWITCH_ON")
    if isinstance(args, FillArgs):
        return belief.with_liquid(args.container, FILLED_LIQUID, fill_amount(belief, args))
    if isinstance(args, PourArgs):
        return _poured(belief, args)
    return belief


def fill_amount(belief: Belief, args: FillArgs) -> float:
    """How much FILL runs.

    The amount asked for; else up to the usual level of a container whose capacity is known
    (:data:`USUAL_FILL`; nothing when it is already that full); else a glassful.
    """
    if args.amount_ml is not None:
        return args.amount_ml
    container = belief.things[args.container]
    if container.capacity_ml is None:
        return DEFAULT_FILL_ML
    return max(USUAL_FILL * container.capacity_ml - container.liquid_ml, 0.0)


def pour_amount(belief: Belief, args: PourArgs) -> float:
    """How much POUR tips out: the amount asked for (at most what is there), else everything."""
    held = belief.things[args.source].liquid_ml
    return held if args.amount_ml is None else min(args.amount_ml, held)


def _placed(belief: Belief, args: PlaceArgs) -> Belief:
    if args.relation not in SIDE_RELATIONS:
        return belief.with_placed(args.object, args.target)
    surface = belief.landmark_surface(args.target)
    if surface is None:
        return belief
    return belief.with_placed(args.object, surface, (args.relation or "next_to", args.target))


def _poured(belief: Belief, args: PourArgs) -> Belief:
    amount = pour_amount(belief, args)
    liquid = belief.things[args.source].liquid
    return belief.with_liquid(args.source, liquid, -amount).with_liquid(args.target, liquid, amount)
