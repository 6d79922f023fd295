"""What a skill is expected to change: the belief after a successful skill call.

The task planner projects a plan forward with these effects (after PICK the object is in
the hand, after GOTO the robot is in the target's room), so each later skill's
preconditions are checked against the world as the plan will have left it. The hazard rules
read the same projection, so the effects keep every property they look at up to date: PLACE
beside a landmark puts the object on the landmark's surface and records the relation.
"""

from __future__ import annotations

from pydantic import BaseModel

from cogtree.skills.action_model.belief import Belief
from cogtree.skills.action_model.preconditions import SIDE_RELATIONS
from cogtree.skills.action_model.specs import (
    GotoArgs,
    HandoverArgs,
    PickArgs,
    PlaceArgs,
)


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
    if isinstance(args, HandoverArgs):
        room = belief.people[args.person].room
        moved = belief if room is None else belief.with_robot_in(room)
        return moved.with_given(args.object, args.person)
    return belief


def _placed(belief: Belief, args: PlaceArgs) -> Belief:
    if args.relation not in SIDE_RELATIONS:
        return belief.with_placed(args.object, args.target)
    surface = belief.landmark_surface(args.target)
    if surface is None:
        return belief
    return belief.with_placed(args.object, surface, (args.relation or "next_to", args.target))
