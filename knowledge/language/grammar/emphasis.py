"""Emphasis after a question word: "where on earth", "what the heck", "who in the world".

Said for feeling, it asks nothing of its own, but the grammar would read "where on earth did I
put my glasses" as a question about "earth". :func:`without_emphasis` leaves it out before
the grammar reads a text. The phrases are the ``emphatics`` of the grammar's words
(``request_words.yaml``); they are left out only right after a question word, so "the keys
on earth" or "the heck" elsewhere stay as said.
"""

from __future__ import annotations

import functools
import re
from typing import Final

from cogtree.knowledge.language.grammar.words import request_words

QUESTION_WORDS: Final = ("what", "where", "who", "why", "how", "which", "when")
"""The words a question opens with that emphasis may follow."""


@functools.cache
def _emphasis() -> re.Pattern[str]:
    phrases = sorted((" ".join(words) for words in request_words().emphatics), key=len)
    said = "|".join(re.escape(phrase).replace(r"\ ", r"\s+") for phrase in reversed(phrases))
    return re.compile(rf"\b({'|'.join(QUESTION_WORDS)})\s+(?:{said})\b", re.IGNORECASE)


def without_emphasis(text: str) -> str:
    """``text`` without the emphasis after its question words ("where on earth" -> "where")."""
    return _emphasis().sub(r"\1", text)
