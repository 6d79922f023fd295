"""The host's belief from ROS 2 robots: their starting state and their observations.

:func:`fetch_robot_state` waits for a robot's latched :class:`~skills.ros.protocol.RobotState`
and :func:`belief_from_state` turns it into a :class:`~knowledge.scene_graph.SceneGraph`, so
the host builds its belief without reading the scenario file. A :class:`BeliefListener` then
keeps that belief up to date: it subscribes to every robot's ``observations`` and applies each
:class:`~skills.ros.protocol.ObservationBatch` as it arrives (observations, then the things
the robot looked for and did not see).

The scene graph serialises writes with its own lock, so batches may be applied from any
executor thread; a reader running meanwhile may see part of a batch (as with the simulator's
executor). A batch the belief rejects (unknown predicate, bad id) is logged and skipped whole.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Mapping
from typing import Any

from rclpy.node import Node
from rclpy.subscription import Subscription
from rclpy.wait_for_message import wait_for_message
from std_msgs.msg import String

from knowledge.closing import Closeable
from knowledge.scene_graph import SceneGraph
from skills.ros.json_topics import subscribe_json
from skills.ros.protocol import (
    OBSERVATIONS_TOPIC,
    START_HINT,
    STATE_TOPIC,
    ObservationBatch,
    ProtocolError,
    RobotState,
    check_namespace,
    decode,
    latched_qos,
    reliable_qos,
    topic,
)

log = logging.getLogger(__name__)


class RobotStateError(RuntimeError):
    """A robot's state could not be had: no robot side, or a malformed message (says which)."""


def fetch_robot_state(node: Node, namespace: str, *, timeout_s: float = 10.0) -> RobotState:
    """Wait up to ``timeout_s`` for the latched state under ``namespace`` (``/robot1``).

    Call it before ``node`` is spun (it takes the message itself). Raises
    :class:`RobotStateError` saying what to start when nothing arrives.
    """
    state_topic = topic(namespace, STATE_TOPIC)
    received, message = wait_for_message(
        String, node, state_topic, qos_profile=latched_qos(), time_to_wait=timeout_s
    )
    if not received or message is None:
        raise RobotStateError(
            f"no robot state on {state_topic} within {timeout_s:g} s: the robot side is not "
            f"running; {START_HINT}"
        )
    try:
        return decode(RobotState, message.data, topic=state_topic)
    except ProtocolError as error:
        raise RobotStateError(str(error)) from error


def belief_from_state(state: RobotState) -> SceneGraph:
    """A belief holding the ontology and ``state``'s Turtle (TurtleError names the line)."""
    return SceneGraph.from_turtle_text(state.belief_turtle, source=f"<state of {state.robot}>")


class BeliefListener(Closeable):
    """Applies every robot's observation batches to ``scene`` (see the module docs).

    Args:
        node: the rclpy node to subscribe on; spun by its owner.
        scene: the belief to update.
        robots: robot name -> namespace (``{"robot1": "/robot1"}``).

    """

    def __init__(self, node: Node, scene: SceneGraph, robots: Mapping[str, str]) -> None:
        self.node = node
        self.scene = scene
        self._lock = threading.Lock()
        self._applied = 0
        self._subscriptions: list[Subscription[Any]] = [
            subscribe_json(
                node,
                ObservationBatch,
                topic(check_namespace(namespace), OBSERVATIONS_TOPIC),
                self._apply,
                reliable_qos(),
            )
            for namespace in robots.values()
        ]

    @property
    def batches_applied(self) -> int:
        """How many batches the belief took in so far."""
        with self._lock:
            return self._applied

    def _apply(self, batch: ObservationBatch) -> None:
        try:
            for thing in batch.forgotten:
                SceneGraph.iri(thing)  # a bad id rejects the batch before anything changes
            self.scene.observe(batch.observations)
            for thing in batch.forgotten:
                self.scene.forget_placement(thing)
        except ValueError as error:
            log.warning("observations of %s not applied: %s", batch.robot, error)
            return
        with self._lock:
            self._applied += 1
        log.debug(
            "applied %d observations and %d absences from %s",
            len(batch.observations),
            len(batch.forgotten),
            batch.robot,
        )

    def close(self) -> None:
        """Unsubscribe (the belief stays as it is)."""
        for subscription in self._subscriptions:
            self.node.destroy_subscription(subscription)
        self._subscriptions.clear()
