"""The recovery loop: the ``/plan/attempts`` record, and the nodes that repeat and report.

An attempt is PlanTask -> ValidationGate -> ExecutePlan (see :mod:`trees.physical_task`).
Every node that touches ``/plan/attempts`` goes through :func:`~behaviours.keys.read_attempts`,
:func:`~behaviours.keys.add_attempt` and :func:`~behaviours.keys.update_last_attempt`.
:class:`AttemptLoop` runs an attempt again after a failure
while another attempt may change something; :class:`ReportOutcome` says in ``/turn/evidence``
what the attempts did and did not, and what the belief holds after them
(:mod:`skills.execution.outcome`).
"""

from __future__ import annotations

import logging
import re
from typing import Any

import py_trees
from py_trees.common import Status
from py_trees.decorators import Retry

from cogtree.behaviours import keys
from cogtree.behaviours.background import BackgroundWork, Pending
from cogtree.behaviours.setup_handles import optional_handle, require_handle
from cogtree.knowledge.language.missing_steps import left_undone
from cogtree.knowledge.language.request_frame import Step
from cogtree.knowledge.memory.experience import recovery_text
from cogtree.knowledge.scene.scene_graph import SceneGraph
from cogtree.knowledge.understanding.turn_state import EvidenceBundle, EvidenceItem, IntentFrame
from cogtree.knowledge.wording import counted, joined
from cogtree.knowledge.worker_pool import WorkerPool
from cogtree.skills.execution.outcome import Observed, TaskOutcome, assess
from cogtree.skills.planning.delegation import is_asked
from cogtree.skills.planning.handover import (
    alternatives_item,
    left_item,
    undone_item,
    undone_said,
)
from cogtree.skills.planning.plan_model import PlanAttempt, PlanStep, ToAPlan
from cogtree.skills.planning.plan_validation import HAZARD_CODES, hazard_question

log = logging.getLogger(__name__)

Assessed = tuple[TaskOutcome, dict[str, list[str]], str]
"""The outcome of the attempts, who could do each skill the request's undone steps need, and
what the robot says of whom its plan asked to do them."""


def worth_another_attempt(attempt: PlanAttempt) -> bool:
    """Whether planning again after ``attempt`` may give a different answer.

    Not when there was no plan (the planner already said why), when the task-level HTN
    plan was rejected (the same belief gives the same plan), nor when the plan waits for the
    user's yes to an ask-first hazard (the question is the answer of the turn).
    """
    if not attempt.plan.steps or _asks(attempt) is not None:
        return False
    return not (attempt.outcome == "rejected" and attempt.plan.source == "htn")


class AttemptLoop(keys.DeclaredKeys, Retry):
    """Run the attempt again after a failure, at most ``max_attempts`` times in all.

    Reads ``/plan/attempts`` to stop early when another attempt is not worth it
    (:func:`worth_another_attempt`). SUCCESS: an attempt succeeded. FAILURE: the last allowed
    (or worthwhile) attempt failed. RUNNING: an attempt is running, or the next one starts.
    """

    reads = (keys.ATTEMPTS,)

    def __init__(self, name: str, child: py_trees.behaviour.Behaviour, *, max_attempts: int):
        if max_attempts < 1:
            raise ValueError(f"max_attempts must be at least 1, got {max_attempts}")
        super().__init__(name, child, num_failures=max_attempts)

    def update(self) -> Status:
        """Retry's decision, unless the last attempt says retrying cannot help."""
        status = super().update()
        if status != Status.RUNNING or self.decorated.status != Status.FAILURE:
            return status
        attempts = keys.read_attempts(self.blackboard)
        if attempts and not worth_another_attempt(attempts[-1]):
            self.feedback_message = (
                f"stopped after attempt {attempts[-1].number}: another would not change anything"
            )
            return Status.FAILURE
        self.feedback_message = f"attempt {self.failures} failed; planning again"
        return status


