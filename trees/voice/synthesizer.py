"""Speech synthesis: the interface an engine implements, and espeak-ng (Debian's package).

espeak-ng runs as a process per sentence: the text goes in on standard input (never as an
argument, so no text is read as an option) and a WAV comes back on standard output.
"""

from __future__ import annotations

import io
import shutil
import subprocess
from dataclasses import dataclass
from typing import Protocol

from cogtree.trees.voice.audio import Audio, read_wav_bytes
from cogtree.trees.voice.errors import VoiceUnavailable

DEFAULT_VOICE = "en-us+f2"
"""espeak-ng's US English, female variant 2: the one PocketSphinx hears best (docs/voice.md)."""
DEFAULT_SPEED = 150
"""Words a minute: a little slower than espeak-ng's 175, for the people a robot assists."""


class Synthesizer(Protocol):
    """A speech synthesiser: text in, audio out. Engines implement this."""

    def synthesize(self, text: str) -> Audio:
        """``text`` spoken."""
        ...


@dataclass(frozen=True)
class EspeakSynthesizer:
    """A :class:`Synthesizer` running the ``espeak-ng`` program with a voice and a speed."""

    voice: str = DEFAULT_VOICE
    speed: int = DEFAULT_SPEED

    def __post_init__(self) -> None:
        if shutil.which("espeak-ng") is None:
            raise VoiceUnavailable(
                "speech output needs the espeak-ng program: apt-get install -y espeak-ng"
            )

    def synthesize(self, text: str) -> Audio:
        """``text`` spoken by espeak-ng (at its own rate, 22,050 Hz)."""
        command = ["espeak-ng", "-v", self.voice, "-s", str(self.speed), "--stdout"]
        done = subprocess.run(command, input=text.encode(), capture_output=True, check=False)
        if done.returncode != 0:
            raise VoiceUnavailable(
                f"espeak-ng failed ({done.returncode}): {done.stderr.decode(errors='replace')}"
            )
        return read_wav_bytes(io.BytesIO(done.stdout), rate=None)
