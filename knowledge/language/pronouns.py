"""Pronouns: the words that stand for a thing or a person named elsewhere, and what they stand for.

The word sets say which pronoun stands for what kind of referent ("it" a thing, "her" a
person, "them" either); :func:`antecedent` is the one resolver that picks what a pronoun
stands for among the things and people named: in the same utterance ("take Mr Okafor's pills
to him", :mod:`knowledge.understanding.slot_filling`) or in an earlier turn ("the teapot is by
the sink" ... "pour the milk into it", :func:`knowledge.understanding.frame_tasks.with_referent`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Final, TypeVar

THING_PRONOUNS: Final = frozenset(["it", "them", "that", "this"])
"""Pronouns that stand for a thing said before ("wipe the tray, then set the cup on it")."""

PLURAL_PRONOUNS: Final = frozenset(["them", "these", "those"])
"""Pronouns that stand for every thing said before, not one ("take the cups and wash them")."""

PERSON_PRONOUNS: Final = frozenset(["he", "she", "him", "her"])
"""Pronouns that stand for a person named before ("grandma is tired" ... "help her")."""

OBJECT_OR_PERSON: Final = frozenset(["them", "him", "her"])
"""Pronouns that may stand for a thing or a person named before ("drop him in the bin")."""

PRONOUN_VALUES: Final = THING_PRONOUNS | PLURAL_PRONOUNS | OBJECT_OR_PERSON
"""Slot values that name nothing on their own: a pronoun of a thing or a person."""

T = TypeVar("T")


def antecedent(
    pronoun: str,
    things: Sequence[T],
    people: Sequence[T],
    *,
    taken: Callable[[T], bool] = lambda _: False,
    topic_first: bool = False,
) -> T | None:
    """What ``pronoun`` stands for among what was named, in order of mention; else None.

    A person pronoun (:data:`PERSON_PRONOUNS`) takes one of ``people``, any other one of
    ``things``; what ``taken`` says another slot holds already is never taken again. With
    ``topic_first`` (what an earlier turn talked about: its first mention is its topic) the
    first candidate left is taken; otherwise (this utterance) only one candidate is an
    answer: two are a real choice ("take Anna's glasses from Dr Weber to her"), for the user.
    """
    named = people if pronoun.lower() in PERSON_PRONOUNS else things
    left = [candidate for candidate in named if not taken(candidate)]
    if topic_first or len(left) == 1:
        return left[0] if left else None
    return None
