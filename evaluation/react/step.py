"""``ReActStep``: one step of RoBee's ReAct planner: the model picks an action, the robot acts.

Each run of the node is one step of an episode, in three children that share the episode
(:class:`~evaluation.react.model.ReActEpisode`)::

    ReActStep (Sequence)
    ├── <name>.Decide   ReActDecide: the model picks ONE action; the gate checks it
    ├── <name>.Act      ReActAct: runs it as its child, records the observation
    │   └── 2:PICK(object=bottle, hand=right)    the chosen action, a real node of the tree
    └── <name>.Report   ReActReport: once the episode is over, the reply held to the belief

The action is a real node: the tree ticks it, the tick log and the viewer show it with its
status, and stopping the step stops it. An unknown action or arguments that do not fit are
refused with the reason as the observation: nothing is sent and the step is spent. The
episode ends when the model finishes or when the step budget is spent; then the step writes an
honest reply saying what was done, and holds it to the belief: a claim that the task was done
is said only when the facts the episode's actions were for hold, made so by the robot or the
people it asked (:mod:`evaluation.react.report`).
"""

from __future__ import annotations

from collections.abc import Iterator

import py_trees
from py_trees.common import Status

from cogtree.evaluation.react.act import ReActAct
from cogtree.evaluation.react.decide import ReActDecide
from cogtree.evaluation.react.model import EpisodeEnd, ReActEpisode, ReActTurn
from cogtree.evaluation.react.report import ReActReport


class ReActStep(py_trees.composites.Sequence):
    """One ReAct step: the gate asks the model for one action, the action node runs it.

    Handles: ``llm``, ``scene_graph`` (the belief), ``workers``, ``executor``; ``people`` (a
    :class:`~skills.execution.human_channel.HumanChannel`) is optional: without it DELEGATE is
    refused.

    Reads ``/turn/utterance`` and ``/turn/speaker``. Writes ``/turn/reply`` when the episode
    ends, ``/perception/target_room`` / ``/perception/target_object`` / ``/skill/call`` as the
    inputs of the perception and skill nodes it runs (which write ``/perception/*`` and
    ``/skill/outcome``), and its gate's ``/rationale/<node>`` (``/rationale/reactstep_decide``)
    with the decision, its observation and, at the end, whether the reply was backed. The
    episode's history is :attr:`history`.

    SUCCESS: the episode is over and ``/turn/reply`` says so: the model finished
    (:attr:`episode_end` ``finished``; its reply, unless it claims what the belief does not
    back), or the step budget is spent or there is no model to ask (``gave_up``: an honest
    reply with what was done and what the belief holds). FAILURE: one step was taken and the
    episode goes on; the run after it starts the next step (a ``Retry`` decorator loops it).
    RUNNING: the model is deciding, the action is running or the belief is being read.
    Interrupted, it cancels the model call and the action, and the next run starts a new
    episode.
    """

    parts = (ReActDecide, ReActAct, ReActReport)
    """The classes of the nodes it is built of (the node catalogue shows their ports)."""

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
        self.episode = ReActEpisode(max_steps)
        self.decide = ReActDecide(f"{name}.Decide", self.episode, robot=robot, module=module)
        self.act = ReActAct(
            f"{name}.Act",
            self.episode,
            gate=self.decide.name,
            robot=robot,
            delegation_timeout_s=delegation_timeout_s,
        )
        self.report = ReActReport(
            f"{name}.Report", self.episode, gate=self.decide.name, robot=robot
        )
        super().__init__(name, memory=True, children=[self.decide, self.act, self.report])

    @property
    def history(self) -> list[ReActTurn]:
        """The steps of the current (or last) episode, oldest first."""
        return list(self.episode.history)

    @property
    def episode_end(self) -> EpisodeEnd | None:
        """How the last episode ended (``finished`` / ``gave_up``); None while it runs."""
        return self.episode.end

    def tick(self) -> Iterator[py_trees.behaviour.Behaviour]:
        """Tick the gate, then the action node; the feedback is that of the one ticked last."""
        for node in super().tick():
            if node is self and self.current_child is not None:
                self.feedback_message = self.current_child.feedback_message
            yield node

    def terminate(self, new_status: Status) -> None:
        """Interrupted (RUNNING -> INVALID): the episode is abandoned (its children stopped)."""
        if self.status == Status.RUNNING and new_status == Status.INVALID:
            self.episode.abandon()
            self.feedback_message = "interrupted: the episode is abandoned"
