"""Every capability of the robot, and its parts by name for the planner, decomposer and rules.

Adding a capability is one module whose ``CAPABILITY`` (a
:class:`~cogtree.skills.capabilities.capability.Capability`) is listed in
:data:`CAPABILITIES`, and its test. The tables below are read by the skill calls (specs,
preconditions, effects: the plan validator and the dry run project plans with them), the
outcome checks (step facts, reflection), the skill decomposer (methods and commands), the
task planner (task specs, methods and helper tasks), the hazard rules of a task (outlines
and unsaid arguments), the "nothing needed doing" reply, and the simulator's executor (each
command's rule and ticks).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from types import MappingProxyType

from cogtree.skills.action_model.belief import Thing
from cogtree.skills.action_model.commands import CommandName
from cogtree.skills.action_model.specs import CallSpec
from cogtree.skills.capabilities import (
    dispose,
    fetch,
    fill,
    heat,
    move,
    open_close,
    place,
    pour,
    speech,
    switch,
    tidy,
    wipe,
)
from cogtree.skills.capabilities.capability import (
    Capability,
    CommandKind,
    Method,
    Outline,
    RecoveryRole,
    SkillKind,
    TaskKind,
)

CAPABILITIES: tuple[Capability, ...] = (
    fetch.CAPABILITY,
    tidy.CAPABILITY,
    open_close.CAPABILITY,
    place.CAPABILITY,
    dispose.CAPABILITY,
    switch.CAPABILITY,
    heat.CAPABILITY,
    fill.CAPABILITY,
    pour.CAPABILITY,
    wipe.CAPABILITY,
    move.CAPABILITY,
    speech.CAPABILITY,
)
"""Every capability, in the order their skills and tasks are listed."""

SKILLS: Mapping[str, SkillKind] = MappingProxyType(
    {skill.spec.name: skill for capability in CAPABILITIES for skill in capability.skills}
)
"""Every capability's robot skills by name."""

RECOVERY_ROLES: Mapping[str, RecoveryRole] = MappingProxyType(
    {name: skill.recovery for name, skill in SKILLS.items() if skill.recovery is not None}
)
"""The skills a learnt recovery may hold for the HTN replan, and their part in it."""

COMMANDS: Mapping[CommandName, CommandKind] = MappingProxyType(
    {command.name: command for capability in CAPABILITIES for command in capability.commands}
)
"""Every capability's low-level commands by name."""

TASKS: Mapping[str, TaskKind] = MappingProxyType(
    {task.spec.name: task for capability in CAPABILITIES for task in capability.tasks}
)
"""Every capability's tasks by name."""

TASK_SPECS: Mapping[str, CallSpec] = MappingProxyType(
    {name: task.spec for name, task in TASKS.items()}
)
"""The tasks' specs by name."""

TASK_METHODS: Mapping[str, tuple[Method, ...]] = MappingProxyType(
    {
        **{name: task.methods for name, task in TASKS.items()},
        **{
            name: methods
            for capability in CAPABILITIES
            for name, methods in capability.helpers.items()
        },
    }
)
"""The HTN methods of every task and helper task, by task name."""

OUTLINES: Mapping[str, Outline] = MappingProxyType(
    {name: task.outline for name, task in TASKS.items() if task.outline is not None}
)
"""Per task: the skills it stands for in the simplest case (tasks not listed: none)."""

FITS: Mapping[tuple[str, str], Callable[[Thing], bool]] = MappingProxyType(
    {(name, argument): fits for name, task in TASKS.items() for argument, fits in task.fits.items()}
)
"""Per task argument: which things of the belief it can take when the user left it unsaid."""

END_STATES: Mapping[str, str] = MappingProxyType(
    {name: task.ends_in for name, task in TASKS.items() if task.ends_in is not None}
)
"""Tasks whose one argument ends in a state, and the word for it."""
