"""``ReActStep``: one step of RoBee's ReAct planner: the model picks an action, the robot acts.

Each run of the node is one step of an episode. The model sees the request, the speaker, the
action library and every earlier step with its observation, and answers with ONE action, its
arguments and a thought (:class:`ReActDecision`). The node then checks it and runs it without
blocking a tick:

- perception (``GetMapRooms()``, ``GetObjectsInRoom(room)``, ``LocateObject(thing)``) runs the
  perception nodes of :mod:`behaviours.perception` on the ``workers`` pool;
- ``LOOK()`` runs :class:`~behaviours.look_around.LookAround` (the belief is refreshed);
- a robot skill of :data:`~skills.specs.SKILL_SPECS` runs :class:`~behaviours.skill_action.
  SkillAction` (its preconditions are checked on the current belief first; when one fails no
  command is sent and the failure is the observation);
- ``DELEGATE(person, ability, description)`` asks a person over the ``people`` channel;
- ``FINISH(reply)`` ends the episode with what to tell the user.

An unknown action or arguments that do not fit are refused with the reason as the observation:
nothing is sent and the step is spent. The episode ends when the model finishes or when the
step budget is spent; then the node writes an honest reply saying what was done.

The nodes it runs for an action are its own private instances, ticked by this node; they are
not part of the tree, so the tree shows one ReActStep whose feedback names the action.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Mapping
from concurrent.futures import CancelledError, Future
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, Literal, Protocol

import py_trees
from py_trees.common import Status
from pydantic import BaseModel, ConfigDict, Field

from behaviours import keys
from behaviours.keys import GateRationale
from behaviours.llm.types import Message
from behaviours.llm_behaviour import LLMBehaviour, Verdict
from behaviours.look_around import LookAround
from behaviours.perception import GetMapRooms, GetObjectsInRoom, LocateObject
from behaviours.setup_handles import optional_handle, require_handle
from behaviours.skill_action import SkillAction
from knowledge.scene_graph import SceneGraph
from knowledge.scene_models import ObjectInfo, Room
from skills.commands import ArgValue, Executor, Feedback
from skills.controller import SkillOutcome
from skills.human_channel import HumanChannel, HumanRequest
from skills.plan_model import DELEGATE, LOOK
from skills.specs import (
    SKILL_SPECS,
    CallSpec,
    NodeId,
    SkillArgumentError,
    SkillCall,
    find_spec,
)

log = logging.getLogger(__name__)

GET_MAP_ROOMS = "GetMapRooms"
"""Perception: the rooms of the map and the rooms each one opens onto."""

GET_OBJECTS_IN_ROOM = "GetObjectsInRoom"
"""Perception: what the belief holds in one room."""

LOCATE_OBJECT = "LocateObject"
"""Perception: where one thing, person or robot is believed to be."""

FINISH = "FINISH"
"""End the episode with the reply to say to the user."""

NO_REQUEST = "I did not hear a request, so I did nothing."
"""The reply when the node runs with no utterance on the blackboard."""

OBSERVATION_CHARS = 400
"""Observations longer than this are cut in the prompt (the history keeps them whole)."""


class _ActionArgs(BaseModel):
    """Base of the non-skill action arguments: immutable, unknown fields are errors."""

    model_config = ConfigDict(extra="forbid", frozen=True)


class NoArgs(_ActionArgs):
    """An action without arguments."""


class RoomArgs(_ActionArgs):
    """GetObjectsInRoom: the room to list."""

    room: NodeId


class ThingArgs(_ActionArgs):
    """LocateObject: the object, person or robot to find."""

    thing: NodeId


class DelegateArgs(_ActionArgs):
    """DELEGATE: ask ``person`` to do one of their abilities, described in words."""

    person: NodeId
    ability: str = Field(min_length=1, max_length=60, pattern=r"\S")
    description: str = Field("", max_length=300)


class FinishArgs(_ActionArgs):
    """FINISH: what to tell the user."""

    reply: str = Field(min_length=1, max_length=500, pattern=r"\S")


ACTION_LIBRARY: Mapping[str, CallSpec] = MappingProxyType(
    {
        GET_MAP_ROOMS: CallSpec(GET_MAP_ROOMS, NoArgs, "the rooms of the map and their doors"),
        GET_OBJECTS_IN_ROOM: CallSpec(
            GET_OBJECTS_IN_ROOM, RoomArgs, "objects and furniture believed to be in a room"
        ),
        LOCATE_OBJECT: CallSpec(
            LOCATE_OBJECT, ThingArgs, "where an object, person or robot is believed to be"
        ),
        LOOK: CallSpec(LOOK, NoArgs, "look around the robot's room; the map is updated"),
        **{str(name): spec for name, spec in SKILL_SPECS.items()},
        DELEGATE: CallSpec(DELEGATE, DelegateArgs, "ask a person to do one of their abilities"),
        FINISH: CallSpec(FINISH, FinishArgs, "end: the request is done or cannot be done"),
    }
)
"""Every action the ReAct model may pick, by name, in the order the prompt lists them."""

PERCEPTION_ACTIONS: tuple[str, ...] = (GET_MAP_ROOMS, GET_OBJECTS_IN_ROOM, LOCATE_OBJECT)
"""Actions that only read the belief."""


class ReActDecision(BaseModel):
    """The model's answer for one step: a thought, ONE action and its arguments."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    thought: str = Field("", max_length=300, description="why this action, in one sentence")
    action: str = Field(
        max_length=40,
        description="the name of one action of the library",
        json_schema_extra={"enum": list(ACTION_LIBRARY)},
    )
    args: dict[str, ArgValue] = Field(
        default_factory=dict,
        description='the action\'s arguments by name, e.g. {"object": "bottle", "hand": "right"}',
    )

    @property
    def rationale(self) -> str:
        """The thought (what :class:`LLMBehaviour` records as the decision's rationale)."""
        return self.thought

    def describe(self) -> str:
        """``PICK(object=bottle, hand=right)``."""
        return _call_text(self.action, self.args)


