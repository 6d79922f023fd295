"""The ROS 2 node side of speech out: what the robot says on ``speech`` is spoken.

:class:`SpeechOut` subscribes, on a node the caller made (``/cogtree`` beside the host), to
``speech`` and speaks each message with a :class:`~trees.voice.speaking.Speaker`, sentence by
sentence; a new message interrupts the one being spoken, and so does a new request on
``utterance`` (the user spoke: the robot stops talking).
"""

from __future__ import annotations

from typing import Any

from rclpy.node import Node
from std_msgs.msg import String

from cogtree.skills.ros.protocol import reliable_qos
from cogtree.trees.ros.host import SPEECH_TOPIC, UTTERANCE_TOPIC
from cogtree.trees.voice.speaking import Speaker


class SpeechOut:
    """Speaks ``node``'s ``speech`` topic with ``speaker``; ``utterance`` interrupts it."""

    def __init__(self, node: Node, speaker: Speaker) -> None:
        self.node = node
        self.speaker = speaker
        self._subscriptions: list[Any] = [
            node.create_subscription(String, SPEECH_TOPIC, self._on_speech, reliable_qos()),
            node.create_subscription(String, UTTERANCE_TOPIC, self._on_request, reliable_qos()),
        ]

    def _on_speech(self, message: String) -> None:
        if message.data.strip():
            self.speaker.say(message.data)

    def _on_request(self, _: String) -> None:
        self.speaker.interrupt()

    def close(self) -> None:
        """Stop speaking and destroy the subscriptions."""
        self.speaker.interrupt()
        for subscription in self._subscriptions:
            self.node.destroy_subscription(subscription)
