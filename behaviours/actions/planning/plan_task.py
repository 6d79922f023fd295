"""``PlanTask``: the recovery loop's planner, from a Proceeded task to a Thought-of-Action plan.

A complete request whose task has a plan template in its domain pack is planned by the
task-level HTN methods (:class:`~skills.planning.tasks.TaskPlanner`) on the robot's belief: no model
call; after a failure whose explained recovery only moves, looks, waits or asks a person
who can do it (:mod:`skills.planning.recovery`), the plan starts with that recovery. When the
methods find no plan their reason is the answer (the model is not asked to do better than
the preconditions allow). A request of several tasks (``/turn/task`` a
:class:`~knowledge.understanding.turn_state.TaskSequence`) is planned the same way as one todo
list, each plan step's thought naming the request step it serves. Anything else (an open-ended need
such as "I'm thirsty", an errand with people in it) goes to the ``planner`` model, which
answers a :class:`~skills.planning.plan_model.ToAPlan` given the request, the task and its slots,
the working context, a summary of the scene and the action library, and, after a failed
attempt, that attempt's diagnosis, failure and the explainer's suggestion.

The scene is read on the ``workers`` pool before the cascade starts (the HTN search, or
the scene summary for the prompt), so no tick blocks.
"""

from __future__ import annotations

import logging
from concurrent.futures import Future
from dataclasses import dataclass
from typing import Any

from py_trees.common import Status
from pydantic import BaseModel

from cogtree.behaviours import keys
from cogtree.behaviours.actions.planning.plan_attempts import (
    previous_attempt_text,
    sequence_thought,
)
from cogtree.behaviours.keys import add_attempt, read_attempts
from cogtree.behaviours.llm_behaviour import LLMBehaviour, Verdict
from cogtree.behaviours.setup_handles import require_handle
from cogtree.knowledge.language.missing_steps import left_undone
from cogtree.knowledge.language.request_frame import Step
from cogtree.knowledge.llm.types import Message
from cogtree.knowledge.memory.experience import RecoveryStep, recovery_text
from cogtree.knowledge.memory.model import WorkingContext
from cogtree.knowledge.packs.domain_pack import SPEAKER_ARGUMENT, DomainPack, PlanTemplate, TaskSpec
from cogtree.knowledge.packs.domain_registry import DomainRegistry
from cogtree.knowledge.scene.scene_graph import SceneGraph
from cogtree.knowledge.scene.scene_models import ObjectInfo
from cogtree.knowledge.understanding.turn_state import IntentFrame, TaskSequence
from cogtree.knowledge.worker_pool import WorkerPool
from cogtree.skills.action_model.belief import Belief, RobotProfile
from cogtree.skills.action_model.specs import SkillArgumentError
from cogtree.skills.capabilities.calls import SKILL_SPECS
from cogtree.skills.planning.already import already_so
from cogtree.skills.planning.delegation import Delegation, asked_steps, delegations
from cogtree.skills.planning.limits import infeasible_text
from cogtree.skills.planning.plan_model import (
    DELEGATE,
    LOOK,
    PlanAttempt,
    PlanError,
    PlanStep,
    ToAPlan,
    plan_graph,
    sequential,
)
from cogtree.skills.planning.recovery import belief_after_recovery, usable_recovery
from cogtree.skills.planning.tasks import TaskCall, TaskPlan, TaskPlanner, task_call

log = logging.getLogger(__name__)

MAX_SCENE_LINES = 80
"""At most this many objects and furniture lines in the prompt's scene summary."""

SYSTEM_PROMPT = """You plan the actions of an assistive robot team (Thought-of-Action).
Answer one JSON object: {{"steps": [...], "rationale": "..."}}. Each step has an id (1, 2, ...),
a thought (why, one sentence), an action, its args, depends_on (ids of earlier steps that must
end first; none means it may start at once) and an assignee (a robot or person id, or null).
Actions:
{actions}
Rules: name only ids from the scene below; a robot must hold an object (PICK) before PLACE or
HANDOVER, and open a closed container before taking from or putting into it; use DELEGATE
only for what no robot can do, with a person who has that ability and is available; use LOOK
when the belief may be out of date. If nothing sensible can be done, answer no steps and say
why in the rationale."""

