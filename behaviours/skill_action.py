"""``SkillAction``: run one skill on the robot across ticks, never blocking a tick.

The skill's preconditions are checked and its HTN decomposition planned on the scene graph's
worker (a belief snapshot costs a few queries); then the controller submits one command at a
time to the executor and each tick polls it (:class:`~skills.stepping.SkillStepper`).
"""

from __future__ import annotations

from typing import Any

import py_trees
from py_trees.common import Status

from behaviours import keys
from behaviours.setup_handles import require_handle
from knowledge.scene_graph import SceneGraph
from skills.belief import SupplementaryFacts
from skills.commands import Executor
from skills.controller import RunStatus
from skills.specs import SkillCall
from skills.stepping import SkillStepper


class SkillAction(keys.DeclaredKeys, py_trees.behaviour.Behaviour):
    """Run a skill (``call``, or the one at ``/skill/call`` when ``call`` is None).

    Handles: ``scene_graph`` (:class:`SceneGraph`, the belief) and ``executor``
    (:class:`~skills.commands.Executor`).

    Reads ``/skill/call`` (only without a fixed ``call``). Writes ``/skill/outcome``.
    SUCCESS: every command succeeded. FAILURE: a precondition failed (no command was sent)
    or a command failed; the outcome's message names skill, command, code and reason.
    RUNNING: planning, or a command is in flight. Interrupted, it cancels the command.
    """

    reads = (keys.SKILL_CALL,)
    writes = (keys.SKILL_OUTCOME,)

    def __init__(
        self,
        name: str,
        call: SkillCall | None = None,
        *,
        robot: str = "robot1",
        facts: SupplementaryFacts | None = None,
    ) -> None:
        super().__init__(name, reads=None if call is None else ())  # a fixed call reads no key
        self.call = call
        self.robot = robot
        self.facts = facts
        self.stepper: SkillStepper | None = None
        self._started = False
        self.outcome_key = self.key_of(keys.SKILL_OUTCOME)
        self.call_key = self.key_of(keys.SKILL_CALL) if call is None else ""

    def setup(self, **kwargs: Any) -> None:
        """Take the ``scene_graph`` and ``executor`` handles."""
        scene = require_handle(self, kwargs, "scene_graph", SceneGraph)
        executor = require_handle(self, kwargs, "executor", Executor)  # type: ignore[type-abstract]
        self.stepper = SkillStepper(scene, executor, robot=self.robot, facts=self.facts)

    def initialise(self) -> None:
        """Start planning the skill on the scene graph's worker."""
        if self.stepper is None:
            raise RuntimeError(f"{self.name}: setup(scene_graph=..., executor=...) was not called")
        call = self.call or self._call_from_blackboard()
        self._started = call is not None
        if call is not None:
            self.stepper.start(call)

    def update(self) -> Status:
        """Wait for the plan, then step the controller one command at a time."""
        assert self.stepper is not None
        if not self._started:
            self.feedback_message = "no skill to run: /skill/call is not set"
            return Status.FAILURE
        status = self.stepper.step()
        if status == RunStatus.RUNNING:
            command = self.stepper.in_flight
            self.feedback_message = (
                f"running {command.describe()}"
                if command
                else "checking preconditions and planning"
            )
            return Status.RUNNING
        outcome = self.stepper.outcome
        assert outcome is not None
        self.blackboard.set(self.outcome_key, outcome)
        self.feedback_message = outcome.message
        return Status.SUCCESS if status == RunStatus.SUCCEEDED else Status.FAILURE

    def terminate(self, new_status: Status) -> None:
        """Cancel the command in flight when interrupted (RUNNING -> INVALID)."""
        interrupted = self.status == Status.RUNNING and new_status == Status.INVALID
        if interrupted and self.stepper is not None and self.stepper.cancel():
            self.feedback_message = "cancelled"

    def _call_from_blackboard(self) -> SkillCall | None:
        if not self.blackboard.exists(self.call_key):
            return None
        value = self.blackboard.get(self.call_key)
        return value if isinstance(value, SkillCall) else None
