"""What speech recognition gives, the interface an engine implements to give it, the engines."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal, Protocol, get_args

if TYPE_CHECKING:  # the command line reads the engine names; audio brings SciPy's signal
    from cogtree.trees.voice.audio import Audio

Engine = Literal["whisper", "moonshine", "pocketsphinx"]
"""The speech recognisers a conversation can hear with (``chat --asr``)."""
ENGINES: tuple[Engine, ...] = get_args(Engine)
DEFAULT_ENGINE: Engine = "whisper"
"""The recogniser of ``chat --audio-in`` and ``--voice``: Whisper tiny.en prompted with the
robot's words gives a confidence, and on the benchmark's development half it decided as the
typed request more often than Moonshine at a lower real-time factor (docs/voice.md)."""


@dataclass(frozen=True)
class Transcript:
    """What an engine heard in a clip."""

    text: str
    """The words recognised, lower case, separated by single spaces ("" when none)."""
    confidence: float | None
    """The engine's probability, in [0, 1], that ``text`` is what was said; None when the
    engine gives none (Moonshine): no threshold can refuse it, the echo is the check."""
    audio_seconds: float
    """The clip's duration."""
    decode_seconds: float
    """The time recognition took (real-time factor: this over ``audio_seconds``)."""

    @property
    def shown_confidence(self) -> str:
        """The confidence to three places for a log line, or "none"."""
        return "none" if self.confidence is None else f"{self.confidence:.3f}"


class Recognizer(Protocol):
    """A speech recogniser: audio in, a transcript out. Engines implement this."""

    def transcribe(self, audio: Audio) -> Transcript:
        """What was said in ``audio`` (any rate: the engine resamples), with any confidence."""
        ...


_SAYS_SOMETHING = re.compile(r"[^\W_]")


def transcript_text(text: str) -> str:
    """An engine's ``text`` on one line; empty when it has no letter or digit (".", "...")."""
    return " ".join(text.split()) if _SAYS_SOMETHING.search(text) else ""
