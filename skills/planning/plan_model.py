"""Thought-of-Action plans (InteractGen): typed steps with dependencies and assignees.

A plan is a list of steps. Each step names an action of the skill library (a robot skill of
:data:`~skills.action_model.specs.SKILL_SPECS`, ``LOOK`` to look around, or ``DELEGATE`` to ask a
person to do one of their abilities), its arguments, the earlier steps it depends on, and who
should do it (a robot id, a person id, or None: the assigner decides). A step without dependencies
depends on nothing: steps of different agents with no path between them may run at the same
time. :func:`plan_graph` gives the dependency graph (networkx) and rejects cycles and
references to unknown steps.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator
from typing_extensions import Self

from cogtree.knowledge.memory.experience import RecoveryStep
from cogtree.knowledge.robot_skills import RobotSkill
from cogtree.knowledge.wording import BoundedText
from cogtree.skills.capabilities.calls import SKILL_SPECS, SkillCall, skill_call

if TYPE_CHECKING:  # networkx (0.15 s to import) is imported where a plan's graph is built:
    import networkx as nx  # a turn that plans nothing (`cogtree ask "where is ..."`) skips it

LOOK = "LOOK"
"""The perception action: look around the current room (updates the belief)."""

DELEGATE = "DELEGATE"
"""Ask a person to do one of their abilities (``person``, ``ability``, ``description``)."""

ACTION_NAMES: tuple[str, ...] = (*SKILL_SPECS, LOOK, DELEGATE)
"""Every action a plan step may name."""

Action = Literal[RobotSkill, "LOOK", "DELEGATE"]
"""The JSON-schema type of a step's action (the same names as :data:`ACTION_NAMES`)."""


class PlanError(ValueError):
    """A plan whose structure is wrong: unknown step ids, a dependency cycle, bad arguments."""


class PlanStep(BoundedText):
    """One step: who does what, after which steps, and why (the thought)."""

    free_text = ("thought",)

    model_config = ConfigDict(extra="forbid", frozen=True)

    id: int = Field(ge=1, description="step number, unique in the plan")
    thought: str = Field("", max_length=300, description="why this step, in one sentence")
    action: Action
    args: dict[str, Any] = Field(
        default_factory=dict,
        description="the action's arguments, e.g. {object: mug_1, hand: right}; DELEGATE takes "
        "person, ability and description; LOOK takes none",
    )
    depends_on: list[int] = Field(default_factory=list, description="steps that must end first")
    assignee: str | None = Field(None, description="robot or person id; None: assign by ability")

    def skill_call(self) -> SkillCall:
        """The robot skill call of this step; PlanError for LOOK, DELEGATE or bad arguments."""
        if self.action in (LOOK, DELEGATE):
            raise PlanError(f"step {self.id}: {self.action} is not a robot skill")
        try:
            return skill_call(self.action, self.args)
        except ValueError as error:
            raise PlanError(f"step {self.id}: {error}") from error

    def describe(self) -> str:
        """``3: PICK(object=mug_1, hand=right) by robot1``."""
        args = ", ".join(f"{key}={value}" for key, value in self.args.items())
        who = f" by {self.assignee}" if self.assignee else ""
        return f"{self.id}: {self.action}({args}){who}"


class ToAPlan(BoundedText):
    """A Thought-of-Action plan: steps in a valid order, each after its dependencies."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    steps: list[PlanStep] = Field(default_factory=list)
    rationale: str = Field("", max_length=500, description="the plan's idea in a sentence")
    source: Literal["htn", "model", "oracle", "react", "delegation"] = Field(
        "model",
        description="who made it: the task-level HTN methods, a model, or the delegation of "
        "the steps the robot cannot do (skills/planning/delegation.py)",
    )

    @model_validator(mode="after")
    def _unique_ids(self) -> Self:
        ids = [step.id for step in self.steps]
        if len(set(ids)) != len(ids):
            raise ValueError(f"step ids repeat: {ids}")
        return self

    def step(self, step_id: int) -> PlanStep:
        """The step with ``step_id``; KeyError lists the plan's ids."""
        for step in self.steps:
            if step.id == step_id:
                return step
        raise KeyError(f"no step {step_id}; the plan has {[s.id for s in self.steps]}")

    def describe(self) -> str:
        """The steps, one per line."""
        return "\n".join(step.describe() for step in self.steps) or "(no steps)"


