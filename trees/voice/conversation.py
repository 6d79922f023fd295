"""A conversation by voice: a clip in, one turn of the assistant session, the reply spoken.

:class:`VoiceConversation` wraps an :class:`~trees.assistant_session.AssistantSession`. Each
clip first stops what the robot is saying (a new request interrupts), then is judged
(:func:`~trees.voice.hearing.judge`): a clip that holds no request, or a transcript below the
confidence threshold, never reaches the tree and the robot asks to hear it again. A request
heard is recorded for the tick log (:func:`~trees.voice.hearing.record_heard`) and run as the
turn's utterance; the reply, or the request to repeat, is spoken.
"""

from __future__ import annotations

from dataclasses import dataclass

from cogtree.trees.assistant_session import AssistantSession, TurnResult
from cogtree.trees.voice.audio import Audio
from cogtree.trees.voice.hearing import MIN_CONFIDENCE, Hearing, judge, record_heard
from cogtree.trees.voice.pocketsphinx_engine import PocketsphinxRecognizer
from cogtree.trees.voice.recognizer import Recognizer
from cogtree.trees.voice.speaking import Speaker
from cogtree.trees.voice.vocabulary import robot_sentences


@dataclass(frozen=True)
class VoiceTurn:
    """One clip's turn: what was heard, and the tree's turn when it reached the tree."""

    hearing: Hearing
    result: TurnResult | None

    @property
    def reply(self) -> str:
        """What the robot says: the turn's reply, or the request to say it again."""
        return self.result.reply if self.result is not None else self.hearing.reply or ""


class VoiceConversation:
    """Turns of ``session`` from audio; replies spoken by ``speaker`` when given."""

    def __init__(
        self,
        session: AssistantSession,
        recognizer: Recognizer,
        *,
        speaker: Speaker | None = None,
        min_confidence: float = MIN_CONFIDENCE,
    ) -> None:
        self.session = session
        self.recognizer = recognizer
        self.speaker = speaker
        self.min_confidence = min_confidence

    @classmethod
    def robot_recognizer(cls, session: AssistantSession) -> PocketsphinxRecognizer:
        """PocketSphinx constrained to the session's packs and the belief's names."""
        graph = session.runner.handles.get("scene_graph")
        return PocketsphinxRecognizer.for_sentences(
            robot_sentences(session.domains, getattr(graph, "graph", None))
        )

    def hear(self, audio: Audio) -> VoiceTurn:
        """Stop speaking, judge ``audio``, run its request if one was heard, speak the reply."""
        if self.speaker is not None:
            self.speaker.interrupt()
        hearing = judge(audio, self.recognizer, min_confidence=self.min_confidence)
        result = None
        if hearing.request is not None and hearing.transcript is not None:
            record_heard(hearing.transcript)
            result = self.session.turn(hearing.request)
        turn = VoiceTurn(hearing, result)
        if self.speaker is not None and turn.reply:
            self.speaker.say(turn.reply)
        return turn
