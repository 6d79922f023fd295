"""Perception actions over the scene graph: rooms, objects in a room, locate, resolve a referent.

Each node is a :class:`~behaviours.background.BackgroundWork`: it runs one
:class:`~knowledge.scene.scene_graph.SceneGraph` query on the ``workers`` pool and never blocks a
tick. ``start`` reads its inputs and submits the query; the node is RUNNING until the answer
is in (a query submitted in this tick is first polled on the next tick, so a node always spans
at least two ticks), then ``finish`` writes the answer to its blackboard key. Interrupted while
RUNNING, a node cancels its query (one that has already started finishes on the worker and its
answer is dropped).

On FAILURE a node *unsets* its output key, so a later node never reads a previous answer as
if it were this one. Handles (``setup`` keyword arguments): ``scene_graph``
(:class:`~knowledge.scene.scene_graph.SceneGraph`) and ``workers``
(:class:`~knowledge.worker_pool.WorkerPool`), required.
"""

from __future__ import annotations

import logging
from abc import ABC, abstractmethod
from collections.abc import Callable
from concurrent.futures import Future
from typing import Any, TypeVar

from py_trees.common import Status

from cogtree.behaviours import keys
from cogtree.behaviours.background import BackgroundWork, Pending
from cogtree.behaviours.setup_handles import require_handle
from cogtree.knowledge.scene.scene_graph import SceneGraph, UnknownEntityError
from cogtree.knowledge.scene.scene_models import Candidate, Location, ObjectInfo, Room
from cogtree.knowledge.worker_pool import WorkerPool

log = logging.getLogger(__name__)

A = TypeVar("A")


class InputMissing(ValueError):
    """A node's input is not on the blackboard, or is blank; the message names the key."""


class SceneQuery(keys.DeclaredKeys, BackgroundWork[A], ABC):
    """Base of the perception nodes: one scene-graph query per run, polled without blocking.

    Subclasses implement :meth:`query` (read inputs, return the call to run) and
    :meth:`deliver` (write the answer, pick the status, describe it). A subclass declares
    its one output key as ``writes`` and its inputs as ``reads``; a node whose input is a
    constant rather than a key passes ``reads=()``.
    """

    def __init__(self, name: str, *, reads: tuple[keys.KeySpec, ...] | None = None) -> None:
        super().__init__(name, reads=reads)
        (output,) = self.writes
        self.output_key = self.key_of(output)
        self.scene_graph: SceneGraph | None = None

    # -- hooks for subclasses ----------------------------------------------------------------

    @abstractmethod
    def query(self, scene_graph: SceneGraph) -> Callable[[], A]:
        """Read the inputs and return the query to run; raise InputMissing when one is absent."""

    @abstractmethod
    def deliver(self, answer: A) -> tuple[Status, str]:
        """Write ``answer`` to the output key; return the status and the feedback message."""

    # -- py_trees lifecycle -------------------------------------------------------------------

    def setup(self, **kwargs: Any) -> None:
        """Take the ``scene_graph`` and ``workers`` handles."""
        super().setup(**kwargs)
        self.scene_graph = require_handle(self, kwargs, "scene_graph", SceneGraph)
        self.workers = require_handle(self, kwargs, "workers", WorkerPool)

    # -- the background work --------------------------------------------------------------------

    def start(self) -> Future[A] | Status:
        """Read the inputs and submit the query; FAILURE at once when an input is missing."""
        assert self.scene_graph is not None
        try:
            call = self.query(self.scene_graph)
        except InputMissing as error:
            return self._fail(str(error))
        return self.submit(call)

    def finish(self, result: A) -> Status:
        """SUCCESS or FAILURE as :meth:`deliver` decides."""
        status, message = self.deliver(result)
        if status == Status.FAILURE:
            return self._fail(message)
        self.feedback_message = message
        return status

    def on_error(self, error: Exception) -> Status:
        """FAILURE with the query's reason (an unknown entity, a bad id, or a bug, logged)."""
        if isinstance(error, (UnknownEntityError, ValueError)):
            return self._fail(str(error))
        log.error("%s: the scene-graph query failed", self.name, exc_info=error)
        return self._fail(f"query failed: {type(error).__name__}: {error}")

    def on_cancel(self, work: Pending[A]) -> None:
        """Cancel the query (interrupted)."""
        work.cancel()
        self.feedback_message = "cancelled while the query was running"

    def waiting(self, waited: float) -> str:
        """Which query runs."""
        return f"waiting for the {type(self).__name__} query"

    # -- helpers -------------------------------------------------------------------------------

    def _fail(self, reason: str) -> Status:
        self.blackboard.unset(self.output_key)
        self.feedback_message = reason
        return Status.FAILURE

    def read_text(self, key: str) -> str:
        """The non-blank text at ``key``; InputMissing naming the key otherwise."""
        value = self.blackboard.get(key) if self.blackboard.exists(key) else None
        if not isinstance(value, str) or not value.strip():
            raise InputMissing(f"{key} is not set: nothing to look for")
        return value.strip()


class _TargetInput:
    """Where a node gets a scene-graph id: a constant, or a blackboard key read each run."""

    def __init__(self, node: SceneQuery[Any], target: str | keys.KeySpec) -> None:
        self.node = node
        self.target = target
        self.key = None if isinstance(target, str) else node.key_of(target)

    @staticmethod
    def reads(target: str | keys.KeySpec) -> tuple[keys.KeySpec, ...]:
        """The keys a node with this target reads: none for a constant id."""
        return () if isinstance(target, str) else (target,)

    def value(self) -> str:
        """The id to query (InputMissing when the key is unset or blank)."""
        if isinstance(self.target, str):
            return self.target
        assert self.key is not None
        return self.node.read_text(self.key)


