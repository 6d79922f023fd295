"""Task-level HTN planning: a complete request decomposed into skill calls, with backtracking.

Every task comes from a capability (:mod:`cogtree.skills.capabilities.registry`): ``fetch``,
``bring``, ``put_away``, ``tidy``, ``open``/``close``, ``place_relative``, ``dispose``,
``switch_on``/``switch_off``, ``heat``, ``fill``, ``pour``, ``wipe``. The primitive actions
are the skills themselves: each checks its preconditions on the belief the plan has led to so
far and applies its expected effect (:mod:`cogtree.skills.capabilities.calls`), so a plan only
contains skills whose preconditions hold when their turn comes.

Several methods per task make the search matter (an object is fetched with either hand; a
closed container is opened first and closed again afterwards when a hand is free). When
nothing works, the plan says which preconditions failed (e.g. every PICK was out of reach),
after the hazards of what the task asks for (:mod:`cogtree.skills.safety.task_hazards`:
picking up a person, handing over hot tea), so a request that fails for another reason still
names its hazard.

The gtpyhop state (:class:`~cogtree.skills.capabilities.capability.TaskState`) has six
variables: ``belief`` (the immutable snapshot), ``start`` (the
belief planning started from, never changed: where a fetched thing was), ``failures``
(precondition failures met anywhere in the search; one log shared by every copy of the state),
``skipped`` (objects ``tidy`` left out of place on this branch), ``steps`` (one more per
action, so gtpyhop keeps every action in the plan) and ``said`` (the request's words: how
much a pour asks for).
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    SerializeAsAny,
    field_validator,
    model_validator,
)
from typing_extensions import Self

from cogtree.knowledge.safety.hazard_rules import HazardRules, shipped_hazard_rules
from cogtree.skills.action_model.belief import Belief
from cogtree.skills.action_model.specs import (
    find_spec,
    typed_args,
)
from cogtree.skills.capabilities.calls import (
    SKILL_SPECS,
    SkillCall,
    check_preconditions,
    project,
    skill_call_from_values,
)
from cogtree.skills.capabilities.capability import SKIP, Action, Limit, TaskState
from cogtree.skills.capabilities.registry import TASK_METHODS, TASK_SPECS
from cogtree.skills.planning.htn import HtnPlanner
from cogtree.skills.planning.limits import limit_of
from cogtree.skills.safety.hazard_check import Hazard
from cogtree.skills.safety.task_hazards import task_hazards

log = logging.getLogger(__name__)

MAX_REASONS = 3
"""How many distinct failure reasons a failed plan's message quotes."""

TASK_DONE = "task_done"
"""The bookkeeping action that ends one task of a sequence (where its skills stop)."""


class TaskCall(BaseModel):
    """A task with validated arguments, e.g. ``bring(bottle_blue, user)``; see :func:`task_call`.

    ``args`` is an instance of the task's argument model (also when read back from JSON).
    """

    model_config = ConfigDict(frozen=True)

    task: str
    args: SerializeAsAny[BaseModel]

    @model_validator(mode="before")
    @classmethod
    def _typed_args(cls, data: Any) -> Any:
        return typed_args(data, "task", TASK_SPECS)

    @field_validator("task")
    @classmethod
    def _known_task(cls, name: str) -> str:
        """A task of :data:`TASK_SPECS`; the error lists the valid ones."""
        find_spec("task", TASK_SPECS, name)
        return name

    @property
    def values(self) -> tuple[Any, ...]:
        """The argument values in the spec's order (how HTN tasks carry them).

        Trailing optional arguments that are unset (None) are left out: ``wipe(counter)``.
        """
        values = [getattr(self.args, name) for name in TASK_SPECS[self.task].parameters]
        while values and values[-1] is None:
            values.pop()
        return tuple(values)

    def describe(self) -> str:
        """``bring(bottle_blue, user)``."""
        return f"{self.task}({', '.join(str(value) for value in self.values)})"

    def __str__(self) -> str:
        return self.describe()


