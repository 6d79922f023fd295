"""What a thing "needs" says what state it is in: "it needs cleaning" is said of a dirty thing.

A verb that undoes an unfit state (:data:`REMEDIES`: clean, mend, refill, sharpen, charge)
names the state the thing is in now (:data:`~knowledge.scene.fit_for_use.UNFIT_STATES`), so a
description told by a need ("the one that needs washing", "something that wants mending")
is read as one told by that state, and one remedy covers every state it undoes
(:func:`alike_states`: "dirty" and "used" both need washing). Needs with no such verb ("it
needs a lid") are left as said.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from cogtree.knowledge.wording import verb_bases

ALIKE_STATES: Final = (
    frozenset(["dirty", "stained", "muddy", "greasy", "filthy", "soiled", "used"])
    | frozenset(["mouldy", "moldy"]),
    frozenset(["broken", "cracked", "chipped", "damaged", "torn", "leaking", "leaky"]),
    frozenset(["empty"]),
    frozenset(["dull", "blunt"]),
    frozenset(["flat", "dead"]),
)
"""Unfit states one remedy undoes: a thing in any of them needs that remedy."""

REMEDIES: Final = {
    **dict.fromkeys(["clean", "wash", "rinse", "scrub", "wipe", "launder"], "dirty"),
    **dict.fromkeys(["fix", "repair", "mend", "glue", "patch"], "broken"),
    **dict.fromkeys(["fill", "refill"], "empty"),
    **dict.fromkeys(["sharpen", "hone"], "blunt"),
    **dict.fromkeys(["charge", "recharge"], "flat"),
}
"""A verb that undoes an unfit state -> that state."""

NEED_WORDS: Final = frozenset(["need", "needs", "needed", "needing", "want", "wants"])
"""Words that say what a thing lacks ("it needs cleaning", "the one that wants mending")."""

NEED_FILLERS: Final = frozenset(["to", "be", "a", "an", "some", "good", "bit", "of"])
"""Words between a need word and the verb ("needs to be washed", "needs a good scrub")."""

RELATIVE_WORDS: Final = frozenset(["that", "which", "who"])
"""Words that open a relative clause ("the one that needs mending")."""


def alike_states(state: str) -> frozenset[str]:
    """``state`` and the unfit states one remedy undoes with it ("dirty": also "used")."""
    return next((alike for alike in ALIKE_STATES if state in alike), frozenset([state]))


def needed_state(verb: str) -> str | None:
    """The unfit state of a thing that needs ``verb`` done ("cleaning": dirty); else None."""
    return next((REMEDIES[form] for form in (verb, *verb_bases(verb)) if form in REMEDIES), None)


def in_need(words: Sequence[str]) -> list[str]:
    """``words`` with a need read as the state it says: "one that needs washing" -> "one dirty".

    A need word, optional fillers, then a verb that undoes a state (:func:`needed_state`)
    become that state; the relative word before the need goes with it. Other words, and
    needs of other verbs, are kept as said.
    """
    for index, word in enumerate(words):
        if word not in NEED_WORDS:
            continue
        end = index + 1
        while end < len(words) - 1 and words[end] in NEED_FILLERS:
            end += 1
        state = needed_state(words[end]) if end < len(words) else None
        if state is not None:
            kept = list(words[:index])
            if kept and kept[-1] in RELATIVE_WORDS:
                kept.pop()
            return [*kept, state, *words[end + 1 :]]
    return list(words)