class ReportOutcome(keys.DeclaredKeys, BackgroundWork[Assessed | None]):
    """Say honestly, in ``/turn/evidence``, what the attempts did and what the belief now holds.

    Reads ``/plan/attempts``, ``/turn/frame``, ``/turn/speaker``, ``/turn/resolved``; on the
    ``workers`` pool reads the belief (``scene_graph``) after execution and holds every fact
    the plans were for against it (:func:`skills.execution.outcome.assess`: whether it holds,
    and whether ``robot``, someone it delegated to, or nobody it knows of made it hold). Appends one
    :class:`~knowledge.understanding.turn_state.EvidenceItem` (source
    ``plan``) to
    ``/turn/evidence``: the facts as rows and sentences, then the attempts. Its ``ok`` is True
    only when built with ``succeeded=True`` and every goal fact was made to hold by the robot or
    its delegates. Without a ``scene_graph`` handle only the attempts are reported. When the
    request (``/turn/frame``) has steps left undone for want of a skill, a second item (source
    ``missing_skill``) says so and whom the plan asked to do them (its ``DELEGATE`` steps for
    them, :mod:`skills.planning.delegation`), else names who in the house could, never
    ``/turn/speaker`` (:mod:`skills.planning.handover`); so does one for the clauses of the
    request no task held (``/turn/intent``'s ``left``: source ``left``); when a thing handed
    over was one of look-alikes side by side (``/turn/resolved``), one more names the others.
    When the last attempt was rejected for forbidden hazards before anything ran, the evidence
    is the refusal naming them and ``/turn/control`` becomes Reject.

    SUCCESS when built with ``succeeded=True``, FAILURE otherwise (the evidence is written either
    way, also when the belief cannot be read). RUNNING while the belief is read.
    """

    reads = (keys.ATTEMPTS, keys.REQUEST_FRAME, keys.SPEAKER, keys.RESOLVED, keys.INTENT)
    writes = (keys.EVIDENCE, keys.CONTROL)

    def __init__(
        self, name: str, *, succeeded: bool, max_attempts: int, robot: str = "robot1"
    ) -> None:
        super().__init__(name)
        self.succeeded = succeeded
        self.max_attempts = max_attempts
        self.robot = robot
        self.scene: SceneGraph | None = None
        self.evidence_key = self.key_of(keys.EVIDENCE)
        self.speaker_key = self.key_of(keys.SPEAKER)
        self.resolved_key = self.key_of(keys.RESOLVED)
        self.intent_key = self.key_of(keys.INTENT)
        self.control_key = self.key_of(keys.CONTROL)
        self._attempts: list[PlanAttempt] = []
        self._undone: tuple[Step, ...] = ()

    def setup(self, **kwargs: Any) -> None:
        """Take the optional ``scene_graph`` and, with it, the ``workers`` pool."""
        self.scene = optional_handle(self, kwargs, "scene_graph", SceneGraph)
        if self.scene is not None:
            self.workers = require_handle(self, kwargs, "workers", WorkerPool)
        super().setup(**kwargs)

    def start(self) -> Pending[Assessed | None] | Status:
        """Read the attempts; read the belief on the workers (or report the attempts alone)."""
        self._attempts = keys.read_attempts(self.blackboard)
        frame = keys.read_request_frame(self.blackboard)
        self._undone = left_undone(frame) if frame is not None else ()
        if self.scene is None:
            return self.finish(None)
        speaker = keys.read_optional(self.blackboard, self.speaker_key, str)
        work = (self._attempts, self.robot, self.scene, self._undone, speaker)
        return self.submit(assess_with_helpers, *work)

    def finish(self, result: Assessed | None) -> Status:
        """Write the evidence items; the status says whether the attempts succeeded."""
        outcome, helpers, asked = result if result is not None else (None, {}, "")
        item = outcome_item(
            self._attempts, outcome, succeeded=self.succeeded, max_attempts=self.max_attempts
        )
        previous = keys.read_optional(self.blackboard, self.evidence_key, EvidenceBundle)
        resolved = keys.read_optional(self.blackboard, self.resolved_key, dict) or {}
        intent = keys.read_optional(self.blackboard, self.intent_key, IntentFrame)
        extra = [
            alternatives_item(resolved) if item.ok else None,
            undone_item(self._undone, helpers, asked),
            left_item(intent.left, intent.left_why) if intent is not None else None,
        ]
        items = [*(previous.items if previous is not None else []), item]
        items += [said for said in extra if said is not None]
        self.blackboard.set(self.evidence_key, EvidenceBundle(items=items))
        if refused_for_hazards(self._attempts) is not None:
            self.blackboard.set(self.control_key, "Reject")
        self.feedback_message = item.text
        return Status.SUCCESS if self.succeeded else Status.FAILURE

    def on_error(self, error: Exception) -> Status:
        """The belief could not be read: report the attempts alone, saying so."""
        log.warning("%s: cannot read the belief after execution: %s", self.name, error)
        return self.finish(None)


def assess_belief(attempts: list[PlanAttempt], robot: str, scene: SceneGraph) -> TaskOutcome:
    """Every fact ``attempts`` were for, held against the belief ``scene`` (run it off the tick)."""
    return assess(attempts, robot, Observed.from_scene(scene))


