"""Whether an utterance is put as a question to the robot: by how it starts.

A question starts with a wh-word ("what", "where", "how many"), an inverted verb ("am I",
"do you", "is my"), or asks to be told ("tell me", "remind me"). "What about the white one?"
and "how about the shelf?" offer an answer rather than ask, and a bare question mark ("the
white one?") is a hesitant answer: neither counts here.
"""

from __future__ import annotations

import re

QUESTION_START = re.compile(
    r"^\s*(what|what's|whats|who|who's|whom|whose|when|when's|where|where's|which|why|how|"
    r"am i|do i|did i|have i|was i|were i|is my|are my|do you|did you|have you|can you tell|"
    r"could you tell|tell me|remind me|is there|are there|is it|does it|does the|do the|"
    r"is the|are the|can i|may i)\b",
    re.IGNORECASE,
)
"""How a question to the robot starts."""

OFFERS_AN_ANSWER = re.compile(r"^\s*(what|how) about\b", re.IGNORECASE)
"""A question form that proposes an answer ("what about the white one?")."""


def asks_the_robot(text: str) -> bool:
    """Whether ``text`` starts like a question to the robot (module docstring)."""
    return QUESTION_START.search(text) is not None and OFFERS_AN_ANSWER.search(text) is None
