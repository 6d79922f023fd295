"""``ReActReport``: the end of a ReAct episode: the reply held to what the belief holds.

The ReAct model ends an episode with FINISH and a reply of its own words. Those words are
checked for entities and numbers by the action node
(:mod:`knowledge.understanding.faithfulness`); this node holds them against the outcome, the
way the gated tree's report is: the episode's robot actions are read as plans
(:meth:`~evaluation.react.model.ReActEpisode.as_attempts`), every fact they were for is held
against the belief after execution (:func:`skills.execution.outcome.assess`), and a sentence that
says the task was done (:mod:`knowledge.language.success_claims`) is said only when the robot or
the people it asked made every one of those facts hold and the sentence names nobody who did not.
Otherwise the reply becomes the outcome read from the belief ("Done by me: ... Not done: ...") and
the steps that ran. A reply that states what state a thing is in ("the hob is off now, it is safe
to touch", "your leftovers are heating") is held to the belief the same way
(:mod:`skills.safety.state_claims`): one the belief does not back is not said. An episode that
gave up (the step budget, no model) already says it could not finish; the outcome read from the
belief is added to it.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any

from py_trees.common import Status

from cogtree.behaviours import keys
from cogtree.behaviours.actions.planning.plan_attempts import assess_belief
from cogtree.behaviours.background import BackgroundWork, Pending
from cogtree.behaviours.setup_handles import require_handle
from cogtree.evaluation.react.model import ReActEpisode
from cogtree.knowledge.language.entity_names import FormNames
from cogtree.knowledge.language.success_claims import success_sentences, unbacked
from cogtree.knowledge.scene.scene_graph import SceneGraph
from cogtree.knowledge.wording import clip
from cogtree.knowledge.worker_pool import WorkerPool
from cogtree.skills.action_model.belief import Belief
from cogtree.skills.execution.outcome import TaskOutcome
from cogtree.skills.planning.plan_model import PlanAttempt
from cogtree.skills.safety.state_claims import (
    belief_states,
    states_claimed,
    unbacked_state_claims,
)

log = logging.getLogger(__name__)

STOPPED = "I have stopped."
"""How a vetoed final reply begins: what follows is read from the belief, not the model."""


@dataclass(frozen=True)
class AfterEpisode:
    """What the belief says after an episode: the outcome and the reply's unbacked states."""

    outcome: TaskOutcome
    unbacked_states: list[str]


def read_after_episode(
    attempts: list[PlanAttempt], robot: str, scene: SceneGraph, reply: str
) -> AfterEpisode:
    """The outcome of ``attempts`` and the state claims of ``reply`` the belief does not back.

    Reads the whole belief: run it off the tick.
    """
    outcome = assess_belief(attempts, robot, scene)
    if not states_claimed(reply):
        return AfterEpisode(outcome, [])
    index = scene.index
    forms, state_of = belief_states(
        Belief.from_scene(scene, robot),
        lambda thing: node.synonyms if (node := index.node(thing)) is not None else (),
    )
    topic = {
        str(value)
        for attempt in attempts
        for step in attempt.plan.steps
        for value in step.args.values()
        if isinstance(value, str)
    }
    return AfterEpisode(outcome, unbacked_state_claims(reply, FormNames(forms), state_of, topic))


