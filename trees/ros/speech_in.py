"""The ROS 2 node side of speech in: what is heard goes out on ``utterance`` as text.

:class:`SpeechIn` runs on a node the caller made (``/cogtree`` beside the host, so its
``utterance`` is the host's ``/cogtree/utterance``). Each clip is judged like ``chat``'s
(:func:`~trees.voice.hearing.judge`): a request heard with enough confidence is published on
``utterance`` (plain text, reliable); a clip that holds none, or a transcript below the
threshold, is never published there, and the request to say it again goes out on ``speech``
for the speaking node to say. A request that would move the robot is first echoed on
``speech`` and published only after a yes (:mod:`~trees.voice.confirmation`; the node holds
the pending request), and so is a spoken yes to the tree's safety question (read from the
blackboard of the host beside it: :func:`~trees.assistant_session.pending_question`).
:meth:`SpeechIn.listen` hears a source (the microphone's ``listen``) on a thread of its own
until :meth:`SpeechIn.close`.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from typing import Any

from rclpy.node import Node
from std_msgs.msg import String

from cogtree.skills.ros.protocol import reliable_qos
from cogtree.trees.assistant_session import pending_question
from cogtree.trees.ros.host import SPEECH_TOPIC, UTTERANCE_TOPIC
from cogtree.trees.voice.audio import Audio
from cogtree.trees.voice.confirmation import Pending, Settled, settle
from cogtree.trees.voice.hearing import MIN_CONFIDENCE, judge
from cogtree.trees.voice.recognizer import Recognizer

log = logging.getLogger(__name__)


class SpeechIn:
    """Publishes what ``recognizer`` hears on ``node``'s ``utterance`` (module docs)."""

    def __init__(
        self, node: Node, recognizer: Recognizer, *, min_confidence: float = MIN_CONFIDENCE
    ) -> None:
        self.node = node
        self.recognizer = recognizer
        self.min_confidence = min_confidence
        self.pending: Pending | None = None
        """The spoken request echoed and waiting for a yes (:mod:`~trees.voice.confirmation`)."""
        self._utterance: Any = node.create_publisher(String, UTTERANCE_TOPIC, reliable_qos())
        self._speech: Any = node.create_publisher(String, SPEECH_TOPIC, reliable_qos())
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def hear(self, audio: Audio) -> Settled:
        """Judge ``audio`` and settle it against the pending request (module docs)."""
        hearing = judge(audio, self.recognizer, min_confidence=self.min_confidence)
        settled = settle(self.pending, hearing, pending_question())
        self.pending = settled.pending
        heard = hearing.transcript
        if heard is not None:
            log.info(
                "heard %r (confidence %s, %.2f s): %s",
                heard.text,
                heard.shown_confidence,
                heard.audio_seconds,
                settled.outcome,
            )
        if settled.run is not None:
            self._utterance.publish(String(data=settled.run))
        elif settled.reply:
            self._speech.publish(String(data=settled.reply))
        return settled

    def listen(self, source: Callable[[], Audio]) -> None:
        """Hear clip after clip from ``source`` on a thread (an empty clip is skipped)."""

        def loop() -> None:
            while not self._stop.is_set():
                clip = source()
                if clip.seconds and not self._stop.is_set():
                    self.hear(clip)

        self._thread = threading.Thread(target=loop, name="cogtree-speech-in", daemon=True)
        self._thread.start()

    def close(self) -> None:
        """Stop listening (after the clip being heard) and destroy the publishers."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join()
        self.node.destroy_publisher(self._utterance)
        self.node.destroy_publisher(self._speech)
