"""Audio clips: read from WAV files (converted to what the recogniser takes), checked, written.

A clip is 16-bit mono samples at a rate. :func:`read_wav` converts what is cheap to convert
(stereo to mono, 8/24/32-bit integer samples to 16-bit, any rate to :data:`SPEECH_RATE`) and
refuses the rest (compressed or floating-point WAV, a file that is no WAV) with an
:class:`AudioError` naming the file and the ``sox`` command that converts it.
:func:`speech_problem` says why a clip cannot hold a request: empty, silent or clipped.
"""

from __future__ import annotations

import struct
import wave
from dataclasses import dataclass
from math import gcd
from pathlib import Path
from typing import BinaryIO

import numpy as np
import numpy.typing as npt

SPEECH_RATE = 16_000
"""Samples per second the recogniser takes (PocketSphinx's US English model)."""
FULL_SCALE = 32_767
SHORTEST_S = 0.25
"""A clip shorter than this holds no request."""
SILENT_PEAK = 0.01
"""A clip whose loudest sample is below this fraction of full scale is silence."""
CLIPPED_SHARE = 0.005
"""A clip with more than this share of its samples at full scale is clipped."""

Samples = npt.NDArray[np.int16]


class AudioError(ValueError):
    """An audio file that cannot be read; the message names the file and the fix."""


@dataclass(frozen=True)
class Audio:
    """Mono 16-bit samples and their rate."""

    samples: Samples
    rate: int

    @property
    def seconds(self) -> float:
        """The clip's duration."""
        return len(self.samples) / self.rate if self.rate else 0.0

    def at_rate(self, rate: int) -> Audio:
        """The clip resampled to ``rate`` (itself when it is at that rate).

        SciPy is imported here, not with the module: the command line reads the voice
        engines' names from :mod:`.synthesizer` for every subcommand, and SciPy's signal
        package costs more than a second of CPU to import.
        """
        from scipy.signal import resample_poly

        if rate == self.rate or not len(self.samples):
            return Audio(self.samples, rate)
        common = gcd(rate, self.rate)
        resampled = resample_poly(
            self.samples.astype(np.float64), rate // common, self.rate // common
        )
        return Audio(to_int16(resampled / FULL_SCALE), rate)


def to_int16(signal: npt.NDArray[np.floating]) -> Samples:
    """Float samples in [-1, 1] as 16-bit integers (beyond full scale: clipped)."""
    return np.asarray(np.clip(np.round(signal * FULL_SCALE), -FULL_SCALE, FULL_SCALE), np.int16)


SOX_HINT = "convert it with: sox {path} -r 16000 -c 1 -b 16 -e signed-integer converted.wav"


def read_wav(path: str | Path) -> Audio:
    """The WAV file at ``path`` as a mono 16-bit clip at :data:`SPEECH_RATE`.

    Raises :class:`AudioError` for a missing file or one that is no integer PCM WAV.
    """
    path = Path(path)
    try:
        with path.open("rb") as stream:
            return read_wav_bytes(stream, rate=SPEECH_RATE)
    except FileNotFoundError as error:
        raise AudioError(f"{path}: no such audio file") from error
    except AudioError as error:
        raise AudioError(f"{path}: {error}; {SOX_HINT.format(path=path)}") from error


def read_wav_bytes(stream: BinaryIO, *, rate: int | None) -> Audio:
    """The WAV in ``stream`` as a mono 16-bit clip at ``rate`` (None: the file's own).

    Plain and extensible integer PCM are read; anything else raises :class:`AudioError`.
    """
    fmt, data = _chunks(stream.read())
    if len(fmt) < 16:
        raise AudioError("not a WAV file (no format chunk)")
    tag, channels, own_rate, _, _, bits = struct.unpack("<HHIIHH", fmt[:16])
    if tag == EXTENSIBLE and len(fmt) >= 26:
        tag = struct.unpack("<H", fmt[24:26])[0]
    width = bits // 8
    if tag != PCM or width not in (1, 2, 3, 4) or not channels:
        raise AudioError(f"not an integer PCM WAV (format {tag}, {bits}-bit)")
    signal = _as_float(data[: len(data) - len(data) % (width * channels)], width)
    audio = Audio(to_int16(signal.reshape(-1, channels).mean(axis=1)), own_rate)
    return audio.at_rate(rate or own_rate)


PCM, EXTENSIBLE = 1, 0xFFFE


def _chunks(raw: bytes) -> tuple[bytes, bytes]:
    """The format and data chunks of RIFF WAV bytes (a truncated data chunk: what is there)."""
    if raw[:4] != b"RIFF" or raw[8:12] != b"WAVE":
        raise AudioError("not a WAV file (no RIFF WAVE header)")
    found: dict[bytes, bytes] = {}
    at = 12
    while at + 8 <= len(raw):
        name, size = raw[at : at + 4], struct.unpack("<I", raw[at + 4 : at + 8])[0]
        found.setdefault(name, raw[at + 8 : at + 8 + size])
        at += 8 + size + size % 2
    return found.get(b"fmt ", b""), found.get(b"data", b"")


def _as_float(raw: bytes, width: int) -> npt.NDArray[np.float64]:
    """PCM bytes of ``width`` bytes a sample as floats in [-1, 1]."""
    if width == 1:  # unsigned 8-bit
        return (np.frombuffer(raw, np.uint8).astype(np.float64) - 128.0) / 128.0
    if width == 3:  # 24-bit little-endian: widen to 32 bits
        triples = np.frombuffer(raw, np.uint8).reshape(-1, 3)
        padded = np.zeros((len(triples), 4), np.uint8)
        padded[:, 1:] = triples
        return np.asarray(padded.view("<i4").ravel(), np.float64) / 2**31
    kinds = {2: "<i2", 4: "<i4"}
    full = float(1 << (8 * width - 1))
    return np.asarray(np.frombuffer(raw, kinds[width]), np.float64) / full


def write_wav(audio: Audio, path: str | Path) -> Path:
    """Write ``audio`` to ``path`` as 16-bit mono PCM; return the path."""
    path = Path(path)
    with wave.open(str(path), "wb") as writer:
        writer.setnchannels(1)
        writer.setsampwidth(2)
        writer.setframerate(audio.rate)
        writer.writeframes(audio.samples.astype("<i2").tobytes())
    return path


def speech_problem(audio: Audio) -> str | None:
    """Why ``audio`` cannot hold a request (empty, silent, clipped), or None when it may."""
    if audio.seconds < SHORTEST_S:
        return f"the audio is empty ({audio.seconds:.2f} s): nothing was said"
    magnitude = np.abs(audio.samples.astype(np.int32))
    peak = float(magnitude.max()) / FULL_SCALE
    if peak < SILENT_PEAK:
        return (
            f"the audio is silent (loudest sample {peak:.1%} of full scale): speak closer to "
            "the microphone or raise its input level"
        )
    clipped = float(np.mean(magnitude >= FULL_SCALE - 1))
    if clipped > CLIPPED_SHARE:
        return (
            f"the audio is clipped ({clipped:.1%} of its samples at full scale): lower the "
            "microphone's input level or speak further from it"
        )
    return None
