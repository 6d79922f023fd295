"""The host's belief from ROS 2 robots: their starting state and their observations.

:func:`fetch_robot_state` waits for a robot's latched ``cogtree_interfaces/msg/RobotState``
and :func:`belief_from_state` turns it into a :class:`~knowledge.scene.scene_graph.SceneGraph`, so
the host builds its belief without reading the scenario file. A :class:`BeliefListener` then
keeps that belief up to date: it subscribes to every robot's ``observations`` and applies each
``ObservationBatch`` as it arrives (observations, then the things the robot looked for and did
not see).

Trust: a batch is applied only when it comes from the robot its namespace serves and its
``sequence`` is above the last one applied from that robot (the state's ``sequence`` is the
first baseline: what it includes is not applied twice) by at most :data:`MAX_SEQUENCE_JUMP`
(a batch numbered far ahead, say 2**63, would otherwise make every real batch after it look
out of order and freeze the belief). A foreign, out-of-order or far-ahead batch is logged as
a warning and dropped (:attr:`BeliefListener.dropped` counts them).

A batch that would make a thing less hazardous than the belief holds it (metal to ceramic, a
chemical flag cleared, hot to cold) is applied only when those observations are the robot's
own perception and fresh (:mod:`skills.ros.observation_trust`); otherwise it is refused whole
and logged (:attr:`BeliefListener.refused` counts them), and the belief keeps the hazard. Its
number still counts as seen, so the next batch is taken. A forger that guesses the next number
and writes the robot's own source still gets one batch in, which is why the robot side
re-checks what matters for safety (hot, sharp, heavy, brimful, on a heat source that is on)
with its own senses before it takes an object.

The scene graph serialises writes with its own lock, so batches may be applied from any
executor thread; a reader running meanwhile may see part of a batch (as with the simulator's
executor). A batch the belief rejects (unknown predicate, bad id) is logged and skipped whole.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Mapping
from functools import partial
from typing import Any

from cogtree_interfaces.msg import ObservationBatch, RobotState
from rclpy.node import Node
from rclpy.subscription import Subscription
from rclpy.wait_for_message import wait_for_message

from cogtree.knowledge.closing import Closeable
from cogtree.knowledge.scene.scene_graph import SceneGraph
from cogtree.skills.ros.messages import MessageError, observation_of
from cogtree.skills.ros.observation_trust import ObservationTrust
from cogtree.skills.ros.protocol import (
    OBSERVATIONS_TOPIC,
    START_HINT,
    STATE_TOPIC,
    check_namespace,
    latched_qos,
    perception_source,
    reliable_qos,
    topic,
)

log = logging.getLogger(__name__)


class RobotStateError(RuntimeError):
    """A robot's state could not be had: no robot side (says what to start)."""


def fetch_robot_state(node: Node, namespace: str, *, timeout_s: float = 10.0) -> RobotState:
    """Wait up to ``timeout_s`` for the latched state under ``namespace`` (``/robot1``).

    Call it before ``node`` is spun (it takes the message itself). Raises
    :class:`RobotStateError` saying what to start when nothing arrives.
    """
    state_topic = topic(namespace, STATE_TOPIC)
    received, message = wait_for_message(
        RobotState, node, state_topic, qos_profile=latched_qos(), time_to_wait=timeout_s
    )
    if not received or message is None:
        raise RobotStateError(
            f"no robot state on {state_topic} within {timeout_s:g} s: the robot side is not "
            f"running; {START_HINT}"
        )
    state: RobotState = message
    return state


def belief_from_state(state: RobotState) -> SceneGraph:
    """A belief holding the ontology and ``state``'s Turtle (TurtleError names the line)."""
    return SceneGraph.from_turtle_text(state.belief_turtle, source=f"<state of {state.robot}>")


MAX_SEQUENCE_JUMP = 10_000
"""How far past the last applied batch a robot's next batch may be numbered (about 17 minutes
of batches lost at ten a second); further is refused, so one forged number cannot freeze the
belief."""


