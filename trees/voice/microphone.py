"""Listening to the microphone for one utterance, through PortAudio (``sounddevice``).

:class:`Microphone` records blocks until the speaker has spoken and then been quiet for
:data:`QUIET_AFTER_S`, or :data:`LONGEST_S` have passed. A machine without PortAudio or
without an input device raises :class:`~trees.voice.errors.VoiceUnavailable` saying which,
and what to do instead.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from cogtree.trees.voice.audio import FULL_SCALE, SPEECH_RATE, Audio
from cogtree.trees.voice.errors import VoiceUnavailable
from cogtree.trees.voice.speaking import sound_device

BLOCK_S = 0.1
SPEAKING_LEVEL = 0.02
"""A block whose RMS level is over this fraction of full scale has speech in it."""
QUIET_AFTER_S = 0.8
"""This much quiet after speech ends the utterance."""
LONGEST_S = 10.0
"""An utterance is cut here."""
WAIT_S = 8.0
"""Listening stops when no speech has begun after this long."""


class Microphone:
    """The default input device, or the one ``device`` names (PortAudio's index or name).

    ``backend`` is the ``sounddevice`` module (tests pass a stand-in for a device).
    """

    def __init__(self, device: int | str | None = None, *, backend: Any = None) -> None:
        self._backend = backend if backend is not None else sound_device()
        self.device = device
        inputs = [d for d in self._backend.query_devices() if d["max_input_channels"] > 0]
        if not inputs:
            raise VoiceUnavailable(
                "no microphone: PortAudio finds no input device; plug one in (or check "
                "`arecord -l`), or use --audio-in FILE.wav"
            )

    def listen(self) -> Audio:
        """One utterance: from the first speech to the quiet after it (empty when none)."""
        block = int(BLOCK_S * SPEECH_RATE)
        kept: list[np.ndarray[Any, np.dtype[np.int16]]] = []
        elapsed = quiet = 0.0
        with self._backend.InputStream(
            samplerate=SPEECH_RATE, channels=1, dtype="int16", device=self.device
        ) as stream:
            while elapsed < LONGEST_S:
                samples = np.asarray(stream.read(block)[0], np.int16).reshape(-1)
                elapsed += BLOCK_S
                level = float(np.sqrt(np.mean(samples.astype(np.float64) ** 2))) / FULL_SCALE
                loud = level >= SPEAKING_LEVEL
                if not kept and not loud:
                    if elapsed >= WAIT_S:
                        break
                    continue
                kept.append(samples)
                quiet = 0.0 if loud else quiet + BLOCK_S
                if quiet >= QUIET_AFTER_S:
                    break
        samples = np.concatenate(kept) if kept else np.zeros(0, np.int16)
        return Audio(samples, SPEECH_RATE)
