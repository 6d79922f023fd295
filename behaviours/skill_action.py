"""``SkillAction``: run one skill on the robot across ticks, never blocking a tick.

The skill's preconditions are checked and its HTN decomposition planned on the scene graph's
worker (a belief snapshot costs a few queries); then the controller submits one command at a
time to the executor and each tick polls it.
"""

from __future__ import annotations

from concurrent.futures import Future
from typing import Any

import py_trees
from py_trees.common import Access, Status

from behaviours import keys
from behaviours.setup_handles import require_handle
from knowledge.scene_graph import SceneGraph
from skills.belief import Belief, SupplementaryFacts
from skills.commands import Executor
from skills.controller import RunStatus, SkillOutcome, SkillRun
from skills.decomposition import SkillDecomposer, SkillPlan
from skills.specs import SkillCall


class SkillAction(py_trees.behaviour.Behaviour):
    """Run a skill (``call``, or the one at ``/skill/call`` when ``call`` is None).

    Handles: ``scene_graph`` (:class:`SceneGraph`, the belief) and ``executor``
    (:class:`~skills.commands.Executor`).

    Reads ``/skill/call`` (only without a fixed ``call``). Writes ``/skill/outcome``.
    SUCCESS: every command succeeded. FAILURE: a precondition failed (no command was sent)
    or a command failed; the outcome's message names skill, command, code and reason.
    RUNNING: planning, or a command is in flight. Interrupted, it cancels the command.
    """

    def __init__(
        self,
        name: str,
        call: SkillCall | None = None,
        *,
        robot: str = "robot1",
        facts: SupplementaryFacts | None = None,
    ) -> None:
        super().__init__(name)
        self.call = call
        self.robot = robot
        self.facts = facts
        self.decomposer = SkillDecomposer()
        self.scene: SceneGraph | None = None
        self.executor: Executor | None = None
        self.blackboard = self.attach_blackboard_client(name=name)
        self.outcome_key = keys.register(self.blackboard, keys.SKILL_OUTCOME, Access.WRITE)
        self.call_key = (
            keys.register(self.blackboard, keys.SKILL_CALL, Access.READ) if call is None else ""
        )
        self._planning: Future[SkillPlan] | None = None
        self._planned_call: SkillCall | None = None
        self._run: SkillRun | None = None

    def setup(self, **kwargs: Any) -> None:
        """Take the ``scene_graph`` and ``executor`` handles."""
        self.scene = require_handle(self, kwargs, "scene_graph", SceneGraph)
        self.executor = require_handle(self, kwargs, "executor", Executor)  # type: ignore[type-abstract]

    def initialise(self) -> None:
        """Plan the skill on the scene graph's worker."""
        assert self.scene is not None
        self._run = None
        self._planned_call = self.call or self._call_from_blackboard()
        self._planning = None
        if self._planned_call is not None:
            self._planning = self.scene.submit(self._plan, self._planned_call)

    def update(self) -> Status:
        """Wait for the plan, then step the controller one command at a time."""
        if self._run is None:
            if self._planning is None:
                self.feedback_message = "no skill to run: /skill/call is not set"
                return Status.FAILURE
            if not self._planning.done():
                self.feedback_message = "checking preconditions and planning"
                return Status.RUNNING
            assert self.executor is not None and self._planned_call is not None
            try:
                plan = self._planning.result()
            except Exception as error:  # an unknown robot, a belief the planner cannot read
                return self._fail(
                    SkillOutcome(
                        call=self._planned_call,
                        status=RunStatus.FAILED,
                        message=f"cannot plan {self._planned_call}: {error}",
                    )
                )
            self._run = SkillRun(plan, self.executor)
        status = self._run.step()
        if status == RunStatus.RUNNING:
            command = self._run.in_flight
            self.feedback_message = f"running {command.describe()}" if command else "running"
            return Status.RUNNING
        outcome = self._run.outcome
        assert outcome is not None
        if status != RunStatus.SUCCEEDED:
            return self._fail(outcome)
        self.blackboard.set(self.outcome_key, outcome)
        self.feedback_message = outcome.message
        return Status.SUCCESS

    def _fail(self, outcome: SkillOutcome) -> Status:
        self.blackboard.set(self.outcome_key, outcome)
        self.feedback_message = outcome.message
        return Status.FAILURE

    def terminate(self, new_status: Status) -> None:
        """Cancel the command in flight when interrupted (RUNNING -> INVALID)."""
        if self.status == Status.RUNNING and new_status == Status.INVALID:
            if self._run is not None:
                self._run.cancel()
                self.feedback_message = "cancelled"
            elif self._planning is not None:
                self._planning.cancel()

    def _call_from_blackboard(self) -> SkillCall | None:
        if not self.blackboard.exists(self.call_key):
            return None
        value = self.blackboard.get(self.call_key)
        return value if isinstance(value, SkillCall) else None

    def _plan(self, call: SkillCall) -> SkillPlan:
        assert self.scene is not None
        belief = Belief.from_scene(self.scene, self.robot, self.facts)
        return self.decomposer.decompose(call, belief)
