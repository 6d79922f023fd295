"""One skill driven by polling: plan it on a worker, then step its commands.

A behaviour's ``update()`` must never block, so :class:`SkillStepper` splits a skill into what
a tick can afford: :meth:`SkillStepper.start` sends the precondition check and the HTN
decomposition to the ``workers`` pool (a belief snapshot costs a few queries); each
:meth:`SkillStepper.step` then either finds the plan still being made, or advances the
controller's :class:`~skills.execution.controller.SkillRun` by at most one command.
"""

from __future__ import annotations

from collections.abc import Collection
from concurrent.futures import Future

from cogtree.knowledge.safety.hazard_rules import HazardRules, shipped_hazard_rules
from cogtree.knowledge.scene.scene_graph import SceneGraph
from cogtree.knowledge.worker_pool import WorkerPool
from cogtree.skills.action_model.belief import Belief, SupplementaryFacts
from cogtree.skills.action_model.commands import Command, Executor
from cogtree.skills.capabilities.calls import PreconditionReport, SkillCall
from cogtree.skills.execution.controller import RunStatus, SkillOutcome, SkillRun
from cogtree.skills.execution.failure_context import skill_context
from cogtree.skills.planning.decomposition import SkillDecomposer, SkillPlan
from cogtree.skills.safety.hazard_check import hazard_refusal


class SkillStepper:
    """Runs one skill call at a time for ``robot`` on ``scene`` through ``executor``.

    The planning runs on ``workers`` (the pool the tree's behaviours share). Before it, the
    hazard rules (``hazard_rules``, default the shipped ones) check the call on the belief of
    that moment: a hazard fails the skill like a precondition (code ``unsafe_object``, the
    rule's sentence as the reason) unless the user lifted it (see :meth:`start`).
    """

    def __init__(
        self,
        scene: SceneGraph,
        executor: Executor,
        *,
        workers: WorkerPool,
        robot: str = "robot1",
        facts: SupplementaryFacts | None = None,
        hazard_rules: HazardRules | None = None,
    ) -> None:
        self.scene = scene
        self.hazard_rules = hazard_rules
        self.executor = executor
        self.workers = workers
        self.robot = robot
        self.facts = facts
        self.decomposer = SkillDecomposer()
        self._call: SkillCall | None = None
        self._planning: Future[SkillPlan] | None = None
        self._run: SkillRun | None = None
        self._outcome: SkillOutcome | None = None

    @property
    def call(self) -> SkillCall | None:
        """The skill being run (None before :meth:`start`)."""
        return self._call

    @property
    def outcome(self) -> SkillOutcome | None:
        """How the skill ended; None while it runs."""
        return self._outcome

    @property
    def in_flight(self) -> Command | None:
        """The command the executor is running now, if any."""
        return self._run.in_flight if self._run is not None else None

    def start(self, call: SkillCall, *, lifted: Collection[str] = ()) -> None:
        """Begin ``call``: its hazards, preconditions and decomposition run on the worker.

        ``lifted``: the doubts of ask-first hazards the user confirmed (a validated plan's).
        """
        self._call = call
        self._run = None
        self._outcome = None
        self._planning = self.workers.submit(self._plan, call, tuple(lifted))

    def step(self) -> RunStatus:
        """Advance without blocking; RUNNING until :attr:`outcome` says how the skill ended."""
        if self._outcome is not None:
            return self._outcome.status
        if self._call is None or self._planning is None:
            raise RuntimeError("SkillStepper.step() before start(): give it a skill call first")
        if self._run is None:
            if not self._planning.done():
                return RunStatus.RUNNING
            try:
                plan = self._planning.result()
            except Exception as error:  # an unknown robot, a belief the planner cannot read
                self._outcome = SkillOutcome(
                    call=self._call,
                    status=RunStatus.FAILED,
                    message=f"cannot plan {self._call}: {error}",
                )
                return RunStatus.FAILED
            self._run = SkillRun(plan, self.executor)
        status = self._run.step()
        if status != RunStatus.RUNNING:
            self._outcome = self._run.outcome
        return status

    def cancel(self) -> bool:
        """Stop the skill (the command in flight, or the planning); True if something stopped."""
        if self._outcome is not None:
            return False
        if self._run is not None:
            self._run.cancel()
            self._outcome = self._run.outcome
            return True
        if self._planning is not None:
            self._planning.cancel()
            return True
        return False

    def _plan(self, call: SkillCall, lifted: tuple[str, ...]) -> SkillPlan:
        belief = Belief.from_scene(self.scene, self.robot, self.facts)
        context = dict(skill_context(call, belief))
        rules = self.hazard_rules or shipped_hazard_rules()
        refusal = hazard_refusal(rules, belief, call, lifted=lifted)
        if refusal is not None:
            return SkillPlan(
                call=call,
                preconditions=PreconditionReport(call=call, checks=(refusal,)),
                context=context,
            )
        plan = self.decomposer.decompose(call, belief)
        return plan.model_copy(update={"context": context})
