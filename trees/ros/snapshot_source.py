"""``RosSnapshotSource``: a :class:`~trees.viewer.feed.TickFeed` fed by a running robot.

It joins ROS 2 on a private ``Context`` (its own DDS participant), subscribes to the host's
snapshot topic (``cogtree ros`` publishes it: :mod:`trees.recording.snapshot_stream`
messages, latched, so the last one reaches a viewer that starts later) and hands every message to
:meth:`TickFeed.push_json <trees.viewer.feed.TickFeed.push_json>`. Its node spins on a
background thread the source owns; :meth:`RosSnapshotSource.close` stops the thread, destroys
the node and shuts the context down (if starting fails half way, what was made is undone).

A message that is not JSON, or that the feed refuses (a FeedError: a tick before any header,
a tick out of order, a header without a structure), is logged as a warning naming the topic
and dropped; the source keeps listening. This module needs the ``ros`` extra (rclpy,
std_msgs): ``cogtree view`` imports it only with ``--ros``.
"""

from __future__ import annotations

import contextlib
import json
import logging
import threading
from collections.abc import Sequence
from typing import Any

import rclpy
from rclpy.executors import ExternalShutdownException, SingleThreadedExecutor
from std_msgs.msg import String

from cogtree.knowledge.closing import Closeable
from cogtree.skills.ros.protocol import latched_qos
from cogtree.trees.ros.cli_support import RosStartError, init_context, rcl_message, spin_until
from cogtree.trees.viewer.errors import ViewerError
from cogtree.trees.viewer.feed import TickFeed

log = logging.getLogger(__name__)

NODE_NAME = "cogtree_viewer"
"""The viewer's node name (in the root namespace)."""

CLOSE_TIMEOUT_S = 5.0
"""How long :meth:`RosSnapshotSource.close` waits for the spinning thread."""


class RosSnapshotSource(Closeable):
    """Pushes the snapshots on ``topic`` into ``feed`` until closed.

    Args:
        feed: the feed the viewer serves.
        topic: the snapshot topic (absolute, or relative to the root namespace).
        domain_id: the ROS_DOMAIN_ID to join (None: ``$ROS_DOMAIN_ID``, else 0).
        ros_args: what followed ``--ros-args`` (remappings, log levels).

    Raises :class:`~trees.viewer.errors.ViewerError` when ROS cannot start with
    ``ros_args`` or ``topic`` is not a topic name.

    """

    def __init__(
        self,
        feed: TickFeed,
        topic: str,
        *,
        domain_id: int | None = None,
        ros_args: Sequence[str] = (),
    ) -> None:
        self.feed = feed
        self.received = 0
        """Messages the feed took."""
        self.dropped = 0
        """Messages that were not JSON or that the feed refused."""
        self._arrived = threading.Event()
        self._stop = threading.Event()
        self._closed = False
        try:
            self._context = init_context(domain_id=domain_id, ros_args=ros_args)
        except RosStartError as error:
            raise ViewerError(f"{error}; check the arguments after --ros-args") from error
        with contextlib.ExitStack() as undo:  # what is made so far goes if a step fails
            undo.callback(rclpy.shutdown, context=self._context)
            self._node = rclpy.create_node(NODE_NAME, context=self._context)
            undo.callback(self._node.destroy_node)
            self.topic = self._resolve(topic)
            self._node.create_subscription(String, self.topic, self._receive, latched_qos())
            self._executor = SingleThreadedExecutor(context=self._context)
            undo.callback(self._executor.shutdown)
            self._executor.add_node(self._node)
            self._thread = threading.Thread(
                target=self._spin, name="cogtree-viewer-ros", daemon=True
            )
            self._thread.start()
            undo.pop_all()

    @property
    def domain_id(self) -> int:
        """The ROS_DOMAIN_ID the source listens on."""
        return int(self._context.get_domain_id())

    def wait_for_snapshot(self, timeout_s: float) -> bool:
        """True once the feed has taken a message; waits up to ``timeout_s`` for the first."""
        return self._arrived.wait(timeout_s)

    def close(self) -> None:
        """Stop spinning, destroy the node and shut the context down (idempotent).

        The node is destroyed even when the context was shut down by someone else.
        """
        if self._closed:
            return
        self._closed = True
        self._stop.set()
        self._thread.join(timeout=CLOSE_TIMEOUT_S)
        if self._thread.is_alive():
            log.warning("the viewer's ROS thread did not stop within %g s", CLOSE_TIMEOUT_S)
        self._executor.shutdown(timeout_sec=CLOSE_TIMEOUT_S)
        self._node.destroy_node()
        if self._context.ok():
            rclpy.shutdown(context=self._context)

    def _resolve(self, topic: str) -> str:
        """``topic`` as a full name; ViewerError when it is not a topic name."""
        try:
            return str(self._node.resolve_topic_name(topic))
        except RuntimeError as error:  # rcl's RCLError names what is wrong with the name
            raise ViewerError(
                f"--ros {topic!r} is not a ROS topic name ({rcl_message(error)}); give one "
                "such as /cogtree/tree/snapshot, or leave --ros out to replay a tick log"
            ) from error

    def _spin(self) -> None:
        with contextlib.suppress(ExternalShutdownException):  # the context shut down: closing
            spin_until(self._executor, self._stop, self._context)

    def _receive(self, message: Any) -> None:
        try:
            self.feed.push_json(json.loads(message.data))
        except json.JSONDecodeError as error:
            self._drop(f"not JSON ({error})")
        except (ValueError, RecursionError) as error:  # FeedError, or JSON nested too deep
            self._drop(str(error))
        else:
            self.received += 1
            self._arrived.set()

    def _drop(self, reason: str) -> None:
        self.dropped += 1
        log.warning("dropped a snapshot on %s: %s", self.topic, reason)
