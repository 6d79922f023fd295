"""Echo and confirm: a spoken request that would move the robot runs only after a yes."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from cogtree.trees.cli.main import main
from cogtree.trees.voice.audio import SPEECH_RATE, Audio, to_int16, write_wav
from cogtree.trees.voice.confirmation import Pending, needs_confirmation, settle
from cogtree.trees.voice.hearing import Hearing
from cogtree.trees.voice.recognizer import Transcript
from cogtree.trees.voice.synthesizer import EspeakSynthesizer


def chat(tmp_path: Path, *clips: Path) -> tuple[int, list[dict]]:
    """``chat --audio-in`` over ``clips``: exit code, the robot's lines, the tick log."""
    log = tmp_path / "log.jsonl"
    argv = ["chat", "--llm", "none", "--memory", str(tmp_path / "m.sqlite"), "--log", str(log)]
    for clip in clips:
        argv += ["--audio-in", str(clip)]
    code = main(argv)
    return code, [json.loads(line) for line in log.read_text().splitlines()]


def spoken(synthesizer: EspeakSynthesizer, text: str, path: Path) -> Path:
    return write_wav(synthesizer.synthesize(text), path)


def heard_records(log: list[dict]) -> list[dict]:
    return [w["value"] for r in log for w in r.get("writes", []) if w["key"] == "/voice/heard"]


def robot_lines(out: str) -> list[str]:
    return [line for line in out.splitlines() if line.startswith("robot:")]


def test_a_yes_confirms_the_echoed_request(synthesizer, blackboard, capsys, tmp_path) -> None:
    request = spoken(synthesizer, "open the fridge", tmp_path / "request.wav")
    yes = spoken(synthesizer, "yes", tmp_path / "yes.wav")
    code, log = chat(tmp_path, request, yes)
    lines = robot_lines(capsys.readouterr().out)
    assert code == 0
    assert lines[0] == "robot: Did you say: open the fridge? Please say yes or no."
    assert len(lines) == 2 and "Did you say" not in lines[1]
    [heard] = heard_records(log)
    assert heard["text"] == "open the fridge" and heard["confirmation"] == "confirmed"
    assert heard["confidence"] > 0 and heard["answer"]["text"] == "yes"


def test_a_no_discards_the_request(synthesizer, blackboard, capsys, tmp_path) -> None:
    request = spoken(synthesizer, "open the fridge", tmp_path / "request.wav")
    no = spoken(synthesizer, "no thanks", tmp_path / "no.wav")
    code, log = chat(tmp_path, request, no)
    lines = robot_lines(capsys.readouterr().out)
    assert code == 1
    assert lines[1] == "robot: OK, I will not do that. Please say your request again."
    assert [r["type"] for r in log] == ["header"]  # the tree never ticked


@pytest.mark.parametrize("kind", ["silence", "noise"])
def test_silence_or_noise_after_the_echo_discards(synthesizer, blackboard, capsys, tmp_path, kind):
    request = spoken(synthesizer, "open the fridge", tmp_path / "request.wav")
    samples = (
        np.zeros(SPEECH_RATE, np.int16)
        if kind == "silence"
        else to_int16(np.random.default_rng(3).normal(0, 0.2, 2 * SPEECH_RATE))
    )
    answer = write_wav(Audio(samples, SPEECH_RATE), tmp_path / f"{kind}.wav")
    code, log = chat(tmp_path, request, answer)
    lines = robot_lines(capsys.readouterr().out)
    assert code == 1
    assert lines[1].startswith("robot: I did not hear a yes, so I will not do that")
    assert [r["type"] for r in log] == ["header"]


def test_a_new_request_replaces_the_pending_one_and_is_confirmed(
    synthesizer, blackboard, capsys, tmp_path
) -> None:
    first = spoken(synthesizer, "open the fridge", tmp_path / "first.wav")
    second = spoken(synthesizer, "put the mug in the sink", tmp_path / "second.wav")
    yes = spoken(synthesizer, "yes", tmp_path / "yes.wav")
    code, log = chat(tmp_path, first, second, yes)
    lines = robot_lines(capsys.readouterr().out)
    assert code == 0
    assert lines[1] == "robot: Did you say: put the mug in the sink? Please say yes or no."
    [heard] = heard_records(log)
    assert heard["text"] == "put the mug in the sink"
    assert heard["confirmation"] == "confirmed"


def test_a_question_is_answered_without_an_echo(synthesizer, blackboard, capsys, tmp_path):
    question = spoken(synthesizer, "where is the magazine", tmp_path / "q.wav")
    code, log = chat(tmp_path, question)
    assert code == 0
    assert "Did you say" not in capsys.readouterr().out
    assert heard_records(log)[0]["confirmation"] == "not needed"


def transcript(text: str) -> Transcript:
    return Transcript(text, 0.9, 1.0, 0.1)


def test_only_a_whole_yes_confirms() -> None:
    pending = Pending(transcript("bring me the mug"))
    for said in ("yes I want the mug", "the mug", "where is the magazine", "no", "maybe"):
        settled = settle(pending, Hearing(said, None, transcript(said)))
        assert settled.run is None and settled.outcome != "confirmed", said
        assert settled.pending is None or settled.pending.transcript.text == said
    settled = settle(pending, Hearing("yes please", None, transcript("yes please")))
    assert settled.run == "bring me the mug" and settled.outcome == "confirmed"


def test_what_needs_confirmation() -> None:
    assert needs_confirmation("bring the mug to the kitchen")
    assert needs_confirmation("cut the bread")  # a missing skill: the robot may bring things
    assert needs_confirmation("where is the mug bring it to me")  # no comma heard
    assert not needs_confirmation("where is the magazine")
    assert needs_confirmation("my name is sam")  # it writes memory
    assert not needs_confirmation("yes")  # may answer the tree's own question
