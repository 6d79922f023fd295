"""HTN decomposition of one skill call into the low-level commands an executor runs.

``GOTO`` → navigate; ``PICK`` → approach, open_gripper, grasp, verify_grasp, lift; ``PLACE`` →
approach, put, release (beside a landmark: approach the landmark's surface, put_beside,
release); ``HANDOVER`` → (navigate to the person's
room,) approach the person, handover, release (a sharp object: speak a warning and
present_handle before the handover); ``SAY`` → speak; ``WAIT`` → wait; a
capability's skills as its module says (:mod:`cogtree.skills.capabilities.registry`). Which
method applies depends on the belief: an object on the floor is approached itself, one on
furniture through its furniture; a person in another room is reached first.

The gtpyhop state has four variables: ``belief`` (the immutable
:class:`~skills.action_model.belief.Belief`
snapshot: robot room, holdings, object places, container states), ``near`` (what the robot
last approached), ``gripper_open`` (hands whose gripper is open and empty) and ``steps`` (one
more per command, so gtpyhop keeps commands that change nothing else in the plan). Each
action checks that its command makes sense at that point (grasp only what the robot is near,
with an open gripper) and applies its effect, so a method that produces an incoherent
sequence fails to plan instead of reaching the executor.

:meth:`SkillDecomposer.decompose` checks the skill's preconditions first; when one fails,
the plan has no commands and says which precondition failed and why.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from types import MappingProxyType
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from cogtree.skills.action_model.belief import Belief
from cogtree.skills.action_model.checks import Check
from cogtree.skills.action_model.commands import ArgValue, Command, CommandName
from cogtree.skills.action_model.preconditions import SIDE_RELATIONS
from cogtree.skills.action_model.specs import Hand
from cogtree.skills.capabilities.calls import PreconditionReport, SkillCall, check_preconditions
from cogtree.skills.capabilities.capability import Action, Method, SkillState, Step, done
from cogtree.skills.capabilities.registry import COMMANDS, SKILLS
from cogtree.skills.planning.htn import HtnPlanner

log = logging.getLogger(__name__)

COMMAND_ARGS: Mapping[CommandName, tuple[str, ...]] = MappingProxyType(
    {
        "navigate": ("target",),
        "approach": ("target",),
        "observe": (),
        "open_gripper": ("hand",),
        "grasp": ("object", "hand"),
        "verify_grasp": ("object", "hand"),
        "lift": ("object", "hand"),
        "put": ("object", "target", "hand"),
        "release": ("hand",),
        "handover": ("object", "person", "hand"),
        "present_handle": ("object", "hand"),
        "put_beside": ("object", "landmark", "relation", "hand"),
        "store": ("object", "storage"),
        "speak": ("text",),
        "wait": ("seconds",),
        **{name: command.args for name, command in COMMANDS.items()},
    }
)
"""The argument names of each low-level command, in the order HTN actions take them."""


Outcome = SkillState | Literal[False]


class SkillPlan(BaseModel):
    """A skill call, its precondition report and the commands it decomposes into.

    ``commands`` is empty when a precondition failed (see :attr:`message`).
    """

    model_config = ConfigDict(frozen=True)

    call: SkillCall
    preconditions: PreconditionReport
    commands: tuple[Command, ...] = ()
    context: dict[str, str] = Field(
        default_factory=dict, description="the call's facets in the belief it was planned on"
    )

    @property
    def ok(self) -> bool:
        """True when the preconditions hold and the skill decomposed into commands."""
        return self.preconditions.ok

    @property
    def message(self) -> str:
        """Why the skill cannot start, or a summary of its commands."""
        if not self.ok:
            return self.preconditions.message
        steps = ", ".join(command.name for command in self.commands)
        return f"{self.call} → {steps or 'no commands'}"


class SkillDecomposer:
    """Decomposes skill calls into commands with gtpyhop; create once, thread-safe."""

    def __init__(self) -> None:
        self._planner = HtnPlanner("cogtree-skills", _ACTIONS, _METHODS)

    def decompose(self, call: SkillCall, belief: Belief) -> SkillPlan:
        """Check ``call``'s preconditions on ``belief``, then decompose it into commands."""
        report = check_preconditions(call, belief)
        if not report.ok:
            log.info("%s", report.message)
            return SkillPlan(call=call, preconditions=report)
        state = {"belief": belief, "near": None, "gripper_open": (), "steps": 0}
        steps = self._planner.plan(state, [(call.skill, *call.values)])
        if steps is None:
            failed = Check(
                name="decomposition",
                ok=False,
                reason=f"no HTN method turns {call} into commands in this belief",
            )
            log.warning("%s: %s", call, failed.reason)
            report = PreconditionReport(call=call, checks=(*report.checks, failed))
            return SkillPlan(call=call, preconditions=report)
        commands = tuple(_command(belief.robot.id, call, step) for step in steps)
        return SkillPlan(call=call, preconditions=report, commands=commands)


def _command(robot: str, call: SkillCall, step: Step) -> Command:
    name, *values = step
    args: dict[str, ArgValue] = dict(zip(COMMAND_ARGS[name], values, strict=True))
    return Command(robot=robot, skill=call.skill, name=name, args=args)


# -- actions: one per low-level command --------------------------------------------------------


def _navigate(state: SkillState, target: str) -> Outcome:
    room = state.belief.room_of(target)
    if room is None:
        return False
    state.belief = state.belief.with_robot_in(room)
    state.near = target if state.belief.kind_of(target) in ("surface", "container") else None
    return done(state)


def _approach(state: SkillState, target: str) -> Outcome:
    room = state.belief.room_of(target)
    if room is None or room != state.belief.robot_room:
        return False
    state.near = target
    return done(state)


