"""HTN decomposition of one skill call into the low-level commands an executor runs.

Each skill decomposes as its capability says (:mod:`cogtree.skills.capabilities.registry`):
``GOTO`` → navigate; ``PICK`` → approach, open_gripper, grasp, verify_grasp, lift; ``PLACE`` →
approach, put, release; ``HANDOVER`` → (navigate to the person's room,) approach the person,
handover, release; ``SAY`` → speak; and so on. Which method applies depends on the belief: an
object on the floor is approached itself, one on furniture through its furniture; a person in
another room is reached first.

The gtpyhop state (:class:`~cogtree.skills.capabilities.capability.SkillState`) has four
variables: ``belief`` (the immutable belief snapshot: robot room, holdings, object places,
container states), ``near`` (what the robot
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

from pydantic import BaseModel, ConfigDict, Field

from cogtree.skills.action_model.belief import Belief
from cogtree.skills.action_model.checks import Check
from cogtree.skills.action_model.commands import ArgValue, Command, CommandName
from cogtree.skills.capabilities.calls import PreconditionReport, SkillCall, check_preconditions
from cogtree.skills.capabilities.capability import Action, Method, Step
from cogtree.skills.capabilities.registry import COMMANDS, SKILLS
from cogtree.skills.planning.htn import HtnPlanner

log = logging.getLogger(__name__)

COMMAND_ARGS: Mapping[CommandName, tuple[str, ...]] = MappingProxyType(
    {
        **{name: command.args for name, command in COMMANDS.items()},
        "observe": (),  # executors take these two directly: no skill decomposes into them
        "store": ("object", "storage"),
    }
)
"""The argument names of each low-level command, in the order HTN actions take them."""


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


_ACTIONS: Mapping[str, Action] = MappingProxyType(
    {name: command.action for name, command in COMMANDS.items()}
)
"""Each command's effect on the decomposition state (see the module docstring)."""

_METHODS: Mapping[str, tuple[Method, ...]] = MappingProxyType(
    {name: skill.methods for name, skill in SKILLS.items()}
)
"""How each skill decomposes into commands, by skill."""
