"""Value types for command-line options, with messages that say what to give instead."""

from __future__ import annotations

import argparse

from cogtree.trees.assistant_session import MAX_UTTERANCE_CHARS


def _whole_number(text: str, least: int) -> int:
    try:
        number = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if number < least:
        raise argparse.ArgumentTypeError(f"give a number of at least {least}, not {number}")
    return number


def positive_int(text: str) -> int:
    """A whole number of at least 1 (``--limit 5``); argparse reports anything else."""
    return _whole_number(text, 1)


def non_negative_int(text: str) -> int:
    """A whole number of at least 0 (a count that may be none)."""
    return _whole_number(text, 0)


def positive_float(text: str) -> float:
    """A number above 0 (a rate, a duration)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not value > 0:
        raise argparse.ArgumentTypeError(f"give a number above 0, not {text}")
    return value


def error_rate(text: str) -> float:
    """A target error rate strictly between 0 and 1 (``--epsilon 0.15``)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not 0 < value < 1:
        raise argparse.ArgumentTypeError(f"give a number between 0 and 1, not {text}")
    return value


def utterance(text: str) -> str:
    """What the user says: at most :data:`~trees.assistant_session.MAX_UTTERANCE_CHARS`."""
    if len(text) > MAX_UTTERANCE_CHARS:
        raise argparse.ArgumentTypeError(
            f"the utterance is {len(text):,} characters long; a turn takes at most "
            f"{MAX_UTTERANCE_CHARS:,}: say it in fewer words"
        )
    return text
