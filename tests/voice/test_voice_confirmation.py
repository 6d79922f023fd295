"""Echo and confirm: a spoken request that would move the robot runs only after a yes."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from cogtree.knowledge.llm.client import LLMClient
from cogtree.knowledge.llm.config import LLMConfig
from cogtree.knowledge.understanding.turn_state import PendingTask
from cogtree.sim.executor import SimExecutor
from cogtree.sim.scenario import load_scenario
from cogtree.trees.assistant_session import AssistantSession, pending_question
from cogtree.trees.cli.main import main
from cogtree.trees.handles import Handles
from cogtree.trees.sim_wiring import step_when_busy
from cogtree.trees.voice.audio import SPEECH_RATE, Audio, read_wav, to_int16, write_wav
from cogtree.trees.voice.confirmation import (
    ANSWER_SENTENCES,
    OFFER_ECHO,
    SAFETY_ECHO,
    Pending,
    needs_confirmation,
    settle,
)
from cogtree.trees.voice.conversation import VoiceConversation
from cogtree.trees.voice.hearing import Hearing
from cogtree.trees.voice.pocketsphinx_engine import PocketsphinxRecognizer
from cogtree.trees.voice.recognizer import Transcript


def chat(tmp_path: Path, *clips: Path) -> tuple[int, list[dict]]:
    """``chat --audio-in`` over ``clips``: exit code, the robot's lines, the tick log."""
    log = tmp_path / "log.jsonl"
    argv = ["chat", "--llm", "none", "--memory", str(tmp_path / "m.sqlite"), "--log", str(log)]
    argv += ["--asr", "pocketsphinx"]  # its confidence is what these tests read
    for clip in clips:
        argv += ["--audio-in", str(clip)]
    code = main(argv)
    return code, [json.loads(line) for line in log.read_text().splitlines()]


def heard_records(log: list[dict]) -> list[dict]:
    return [w["value"] for r in log for w in r.get("writes", []) if w["key"] == "/voice/heard"]


def robot_lines(out: str) -> list[str]:
    return [line for line in out.splitlines() if line.startswith("robot:")]


def test_a_yes_confirms_the_echoed_request(spoken, blackboard, capsys, tmp_path) -> None:
    request = spoken("open the fridge")
    yes = spoken("yes")
    code, log = chat(tmp_path, request, yes)
    lines = robot_lines(capsys.readouterr().out)
    assert code == 0
    assert lines[0] == "robot: Did you say: open the fridge? Please say yes or no."
    assert len(lines) == 2 and "Did you say" not in lines[1]
    [heard] = heard_records(log)
    assert heard["text"] == "open the fridge" and heard["confirmation"] == "confirmed"
    assert heard["confidence"] > 0 and heard["answer"]["text"] == "yes"


def test_a_no_discards_the_request(spoken, blackboard, capsys, tmp_path) -> None:
    request = spoken("open the fridge")
    no = spoken("no thanks")
    code, log = chat(tmp_path, request, no)
    lines = robot_lines(capsys.readouterr().out)
    assert code == 1
    assert lines[1] == "robot: OK, I will not do that. Please say your request again."
    assert [r["type"] for r in log] == ["header"]  # the tree never ticked


@pytest.mark.parametrize("kind", ["silence", "noise"])
def test_silence_or_noise_after_the_echo_discards(spoken, blackboard, capsys, tmp_path, kind):
    request = spoken("open the fridge")
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
    spoken, blackboard, capsys, tmp_path
) -> None:
    first = spoken("open the fridge")
    second = spoken("put the mug in the sink")
    yes = spoken("yes")
    code, log = chat(tmp_path, first, second, yes)
    lines = robot_lines(capsys.readouterr().out)
    assert code == 0
    assert lines[1] == "robot: Did you say: put the mug in the sink? Please say yes or no."
    [heard] = heard_records(log)
    assert heard["text"] == "put the mug in the sink"
    assert heard["confirmation"] == "confirmed"


def test_a_question_is_answered_without_an_echo(spoken, blackboard, capsys, tmp_path):
    question = spoken("where is the magazine")
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