def plan_graph(plan: ToAPlan) -> nx.DiGraph[int]:
    """The dependency graph: an edge ``a -> b`` when step ``b`` depends on step ``a``.

    Raises :class:`PlanError` for a dependency on an unknown step, on itself, or a cycle.
    """
    import networkx as nx

    graph: nx.DiGraph[int] = nx.DiGraph()
    ids = {step.id for step in plan.steps}
    for step in plan.steps:
        graph.add_node(step.id, step=step)
    for step in plan.steps:
        for before in step.depends_on:
            if before == step.id:
                raise PlanError(f"step {step.id} depends on itself")
            if before not in ids:
                raise PlanError(
                    f"step {step.id} depends on step {before}, which is not in the plan"
                )
            graph.add_edge(before, step.id)
    if not nx.is_directed_acyclic_graph(graph):
        cycle = " -> ".join(str(node) for node, _ in nx.find_cycle(graph))
        raise PlanError(f"the steps depend on each other in a cycle: {cycle}")
    return graph


def sequential(steps: list[PlanStep]) -> list[PlanStep]:
    """``steps`` with each one depending on the one before (a plain chain)."""
    return [
        step.model_copy(
            update={"depends_on": [steps[index - 1].id]} if index else {"depends_on": []}
        )
        for index, step in enumerate(steps)
    ]


class StepProblem(BaseModel):
    """Why one step (or the plan as a whole, ``step`` None) cannot run as written."""

    model_config = ConfigDict(frozen=True)

    step: int | None
    code: str = Field(description="a short code: unknown_object, precondition, cannot_do, ...")
    reason: str


class ValidationReport(BaseModel):
    """The verdict on a plan before anything runs: the dry run, then the optional judge."""

    model_config = ConfigDict(frozen=True)

    ok: bool
    problems: list[StepProblem] = Field(default_factory=list)
    assignments: dict[int, str] = Field(
        default_factory=dict, description="step id -> the robot or person who will do it"
    )
    judge: str = Field("", description="the LLM judge's verdict, when one was asked")
    lifted: list[str] = Field(
        default_factory=list,
        description="the ask-first hazards the user confirmed with an explicit yes (their doubts)",
    )

    def diagnosis(self) -> str:
        """The problems as text for the planner's next attempt."""
        if self.ok:
            return "the plan is valid"
        lines = [
            f"step {problem.step}: {problem.reason}" if problem.step else problem.reason
            for problem in self.problems
        ]
        return "; ".join(lines + ([f"judge: {self.judge}"] if self.judge else []))


class Reflection(BaseModel):
    """After a step ran: did it achieve what it was for (InteractGen's manager)."""

    model_config = ConfigDict(frozen=True)

    step: int
    achieved: bool
    observed: str = Field(description="what the belief says now about the step's effect")


class PlanAttempt(BaseModel):
    """One round of the recovery loop: the plan, its validation, how it ended, and why."""

    model_config = ConfigDict(frozen=True)

    number: int = Field(ge=1)
    plan: ToAPlan
    validation: ValidationReport | None = None
    outcome: Literal["rejected", "succeeded", "failed", "running"] = "running"
    failure: str = ""
    suggestion: str = Field("", description="the explainer's suggestion for the next attempt")
    reflections: list[Reflection] = Field(default_factory=list)
    failed_skill: str = Field("", description="the skill that failed, when one did")
    error_code: str = Field("", description="its failure code")
    context: dict[str, str] = Field(
        default_factory=dict,
        description="the failed call's facets (cogtree.skills.execution.failure_context)",
    )
    recovery: tuple[RecoveryStep, ...] = Field(
        (), description="the suggestion in the plan vocabulary, for the next attempt"
    )
    experience: list[str] = Field(
        default_factory=list, description="ids of the experience records the suggestion is from"
    )
    recovered_with: tuple[RecoveryStep, ...] = Field(
        (), description="the recovery steps this attempt's plan starts with (from experience)"
    )
    infeasible: str = Field(
        "",
        description="no plan because of the robot's own limits: why it cannot do the task "
        "and what would make it possible, in plain words (cogtree.skills.planning.limits)",
    )