class BeliefListener(Closeable):
    """Applies every robot's trusted observation batches to ``scene`` (see the module docs).

    Args:
        node: the rclpy node to subscribe on; spun by its owner.
        scene: the belief to update.
        robots: robot name -> namespace (``{"robot1": "/robot1"}``).
        applied: robot -> the sequence number the belief already includes (the state's).
        perception: robot -> the ``source`` of its own perception (default
            :func:`~skills.ros.protocol.perception_source`): only those observations may lower
            a hazard.

    """

    def __init__(
        self,
        node: Node,
        scene: SceneGraph,
        robots: Mapping[str, str],
        *,
        applied: Mapping[str, int] | None = None,
        perception: Mapping[str, str] | None = None,
    ) -> None:
        self.node = node
        self.scene = scene
        self._lock = threading.Lock()
        self._applying = threading.Lock()  # a batch is judged and applied before the next
        self._trust = ObservationTrust(
            {robot: (perception or {}).get(robot, perception_source(robot)) for robot in robots}
        )
        self._applied = 0
        self._dropped = 0
        self._refused = 0
        self._last = {robot: (applied or {}).get(robot, 0) for robot in robots}
        self._subscriptions: list[Subscription[Any]] = [
            node.create_subscription(
                ObservationBatch,
                topic(check_namespace(namespace), OBSERVATIONS_TOPIC),
                partial(self._receive, robot, topic(namespace, OBSERVATIONS_TOPIC)),
                reliable_qos(),
            )
            for robot, namespace in robots.items()
        ]

    @property
    def batches_applied(self) -> int:
        """How many batches the belief took in so far."""
        with self._lock:
            return self._applied

    @property
    def dropped(self) -> int:
        """How many batches were dropped as foreign or out of order."""
        with self._lock:
            return self._dropped

    @property
    def refused(self) -> int:
        """How many batches were refused because they would lower a hazard untrusted."""
        with self._lock:
            return self._refused

    def _receive(self, robot: str, where: str, batch: ObservationBatch) -> None:
        with self._lock:
            problem = self._distrust(robot, batch)
            if problem is None:
                self._last[robot] = batch.sequence
            else:
                self._dropped += 1
        if problem is not None:
            log.warning("dropped observations on %s: %s", where, problem)
            return
        try:
            observations = [observation_of(message) for message in batch.observations]
            for thing in batch.forgotten:
                SceneGraph.iri(thing)  # a bad id rejects the batch before anything changes
            with self._applying:
                refusal = self._trust.refusal(self.scene, robot, observations)
                if refusal is None:
                    self.scene.observe(observations)
                    self._trust.applied(robot, observations)
                    for thing in batch.forgotten:
                        self.scene.forget_placement(thing)
        except (MessageError, ValueError) as error:
            log.warning("observations of %s not applied: %s", robot, error)
            return
        if refusal is not None:
            with self._lock:
                self._refused += 1
            log.warning("refused batch %d on %s: %s", batch.sequence, where, refusal)
            return
        with self._lock:
            self._applied += 1
        log.debug(
            "applied batch %d of %s: %d observations, %d absences",
            batch.sequence,
            robot,
            len(batch.observations),
            len(batch.forgotten),
        )

    def _distrust(self, robot: str, batch: ObservationBatch) -> str | None:
        """Why ``batch`` is not to be applied, or None (call with the lock held)."""
        if batch.robot != robot:
            return f"the batch says it is from {batch.robot!r}, but this namespace is {robot}'s"
        if batch.sequence <= self._last[robot]:
            return (
                f"batch {batch.sequence} of {robot} is out of order (the last applied is "
                f"{self._last[robot]}): a replay, a forgery or a restarted robot"
            )
        if batch.sequence - self._last[robot] > MAX_SEQUENCE_JUMP:
            return (
                f"batch {batch.sequence} of {robot} jumps more than {MAX_SEQUENCE_JUMP} past the "
                f"last applied ({self._last[robot]}): a forgery or a robot that renumbered; "
                "restart the host to take the robot's state afresh if it renumbered"
            )
        return None

    def close(self) -> None:
        """Unsubscribe (the belief stays as it is)."""
        for subscription in self._subscriptions:
            self.node.destroy_subscription(subscription)
        self._subscriptions.clear()
