"""Oracles without hindsight: every oracle answer checked against what the robot knew then.

A scenario's oracle stands for an *ideal model with the robot's knowledge*: it may use what
the robot's belief and the conversation hold when the model is asked, never the world's
ground truth or what happens later. :class:`OracleWitness` wraps the scripted oracle's
backend; at every call it snapshots the robot team's belief (:class:`~skills.planning.assignment.
PlanWorld`) and the conversation (the task's utterances on the blackboard), and keeps the
answer (:class:`OracleCall`). :func:`hindsight_problems` then checks each call:

- **entities**: every id of the world that the answer names (a step's arguments and
  assignee, an id or label in its rationale or thoughts) is in the belief or was said;
- **plan facts**: the plan passes the dry run on the belief of that moment, hazards aside
  (the robot must find those itself): an object picked where the belief does not put it, a
  person the belief does not know, are facts the robot did not have;
- **the goal in view**: a plan without a LOOK (a search, whose findings nobody can know)
  must reach the goal predicates it can be judged on in the beliefs the dry run projects: a
  plan that stops short and "works" because the world finishes the job knew the future;
- **no predictions**: a rationale that states an outcome (someone declines or is away, a
  thing was moved, a grasp slips) needs evidence of that outcome in what the model was sent
  (an earlier attempt's failure, the conversation); "X said ..." needs the things it quotes
  in the conversation.

The shipped scenarios are checked by ``tests/evaluation/test_oracle_hindsight.py``.
"""

from __future__ import annotations

import json
import re
import threading
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

import py_trees

from cogtree.behaviours import keys
from cogtree.evaluation.scenarios.oracle import PLANNER_MODULE
from cogtree.evaluation.scenarios.scenario_run import ScenarioResult, oracle_client, run_scenario
from cogtree.knowledge.llm.backend import Backend, WrappedBackend
from cogtree.knowledge.llm.types import Completion, LLMRequest
from cogtree.knowledge.packs.domain_registry import DomainRegistry
from cogtree.knowledge.scene.scene_graph import SceneGraph
from cogtree.knowledge.understanding.turn_state import IntentFrame
from cogtree.sim.executor import SimExecutor
from cogtree.sim.predicates import Predicate
from cogtree.sim.scenario import Scenario
from cogtree.sim.world_spec import WorldSpec
from cogtree.skills.action_model.belief import Belief
from cogtree.skills.planning.assignment import PlanWorld
from cogtree.skills.planning.plan_model import DELEGATE, LOOK, PlanError, ToAPlan
from cogtree.skills.planning.plan_validation import HAZARD_CODES, rehearse

BeliefSource = Callable[[], PlanWorld | None]
"""Reads the team's belief now (None when there is none yet)."""


@dataclass(frozen=True)
class Outcome:
    """A kind of outcome a rationale may state, and the evidence that it was observed."""

    kind: str
    claim: re.Pattern[str]
    evidence: re.Pattern[str]


OUTCOMES: tuple[Outcome, ...] = (
    Outcome(
        "a refusal",
        re.compile(r"\b(declin\w*|refus\w*|won'?t|will not|says? no)\b"),
        re.compile(r"declin|refus|said no|won'?t"),
    ),
    Outcome(
        "someone's absence",
        re.compile(
            r"\b(busy|on a call|in a call|(?:is|are|was|were|went|gone) away|has left|"
            r"left for|has gone|unavailable)\b"
        ),
        re.compile(r"unavailable|not available|busy|away|on a call|in a call|gone|has left"),
    ),
    Outcome(
        "a thing moved",
        re.compile(r"\b(was moved|has moved|been moved|took it|taken|carried it|elsewhere)\b"),
        re.compile(r"moved|not_visible|not visible|not on|not in|not found|missing|elsewhere"),
    ),
    Outcome(
        "a slip",
        re.compile(r"\b(slip\w*|dropp\w*|fell)\b"),
        re.compile(r"slip|dropp|fell|grasp"),
    ),
)
"""Outcomes a rationale may only state once the robot has seen them."""

QUOTE = re.compile(r"\b(?:said|says|told|asked for)\b(?P<quoted>[^;.]*)")
"""``X said ...``: what follows, to the end of the clause, must have been said."""


@dataclass(frozen=True)
class OracleCall:
    """One oracle answer and what the robot knew when it was asked.

    ``prompt``: every message the module was sent. ``team``: the team's beliefs at the call
    (None when the robot had none). ``said``: the conversation of the task so far.
    """

    module: str
    prompt: str
    answer: Mapping[str, Any]
    team: PlanWorld | None
    said: tuple[str, ...]

    @property
    def known(self) -> frozenset[str]:
        """The ids the belief holds: rooms, things, people and robots."""
        if self.team is None:
            return frozenset()
        beliefs = self.team.beliefs.values()
        return frozenset(
            {*self.team.robots, *self.team.people}
            | {name for belief in beliefs for name in (*belief.rooms, *belief.things)}
        )


