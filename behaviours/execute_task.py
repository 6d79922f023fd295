"""``ExecuteTask``: ground a complete physical request by the task-level HTN methods and run it.

The pack's plan template turns the task (``Bring(object=mug_anna, destination=anna)``) into a
task-level call (``bring(mug_anna, anna)``); :class:`~skills.tasks.TaskPlanner` decomposes it
into skills on the current belief, and the skills run one after the other through the
executor, each planned afresh on the belief its predecessors left. Planning runs on the scene
graph's worker and commands are polled, so no tick blocks. Open-ended requests and tasks with
people in the plan need the planner of the next release; this node says so instead of acting.
"""

from __future__ import annotations

from concurrent.futures import Future
from typing import Any

import py_trees
from py_trees.common import Access, Status
from pydantic import BaseModel

from behaviours import keys
from behaviours.setup_handles import require_handle
from behaviours.turn_state import EvidenceBundle, EvidenceItem
from knowledge.domain_pack import SPEAKER_ARGUMENT, PlanTemplate
from knowledge.domain_registry import DomainRegistry
from knowledge.scene_graph import SceneGraph
from skills.belief import Belief
from skills.commands import Executor
from skills.controller import RunStatus
from skills.specs import SkillArgumentError, SkillCall
from skills.stepping import SkillStepper
from skills.tasks import TaskCall, TaskPlan, TaskPlanner, task_call


