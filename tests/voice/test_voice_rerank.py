"""Whisper's beam re-ranked by the robot's words, without audio: a hypothesis in the robot's
words wins only when the audio makes it nearly as likely, and the confidence stays the
chosen hypothesis's own, so a clip the audio leaves unsure is still asked again."""

from __future__ import annotations

import math

import numpy as np
import pytest

from cogtree.sim.executor import SimExecutor
from cogtree.sim.scenario import load_scenario
from cogtree.trees.voice.audio import SPEECH_RATE, Audio
from cogtree.trees.voice.hearing import judge
from cogtree.trees.voice.recognizer import Transcript
from cogtree.trees.voice.vocabulary import known_words, mended
from cogtree.trees.voice.whisper_engine import (
    KNOWN_WEIGHT,
    Hypothesis,
    heard_of,
    known_share,
    rerank,
)

KNOWN = frozenset({"fill", "the", "kettle", "with", "water", "open", "fridge"})


def said(text: str, score: float, tokens: int | None = None) -> Hypothesis:
    """A hypothesis of ``text`` whose log-probability per token is ``score``."""
    count = tokens if tokens is not None else len(text.split()) + 1
    return Hypothesis(text, score * count, count)


def test_the_share_of_known_words_reads_words_not_marks_or_capitals() -> None:
    assert known_share("Fill the kettle with water.", KNOWN) == 1.0
    assert known_share("Fill the candle, with water!", KNOWN) == pytest.approx(4 / 5)
    assert known_share("...", KNOWN) == 0.0


def test_a_hypothesis_in_the_robots_words_wins_when_the_audio_nearly_ties() -> None:
    candle, kettle = (
        said("Fill the candle with water.", -0.30),
        said("fill the kettle with water", -0.35),
    )
    assert rerank([candle, kettle], KNOWN) == kettle
    assert rerank([candle, kettle], frozenset()) == candle  # no words known: Whisper's best


def test_the_acoustic_score_stays_dominant() -> None:
    """Every word known is worth at most KNOWN_WEIGHT per token: a hypothesis the audio makes
    less likely by more than that is never chosen, however much of a command it is."""
    heard = said("is the oven still long", -0.30)
    command = said("open the fridge", -0.30 - KNOWN_WEIGHT - 0.01)
    assert known_share(command.text, KNOWN) == 1.0 and known_share(heard.text, KNOWN) < 0.5
    assert rerank([heard, command], KNOWN) == heard


def test_a_tie_keeps_the_beams_order_and_one_hypothesis_is_itself() -> None:
    first, second = said("Open the fridge.", -0.2), said("open the fridge", -0.2)
    assert rerank([first, second], KNOWN) is first
    assert rerank([second], KNOWN) is second
    with pytest.raises(ValueError, match="at least one"):
        rerank([], KNOWN)


def test_the_score_is_per_token_and_the_confidence_counts_the_end_of_text() -> None:
    hypothesis = Hypothesis("open the fridge", logprob=-1.2, tokens=3)
    assert hypothesis.score == pytest.approx(-0.4)
    assert hypothesis.confidence == pytest.approx(math.exp(-1.2 / 4))


def test_the_confidence_is_the_chosen_hypothesis_own() -> None:
    best = said("Fill the candle with water.", -0.30)
    known = said("fill the kettle with water", -0.38)
    text, confidence = heard_of([best, known], KNOWN)
    assert text == "fill the kettle with water"
    assert confidence == pytest.approx(known.confidence) and confidence < best.confidence
    assert heard_of([], KNOWN) == ("", None)
    assert heard_of([said("...", -0.1)], KNOWN) == ("", None)


class Heard:
    """A recogniser that hears the beam's ``hypotheses`` and chooses as Whisper's engine does."""

    def __init__(self, *hypotheses: Hypothesis) -> None:
        self.hypotheses = hypotheses

    def transcribe(self, audio: Audio) -> Transcript:
        text, confidence = heard_of(self.hypotheses, KNOWN)
        return Transcript(text, confidence if text else None, audio.seconds, 0.0)


def test_a_clip_the_audio_leaves_unsure_is_asked_again_whatever_its_words() -> None:
    """Re-ranked to the robot's words, a hypothesis below the threshold still reaches no tree."""
    tone = np.sin(np.linspace(0, 2000 * np.pi, SPEECH_RATE)) * 8000
    clip = Audio(tone.astype(np.int16), SPEECH_RATE)
    kettle = "fill the kettle with water"
    unsure = Heard(said("Fill the candle with water.", -1.2), said(kettle, -1.25))
    hearing = judge(clip, unsure, min_confidence=0.4)
    assert hearing.transcript is not None and hearing.transcript.text == kettle
    assert hearing.request is None and "I am not sure I heard" in str(hearing.reply)
    sure = Heard(said("Fill the candle with water.", -0.3), said(kettle, -0.35))
    assert judge(clip, sure, min_confidence=0.4).request == kettle


def test_the_robots_words_are_its_packs_names_and_verbs(shipped_packs) -> None:
    simulator = SimExecutor.from_scenario(load_scenario("everyday_home"))
    try:
        words = known_words(shipped_packs, simulator.belief.graph)
    finally:
        simulator.close()
    assert {"kettle", "mug", "fridge", "bring", "fill", "please", "yes"} <= words
    assert "careful" not in words and "manure" not in words  # open English, not the robot's
    assert {"bring", "fill"} <= known_words(shipped_packs, None)


ENGLISH = frozenset(
    {"what", "goes", "into", "a", "car", "park", "the", "for", "bonnet", "spaghetti"}
)
DISHES = frozenset({"spaghetti", "carbonara", "coriander", "what", "goes", "into", "a", "car"})


@pytest.mark.parametrize(
    ("heard", "mended_text"),
    [
        ("What goes into a spaghetti car bonara?", "What goes into a spaghetti carbonara?"),
        ("Car bonara, please", "Carbonara, please"),  # a capital stays
        ("What goes into a spaghetti car bonare?", "What goes into a spaghetti car bonare?"),
        ("the car park", "the car park"),  # English words stay
        ("the car, bonara", "the car, bonara"),  # a mark between: not one word split
        ("the car bonnet", "the car bonnet"),  # both English: never joined
        ("for reander", "for reander"),  # joins into no word of the robot's
        ("careful, the spaghetti's still hot", "careful, the spaghetti's still hot"),
        ("pass me my carbonara", "pass me my carbonara"),  # a short word is never lost
        ("bring my carbonare", "bring my carbonare"),  # spelled its own way: not guessed
    ],
)
def test_a_word_split_in_two_is_joined_into_the_robot_word_and_nothing_else_changes(
    heard: str, mended_text: str
) -> None:
    """Found on the development half: Whisper wrote "car bonara" for "carbonara"."""
    assert mended(heard, DISHES, ENGLISH) == mended_text
    assert mended(heard, DISHES, frozenset()) == heard  # no dictionary: nothing is mended


def test_the_engine_mends_the_chosen_hypothesis() -> None:
    text, _ = heard_of([said("what goes into a spaghetti car bonara", -0.2)], DISHES, ENGLISH)
    assert text == "what goes into a spaghetti carbonara"