class OracleWitness(WrappedBackend):
    """A backend wrapper that records each call's answer with the belief of that moment.

    ``belief`` reads the team's belief (set it with :meth:`watch` once the simulator runs);
    the conversation comes from the blackboard (``/turn/utterance``, ``/turn/intent``).
    """

    def __init__(self, inner: Backend) -> None:
        super().__init__(inner)
        self.calls: list[OracleCall] = []
        self.belief: BeliefSource = lambda: None
        self._lock = threading.Lock()
        self._blackboard = py_trees.blackboard.Client(name="OracleWitness")
        for key in (keys.UTTERANCE, keys.INTENT):
            self._blackboard.register_key(key.name, access=py_trees.common.Access.READ)

    def watch(self, belief: BeliefSource) -> None:
        """Read the team's belief from ``belief`` at each call from now on."""
        self.belief = belief

    def complete(self, request: LLMRequest, cancel: threading.Event) -> Completion:
        """Snapshot the belief and the conversation, then let the oracle answer."""
        team, said = self.belief(), self._conversation()
        completion = self.inner.complete(request, cancel)
        try:
            answer = json.loads(completion.text)
        except ValueError:
            answer = {}
        call = OracleCall(request.module, request.prompt_text(), answer, team, said)
        with self._lock:
            self.calls.append(call)
        return completion

    def _conversation(self) -> tuple[str, ...]:
        frame = keys.read_optional(self._blackboard, keys.INTENT.name, IntentFrame)
        utterance = keys.read_optional(self._blackboard, keys.UTTERANCE.name, str)
        said = [*(frame.said if frame is not None else []), *([utterance] if utterance else [])]
        return tuple(dict.fromkeys(said))


def team_belief(scene: SceneGraph, robot: str) -> PlanWorld:
    """The team's belief as the dry run reads it, ``robot`` first."""
    robots = [state.id for state in scene.robot_state()]
    return PlanWorld.from_scene(scene, [robot, *(r for r in robots if r != robot)])


def run_witnessed(
    scenario: Scenario, *, domains: DomainRegistry | None = None
) -> tuple[ScenarioResult, list[OracleCall]]:
    """Run ``scenario`` on its oracle (the gated tree), recording every call with its belief.

    ``domains``: the packs to run on (None: the shipped ones, discovered for this run).
    """
    witnesses: list[OracleWitness] = []

    def wrap(inner: Backend) -> Backend:
        witnesses.append(OracleWitness(inner))
        return witnesses[-1]

    def watch(simulator: SimExecutor) -> None:
        scene = simulator.belief
        if scene is not None:
            for witness in witnesses:
                witness.watch(lambda: team_belief(scene, scenario.main_robot))

    llm = oracle_client(scenario, wrap=wrap)
    try:
        result = run_scenario(scenario, llm=llm, on_start=watch, domains=domains)
    finally:
        llm.close()
    return result, [call for witness in witnesses for call in witness.calls]


# -- the checks --------------------------------------------------------------------------------


def hindsight_problems(scenario: Scenario, calls: Iterable[OracleCall]) -> list[str]:
    """Every use of knowledge the robot did not have, one line each (empty: none)."""
    names = _entity_names(scenario.world)
    found: list[str] = []
    for number, call in enumerate(calls, start=1):
        where = f"{scenario.id}: oracle call {number} ({call.module})"
        found += [f"{where}: {problem}" for problem in _call_problems(scenario, call, names)]
    return found


def _call_problems(scenario: Scenario, call: OracleCall, names: Mapping[str, str]) -> list[str]:
    texts = [str(call.answer.get("rationale") or "")]
    named: list[str] = []
    plan: ToAPlan | None = None
    if call.module == PLANNER_MODULE:
        try:
            plan = ToAPlan.model_validate(call.answer)
        except ValueError as error:
            return [f"the answer is not a plan: {error}"]
        texts += [step.thought for step in plan.steps]
        named = [
            value
            for step in plan.steps
            for value in (*step.args.values(), step.assignee)
            if isinstance(value, str)
        ]
    found = _entity_problems(call, named, texts, names)
    found += _prediction_problems(call, texts, names)
    if plan is not None and call.team is not None:
        found += _plan_problems(scenario, call.team, plan)
    return found


def _entity_problems(
    call: OracleCall, named: list[str], texts: list[str], names: Mapping[str, str]
) -> list[str]:
    """Ids of the world, named by the answer, that neither the belief nor the user gave."""
    conversation = " ".join(call.said).lower()
    mentioned = {names[word] for text in texts for word in _mentions(text, names)}
    unknown = sorted(
        {value for value in named if value in names.values()} | mentioned,
    )
    return [
        f"names {entity}, which is not in the robot's belief at the call, nor said"
        for entity in unknown
        if entity not in call.known and not _said(entity, names, conversation)
    ]