ACTION_LINES = (
    *(f"- {spec.signature()}: {spec.summary}" for spec in SKILL_SPECS.values()),
    f"- {LOOK}(): look around the current room and update the belief",
    f"- {DELEGATE}(person, ability, description): ask a person to do one of their abilities",
)
"""The action library as the prompt lists it."""


@dataclass(frozen=True)
class _Preparation:
    """What the worker read from the scene before the cascade starts.

    ``recovery``: the steps from experience the HTN plan starts with (``htn`` was planned
    as if they had run); ``recovered_with``: the whole recovery they come from;
    ``recovery_left``: the last failure's recovery is one the HTN replan cannot run (it
    changes the world: OPEN, PLACE, ..., or asks a person who cannot do it now), so the
    planner model should have it.
    ``infeasible``: with no HTN plan because of the robot's own limits, why it cannot do
    the task and what would make it possible (:func:`skills.planning.limits.infeasible_text`);
    ``already``: with nothing to do, what is already so
    (:func:`skills.planning.already.already_so`); ``asked``: who does each step of the request
    the robot lacks the skill for (:func:`skills.planning.delegation.delegations`), asked by
    ``DELEGATE`` steps at the end of the plan.
    """

    htn: TaskPlan | None = None
    scene_text: str = ""
    problem: str = ""
    infeasible: str = ""
    already: str = ""
    recovery: tuple[RecoveryStep, ...] = ()
    recovered_with: tuple[RecoveryStep, ...] = ()
    recovery_left: bool = False
    asked: tuple[Delegation, ...] = ()


