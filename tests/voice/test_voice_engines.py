"""Speech in and out with the real engines: WAV reading and checks, recognition, speaking."""

from __future__ import annotations

import shutil
import subprocess
import threading
from pathlib import Path

import numpy as np
import pytest

from cogtree.trees.voice.audio import (
    SPEECH_RATE,
    Audio,
    AudioError,
    read_wav,
    speech_problem,
    to_int16,
)
from cogtree.trees.voice.errors import VoiceUnavailable
from cogtree.trees.voice.language_model import estimate
from cogtree.trees.voice.microphone import Microphone
from cogtree.trees.voice.pocketsphinx_engine import PocketsphinxRecognizer
from cogtree.trees.voice.speaking import Speaker, WavFolder, sentences
from cogtree.trees.voice.synthesizer import (
    EspeakSynthesizer,
    FliteSynthesizer,
    synthesizer_named,
)
from cogtree.trees.voice.vocabulary import corpus


def sox(source: Path, target: Path, *options: str) -> Path:
    subprocess.run(["sox", str(source), *options, str(target)], check=True)
    return target


def test_a_wav_in_another_format_is_converted(spoken, robot_recognizer, tmp_path) -> None:
    stereo = sox(
        spoken("where is the magazine"), tmp_path / "b.wav", "-r", "44100", "-c", "2", "-b", "24"
    )
    audio = read_wav(stereo)
    assert audio.rate == SPEECH_RATE
    assert robot_recognizer.transcribe(audio).text == "where is the magazine"


def test_a_wav_that_cannot_be_read_says_how_to_convert_it(tmp_path, float_wav) -> None:
    floats = float_wav
    with pytest.raises(AudioError, match="sox .*float.wav -r 16000 -c 1 -b 16"):
        read_wav(floats)
    (tmp_path / "text.wav").write_text("not audio")
    with pytest.raises(AudioError, match="not a WAV file"):
        read_wav(tmp_path / "text.wav")
    with pytest.raises(AudioError, match="no such audio file"):
        read_wav(tmp_path / "missing.wav")


def test_empty_silent_and_clipped_audio_hold_no_request(synthesizer) -> None:
    speech = synthesizer.synthesize("bring me the mug")
    assert speech_problem(speech) is None
    assert "empty" in str(speech_problem(Audio(np.zeros(100, np.int16), SPEECH_RATE)))
    quiet = Audio(to_int16(np.random.default_rng(0).normal(0, 0.001, 16000)), SPEECH_RATE)
    assert "silent" in str(speech_problem(quiet))
    loud = Audio(to_int16(speech.samples.astype(np.float64) / 32767 * 20), speech.rate)
    assert "clipped" in str(speech_problem(loud))


def test_the_robots_words_help_recognition(synthesizer, robot_recognizer) -> None:
    general = PocketsphinxRecognizer()
    audio = synthesizer.synthesize("where is the magazine")
    heard = robot_recognizer.transcribe(audio)
    assert heard.text == "where is the magazine"
    assert 0 < heard.confidence <= 1 and heard.audio_seconds == pytest.approx(
        audio.seconds, abs=1e-3
    )
    fridge = synthesizer.synthesize("open the fridge")
    assert robot_recognizer.transcribe(fridge).text == "open the fridge"
    assert general.transcribe(fridge).text != "open the fridge"


def test_the_robots_sentences_hold_its_packs_and_names(home_sentences) -> None:
    text = "\n".join(home_sentences)
    assert "magazine" in home_sentences and "coffee table" in home_sentences
    assert "coffee table" in text and "put away" in text and "tiramisu" in text


def test_the_language_model_backs_off_to_every_known_word() -> None:
    model = estimate(
        corpus(["bring me the mug", "where is the mug", "the zyzzx"]),
        known={"bring", "me", "the", "mug", "where", "is"},
    )
    assert model.words == {"bring", "me", "the", "mug", "where", "is"}
    text = model.arpa()
    assert text.startswith("\\data\\\nngram 1=8\n") and "-0.3010 the mug" in text


