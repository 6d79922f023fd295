"""The voice wing's one error of the machine: an engine or audio device it lacks."""

from __future__ import annotations


class VoiceUnavailable(RuntimeError):
    """A speech engine, library or audio device this machine lacks.

    The message names what is missing and how to get it (a package to install, a device to
    plug in, or the files to use instead).
    """