def _open_gripper(state: SkillState, hand: Hand) -> Outcome:
    if not state.belief.hand_is_free(hand):
        return False
    state.gripper_open = (*state.gripper_open, hand)
    return done(state)


def _grasp(state: SkillState, thing: str, hand: Hand) -> Outcome:
    found = state.belief.things.get(thing)
    if found is None or state.near not in (found.support, thing):
        return False
    if hand not in state.gripper_open or not state.belief.hand_is_free(hand):
        return False
    state.belief = state.belief.with_picked(thing, hand)
    state.gripper_open = tuple(h for h in state.gripper_open if h != hand)
    return done(state)


def _check_hold(state: SkillState, thing: str, hand: Hand) -> Outcome:
    return done(state) if state.belief.may_hold_in(thing, hand) else False


def _put(state: SkillState, thing: str, target: str, hand: Hand) -> Outcome:
    if not state.belief.may_hold_in(thing, hand) or state.near != target:
        return False
    state.belief = state.belief.with_placed(thing, target)
    return done(state)


def _release(state: SkillState, hand: Hand) -> Outcome:
    if hand not in state.belief.robot.hands or state.belief.objects_in(hand):
        return False
    state.gripper_open = (*state.gripper_open, hand)
    return done(state)


def _handover(state: SkillState, thing: str, person: str, hand: Hand) -> Outcome:
    if state.near != person or not state.belief.may_hold_in(thing, hand):
        return False
    state.belief = state.belief.with_given(thing, person)
    return done(state)


def _put_beside(state: SkillState, thing: str, landmark: str, relation: str, hand: Hand) -> Outcome:
    surface = state.belief.landmark_surface(landmark)
    if surface is None or state.near != surface or not state.belief.may_hold_in(thing, hand):
        return False
    state.belief = state.belief.with_placed(thing, surface, (relation, landmark))
    return done(state)


def _present_handle(state: SkillState, thing: str, hand: Hand) -> Outcome:
    return done(state) if state.belief.may_hold_in(thing, hand) else False


def _emit(state: SkillState, value: str | float) -> Outcome:
    return done(state)


_ACTIONS: Mapping[str, Action] = MappingProxyType(
    {
        "navigate": _navigate,
        "approach": _approach,
        "open_gripper": _open_gripper,
        "grasp": _grasp,
        "verify_grasp": _check_hold,
        "lift": _check_hold,
        "put": _put,
        "release": _release,
        "handover": _handover,
        "present_handle": _present_handle,
        "put_beside": _put_beside,
        "speak": _emit,
        "wait": _emit,
        **{name: command.action for name, command in COMMANDS.items()},
    }
)


# -- methods: how each skill decomposes --------------------------------------------------------


def _goto_place(state: SkillState, target: str) -> list[Step] | Literal[False]:
    if state.belief.kind_of(target) not in ("room", "surface", "container"):
        return False
    return [("navigate", target)]


def _goto_object(state: SkillState, target: str) -> list[Step] | Literal[False]:
    found = state.belief.things.get(target)
    if found is None or found.kind != "object":
        return False
    on_furniture = found.relation in ("on", "in") and found.support is not None
    return [("navigate", found.support if on_furniture else found.room)]


def _goto_person(state: SkillState, target: str) -> list[Step] | Literal[False]:
    person = state.belief.people.get(target)
    if person is None or person.room is None:
        return False
    return [("navigate", person.room)]


def _grasp_steps(approach: str, thing: str, hand: Hand) -> list[Step]:
    return [
        ("approach", approach),
        ("open_gripper", hand),
        ("grasp", thing, hand),
        ("verify_grasp", thing, hand),
        ("lift", thing, hand),
    ]


def _pick_from_furniture(state: SkillState, thing: str, hand: Hand) -> list[Step] | Literal[False]:
    found = state.belief.things.get(thing)
    if found is None or found.relation not in ("on", "in") or found.support is None:
        return False
    return _grasp_steps(found.support, thing, hand)


def _pick_from_floor(state: SkillState, thing: str, hand: Hand) -> list[Step] | Literal[False]:
    found = state.belief.things.get(thing)
    if found is None or found.relation != "inRoom":
        return False
    return _grasp_steps(thing, thing, hand)


def _place(
    state: SkillState, thing: str, target: str, hand: Hand, relation: str | None = None
) -> list[Step] | Literal[False]:
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


def _handover_here(
    state: SkillState, thing: str, person: str, hand: Hand
) -> list[Step] | Literal[False]:
    if state.belief.room_of(person) != state.belief.robot_room:
        return False
    return _give_steps(state.belief, thing, person, hand)


def _handover_elsewhere(
    state: SkillState, thing: str, person: str, hand: Hand
) -> list[Step] | Literal[False]:
    room = state.belief.room_of(person)
    if room is None or room == state.belief.robot_room:
        return False
    return [("navigate", room), *_give_steps(state.belief, thing, person, hand)]


def _say(state: SkillState, text: str) -> list[Step]:
    return [("speak", text)]


def _wait(state: SkillState, seconds: float) -> list[Step]:
    return [("wait", seconds)]


_METHODS: Mapping[str, tuple[Method, ...]] = MappingProxyType(
    {
        "GOTO": (_goto_place, _goto_object, _goto_person),
        "PICK": (_pick_from_furniture, _pick_from_floor),
        "PLACE": (_place,),
        "HANDOVER": (_handover_here, _handover_elsewhere),
        "SAY": (_say,),
        "WAIT": (_wait,),
        **{name: skill.methods for name, skill in SKILLS.items()},
    }
)
