"""A conversation by voice: a clip in, one turn of the assistant session, the reply spoken.

:class:`VoiceConversation` wraps an :class:`~trees.assistant_session.AssistantSession`. Each
clip first stops what the robot is saying (a new request interrupts), then is judged
(:func:`~trees.voice.hearing.judge`): a clip that holds no request, or a transcript below the
confidence threshold, never reaches the tree and the robot asks to hear it again. A request
that would move the robot is echoed and waits for a yes (:mod:`~trees.voice.confirmation`:
the conversation holds the pending request), and so does a spoken yes to the tree's safety
question (:func:`~trees.assistant_session.pending_question`). A
request run is recorded for the tick log (:func:`~trees.voice.hearing.record_heard`, with the
confirmation's outcome) and run as the turn's utterance; the reply, the echo or the request
to repeat is spoken.
"""

from __future__ import annotations

from dataclasses import dataclass

from cogtree.trees.assistant_session import AssistantSession, TurnResult, pending_question
from cogtree.trees.voice.audio import Audio
from cogtree.trees.voice.confirmation import Pending, Settled, settle
from cogtree.trees.voice.hearing import (
    MIN_CONFIDENCE,
    SAY_AGAIN,
    Hearing,
    judge,
    record_heard,
)
from cogtree.trees.voice.moonshine_engine import MoonshineRecognizer
from cogtree.trees.voice.pocketsphinx_engine import PocketsphinxRecognizer
from cogtree.trees.voice.recognizer import Engine, Recognizer, Transcript
from cogtree.trees.voice.speaking import Speaker
from cogtree.trees.voice.vocabulary import known_words, prompt_of, robot_sentences
from cogtree.trees.voice.whisper_engine import WhisperRecognizer


@dataclass(frozen=True)
class VoiceTurn:
    """One clip's turn: what was heard, what confirmation made of it, the tree's turn if run."""

    hearing: Hearing
    settled: Settled
    result: TurnResult | None

    @property
    def reply(self) -> str:
        """What the robot says: the turn's reply, the echo, or the request to say it again."""
        return self.result.reply if self.result is not None else self.settled.reply or ""


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
        self.pending: Pending | None = None
        """The spoken request echoed and waiting for a yes."""

    @classmethod
    def robot_recognizer(cls, session: AssistantSession, engine: Engine) -> Recognizer:
        """The ``engine``, held or leaning to the session's words.

        Whisper is prompted with the robot's verbs and the scene's names and its beam re-ranked
        by the robot's words (:func:`~trees.voice.vocabulary.known_words`), PocketSphinx held
        to the packs' and the scene's words; Moonshine hears as it is.
        """
        if engine == "moonshine":
            return MoonshineRecognizer()
        graph = getattr(session.runner.handles.get("scene_graph"), "graph", None)
        if engine == "whisper":
            return WhisperRecognizer(prompt_of(graph), known_words(session.domains, graph))
        return PocketsphinxRecognizer.for_sentences(robot_sentences(session.domains, graph))

    def hear(self, audio: Audio) -> VoiceTurn:
        """Stop speaking, judge ``audio``, settle it against the pending request, speak."""
        if self.speaker is not None:
            self.speaker.interrupt()
        return self._settle(judge(audio, self.recognizer, min_confidence=self.min_confidence))

    def typed(self, text: str) -> VoiceTurn:
        """Settle typed ``text`` like a clip heard with full confidence (a typed yes counts)."""
        if self.speaker is not None:
            self.speaker.interrupt()
        words = " ".join(text.split())
        if not words:
            return self._settle(Hearing(None, SAY_AGAIN.format(why="nothing was typed"), None))
        return self._settle(Hearing(words, None, Transcript(words, 1.0, 0.0, 0.0)))

    def _settle(self, hearing: Hearing) -> VoiceTurn:
        settled = settle(self.pending, hearing, pending_question())
        answer = hearing.transcript if settled.outcome == "confirmed" else None
        self.pending = settled.pending
        result = None
        if settled.run is not None and settled.request is not None:
            record_heard(settled.request, confirmation=settled.outcome, answer=answer)
            result = self.session.turn(settled.run)
        turn = VoiceTurn(hearing, settled, result)
        if self.speaker is not None and turn.reply:
            self.speaker.say(turn.reply)
        return turn
