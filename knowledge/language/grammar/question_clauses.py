"""A question with a clause of its own after "or": "is there any bread left or did they eat it".

The grammar reads every phrase after a question's verb as a thing asked about. After "or", a
phrase that opens with a verb ("did they eat", "has it run out": the grammar's copulas and
other verbs) is a second question about the same things, not a thing: the question asks
about the things before it (:func:`asked_about`), so its kind is what was asked about ("any
bread left": bread, read by the scene question).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, TypeVar

from cogtree.knowledge.language.grammar.words import request_words


class Said(Protocol):
    """A phrase as the grammar read it: its words, and whether "or" joined it."""

    @property
    def text(self) -> str:
        """The phrase's words as said."""

    @property
    def alternative(self) -> bool:
        """Whether "or" joined it to the phrase before."""


P = TypeVar("P", bound=Said)


def asked_about(phrases: Sequence[P]) -> list[P]:
    """``phrases`` up to the first alternative that opens with a verb (a question of its own)."""
    words = request_words()
    verbs = words.copulas | words.other_verbs
    for at, phrase in enumerate(phrases):
        opening = phrase.text.split()[:1]
        if at and phrase.alternative and opening and opening[0].lower() in verbs:
            return list(phrases[:at])
    return list(phrases)
