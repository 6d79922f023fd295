"""What the capability tests share: ways to plan, decompose and check on the kitchen belief."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from cogtree.skills.action_model.belief import Belief
from cogtree.skills.capabilities.calls import check_preconditions, skill_call
from cogtree.skills.planning.decomposition import SkillDecomposer
from cogtree.skills.planning.tasks import TaskPlanner, task_call


def holding(belief: Belief, *things: str) -> Belief:
    """``belief`` with the robot holding ``things``, in the right hand then the left."""
    for thing, hand in zip(things, ("right", "left"), strict=False):
        belief = belief.with_picked(thing, hand)  # type: ignore[arg-type]
    return belief


def without(belief: Belief, *ids: str) -> Belief:
    """``belief`` without the things ``ids``."""
    return replace(belief, things={k: v for k, v in belief.things.items() if k not in ids})


def failure(belief: Belief, skill: str, **args: Any) -> tuple[str | None, str | None, str]:
    """The failed precondition of ``skill`` on ``belief``: name, code, reason."""
    report = check_preconditions(skill_call(skill, args), belief)
    failed = report.failure
    assert failed is not None, report.message
    return failed.name, failed.code, failed.reason


def commands(belief: Belief, skill: str, **args: Any) -> list[str]:
    """The commands ``skill`` decomposes into on ``belief``."""
    found = SkillDecomposer().decompose(skill_call(skill, args), belief)
    assert found.ok, found.message
    return [command.describe() for command in found.commands]


def plan(belief: Belief, task: str, **args: str) -> list[str]:
    """The skills of the plan for ``task`` on ``belief`` (there must be one)."""
    found = TaskPlanner().plan(task_call(task, args), belief)
    assert found.ok, found.message
    return [str(skill) for skill in found.skills]


def reasons(belief: Belief, task: str, **args: str) -> str:
    """Why there is no plan for ``task`` on ``belief``."""
    found = TaskPlanner().plan(task_call(task, args), belief)
    assert not found.ok
    return found.message
