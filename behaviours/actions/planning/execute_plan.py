"""``ExecutePlan``: compile the validated plan into a subtree at run time, run it, reflect.

**Compiling.** The plan's dependency graph (:func:`~skills.planning.plan_model.plan_graph`) is cut
into series-parallel blocks by :func:`skills.planning.plan_blocks.decompose` (see there how): a
:class:`~skills.planning.plan_blocks.Together` block runs in a ``Parallel`` (policy SuccessOnAll), a
:class:`~skills.planning.plan_blocks.Series` in a ``Sequence``.

**Leaves.** A robot skill runs as :class:`~behaviours.actions.planning.skill_action.SkillAction` on
its robot, LOOK as :class:`~behaviours.actions.planning.look_around.LookAround`, and DELEGATE (or a
robot skill assigned to a person) as
:class:`~behaviours.actions.dialogue.delegate.DelegateToHuman`. Each leaf sits under a
:class:`ReflectedStep`, which, once the leaf ends, reads the belief (on the ``workers``
worker) to record whether the step achieved its intended effect
(:mod:`skills.execution.reflection`).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator, Mapping
from typing import Any

import py_trees
from py_trees.common import ParallelPolicy, Status

from cogtree.behaviours import keys
from cogtree.behaviours.actions.dialogue.delegate import DelegateToHuman
from cogtree.behaviours.actions.planning.look_around import LookAround
from cogtree.behaviours.actions.planning.skill_action import SkillAction
from cogtree.behaviours.background import InFlight
from cogtree.behaviours.keys import update_last_attempt
from cogtree.behaviours.setup_handles import require_handle
from cogtree.behaviours.staged_children import StagedChildren
from cogtree.knowledge.scene.scene_graph import SceneGraph
from cogtree.knowledge.worker_pool import WorkerPool
from cogtree.skills.execution.reflection import needs_belief, reflect
from cogtree.skills.planning.plan_blocks import Block, Series, Step, Together, decompose, label
from cogtree.skills.planning.plan_model import (
    DELEGATE,
    LOOK,
    PlanError,
    PlanStep,
    Reflection,
    ToAPlan,
    ValidationReport,
    plan_graph,
)

TERMINAL = (Status.SUCCESS, Status.FAILURE)

# -- the reflecting wrapper of each step -------------------------------------------------------


class ReflectedStep(py_trees.decorators.Decorator):
    """Run one plan step's node, then record whether the step achieved its intended effect.

    The leaf is ticked until it ends; then the belief check runs on the ``workers`` pool
    (RUNNING meanwhile, so the next step does not change the belief first), the
    :class:`~skills.planning.plan_model.Reflection` goes to ``record``, and this node ends with the
    leaf's status and message. Interrupted, it stops the leaf (which cancels its work).
    """

    def __init__(
        self,
        step: PlanStep,
        agent: str,
        child: py_trees.behaviour.Behaviour,
        *,
        scene: SceneGraph,
        workers: WorkerPool,
        record: Callable[[Reflection], None],
        by_person: bool,
    ) -> None:
        super().__init__(name=f"step {step.id}", child=child)
        self.step = step
        self.agent = agent
        self.scene = scene
        self.workers = workers
        self.record = record
        self.by_person = by_person
        self._result: Status | None = None
        self._checking: InFlight[Reflection] | None = None

    def initialise(self) -> None:
        """Forget the last run."""
        self._result, self._checking = None, None

    def tick(self) -> Iterator[py_trees.behaviour.Behaviour]:
        """Tick the leaf until it ends (never again after that), then wait for the check."""
        if self.status != Status.RUNNING:
            self.initialise()
        if self._result is None:
            yield from self.decorated.tick()
            if self.decorated.status in TERMINAL:
                self._result = self.decorated.status
                self._start_check()
        new_status = self.update()
        if new_status != Status.RUNNING:
            self.stop(new_status)
        self.status = new_status
        yield self

    def update(self) -> Status:
        """RUNNING until the leaf ended and its reflection is recorded; then the leaf's status."""
        if self._result is None:
            self.feedback_message = self.decorated.feedback_message
            return Status.RUNNING
        if self._checking is not None:
            if not self._checking.ended():
                self.feedback_message = f"checking the belief: did step {self.step.id} work?"
                return Status.RUNNING
            self.record(self._reflection(self._checking))
            self._checking = None
        self.feedback_message = self.decorated.feedback_message
        return self._result

    def terminate(self, new_status: Status) -> None:
        """Drop a belief check still waiting when interrupted."""
        if new_status == Status.INVALID and self._checking is not None:
            self._checking.cancel()
            self._checking = None

    def _start_check(self) -> None:
        check = functools.partial(
            reflect,
            self.step,
            self.agent,
            self.scene,
            succeeded=self._result == Status.SUCCESS,
            report=self.decorated.feedback_message,
            by_person=self.by_person,
        )
        if needs_belief(self.step, by_person=self.by_person):
            self._checking = InFlight(self.workers.submit(check), poll_next_tick=False)
        else:
            self.record(check())

    def _reflection(self, checking: InFlight[Reflection]) -> Reflection:
        try:
            return checking.result()
        except Exception as error:  # a belief the check cannot read
            observed = f"could not read the belief: {type(error).__name__}: {error}"
            return Reflection(step=self.step.id, achieved=False, observed=observed)