def test_a_reply_is_spoken_sentence_by_sentence(synthesizer, tmp_path) -> None:
    assert sentences("Yes. The mug is here!  Shall I bring it?") == [
        "Yes.",
        "The mug is here!",
        "Shall I bring it?",
    ]
    output = WavFolder(tmp_path)
    speaker = Speaker(synthesizer, output)
    speaker.say("The mug is on the table. It is blue.")
    speaker.wait()
    assert [p.name for p in output.written] == ["0001.wav", "0002.wav"]
    assert speaker.spoken == ["The mug is on the table.", "It is blue."]


def test_a_new_reply_interrupts_the_one_being_spoken(synthesizer, tmp_path) -> None:
    output = WavFolder(tmp_path, paced=True)
    speaker = Speaker(synthesizer, output)
    speaker.say("First I will go to the kitchen. Then I will open the cupboard. Then I will look.")
    while not output.written:
        threading.Event().wait(0.01)
    speaker.say("Stopped.")
    speaker.wait()
    assert speaker.spoken == ["Stopped."]
    assert len(output.written) == 2


class FakeDevices:
    """Stands in for sounddevice: a device list and an input stream playing ``clip``."""

    def __init__(self, clip: Audio | None) -> None:
        self.clip = clip

    def query_devices(self) -> list[dict[str, int]]:
        inputs = 1 if self.clip is not None else 0
        return [{"max_input_channels": inputs, "max_output_channels": 2}]

    def InputStream(self, **options: object) -> FakeDevices:
        assert self.clip is not None
        gap = np.zeros(SPEECH_RATE, np.int16)
        self._left = np.concatenate([gap, self.clip.samples, gap, gap])
        return self

    def __enter__(self) -> FakeDevices:
        return self

    def __exit__(self, *exc: object) -> None:
        return None

    def read(self, frames: int) -> tuple[np.ndarray, bool]:
        block, self._left = self._left[:frames], self._left[frames:]
        return np.pad(block, (0, frames - len(block))).reshape(-1, 1), False


def test_the_microphone_keeps_one_utterance(synthesizer, robot_recognizer) -> None:
    said = synthesizer.synthesize("where is the magazine").at_rate(SPEECH_RATE)
    heard = Microphone(backend=FakeDevices(said)).listen()
    assert said.seconds <= heard.seconds < said.seconds + 1.2
    assert robot_recognizer.transcribe(heard).text == "where is the magazine"


def test_no_microphone_is_a_clear_message() -> None:
    with pytest.raises(VoiceUnavailable, match="no microphone: .*--audio-in FILE.wav"):
        Microphone(backend=FakeDevices(None))


def test_espeak_ng_missing_is_a_clear_message(monkeypatch) -> None:
    monkeypatch.setenv("PATH", "/nonexistent")
    with pytest.raises(VoiceUnavailable, match="apt-get install -y espeak-ng"):
        EspeakSynthesizer()


needs_flite = pytest.mark.skipif(shutil.which("flite") is None, reason="apt-get install -y flite")


def test_flite_missing_is_a_clear_message(monkeypatch) -> None:
    monkeypatch.setenv("PATH", "/nonexistent")
    with pytest.raises(VoiceUnavailable, match=r"apt-get install -y flite \(or .*--tts espeak-ng"):
        FliteSynthesizer()


@needs_flite
def test_a_speed_of_no_words_a_minute_is_refused() -> None:
    with pytest.raises(VoiceUnavailable, match="above 0, not 0"):
        FliteSynthesizer(speed=0)


@needs_flite
def test_a_voice_flite_does_not_ship_is_refused_not_spoken_in_another() -> None:
    with pytest.raises(VoiceUnavailable, match="no voice 'en-us'.*slt"):
        FliteSynthesizer(voice="en-us")
    with pytest.raises(VoiceUnavailable, match="no speech synthesiser 'festival'"):
        synthesizer_named("festival")


@needs_flite
def test_flites_speed_is_its_pace_in_words_a_minute() -> None:
    """Slower speech lasts longer, and text that looks like an option is spoken, not read."""
    slow = FliteSynthesizer(speed=120).synthesize("--help is on the way")
    fast = FliteSynthesizer(speed=200).synthesize("--help is on the way")
    assert speech_problem(slow) is None and speech_problem(fast) is None
    assert slow.seconds > 1.4 * fast.seconds