class PlanTask(LLMBehaviour[ToAPlan]):
    """Make the plan of this attempt: HTN for templated tasks, the planner model otherwise.

    Handles: ``llm``, ``domains`` (the packs' task specs and plan templates), ``scene_graph``
    (the belief).

    Reads ``/turn/domain``, ``/turn/task``, ``/turn/intent``, ``/turn/utterance``,
    ``/turn/speaker``, ``/memory/working``, ``/turn/frame`` (its steps the robot lacks the
    skill for are asked of a person at the plan's end: :mod:`skills.planning.delegation`) and
    ``/plan/attempts`` (the previous attempts' diagnoses, failures and suggestions). Writes
    ``/plan/current`` and appends a :class:`~skills.planning.plan_model.PlanAttempt` to
    ``/plan/attempts``.

    SUCCESS: a plan with steps (or the HTN methods found there is nothing to do).
    FAILURE: no plan: the HTN methods found none (their reason), the model could not give a
    usable one, or the guard refused it (an empty plan is written, nothing may execute).
    RUNNING: reading the scene, planning on the worker, or waiting for the model.
    """

    reads = (keys.DOMAIN, keys.TASK, keys.INTENT, keys.UTTERANCE, keys.SPEAKER, keys.WORKING,
             keys.REQUEST_FRAME)  # fmt: skip
    writes = (keys.PLAN, keys.ATTEMPTS)

    module = "planner"

    def __init__(self, name: str = "PlanTask", *, robot: str = "robot1") -> None:
        super().__init__(name, ToAPlan)
        self.robot = robot
        self.task_planner = TaskPlanner()
        self.domains: DomainRegistry | None = None
        self.scene: SceneGraph | None = None
        self.domain_key = self.key_of(keys.DOMAIN)
        self.task_key = self.key_of(keys.TASK)
        self.intent_key = self.key_of(keys.INTENT)
        self.utterance_key = self.key_of(keys.UTTERANCE)
        self.speaker_key = self.key_of(keys.SPEAKER)
        self.working_key = self.key_of(keys.WORKING)
        self.plan_key = self.key_of(keys.PLAN)
        self._prepared: _Preparation | None = None
        self._from_htn = False
        self._htn_reason = ""
        self._nothing_to_do = False
        self._steps_said: list[str] = []

    def setup(self, **kwargs: Any) -> None:
        """Take the ``llm``, ``domains``, ``scene_graph`` and ``workers`` handles."""
        super().setup(**kwargs)
        self.domains = require_handle(self, kwargs, "domains", DomainRegistry)
        self.scene = require_handle(self, kwargs, "scene_graph", SceneGraph)
        self.workers = require_handle(self, kwargs, "workers", WorkerPool)

    # -- preparation: read the scene on a worker, before the cascade -----------------------------

    preparing = "reading the scene to plan"

    def prepare(self) -> Future[_Preparation] | None:
        """Start the HTN search (templated task) or the scene summary (model) on a worker."""
        if self.scene is None or self.domains is None or self.workers is None:
            raise RuntimeError(f"{self.name}: setup(llm=, domains=, scene_graph=, workers=) first")
        self._prepared = None
        self._from_htn = self._nothing_to_do = False
        self._htn_reason = ""
        self._steps_said = []
        try:
            calls = self._template_calls()
        except (LookupError, ValueError) as problem:
            self._prepared = _Preparation(problem=f"I cannot plan that: {problem}")
            return None
        if calls:
            attempts = self._attempts()
            last = attempts[-1] if attempts else None
            intent = keys.read_optional(self.blackboard, self.intent_key, IntentFrame)
            said = tuple(intent.said) if intent is not None else (self._request(),)
            speaker = keys.read_optional(self.blackboard, self.speaker_key, str)
            undone = (
                left_undone(frame) if (frame := keys.read_request_frame(self.blackboard)) else ()
            )
            return self.workers.submit(self._plan_htn, calls, last, said, speaker, undone)
        return self.workers.submit(self._scene_summary)

    def prepared(self, result: Any) -> None:
        """Keep the HTN plan or the scene summary."""
        assert isinstance(result, _Preparation)
        self._prepared = result

    def preparation_failed(self, error: Exception) -> None:
        """A belief the planner cannot read: no plan, with the reason (logged)."""
        log.error("%s: reading the scene failed", self.name, exc_info=error)
        self._prepared = _Preparation(
            problem=f"I could not read my map: {type(error).__name__}: {error}"
        )

    # -- the cascade's hooks --------------------------------------------------------------------

    def fast_path(self) -> Verdict[ToAPlan] | None:
        """The HTN plan (or its reason for none), or a problem found before planning."""
        prepared = self._prepared
        assert prepared is not None
        if prepared.problem:
            self._from_htn = True
            return Verdict(_no_plan(prepared.problem, "htn"), prepared.problem)
        if prepared.htn is None:
            return None
        self._from_htn = True
        found = prepared.htn
        self._nothing_to_do = found.ok and not found.skills
        if not found.ok:
            reason = f"I found no way to do it: {found.message}"
            if prepared.infeasible:
                reason = f"{prepared.infeasible} (I found no way to do it: {found.message})"
            if self._model_available():
                self._from_htn = False
                self._htn_reason = found.message
                self._notes.append("the task-level methods found no plan; asking the planner model")
                return None
            return Verdict(_no_plan(reason, "htn"), reason)
        if prepared.recovery_left and self._model_available():
            self._from_htn = self._nothing_to_do = False
            self._notes.append(
                "the explainer's recovery does more than move, look, wait or ask; asking the "
                "planner model with it"
            )
            return None
        recovery = [
            PlanStep(
                id=number,
                thought="the explainer's suggestion from past failures",
                action=step.action,
                args=dict(step.args),
                assignee=str(step.args["person"]) if step.action == DELEGATE else self.robot,
            )
            for number, step in enumerate(prepared.recovery, start=1)
        ]
        parts = found.by_task()
        thoughts = [
            sequence_thought(number, len(parts), said, str(task)) if len(parts) > 1 else ""
            for number, ((task, _), said) in enumerate(
                zip(parts, self._steps_said or [""] * len(parts), strict=True), start=1
            )
        ]
        calls = [
            (thought or f"part of {task}", call)
            for (task, skills), thought in zip(parts, thoughts, strict=True)
            for call in skills
        ]
        steps = [
            PlanStep(
                id=number,
                thought=thought,
                action=call.skill,
                args=call.args.model_dump(mode="json", exclude_none=True),
                assignee=self.robot,
            )
            for number, (thought, call) in enumerate(calls, start=len(recovery) + 1)
        ]
        steps += asked_steps(prepared.asked, start=len(recovery) + len(steps) + 1)
        first = f"recovery {recovery_text(prepared.recovery)}, then " if recovery else ""
        said = prepared.already if self._nothing_to_do and not recovery else found.message
        plan = ToAPlan(
            steps=sequential([*recovery, *steps]),
            rationale=f"{first}{said}"[:500],
            source="htn",
        )
        if self._repeats_last_failure(plan):
            self._from_htn = self._nothing_to_do = False
            self._notes.append("the HTN plan failed twice the same way; asking the planner model")
            return None
        return Verdict(plan, f"task-level HTN: {found.message}")

    def messages(self) -> list[Message]:
        """The request, task, working context, scene, action library and last attempt."""
        prepared = self._prepared
        scene_text = prepared.scene_text if prepared is not None else ""
        sections = [
            f"Request: {self._request() or '(not given)'}",
            f"Speaker: {keys.read(self.blackboard, self.speaker_key) or 'unknown'}",
            f"Task: {self._task_text()}",
            f"Working context:\n{self._working_text() or '(none)'}",
            f"Scene (the robot's belief):\n{scene_text or '(empty)'}",
        ]
        if self._htn_reason:
            sections.append(
                "The task-level methods found no plan (the plan must not need what they "
                f"lacked, or must get it first): {self._htn_reason}"
            )
        previous = previous_attempt_text(self._attempts())
        if previous:
            sections.append(
                f"The last plan did not work; plan again with this in mind:\n{previous}"
            )
        system = SYSTEM_PROMPT.format(actions="\n".join(ACTION_LINES))
        return [
            Message(role="system", content=system),
            Message(role="user", content="\n\n".join(sections)),
        ]

    def safe_decision(self, reason: str) -> ToAPlan:
        """No plan: nothing executes, and the reason is said."""
        return _no_plan(f"no plan: {reason}", "model")

    def revise(self, decision: ToAPlan) -> str | None:
        """Ask the model once more when its plan is structurally broken."""
        return _structural_problem(decision)

    def guard(self, decision: ToAPlan) -> Verdict[ToAPlan] | None:
        """Refuse a structurally broken plan (bad dependencies, actions or arguments)."""
        problem = _structural_problem(decision)
        if problem is None:
            return None
        return Verdict(_no_plan(f"refused: {problem}", decision.source), problem)

    def apply(self, decision: ToAPlan) -> Status:
        """Write the plan and record the attempt; SUCCESS when there is something to do."""
        plan = decision if self._from_htn else decision.model_copy(update={"source": "model"})
        ok = bool(plan.steps) or self._nothing_to_do
        self.blackboard.set(self.plan_key, plan)
        recovered = self._prepared.recovered_with if self._prepared and self._from_htn else ()
        infeasible = self._prepared.infeasible if self._prepared and self._from_htn else ""
        add_attempt(
            self.blackboard,
            plan,
            failure="" if ok else plan.rationale or "no plan",
            recovered_with=recovered,
            infeasible="" if ok else infeasible,
        )
        return Status.SUCCESS if ok else Status.FAILURE

    def summary(self, decision: ToAPlan) -> str:
        """``3 steps (htn)`` or ``no plan``."""
        if not decision.steps:
            return f"no plan ({decision.source})"
        return f"{len(decision.steps)} steps ({decision.source})"

    # -- helpers --------------------------------------------------------------------------------

    def _task_spec(self) -> TaskSpec | None:
        """The pack's spec of ``/turn/task``; None when there is no task (the model plans)."""
        assert self.domains is not None
        task = keys.read_optional(self.blackboard, self.task_key, BaseModel)
        if task is None or not keys.read(self.blackboard, self.domain_key):
            return None
        name = type(task).__name__
        return next((spec for spec in self._pack().tasks if spec.schema_name == name), None)

    def _pack(self) -> DomainPack:
        """The turn's domain pack; LookupError when it is not loaded."""
        assert self.domains is not None
        domain = keys.read(self.blackboard, self.domain_key)
        try:
            return self.domains.get(str(domain))
        except KeyError as error:
            raise LookupError(f"{domain} is not a loaded domain pack") from error

    def _template_calls(self) -> list[TaskCall]:
        """The task-level calls of ``/turn/task``: one, one per step of a sequence, or none.

        Empty when the task has no plan template (the model plans). A sequence whose step
        has no template cannot be planned by the HTN methods: ValueError naming the step.
        """
        task = keys.read_optional(self.blackboard, self.task_key, BaseModel)
        if isinstance(task, TaskSequence):
            pack = self._pack()
            calls = []
            for step in task.steps:
                step_spec = pack.task(step.task)
                if step_spec.plan is None:
                    raise ValueError(f"{step.task} ({step.said!r}) has no plan template")
                calls.append(self._template_call(step_spec, step.values))
            self._steps_said = [step.said for step in task.steps]
            return calls
        spec = self._task_spec()
        if task is None or spec is None or spec.plan is None:
            return []
        return [self._template_call(spec, task)]

    def _template_call(self, spec: TaskSpec, task: BaseModel) -> TaskCall:
        """The task-level call of ``spec``'s plan template, with ``task``'s slot values."""
        assert spec.plan is not None
        try:
            return task_call(spec.plan.task, self._template_arguments(spec.plan, task))
        except SkillArgumentError as error:
            raise ValueError(str(error)) from error

    def _template_arguments(self, template: PlanTemplate, task: BaseModel) -> dict[str, str]:
        arguments: dict[str, str] = {}
        for argument, slot in template.args.items():
            if slot == SPEAKER_ARGUMENT:
                speaker = keys.read(self.blackboard, self.speaker_key)
                if not speaker:
                    raise ValueError("I do not know who is speaking (/turn/speaker is not set)")
                arguments[argument] = str(speaker)
                continue
            value = getattr(task, slot, None)
            if isinstance(value, list | tuple):
                value = value[0] if len(value) == 1 else None
            if value is None and not type(task).model_fields[slot].is_required():
                continue  # an optional slot the user left unsaid: the task decides
            if value in (None, ""):
                raise ValueError(f"the task's {slot} is not one known thing")
            arguments[argument] = str(value)
        return arguments

    def _plan_htn(
        self,
        calls: list[TaskCall],
        last: PlanAttempt | None,
        said: tuple[str, ...],
        speaker: str | None = None,
        undone: tuple[Step, ...] = (),
    ) -> _Preparation:
        """The HTN plan of the task, or of the sequence as one todo list.

        After a failure also the scene text, in case the model must replan. When the last
        attempt failed with a recovery the HTN replan can use
        (:func:`~skills.planning.recovery.usable_recovery`), the plan starts with it and the tasks
        are planned on the belief as the recovery will leave it. ``said``: the request's utterances,
        whose hazards a plan-less task names first. With no plan, the robot's limits the
        search met are said for ``speaker`` (who else could help). The ``undone`` steps (a
        skill the robot lacks) go to who may, the speaker only after the robot's part (``asked``).
        """
        assert self.scene is not None
        belief = Belief.from_scene(self.scene, self.robot)
        recovery = (
            usable_recovery(last.recovery, belief, last.error_code) if last is not None else None
        )
        if last is not None and recovery is not None:
            planned_on = belief_after_recovery(belief, recovery, last.context)
            found = self.task_planner.plan_sequence(calls, planned_on, said, speaker)
            if found.ok:
                return _Preparation(
                    htn=found,
                    scene_text=describe_scene(self.scene),
                    recovery=recovery,
                    recovered_with=last.recovery,
                )
            log.info("%s: no plan after the recovery %s", self.name, recovery_text(recovery))
        found = self.task_planner.plan_sequence(calls, belief, said, speaker)
        scene_text = describe_scene(self.scene) if last is not None or not found.ok else ""
        infeasible = "" if found.ok else infeasible_text(found.limits, belief, speaker)
        did_part = found.ok and bool(found.skills)
        already = already_so(found.tasks, belief, speaker) if found.ok and not did_part else ""
        return _Preparation(
            htn=found,
            scene_text=scene_text,
            recovery_left=last is not None and bool(last.recovery) and recovery is None,
            infeasible=infeasible,
            already=already,
            asked=tuple(delegations(undone, list(belief.people.values()), speaker, said, did_part)),
        )

    def _model_available(self) -> bool:
        """Whether the planner module has a model behind it (not the ``none`` backend)."""
        return self.llm is not None and self.llm.backend_for(self.module_name).name != "none"

    def _repeats_last_failure(self, plan: ToAPlan) -> bool:
        """Whether ``plan`` is the last attempt's plan, which failed as the one before it did.

        Trying a failed plan again is right once (a grasp may slip); a plan that failed the
        same way twice goes to the planner model with the explainer's suggestion instead.
        """
        attempts = self._attempts()
        if len(attempts) < 2:
            return False
        before, last = attempts[-2:]
        return (
            before.outcome == last.outcome == "failed"
            and before.failure == last.failure
            and _actions(last.plan) == _actions(plan)
        )

    def _scene_summary(self) -> _Preparation:
        assert self.scene is not None
        return _Preparation(scene_text=describe_scene(self.scene))

    def _attempts(self) -> list[PlanAttempt]:
        return read_attempts(self.blackboard)

    def _request(self) -> str:
        said = keys.read(self.blackboard, self.utterance_key)
        if said:
            return str(said)
        intent = keys.read_optional(self.blackboard, self.intent_key, IntentFrame)
        return " / ".join(intent.said) if intent is not None else ""

    def _task_text(self) -> str:
        task = keys.read_optional(self.blackboard, self.task_key, BaseModel)
        if task is not None:
            slots = ", ".join(
                f"{name}={value!r}" for name, value in task.model_dump().items() if value
            )
            return f"{type(task).__name__}({slots})"
        intent = keys.read_optional(self.blackboard, self.intent_key, IntentFrame)
        if intent is not None and intent.task:
            return f"{intent.task}({intent.slots})"
        return "(none: plan from the request)"

    def _working_text(self) -> str:
        working = keys.read_optional(self.blackboard, self.working_key, WorkingContext)
        return working.text if working is not None else ""