class ReActTurn(BaseModel):
    """One step of an episode: what the model thought and did, and what it observed."""

    model_config = ConfigDict(frozen=True)

    thought: str = ""
    action: str
    args: dict[str, ArgValue] = Field(default_factory=dict)
    observation: str
    ok: bool
    refused: bool = Field(
        False,
        description="nothing was sent: the action was refused (unknown, bad arguments, failed "
        "precondition, no channel) or the model gave no usable answer",
    )

    def describe(self) -> str:
        """``PICK(object=bottle, hand=right)``, or ``(no action)``."""
        return _call_text(self.action, self.args) if self.action else "(no action)"


EpisodeEnd = Literal["finished", "gave_up"]


class ReActStep(LLMBehaviour[ReActDecision]):
    """One ReAct step: ask the model for one action, check it, run it, record the observation.

    Handles: ``llm``, ``scene_graph`` (the belief), ``executor``; ``people`` (a
    :class:`~skills.human_channel.HumanChannel`) is optional: without it DELEGATE is refused.

    Reads ``/turn/utterance`` and ``/turn/speaker``. Writes ``/turn/reply`` when the episode
    ends, ``/perception/target_room`` / ``/perception/target_object`` / ``/skill/call`` as the
    inputs of the perception and skill nodes it runs (which write ``/perception/*`` and
    ``/skill/outcome``), and ``/rationale/<node>`` with the decision and its observation.
    The episode's history is :attr:`history` (kept in the node until the blackboard has a
    key for it).

    SUCCESS: the episode is over and ``/turn/reply`` says so: the model finished
    (:attr:`episode_end` ``finished``), or the step budget is spent or there is no model to ask
    (``gave_up``: an honest reply with what was done). FAILURE: one step was taken and the
    episode goes on; the run after it starts the next step (a ``Retry`` decorator loops it).
    RUNNING: the model is deciding or the action is running. Interrupted, it cancels the model
    call and the action, and the next run starts a new episode.
    """

    reads = (keys.UTTERANCE, keys.SPEAKER, keys.SKILL_OUTCOME, keys.ROOMS, keys.OBJECTS)
    writes = (keys.REPLY, keys.TARGET_ROOM, keys.TARGET_OBJECT, keys.SKILL_CALL)

    module = "react"

    def __init__(
        self,
        name: str = "ReActStep",
        *,
        robot: str = "robot1",
        max_steps: int = 20,
        delegation_timeout_s: float = 600.0,
        module: str | None = None,
    ) -> None:
        if max_steps < 1:
            raise ValueError(f"{name}: max_steps must be at least 1, got {max_steps}")
        super().__init__(name, ReActDecision, module=module)
        self.robot = robot
        self.max_steps = max_steps
        self.delegation_timeout_s = delegation_timeout_s
        self.people: HumanChannel | None = None
        self.utterance_key = self.key_of(keys.UTTERANCE)
        self.speaker_key = self.key_of(keys.SPEAKER)
        self.reply_key = self.key_of(keys.REPLY)
        self.target_room_key = self.key_of(keys.TARGET_ROOM)
        self.target_object_key = self.key_of(keys.TARGET_OBJECT)
        self.skill_call_key = self.key_of(keys.SKILL_CALL)
        self.outcome_key = self.key_of(keys.SKILL_OUTCOME)
        self.rooms_key = self.key_of(keys.ROOMS)
        self.objects_key = self.key_of(keys.OBJECTS)
        self._nodes: dict[str, py_trees.behaviour.Behaviour] = {
            GET_MAP_ROOMS: GetMapRooms(f"{name}.{GET_MAP_ROOMS}"),
            GET_OBJECTS_IN_ROOM: GetObjectsInRoom(f"{name}.{GET_OBJECTS_IN_ROOM}"),
            LOCATE_OBJECT: LocateObject(f"{name}.{LOCATE_OBJECT}"),
            LOOK: LookAround(f"{name}.{LOOK}", robot=robot),
            "skill": SkillAction(f"{name}.Skill", robot=robot),
        }
        self._history: list[ReActTurn] = []
        self._episode_end: EpisodeEnd | None = None
        self._decision: ReActDecision | None = None
        self._running: _Run | None = None
        self._no_answer: str | None = None
        self._turn: ReActTurn | None = None

    # -- what others read ----------------------------------------------------------------------

    @property
    def history(self) -> list[ReActTurn]:
        """The steps of the current (or last) episode, oldest first."""
        return list(self._history)

    @property
    def episode_end(self) -> EpisodeEnd | None:
        """How the last episode ended (``finished`` / ``gave_up``); None while it runs."""
        return self._episode_end

    # -- py_trees lifecycle -------------------------------------------------------------------

    def setup(self, **kwargs: Any) -> None:
        """Take ``llm``, ``scene_graph``, ``executor`` and the optional ``people`` handle."""
        super().setup(**kwargs)
        require_handle(self, kwargs, "scene_graph", SceneGraph)
        require_handle(self, kwargs, "executor", Executor)  # type: ignore[type-abstract]
        self.people = optional_handle(self, kwargs, "people", HumanChannel)  # type: ignore[type-abstract]
        for node in self._nodes.values():
            node.setup(**kwargs)

    # -- LLMBehaviour hooks --------------------------------------------------------------------

    def prepare(self) -> None:
        """Start a new episode if the last one ended, then ask the model for the next action."""
        if self._episode_end is not None:
            self._history = []
            self._episode_end = None
        self._decision, self._running, self._no_answer, self._turn = None, None, None, None

    def act(self, applied: Status) -> Status:
        """Wait for the action ``apply()`` started; record the observation."""
        if self._running is None:
            return self._report(applied)
        observation = self._running.poll()
        if observation is None:
            assert self._decision is not None
            self.feedback_message = (
                f"step {len(self._history) + 1}/{self.max_steps}: "
                f"{self._decision.describe()}: {self._running.doing()}"
            )
            return Status.RUNNING
        self._running = None
        return self._report(self._conclude(observation))

    def on_interrupt(self) -> None:
        """Cancel the action; the episode is abandoned."""
        if self._running is not None:
            self._running.cancel()
            self._running = None
        self._episode_end = "gave_up"
        self.feedback_message = "interrupted: the episode is abandoned"

    # -- LLMBehaviour hooks --------------------------------------------------------------------

    def fast_path(self) -> Verdict[ReActDecision] | None:
        """Without a request there is nothing to do: finish at once (no model call)."""
        if self._utterance():
            return None
        decision = ReActDecision(action=FINISH, args={"reply": NO_REQUEST})
        return Verdict(decision, f"{self.utterance_key} is not set")

    def messages(self) -> list[Message]:
        """The action library, the request, the speaker and the steps so far."""
        speaker = keys.read_optional(self.blackboard, self.speaker_key, str) or "unknown"
        lines = [f"Request from {speaker}: {self._utterance()!r}", ""]
        if self._history:
            lines.append("Steps so far:")
            lines += [_turn_text(number, turn) for number, turn in enumerate(self._history, 1)]
        else:
            lines.append("No steps yet.")
        lines += ["", f"Step {len(self._history) + 1} of {self.max_steps}: choose ONE action."]
        return [
            Message(role="system", content=_system_prompt(self.robot)),
            Message(role="user", content="\n".join(lines)),
        ]

    def safe_decision(self, reason: str) -> ReActDecision:
        """No usable answer: this step does nothing (it is still spent)."""
        self._no_answer = reason
        return ReActDecision(thought=f"no usable answer: {reason}", action="")

    def apply(self, decision: ReActDecision) -> Status:
        """Check the action; finish, refuse it, or start it (RUNNING until it is observed)."""
        self._decision = decision
        if self._no_answer is not None:
            return self._conclude(
                _Observation(f"no action: {self._no_answer}", ok=False, refused=True),
                give_up=self._offline(),
            )
        try:
            spec = find_spec("action", ACTION_LIBRARY, decision.action)
            args = spec.validate(decision.args)
        except SkillArgumentError as error:
            return self._conclude(_refusal(str(error)))
        if isinstance(args, FinishArgs):
            return self._conclude(_Observation("replied to the user", ok=True), reply=args.reply)
        started = self._start(spec.name, args)
        if isinstance(started, _Observation):
            return self._conclude(started)
        self._running = started
        return Status.RUNNING

    def summary(self, decision: ReActDecision) -> str:
        """``PICK(object=bottle, hand=right)``."""
        return decision.describe()

    # -- running an action ---------------------------------------------------------------------

    def _start(self, name: str, args: BaseModel) -> _Run | _Observation:
        if isinstance(args, RoomArgs):
            self.blackboard.set(self.target_room_key, args.room)
        elif isinstance(args, ThingArgs):
            self.blackboard.set(self.target_object_key, args.thing)
        if name == GET_MAP_ROOMS:
            return _NodeRun(self._nodes[name], self._rooms_observation)
        if name == GET_OBJECTS_IN_ROOM:
            return _NodeRun(self._nodes[name], self._objects_observation)
        if name in (LOCATE_OBJECT, LOOK):
            return _NodeRun(self._nodes[name], _plain)
        if isinstance(args, DelegateArgs):
            return self._delegate(args)
        call = SkillCall.model_validate({"skill": name, "args": args})
        self.blackboard.set(self.skill_call_key, call)
        return _NodeRun(self._nodes["skill"], self._skill_observation)

    def _delegate(self, args: DelegateArgs) -> _Run | _Observation:
        if self.people is None:
            return _refusal("no channel to people: give the tree a `people` handle")
        request = HumanRequest(ability=args.ability, description=args.description)
        try:
            future = self.people.delegate(args.person, request)
        except Exception as error:  # a channel bug must not escape the tick
            log.exception("%s: the people channel failed", self.name)
            return _Observation(f"could not ask {args.person}: {error}", ok=False)
        return _DelegationRun(
            self.people, future, args.person, args.ability, self.delegation_timeout_s
        )

    def _rooms_observation(self, status: Status, feedback: str) -> _Observation:
        rooms = keys.read(self.blackboard, self.rooms_key)
        if status != Status.SUCCESS or not isinstance(rooms, list):
            return _Observation(feedback, ok=False)
        return _Observation(_rooms_text(rooms), ok=True)

    def _objects_observation(self, status: Status, feedback: str) -> _Observation:
        objects = keys.read(self.blackboard, self.objects_key)
        room = keys.read_optional(self.blackboard, self.target_room_key, str)
        if status != Status.SUCCESS or not isinstance(objects, list) or room is None:
            return _Observation(feedback, ok=False)
        return _Observation(_objects_text(room, objects), ok=True)

    def _skill_observation(self, status: Status, feedback: str) -> _Observation:
        outcome = keys.read_optional(self.blackboard, self.outcome_key, SkillOutcome)
        refused = outcome is not None and outcome.failed_precondition is not None
        return _Observation(feedback, ok=status == Status.SUCCESS, refused=refused)

    # -- ending a step and an episode ----------------------------------------------------------

    def _conclude(
        self, observation: _Observation, *, reply: str | None = None, give_up: bool = False
    ) -> Status:
        decision = self._decision
        assert decision is not None
        self._turn = ReActTurn(
            thought=decision.thought,
            action=decision.action,
            args=decision.args,
            observation=observation.text,
            ok=observation.ok,
            refused=observation.refused,
        )
        self._history.append(self._turn)
        if reply is not None:
            return self._end("finished", reply)
        if give_up or len(self._history) >= self.max_steps:
            return self._end("gave_up", self._give_up_reply())
        return Status.FAILURE

    def _end(self, how: EpisodeEnd, reply: str) -> Status:
        self._episode_end = how
        self.blackboard.set(self.reply_key, reply)
        return Status.SUCCESS

    def _give_up_reply(self) -> str:
        if self._offline():
            why = "I have no language model to plan with"
        else:
            why = f"I used all {self.max_steps} steps I may take"
        acted = [
            turn.describe()
            for turn in self._history
            if turn.ok and turn.action not in PERCEPTION_ACTIONS
        ]
        done = f"What I did: {', '.join(acted)}." if acted else "I did not do anything."
        failed = next((turn for turn in reversed(self._history) if not turn.ok), None)
        problem = (
            f" The last problem: {failed.describe()}: {_clip(failed.observation, 200)}"
            if failed is not None
            else ""
        )
        return f"I could not finish your request: {why}. {done}{problem}"

    def _report(self, status: Status) -> Status:
        """After a step ended: the observation goes to the rationale and the feedback."""
        turn = self._turn
        if turn is None:
            return status
        rationale = keys.read_optional(self.blackboard, self.rationale_key, GateRationale)
        if rationale is not None:
            vetoed = rationale.vetoed or (turn.refused and self._no_answer is None)
            notes = [*rationale.notes, f"observation: {turn.observation}"]
            self.blackboard.set(
                self.rationale_key, rationale.model_copy(update={"vetoed": vetoed, "notes": notes})
            )
        ending = {"finished": "; finished", "gave_up": "; gave up", None: ""}[self._episode_end]
        self.feedback_message = (
            f"step {len(self._history)}/{self.max_steps}: {turn.describe()} -> "
            f"{'ok' if turn.ok else 'refused' if turn.refused else 'failed'}: "
            f"{_clip(turn.observation, 200)}{ending}"
        )
        return status

    def _utterance(self) -> str:
        text = keys.read_optional(self.blackboard, self.utterance_key, str)
        return text.strip() if text else ""

    def _offline(self) -> bool:
        return self.llm is not None and self.llm.backend_for(self.module_name).name == "none"