HOT_PAN = PendingTask(
    domain="physical",
    task="bring",
    said=["hand me the saucepan straight off the hob"],
    question="Before I do that: The saucepan is hot. Shall I still do it?",
    confirm=["hazard hot_handover: 'The saucepan is hot.'"],
)
"""The tree's question that confirms a safety doubt."""


def heard(text: str, *, seconds: float = 0.5) -> Hearing:
    """A clip heard as ``text`` (``seconds`` 0: typed, no audio)."""
    return Hearing(text, None, Transcript(text, 0.9, seconds, 0.1))


def test_a_spoken_yes_to_a_safety_question_is_echoed_before_it_reaches_the_tree() -> None:
    settled = settle(None, heard("yes"), HOT_PAN)
    assert settled.run is None and settled.outcome == "asked"
    assert settled.reply == SAFETY_ECHO.format(request="hand me the saucepan straight off the hob")
    assert settled.pending is not None
    confirmed = settle(settled.pending, heard("yes please"), HOT_PAN)
    assert confirmed.run == "yes" and confirmed.outcome == "confirmed"
    for answer in ("no", "maybe", "where is the mug"):
        assert settle(settled.pending, heard(answer), HOT_PAN).run is None, answer


def test_only_a_spoken_yes_to_a_safety_question_is_echoed() -> None:
    assert settle(None, heard("no"), HOT_PAN).run == "no"  # declining is never held back
    assert settle(None, heard("yes", seconds=0.0), HOT_PAN).run == "yes"  # typed: no mishearing
    asks_a_detail = HOT_PAN.model_copy(update={"confirm": []})
    assert settle(None, heard("yes"), asks_a_detail).run == "yes"
    assert settle(None, heard("yes"), None).run == "yes"


def test_a_spoken_yes_lifts_a_hazard_only_once_echoed_and_confirmed(
    spoken, shipped_packs, blackboard, tmp_path
) -> None:
    scenario = load_scenario("kitchen_hazard_water_near_toaster")
    recognizer = PocketsphinxRecognizer.for_sentences(ANSWER_SENTENCES)
    with (
        SimExecutor.from_scenario(scenario) as simulator,
        Handles(domains=shipped_packs) as handles,
    ):
        handles.open_memory(tmp_path / "m.sqlite")
        handles.open_experience(tmp_path / "e.sqlite")
        handles.attach_simulator(simulator)
        llm = LLMClient(LLMConfig.load().with_backend("none"))
        session = AssistantSession(
            llm=llm,
            handles=handles.as_kwargs(),
            speaker=scenario.request.speaker,
            robot=scenario.main_robot,
            before_tick=lambda: step_when_busy(simulator),
        )
        try:
            voice = VoiceConversation(session, recognizer)
            voice.typed("pour the water from the jug into the water glass")
            asked = voice.typed("yes").reply
            assert asked.startswith("Before I do that:") and pending_question() is not None
            echoed = voice.hear(read_wav(spoken("yes")))
            assert echoed.result is None and echoed.settled.reply is not None
            assert echoed.reply.startswith('You said yes: I will go ahead with "pour the water')
            assert pending_question() is not None and pending_question().confirm  # still asked
            done = voice.hear(read_wav(spoken("yes")))
            assert (
                done.result is not None
                and done.reply == "I poured the water jug into the water glass."
            )
        finally:
            session.close()
            llm.close()


def test_a_spoken_yes_to_an_offer_is_said_back_before_it_moves_the_robot() -> None:
    """Checked to fail before: a bare spoken yes to "I can bring the remote to you" ran Fetch
    at once, on one possibly misheard word."""
    offer = PendingTask(
        domain="household",
        task="Fetch",
        slots={"object": "remote"},
        proposed={"object": "remote"},
        said=["where is the remote?"],
        question="I can bring the remote to you, if you like.",
        offered=True,
    )
    settled = settle(None, heard("yes"), offer)
    assert settled.run is None and settled.outcome == "asked"
    assert settled.reply == OFFER_ECHO.format(offer="I can bring the remote to you, if you like")
    assert settle(settled.pending, heard("yes"), offer).outcome == "confirmed"
