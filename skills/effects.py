"""What a skill is expected to change: the belief after a successful skill call.

The task planner projects a plan forward with these effects (after PICK the object is in
the hand, after GOTO the robot is in the target's room), so each later skill's
preconditions are checked against the world as the plan will have left it.
"""

from __future__ import annotations

from skills.belief import Belief
from skills.specs import (
    CloseArgs,
    GotoArgs,
    HandoverArgs,
    OpenArgs,
    PickArgs,
    PlaceArgs,
    SkillCall,
)


def project(call: SkillCall, belief: Belief) -> Belief:
    """The belief after ``call`` succeeds (its preconditions must hold in ``belief``)."""
    args = call.args
    if isinstance(args, GotoArgs):
        room = belief.room_of(args.target)
        return belief if room is None else belief.with_robot_in(room)
    if isinstance(args, PickArgs):
        return belief.with_picked(args.object, args.hand)
    if isinstance(args, PlaceArgs):
        return belief.with_placed(args.object, args.target)
    if isinstance(args, OpenArgs | CloseArgs):
        return belief.with_container(args.container, isinstance(args, OpenArgs))
    if isinstance(args, HandoverArgs):
        room = belief.people[args.person].room
        moved = belief if room is None else belief.with_robot_in(room)
        return moved.with_given(args.object, args.person)
    return belief