# -- actions in flight ---------------------------------------------------------------------------


@dataclass(frozen=True)
class _Observation:
    """What one action showed: the text the model reads next, and how it went."""

    text: str
    ok: bool
    refused: bool = False


def _refusal(reason: str) -> _Observation:
    return _Observation(f"refused, nothing was sent: {reason}", ok=False, refused=True)


def _plain(status: Status, feedback: str) -> _Observation:
    return _Observation(feedback, ok=status == Status.SUCCESS)


class _Run(Protocol):
    """An action in flight, polled once per tick."""

    def poll(self) -> _Observation | None:
        """The observation once the action is over; None while it runs."""
        ...

    def doing(self) -> str:
        """What is happening now, for the feedback message."""
        ...

    def cancel(self) -> None:
        """Stop the action."""
        ...


class _NodeRun:
    """An action run by a behaviour of its own, ticked once per poll."""

    def __init__(
        self,
        node: py_trees.behaviour.Behaviour,
        observe: Callable[[Status, str], _Observation],
    ) -> None:
        self.node = node
        self.observe = observe

    def poll(self) -> _Observation | None:
        self.node.tick_once()
        if self.node.status == Status.RUNNING:
            return None
        return self.observe(self.node.status, self.node.feedback_message)

    def doing(self) -> str:
        return self.node.feedback_message

    def cancel(self) -> None:
        self.node.stop(Status.INVALID)


