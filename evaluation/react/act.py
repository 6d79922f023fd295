"""``ReActAct``: the action node of a ReAct step: the chosen action runs as a real child.

The decision gate (:class:`~evaluation.react.decide.ReActDecide`) leaves a checked choice on the
episode. This node builds the node for it and inserts it as its only child, the way
``ExecutePlan`` inserts its compiled plan (:class:`~behaviours.staged_children.StagedChildren`):

- perception (``GetMapRooms()``, ``GetObjectsInRoom(room)``, ``LocateObject(thing)``): the
  perception nodes of :mod:`behaviours.actions.grounding.perception`;
- ``LOOK()``: :class:`~behaviours.actions.planning.look_around.LookAround` (the belief is
refreshed);
- a robot skill: :class:`~behaviours.actions.planning.skill_action.SkillAction` (its preconditions
are checked
  on the current belief first; when one fails no command is sent and the failure is the
  observation);
- ``DELEGATE(person, ability, description)``:
:class:`~behaviours.actions.dialogue.delegate.DelegateToHuman`.

The tree ticks the child, so the tick log, ``--show-ticks`` and the viewer show it with its own
status; it stays (with its last status) until the next step replaces it. Once it ends, its
result is the step's observation. A step settled by the gate (a refusal, no usable answer,
FINISH) runs no child. Then the step is recorded on the episode, and when the episode is over
this node writes the reply. The model's final reply (FINISH) is held to the episode: every
number and name it states must be in the request or in what the steps did and observed
(:mod:`knowledge.understanding.faithfulness`); otherwise the robot says what it did instead and
notes why on the gate's rationale.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import py_trees
from py_trees.common import Status
from pydantic import BaseModel

from cogtree.behaviours import keys
from cogtree.behaviours.actions.dialogue.delegate import DelegateToHuman
from cogtree.behaviours.actions.grounding.perception import (
    GetMapRooms,
    GetObjectsInRoom,
    LocateObject,
)
from cogtree.behaviours.actions.planning.look_around import LookAround
from cogtree.behaviours.actions.planning.skill_action import SkillAction
from cogtree.behaviours.setup_handles import require_handle
from cogtree.behaviours.staged_children import StagedChildren
from cogtree.evaluation.react.model import (
    GET_MAP_ROOMS,
    GET_OBJECTS_IN_ROOM,
    LOCATE_OBJECT,
    DelegateArgs,
    Observation,
    ReActEpisode,
    ReActTurn,
    RoomArgs,
    ThingArgs,
)
from cogtree.knowledge.scene.scene_graph import SceneGraph
from cogtree.knowledge.scene.scene_models import ObjectInfo, Room
from cogtree.knowledge.understanding.faithfulness import Support, held_to, turn_support
from cogtree.knowledge.wording import clip
from cogtree.knowledge.worker_pool import WorkerPool
from cogtree.skills.action_model.commands import Executor
from cogtree.skills.capabilities.calls import SkillCall
from cogtree.skills.execution.controller import SkillOutcome
from cogtree.skills.planning.plan_model import LOOK

Observe = Callable[[py_trees.behaviour.Behaviour], Observation]
"""The observation of an action, from its node once it ended."""


class ReActAct(keys.DeclaredKeys, py_trees.composites.Sequence):
    """Run the choice of the step's gate as this node's child; record the observation.

    Built by :class:`~evaluation.react.step.ReActStep`, which gives it the ``episode`` and the
    name of its ``gate`` (whose rationale it annotates). Handles: ``scene_graph`` (the belief),
    ``workers`` and ``executor``, and whatever the inserted child needs, passed on when it is
    built (``people`` and optionally ``clock`` for DELEGATE).

    Writes ``/perception/target_room`` / ``/perception/target_object`` / ``/skill/call`` as
    the inputs of the child it inserts (which writes ``/perception/*`` or ``/skill/outcome``,
    cleared before each step),
    and reads its results; reads ``/turn/utterance``; writes ``/turn/reply`` when the episode
    ends (a final reply the faithfulness check refuses is replaced by what was done), and adds
    the observation to the gate's ``/rationale/<node>`` (vetoed when the action was refused or
    the final reply was not said, with why).

    SUCCESS: the episode is over and ``/turn/reply`` says so (the model finished, or the step
    budget is spent or there is no model to ask: an honest reply with what was done).
    FAILURE: the step was taken and the episode goes on. RUNNING: the child is being set up or
    is running. Interrupted, it stops the child (which cancels its work).
    """

    reads = (keys.SKILL_OUTCOME, keys.ROOMS, keys.OBJECTS, keys.UTTERANCE)
    writes = (
        keys.REPLY,
        keys.TARGET_ROOM,
        keys.TARGET_OBJECT,
        keys.SKILL_CALL,
        keys.SKILL_OUTCOME,
        keys.RATIONALE,
    )

    def __init__(
        self,
        name: str,
        episode: ReActEpisode,
        *,
        gate: str,
        robot: str = "robot1",
        delegation_timeout_s: float = 600.0,
    ) -> None:
        super().__init__(
            name, memory=True, writes=(spec.for_node(gate) for spec in ReActAct.writes)
        )
        self.episode = episode
        self.robot = robot
        self.delegation_timeout_s = delegation_timeout_s
        self.scene: SceneGraph | None = None
        self.workers: WorkerPool | None = None
        self.handles: dict[str, Any] = {}
        self.staging = StagedChildren(self, "the action")
        self._observe: Observe | None = None
        self._settled: Observation | None = None
        self.reply_key = self.key_of(keys.REPLY)
        self.target_room_key = self.key_of(keys.TARGET_ROOM)
        self.target_object_key = self.key_of(keys.TARGET_OBJECT)
        self.skill_call_key = self.key_of(keys.SKILL_CALL)
        self.outcome_key = self.key_of(keys.SKILL_OUTCOME)
        self.rooms_key = self.key_of(keys.ROOMS)
        self.objects_key = self.key_of(keys.OBJECTS)
        self.utterance_key = self.key_of(keys.UTTERANCE)
        self.rationale_key = self.key_of(keys.RATIONALE)

    # -- py_trees lifecycle -------------------------------------------------------------------

    def setup(self, **kwargs: Any) -> None:
        """Take ``scene_graph``, ``workers`` and ``executor``; keep every handle for children."""
        self.scene = require_handle(self, kwargs, "scene_graph", SceneGraph)
        self.workers = require_handle(self, kwargs, "workers", WorkerPool)
        require_handle(self, kwargs, "executor", Executor)  # type: ignore[type-abstract]
        self.handles = dict(kwargs)

    def initialise(self) -> None:
        """Replace the last step's child with the node of the chosen action (being set up)."""
        if self.scene is None or self.workers is None:
            raise RuntimeError(
                f"{self.name}: setup(scene_graph=, workers=, executor=...) was not called"
            )
        choice = self.episode.choice
        if choice is None:
            raise RuntimeError(f"{self.name}: ticked before its gate chose an action")
        self._observe, self._settled = None, choice.settled
        nodes: list[py_trees.behaviour.Behaviour] = []
        if choice.args is not None:
            step = f"{len(self.episode.history) + 1}:{choice.decision.describe()}"
            node, self._observe = self._build(step, choice.decision.action, choice.args)
            nodes.append(node)
        self.staging.replace(nodes, self.handles, self.workers.submit)

    def tick(self) -> Iterator[py_trees.behaviour.Behaviour]:
        """Set the child up, then tick it until it ends; record the step once it is over."""
        if self.status != Status.RUNNING:
            self.initialise()
        if self.staging.preparing:
            self.status = Status.RUNNING
            self.feedback_message = f"preparing {self._doing()}"
            yield self
            return
        if self.staging.staged:
            problem = self.staging.adopt()
            if problem is not None:
                self._settled = Observation(problem, ok=False)
        if self._settled is None and self.children:
            child = self.children[0]
            yield from child.tick()
            if child.status == Status.RUNNING:
                self.status = Status.RUNNING
                self.feedback_message = f"{self._doing()}: {child.feedback_message}"
                yield self
                return
            assert self._observe is not None
            self._settled = self._observe(child)
        assert self._settled is not None
        status = self._conclude(self._settled)
        self.stop(status)
        yield self

    def terminate(self, new_status: Status) -> None:
        """Drop a child still being set up when interrupted."""
        if new_status == Status.INVALID:
            self.staging.cancel()

    # -- building the child ----------------------------------------------------------------------

    def _build(
        self, name: str, action: str, args: BaseModel
    ) -> tuple[py_trees.behaviour.Behaviour, Observe]:
        self.blackboard.unset(self.outcome_key)  # the last step's outcome is not this one's
        if isinstance(args, RoomArgs):
            self.blackboard.set(self.target_room_key, args.room)
        elif isinstance(args, ThingArgs):
            self.blackboard.set(self.target_object_key, args.thing)
        if action == GET_MAP_ROOMS:
            return GetMapRooms(name), self._rooms_observation
        if action == GET_OBJECTS_IN_ROOM:
            return GetObjectsInRoom(name), self._objects_observation
        if action == LOCATE_OBJECT:
            return LocateObject(name), _plain
        if action == LOOK:
            return LookAround(name, robot=self.robot), _plain
        if isinstance(args, DelegateArgs):
            person = DelegateToHuman(
                name,
                args.person,
                args.ability,
                args.description,
                timeout_s=self.delegation_timeout_s,
            )
            return person, _delegation_observation
        call = SkillCall.model_validate({"skill": action, "args": args})
        self.blackboard.set(self.skill_call_key, call)
        return SkillAction(name, robot=self.robot), self._skill_observation

    # -- observations --------------------------------------------------------------------------

    def _rooms_observation(self, node: py_trees.behaviour.Behaviour) -> Observation:
        rooms = keys.read(self.blackboard, self.rooms_key)
        if node.status != Status.SUCCESS or not isinstance(rooms, list):
            return Observation(node.feedback_message, ok=False)
        return Observation(_rooms_text(rooms), ok=True)

    def _objects_observation(self, node: py_trees.behaviour.Behaviour) -> Observation:
        objects = keys.read(self.blackboard, self.objects_key)
        room = keys.read_optional(self.blackboard, self.target_room_key, str)
        if node.status != Status.SUCCESS or not isinstance(objects, list) or room is None:
            return Observation(node.feedback_message, ok=False)
        return Observation(_objects_text(room, objects), ok=True)

    def _skill_observation(self, node: py_trees.behaviour.Behaviour) -> Observation:
        outcome = keys.read_optional(self.blackboard, self.outcome_key, SkillOutcome)
        refused = outcome is not None and outcome.failed_precondition is not None
        return Observation(node.feedback_message, ok=node.status == Status.SUCCESS, refused=refused)

    # -- ending the step -------------------------------------------------------------------------

    def _conclude(self, observation: Observation) -> Status:
        """Record the step; write the reply when the episode is over; report the observation."""
        choice = self.episode.choice
        assert choice is not None
        turn = self.episode.record(observation)
        reply, unsaid = self.episode.reply(), None
        if reply is not None and self.episode.end == "finished":
            reply, unsaid = held_to(reply, self._support(), self.episode.finished_reply())
        if reply is not None:
            self.blackboard.set(self.reply_key, reply)
        self._annotate_rationale(
            turn, vetoed=(turn.refused and not choice.no_answer) or unsaid is not None
        )
        if unsaid is not None:
            self._note(f"final reply not said: {unsaid}")
        ending = {"finished": "; finished", "gave_up": "; gave up", None: ""}[self.episode.end]
        self.feedback_message = (
            f"step {len(self.episode.history)}/{self.episode.max_steps}: {turn.describe()} -> "
            f"{turn.state()}: {clip(turn.observation, 200, one_line=False)}{ending}"
        )
        return Status.FAILURE if reply is None else Status.SUCCESS

    def _annotate_rationale(self, turn: ReActTurn, *, vetoed: bool) -> None:
        self._note(f"observation: {turn.observation}", vetoed=vetoed)

    def _note(self, note: str, *, vetoed: bool = False) -> None:
        """Add ``note`` to the gate's rationale (and mark it vetoed when ``vetoed``)."""
        keys.add_note(self.blackboard, self.rationale_key, note, vetoed=vetoed)

    def _support(self) -> Support:
        """What the final reply may state: the request and what the episode did and saw.

        The last step is FINISH itself (its observation is the reply): it supports nothing.
        """
        steps = self.episode.history[:-1]
        said = [turn.observation for turn in steps]
        said.extend(turn.describe() for turn in steps if turn.ok)
        utterance = keys.read_optional(self.blackboard, self.utterance_key, str)
        return turn_support(utterance, *said)

    def _doing(self) -> str:
        choice = self.episode.choice
        action = choice.decision.describe() if choice is not None else "the action"
        return f"step {len(self.episode.history) + 1}/{self.episode.max_steps}: {action}"


def _plain(node: py_trees.behaviour.Behaviour) -> Observation:
    return Observation(node.feedback_message, ok=node.status == Status.SUCCESS)


def _delegation_observation(node: py_trees.behaviour.Behaviour) -> Observation:
    """The person's own answer (``code: message`` when they did not do it), else why not."""
    assert isinstance(node, DelegateToHuman)
    answer = node.answer
    if answer is None:  # no answer: the request timed out, was withdrawn, or never went out
        return Observation(node.feedback_message, ok=False)
    text = answer.message or f"{node.person} did {node.request.ability}"
    if not answer.ok and answer.code:
        text = f"{answer.code}: {text}"
    return Observation(text, ok=answer.ok)


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
