"""Whether what was heard may reach the tree as a request, and its record in the tick log.

A pure decider, :func:`judge`: a clip that cannot hold a request (empty, silent, clipped:
:func:`~trees.voice.audio.speech_problem`), nothing recognised, or a transcript whose
confidence (when the engine gives one) is below the threshold never reaches the tree; the
robot says why and asks the user to say it again. :func:`record_heard` writes what was
heard to the blackboard key :data:`HEARD_KEY` through a client named ``voice input``, so the
next tick's entry of the tick log carries the transcript, its confidence and the clip's duration.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass

import py_trees

from cogtree.trees.voice.audio import Audio, speech_problem
from cogtree.trees.voice.recognizer import Recognizer, Transcript

MIN_CONFIDENCE = 0.4
"""Below this confidence (posterior per word) a transcript is not acted on. On sentences of
our own and synthetic noise it kept 29 of 30 transcripts that were right and no noise, and
dropped 10 of 17 that were more than 30% wrong (docs/voice.md)."""
HEARD_KEY = "/voice/heard"
"""Blackboard key: the transcript, its confidence and the clip's duration of the last request
heard, with the confirmation's outcome (a mapping written by the voice input before the
turn, read by no node: for the log)."""
SAY_AGAIN = "Sorry, I did not catch that: {why}. Could you say it again?"


@dataclass(frozen=True)
class Hearing:
    """What became of one clip: a request for the tree, or a reply asking to repeat."""

    request: str | None
    """The transcript to run as the turn's utterance; None when nothing may be acted on."""
    reply: str | None
    """What the robot says instead of acting (None when ``request`` is set)."""
    transcript: Transcript | None
    """What the recogniser heard (None when the clip was refused before recognition)."""


def judge(audio: Audio, recognizer: Recognizer, *, min_confidence: float) -> Hearing:
    """Check ``audio``, recognise it, and keep the transcript unless its confidence is low."""
    problem = speech_problem(audio)
    if problem is not None:
        return Hearing(None, SAY_AGAIN.format(why=problem), None)
    transcript = recognizer.transcribe(audio)
    if not transcript.text:
        return Hearing(None, SAY_AGAIN.format(why="I heard no words"), transcript)
    if transcript.confidence is not None and transcript.confidence < min_confidence:
        why = f"I am not sure I heard {transcript.text!r}"
        return Hearing(None, SAY_AGAIN.format(why=why), transcript)
    return Hearing(transcript.text, None, transcript)


def record_heard(
    transcript: Transcript, *, confirmation: str, answer: Transcript | None = None
) -> None:
    """Write ``transcript`` at :data:`HEARD_KEY` as the voice input (for the tick log).

    ``confirmation`` says what the echo-and-confirm step made of it ("confirmed", "not
    needed": :mod:`~trees.voice.confirmation`), ``answer`` the yes heard when one was.
    """
    client = py_trees.blackboard.Client(name="voice input")
    client.register_key(HEARD_KEY, access=py_trees.common.Access.WRITE)
    record: dict[str, object] = {**asdict(transcript), "confirmation": confirmation}
    record["decode_seconds"] = round(transcript.decode_seconds, 3)
    if answer is not None:
        record["answer"] = {"text": answer.text, "confidence": answer.confidence}
    client.set(HEARD_KEY, record)
    client.unregister(clear=False)
