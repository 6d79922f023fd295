"""Value types for command-line options, with messages that say what to give instead."""

from __future__ import annotations

import argparse


def positive_int(text: str) -> int:
    """A whole number of at least 1 (``--limit 5``); argparse reports anything else."""
    try:
        number = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if number < 1:
        raise argparse.ArgumentTypeError(f"give a number of at least 1, not {number}")
    return number
