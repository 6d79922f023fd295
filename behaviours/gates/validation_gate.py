"""``ValidationGate``: a plan is checked before anything moves (InteractGen's validator).

First the deterministic dry run (:func:`skills.planning.plan_validation.dry_run`) on the team's
beliefs as the scene graph holds them: every referent exists, preconditions hold in order,
effects are applied, each step's agent can do it. A plan the dry run rejects is rejected,
with its diagnosis for the planner; no model is asked and none can overrule it. When the dry
run passes and the judge is on, the ``plan_validation`` model sees the request, the plan and
the dry run's result and may still reject the plan with a reason. The judge is on when the
gate is built with ``judge=True``; with ``judge=None`` (the default) the LLM manifest decides
(``modules.plan_validation.enabled``, off in the packaged manifest; ``--judge`` on the command
line turns it on).

The dry run checks every step against the hazard rules (:mod:`skills.safety.hazard_check`): a
``forbidden`` hazard rejects the plan, and the diagnosis (what the robot says) is the rule's
sentence. When only ``ask_first`` hazards stop the plan, the gate asks: it writes the question
(:func:`~skills.planning.plan_validation.hazard_question`) as a pending task whose ``confirm``
lists the hazards (the mechanism of :mod:`knowledge.safety.doubts`), and ``/turn/control`` Clarify.
Only an explicit yes to that question, in the next turn, for the same task and slots, lifts those
hazards; nothing a model says does.
"""

from __future__ import annotations

import logging
from concurrent.futures import Future
from typing import Any

from py_trees.common import Status
from pydantic import ConfigDict, Field

from cogtree.behaviours import keys
from cogtree.behaviours.keys import read_attempts, update_last_attempt
from cogtree.behaviours.llm_behaviour import LLMBehaviour, Verdict
from cogtree.behaviours.setup_handles import optional_handle, require_handle
from cogtree.knowledge.language.unsupported_skills import unsupported_skill
from cogtree.knowledge.llm.types import Message
from cogtree.knowledge.memory.model import WorkingContext
from cogtree.knowledge.safety.doubts import explicit_yes
from cogtree.knowledge.safety.hazard_rules import HazardRules, shipped_hazard_rules
from cogtree.knowledge.scene.scene_graph import SceneGraph
from cogtree.knowledge.understanding.turn_state import IntentFrame, PendingTask
from cogtree.knowledge.wording import BoundedText
from cogtree.knowledge.worker_pool import WorkerPool
from cogtree.skills.planning.plan_model import StepProblem, ToAPlan, ValidationReport
from cogtree.skills.planning.plan_validation import (
    PlanWorld,
    ask_first_doubts,
    dry_run,
    hazard_question,
)

log = logging.getLogger(__name__)

JUDGE_PROMPT = """You check a robot team's plan before it runs. A deterministic dry run has
already checked that every step is possible; you judge whether the plan does what the person
asked, safely and without needless steps. Answer one JSON object:
{"valid": true or false, "reason": "one sentence"}. Reject only with a concrete reason."""


class PlanVerdict(BoundedText):
    """Whether the plan may run, and why (the judge's answer, or the dry run's summary)."""

    free_text = ("reason",)

    model_config = ConfigDict(extra="forbid", frozen=True)

    valid: bool
    reason: str = Field("", max_length=300, description="one sentence: why")


