"""Speech recognition with PocketSphinx (CMU), offline, from the ``pocketsphinx`` wheel.

The wheel ships a US English acoustic model, a general language model and a pronouncing
dictionary. :class:`PocketsphinxRecognizer` decodes with the general model, or with a
:class:`~trees.voice.language_model.BigramModel` of the robot's own words (much better on
what a robot is told: docs/voice.md). Cepstral mean normalisation runs over the whole clip
(``cmn=batch``): a request is short, and the live estimate misses its first words.

The confidence is PocketSphinx's posterior probability of the whole hypothesis per word (its
geometric mean over the words), so that a long request is not less sure for being long.
"""

from __future__ import annotations

import tempfile
import time
from collections.abc import Iterable, Mapping
from functools import cache
from pathlib import Path
from typing import Any

from cogtree.trees.voice.audio import SPEECH_RATE, Audio
from cogtree.trees.voice.errors import VoiceUnavailable
from cogtree.trees.voice.language_model import BigramModel, estimate
from cogtree.trees.voice.pronunciation import pronounce
from cogtree.trees.voice.recognizer import Transcript
from cogtree.trees.voice.vocabulary import corpus

INSTALL = "install the voice extra: pip install 'cogtree[voice]'"


def _pocketsphinx() -> Any:
    """The ``pocketsphinx`` module, or :class:`VoiceUnavailable` saying how to install it."""
    try:
        import pocketsphinx
    except ImportError as error:
        raise VoiceUnavailable(f"speech recognition needs pocketsphinx: {INSTALL}") from error
    return pocketsphinx


def dictionary_path() -> Path:
    """The pronouncing dictionary shipped in the wheel."""
    return Path(_pocketsphinx().get_model_path()) / "en-us" / "cmudict-en-us.dict"


@cache
def dictionary_words() -> frozenset[str]:
    """Every word the shipped pronouncing dictionary can say (alternates folded; read once)."""
    with dictionary_path().open(encoding="utf-8") as lines:
        return frozenset(line.split(" ", 1)[0].split("(", 1)[0] for line in lines if line.strip())


def entries_of(dictionary: str, words: Iterable[str]) -> str:
    """The lines of pronouncing ``dictionary`` text that say one of ``words`` (alternates too)."""
    wanted = set(words)
    return "".join(
        line
        for line in dictionary.splitlines(keepends=True)
        if line.split(" ", 1)[0].split("(", 1)[0] in wanted
    )


class PocketsphinxRecognizer:
    """A :class:`~trees.voice.recognizer.Recognizer` over one PocketSphinx decoder.

    ``language_model`` constrains recognition to the robot's words; None decodes with the
    wheel's general US English model. ``pronunciations`` (word -> ARPAbet phones) add words
    to the shipped dictionary. Decoding is serialised: one clip at a time.
    """

    def __init__(
        self,
        language_model: BigramModel | None = None,
        pronunciations: Mapping[str, str] | None = None,
    ) -> None:
        pocketsphinx = _pocketsphinx()
        options: dict[str, Any] = {"samprate": SPEECH_RATE, "cmn": "batch", "loglevel": "FATAL"}
        self.constrained = language_model is not None
        with tempfile.TemporaryDirectory(prefix="cogtree-voice-") as folder:
            shipped = dictionary_path().read_text(encoding="utf-8")
            if language_model is not None:
                arpa = Path(folder) / "robot.arpa"
                arpa.write_text(language_model.arpa(), encoding="utf-8")
                options["lm"] = str(arpa)
                # The decoder searches only the model's words: the shipped dictionary's entries
                # of the others (134,000) change nothing but took PocketSphinx 15-30 s to load.
                shipped = entries_of(shipped, language_model.words)
            if pronunciations or language_model is not None:
                added = "".join(
                    f"{word} {phones}\n" for word, phones in (pronunciations or {}).items()
                )
                words = Path(folder) / "robot.dict"
                words.write_text(shipped + added, "utf-8")
                options["dict"] = str(words)
            self._decoder = pocketsphinx.Decoder(**options)

    @classmethod
    def for_sentences(cls, sentences: Iterable[str]) -> PocketsphinxRecognizer:
        """A recogniser constrained to a bigram model of ``sentences`` (the robot's words).

        Words the shipped dictionary lacks are pronounced by espeak-ng (when installed).
        """
        words = corpus(sentences)
        known = dictionary_words()
        added = pronounce({word for sentence in words for word in sentence} - known)
        return cls(estimate(words, known | added.keys()), added)

    def transcribe(self, audio: Audio) -> Transcript:
        """What was said in ``audio``, with PocketSphinx's posterior per word as the confidence."""
        started = time.perf_counter()
        clip = audio.at_rate(SPEECH_RATE)
        decoder = self._decoder
        decoder.start_utt()
        decoder.process_raw(clip.samples.astype("<i2").tobytes(), full_utt=True)
        decoder.end_utt()
        hypothesis = decoder.hyp()
        text = " ".join(hypothesis.hypstr.split()) if hypothesis is not None else ""
        posterior = float(hypothesis.prob) if hypothesis is not None and text else 0.0
        confidence = max(0.0, posterior) ** (1 / len(text.split())) if text else 0.0
        return Transcript(
            text=text,
            confidence=min(1.0, max(0.0, confidence)),
            audio_seconds=clip.seconds,
            decode_seconds=time.perf_counter() - started,
        )
