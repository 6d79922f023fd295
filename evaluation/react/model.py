"""What a ReAct episode is made of: the action library, the model's decision, the steps taken.

:class:`ReActEpisode` is shared by the two nodes of one :class:`~evaluation.react.step.
ReActStep`: the decision gate (:class:`~evaluation.react.decide.ReActDecide`) reads its history
for the prompt and leaves its :class:`Choice` there; the action node
(:class:`~evaluation.react.act.ReActAct`) runs the choice and records the observation, which
ends the step and perhaps the episode.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from cogtree.knowledge.wording import BoundedText, clip
from cogtree.skills.action_model.commands import ArgValue
from cogtree.skills.action_model.specs import CallSpec, NodeId
from cogtree.skills.capabilities.calls import SKILL_SPECS
from cogtree.skills.planning.plan_model import (
    ACTION_NAMES,
    DELEGATE,
    LOOK,
    PlanAttempt,
    PlanStep,
    Reflection,
    ToAPlan,
)

GET_MAP_ROOMS = "GetMapRooms"
"""Perception: the rooms of the map and the rooms each one opens onto."""

GET_OBJECTS_IN_ROOM = "GetObjectsInRoom"
"""Perception: what the belief holds in one room."""

LOCATE_OBJECT = "LocateObject"
"""Perception: where one thing, person or robot is believed to be."""

FINISH = "FINISH"
"""End the episode with the reply to say to the user."""

NO_REQUEST = "I did not hear a request, so I did nothing."
"""The reply when the step runs with no utterance on the blackboard."""

MAX_UNANSWERED = 3
"""The episode gives up after this many steps in a row without a usable answer (a model that
keeps timing out or writing nonsense is not waited for until the step budget is spent)."""


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


class ReActDecision(BoundedText):
    """The model's answer for one step: a thought, ONE action and its arguments."""

    free_text = ("thought",)

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
        return call_text(self.action, self.args)


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
        return call_text(self.action, self.args) if self.action else "(no action)"

    def state(self) -> str:
        """``ok``, ``refused`` or ``failed``."""
        return "ok" if self.ok else "refused" if self.refused else "failed"


EpisodeEnd = Literal["finished", "gave_up"]


@dataclass(frozen=True)
class Observation:
    """What one action showed: the text the model reads next, and how it went."""

    text: str
    ok: bool
    refused: bool = False


def refusal(reason: str) -> Observation:
    """A refused action: nothing was sent, ``reason`` says why."""
    return Observation(f"refused, nothing was sent: {reason}", ok=False, refused=True)


@dataclass(frozen=True)
class Choice:
    """What the decision gate leaves for the action node: the decision, and what to do with it.

    ``args`` (the arguments checked against the library) when there is an action to run;
    ``settled`` instead when the step's observation is known without running anything (a
    refusal, no usable answer, FINISH), with the ``reply`` of a FINISH. ``no_answer``: the
    model gave no usable answer; ``offline``: there is no model to ask, so the episode cannot
    go on.
    """

    decision: ReActDecision
    args: BaseModel | None = None
    settled: Observation | None = None
    reply: str | None = None
    no_answer: bool = False
    offline: bool = False