class _DelegationRun:
    """A request to a person, waiting for their answer (bounded by ``timeout_s``)."""

    def __init__(
        self,
        channel: HumanChannel,
        future: Future[Feedback],
        person: str,
        ability: str,
        timeout_s: float,
    ) -> None:
        self.channel = channel
        self.future = future
        self.person = person
        self.ability = ability
        self.deadline = time.monotonic() + timeout_s
        self.timeout_s = timeout_s

    def poll(self) -> _Observation | None:
        if not self.future.done():
            if time.monotonic() < self.deadline:
                return None
            self.cancel()
            return _Observation(
                f"{self.person} did not {self.ability} within {self.timeout_s:g}s", ok=False
            )
        try:
            feedback = self.future.result()
        except CancelledError:
            return _Observation(f"the request to {self.person} was withdrawn", ok=False)
        except Exception as error:  # a channel bug must not escape the tick
            return _Observation(f"asking {self.person} failed: {error}", ok=False)
        text = feedback.message or f"{self.person} did {self.ability}"
        if not feedback.ok and feedback.code:
            text = f"{feedback.code}: {text}"
        return _Observation(text, ok=feedback.ok)

    def doing(self) -> str:
        return f"waiting for {self.person} to {self.ability}"

    def cancel(self) -> None:
        self.channel.cancel(self.future)


