"""The test's own participant talking to a host node: says utterances, hears speech."""

from __future__ import annotations

import uuid
from collections.abc import Callable
from typing import Any

from std_msgs.msg import String

from cogtree.skills.ros.protocol import latched_qos, reliable_qos

REPLY_TIMEOUT_S = 60.0


class User:
    """Says things on ``NS/utterance``, records ``NS/speech`` and ``NS/tree/snapshot``.

    ``utterance`` names another topic to speak on (the host remapped its own). The node is
    spun only once its topics exist: a subscription added to a node that is already spinning,
    with nothing else to wake its executor, may not be served. ``mouth`` and ``ears`` are the
    utterance publisher and the speech subscription.
    """

    def __init__(
        self,
        ros: Any,
        until: Callable[..., Any],
        namespace: str = "",
        *,
        utterance: str | None = None,
    ) -> None:
        self.until = until
        self.heard: list[str] = []
        self.snapshots: list[str] = []
        node = ros.node(f"user_{uuid.uuid4().hex[:8]}", spin=False)
        self.ears = node.create_subscription(
            String, f"{namespace}/speech", lambda m: self.heard.append(m.data), reliable_qos()
        )
        node.create_subscription(
            String,
            f"{namespace}/tree/snapshot",
            lambda m: self.snapshots.append(m.data),
            latched_qos(),
        )
        self.mouth = node.create_publisher(
            String, utterance or f"{namespace}/utterance", reliable_qos()
        )
        ros.spin(node)

    def speak(self, text: str) -> None:
        """Say ``text`` once the host listens and its speech reaches us; no waiting for a reply.

        Both topics are volatile: a message sent before the other end has matched is lost.
        """
        self.until(
            lambda: self.mouth.get_subscription_count() > 0 and self.ears.get_publisher_count() > 0,
            what="the host to listen and its speech to reach us",
        )
        self.mouth.publish(String(data=text))

    def say(self, text: str, *, timeout_s: float = REPLY_TIMEOUT_S) -> str:
        """Say ``text``; the robot's next words."""
        before = len(self.heard)
        self.speak(text)
        self.until(
            lambda: len(self.heard) > before, timeout_s=timeout_s, what=f"a reply to {text!r}"
        )
        return self.heard[before]