class GetMapRooms(SceneQuery[list[Room]]):
    """The map: every room of the belief and the rooms each one opens onto.

    Writes ``/perception/rooms`` (list of :class:`~knowledge.scene.scene_models.Room`).
    SUCCESS when the belief has at least one room; FAILURE when it has none (the key is
    unset); RUNNING while the query runs.
    """

    writes = (keys.ROOMS,)

    def __init__(self, name: str = "GetMapRooms") -> None:
        super().__init__(name)

    def query(self, scene_graph: SceneGraph) -> Callable[[], list[Room]]:
        """All rooms."""
        return scene_graph.rooms

    def deliver(self, answer: list[Room]) -> tuple[Status, str]:
        """Write the rooms; no rooms is a failure (there is no map)."""
        if not answer:
            return Status.FAILURE, "the scene graph has no rooms: load a scene with a map"
        self.blackboard.set(self.output_key, answer)
        return Status.SUCCESS, f"{len(answer)} rooms: {', '.join(r.id for r in answer)}"


class GetObjectsInRoom(SceneQuery[list[ObjectInfo]]):
    """What is believed to be in one room: objects and furniture.

    ``room`` is a room id, or the key to read it from (default ``/perception/target_room``).
    Writes ``/perception/objects`` (list of :class:`~knowledge.scene.scene_models.ObjectInfo`).
    SUCCESS when the room is in the belief, even if nothing is in it (an empty list);
    FAILURE when the room id is unset, malformed or not a room of the belief (the message
    lists the rooms; the key is unset); RUNNING while the query runs.
    """

    reads = (keys.TARGET_ROOM,)
    writes = (keys.OBJECTS,)

    def __init__(
        self, name: str = "GetObjectsInRoom", room: str | keys.KeySpec = keys.TARGET_ROOM
    ) -> None:
        super().__init__(name, reads=_TargetInput.reads(room))
        self.room = _TargetInput(self, room)
        self._asked = ""

    def query(self, scene_graph: SceneGraph) -> Callable[[], list[ObjectInfo]]:
        """The objects in the target room."""
        room = self._asked = self.room.value()
        return lambda: scene_graph.objects_in_room(room)

    def deliver(self, answer: list[ObjectInfo]) -> tuple[Status, str]:
        """Write the objects (an empty room is an answer too)."""
        self.blackboard.set(self.output_key, answer)
        listed = ", ".join(o.id for o in answer) or "nothing"
        return Status.SUCCESS, f"in {self._asked}: {listed}"


class LocateObject(SceneQuery[Location | None]):
    """Where one thing, person or robot is believed to be.

    ``thing`` is an id, or the key to read it from (default ``/perception/target_object``).
    Writes ``/perception/location`` (:class:`~knowledge.scene.scene_models.Location`).
    SUCCESS when the belief places it; FAILURE when the id is unset or malformed, or the
    belief has no placement for it (the key is unset); RUNNING while the query runs.
    """

    reads = (keys.TARGET_OBJECT,)
    writes = (keys.LOCATION,)

    def __init__(
        self, name: str = "LocateObject", thing: str | keys.KeySpec = keys.TARGET_OBJECT
    ) -> None:
        super().__init__(name, reads=_TargetInput.reads(thing))
        self.thing = _TargetInput(self, thing)
        self._asked = ""

    def query(self, scene_graph: SceneGraph) -> Callable[[], Location | None]:
        """Locate the target."""
        thing = self._asked = self.thing.value()
        return lambda: scene_graph.locate_object(thing)

    def deliver(self, answer: Location | None) -> tuple[Status, str]:
        """Write the location, or fail when the belief does not place the thing."""
        if answer is None:
            return Status.FAILURE, f"no belief about where {self._asked} is"
        self.blackboard.set(self.output_key, answer)
        where = f"{answer.relation} {answer.support}"
        room = f" in {answer.room}" if answer.room and answer.room != answer.support else ""
        seen = f" (seen by {answer.source})" if answer.source else ""
        return Status.SUCCESS, f"{self._asked}: {where}{room}{seen}"


class ResolveReferent(SceneQuery[list[Candidate]]):
    """Which scene-graph nodes the user's description may mean.

    Reads ``/turn/referent`` (the description) and, if set, ``/turn/speaker`` (who "my"
    means). Writes ``/turn/candidates`` (list of :class:`~knowledge.scene.scene_models.Candidate`).
    SUCCESS whenever the query ran: zero, one or several candidates are all answers for the
    next node to act on (act, ask which one, or say it is not known); FAILURE when the
    referent is unset or blank, or the speaker id is malformed (the key is unset); RUNNING
    while the query runs.
    """

    reads = (keys.REFERENT, keys.SPEAKER)
    writes = (keys.CANDIDATES,)

    def __init__(self, name: str = "ResolveReferent") -> None:
        super().__init__(name)
        self.referent_key = self.key_of(keys.REFERENT)
        self.speaker_key = self.key_of(keys.SPEAKER)
        self._asked = ""

    def query(self, scene_graph: SceneGraph) -> Callable[[], list[Candidate]]:
        """Resolve the referent for the speaker (if known)."""
        description = self._asked = self.read_text(self.referent_key)
        try:
            speaker: str | None = self.read_text(self.speaker_key)
        except InputMissing:
            speaker = None
        return lambda: scene_graph.resolve_referent(description, speaker)

    def deliver(self, answer: list[Candidate]) -> tuple[Status, str]:
        """Write the candidates, however many there are."""
        self.blackboard.set(self.output_key, answer)
        if not answer:
            return Status.SUCCESS, f"nothing in the scene graph matches {self._asked!r}"
        listed = ", ".join(c.id for c in answer)
        return Status.SUCCESS, f"{len(answer)} candidate(s) for {self._asked!r}: {listed}"