# -- prompt text ---------------------------------------------------------------------------------


def _system_prompt(robot: str) -> str:
    library = "\n".join(f"- {spec.signature()}: {spec.summary}" for spec in ACTION_LIBRARY.values())
    return (
        f"You are the planner of robot {robot}. Solve the user's request one action at a time: "
        "answer with ONE action, then you see its observation and choose the next.\n"
        "Perception actions read the robot's map, which may be out of date; LOOK refreshes it "
        "with what the robot sees in its room. A skill whose preconditions fail is not run "
        "and the observation says why. A hand is right or left. Use the ids the observations "
        "use (table_1, bottle).\n"
        f"Actions:\n{library}\n"
        "When the request is done, or cannot be done, answer FINISH with what to tell the "
        "user.\n"
        'Answer in JSON: {"thought": "...", "action": "NAME", "args": {"name": "value"}}'
    )


def _turn_text(number: int, turn: ReActTurn) -> str:
    state = "ok" if turn.ok else "refused" if turn.refused else "failed"
    thought = f"Thought: {turn.thought} " if turn.thought else ""
    return (
        f"{number}. {thought}Action: {turn.describe()} "
        f"Observation ({state}): {_clip(turn.observation, OBSERVATION_CHARS)}"
    )


def _call_text(action: str, args: Mapping[str, Any]) -> str:
    return f"{action}({', '.join(f'{key}={value}' for key, value in args.items())})"


def _rooms_text(rooms: list[Room]) -> str:
    return "rooms: " + "; ".join(
        f"{room.id} (opens onto {', '.join(room.connected_to) or 'nothing'})" for room in rooms
    )


def _objects_text(room: str, objects: list[ObjectInfo]) -> str:
    if not objects:
        return f"in {room}: nothing"
    return f"in {room}: " + "; ".join(_object_text(thing) for thing in objects)


def _object_text(thing: ObjectInfo) -> str:
    details = [thing.type or thing.kind]
    if thing.kind == "object" and thing.relation == "inRoom":
        details.append("on the floor")
    elif thing.kind == "object" and thing.relation is not None:
        details.append(f"{thing.relation} {thing.support}")
    if thing.is_open is not None:
        details.append("open" if thing.is_open else "closed")
    return f"{thing.id} ({', '.join(details)})"


def _clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"