def assess_with_helpers(
    attempts: list[PlanAttempt],
    robot: str,
    scene: SceneGraph,
    undone: tuple[Step, ...],
    speaker: str | None,
) -> Assessed:
    """:func:`assess_belief`, and who could do the undone steps or whom the last plan asked.

    :func:`~skills.planning.handover.undone_said` with the last plan's ``DELEGATE`` steps for
    the skills the robot lacks (:func:`~skills.planning.delegation.is_asked`).
    """
    last = attempts[-1] if attempts else None
    asked = [step for step in last.plan.steps if is_asked(step)] if last is not None else []
    done = {item.step for item in last.reflections if item.achieved} if last is not None else set()
    plan = ToAPlan(steps=asked, source="delegation") if asked else None
    helpers, said = undone_said(scene, undone, speaker, plan, done)
    return assess_belief(attempts, robot, scene), helpers, said


def outcome_item(
    attempts: list[PlanAttempt],
    outcome: TaskOutcome | None,
    *,
    succeeded: bool,
    max_attempts: int,
) -> EvidenceItem:
    """The evidence of a physical task: the facts after execution, then the attempts.

    ``ok`` is ``succeeded``, and with an ``outcome`` that has goal facts, also whether the
    robot or its delegates made every one of them hold. Without an outcome (no belief) the
    attempts alone are reported. Succeeded with no step in any plan, it says what was already
    so and marks ``nothing_needed`` (no reply may claim the task was done).
    """
    history = outcome_text(attempts, succeeded=succeeded, max_attempts=max_attempts)
    if succeeded and not any(attempt.plan.steps for attempt in attempts):
        return EvidenceItem(source="plan", text=history, ok=True, nothing_needed=True)
    if outcome is None or not outcome.facts:
        return EvidenceItem(source="plan", text=history, ok=succeeded)
    ok = succeeded and (outcome.achieved or not outcome.goals)
    said = outcome.sentences()
    text = f"{said} {history}" if succeeded else f"{history} {said}"
    return EvidenceItem(
        source="plan",
        text=text.strip(),
        rows=outcome.rows(),
        ok=ok,
        unclaimed=sorted(outcome.unclaimable()),
    )


SEQUENCE_THOUGHT = re.compile(r"^step (?P<number>\d+) of (?P<total>\d+) \((?P<said>.*?)\): ")
"""The thought of a plan step that belongs to one task of a request's sequence."""


def sequence_thought(number: int, total: int, said: str, task: str) -> str:
    """The thought of the skills of a sequence's ``number``-th task (``said``: its clause)."""
    return f"step {number} of {total} ({said or task}): {task}"[:300]


def request_steps(plan: ToAPlan) -> list[tuple[str, list[PlanStep]]]:
    """The request's steps (their clause as said) with the plan steps of each, in order.

    Empty when the plan is not for a sequence of tasks (its thoughts do not say so).
    """
    found: dict[int, tuple[str, list[PlanStep]]] = {}
    for step in plan.steps:
        part = SEQUENCE_THOUGHT.match(step.thought)
        if part is None:
            return []
        found.setdefault(int(part["number"]), (part["said"], []))[1].append(step)
    return [found[number] for number in sorted(found)]


def _sequence_done(plan: ToAPlan, done: set[int]) -> str:
    """Which of the request's steps were done and which were not ("" for no sequence)."""
    parts = request_steps(plan)
    if len(parts) < 2:
        return ""
    finished = [said for said, steps in parts if all(step.id in done for step in steps)]
    left = [said for said, steps in parts if not all(step.id in done for step in steps)]
    text = f"Done: {joined([repr(said) for said in finished])}." if finished else ""
    if left:
        text += f" Not done: {joined([repr(said) for said in left])}."
    return text.strip()


def outcome_text(attempts: list[PlanAttempt], *, succeeded: bool, max_attempts: int) -> str:
    """What was done and what was not, attempt by attempt, in plain sentences.

    For a request of several tasks it also says which of its steps were done. When the last
    attempt found no plan because of the robot's own limits and nothing ran, that is said
    instead: why it cannot, and what would make it possible.
    """
    if succeeded and attempts:
        last = attempts[-1]
        if not last.plan.steps and last.plan.source == "htn" and last.plan.rationale:
            return last.plan.rationale  # what is already so: nothing ran
        done = ", ".join(map(step_text, last.plan.steps)) or "nothing was needed"
        text = f"Steps run: {done}."
        parts = request_steps(last.plan)
        if len(parts) > 1:
            listed = "; ".join(
                f"{number}. {said} ({', '.join(map(step_text, steps))})"
                for number, (said, steps) in enumerate(parts, start=1)
            )
            text = f"Steps run, step by step: {listed}."
        if len(attempts) > 1:
            earlier = " ".join(_attempt_text(attempt) for attempt in attempts[:-1])
            text += f" It took {len(attempts)} attempts. {earlier}"
        return text
    if not attempts:
        return "I could not do it: no plan was made."
    if attempts[-1].infeasible and not any(map(_done_steps, attempts)):
        return attempts[-1].infeasible
    question = _asks(attempts[-1])
    if question is not None:
        return question
    refusal = refused_for_hazards(attempts)
    if refusal is not None:
        return refusal
    ran = [attempt for attempt in attempts if attempt.outcome not in ("rejected",)]
    tried = f"{counted(len(attempts), 'attempt')} (at most {max_attempts})"
    text = f"I could not do it after {tried}. " + " ".join(map(_attempt_text, attempts))
    if not any(_done_steps(attempt) for attempt in ran):
        return text + " Nothing was done."
    last = ran[-1]
    achieved = {reflection.step for reflection in last.reflections if reflection.achieved}
    steps_done = _sequence_done(last.plan, achieved)
    return f"{text} {steps_done}" if steps_done else text