def task_call(name: str, args: Mapping[str, Any] | None = None, /, **kwargs: Any) -> TaskCall:
    """A validated call of task ``name``; ``SkillArgumentError`` otherwise."""
    spec = find_spec("task", TASK_SPECS, name)
    model = spec.validate({**(args or {}), **kwargs})
    return TaskCall.model_validate({"task": spec.name, "args": model})


class TaskPlan(BaseModel):
    """The skills that accomplish a task, or why none do.

    ``failures``: distinct precondition failures met during the search, in the order they
    were met (on success, the dead ends the search backed out of). ``skipped``: objects
    ``tidy`` had to leave out of place.
    """

    model_config = ConfigDict(frozen=True)

    task: TaskCall
    then: tuple[TaskCall, ...] = Field(
        (), description="a sequence: the tasks after ``task``, planned in order with it"
    )
    ok: bool = Field(description="a plan was found")
    skills: tuple[SkillCall, ...] = ()
    parts: tuple[int, ...] = Field(
        (), description="a sequence: how many of ``skills`` each task takes, in order"
    )
    skipped: tuple[str, ...] = ()
    failures: tuple[str, ...] = ()
    limits: tuple[Limit, ...] = Field(
        (),
        description="with no plan: the robot's own limits the search met (a thing out of "
        "reach, a tool the belief lacks), which planning again would not change",
    )

    @property
    def tasks(self) -> tuple[TaskCall, ...]:
        """Every task the plan is for, in order (one, or a sequence)."""
        return (self.task, *self.then)

    def by_task(self) -> list[tuple[TaskCall, tuple[SkillCall, ...]]]:
        """Each task with its skills, in order (one task: all of them)."""
        if not self.parts:
            return [(self.task, self.skills)]
        found, start = [], 0
        for task, count in zip(self.tasks, self.parts, strict=True):
            found.append((task, self.skills[start : start + count]))
            start += count
        return found

    @property
    def message(self) -> str:
        """The skills in order, or why there is no plan."""
        asked = ", then ".join(str(task) for task in self.tasks)
        if not self.ok:
            reasons = "; ".join(self.failures[:MAX_REASONS]) or "no method applies"
            more = len(self.failures) - MAX_REASONS
            suffix = f" (and {more} more)" if more > 0 else ""
            return f"no plan for {asked}: {reasons}{suffix}"
        skills = ", ".join(str(skill) for skill in self.skills) or "nothing to do"
        left = f"; left out of place: {', '.join(self.skipped)}" if self.skipped else ""
        return f"{asked} → {skills}{left}"