class ReActReport(keys.DeclaredKeys, BackgroundWork[AfterEpisode]):
    """Hold the ended episode's reply to the outcome read from the belief (see the module docs).

    Built by :class:`~evaluation.react.step.ReActStep`, which gives it the ``episode`` and the
    name of its ``gate`` (whose rationale it annotates); ticked once the episode is over.
    Handles: ``scene_graph`` (the belief) and ``workers`` (the belief is read there).

    Reads ``/turn/reply`` (the episode's reply). Writes ``/turn/reply`` when the reply changes
    (a success claim the outcome does not back is replaced by the outcome; a give-up reply
    gets the outcome added) and adds a note to the gate's ``/rationale/<node>`` (vetoed when a
    claim was not said, with the claims).

    SUCCESS: the reply says only what the belief backs (also when the belief cannot be read:
    then no success or state claim is said). RUNNING: the belief is being read. Interrupted, it
    drops the read.
    """

    reads = (keys.REPLY,)
    writes = (keys.REPLY, keys.RATIONALE)

    def __init__(
        self, name: str, episode: ReActEpisode, *, gate: str, robot: str = "robot1"
    ) -> None:
        super().__init__(name, writes=(spec.for_node(gate) for spec in ReActReport.writes))
        self.episode = episode
        self.robot = robot
        self.scene: SceneGraph | None = None
        self.reply_key = self.key_of(keys.REPLY)
        self.rationale_key = self.key_of(keys.RATIONALE)
        self._reply = ""
        self._claims: list[str] = []
        self._states = False

    def setup(self, **kwargs: Any) -> None:
        """Take ``scene_graph`` and ``workers``."""
        self.scene = require_handle(self, kwargs, "scene_graph", SceneGraph)
        self.workers = require_handle(self, kwargs, "workers", WorkerPool)
        super().setup(**kwargs)

    def start(self) -> Pending[AfterEpisode] | Status:
        """Decide at once when nothing needs the belief; else read it on the workers."""
        self._reply = keys.read_optional(self.blackboard, self.reply_key, str) or ""
        finished = self.episode.end == "finished"
        self._claims = success_sentences(self._reply, reports=False) if finished else []
        self._states = finished and states_claimed(self._reply)
        attempts = self.episode.as_attempts()
        if finished and not self._claims and not self._states:
            self.feedback_message = "finished; the reply claims nothing done"
            return Status.SUCCESS
        if not attempts and not self._states:
            if self._claims:
                return self._veto(self.episode.finished_reply(), "no robot action was run")
            self.feedback_message = "gave up; no robot action was run, nothing to add"
            return Status.SUCCESS
        assert self.scene is not None, "setup() took the scene_graph"
        return self.submit(read_after_episode, attempts, self.robot, self.scene, self._reply)

    def finish(self, after: AfterEpisode) -> Status:
        """Keep the reply when the outcome backs it; else say the outcome instead."""
        result = after.outcome
        report = f"{result.sentences()} {self.episode.account()}".strip()
        if after.unbacked_states:
            why = "the belief does not back the states it claims: " + " ".join(
                after.unbacked_states
            )
            return self._veto(f"{STOPPED} {report}".strip(), why)
        if not self._claims and self.episode.end == "finished":
            self.feedback_message = "finished; the states the reply claims are backed by the belief"
            keys.add_note(self.blackboard, self.rationale_key, "final reply backed by the belief")
            return Status.SUCCESS
        if not self._claims:  # the episode gave up: its reply gets what the belief holds
            said = result.sentences()
            if said:
                self.blackboard.set(self.reply_key, f"{_ended(self._reply)} {said}")
            self.feedback_message = "gave up; the outcome read from the belief is added"
            return Status.SUCCESS
        forms = {form for names in result.unclaimable_forms().values() for form in names}
        refused = unbacked(self._claims, done=result.achieved, unclaimed=forms)
        if not refused:
            self.feedback_message = "finished; the reply's claims are backed by the belief"
            keys.add_note(self.blackboard, self.rationale_key, "final reply backed by the belief")
            return Status.SUCCESS
        return self._veto(f"{STOPPED} {report}", "the belief does not back: " + " ".join(refused))

    def on_error(self, error: Exception) -> Status:
        """The belief cannot be read: no success claim is said (a give-up reply is kept)."""
        log.warning("%s: cannot read the belief after the episode: %s", self.name, error)
        if not self._claims and not self._states:
            self.feedback_message = f"gave up; the belief cannot be read ({error})"
            return Status.SUCCESS
        return self._veto(self.episode.finished_reply(), f"the belief cannot be read: {error}")

    def _veto(self, reply: str, why: str) -> Status:
        """Say ``reply`` instead of the episode's, and note ``why`` on the gate's rationale."""
        self.blackboard.set(self.reply_key, reply)
        note = f"final reply not said: {clip(why, 300)}"
        keys.add_note(self.blackboard, self.rationale_key, note, vetoed=True)
        self.feedback_message = f"finished; {note}"
        return Status.SUCCESS


def _ended(text: str) -> str:
    """``text`` ending with a full stop (or its own ``.``, ``!`` or ``?``)."""
    text = text.rstrip()
    return text if text.endswith((".", "!", "?")) else f"{text}."