# -- the behaviour -----------------------------------------------------------------------------


class ExecutePlan(keys.DeclaredKeys, py_trees.composites.Sequence):
    """Run ``/plan/current`` as a subtree compiled at initialise (see the module docs).

    Handles: ``scene_graph`` (the belief: reflections, and who is a person), ``workers``
    (reflections and the steps' setup run there), and whatever
    the compiled leaves need, passed on to them when they are built: ``executor`` for robot
    skills and LOOK, ``people`` (a :class:`~skills.execution.human_channel.HumanChannel`) and
    optionally
    ``clock`` for delegations.

    Reads ``/plan/current`` and ``/plan/validation`` (the plan must have passed; its
    assignments say who does each step: a step without one goes to its suggested assignee,
    else to ``robot``). Writes ``/plan/reflections`` (one per finished step, from empty),
    ``/skill/outcome`` (unset at the start; each SkillAction writes its own) and, when the last
    of ``/plan/attempts`` is for this plan, its outcome, failure and reflections.

    The leaves are built at initialise and set up (a SkillAction builds its HTN planner, tens
    of milliseconds) on the ``workers`` pool; they become this node's children once set
    up, so no tick waits for them.

    SUCCESS: every step succeeded. FAILURE: a step failed (the feedback message names the
    step and why; ``/skill/outcome`` has the details of a failed skill), or there is no valid
    plan to run. RUNNING: preparing the steps, or steps are running. Interrupted, the running
    steps cancel their work.
    """

    reads = (keys.PLAN, keys.VALIDATION)
    writes = (keys.REFLECTIONS, keys.ATTEMPTS, keys.SKILL_OUTCOME)

    def __init__(
        self,
        name: str = "ExecutePlan",
        *,
        robot: str = "robot1",
        delegation_timeout_s: float = 300.0,
    ) -> None:
        super().__init__(name, memory=True)
        self.robot = robot
        self.delegation_timeout_s = delegation_timeout_s
        self.scene: SceneGraph | None = None
        self.workers: WorkerPool | None = None
        self.handles: dict[str, Any] = {}
        self.steps: dict[str, PlanStep] = {}
        self._plan: ToAPlan | None = None
        self._problem: str | None = None
        self._lifted: tuple[str, ...] = ()
        self.staging = StagedChildren(self, "the steps")
        self._reflections: list[Reflection] = []
        self.plan_key = self.key_of(keys.PLAN)
        self.validation_key = self.key_of(keys.VALIDATION)
        self.reflections_key = self.key_of(keys.REFLECTIONS)
        self.outcome_key = self.key_of(keys.SKILL_OUTCOME)

    def setup(self, **kwargs: Any) -> None:
        """Take the ``scene_graph`` handle; keep every handle for the leaves built later."""
        self.scene = require_handle(self, kwargs, "scene_graph", SceneGraph)
        self.workers = require_handle(self, kwargs, "workers", WorkerPool)
        self.handles = dict(kwargs)

    def initialise(self) -> None:
        """Compile the plan into steps and start setting them up (see the class docs)."""
        if self.scene is None or self.workers is None:
            raise RuntimeError(f"{self.name}: setup(scene_graph=, workers=, ...) was not called")
        self.staging.clear()
        self.steps, self._plan, self._problem = {}, None, None
        self._reflections = []
        self.blackboard.set(self.reflections_key, [])
        self.blackboard.unset(self.outcome_key)
        try:
            plan, assignments = self._validated_plan()
            self._plan = plan
            block = decompose(plan_graph(plan), assignments)
            staged = self._build(block, plan, assignments) if block is not None else []
        except (PlanError, LookupError, ValueError) as error:
            self._problem = str(error)
            return
        self.staging.replace(staged, self.handles, self.workers.submit)

    def tick(self) -> Iterator[py_trees.behaviour.Behaviour]:
        """Prepare the steps, then tick them; say how it went after every tick."""
        if self.status != Status.RUNNING:
            self.initialise()
        if self.staging.staged:
            if self.staging.preparing:
                self.status = Status.RUNNING
                self.feedback_message = f"preparing {len(self.steps)} steps"
                yield self
                return
            self._problem = self.staging.adopt()
        if self._problem is not None:
            self.stop(Status.FAILURE)
            self._conclude()
            yield self
            return
        self.status = Status.RUNNING  # prepared: the sequence goes on from its current child
        for node in super().tick():
            if node is self:
                self._conclude()
            yield node

    def terminate(self, new_status: Status) -> None:
        """Drop steps still being prepared when interrupted."""
        if new_status == Status.INVALID:
            self.staging.cancel()

    # -- compiling -----------------------------------------------------------------------------

    def _validated_plan(self) -> tuple[ToAPlan, dict[int, str]]:
        plan = keys.read_optional(self.blackboard, self.plan_key, ToAPlan)
        if plan is None:
            raise LookupError("no plan to run: /plan/current is not set (run PlanTask first)")
        report = keys.read_optional(self.blackboard, self.validation_key, ValidationReport)
        if report is None:
            raise LookupError(
                "the plan was not validated: /plan/validation is not set (run ValidationGate "
                "before ExecutePlan)"
            )
        if not report.ok:
            raise ValueError(f"the plan failed validation, so it is not run: {report.diagnosis()}")
        ids = {step.id for step in plan.steps}
        stale = sorted(set(report.assignments) - ids)
        if stale:
            raise ValueError(
                f"/plan/validation is for another plan: it assigns steps {stale} that "
                f"/plan/current does not have (validate the current plan again)"
            )
        self._lifted = tuple(report.lifted)
        return plan, {step.id: self._agent(step, report.assignments) for step in plan.steps}

    def _agent(self, step: PlanStep, assignments: Mapping[int, str]) -> str:
        if step.action == DELEGATE and step.args.get("person"):
            return str(step.args["person"])
        return assignments.get(step.id) or step.assignee or self.robot

    def _build(
        self, block: Block, plan: ToAPlan, agents: Mapping[int, str]
    ) -> list[py_trees.behaviour.Behaviour]:
        """The children of this node: the parts of a top-level series, else the one block."""
        people = self._people(plan, agents)
        parts = block.parts if isinstance(block, Series) and block.exact else (block,)
        return [self._node(part, plan, agents, people) for part in parts]

    def _people(self, plan: ToAPlan, agents: Mapping[int, str]) -> frozenset[str]:
        """The agents that are people: DELEGATE's persons, and other agents the belief knows.

        Each other agent is looked up in the scene index (what it costs does not grow with
        the people the belief holds).
        """
        named = {agents[step.id] for step in plan.steps if step.action == DELEGATE}
        others = {agents[s.id] for s in plan.steps if s.action != DELEGATE} - {self.robot}
        if not others:
            return frozenset(named)
        assert self.scene is not None
        nodes = {agent: self.scene.index.node(agent) for agent in others}
        known = {agent for agent, node in nodes.items() if node and "Human" in node.classes}
        return frozenset(named | known)

    def _node(
        self, block: Block, plan: ToAPlan, agents: Mapping[int, str], people: frozenset[str]
    ) -> py_trees.behaviour.Behaviour:
        if isinstance(block, Step):
            return self._step_node(plan.step(block.id), agents[block.id], people)
        children = [self._node(part, plan, agents, people) for part in block.parts]
        if isinstance(block, Together):
            return py_trees.composites.Parallel(
                f"together {label(block)}",
                policy=ParallelPolicy.SuccessOnAll(synchronise=True),
                children=children,
            )
        kind = "steps" if block.exact else "one by one"
        return py_trees.composites.Sequence(
            f"{kind} {label(block)}", memory=True, children=children
        )

    def _step_node(self, step: PlanStep, agent: str, people: frozenset[str]) -> ReflectedStep:
        name = f"{step.id}:{step.action}"
        by_person = agent in people
        leaf: py_trees.behaviour.Behaviour
        if step.action == DELEGATE:
            ability = step.args.get("ability")
            if not ability:
                raise PlanError(f"step {step.id}: DELEGATE needs an ability (args: {step.args})")
            description = str(step.args.get("description") or step.thought)
            leaf = DelegateToHuman(
                name, agent, str(ability), description, timeout_s=self.delegation_timeout_s
            )
        elif by_person:
            leaf = DelegateToHuman(
                name,
                agent,
                step.action.lower(),
                step.describe(),
                timeout_s=self.delegation_timeout_s,
            )
        elif step.action == LOOK:
            leaf = LookAround(name, robot=agent)
        else:
            leaf = SkillAction(name, step.skill_call(), robot=agent, lifted=self._lifted)
        self.steps[name] = step
        assert self.scene is not None and self.workers is not None
        return ReflectedStep(
            step,
            agent,
            leaf,
            scene=self.scene,
            workers=self.workers,
            record=self._record,
            by_person=by_person,
        )

    # -- reporting -----------------------------------------------------------------------------

    def _record(self, reflection: Reflection) -> None:
        self._reflections.append(reflection)
        self.blackboard.set(self.reflections_key, list(self._reflections))

    def _conclude(self) -> None:
        if self._problem is not None:
            self.feedback_message = self._problem
        elif self.status == Status.RUNNING:
            running = [step for step in self._steps() if step.status == Status.RUNNING]
            self.feedback_message = "; ".join(
                f"{step.decorated.name}: {step.feedback_message}" for step in running
            )
        elif self.status == Status.FAILURE:
            failed = [step for step in self._steps() if step.status == Status.FAILURE]
            self.feedback_message = "; ".join(
                f"step {step.decorated.name} failed: {step.feedback_message}" for step in failed
            )
        elif self.status == Status.SUCCESS:
            count = len(self.steps)
            self.feedback_message = f"all {count} steps done" if count else "nothing to do"
        if self.status in TERMINAL:
            self._update_attempt()

    def _steps(self) -> list[ReflectedStep]:
        return [node for node in self.iterate() if isinstance(node, ReflectedStep)]

    def _update_attempt(self) -> None:
        succeeded = self.status == Status.SUCCESS
        update = {
            "outcome": "succeeded" if succeeded else "failed",
            "failure": "" if succeeded else self.feedback_message,
            "reflections": list(self._reflections),
        }
        update_last_attempt(
            self.blackboard,
            lambda last: last.model_copy(update=update) if last.plan == self._plan else None,
        )
