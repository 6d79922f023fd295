"""What speech recognition gives, and the interface an engine implements to give it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from cogtree.trees.voice.audio import Audio


@dataclass(frozen=True)
class Transcript:
    """What an engine heard in a clip."""

    text: str
    """The words recognised, lower case, separated by single spaces ("" when none)."""
    confidence: float
    """The engine's probability, in [0, 1], that ``text`` is what was said."""
    audio_seconds: float
    """The clip's duration."""
    decode_seconds: float
    """The time recognition took (real-time factor: this over ``audio_seconds``)."""


class Recognizer(Protocol):
    """A speech recogniser: audio in, a transcript out. Engines implement this."""

    def transcribe(self, audio: Audio) -> Transcript:
        """What was said in ``audio`` (any rate: the engine resamples), with its confidence."""
        ...
