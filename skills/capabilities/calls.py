"""Skill calls: a skill with validated arguments, its preconditions and its expected effect.

A :class:`SkillCall` is a skill name with validated arguments, e.g. ``PICK(bottle_blue,
right)``. :func:`skill_call` builds one from untrusted input (a plan step written by a model,
a scenario file) and raises :class:`~cogtree.skills.action_model.specs.SkillArgumentError`
naming the problem and listing the valid skills or arguments. :func:`check_preconditions`
runs a call's preconditions on a belief (a failed report's :attr:`PreconditionReport.message`
is the skill's FAILURE reason; no command is sent for it), and :func:`project` gives the
belief after the call succeeds. Each skill's spec, checks and effect come from its capability
(:mod:`cogtree.skills.capabilities.registry`).
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any, get_args

from pydantic import BaseModel, ConfigDict, SerializeAsAny, model_validator

from cogtree.knowledge.robot_skills import RobotSkill
from cogtree.skills.action_model.belief import Belief
from cogtree.skills.action_model.checks import Check
from cogtree.skills.action_model.specs import CallSpec, SkillArgumentError, find_spec, typed_args
from cogtree.skills.capabilities.registry import SKILLS

SKILL_SPECS: Mapping[RobotSkill, CallSpec] = MappingProxyType(
    {name: SKILLS[name].spec for name in get_args(RobotSkill)}
)
"""Every robot skill by name. ``DELEGATE`` (asking a person) is not a robot skill."""


class SkillCall(BaseModel):
    """A skill with validated arguments, e.g. ``PICK(bottle_blue, right)``.

    Build it with :func:`skill_call`; ``args`` is an instance of the skill's argument model
    (also when the call is validated from a mapping or JSON).
    """

    model_config = ConfigDict(frozen=True)

    skill: RobotSkill
    args: SerializeAsAny[BaseModel]

    @model_validator(mode="before")
    @classmethod
    def _typed_args(cls, data: Any) -> Any:
        return typed_args(data, "skill", SKILL_SPECS)

    @property
    def values(self) -> tuple[Any, ...]:
        """The argument values in the spec's order (how HTN tasks carry them).

        Trailing optional arguments that are unset (None) are left out, so ``PLACE`` without a
        relation keeps its three values.
        """
        values = [getattr(self.args, name) for name in SKILL_SPECS[self.skill].parameters]
        while values and values[-1] is None:
            values.pop()
        return tuple(values)

    def describe(self) -> str:
        """``PICK(bottle_blue, right)``: the skill and its argument values in order."""
        return f"{self.skill}({', '.join(str(value) for value in self.values)})"

    def __str__(self) -> str:
        return self.describe()


def skill_call(name: str, args: Mapping[str, Any] | None = None, /, **kwargs: Any) -> SkillCall:
    """A validated call of skill ``name`` with ``args`` (a mapping) and/or keyword arguments.

    ``skill_call("PICK", object="bottle_blue", hand="right")``. Raises
    :class:`SkillArgumentError` for an unknown skill (listing the valid ones with their
    arguments) or arguments that do not fit (naming the field and the arguments it takes).
    """
    spec = find_spec("skill", SKILL_SPECS, name)
    model = spec.validate({**(args or {}), **kwargs})
    return SkillCall.model_validate({"skill": spec.name, "args": model})


def skill_call_from_values(name: str, values: tuple[Any, ...]) -> SkillCall:
    """A validated call from positional values in the spec's order (an HTN task's arguments).

    Trailing optional arguments (PLACE's ``relation``) may be left out.
    """
    spec = find_spec("skill", SKILL_SPECS, name)
    required = sum(1 for field in spec.args.model_fields.values() if field.is_required())
    if not required <= len(values) <= len(spec.parameters):
        counts = (
            f"{required} to {len(spec.parameters)}"
            if required < len(spec.parameters)
            else str(required)
        )
        raise SkillArgumentError(
            f"{name}: expected {counts} values for {spec.signature()}, got {len(values)}"
        )
    return skill_call(name, dict(zip(spec.parameters, values, strict=False)))


class PreconditionReport(BaseModel):
    """The checks a skill call went through, up to and including the first that failed."""

    model_config = ConfigDict(frozen=True)

    call: SkillCall
    checks: tuple[Check, ...]

    @property
    def ok(self) -> bool:
        """True when every precondition holds."""
        return all(check.ok for check in self.checks)

    @property
    def failure(self) -> Check | None:
        """The precondition that failed, if any."""
        return next((check for check in self.checks if not check.ok), None)

    @property
    def message(self) -> str:
        """Why the skill cannot start, or a summary when every precondition holds.

        ``PICK(bottle_blue, right) failed precondition container_open: container_closed —
        bottle_blue is in fridge, which is believed closed: OPEN fridge first``.
        """
        failed = self.failure
        if failed is None:
            return f"{self.call} preconditions hold ({len(self.checks)} checks)"
        return (
            f"{self.call} failed precondition {failed.name}: {failed.code or 'error'} "
            f"— {failed.reason}"
        )


def check_preconditions(call: SkillCall, belief: Belief) -> PreconditionReport:
    """Evaluate ``call``'s preconditions on ``belief``, stopping at the first that fails."""
    checks: list[Check] = []
    for check in SKILLS[call.skill].checks(belief, call.args):
        checks.append(check)
        if not check.ok:
            break
    return PreconditionReport(call=call, checks=tuple(checks))


def project(call: SkillCall, belief: Belief) -> Belief:
    """The belief after ``call`` succeeds (its preconditions must hold in ``belief``)."""
    return SKILLS[call.skill].effect(belief, call.args)
