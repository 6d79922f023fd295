"""Recovery steps from experience, as the task-level HTN replan uses them.

The explainer's suggestion comes with a recovery in the plan vocabulary (``GOTO(kitchen),
LOOK()``, ``DELEGATE(paul, open_door)``). The HTN replan puts it before the task's plan when
it only moves, looks, waits or asks a person: moving and looking change what the robot
knows, not the world, so the task can be planned as if they had found what they look for;
asking a person is used when the belief says that person can be asked and has the ability
(the checks the plan validation makes of a DELEGATE step) and the ability addresses the
failure (:func:`can_delegate`), so a recovery learnt in this home
("ask Paul to open the bedroom door") fixes the next such failure without a model. Other
steps that change the world (OPEN, PLACE, ...) are left to the planner model, which reads the
suggestion.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from types import MappingProxyType

from cogtree.knowledge.memory.experience import RecoveryStep
from cogtree.skills.action_model.belief import Belief
from cogtree.skills.capabilities.registry import RECOVERY_ROLES

HTN_RECOVERY_ACTIONS = frozenset({*RECOVERY_ROLES, "LOOK", "DELEGATE"})
"""The actions a recovery may hold for the HTN replan to put it before its plan: the robot
skills that have a part in a recovery (moving, waiting), looking, and asking a person."""


def _goes(step: RecoveryStep) -> bool:
    """Whether ``step`` takes the robot to its ``target``."""
    return RECOVERY_ROLES.get(step.action) == "goes"


def usable_recovery(
    recovery: Sequence[RecoveryStep], belief: Belief, failure_code: str = ""
) -> tuple[RecoveryStep, ...] | None:
    """The steps of ``recovery`` the HTN replan runs first, or None when it cannot use them.

    None when the recovery is empty, holds an action outside :data:`HTN_RECOVERY_ACTIONS`,
    names a place the belief does not know, or asks a person who cannot do it now or whose
    ability does not address ``failure_code`` (:func:`can_delegate`). A ``GOTO`` to the room
    the robot is already in is left out.
    """
    if not recovery or any(step.action not in HTN_RECOVERY_ACTIONS for step in recovery):
        return None
    steps: list[RecoveryStep] = []
    room = belief.robot_room
    for step in recovery:
        if step.action == "DELEGATE" and not can_delegate(step, belief, failure_code):
            return None
        if _goes(step):
            target = step.args.get("target")
            if not isinstance(target, str) or belief.room_of(target) is None:
                return None
            if target == room:
                continue
            room = belief.room_of(target)
        steps.append(step)
    return tuple(steps)


REMEDIES: Mapping[str, frozenset[str]] = MappingProxyType(
    {
        "door_closed": frozenset({"open_door", "unlock_door"}),
        "container_closed": frozenset({"open_container", "open_fridge", "open_cupboard"}),
        "path_blocked": frozenset({"clear_path", "move_obstacle"}),
    }
)
"""For a failure code, the abilities of a person whose doing removes that failure (data: a
shared word is not enough, ``close_door`` shares one with ``door_closed``)."""


def can_delegate(step: RecoveryStep, belief: Belief, failure_code: str) -> bool:
    """Whether the HTN replan may start with this DELEGATE step for a ``failure_code`` failure.

    The person is in ``belief``, can be asked (not away or asleep) and has the ability, and
    the ability is one that removes the failure (:data:`REMEDIES`: ``open_door`` for
    ``door_closed``). The HTN methods do not model what a person does, so they run only a
    delegation that plainly removes the failure; any other (a lesson learnt with a person who
    has since left, or one that asks about something else) is the planner model's to weigh.
    """
    person = belief.people.get(str(step.args.get("person", "")))
    ability = str(step.args.get("ability", ""))
    if person is None or not person.can_be_asked or ability not in person.abilities:
        return False
    return ability in REMEDIES.get(failure_code, frozenset())


def belief_after_recovery(
    belief: Belief, steps: Sequence[RecoveryStep], context: Mapping[str, str]
) -> Belief:
    """``belief`` as the task is planned after ``steps``: the robot where they leave it.

    When the steps look around, the object the failed skill handled (``context["object"]``)
    is assumed found in the room the robot looked in, resting at an unknown place (so at an
    unknown height), and so is the person it was for (``context["person"]``): the plan
    validation checks the steps after a LOOK the same way, and execution confirms it.
    """
    room = belief.robot_room
    for step in steps:
        target = step.args.get("target")
        if _goes(step) and isinstance(target, str):
            room = belief.room_of(target) or room
    moved = replace(belief, robot_room=room)
    if room is None or not any(step.action == "LOOK" for step in steps):
        return moved
    person = belief.people.get(context.get("person", ""))
    if person is not None:
        moved = replace(moved, people={**belief.people, person.id: replace(person, room=room)})
    thing = belief.things.get(context.get("object", ""))
    if thing is None or thing.kind != "object" or thing.relation == "heldBy":
        return moved
    found = replace(thing, room=room, relation="on", support=None)
    return replace(moved, things={**belief.things, thing.id: found})