def _actions(plan: ToAPlan) -> list[tuple[str, dict[str, Any]]]:
    return [(step.action, step.args) for step in plan.steps]


def _no_plan(reason: str, source: str) -> ToAPlan:
    """An empty plan carrying why there is none."""
    return ToAPlan.model_validate({"steps": [], "rationale": reason, "source": source})


def _structural_problem(plan: ToAPlan) -> str | None:
    """Why ``plan`` cannot even be checked (dependencies, arguments), or None."""
    try:
        plan_graph(plan)
        for step in plan.steps:
            if step.action == DELEGATE:
                missing = [k for k in ("person", "ability") if not step.args.get(k)]
                if missing:
                    raise PlanError(f"step {step.id}: DELEGATE needs {' and '.join(missing)}")
            elif step.action != LOOK:
                step.skill_call()
    except PlanError as error:
        return str(error)
    return None


def describe_scene(scene: SceneGraph) -> str:
    """A compact text of the belief for a prompt: rooms, furniture, objects, people, robots.

    Runs several scene-graph queries: call it on the ``workers`` pool.
    """
    rooms = scene.rooms()
    lines = [
        "Rooms: " + "; ".join(f"{r.id} (to {', '.join(r.connected_to) or '-'})" for r in rooms)
    ]
    things = [info for room in rooms for info in scene.objects_in_room(room.id)]
    ordered = sorted(things, key=lambda item: (item.kind == "object", item.room, item.id))
    lines.extend(_thing_line(info) for info in ordered[:MAX_SCENE_LINES])
    if len(ordered) > MAX_SCENE_LINES:
        lines.append(f"... and {len(ordered) - MAX_SCENE_LINES} more things")
    for human in scene.humans():
        abilities = ", ".join(sorted(human.abilities)) or "none"
        lines.append(
            f"- person {human.id}: room {human.room or 'unknown'}, "
            f"{human.availability or 'availability unknown'}, abilities: {abilities}"
        )
    for robot in scene.robot_state():
        skills = sorted(RobotProfile.from_state(robot).skills)
        lines.append(
            f"- robot {robot.id}: room {robot.room or 'unknown'}, {robot.hands} hands, "
            f"payload {robot.payload_kg} kg, skills {', '.join(skills)}, "
            f"holding {', '.join(robot.holding) or 'nothing'}"
        )
    return "\n".join(lines)


def _thing_line(info: ObjectInfo) -> str:
    """``- fridge: container, room kitchen, closed``."""
    details = [info.kind if info.kind != "object" else (info.type or "object")]
    if info.label and info.label != info.id:
        details.append(f'"{info.label}"')
    if info.relation in ("on", "in", "heldBy") and info.support:
        details.append(f"{info.relation} {info.support}")
    details.append(f"room {info.room}")
    if info.is_open is not None:
        details.append("open" if info.is_open else "closed")
    if info.mass_kg is not None:
        details.append(f"{info.mass_kg} kg")
    details.extend(f"{key}={value}" for key, value in sorted(info.attributes.items()))
    return f"- {info.id}: {', '.join(details)}"
