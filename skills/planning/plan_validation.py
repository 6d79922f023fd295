"""The dry run: a plan checked on copies of the team's beliefs before anything moves.

:func:`dry_run` is the deterministic part of InteractGen's validator. A model wrote the plan,
so a bad plan is an expected input: every problem becomes a :class:`~skills.planning.plan_model.
StepProblem` with a code, and nothing raises. It checks

1. the structure: a plan with no steps (``empty_plan``), dependencies on unknown steps
   (``unknown_step``), dependency cycles (``cycle``);
2. each step in dependency order, with the agent :func:`~skills.planning.assignment.assign` (or the
   caller) gives it: the action exists (``unknown_action``), its arguments fit
   (``bad_arguments``), the things and people it names exist (``unknown_object``,
   ``unknown_person``, with similar names), the agent is on the team (``unknown_agent``) and
   can do it now: a robot's skill preconditions hold on its belief as the earlier steps leave
   it (``precondition:<code>``, e.g. ``precondition:payload_exceeded`` or
   ``precondition:capability_missing`` for a skill outside its profile); a person asked to
   ``DELEGATE`` is available (``not_available``) and has the ability (``no_ability``); a step
   given to the wrong kind of agent is ``cannot_do``. A step that passes is applied
   (:func:`cogtree.skills.capabilities.calls.project`) before the next one is checked;
3. each robot step against the hazard rules (:mod:`skills.safety.hazard_check`), on the belief as
the
   earlier steps leave it: a ``forbidden`` hazard is ``hazard:<rule>`` and an ``ask_first`` one
   is ``ask_first:<rule>`` (unless its doubt is in ``lifted``: the user said yes to it),
   both with the rule's sentence as the reason. This runs on every dry run, whoever wrote the
   plan, before the step's other checks, so a hazard is named even when the step is also
   impossible (a person as the object to pick).

A step that depends on a step with a problem is not checked (it is listed in
:attr:`DryRun.unchecked`): its problems would only echo the first one. Its hazards are still
named, on the belief as the steps before it left it: "bring me the hot tea" fails at PICK (a
hot mug is not grasped), and handing it over would burn the person all the same. What people do is
not known in advance; the rule for objects a person may move or produce is in
:mod:`skills.planning.assignment` (the robot step that fetches them relies on an assumption,
recorded in :attr:`DryRun.assumptions`).

:func:`oracle_plan` turns a scenario's flat oracle steps into a :class:`~skills.planning.plan_model.
ToAPlan`.
"""

from __future__ import annotations

import logging
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from pydantic import ValidationError

from cogtree.knowledge.safety.hazard_rules import HazardRules, shipped_hazard_rules
from cogtree.knowledge.validation_errors import first_problem
from cogtree.skills.action_model.belief import Belief
from cogtree.skills.planning.assignment import (
    Assumption,
    PlanWorld,
    Rehearsal,
    assign,
    dependency_graph,
)
from cogtree.skills.planning.plan_model import (
    DELEGATE,
    LOOK,
    PlanError,
    PlanStep,
    StepProblem,
    ToAPlan,
    ValidationReport,
)
from cogtree.skills.safety.hazard_check import Hazard, hazard_doubt
from cogtree.skills.safety.plan_hazards import PlanHazards

__all__ = [
    "HAZARD_CODES",
    "Assumption",
    "DryRun",
    "PlanWorld",
    "ask_first_doubts",
    "dry_run",
    "hazard_problem",
    "hazard_question",
    "oracle_plan",
    "rehearse",
    "structure_problems",
]

log = logging.getLogger(__name__)

ORACLE_KEYS = ("skill", "robot", "after")
"""Keys of a flat oracle step that are not the action's arguments."""


@dataclass(frozen=True)
class DryRun:
    """Everything a dry run found: the report, and what it assumed or could not check.

    ``requests``: robot steps given to a person, with the ability asked for.
    ``beliefs``: each robot's belief after the steps that passed.
    """

    report: ValidationReport
    assumptions: tuple[Assumption, ...]
    requests: Mapping[int, str]
    unchecked: tuple[int, ...]
    beliefs: Mapping[str, Belief]


