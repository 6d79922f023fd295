"""``JournalingSceneGraph``: a belief that also records what perception told it, for others.

The simulated robot side of ROS 2 (:mod:`sim.ros_robot`) keeps the belief its perception
updates (the simulator's executor decides from it which things are new to the robot) and
publishes every update, so the host's belief follows. This scene graph records each
:meth:`~knowledge.scene.scene_graph.SceneGraph.observe` and each placement it actually forgot
(:meth:`~knowledge.scene.scene_graph.SceneGraph.forget_placement`: looked, not there) as a
:class:`BeliefChange`; :meth:`JournalingSceneGraph.drain` hands them over in order.

A change is attributed to the source of its observations (``sim:robot1``); a forgotten
placement to the source of the observations just before it (perception looks, then forgets
what it did not see: :func:`sim.perception.update_belief`).
"""

from __future__ import annotations

import threading
from collections.abc import Iterable
from dataclasses import dataclass, replace

from rdflib import Graph

from cogtree.knowledge.scene.scene_graph import SceneGraph
from cogtree.knowledge.scene.scene_models import Observation


@dataclass(frozen=True)
class BeliefChange:
    """Updates from one source, in order: its observations, then the placements it forgot."""

    source: str
    observations: tuple[Observation, ...] = ()
    forgotten: tuple[str, ...] = ()

    def then(self, later: BeliefChange) -> BeliefChange | None:
        """Both changes as one (this, then ``later``), or None if merging would reorder them."""
        if later.source != self.source or (self.forgotten and later.observations):
            return None
        return replace(
            self,
            observations=self.observations + later.observations,
            forgotten=self.forgotten + later.forgotten,
        )


class JournalingSceneGraph(SceneGraph):
    """A scene graph that journals its observations and forgotten placements (module docs)."""

    UNKNOWN_SOURCE = "unknown"
    """The source of a forgotten placement with no observation before it."""

    def __init__(self, graph: Graph | None = None) -> None:
        super().__init__(graph)
        self._journal: list[BeliefChange] = []
        self._journal_lock = threading.Lock()
        self._last_source = self.UNKNOWN_SOURCE

    @classmethod
    def taking_over(cls, scene: SceneGraph) -> JournalingSceneGraph:
        """A journaling belief on ``scene``'s graph; ``scene`` is closed and must not be used."""
        journaling = cls(scene.graph)
        scene.close()
        return journaling

    def observe(self, observations: Iterable[Observation]) -> None:
        """Apply ``observations`` (see :meth:`SceneGraph.observe`) and journal them."""
        made = tuple(observations)
        super().observe(made)
        for source in dict.fromkeys(o.source for o in made):
            self._record(
                BeliefChange(source, observations=tuple(o for o in made if o.source == source))
            )
            self._last_source = source

    def forget_placement(self, thing: str) -> bool:
        """Forget where ``thing`` is (see :meth:`SceneGraph.forget_placement`); journal it."""
        forgot = super().forget_placement(thing)
        if forgot:
            self._record(BeliefChange(self._last_source, forgotten=(thing,)))
        return forgot

    def drain(self) -> list[BeliefChange]:
        """The changes since the last drain, oldest first; consecutive ones merged."""
        with self._journal_lock:
            changes, self._journal = self._journal, []
        return changes

    def _record(self, change: BeliefChange) -> None:
        with self._journal_lock:
            merged = self._journal[-1].then(change) if self._journal else None
            if merged is None:
                self._journal.append(change)
            else:
                self._journal[-1] = merged
