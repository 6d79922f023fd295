"""Speaking a reply sentence by sentence, where a new reply interrupts the one being spoken.

:class:`Speaker` synthesises and plays one sentence at a time on its own thread, so the tree
keeps ticking while the robot talks, and a long reply starts at once. :meth:`Speaker.say`
first stops what is being said: the sentence playing stops at its next block, and the
sentences not yet begun are never spoken. Outputs: :class:`WavFolder` (a WAV per sentence,
for tests and robots whose audio goes elsewhere) and :class:`SoundDeviceOutput` (the
speaker, through PortAudio).
"""

from __future__ import annotations

import re
import threading
import time
from pathlib import Path
from typing import Any, Protocol

from cogtree.trees.voice.audio import Audio, write_wav
from cogtree.trees.voice.errors import VoiceUnavailable
from cogtree.trees.voice.synthesizer import Synthesizer

SENTENCE_END = re.compile(r"(?<=[.!?;])\s+")
BLOCK_S = 0.1
"""Playback is checked for an interruption this often."""


def sentences(text: str) -> list[str]:
    """``text`` cut after each sentence's end (., !, ? or ;); blank pieces left out."""
    return [piece.strip() for piece in SENTENCE_END.split(text) if piece.strip()]


class AudioOutput(Protocol):
    """Where spoken sentences go."""

    def play(self, audio: Audio, stop: threading.Event) -> bool:
        """Play ``audio``; return early when ``stop`` is set. True when it played to the end."""
        ...


class WavFolder:
    """An :class:`AudioOutput` writing each sentence to ``folder`` as ``NNNN.wav``, in order.

    With ``paced`` it also takes as long as the sentence lasts, as a speaker would (an
    interruption then lands mid-reply, as on the robot).
    """

    def __init__(self, folder: str | Path, *, paced: bool = False) -> None:
        self.folder = Path(folder)
        self.folder.mkdir(parents=True, exist_ok=True)
        self.paced = paced
        self.written: list[Path] = []

    def play(self, audio: Audio, stop: threading.Event) -> bool:
        """Write the sentence's file; when paced, wait its duration unless ``stop`` is set."""
        self.written.append(write_wav(audio, self.folder / f"{len(self.written) + 1:04d}.wav"))
        return not (self.paced and stop.wait(audio.seconds))


class SoundDeviceOutput:
    """An :class:`AudioOutput` playing on the default output device through PortAudio."""

    def __init__(self) -> None:
        self._device: Any = sound_device()
        if not any(info["max_output_channels"] > 0 for info in self._device.query_devices()):
            raise VoiceUnavailable("no audio output device: plug in a speaker or use --audio-out")

    def play(self, audio: Audio, stop: threading.Event) -> bool:
        """Play ``audio`` and wait for it, stopping the device when ``stop`` is set."""
        self._device.play(audio.samples, audio.rate)
        ends = time.monotonic() + audio.seconds
        while time.monotonic() < ends:
            if stop.wait(BLOCK_S):
                self._device.stop()
                return False
        self._device.wait()
        return True


def sound_device() -> Any:
    """The ``sounddevice`` module, or :class:`VoiceUnavailable` naming what is missing."""
    try:
        import sounddevice
    except ImportError as error:
        raise VoiceUnavailable(
            "the microphone and speaker need sounddevice: pip install 'cogtree[voice]'"
        ) from error
    except OSError as error:  # sounddevice imports, but finds no PortAudio library
        raise VoiceUnavailable(
            f"the microphone and speaker need PortAudio ({error}): apt-get install -y "
            "libportaudio2 (or, with chat, use --audio-in FILE.wav and --audio-out DIR)"
        ) from error
    return sounddevice


class Speaker:
    """Speaks replies on a thread, sentence by sentence; a new reply interrupts (module docs)."""

    def __init__(self, synthesizer: Synthesizer, output: AudioOutput) -> None:
        self.synthesizer = synthesizer
        self.output = output
        self.spoken: list[str] = []
        """Every sentence played to its end, in order."""
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def say(self, text: str) -> None:
        """Stop what is being said and start saying ``text``; returns at once."""
        self.interrupt()
        self._stop = threading.Event()
        self._thread = threading.Thread(
            target=self._speak, args=(sentences(text), self._stop), name="cogtree-speaker"
        )
        self._thread.start()

    @property
    def speaking(self) -> bool:
        """Whether a reply is being said."""
        return self._thread is not None and self._thread.is_alive()

    def interrupt(self) -> None:
        """Stop speaking now (the sentence playing stops, the rest are not spoken)."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join()

    def wait(self) -> None:
        """Wait until the reply being said is said (or interrupted)."""
        if self._thread is not None:
            self._thread.join()

    def _speak(self, pieces: list[str], stop: threading.Event) -> None:
        for piece in pieces:
            if stop.is_set():
                return
            audio = self.synthesizer.synthesize(piece)
            if stop.is_set() or not self.output.play(audio, stop):
                return
            self.spoken.append(piece)