def structure_problems(plan: ToAPlan) -> list[StepProblem]:
    """An empty plan, dependencies on unknown steps or on the step itself, and cycles."""
    import networkx as nx  # here, not at the top: a turn that plans nothing skips its 0.15 s

    if not plan.steps:
        return [StepProblem(step=None, code="empty_plan", reason="the plan has no steps")]
    ids = [step.id for step in plan.steps]
    found = []
    for step in plan.steps:
        for before in step.depends_on:
            if before == step.id:
                found.append(StepProblem(step=step.id, code="cycle", reason="it depends on itself"))
            elif before not in ids:
                found.append(
                    StepProblem(
                        step=step.id,
                        code="unknown_step",
                        reason=f"it depends on step {before}, which is not in the plan "
                        f"(steps: {', '.join(map(str, ids))})",
                    )
                )
    graph = dependency_graph(plan)
    if not nx.is_directed_acyclic_graph(graph):
        loop = [before for before, _ in nx.find_cycle(graph)]
        path = " -> ".join(str(step) for step in [*loop, loop[0]])
        found.append(
            StepProblem(
                step=None,
                code="cycle",
                reason=f"steps {path} depend on each other in a cycle; order them",
            )
        )
    return found


HAZARD_CODES = ("hazard:", "ask_first:")
"""Prefixes of the problem codes of a forbidden and of an ask-first hazard."""


def hazard_problem(hazard: Hazard) -> StepProblem:
    """A hazard as a step problem: ``hazard:<rule>`` or ``ask_first:<rule>``, the sentence."""
    prefix = HAZARD_CODES[0] if hazard.forbids else HAZARD_CODES[1]
    return StepProblem(step=hazard.step, code=f"{prefix}{hazard.rule}", reason=hazard.sentence)


def _hazards(
    watch: PlanHazards, rehearsal: Rehearsal, step: PlanStep, agent: str, lifted: Collection[str]
) -> list[StepProblem]:
    """The hazard problems of ``step`` (ask-first ones the user lifted are left out)."""
    if step.action in (LOOK, DELEGATE):
        return []
    try:
        call = step.skill_call()
    except PlanError:
        return []
    belief = rehearsal.beliefs.get(agent) or next(iter(rehearsal.beliefs.values()), None)
    if belief is None:
        return []
    found = watch.check(belief, call, step.id)
    watch.done(call)
    return [
        hazard_problem(hazard) for hazard in found if hazard.forbids or hazard.doubt not in lifted
    ]


def hazard_question(report: ValidationReport) -> str | None:
    """The question to ask when only ask-first hazards stop the plan; None otherwise.

    It says every hazard's sentence and asks for an explicit yes.
    """
    codes = [problem.code for problem in report.problems]
    if report.ok or not codes or not all(code.startswith(HAZARD_CODES[1]) for code in codes):
        return None
    said = " ".join(dict.fromkeys(problem.reason for problem in report.problems))
    return f"Before I do that: {said} Shall I still do it? Please say yes to confirm."


def ask_first_doubts(report: ValidationReport) -> list[str]:
    """The doubts of the ask-first hazards of ``report``, for ``/session/pending.confirm``."""
    return [
        hazard_doubt(problem.code.removeprefix(HAZARD_CODES[1]), problem.reason)
        for problem in report.problems
        if problem.code.startswith(HAZARD_CODES[1])
    ]


def rehearse(
    plan: ToAPlan,
    world: PlanWorld,
    *,
    assignments: Mapping[int, str] | None = None,
    rules: HazardRules | None = None,
    said: Iterable[str] = (),
    earlier: Iterable[str] = (),
    lifted: Collection[str] = (),
    speaker: str | None = None,
    offered: bool = False,
) -> DryRun:
    """Dry-run ``plan`` on ``world`` (see the module docs); never raises on a bad plan.

    ``assignments`` (step id -> agent) overrides :func:`~skills.planning.assignment.assign` for the
    steps it names. ``rules``: the hazard rules (default: the shipped ones); ``said``: the
    request's utterances (how the user wants it done); ``earlier``: what the user said before
    in the conversation (what things are: "the hob's still hot"); ``lifted``: the doubts of
    ask-first hazards the user confirmed with an explicit yes
    (:func:`~skills.safety.hazard_check.hazard_doubt`); ``speaker``: who said it (what they
    said of themselves is theirs); ``offered``: the plan brings things for a step the robot
    cannot do.
    """
    import networkx as nx  # here, not at the top: a turn that plans nothing skips its 0.15 s

    watch = PlanHazards(
        rules or shipped_hazard_rules(), said, earlier=earlier, speaker=speaker, offered=offered
    )
    problems = structure_problems(plan)
    ids = {step.id for step in plan.steps}
    given = {step: agent for step, agent in (assignments or {}).items() if step in ids}
    if assignments is not None and len(given) < len(assignments):
        log.warning("assignments name steps the plan lacks: %s", sorted(set(assignments) - ids))
    chosen = given if len(given) == len(ids) else {**assign(plan, world), **given}
    rehearsal = Rehearsal(plan, world)
    stopped: set[int] = set()
    unchecked: list[int] = []
    for step in rehearsal.order():
        if nx.ancestors(rehearsal.graph, step.id) & stopped:
            unchecked.append(step.id)
            stopped.add(step.id)
            problems += _hazards(watch, rehearsal, step, chosen[step.id], lifted)
            continue
        found = _hazards(watch, rehearsal, step, chosen[step.id], lifted)
        found += rehearsal.problems(step, chosen[step.id])
        if found:
            problems += [_with_alternatives(rehearsal, step, chosen[step.id], p) for p in found]
            stopped.add(step.id)
        else:
            rehearsal.perform(step, chosen[step.id])
    for assumption in rehearsal.assumptions:
        log.debug("step %d assumes: %s", assumption.step, assumption.reason)
    report = ValidationReport(
        ok=not problems,
        problems=problems,
        assignments={step.id: chosen[step.id] for step in plan.steps},
    )
    return DryRun(
        report=report,
        assumptions=tuple(rehearsal.assumptions),
        requests=dict(rehearsal.requests),
        unchecked=tuple(unchecked),
        beliefs=dict(rehearsal.beliefs),
    )


