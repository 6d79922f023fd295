"""``cogtree chat --audio-in``: spoken requests answered end to end, bad audio never acted on."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from cogtree.trees.cli.main import main
from cogtree.trees.voice.audio import SPEECH_RATE, Audio, to_int16, write_wav


def chat(tmp_path: Path, *clips: Path, options: tuple[str, ...] = ()) -> tuple[int, Path]:
    log = tmp_path / "log.jsonl"
    argv = ["chat", "--llm", "none", "--memory", str(tmp_path / "m.sqlite"), "--log", str(log)]
    argv += ["--asr", "pocketsphinx"]  # its confidence is what these tests read
    for clip in clips:
        argv += ["--audio-in", str(clip)]
    return main([*argv, "--audio-out", str(tmp_path / "said"), *options]), log


def records(log: Path) -> list[dict]:
    return [json.loads(line) for line in log.read_text().splitlines()]


def test_a_spoken_request_is_answered_end_to_end(spoken, blackboard, capsys, tmp_path):
    code, log = chat(tmp_path, spoken("where is the magazine"))
    out, err = capsys.readouterr()
    assert code == 0
    assert "robot: The magazine is on the coffee table in the living room." in out
    assert "heard: 'where is the magazine' (confidence" in err
    heard = [w for r in records(log) for w in r.get("writes", []) if w["key"] == "/voice/heard"]
    assert len(heard) == 1 and heard[0]["client"] == "voice input"
    assert heard[0]["value"]["text"] == "where is the magazine"
    assert heard[0]["value"]["confidence"] > 0 and heard[0]["value"]["audio_seconds"] > 1
    said = sorted(p.name for p in (tmp_path / "said").iterdir())
    assert said == ["0001.wav", "0002.wav"]  # the answer, then the offer to bring it


def test_audio_that_holds_no_request_is_never_acted_on(blackboard, capsys, tmp_path) -> None:
    rng = np.random.default_rng(7)
    noise = to_int16(rng.normal(0, 0.2, 2 * SPEECH_RATE))
    tone = to_int16(np.sin(np.arange(SPEECH_RATE) / 5.0) * 2)
    clips = {
        "silent": np.zeros(SPEECH_RATE, np.int16),
        "empty": np.zeros(400, np.int16),
        "clipped": tone,
        "noise": noise,
    }
    paths = [write_wav(Audio(s, SPEECH_RATE), tmp_path / f"{n}.wav") for n, s in clips.items()]
    code, log = chat(tmp_path, *paths)
    replies = [line for line in capsys.readouterr().out.splitlines() if line.startswith("robot:")]
    assert code == 1
    assert len(replies) == 4 and all("Could you say it again?" in r for r in replies)
    for reply, why in zip(replies, ["silent", "empty", "clipped", "heard no words"], strict=True):
        assert why in reply
    assert [r["type"] for r in records(log)] == ["header"]  # the tree never ticked


def test_below_the_confidence_threshold_the_robot_asks_again(
    spoken, blackboard, capsys, tmp_path
) -> None:
    question = spoken("where is the magazine")
    code, log = chat(tmp_path, question, options=("--min-confidence", "0.99"))
    out = capsys.readouterr().out
    assert code == 1
    assert "I am not sure I heard 'where is the magazine'. Could you say it again?" in out
    assert [r["type"] for r in records(log)] == ["header"]


def test_a_wav_in_another_format_is_a_clear_error(blackboard, capsys, tmp_path, float_wav) -> None:
    floats = float_wav
    code, _ = chat(tmp_path, floats)
    err = capsys.readouterr().err
    assert code == 2
    assert "cogtree: error:" in err and "not an integer PCM WAV" in err and "sox " in err


def test_a_missing_microphone_is_a_clear_error(blackboard, capsys, tmp_path) -> None:
    code = main(["chat", "--llm", "none", "--memory", str(tmp_path / "m.sqlite"), "--voice"])
    err = capsys.readouterr().err
    assert code == 2
    assert "cogtree: error:" in err and ("PortAudio" in err or "no microphone" in err)
