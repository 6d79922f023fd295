"""Whether an utterance is put as a question to the robot: by how it starts.

A question starts with a wh-word ("what", "where", "how many"), an inverted verb ("am I",
"do you", "is my"), or asks to be told ("tell me", "remind me"). "What about the white one?"
and "how about the shelf?" offer an answer rather than ask, and a bare question mark ("the
white one?") is a hesitant answer: neither counts here (:func:`asks_the_robot`).

:func:`asks_whether` is wider: any yes/no question about something ("does the soup have
celery", "would risotto be fine"), or a sentence ending in a question mark, but not a request
put as a question ("could you swap it").
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


POLAR_START = re.compile(
    r"^\s*(is|isn't|are|aren't|was|were|does|doesn't|do|don't|did|has|have|had|can|could|may|"
    r"might|should|would|will)\s+(?!you\b|u\b)\w",
    re.IGNORECASE,
)
"""How a yes/no question about something starts: an auxiliary verb, then anything but "you"."""


def asks_whether(text: str) -> bool:
    """Whether ``text`` asks a question (module docstring).

    A question to the robot, a yes/no question about something, or a sentence that ends with
    a question mark.
    """
    return (
        asks_the_robot(text)
        or POLAR_START.search(text) is not None
        or (text.rstrip().endswith("?") and OFFERS_AN_ANSWER.search(text) is None)
    )