def previous_attempt_text(attempts: list[PlanAttempt]) -> str:
    """The last attempt for the planner's prompt: its plan, validation, failure, suggestion."""
    if not attempts:
        return ""
    last = attempts[-1]
    lines = [f"Attempt {last.number} ({last.outcome}):", last.plan.describe()]
    if last.validation is not None and not last.validation.ok:
        lines.append(f"Validation: {last.validation.diagnosis()}")
    if last.failure:
        lines.append(f"Failure: {last.failure}")
    if last.suggestion:
        lines.append(f"Suggestion: {last.suggestion}")
    if last.recovery:
        lines.append(f"Suggested first steps: {recovery_text(last.recovery)}")
    return "\n".join(lines)


def refused_for_hazards(attempts: list[PlanAttempt]) -> str | None:
    """The refusal when the last attempt was rejected for forbidden hazards and nothing ran.

    None otherwise: a hazard found after something was done is reported with what was done.
    """
    last = attempts[-1] if attempts else None
    if last is None or last.validation is None or any(map(_done_steps, attempts)):
        return None
    problems = last.validation.problems
    forbidden = [problem for problem in problems if problem.code.startswith(HAZARD_CODES[0])]
    if last.validation.ok or not forbidden:
        return None
    clause = {step.id: said for said, steps in request_steps(last.plan) for step in steps}
    several = len(set(clause.values())) > 1  # a sequence: say in which of its requests
    said = [
        f"in {clause[problem.step]!r}: {problem.reason}"
        if several and problem.step in clause
        else problem.reason
        for problem in forbidden
    ]
    if several:
        return f"Sorry, I won't do that: {'; '.join(dict.fromkeys(said))} Nothing was done."
    return f"Sorry, I won't do that. {' '.join(dict.fromkeys(said))} Nothing was done."


def _asks(attempt: PlanAttempt) -> str | None:
    """The hazard question ``attempt``'s validation asks the user; None when it asks none."""
    return hazard_question(attempt.validation) if attempt.validation is not None else None


def _done_steps(attempt: PlanAttempt) -> list[str]:
    achieved = {reflection.step for reflection in attempt.reflections if reflection.achieved}
    return [step_text(step) for step in attempt.plan.steps if step.id in achieved]


def step_text(step: PlanStep) -> str:
    """``PICK(water_bottle, right)``, with `` by marco`` for a step someone else does."""
    args = ", ".join(str(value) for value in step.args.values())
    by = f" by {step.assignee}" if step.action == "DELEGATE" and step.assignee else ""
    return f"{step.action}({args}){by}"


def _rejection(attempt: PlanAttempt) -> str:
    """Why the validation rejected ``attempt``; for a sequence, by the request's step."""
    validation = attempt.validation
    if validation is None:
        return attempt.failure
    clause = {step.id: said for said, steps in request_steps(attempt.plan) for step in steps}
    if len(set(clause.values())) < 2 or validation.judge:
        return validation.diagnosis()
    return "; ".join(
        f"in {clause[problem.step]!r}: {problem.reason}"
        if problem.step in clause
        else problem.reason
        for problem in validation.problems
    )


def _attempt_text(attempt: PlanAttempt) -> str:
    number = f"Attempt {attempt.number}"
    if not attempt.plan.steps:
        return f"{number} found no plan: {attempt.failure or attempt.plan.rationale}."
    if attempt.outcome == "rejected":
        why = _rejection(attempt)
        return f"{number} was rejected before anything ran: {why.rstrip('.')}."
    if attempt.outcome == "succeeded":
        return f"{number} succeeded."
    done = ", ".join(_done_steps(attempt)) or "nothing"
    hint = f" Suggested next: {attempt.suggestion.rstrip('.')}." if attempt.suggestion else ""
    failure = (attempt.failure or "no reason given").rstrip(".")
    return f"{number} did {done}, then failed: {failure}.{hint}"