def _with_alternatives(
    rehearsal: Rehearsal, step: PlanStep, agent: str, problem: StepProblem
) -> StepProblem:
    """``problem`` of a robot step, saying which other robots could do it or why not."""
    if not problem.code.startswith("precondition:"):
        return problem
    others = {robot: rehearsal.problems(step, robot) for robot in rehearsal.world.robots}
    able = [robot for robot, found in others.items() if robot != agent and not found]
    if able:
        note = f"{' or '.join(able)} could do it"
    else:
        why = [
            f"{robot}: {found[0].code.removeprefix('precondition:')}"
            for robot, found in others.items()
            if robot != agent and found
        ]
        if not why:
            return problem
        note = f"no other robot can ({'; '.join(why)})"
    return problem.model_copy(update={"reason": f"{problem.reason}; {note}"})


def dry_run(
    plan: ToAPlan,
    world: PlanWorld,
    *,
    assignments: Mapping[int, str] | None = None,
    rules: HazardRules | None = None,
    said: Iterable[str] = (),
    earlier: Iterable[str] = (),
    lifted: Collection[str] = (),
    speaker: str | None = None,
    offered: bool = False,
) -> ValidationReport:
    """The verdict of :func:`rehearse`: ok only when no step has a problem or hazard."""
    return rehearse(
        plan,
        world,
        assignments=assignments,
        rules=rules,
        said=said,
        earlier=earlier,
        lifted=lifted,
        speaker=speaker,
        offered=offered,
    ).report


def oracle_plan(steps: Sequence[Mapping[str, Any]], rationale: str = "") -> ToAPlan:
    """A scenario's flat oracle steps as a plan (source ``oracle``).

    A flat step is a skill call written flat, ``{skill: PICK, object: mug, hand: right}``,
    with an optional ``robot`` (the assignee), or ``{skill: DELEGATE, person, ability}``
    (assigned to the person), or ``{skill: LOOK}``. Steps are numbered from 1. A step runs
    after the one before it unless it says ``after``: the numbers of the steps it waits for
    (``after: []``: none, so steps of other agents may run at the same time). Raises
    :class:`~skills.planning.plan_model.PlanError` naming the step for a malformed one.
    """
    built = []
    for number, flat in enumerate(steps, start=1):
        if not isinstance(flat, Mapping) or not isinstance(flat.get("skill"), str):
            raise PlanError(f"oracle step {number} ({flat!r}) needs a `skill` name")
        args = {key: value for key, value in flat.items() if key not in ORACLE_KEYS}
        assignee = flat.get("robot")
        if flat["skill"] == DELEGATE and assignee is None:
            assignee = args.get("person")
        before = flat.get("after", [number - 1] if number > 1 else [])
        try:
            built.append(
                PlanStep.model_validate(
                    {
                        "id": number,
                        "action": flat["skill"],
                        "args": args,
                        "assignee": assignee,
                        "depends_on": before,
                    }
                )
            )
        except ValidationError as error:
            raise PlanError(
                f"oracle step {number} ({dict(flat)}): {first_problem(error)}"
            ) from error
    try:
        return ToAPlan(steps=built, rationale=rationale, source="oracle")
    except ValidationError as error:
        raise PlanError(f"oracle plan: {first_problem(error)}") from error