class TaskPlanner:
    """Plans tasks into skill calls with gtpyhop (backtracking); create once, thread-safe.

    ``rules``: the hazard rules a plan-less task's hazards are named by (default: shipped).
    """

    def __init__(self, rules: HazardRules | None = None) -> None:
        self._planner = HtnPlanner("cogtree-tasks", _ACTIONS, TASK_METHODS)
        self._rules = rules

    def plan(self, task: TaskCall, belief: Belief, said: tuple[str, ...] = ()) -> TaskPlan:
        """The skills that accomplish ``task`` from ``belief``, or why there are none."""
        return self.plan_sequence([task], belief, said)

    def plan_sequence(
        self,
        tasks: Sequence[TaskCall],
        belief: Belief,
        said: tuple[str, ...] = (),
        speaker: str | None = None,
    ) -> TaskPlan:
        """The skills that accomplish ``tasks`` in order from ``belief``, or why there are none.

        One todo list: each task is planned from the belief the tasks before it lead to,
        and the search backtracks across tasks (a hand used in the first may be chosen
        again so that the second can be done). A sequence's plan records which skills
        each task takes (``parts``).

        ``said``: the request's utterances; with no plan, the hazards of what the tasks ask
        for (in the manner ``said`` asks for it) come first among the reasons. Nothing to do
        is no plan either when what a task asks for is forbidden ("throw me the vase" when
        the speaker holds it). ``speaker``: who said it (what they said of themselves).
        """
        if not tasks:
            raise ValueError("plan_sequence needs at least one task")
        first, *then = tasks
        failures = _FailureLog()
        state = {
            "belief": belief,
            "start": belief,
            "failures": failures,
            "skipped": (),
            "steps": 0,
            "said": tuple(said),
        }
        todo = [step for task in tasks for step in ((task.task, *task.values), (TASK_DONE,))]
        steps = self._planner.plan(state, todo)
        done = steps is not None and all(name == TASK_DONE for name, *_ in steps)
        hazards = self._hazards(tasks, belief, said, speaker) if steps is None or done else []
        if done and any(hazard.forbids for hazard in hazards):
            steps = None  # "throw it to me" when it is already given: still never thrown
            hazards = [hazard for hazard in hazards if hazard.forbids]
        if steps is None:
            reasons = (*(hazard.sentence for hazard in hazards), *failures.messages())
            plan = TaskPlan(
                task=first, then=tuple(then), ok=False, failures=reasons, limits=failures.limits()
            )
            log.info("%s", plan.message)
            return plan
        skills: list[SkillCall] = []
        parts: list[int] = []
        counted = 0
        for name, *values in steps:
            if name == TASK_DONE:
                parts.append(len(skills) - counted)
                counted = len(skills)
            elif name != SKIP:
                skills.append(skill_call_from_values(name, tuple(values)))
        return TaskPlan(
            task=first,
            then=tuple(then),
            ok=True,
            skills=tuple(skills),
            parts=tuple(parts) if then else (),
            skipped=tuple(s[1] for s in steps if s[0] == SKIP),
            failures=failures.messages(),
        )

    def _hazards(
        self,
        tasks: Sequence[TaskCall],
        belief: Belief,
        said: tuple[str, ...],
        speaker: str | None,
    ) -> list[Hazard]:
        """The hazards of what ``tasks`` ask for, whatever plan would do them."""
        rules = self._rules or shipped_hazard_rules()
        asked = [
            (task.task, {name: str(value) for name, value in _set_args(task).items()})
            for task in tasks
        ]
        return task_hazards(rules, asked, belief, said, speaker)


def _set_args(task: TaskCall) -> dict[str, Any]:
    """``task``'s arguments by name, without the optional ones left unset."""
    return task.args.model_dump(exclude_none=True)


class _FailureLog:
    """Precondition failures of one search; every copy of the state shares this one log."""

    def __init__(self) -> None:
        self._messages: dict[str, None] = {}
        self._limits: dict[Limit, None] = {}

    def add(self, message: str, limit: Limit | None = None) -> None:
        self._messages.setdefault(message)
        if limit is not None:
            self._limits.setdefault(limit)

    def messages(self) -> tuple[str, ...]:
        return tuple(self._messages)

    def limits(self) -> tuple[Limit, ...]:
        return tuple(self._limits)

    def __deepcopy__(self, memo: dict[int, Any]) -> Self:
        return self


Outcome = TaskState | Literal[False]


# -- actions: the skills, plus the bookkeeping of what tidy skipped ----------------------------


def _skill_action(skill: str) -> Action:
    def run_skill(state: TaskState, *values: Any) -> Outcome:
        call = skill_call_from_values(skill, values)
        report = check_preconditions(call, state.belief)
        if not report.ok:
            state.failures.add(report.message, limit_of(report, state.belief))
            return False
        state.belief = project(call, state.belief)
        state.steps += 1
        return state

    return run_skill


def _skip(state: TaskState, thing: str) -> Outcome:
    state.skipped = (*state.skipped, thing)
    state.steps += 1
    return state


def _task_done(state: TaskState) -> Outcome:
    state.steps += 1
    return state


_ACTIONS: Mapping[str, Action] = MappingProxyType(
    {
        **{skill: _skill_action(skill) for skill in SKILL_SPECS},
        SKIP: _skip,
        TASK_DONE: _task_done,
    }
)
