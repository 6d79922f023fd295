"""Who does each step of a plan: the team, what each member can do, and the assignment rule.

:class:`PlanWorld` is the team as the planner sees it: one
:class:`~skills.action_model.belief.Belief` per robot and the people (where they are, whether they
are available, their abilities).
:class:`Rehearsal` plays a plan forward on copies of those beliefs without moving anything:
:meth:`Rehearsal.problems` says why an agent cannot do a step now (each problem with a code),
:meth:`Rehearsal.perform` applies the step's effect. :func:`assign` uses it to give every step
to an agent (InteractGen's assigner) and :func:`robot_subtask_rate` measures how much of a plan
the robots do.

The assignment rule, step by step in dependency order:

- A step whose assignee is not on the team (a robot this controller cannot command, or a
  name nobody has) stays with it, and the dry run rejects it (``unknown_agent``): moving
  ``GOTO(reception) by base1`` to another robot would not move base1.
- ``DELEGATE`` goes to the person it names.
- ``LOOK`` goes to its assignee if that is a robot, else to the robot of the step it depends
  on, else to the first robot of the team.
- A robot skill goes to its assignee when the assignee can do it; else to the first robot
  that can (its profile has the skill and the skill's preconditions hold on its belief as the
  plan will have left it). Robots are tried in this order: the robot of the step it depends
  on (a chain stays with one robot), then the robots whose skills cover the rest of the
  chain, then the team in order. When no robot can, it goes to an available person with an
  ability named like the skill (``pick`` or ``pick_up`` for ``PICK``), which turns the step
  into a request to them (:attr:`Rehearsal.requests`). When nobody can, it stays with its
  assignee (or the robot first in that order) and the dry run reports why.

Some results are not known in advance, and the rehearsal does not guess them:

- What a person does: after a ``DELEGATE`` step (or a robot skill done by a person) the
  objects that person holds, and the known objects the step names (its ``object``, ids in
  its ``description``), may be anywhere, e.g. a printout lands on the printer tray by an
  event.
- What a ``LOOK`` reveals: an object the belief does not know yet may be seen, and a known
  object may be seen somewhere else than the belief says (a plan looks because the belief
  was wrong: the keys were not on the hall table).

A later robot step that depends on such a step (directly or through others) and names such
an object as its ``object`` is checked as if the object rests, at an unknown height, in the
robot's room when the step starts: its placement, room and reach are assumed, everything else
(the skill, the hands, a free hand, the payload when the mass is known) is checked. Each such
assumption is recorded (:class:`Assumption`) so execution can confirm it; if it is wrong, the
skill fails there and the plan is repaired. A step that does not depend on the person's step
or the ``LOOK`` gets no assumption: it cannot rely on a result it does not wait for, so an
unknown name is ``unknown_object`` and a person's object is where the belief puts it.
"""

from __future__ import annotations

import difflib
import logging
import re
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from cogtree.knowledge.scene.scene_graph import SceneGraph
from cogtree.knowledge.validation_errors import first_problem
from cogtree.skills.action_model.belief import Belief, Thing
from cogtree.skills.action_model.people import Person
from cogtree.skills.action_model.specs import NodeId
from cogtree.skills.capabilities.calls import SKILL_SPECS, SkillCall, check_preconditions, project
from cogtree.skills.planning.plan_model import (
    ACTION_NAMES,
    DELEGATE,
    LOOK,
    PlanError,
    PlanStep,
    StepProblem,
    ToAPlan,
)

if TYPE_CHECKING:  # networkx (0.15 s to import) is imported where a plan's graph is built:
    import networkx as nx  # a turn that plans nothing (`cogtree ask "where is ..."`) skips it

log = logging.getLogger(__name__)

AgentKind = Literal["robot", "person"]
"""What a member of the team is."""

NEAR_NAMES = 3
"""How many similar names an unknown-name problem suggests."""

LISTED_NAMES = 10
"""How many known names an unknown-name problem lists when none is similar."""


