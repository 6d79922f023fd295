"""JSON payloads over ``std_msgs/String``: typed publishers and subscriptions that never crash.

A subscription made by :func:`subscribe_json` decodes every message into its pydantic model
(:func:`skills.ros.protocol.decode`) and hands the model to the callback. A message that does
not decode is logged as a warning naming the topic and the problem, and dropped (or handed to
``on_malformed``); an exception in the callback is logged with its traceback and the node
keeps spinning. A :class:`JsonPublisher` may hold what it publishes until a reader is
matched (replies to a host that is still being discovered). This module needs the ``ros``
extra (rclpy, std_msgs).
"""

from __future__ import annotations

import logging
import threading
import time
from collections import deque
from collections.abc import Callable
from typing import Any, Generic

from rclpy.clock import Clock
from rclpy.clock_type import ClockType
from rclpy.node import Node
from rclpy.publisher import Publisher
from rclpy.qos import QoSProfile
from rclpy.subscription import Subscription
from rclpy.timer import Timer
from std_msgs.msg import String

from skills.ros.protocol import PayloadT, ProtocolError, decode, encode

log = logging.getLogger(__name__)

HOLD_CHECK_PERIOD_S = 0.05
"""How often a holding publisher looks for a subscriber."""


class JsonPublisher(Generic[PayloadT]):
    """Publishes ``model`` payloads as JSON on one topic.

    A volatile topic loses what is published before the publisher has matched the reader
    (discovery takes a moment, and each side matches the other on its own time). With
    ``hold_s``, payloads published while nobody is matched are kept, in order, and sent as
    soon as someone is (checked every :data:`HOLD_CHECK_PERIOD_S`); after ``hold_s`` seconds
    they are dropped with a warning naming the topic.
    """

    def __init__(
        self,
        node: Node,
        model: type[PayloadT],
        topic: str,
        qos: QoSProfile,
        *,
        hold_s: float | None = None,
    ) -> None:
        self.model = model
        self.topic = topic
        self.hold_s = hold_s
        self._node = node
        self._publisher: Publisher[Any] = node.create_publisher(String, topic, qos)
        self._lock = threading.Lock()
        self._held: deque[tuple[float, str]] = deque()
        self._timer: Timer | None = None
        if hold_s is not None:
            self._timer = node.create_timer(
                HOLD_CHECK_PERIOD_S, self._flush, clock=Clock(clock_type=ClockType.STEADY_TIME)
            )

    @property
    def subscribers(self) -> int:
        """How many subscriptions are matched now (0: nobody would receive a message)."""
        return self._publisher.get_subscription_count()

    def publish(self, payload: PayloadT) -> None:
        """Send ``payload`` (or keep it until someone listens, with ``hold_s``)."""
        data = encode(payload)
        if self.hold_s is None:
            self._publisher.publish(String(data=data))
            return
        with self._lock:
            self._held.append((time.monotonic(), data))
        self._flush()

    def destroy(self) -> None:
        """Remove the publisher (and its timer) from the node; held payloads are dropped."""
        if self._timer is not None:
            self._node.destroy_timer(self._timer)
        self._node.destroy_publisher(self._publisher)

    def _flush(self) -> None:
        with self._lock:
            if not self._held:
                return
            if self.subscribers > 0:
                for _, data in self._held:
                    self._publisher.publish(String(data=data))
                self._held.clear()
                return
            expired = 0
            while self._held and time.monotonic() - self._held[0][0] > (self.hold_s or 0.0):
                self._held.popleft()
                expired += 1
        if expired:
            log.warning(
                "nobody subscribed to %s for %g s: %d message(s) dropped",
                self.topic,
                self.hold_s,
                expired,
            )


def subscribe_json(
    node: Node,
    model: type[PayloadT],
    topic: str,
    on_message: Callable[[PayloadT], None],
    qos: QoSProfile,
    *,
    on_malformed: Callable[[str, ProtocolError], None] | None = None,
) -> Subscription[Any]:
    """Subscribe ``on_message`` to ``model`` payloads on ``topic`` (see the module docs)."""

    def receive(message: Any) -> None:
        data = message.data if isinstance(getattr(message, "data", None), str) else ""
        try:
            payload = decode(model, data, topic=topic)
        except ProtocolError as error:
            if on_malformed is None:
                log.warning("%s; dropped", error)
            else:
                _guarded(on_malformed, topic, data, error)
            return
        _guarded(on_message, topic, payload)

    return node.create_subscription(String, topic, receive, qos)


def _guarded(callback: Callable[..., None], topic: str, *args: Any) -> None:
    """Run a message callback; an exception is logged, never raised into the executor."""
    try:
        callback(*args)
    except Exception:
        log.exception("handling a message on %s failed; the message was dropped", topic)