def _prediction_problems(call: OracleCall, texts: list[str], names: Mapping[str, str]) -> list[str]:
    """Outcomes stated before they were seen; quotes of what nobody said."""
    seen = (call.prompt + " " + " ".join(call.said)).lower()
    conversation = " ".join(call.said).lower()
    found = []
    for text in (text.lower() for text in texts if text):
        for outcome in OUTCOMES:
            claim = outcome.claim.search(text)
            if claim is not None and outcome.evidence.search(seen) is None:
                found.append(
                    f"predicts {outcome.kind} ({claim.group(0)!r} in {text!r}) that nothing "
                    "the robot was told or saw shows"
                )
        for quote in QUOTE.finditer(text):
            unsaid = [
                names[word]
                for word in _mentions(quote.group("quoted"), names)
                if not _said(names[word], names, conversation)
            ]
            if unsaid:
                found.append(
                    f"quotes the user about {', '.join(unsaid)} ({text!r}), which nobody said"
                )
    return found


def _plan_problems(scenario: Scenario, team: PlanWorld, plan: ToAPlan) -> list[str]:
    """The dry run on the belief of the call (hazards aside), then the goal in projection."""
    try:
        rehearsal = rehearse(plan, team)
    except PlanError as error:
        return [f"the plan cannot be dry-run: {error}"]
    problems = [
        problem
        for problem in rehearsal.report.problems
        if not problem.code.startswith(HAZARD_CODES)
    ]
    if problems:
        return [
            f"fails the dry run on the robot's belief at the call (it relies on facts the "
            f"robot did not have): step {problem.step}: {problem.reason}"
            for problem in problems
        ]
    if any(step.action == LOOK for step in plan.steps) or rehearsal.report.problems:
        return []
    missed = [
        str(predicate)
        for predicate in scenario.goal.all
        if _expected(predicate, rehearsal.beliefs, plan) is False
    ]
    if not missed:
        return []
    return [
        f"stops short of the goal in the robot's view: after the plan the belief would not "
        f"have {', '.join(missed)} (a plan that works only because the world finishes it "
        "knew the future)"
    ]


def _expected(predicate: Predicate, beliefs: Mapping[str, Belief], plan: ToAPlan) -> bool | None:
    """Whether ``predicate`` holds in the beliefs after ``plan``; None when they cannot tell."""
    value = _holds_after(predicate.name, predicate.args, beliefs, plan)
    return None if value is None else value != predicate.negated


def _holds_after(
    name: str, args: tuple[str, ...], beliefs: Mapping[str, Belief], plan: ToAPlan
) -> bool | None:
    first, second = (*args, "")[:2]
    if name == "did":  # who does it is the world's business: the robot asks someone able
        return any(
            step.action == DELEGATE and step.args.get("ability") == second for step in plan.steps
        )
    if name in ("at", "in_room") and first in beliefs:
        return beliefs[first].robot_room == second
    if name == "holds" and first in beliefs:
        return second in beliefs[first].held
    things = [belief.things[first] for belief in beliefs.values() if first in belief.things]
    if not things:
        return None
    relation = {"on": "on", "in": "in", "delivered": "heldBy"}.get(name)
    if relation is not None:
        return any(t.relation == relation and t.support == second for t in things)
    if name == "in_room":
        return any(thing.room == second for thing in things)
    if name == "is_open":
        return any(thing.is_open for thing in things)
    if name == "powered":
        return any(thing.powered for thing in things)
    return None


# -- names -------------------------------------------------------------------------------------


def _entity_names(spec: WorldSpec) -> dict[str, str]:
    """Every way a rationale may name an entity of the world (id, label) -> the id."""
    sections: list[Mapping[str, Any]] = [
        spec.rooms,
        spec.furniture,
        spec.objects,
        spec.robots,
        spec.people,
    ]
    names: dict[str, str] = {}
    for section in sections:
        for entity, item in section.items():
            names[entity.lower()] = entity
            names[entity.lower().replace("_", " ")] = entity
            label = getattr(item, "label", None)
            if label:
                names[str(label).lower()] = entity
    return names


def _mentions(text: str, names: Mapping[str, str]) -> list[str]:
    """The names of ``names`` that ``text`` contains as whole words."""
    lowered = text.lower()
    return [name for name in names if re.search(rf"(?<![\w']){re.escape(name)}(?![\w'])", lowered)]


def _said(entity: str, names: Mapping[str, str], conversation: str) -> bool:
    """Whether the conversation names ``entity`` (by its id or a label)."""
    return any(name in conversation for name, target in names.items() if target == entity)