@dataclass(frozen=True)
class PlanWorld:
    """The team a plan is checked against: each robot's belief, and the people.

    ``beliefs`` maps robot ids to beliefs in team order (the first robot is tried first).
    """

    beliefs: Mapping[str, Belief]
    people: Mapping[str, Person]

    @classmethod
    def from_scene(cls, scene: SceneGraph, robots: Sequence[str] | None = None) -> PlanWorld:
        """The team of ``scene``: every robot (or ``robots``, in that order) and every person.

        Raises :class:`~skills.action_model.belief.BeliefError` for a robot the scene does not know.
        """
        team = list(robots) if robots is not None else [r.id for r in scene.robot_state()]
        beliefs = {robot: Belief.from_scene(scene, robot) for robot in team}
        people = next(iter(beliefs.values())).people if beliefs else {}
        return cls(beliefs=beliefs, people=people)

    @property
    def robots(self) -> tuple[str, ...]:
        """The robot ids in team order."""
        return tuple(self.beliefs)

    def kind_of(self, agent: str | None) -> AgentKind | None:
        """Whether ``agent`` is a robot or a person of the team; None when it is neither."""
        if agent in self.beliefs:
            return "robot"
        if agent in self.people:
            return "person"
        return None


class DelegateArgs(BaseModel):
    """The arguments of a ``DELEGATE`` step: who, which of their abilities, and about what."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    person: NodeId
    ability: str = Field(min_length=1, max_length=80)
    description: str = Field("", max_length=300, description="what to do, in words")
    object: NodeId | None = Field(None, description="the object the task is about, if any")


@dataclass(frozen=True)
class Assumption:
    """A fact step ``step`` relies on that only a person's earlier step ``after`` makes true."""

    step: int
    thing: str
    after: int
    reason: str


def dependency_graph(plan: ToAPlan) -> nx.DiGraph[int]:
    """The dependency graph (edge ``a -> b``: ``b`` depends on ``a``), tolerant of bad plans.

    Unlike :func:`skills.planning.plan_model.plan_graph` it never raises: dependencies on unknown
    steps or on the step itself are left out, and a cycle stays in the graph.
    """
    import networkx as nx

    graph: nx.DiGraph[int] = nx.DiGraph()
    ids = {step.id for step in plan.steps}
    graph.add_nodes_from(step.id for step in plan.steps)
    graph.add_edges_from(
        (before, step.id)
        for step in plan.steps
        for before in step.depends_on
        if before in ids and before != step.id
    )
    return graph


def step_order(plan: ToAPlan, graph: nx.DiGraph[int]) -> list[PlanStep]:
    """The steps in dependency order, ties in plan order; plan order when there is a cycle."""
    import networkx as nx

    if not nx.is_directed_acyclic_graph(graph):
        return list(plan.steps)
    position = {step.id: index for index, step in enumerate(plan.steps)}
    return [
        plan.step(step_id)
        for step_id in nx.lexicographical_topological_sort(graph, key=position.__getitem__)
    ]


def near_names(name: str, known: Iterable[str], what: str) -> str:
    """``did you mean mug_1?`` or, without a similar name, the known ones (``mugs: ...``)."""
    names = sorted(set(known))
    close = difflib.get_close_matches(name, names, n=NEAR_NAMES, cutoff=0.6)
    if close:
        return f"did you mean {' or '.join(close)}?"
    if not names:
        return f"there are no {what}"
    more = " ..." if len(names) > LISTED_NAMES else ""
    return f"known {what}: {', '.join(names[:LISTED_NAMES])}{more}"


