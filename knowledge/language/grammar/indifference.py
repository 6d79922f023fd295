"""Words that leave the choice to the robot ("either", "whatever's there"), and hedges.

Words that hold one of the grammar's ``indifferent`` phrases (``request_words.yaml``) and
otherwise only say how to choose (:data:`HOW_TO_CHOOSE`, a closed list) leave the choice to
the robot: any one of the things that fit will do. So read are an answer to "which one?"
(:mod:`knowledge.understanding.answer_kinds`) and a remark after a request ("bring us a cold
drink, whatever's there": :mod:`knowledge.language.closing_tags` and
:func:`knowledge.understanding.told_apart.asks_for_any`). Such a remark is no hedge
(:data:`HEDGES`: the user unsure of their own request) and no negation ("I don't mind which").
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Final

from cogtree.knowledge.language.grammar.words import request_words

HEDGES: Final = re.compile(
    r"\b(maybe|perhaps|possibly|probably|i think|i guess|not sure|might|or something|"
    r"kind of|sort of|whatever)\b",
    re.IGNORECASE,
)
"""Words that say the user is unsure of their own request."""

OPINION: Final = re.compile(r"\b(?:i think|i guess|probably)\b", re.IGNORECASE)
"""The hedges that only give the user's view: in an answer to the robot's own question ("which
blanket?" - "the grey one I think") they still choose (:func:`without_opinion`)."""

CLAUSE: Final = re.compile(r"(?:^|[,.;:!?])\s*([^,.;:!?]*)")
"""A clause and the mark before it (none for the first): a remark, or the whole of an answer."""

HOW_TO_CHOOSE: Final = frozenset(
    ["nearest", "closest", "first", "fine", "ok", "okay", "honestly", "really", "one", "ones"]
).union(["i", "it", "it's", "is", "be", "will", "do", "there", "which", "of", "them", "the", "a"])
"""The only words that may stand beside an ``indifferent`` phrase: how to choose, and the
words around it ("either will do", "whichever one is nearest"). A closed list: "but not that
one", "except mine" or "whatever you do" say more, so they never leave the choice."""


def leaves_the_choice(text: str) -> bool:
    """Whether ``text`` holds an ``indifferent`` phrase and says nothing but how to choose.

    "whatever's there", "I don't mind which", "whichever's nearest": yes; "either way, ask
    my son" and "whatever you do" say more.
    """
    words, covered = indifferent_words(text)
    return bool(covered) and how_to_choose(
        [word for at, word in enumerate(words) if at not in covered]
    )


def without_choice_left(text: str) -> str:
    """``text`` without its clauses that leave the choice to the robot, the mark before each.

    "Pass me a mug, I don't mind which" -> "Pass me a mug"; an answer that only leaves the
    choice goes whole ("I don't mind" -> "", "Oh, I don't mind. Either" -> "Oh"): its "don't"
    is no negation.
    """
    return CLAUSE.sub(lambda said: "" if leaves_the_choice(said.group(1)) else said.group(0), text)


def without_opinion(text: str) -> str:
    """``text`` without the hedges that only give a view (:data:`OPINION`); others stay.

    "the grey one I think" -> "the grey one"; "maybe the grey one, or the red" keeps "maybe".
    """
    return OPINION.sub("", text)


def how_to_choose(rest: Iterable[str]) -> bool:
    """Whether the words beside an ``indifferent`` phrase only say how to choose.

    Beside them a form of address or a word a request may open with ("oh", "love") says
    nothing either ("Oh, either's fine, love").
    """
    return set(rest) - request_words().asides <= HOW_TO_CHOOSE


def indifferent_words(text: str) -> tuple[tuple[str, ...], set[int]]:
    """The words of ``text`` and the positions its ``indifferent`` phrases cover."""
    return phrases_in(text, request_words().indifferent)


def phrases_in(text: str, phrases: Iterable[tuple[str, ...]]) -> tuple[tuple[str, ...], set[int]]:
    """The words of ``text`` (lower case) and the positions the ``phrases`` said in it cover."""
    words = tuple(re.findall(r"[a-z0-9']+", text.lower().replace("\u2019", "'")))
    covered = {
        start + offset
        for phrase in phrases
        for start in range(len(words))
        if words[start : start + len(phrase)] == phrase
        for offset in range(len(phrase))
    }
    return words, covered