class ExecuteTask(py_trees.behaviour.Behaviour):
    """Plan the Proceeded physical task with HTN and run its skills in the simulator or robot.

    Handles: ``domains``, ``scene_graph`` (the belief), ``executor``.
    Reads ``/turn/domain``, ``/turn/task``, ``/turn/speaker``. Writes ``/turn/evidence`` (one
    item, source ``plan``, saying what was done or why not) and ``/skill/outcome``.
    SUCCESS: every skill of the plan succeeded. FAILURE: the task has no plan template, the
    planner found no plan, or a skill failed; the evidence and the feedback say which.
    RUNNING: planning, or a skill is running. Interrupted, it cancels the skill in flight.
    """

    def __init__(self, name: str = "ExecuteTask", *, robot: str = "robot1") -> None:
        super().__init__(name)
        self.robot = robot
        self.planner = TaskPlanner()
        self.domains: DomainRegistry | None = None
        self.scene: SceneGraph | None = None
        self.stepper: SkillStepper | None = None
        self.blackboard = self.attach_blackboard_client(name=name)
        self.domain_key = keys.register(self.blackboard, keys.DOMAIN, Access.READ)
        self.task_key = keys.register(self.blackboard, keys.TASK, Access.READ)
        self.speaker_key = keys.register(self.blackboard, keys.SPEAKER, Access.READ)
        self.evidence_key = keys.register(self.blackboard, keys.EVIDENCE, Access.WRITE)
        self.outcome_key = keys.register(self.blackboard, keys.SKILL_OUTCOME, Access.WRITE)
        self._planning: Future[TaskPlan] | None = None
        self._skills: list[SkillCall] = []
        self._done: list[SkillCall] = []
        self._verdict: Status | None = None

    def setup(self, **kwargs: Any) -> None:
        """Take the ``domains``, ``scene_graph`` and ``executor`` handles."""
        self.domains = require_handle(self, kwargs, "domains", DomainRegistry)
        self.scene = require_handle(self, kwargs, "scene_graph", SceneGraph)
        executor = require_handle(self, kwargs, "executor", Executor)  # type: ignore[type-abstract]
        self.stepper = SkillStepper(self.scene, executor, robot=self.robot)

    def initialise(self) -> None:
        """Build the task-level call from the plan template and plan it on the worker."""
        if self.scene is None or self.domains is None:
            raise RuntimeError(f"{self.name}: setup(domains=, scene_graph=, executor=) first")
        self._planning = None
        self._skills, self._done, self._verdict = [], [], None
        try:
            call = self._task_call()
        except (LookupError, ValueError, SkillArgumentError) as problem:
            self._verdict = self._report(Status.FAILURE, f"I cannot do that yet: {problem}")
            return
        self._planning = self.scene.submit(self._plan, call)

    def update(self) -> Status:
        """Wait for the plan, then run its skills one at a time."""
        if self._verdict is not None:
            return self._verdict
        assert self.stepper is not None and self._planning is not None
        if not self._skills and not self._done:
            if not self._planning.done():
                self.feedback_message = "planning the task"
                return Status.RUNNING
            plan = self._plan_result()
            if plan is None or not plan.ok:
                why = plan.message if plan is not None else self.feedback_message
                return self._report(Status.FAILURE, f"I found no way to do it: {why}")
            if not plan.skills:
                return self._report(Status.SUCCESS, f"Nothing to do: {plan.message}")
            self._skills = list(plan.skills)
            self.stepper.start(self._skills[0])
        status = self.stepper.step()
        if status == RunStatus.RUNNING:
            command = self.stepper.in_flight
            current = self._skills[len(self._done)]
            doing = command.describe() if command else "planning"
            self.feedback_message = (
                f"{current} ({len(self._done) + 1}/{len(self._skills)}): {doing}"
            )
            return Status.RUNNING
        outcome = self.stepper.outcome
        assert outcome is not None
        self.blackboard.set(self.outcome_key, outcome)
        if status != RunStatus.SUCCEEDED:
            done = ", ".join(map(str, self._done)) or "nothing"
            return self._report(
                Status.FAILURE, f"I could not finish: {outcome.message}. Done before that: {done}."
            )
        self._done.append(self._skills[len(self._done)])
        if len(self._done) == len(self._skills):
            return self._report(Status.SUCCESS, f"Done: {', '.join(map(str, self._done))}.")
        self.stepper.start(self._skills[len(self._done)])
        self.feedback_message = f"{self._done[-1]} done; next {self._skills[len(self._done)]}"
        return Status.RUNNING

    def terminate(self, new_status: Status) -> None:
        """Cancel the skill in flight, or the planning, when interrupted."""
        if self.status == Status.RUNNING and new_status == Status.INVALID:
            if self.stepper is not None and self.stepper.cancel():
                self.feedback_message = "cancelled"
            elif self._planning is not None:
                self._planning.cancel()

    # -- helpers ------------------------------------------------------------------------------

    def _task_call(self) -> TaskCall:
        assert self.domains is not None
        domain = str(self.blackboard.get(self.domain_key))
        task = self.blackboard.get(self.task_key)
        if not isinstance(task, BaseModel):
            raise ValueError("no task on /turn/task")
        spec = next(
            (
                spec
                for spec in self.domains.get(domain).tasks
                if spec.schema_name == type(task).__name__
            ),
            None,
        )
        if spec is None:
            raise LookupError(f"{type(task).__name__} is not a task of the {domain} domain")
        if spec.plan is None:
            raise LookupError(
                f"{spec.name} needs people or several steps in its plan, which the task "
                "planner of this release cannot make"
            )
        return task_call(spec.plan.task, self._arguments(spec.plan, task))

    def _arguments(self, template: PlanTemplate, task: BaseModel) -> dict[str, str]:
        arguments: dict[str, str] = {}
        for argument, slot in template.args.items():
            if slot == SPEAKER_ARGUMENT:
                speaker = (
                    self.blackboard.get(self.speaker_key) if self._has(self.speaker_key) else None
                )
                if not speaker:
                    raise ValueError("I do not know who is speaking (/turn/speaker is not set)")
                arguments[argument] = str(speaker)
                continue
            value = getattr(task, slot)
            if isinstance(value, list | tuple):
                value = value[0] if len(value) == 1 else None
            if value in (None, ""):
                raise ValueError(f"the task's {slot} is not one known thing")
            arguments[argument] = str(value)
        return arguments

    def _plan(self, call: TaskCall) -> TaskPlan:
        assert self.scene is not None
        return self.planner.plan(call, Belief.from_scene(self.scene, self.robot))

    def _plan_result(self) -> TaskPlan | None:
        assert self._planning is not None
        try:
            return self._planning.result()
        except Exception as error:  # a belief the planner cannot read
            self.feedback_message = f"planning failed: {type(error).__name__}: {error}"
            return None

    def _has(self, key: str) -> bool:
        return self.blackboard.exists(key)

    def _report(self, status: Status, text: str) -> Status:
        previous = self.blackboard.get(self.evidence_key) if self._has(self.evidence_key) else None
        items = list(previous.items) if isinstance(previous, EvidenceBundle) else []
        items.append(EvidenceItem(source="plan", text=text, ok=status == Status.SUCCESS))
        self.blackboard.set(self.evidence_key, EvidenceBundle(items=items))
        self.feedback_message = text
        self._verdict = status
        return status
