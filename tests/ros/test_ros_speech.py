"""The speech nodes over real ROS 2: heard text on ``utterance``, ``speech`` spoken to WAVs."""

from __future__ import annotations

import shutil

import numpy as np
import pytest

from tests.ros.ros_extra import ROS_EXTRA

pytest.importorskip("rclpy", reason=ROS_EXTRA)
pytest.importorskip("pocketsphinx", reason="the speech tests need the voice extra")
if shutil.which("espeak-ng") is None:
    pytest.skip(
        "the speech tests need espeak-ng: apt-get install -y espeak-ng", allow_module_level=True
    )

from std_msgs.msg import String

from cogtree.knowledge.understanding.turn_state import PendingTask
from cogtree.skills.ros.protocol import reliable_qos
from cogtree.trees.ros.speech_in import SpeechIn
from cogtree.trees.ros.speech_out import SpeechOut
from cogtree.trees.voice.audio import SPEECH_RATE, Audio, read_wav
from cogtree.trees.voice.confirmation import ANSWER_SENTENCES
from cogtree.trees.voice.pocketsphinx_engine import PocketsphinxRecognizer
from cogtree.trees.voice.speaking import Speaker, WavFolder
from cogtree.trees.voice.synthesizer import EspeakSynthesizer

WORDS = ["where is the magazine", "open the fridge", "bring me the mug from the kitchen"]


@pytest.fixture(scope="module")
def recognizer() -> PocketsphinxRecognizer:
    return PocketsphinxRecognizer.for_sentences(WORDS)


def test_what_is_heard_is_published_on_utterance(ros, until, recognizer) -> None:
    namespace = ros.namespace("cogtree")
    utterances, speech = ros.spy(f"{namespace}/utterance", f"{namespace}/speech")
    speech_in = SpeechIn(ros.node("speech_in", namespace=namespace), recognizer)
    until(lambda: speech_in._utterance.get_subscription_count(), what="the spy")
    try:
        said = EspeakSynthesizer().synthesize("where is the magazine")
        assert speech_in.hear(said).run == "where is the magazine"  # a question: no echo
        until(lambda: utterances == ["where is the magazine"], what="the utterance")
        silence = Audio(np.zeros(SPEECH_RATE, np.int16), SPEECH_RATE)
        assert speech_in.hear(silence).run is None
        until(lambda: speech, what="the ask-again")
        assert "Could you say it again?" in speech[0] and "silent" in speech[0]
        assert utterances == ["where is the magazine"]
    finally:
        speech_in.close()


def test_a_request_that_acts_is_published_only_after_a_yes(ros, until) -> None:
    namespace = ros.namespace("cogtree")
    utterances, speech = ros.spy(f"{namespace}/utterance", f"{namespace}/speech")
    answering = PocketsphinxRecognizer.for_sentences([*WORDS, *ANSWER_SENTENCES])
    speech_in = SpeechIn(ros.node("speech_in", namespace=namespace), answering)
    until(lambda: speech_in._utterance.get_subscription_count(), what="the spy")
    try:
        voice = EspeakSynthesizer()
        assert speech_in.hear(voice.synthesize("open the fridge")).outcome == "asked"
        until(lambda: speech, what="the echo")
        assert speech[0].startswith("Did you say: open the fridge?") and utterances == []
        assert speech_in.hear(voice.synthesize("yes")).run == "open the fridge"
        until(lambda: utterances == ["open the fridge"], what="the confirmed request")
    finally:
        speech_in.close()


def test_speech_is_spoken_and_a_new_request_interrupts_it(ros, until, recognizer, tmp_path):
    namespace = ros.namespace("cogtree")
    output = WavFolder(tmp_path, paced=True)
    speaker = Speaker(EspeakSynthesizer(), output)
    speech_out = SpeechOut(ros.node("speech_out", namespace=namespace), speaker)
    user = ros.node("user")
    say = user.create_publisher(String, f"{namespace}/speech", reliable_qos())
    ask = user.create_publisher(String, f"{namespace}/utterance", reliable_qos())
    until(lambda: say.get_subscription_count() and ask.get_subscription_count(), what="peers")
    try:
        say.publish(String(data="Where is the magazine? Open the fridge."))
        until(
            lambda: speaker.spoken == ["Where is the magazine?", "Open the fridge."],
            what="both sentences",
            timeout_s=30,
        )
        heard = [recognizer.transcribe(read_wav(path)).text for path in output.written]
        assert heard == ["where is the magazine", "open the fridge"]
        say.publish(String(data="Bring me the mug from the kitchen. " * 5))
        until(lambda: len(output.written) == 3, what="the first sentence", timeout_s=30)
        ask.publish(String(data="stop"))
        until(lambda: not speaker.speaking, what="silence", timeout_s=30)
        assert len(output.written) == 3 and len(speaker.spoken) == 2
    finally:
        speech_out.close()


def test_ros_voice_without_the_devices_is_a_clear_error(ros, capsys) -> None:
    from cogtree.trees.cli.main import main

    code = main(["ros", "--voice", "--namespace", ros.namespace("cogtree")])
    err = capsys.readouterr().err
    assert code == 2
    assert "cogtree ros: error: --voice: " in err
    assert "PortAudio" in err or "no microphone" in err or "no audio output" in err


def test_a_spoken_yes_to_the_hosts_safety_question_is_echoed_first(ros, until, blackboard):
    namespace = ros.namespace("cogtree")
    utterances, speech = ros.spy(f"{namespace}/utterance", f"{namespace}/speech")
    blackboard.set(  # the host beside the node asked to confirm a hazard
        "/session/pending",
        PendingTask(
            domain="household",
            task="pour",
            said=["pour the water into the glass"],
            question="Before I do that: the glass is next to the toaster. Shall I still do it?",
            confirm=["hazard liquid_near_electrical: 'the glass is next to the toaster'"],
        ),
    )
    answering = PocketsphinxRecognizer.for_sentences([*WORDS, *ANSWER_SENTENCES])
    speech_in = SpeechIn(ros.node("speech_in", namespace=namespace), answering)
    until(lambda: speech_in._utterance.get_subscription_count(), what="the spy")
    try:
        yes = EspeakSynthesizer().synthesize("yes")
        assert speech_in.hear(yes).outcome == "asked"
        until(lambda: speech, what="the echo")
        assert speech[0].startswith('You said yes: I will go ahead with "pour the water')
        assert utterances == []
        assert speech_in.hear(yes).run == "yes"
        until(lambda: utterances == ["yes"], what="the confirmed yes")
    finally:
        speech_in.close()
