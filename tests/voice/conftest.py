"""Fixtures of the voice tests: the real engines (espeak-ng, PocketSphinx), built once."""

from __future__ import annotations

import shutil
import subprocess
from collections.abc import Callable
from functools import cache
from itertools import count
from pathlib import Path

import pytest

from cogtree.knowledge.packs.domain_registry import DomainRegistry
from cogtree.sim.executor import SimExecutor
from cogtree.sim.scenario import load_scenario
from cogtree.trees.voice.audio import Audio, write_wav
from cogtree.trees.voice.pocketsphinx_engine import PocketsphinxRecognizer
from cogtree.trees.voice.synthesizer import EspeakSynthesizer
from cogtree.trees.voice.vocabulary import robot_sentences

if shutil.which("espeak-ng") is None:
    pytest.skip(
        "the voice tests need espeak-ng: apt-get install -y espeak-ng", allow_module_level=True
    )
pytest.importorskip("pocketsphinx", reason="the voice tests need the voice extra")


@pytest.fixture(scope="session")
def synthesizer() -> EspeakSynthesizer:
    """espeak-ng with its default voice and speed."""
    return EspeakSynthesizer()


@pytest.fixture(scope="session")
def speech(synthesizer: EspeakSynthesizer) -> Callable[[str], Audio]:
    """espeak-ng saying a text, synthesised once per text for the whole run."""
    return cache(synthesizer.synthesize)


@pytest.fixture
def spoken(speech: Callable[[str], Audio], tmp_path: Path) -> Callable[[str], Path]:
    """A clip of espeak-ng saying a text, written as a WAV in the test's folder."""
    made = count(1)

    def clip(text: str) -> Path:
        return write_wav(speech(text), tmp_path / f"spoken{next(made)}.wav")

    return clip


@pytest.fixture(scope="session")
def home_sentences(shipped_packs: DomainRegistry) -> list[str]:
    """The robot's sentences: the shipped packs and the everyday home's names."""
    simulator = SimExecutor.from_scenario(load_scenario("everyday_home"))
    try:
        return robot_sentences(shipped_packs, simulator.belief.graph)
    finally:
        simulator.close()


SMALL_WORLD = [
    "where is the magazine",
    "where is the mug",
    "open the fridge",
    "open the cupboard",
    "bring me the mug from the kitchen",
    "put the apple in the fridge",
]
"""A few sentences of a small robot's own: exact transcripts, whatever the packs say."""


@pytest.fixture(scope="session")
def robot_recognizer() -> PocketsphinxRecognizer:
    """PocketSphinx constrained to :data:`SMALL_WORLD`."""
    return PocketsphinxRecognizer.for_sentences(SMALL_WORLD)


@pytest.fixture
def float_wav(tmp_path: Path) -> Path:
    """Half a second of a 440 Hz tone as a 32-bit floating-point WAV (made by sox)."""
    path = tmp_path / "float.wav"
    tone = ["synth", "0.5", "sine", "440"]
    subprocess.run(
        ["sox", "-n", "-r", "16000", "-e", "floating-point", "-b", "32", str(path), *tone],
        check=True,
    )
    return path
