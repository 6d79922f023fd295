"""``ReActDecide``: the decision gate of a ReAct step: the model picks the next action.

The model sees the request, the speaker, the action library and every earlier step of the
episode with its observation, and answers with ONE action, its arguments and a thought
(:class:`~evaluation.react.model.ReActDecision`). The gate checks the answer before anything
runs: an unknown action, arguments that do not fit, or DELEGATE without a channel to people are
refused (the reason becomes the step's observation; nothing is sent). The checked choice is
left on the episode for the action node (:class:`~evaluation.react.act.ReActAct`).
"""

from __future__ import annotations

from typing import Any

from py_trees.common import Status

from cogtree.behaviours import keys
from cogtree.behaviours.llm_behaviour import LLMBehaviour, Verdict
from cogtree.behaviours.setup_handles import optional_handle
from cogtree.evaluation.react.model import (
    ACTION_LIBRARY,
    FINISH,
    NO_REQUEST,
    Choice,
    DelegateArgs,
    FinishArgs,
    Observation,
    ReActDecision,
    ReActEpisode,
    ReActTurn,
    refusal,
)
from cogtree.knowledge.llm.types import Message
from cogtree.knowledge.wording import clip
from cogtree.skills.action_model.specs import SkillArgumentError, find_spec
from cogtree.skills.execution.human_channel import HumanChannel

OBSERVATION_CHARS = 400
"""Observations longer than this are cut in the prompt (the history keeps them whole)."""


class ReActDecide(LLMBehaviour[ReActDecision]):
    """Ask the model for the episode's next action and check it (see the module docs).

    Built by :class:`~evaluation.react.step.ReActStep`, which gives it the ``episode`` it shares
    with the step's action node. Handles: ``llm``; ``people`` (a
    :class:`~skills.execution.human_channel.HumanChannel`) is optional: without it DELEGATE is
    refused.

    Reads ``/turn/utterance`` and ``/turn/speaker``. Writes ``/rationale/<node>`` with the
    decision (the action node adds its observation).

    SUCCESS: the choice is on the episode: an action to run, or a step already settled (a
    refused action, no usable answer, FINISH). RUNNING: the model is deciding. Interrupted,
    it cancels the model call.
    """

    reads = (keys.UTTERANCE, keys.SPEAKER)

    module = "react"

    def __init__(
        self,
        name: str,
        episode: ReActEpisode,
        *,
        robot: str = "robot1",
        module: str | None = None,
    ) -> None:
        super().__init__(name, ReActDecision, module=module)
        self.episode = episode
        self.robot = robot
        self.people: HumanChannel | None = None
        self._no_answer: str | None = None
        self.utterance_key = self.key_of(keys.UTTERANCE)
        self.speaker_key = self.key_of(keys.SPEAKER)

    def setup(self, **kwargs: Any) -> None:
        """Take ``llm`` and the optional ``people`` handle."""
        super().setup(**kwargs)
        self.people = optional_handle(self, kwargs, "people", HumanChannel)  # type: ignore[type-abstract]

    def prepare(self) -> None:
        """Begin the step (a new episode if the last one ended); nothing runs in the background."""
        self.episode.begin_step()
        self._no_answer = None

    # -- LLMBehaviour hooks --------------------------------------------------------------------

    def fast_path(self) -> Verdict[ReActDecision] | None:
        """Without a request there is nothing to do: finish at once (no model call)."""
        if self._utterance():
            return None
        decision = ReActDecision(action=FINISH, args={"reply": NO_REQUEST})
        return Verdict(decision, f"{self.utterance_key} is not set")

    def messages(self) -> list[Message]:
        """The action library, the request, the speaker and the steps so far."""
        history = self.episode.history
        speaker = keys.read_optional(self.blackboard, self.speaker_key, str) or "unknown"
        lines = [f"Request from {speaker}: {self._utterance()!r}", ""]
        if history:
            lines.append("Steps so far:")
            lines += [_turn_text(number, turn) for number, turn in enumerate(history, 1)]
        else:
            lines.append("No steps yet.")
        lines += ["", f"Step {len(history) + 1} of {self.episode.max_steps}: choose ONE action."]
        return [
            Message(role="system", content=_system_prompt(self.robot)),
            Message(role="user", content="\n".join(lines)),
        ]

    def safe_decision(self, reason: str) -> ReActDecision:
        """No usable answer: this step does nothing (it is still spent)."""
        self._no_answer = reason
        return ReActDecision(thought=f"no usable answer: {reason}", action="")

    def apply(self, decision: ReActDecision) -> Status:
        """Check the action and leave the choice on the episode (always SUCCESS)."""
        self.episode.choice = self._check(decision)
        return Status.SUCCESS

    def summary(self, decision: ReActDecision) -> str:
        """``PICK(object=bottle, hand=right)``."""
        return decision.describe()

    # -- the checks ----------------------------------------------------------------------------

    def _check(self, decision: ReActDecision) -> Choice:
        offline = self.llm is not None and self.llm.backend_for(self.module_name).name == "none"
        if self._no_answer is not None:
            settled = Observation(f"no action: {self._no_answer}", ok=False, refused=True)
            return Choice(decision, settled=settled, no_answer=True, offline=offline)
        try:
            spec = find_spec("action", ACTION_LIBRARY, decision.action)
            args = spec.validate(decision.args)
        except SkillArgumentError as error:
            return Choice(decision, settled=refusal(str(error)), offline=offline)
        if isinstance(args, FinishArgs):
            settled = Observation("replied to the user", ok=True)
            return Choice(decision, settled=settled, reply=args.reply, offline=offline)
        if isinstance(args, DelegateArgs) and self.people is None:
            no_channel = refusal("no channel to people: give the tree a `people` handle")
            return Choice(decision, settled=no_channel, offline=offline)
        return Choice(decision, args=args, offline=offline)

    def _utterance(self) -> str:
        text = keys.read_optional(self.blackboard, self.utterance_key, str)
        return text.strip() if text else ""


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
    thought = f"Thought: {turn.thought} " if turn.thought else ""
    return (
        f"{number}. {thought}Action: {turn.describe()} "
        f"Observation ({turn.state()}): {clip(turn.observation, OBSERVATION_CHARS, one_line=False)}"
    )