class ValidationGate(LLMBehaviour[PlanVerdict]):
    """Let ``/plan/current`` run only when the dry run (and the optional judge) accepts it.

    ``judge``: True or False switches the LLM judge on or off for this gate; None (the
    default) leaves it to the LLM manifest (``modules.plan_validation.enabled``).

    Handles: ``llm``, ``scene_graph``, optionally ``team`` (the ids of the robots the tree can
    command, e.g. those a ROS 2 host has namespaces for; default: every robot of the belief).
    Robots outside the team take no step of the plan. The dry run reads the team's beliefs on
    the ``workers`` pool, so no tick blocks.

    Reads ``/plan/current``, ``/turn/utterance``, ``/turn/intent`` (the request's utterances
    and task), ``/session/pending`` (a hazard question the user may be answering),
    ``/memory/working`` (the user's earlier turns: what they said things are), ``/turn/speaker``
    (what they said of themselves is theirs: "I'm only six") and ``/turn/frame``: the plan
    brings things for a step the robot cannot do when the request's first step is missing, or
    when the earlier utterances this turn completes name a skill the robot lacks (an answer
    to a question about such a request). Writes
    ``/plan/validation`` (the report, with the assignment of steps and the judge's verdict)
    and the current attempt's ``validation`` (and ``outcome`` ``rejected``) in
    ``/plan/attempts``; when ask-first hazards stop the plan, ``/session/pending`` (the
    question, confirming them) and ``/turn/control`` Clarify.

    SUCCESS: the plan is valid. FAILURE: no plan, the dry run found problems or hazards, or the
    judge rejected it (or could not answer: the safe decision is to reject). RUNNING: the dry
    run or the judge is under way.
    """

    reads = (
        keys.PLAN,
        keys.UTTERANCE,
        keys.INTENT,
        keys.PENDING,
        keys.WORKING,
        keys.SPEAKER,
        keys.REQUEST_FRAME,
    )
    writes = (keys.VALIDATION, keys.ATTEMPTS, keys.PENDING, keys.CONTROL)

    module = "plan_validation"

    def __init__(
        self, name: str = "ValidationGate", *, robot: str = "robot1", judge: bool | None = None
    ) -> None:
        super().__init__(name, PlanVerdict)
        self.robot = robot
        self.judge = judge
        self.judging = bool(judge)
        self.scene: SceneGraph | None = None
        self.team: tuple[str, ...] | None = None
        self.rules: HazardRules | None = None
        self.plan_key = self.key_of(keys.PLAN)
        self.utterance_key = self.key_of(keys.UTTERANCE)
        self.validation_key = self.key_of(keys.VALIDATION)
        self.intent_key = self.key_of(keys.INTENT)
        self.pending_key = self.key_of(keys.PENDING)
        self.working_key = self.key_of(keys.WORKING)
        self.control_key = self.key_of(keys.CONTROL)
        self.speaker_key = self.key_of(keys.SPEAKER)
        self._speaker: str | None = None
        self._offered = False
        self._said: list[str] = []
        self._earlier: list[str] = []
        self._lifted: list[str] = []
        self._report: ValidationReport | None = None
        self._plan: ToAPlan | None = None

    def setup(self, **kwargs: Any) -> None:
        """Take the handles: ``llm``, ``scene_graph``, ``workers``, and optional ones.

        ``team``, and ``hazard_rules`` (default: the shipped rules as the file is at each check).
        With ``judge=None`` the judge is on when the manifest enables ``plan_validation``.
        """
        super().setup(**kwargs)
        assert self.llm is not None
        manifest = self.llm.settings_for(self.module_name).enabled
        self.judging = manifest if self.judge is None else self.judge
        self.scene = require_handle(self, kwargs, "scene_graph", SceneGraph)
        self.workers = require_handle(self, kwargs, "workers", WorkerPool)
        self.team = optional_handle(self, kwargs, "team", tuple)
        self.rules = optional_handle(self, kwargs, "hazard_rules", HazardRules)

    # -- preparation: the dry run on a worker, before the cascade --------------------------------

    preparing = "dry-running the plan"

    def prepare(self) -> Future[ValidationReport] | None:
        """Start the dry run of ``/plan/current`` on a worker (None: nothing to run)."""
        if self.scene is None or self.workers is None:
            raise RuntimeError(f"{self.name}: setup(llm=, scene_graph=, workers=) first")
        self._report = None
        self._plan = keys.read_optional(self.blackboard, self.plan_key, ToAPlan)
        self._said, self._lifted = self._request()
        working = keys.read_optional(self.blackboard, self.working_key, WorkingContext)
        self._earlier = [turn.user for turn in working.history] if working is not None else []
        self._speaker = keys.read_optional(self.blackboard, self.speaker_key, str)
        self._offered = self._for_a_missing_step()
        if self._plan is None:
            self._report = _rejected("there is no plan to validate (/plan/current is not set)")
        elif not self._plan.steps and self._planned_nothing_to_do():
            self._report = ValidationReport(ok=True)
        else:
            return self.workers.submit(self._dry_run, self._plan)
        return None

    def prepared(self, result: Any) -> None:
        """Keep the dry run's report."""
        assert isinstance(result, ValidationReport)
        self._report = result

    def preparation_failed(self, error: Exception) -> None:
        """A belief the dry run cannot read: the plan is rejected with the reason (logged)."""
        log.error("%s: the dry run failed", self.name, exc_info=error)
        self._report = _rejected(f"the dry run could not run: {type(error).__name__}: {error}")

    # -- the cascade's hooks --------------------------------------------------------------------

    def fast_path(self) -> Verdict[PlanVerdict] | None:
        """A failed dry run is final; a passed one is enough unless the judge is on."""
        report = self._report
        assert report is not None
        if not report.ok:
            reason = f"the dry run rejected the plan: {report.diagnosis()}"
            return Verdict(PlanVerdict(valid=False, reason=reason[:300]), reason)
        if not self.judging or self._plan is None or not self._plan.steps:
            return Verdict(PlanVerdict(valid=True, reason="the dry run passed"), "dry run passed")
        return None

    def messages(self) -> list[Message]:
        """The request, the plan with its assignments, and the dry run's result."""
        assert self._plan is not None and self._report is not None
        request = keys.read(self.blackboard, self.utterance_key) or "(not given)"
        assignments = ", ".join(
            f"step {step} -> {agent}" for step, agent in sorted(self._report.assignments.items())
        )
        user = (
            f"Request: {request}\n\nPlan ({self._plan.rationale or 'no rationale'}):\n"
            f"{self._plan.describe()}\n\nAssignments: {assignments or 'none'}\n\n"
            "Dry run: every step is possible in the robot's belief, in this order."
        )
        return [Message(role="system", content=JUDGE_PROMPT), Message(role="user", content=user)]

    def safe_decision(self, reason: str) -> PlanVerdict:
        """The judge could not answer: reject (the safe direction)."""
        return PlanVerdict(valid=False, reason=f"the judge could not answer: {reason}")

    def guard(self, decision: PlanVerdict) -> Verdict[PlanVerdict] | None:
        """Nothing approves a plan the dry run rejected."""
        report = self._report
        if decision.valid and (report is None or not report.ok):
            why = report.diagnosis() if report is not None else "no dry run"
            return Verdict(PlanVerdict(valid=False, reason=why), f"dry run rejected: {why}")
        return None

    def apply(self, decision: PlanVerdict) -> Status:
        """Write the report and the attempt's validation; SUCCESS when the plan may run."""
        report = self._report
        assert report is not None
        if report.ok and not decision.valid:
            judged = StepProblem(step=None, code="judge", reason=decision.reason or "rejected")
            report = report.model_copy(
                update={"ok": False, "problems": [*report.problems, judged], "judge": ""}
            )
        elif self.judging and report.ok:
            report = report.model_copy(update={"judge": decision.reason})
        if report.ok and self._lifted:
            report = report.model_copy(update={"lifted": list(self._lifted)})
        self.blackboard.set(self.validation_key, report)
        self._record_attempt(report)
        question = hazard_question(report)
        if question is not None:
            self._ask(question, ask_first_doubts(report))
        return Status.SUCCESS if report.ok else Status.FAILURE

    def summary(self, decision: PlanVerdict) -> str:
        """``valid`` or ``rejected``."""
        return "valid" if decision.valid else "rejected"

    # -- helpers --------------------------------------------------------------------------------

    def _dry_run(self, plan: ToAPlan) -> ValidationReport:
        assert self.scene is not None
        team = [robot.id for robot in self.scene.robot_state()]
        if self.team is not None:
            team = [robot for robot in team if robot in self.team]
        first = [self.robot] if self.robot in team else []
        order = [*first, *(robot for robot in team if robot != self.robot)]
        world = PlanWorld.from_scene(self.scene, order)
        return dry_run(
            plan,
            world,
            rules=self.rules or shipped_hazard_rules(),
            said=self._said,
            earlier=self._earlier,
            lifted=self._lifted,
            speaker=self._speaker,
            offered=self._offered,
        )

    def _request(self) -> tuple[list[str], list[str]]:
        """The request's utterances, and the hazards the user confirmed.

        Confirmed: an explicit yes to the pending hazard question, for the same task and slots.
        """
        utterance = keys.read_optional(self.blackboard, self.utterance_key, str) or ""
        frame = keys.read_optional(self.blackboard, self.intent_key, IntentFrame)
        said = [*(frame.said if frame is not None else []), utterance]
        pending = keys.read_optional(self.blackboard, self.pending_key, PendingTask)
        if pending is None or frame is None or not explicit_yes(utterance):
            return said, []
        same = (pending.task, pending.slots) == (frame.task, frame.slots)
        return [*pending.said, *said], (list(pending.confirm) if same else [])

    def _for_a_missing_step(self) -> bool:
        """Whether the plan brings things for a step the robot cannot do (see the class docs)."""
        frame = keys.read_request_frame(self.blackboard)
        if frame is not None and frame.steps and frame.steps[0].unsupported:
            return True
        utterance = keys.read_optional(self.blackboard, self.utterance_key, str)
        before = [text for text in self._said if text != utterance]
        return any(unsupported_skill(text) is not None for text in before)

    def _ask(self, question: str, doubts: list[str]) -> None:
        """Ask the hazard question: a pending task that confirms ``doubts``; control Clarify."""
        frame = keys.read_optional(self.blackboard, self.intent_key, IntentFrame)
        if frame is None or frame.task is None:
            return
        said = list(dict.fromkeys([*frame.said, *self._said]))
        pending = PendingTask(
            domain=frame.domain,
            task=frame.task,
            slots=dict(frame.slots),
            said=said,
            question=question,
            confirm=doubts,
        )
        self.blackboard.set(self.pending_key, pending)
        self.blackboard.set(self.control_key, "Clarify")

    def _planned_nothing_to_do(self) -> bool:
        """The planner succeeded with no steps: the task-level HTN found nothing to do."""
        attempts = read_attempts(self.blackboard)
        last = attempts[-1] if attempts else None
        return last is not None and last.plan.source == "htn" and last.outcome == "running"

    def _record_attempt(self, report: ValidationReport) -> None:
        update: dict[str, Any] = {"validation": report}
        if not report.ok:
            update |= {"outcome": "rejected", "failure": f"rejected: {report.diagnosis()}"}
        update_last_attempt(self.blackboard, lambda last: last.model_copy(update=update))


def _rejected(reason: str) -> ValidationReport:
    return ValidationReport(
        ok=False, problems=[StepProblem(step=None, code="no_plan", reason=reason)]
    )
