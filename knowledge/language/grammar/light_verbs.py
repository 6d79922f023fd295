"""Light verbs: "give the hob a wipe" asks for the action its noun names (wipe the hob).

A light verb ("give") says little of its own when a noun of action follows its object: after
the object, "a" or "an", at most :data:`MOST_MANNER_WORDS` words that say how ("a quick", "a
good") and a noun that is also a verb of the grammar ("a wipe", "a polish", "a wipe down")
ask for that verb's action on the object, when nothing but the clause's end, a conjunction
or a preposition follows ("give it a quick polish with the cloth"). A noun that names an act
though no verb of the grammar is one too ("give the plant a good drench", "give nana a hug":
an action the robot does not have, asked or declined as such, never a thing given). "give
nana a clean towel" stays a thing given: a towel is no act. The words come from
:data:`~knowledge.wording.LIGHT_VERBS` (the scene's descriptions read them too: "something to
give the soup a stir with"), the grammar's actions' verbs (``request_words.yaml``) and the
dictionary (``acts``), none are written here.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Final

ARTICLES: Final = frozenset(["a", "an"])
"""The words that open a noun of action after the light verb's object."""
MOST_MANNER_WORDS: Final = 2
"""How many words may say how between the article and the noun ("a good hard scrub")."""


@dataclass(frozen=True)
class NounOfAction:
    """A noun of action found after a light verb's object: its words and the verb it names."""

    size: int  # the words from the article to the noun's end
    verb: tuple[str, ...]  # the verb of the grammar the noun is ("wipe", "wipe down")


def noun_of_action(
    words: Sequence[str],
    at: int,
    verbs: Mapping[tuple[str, ...], object],
    *,
    manner: Callable[[str], bool],
    ends: Callable[[int], bool],
    acts: Callable[[str], bool],
) -> NounOfAction | None:
    """The noun of action that starts at ``at`` in ``words``, else None.

    ``verbs`` are the grammar's verbs (longest match wins), ``manner`` says whether a word
    may say how (a content word), ``ends`` whether the clause's request ends at an index,
    ``acts`` whether a word no verb of the grammar is names an act.
    """
    if at >= len(words) or words[at] not in ARTICLES:
        return None
    for skipped in range(MOST_MANNER_WORDS + 1):
        start = at + 1 + skipped
        if start >= len(words) or (skipped and not manner(words[start - 1])):
            return None
        for size in range(min(3, len(words) - start), 0, -1):
            verb = tuple(words[start : start + size])
            if (verb in verbs or (size == 1 and acts(verb[0]))) and ends(start + size):
                return NounOfAction(size=start + size - at, verb=verb)
    return None