class ReActEpisode:
    """The steps of one episode, shared by the decision gate and the action node of a step."""

    def __init__(self, max_steps: int) -> None:
        self.max_steps = max_steps
        self.history: list[ReActTurn] = []
        self.end: EpisodeEnd | None = None
        self.choice: Choice | None = None

    def begin_step(self) -> None:
        """A step starts: a new episode if the last one ended; no choice yet."""
        if self.end is not None:
            self.history = []
            self.end = None
        self.choice = None

    def record(self, observation: Observation) -> ReActTurn:
        """Record the chosen decision with ``observation`` as the next step.

        The episode ends when the choice finishes, when there is no model to ask, when the
        model gave no usable answer :data:`MAX_UNANSWERED` times in a row, or when the step
        budget is spent.
        """
        choice = self.choice
        assert choice is not None, "record() before the gate chose"
        turn = ReActTurn(
            thought=choice.decision.thought,
            action=choice.decision.action,
            args=choice.decision.args,
            observation=observation.text,
            ok=observation.ok,
            refused=observation.refused,
        )
        self.history.append(turn)
        if choice.reply is not None:
            self.end = "finished"
        elif (
            (choice.no_answer and choice.offline)
            or self._unanswered() >= MAX_UNANSWERED
            or len(self.history) >= self.max_steps
        ):
            self.end = "gave_up"
        return turn

    def reply(self) -> str | None:
        """What to tell the user once the episode is over; None while it goes on."""
        if self.end is None or self.choice is None:
            return None
        if self.end == "finished" and self.choice.reply is not None:
            return self.choice.reply
        if self.choice.offline:
            return self._give_up_reply("I have no language model to plan with")
        if self._unanswered() >= MAX_UNANSWERED:
            unanswered = f"my language model gave no usable answer {MAX_UNANSWERED} times in a row"
            return self._give_up_reply(unanswered)
        return self._give_up_reply(f"I used all {self.max_steps} steps I may take")

    def _unanswered(self) -> int:
        """How many of the last steps in a row had no usable answer (no action)."""
        count = 0
        for turn in reversed(self.history):
            if turn.action:
                break
            count += 1
        return count

    def abandon(self) -> None:
        """The episode was interrupted: it is over."""
        self.end = "gave_up"

    def finished_reply(self) -> str:
        """An honest reply for a finished episode whose own reply cannot be said: what it did."""
        return f"I have finished, but I cannot tell you more than what I did. {self.account()}"

    def as_attempts(self) -> list[PlanAttempt]:
        """The episode's robot actions as plan attempts (source ``react``); empty if none.

        Every skill, LOOK and DELEGATE the model chose is a step, in order, also those that
        were refused or failed: they say what the episode was for (:mod:`skills.execution.outcome`
        reads the facts a plan is for from its steps). A failed or refused step ends an
        attempt, as it ends one of the gated tree's plans: what the model chose after it is a
        new plan, so a fact it changed (anna signs after alex refused) supersedes the earlier
        one. A step that worked has an achieved reflection, so its effect counts as the
        robot's (or the person's) doing.
        """
        numbered = [
            (number, turn)
            for number, turn in enumerate(self.history, start=1)
            if turn.action in ACTION_NAMES
        ]
        runs: list[list[tuple[int, ReActTurn]]] = []
        for number, turn in numbered:
            if not runs or not runs[-1][-1][1].ok:
                runs.append([])
            runs[-1].append((number, turn))
        finished = self.end == "finished"
        return [
            PlanAttempt(
                number=index,
                plan=ToAPlan(
                    steps=[
                        PlanStep(
                            id=number,
                            thought=clip(turn.thought, 300),
                            action=turn.action,
                            args=dict(turn.args),
                        )
                        for number, turn in run
                    ],
                    source="react",
                    rationale="the actions of a ReAct episode",
                ),
                outcome="succeeded" if finished and run[-1][1].ok else "failed",
                reflections=[
                    Reflection(step=number, achieved=turn.ok, observed=clip(turn.observation, 300))
                    for number, turn in run
                ],
            )
            for index, run in enumerate(runs, start=1)
        ]

    def _give_up_reply(self, why: str) -> str:
        """An honest reply: ``why`` it stopped, what it did, and the last problem."""
        return f"I could not finish your request: {why}. {self.account()}"

    def account(self) -> str:
        """What the episode did (its actions that worked) and its last problem, in words.

        The actions are listed as "Steps run: ...", as the gated tree's report lists its plan's
        steps: a list of what ran, not a claim that the request was done.
        """
        acted = [
            turn.describe()
            for turn in self.history
            if turn.ok and turn.action not in (*PERCEPTION_ACTIONS, FINISH)
        ]
        done = f"Steps run: {', '.join(acted)}." if acted else "I did not do anything."
        failed = next((turn for turn in reversed(self.history) if not turn.ok), None)
        problem = (
            f" The last problem: {failed.describe()}: "
            f"{clip(failed.observation, 200, one_line=False)}"
            if failed is not None
            else ""
        )
        return f"{done}{problem}"


def call_text(action: str, args: Mapping[str, Any]) -> str:
    """``PICK(object=bottle, hand=right)``."""
    return f"{action}({', '.join(f'{key}={value}' for key, value in args.items())})"
