"""Speech synthesis: the interface an engine implements, and two engines from Debian.

Flite (CMU's, ``apt-get install flite``: its US English statistical voices ``slt`` and
``rms``) is the robot's voice by default; espeak-ng (formant synthesis, many languages,
``apt-get install espeak-ng``) is the other. Each runs as a process per sentence, the text
read from standard input or a file (never an argument, so no text is read as an option).
"""

from __future__ import annotations

import io
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from cogtree.trees.voice.audio import Audio, read_wav_bytes
from cogtree.trees.voice.errors import VoiceUnavailable

DEFAULT_SPEED = 150
"""Words a minute: a little slower than conversation, for the people a robot assists."""
ESPEAK_VOICE = "en-us+f2"
"""espeak-ng's US English, female variant 2: the one PocketSphinx hears best (docs/voice.md)."""
FLITE_PACE = {"slt": 172, "rms": 147, "awb": 172, "kal16": 170, "kal": 170}
"""Flite's voices (Debian's package) and the pace each speaks at unstretched, in espeak-ng's
words a minute: the espeak-ng speed whose sentences last as long (four sentences of our own,
measured against ``en-us+f2``). Flite is stretched by pace / speed, so a speed means about the
same pace in both engines."""
FLITE_VOICE = "slt"
"""Flite's US English female voice (CMU ARCTIC's slt)."""
TTS_ENGINES = ("flite", "espeak-ng")
"""The synthesisers :func:`synthesizer_named` makes (``--tts``)."""
DEFAULT_TTS = "flite"
"""The robot's voice unless told: Flite's statistical voices are heard better than espeak-ng's
formants, by people and by the recognisers (docs/voice.md)."""


class Synthesizer(Protocol):
    """A speech synthesiser: text in, audio out. Engines implement this."""

    def synthesize(self, text: str) -> Audio:
        """``text`` spoken."""
        ...


def _installed(program: str, speed: int) -> None:
    """Raise :class:`VoiceUnavailable` for a missing ``program`` or a ``speed`` below 1.

    The message names the package to install and the other engine.
    """
    if shutil.which(program) is None:
        other = next(engine for engine in TTS_ENGINES if engine != program)
        raise VoiceUnavailable(
            f"speech output needs the {program} program: apt-get install -y {program} "
            f"(or speak with --tts {other})"
        )
    if speed <= 0:
        raise VoiceUnavailable(f"a speaking speed is words a minute above 0, not {speed}")


def _ran(command: list[str], stdin: str = "") -> bytes:
    """What ``command`` writes on standard output given ``stdin`` on standard input."""
    done = subprocess.run(command, input=stdin.encode(), capture_output=True, check=False)
    if done.returncode != 0:
        raise VoiceUnavailable(
            f"{command[0]} failed ({done.returncode}): {done.stderr.decode(errors='replace')}"
        )
    return done.stdout


@dataclass(frozen=True)
class EspeakSynthesizer:
    """A :class:`Synthesizer` running the ``espeak-ng`` program with a voice and a speed."""

    voice: str = ESPEAK_VOICE
    speed: int = DEFAULT_SPEED

    def __post_init__(self) -> None:
        _installed("espeak-ng", self.speed)

    def synthesize(self, text: str) -> Audio:
        """``text`` spoken by espeak-ng (at its own rate, 22,050 Hz)."""
        command = ["espeak-ng", "-v", self.voice, "-s", str(self.speed), "--stdout"]
        return read_wav_bytes(io.BytesIO(_ran(command, text)), rate=None)


@dataclass(frozen=True)
class FliteSynthesizer:
    """A :class:`Synthesizer` running the ``flite`` program with a voice and a speed.

    Raises :class:`VoiceUnavailable` without the program or for a voice it does not ship (Flite
    itself would speak an unknown voice's text in its default voice, saying nothing).
    """

    voice: str = FLITE_VOICE
    speed: int = DEFAULT_SPEED

    def __post_init__(self) -> None:
        _installed("flite", self.speed)
        if self.voice not in FLITE_PACE:
            raise VoiceUnavailable(
                f"flite has no voice {self.voice!r}; its voices: {', '.join(FLITE_PACE)}"
            )

    def synthesize(self, text: str) -> Audio:
        """``text`` spoken by Flite (at its own rate, 16,000 Hz).

        Flite reads the text from a file and writes a WAV's sizes after its samples, so both
        go through files in a folder of its own, not pipes.
        """
        stretch = FLITE_PACE[self.voice] / self.speed
        with tempfile.TemporaryDirectory(prefix="cogtree-flite-") as folder:
            text_file, said = Path(folder) / "text.txt", Path(folder) / "said.wav"
            text_file.write_text(text, encoding="utf-8")
            command = ["flite", "-voice", self.voice, "--setf", f"duration_stretch={stretch:.3f}"]
            _ran([*command, "-f", str(text_file), "-o", str(said)])
            with said.open("rb") as stream:
                return read_wav_bytes(stream, rate=None)


def synthesizer_named(
    engine: str, voice: str | None = None, speed: int = DEFAULT_SPEED
) -> Synthesizer:
    """The engine named ``engine`` (one of :data:`TTS_ENGINES`) in ``voice`` at ``speed``.

    ``voice`` None: the engine's default; ``speed`` in words a minute. Raises
    :class:`VoiceUnavailable` when it is not installed or not known.
    """
    if engine == "flite":
        return FliteSynthesizer(voice or FLITE_VOICE, speed)
    if engine == "espeak-ng":
        return EspeakSynthesizer(voice or ESPEAK_VOICE, speed)
    raise VoiceUnavailable(
        f"no speech synthesiser {engine!r}; choose one of {', '.join(TTS_ENGINES)}"
    )
