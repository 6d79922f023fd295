"""``SkillAction``: run one skill on the robot across ticks, never blocking a tick.

The skill's preconditions are checked and its HTN decomposition planned on the ``workers``
pool (a belief snapshot costs a few queries); then the controller submits one command at a
time to the executor and each tick polls it (:class:`~skills.execution.stepping.SkillStepper`).
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from py_trees.common import Status

from cogtree.behaviours import keys
from cogtree.behaviours.background import BackgroundWork, Pending
from cogtree.behaviours.setup_handles import require_handle
from cogtree.knowledge.scene.scene_graph import SceneGraph
from cogtree.knowledge.worker_pool import WorkerPool
from cogtree.skills.action_model.belief import SupplementaryFacts
from cogtree.skills.action_model.commands import Executor
from cogtree.skills.capabilities.calls import SkillCall
from cogtree.skills.execution.controller import RunStatus, SkillOutcome
from cogtree.skills.execution.stepping import SkillStepper


class SkillAction(keys.DeclaredKeys, BackgroundWork[SkillOutcome]):
    """Run a skill (``call``, or the one at ``/skill/call`` when ``call`` is None).

    Handles: ``scene_graph`` (:class:`SceneGraph`, the belief), ``executor``
    (:class:`~skills.action_model.commands.Executor`) and ``workers`` (the planning runs there).

    Reads ``/skill/call`` (only without a fixed ``call``). Writes ``/skill/outcome``.
    SUCCESS: every command succeeded. FAILURE: a precondition failed (no command was sent)
    or a command failed; the outcome's message names skill, command, code and reason.
    RUNNING: planning, or a command is in flight. Interrupted, it cancels the command.

    The hazard rules check the call first (:class:`~skills.execution.stepping.SkillStepper`): a
    hazard fails it, unless it is an ask-first hazard in ``lifted`` (the user's yes, passed on by
    ExecutePlan from the validation report).
    """

    first_poll_next_tick = False
    reads = (keys.SKILL_CALL,)
    writes = (keys.SKILL_OUTCOME,)

    def __init__(
        self,
        name: str,
        call: SkillCall | None = None,
        *,
        robot: str = "robot1",
        facts: SupplementaryFacts | None = None,
        lifted: Collection[str] = (),
    ) -> None:
        super().__init__(name, reads=None if call is None else ())  # a fixed call reads no key
        self.call = call
        self.lifted = tuple(lifted)
        self.robot = robot
        self.facts = facts
        self.stepper: SkillStepper | None = None
        self.outcome_key = self.key_of(keys.SKILL_OUTCOME)
        self.call_key = self.key_of(keys.SKILL_CALL) if call is None else ""

    def setup(self, **kwargs: Any) -> None:
        """Take the ``scene_graph``, ``executor`` and ``workers`` handles."""
        super().setup(**kwargs)
        scene = require_handle(self, kwargs, "scene_graph", SceneGraph)
        executor = require_handle(self, kwargs, "executor", Executor)  # type: ignore[type-abstract]
        workers = require_handle(self, kwargs, "workers", WorkerPool)
        self.stepper = SkillStepper(
            scene, executor, workers=workers, robot=self.robot, facts=self.facts
        )

    def start(self) -> _SkillRun | Status:
        """Start planning the skill on a worker; FAILURE at once when no skill is given."""
        assert self.stepper is not None
        call = self.call or self._call_from_blackboard()
        if call is None:
            self.feedback_message = "no skill to run: /skill/call is not set"
            return Status.FAILURE
        self.stepper.start(call, lifted=self.lifted)
        return _SkillRun(self.stepper)

    def waiting(self, waited: float) -> str:
        """The command in flight, or the planning."""
        assert self.stepper is not None
        command = self.stepper.in_flight
        return f"running {command.describe()}" if command else "checking preconditions and planning"

    def finish(self, outcome: SkillOutcome) -> Status:
        """Write ``/skill/outcome``; SUCCESS when the skill succeeded, else FAILURE."""
        self.blackboard.set(self.outcome_key, outcome)
        self.feedback_message = outcome.message
        return Status.SUCCESS if outcome.status == RunStatus.SUCCEEDED else Status.FAILURE

    def on_cancel(self, work: Pending[SkillOutcome]) -> None:
        """Cancel the command in flight (interrupted)."""
        if work.cancel():
            self.feedback_message = "cancelled"

    def _call_from_blackboard(self) -> SkillCall | None:
        if not self.blackboard.exists(self.call_key):
            return None
        value = self.blackboard.get(self.call_key)
        return value if isinstance(value, SkillCall) else None


class _SkillRun:
    """A :class:`SkillStepper`'s skill as pollable work: each ``done()`` advances it a step."""

    def __init__(self, stepper: SkillStepper) -> None:
        self.stepper = stepper

    def done(self) -> bool:
        """Advance the skill by at most one command; whether it has ended."""
        return self.stepper.step() != RunStatus.RUNNING

    def result(self, timeout: float | None = None) -> SkillOutcome:
        """How the skill ended."""
        assert self.stepper.outcome is not None
        return self.stepper.outcome

    def cancel(self) -> bool:
        """Stop the skill; whether something stopped."""
        return self.stepper.cancel()
