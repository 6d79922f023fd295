"""Moonshine behind the recogniser interface: it hears a clear request, silence is nothing,
and with no confidence everything that may act waits for a yes."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from cogtree.knowledge.understanding.turn_state import PendingTask
from cogtree.trees.cli.main import main
from cogtree.trees.voice import moonshine_engine
from cogtree.trees.voice.audio import SPEECH_RATE, Audio, to_int16, write_wav
from cogtree.trees.voice.confirmation import SAFETY_ECHO, settle
from cogtree.trees.voice.errors import VoiceUnavailable
from cogtree.trees.voice.hearing import Hearing, judge
from cogtree.trees.voice.moonshine_engine import MoonshineRecognizer
from cogtree.trees.voice.recognizer import Transcript, transcript_text
from cogtree.trees.voice.vocabulary import words_of

WHICH_MUG = PendingTask(
    domain="physical",
    task="bring",
    said=["bring me the mug"],
    question="Shall I bring the blue mug?",
)
"""A question of the tree that confirms no safety doubt: a yes to it may make the robot act."""


@pytest.fixture(scope="module")
def moonshine() -> MoonshineRecognizer:
    """Moonshine from the voice extra's wheel (skipped where the wheel is not installed)."""
    pytest.importorskip("moonshine_cpp", reason="the moonshine engine needs the voice extra")
    try:
        return MoonshineRecognizer()
    except VoiceUnavailable as unavailable:  # its runtime does not run on this CPU
        pytest.skip(str(unavailable))


def chat(tmp_path: Path, *clips: Path) -> tuple[int, list[dict]]:
    """``chat --asr moonshine --audio-in`` over ``clips``: exit code and the tick log."""
    log = tmp_path / "log.jsonl"
    argv = ["chat", "--llm", "none", "--memory", str(tmp_path / "m.sqlite"), "--log", str(log)]
    for clip in clips:
        argv += ["--audio-in", str(clip)]
    code = main([*argv, "--asr", "moonshine"])
    return code, [json.loads(line) for line in log.read_text().splitlines()]


def test_moonshine_transcribes_a_clear_request(moonshine, speech) -> None:
    audio = speech("put the apple in the fridge")
    heard = moonshine.transcribe(audio)
    assert words_of(heard.text) == ["put", "the", "apple", "in", "the", "fridge"]
    assert heard.confidence is None
    assert heard.audio_seconds == pytest.approx(audio.seconds, abs=1e-3)


def test_what_moonshine_writes_reaches_the_tree_with_its_digits() -> None:
    """An age or an amount said as a digit is part of the request, as typed ("I'm 6.")."""
    said = transcript_text(" I'm 6.  Can I have\na glass of wine? ")
    assert said == "I'm 6. Can I have a glass of wine?"
    assert transcript_text("Pour 200 ml of water.") == "Pour 200 ml of water."
    assert transcript_text(" . ... ") == ""


def test_silence_and_empty_audio_yield_no_words(moonshine) -> None:
    assert moonshine.transcribe(Audio(np.zeros(SPEECH_RATE, np.int16), SPEECH_RATE)).text == ""
    assert moonshine.transcribe(Audio(np.zeros(0, np.int16), SPEECH_RATE)).text == ""
    noise = Audio(to_int16(np.random.default_rng(7).normal(0, 0.2, 2 * SPEECH_RATE)), SPEECH_RATE)
    hearing = judge(noise, moonshine, min_confidence=0.99)
    assert hearing.request is None and "heard no words" in str(hearing.reply)


def test_by_voice_with_moonshine_a_request_is_echoed_and_bad_audio_asked_again(
    moonshine, spoken, blackboard, capsys, tmp_path
) -> None:
    silent = write_wav(Audio(np.zeros(SPEECH_RATE, np.int16), SPEECH_RATE), tmp_path / "s.wav")
    empty = write_wav(Audio(np.zeros(400, np.int16), SPEECH_RATE), tmp_path / "e.wav")
    code, log = chat(tmp_path, silent, empty, spoken("put the apple in the fridge"))
    out, err = capsys.readouterr()
    lines = [line for line in out.splitlines() if line.startswith("robot:")]
    assert code == 1 and len(lines) == 3
    assert "silent" in lines[0] and "empty" in lines[1]
    assert lines[2].startswith("robot: Did you say: ") and "the fridge?" in lines[2]
    assert "(confidence none," in err
    assert [r["type"] for r in log] == ["header"]  # nothing reached the tree


def test_a_spoken_yes_with_no_confidence_is_echoed_to_any_question_of_the_tree() -> None:
    unscored = Hearing("yes", None, Transcript("yes", None, 0.5, 0.1))
    settled = settle(None, unscored, WHICH_MUG)
    assert settled.run is None and settled.outcome == "asked"
    assert settled.reply == SAFETY_ECHO.format(request="bring me the mug")
    scored = Hearing("yes", None, Transcript("yes", 0.9, 0.5, 0.1))
    assert settle(None, scored, WHICH_MUG).run == "yes"  # the threshold stood before it
    assert settle(None, unscored, None).run == "yes"  # no question: a bare yes acts on nothing
    assert settle(None, Hearing("no", None, Transcript("no", None, 0.5, 0.1)), WHICH_MUG).run


def test_without_the_wheel_the_error_names_the_extra(
    monkeypatch, spoken, blackboard, capsys, tmp_path
) -> None:
    monkeypatch.setitem(sys.modules, "moonshine_cpp", None)
    with pytest.raises(VoiceUnavailable, match=r"pip install 'cogtree\[voice\]'"):
        MoonshineRecognizer()
    argv = ["chat", "--llm", "none", "--memory", str(tmp_path / "m.sqlite"), "--asr", "moonshine"]
    assert main([*argv, "--audio-in", str(spoken("open the fridge"))]) == 2
    assert "cogtree: error: the moonshine engine needs moonshine-cpp" in capsys.readouterr().err


def test_a_cpu_the_runtime_stops_on_is_named_not_crashed_on(monkeypatch) -> None:
    """Checked to fail before: on an AMD EPYC without AVX-512 loading the model killed the
    process (illegal instruction); now a probe process takes the signal and the error says so."""
    pytest.importorskip("moonshine_cpp", reason="the moonshine engine needs the voice extra")
    killed = subprocess.CompletedProcess(args=[], returncode=-signal.SIGILL)
    monkeypatch.setattr(moonshine_engine.subprocess, "run", lambda *args, **kwargs: killed)
    moonshine_engine._stops_here.cache_clear()
    try:
        with pytest.raises(VoiceUnavailable, match=r"SIGILL.*--asr whisper"):
            MoonshineRecognizer()
    finally:
        moonshine_engine._stops_here.cache_clear()