class Rehearsal:
    """A plan played forward on copies of the team's beliefs; nothing moves.

    Check a step with :meth:`problems`, then apply it with :meth:`perform` (only when it has
    no problems). The beliefs after the performed steps are in :attr:`beliefs`, the steps
    given to a person as a request in :attr:`requests`, what was assumed about people's
    results in :attr:`assumptions`.
    """

    def __init__(self, plan: ToAPlan, world: PlanWorld) -> None:
        self.plan = plan
        self.world = world
        self.graph = dependency_graph(plan)
        self.beliefs: dict[str, Belief] = dict(world.beliefs)
        self.agents: dict[int, str] = {}
        self.requests: dict[int, str] = {}
        self.assumptions: list[Assumption] = []
        self._results: dict[str, int] = {}
        self._looks: set[int] = set()

    def order(self) -> list[PlanStep]:
        """The plan's steps in the order the rehearsal takes them."""
        return step_order(self.plan, self.graph)

    # -- checking ------------------------------------------------------------------------------

    def problems(self, step: PlanStep, agent: str) -> list[StepProblem]:
        """Why ``agent`` cannot do ``step`` now (empty: it can), the first problem found."""
        found = self._argument_problems(step)
        if found is None:
            found = self._agent_problem(step, agent)
        return [] if found is None else [found]

    def _argument_problems(self, step: PlanStep) -> StepProblem | None:
        """Unknown action, malformed arguments, or names the beliefs do not know."""
        if step.action not in ACTION_NAMES:
            return _problem(
                step,
                "unknown_action",
                f"{step.action!r} is not an action; use one of {', '.join(ACTION_NAMES)}",
            )
        if step.action == LOOK:
            if step.args:
                return _problem(step, "bad_arguments", "LOOK takes no arguments")
            return None
        if step.action == DELEGATE:
            args = _delegate_args(step)
            if isinstance(args, StepProblem):
                return args
            if args.person not in self.world.people:
                return self._unknown_person(step, args.person)
            return self._unknown_thing(step, "object", args.object)
        try:
            call = step.skill_call()
        except PlanError as error:
            return _problem(step, "bad_arguments", str(error))
        for key in ("target", "object", "container", "person"):
            name = getattr(call.args, key, None)
            if name is None:
                continue
            if key == "person":
                if name not in self.world.people and not self._anyone_knows_person(name):
                    return self._unknown_person(step, name)
            elif (found := self._unknown_thing(step, key, name)) is not None:
                return found
        return None

    def _agent_problem(self, step: PlanStep, agent: str) -> StepProblem | None:
        """Why ``agent`` cannot take a well-formed ``step``; None when it can."""
        kind = self.world.kind_of(agent)
        if kind is None:
            team = [*self.world.robots, *self.world.people]
            what = f"{agent!r} is" if agent else "nobody is"
            return _problem(
                step,
                "unknown_agent",
                f"{what} assigned, but the team is {', '.join(team) or 'empty'}",
            )
        if step.action == DELEGATE:
            return self._delegate_problem(step, agent)
        if step.action == LOOK:
            if kind == "person":
                return _problem(step, "cannot_do", f"{agent} is a person; LOOK is for a robot")
            return None
        call = step.skill_call()
        if kind == "person":
            return self._request_problem(step, call, self.world.people[agent])
        report = check_preconditions(call, self._view(step, agent)[0])
        failed = report.failure
        if failed is None:
            return None
        return _problem(
            step, f"precondition:{failed.code or failed.name}", f"{agent}: {report.message}"
        )

    def _delegate_problem(self, step: PlanStep, agent: str) -> StepProblem | None:
        args = DelegateArgs.model_validate(step.args)
        person = self.world.people[args.person]
        if agent != person.id:
            return _problem(
                step, "cannot_do", f"DELEGATE asks {person.id}; it cannot be given to {agent}"
            )
        if not person.can_be_asked:
            return _problem(step, "not_available", f"{person.id} is {person.availability}")
        if args.ability not in person.abilities:
            known = ", ".join(sorted(person.abilities)) or "none"
            return _problem(
                step,
                "no_ability",
                f"{person.id} cannot {args.ability} (abilities: {known}); ask someone who can",
            )
        return None

    def _request_problem(
        self, step: PlanStep, call: SkillCall, person: Person
    ) -> StepProblem | None:
        if not person.is_available:
            return _problem(step, "not_available", f"{person.id} is {person.availability}")
        if person.ability_for(call.skill) is None:
            known = ", ".join(sorted(person.abilities)) or "none"
            return _problem(
                step,
                "cannot_do",
                f"{person.id} is a person with no ability like {call.skill} (abilities: "
                f"{known}); give {call} to a robot that has {call.skill}",
            )
        return None

    def _unknown_person(self, step: PlanStep, name: str) -> StepProblem:
        return _problem(
            step,
            "unknown_person",
            f"{step.action} names {name}, who is not a person of the team; "
            + near_names(name, self.world.people, "people"),
        )

    def _unknown_thing(self, step: PlanStep, key: str, name: str | None) -> StepProblem | None:
        """``unknown_object`` when no belief knows ``name`` (the ``key`` argument)."""
        belief = next(iter(self.beliefs.values()), None)
        if name is None or belief is None or belief.kind_of(name) is not None:
            return None
        if name in self.beliefs or (key == "object" and self._look_before(step) is not None):
            return None
        known: Iterable[str] = {
            "object": [t.id for t in belief.things.values() if t.kind == "object"],
            "container": [t.id for t in belief.things.values() if t.kind == "container"],
        }.get(key, [*belief.rooms, *belief.things, *belief.people])
        return _problem(
            step,
            "unknown_object",
            f"{step.action} names {name} ({key}), which is not in the belief; "
            + near_names(name, known, f"{key}s" if key != "target" else "places"),
        )

    def _anyone_knows_person(self, name: str) -> bool:
        return any(name in belief.people for belief in self.beliefs.values())

    # -- applying ------------------------------------------------------------------------------

    def perform(self, step: PlanStep, agent: str) -> None:
        """Apply ``step`` done by ``agent`` (it must have no :meth:`problems`)."""
        self.agents[step.id] = agent
        if step.action == LOOK:
            self._looks.add(step.id)
            return
        if step.action == DELEGATE:
            args = DelegateArgs.model_validate(step.args)
            named = [args.object] if args.object else []
            self._expect_results(step, agent, [*named, *self._mentioned(args.description)])
            return
        call = step.skill_call()
        if self.world.kind_of(agent) == "person":
            ability = self.world.people[agent].ability_for(call.skill) or call.skill.lower()
            self.requests[step.id] = ability
            log.info("step %d (%s) becomes a request to %s: %s", step.id, call, agent, ability)
            handled: str | None = getattr(call.args, "object", None)
            self._expect_results(step, agent, [handled] if handled is not None else [])
            return
        view, assumed = self._view(step, agent)
        after = project(call, view)
        changed = {t: thing for t, thing in after.things.items() if view.things.get(t) != thing}
        before = self.beliefs[agent].things
        kept = {t: before[t] for t in assumed if t not in changed and t in before}
        self.beliefs[agent] = replace(after, things={**after.things, **kept})
        for robot, belief in self.beliefs.items():
            if robot != agent:
                self.beliefs[robot] = replace(belief, things={**belief.things, **changed})
        for thing, source in assumed.items():
            found = f"found by the LOOK of step {source}" if source in self._looks else ""
            self.assumptions.append(
                Assumption(
                    step=step.id,
                    thing=thing,
                    after=source,
                    reason=f"{thing} is assumed {found or f'left by step {source}'} within "
                    f"{agent}'s reach in {view.robot_room}; its place is not checked",
                )
            )
        for thing in changed:
            self._results.pop(thing, None)

    def _view(self, step: PlanStep, robot: str) -> tuple[Belief, dict[str, int]]:
        """``robot``'s belief for ``step``, the object whose place is unknown assumed near.

        Returns the belief and the assumed object with the step it comes from (see the
        module docs); the belief itself when nothing is assumed.
        """
        import networkx as nx

        belief = self.beliefs[robot]
        name = step.args.get("object")
        if not isinstance(name, str):
            return belief, {}
        known = belief.things.get(name)
        if known is None:
            source = self._look_before(step)
            known = Thing(id=name, kind="object", room="")
        else:
            source = self._results.get(name)
            if source not in nx.ancestors(self.graph, step.id):
                source = None
            if source is None and step.action == "PICK" and known.relation != "heldBy":
                source = self._look_before(step)  # the LOOK may have found it elsewhere
        if source is None:
            return belief, {}
        near = replace(known, relation="on", support=None, room=belief.robot_room or "")
        return replace(belief, things={**belief.things, name: near}), {name: source}

    def _look_before(self, step: PlanStep) -> int | None:
        """The latest ``LOOK`` already rehearsed that ``step`` depends on, if any."""
        import networkx as nx

        looks = nx.ancestors(self.graph, step.id) & self._looks
        position = {s.id: index for index, s in enumerate(self.plan.steps)}
        return max(looks, key=position.__getitem__) if looks else None

    def _expect_results(self, step: PlanStep, person: str, named: Iterable[str]) -> None:
        """Mark what ``person`` holds, and the known objects ``named``, as made by ``step``."""
        belief = next(iter(self.beliefs.values()), None)
        if belief is None:
            return
        held = [t.id for t in belief.things.values() if t.support == person]
        for thing in [*held, *named]:
            if thing in belief.things and not belief.things[thing].is_furniture:
                self._results[thing] = step.id

    def _mentioned(self, text: str) -> list[str]:
        """The object ids a description names (``print the agenda`` names ``agenda``)."""
        belief = next(iter(self.beliefs.values()), None)
        words = set(re.findall(r"[A-Za-z0-9_]+", text))
        return [] if belief is None else sorted(words & set(belief.things))

    # -- choosing ------------------------------------------------------------------------------

    def choose(self, step: PlanStep) -> str:
        """The agent the assignment rule (module docs) gives ``step`` to, in the current state."""
        if step.action == DELEGATE:
            person = step.args.get("person")
            return person if isinstance(person, str) else self._fallback(step)
        if step.assignee is not None and self.world.kind_of(step.assignee) is None:
            return step.assignee  # not on the team: the dry run says so; never someone else
        if step.action == LOOK:
            if step.assignee is not None and self.world.kind_of(step.assignee) == "robot":
                return step.assignee
            return self._predecessor_robot(step) or self._fallback(step)
        for agent in self._candidates(step):
            if not self.problems(step, agent):
                return agent
        return self._fallback(step)

    def _candidates(self, step: PlanStep) -> list[str]:
        """Who may do a robot step, in the order the assignment rule tries them."""
        first = [step.assignee] if step.assignee is not None else []
        before = self._predecessor_robot(step)
        chain = [before] if before is not None else []
        needed = self._chain_skills(step)
        covering = [r for r in self.world.robots if needed <= self.beliefs[r].robot.skills]
        robots = [*first, *chain, *covering, *self.world.robots]
        people = [p.id for p in self.world.people.values() if p.is_available]
        return list(dict.fromkeys([*robots, *people]))

    def _predecessor_robot(self, step: PlanStep) -> str | None:
        """The robot of the latest step ``step`` depends on that a robot does."""
        position = {s.id: index for index, s in enumerate(self.plan.steps)}
        robots = [
            (position[before], self.agents[before])
            for before in self.graph.predecessors(step.id)
            if self.world.kind_of(self.agents.get(before)) == "robot"
        ]
        return max(robots)[1] if robots else None

    def _chain_skills(self, step: PlanStep) -> set[str]:
        """The robot skills of ``step`` and of the unassigned robot steps after it."""
        import networkx as nx

        later = [self.plan.step(s) for s in nx.descendants(self.graph, step.id)]
        return {
            s.action
            for s in [step, *later]
            if s.action in SKILL_SPECS and (s is step or s.assignee is None)
        }

    def _fallback(self, step: PlanStep) -> str:
        """Who keeps a step nobody can do: its assignee, else the robot first in line for it."""
        if step.assignee is not None:
            return step.assignee
        if step.action in SKILL_SPECS:
            robots = [a for a in self._candidates(step) if self.world.kind_of(a) == "robot"]
        else:
            robots = list(self.world.robots)
        return robots[0] if robots else ""


def _delegate_args(step: PlanStep) -> DelegateArgs | StepProblem:
    try:
        return DelegateArgs.model_validate(step.args)
    except ValidationError as error:
        return _problem(
            step,
            "bad_arguments",
            f"DELEGATE: {first_problem(error)}; it takes person, ability, and optionally "
            "description and object",
        )


def _problem(step: PlanStep, code: str, reason: str) -> StepProblem:
    return StepProblem(step=step.id, code=code, reason=reason)


def assign(plan: ToAPlan, world: PlanWorld) -> dict[int, str]:
    """Step id -> the robot or person who should do it, by the rule in the module docs.

    Never raises: a step nobody can do keeps its assignee (or the first robot), and
    :func:`skills.planning.plan_validation.dry_run` says why.
    """
    rehearsal = Rehearsal(plan, world)
    chosen: dict[int, str] = {}
    for step in rehearsal.order():
        agent = chosen[step.id] = rehearsal.choose(step)
        if not rehearsal.problems(step, agent):
            rehearsal.perform(step, agent)
    return chosen


def robot_subtask_rate(
    plan: ToAPlan, assignments: Mapping[int, str], robots: Collection[str] | None = None
) -> float:
    """The share of steps robots do (InteractGen's RSR), 0.0 for an empty plan.

    A step's agent is its assignment, else its assignee. With ``robots`` (the team's robot
    ids, e.g. ``PlanWorld.robots``) a step counts when its agent is one of them; without,
    every step but ``DELEGATE`` counts.
    """
    if not plan.steps:
        return 0.0

    def by_robot(step: PlanStep) -> bool:
        if robots is None:
            return step.action != DELEGATE
        return assignments.get(step.id, step.assignee) in robots

    return sum(by_robot(step) for step in plan.steps) / len(plan.steps)
