"""Which of the things a description matched it means, when words match in weaker ways.

Each rule drops things matched in a weaker way when others match in a stronger one (the
ways are :data:`Way` tuples of :mod:`.resolution`): the whole name over word-by-word matches,
the head noun's kind over a describing word, a thing's own name over a type's synonym, a
type over the last word of a longer type's name. :func:`label_guess` says when what is left
matched only by the words of labels: a guess that answers, never one acted on.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from collections.abc import Set as AbstractSet
from typing import Final

from cogtree.knowledge.node_tables import union
from cogtree.knowledge.scene.referents.description import PRONOUN_NOUNS, Phrase
from cogtree.knowledge.scene.scene_models import Candidate
from cogtree.knowledge.wording import joined, singular

Way = tuple[str, str, AbstractSet[str]]
"""How a term matches (``type``, ``label``...), the detail said in the reason, and the things."""


def whole_name_wins(found: set[str], terms: dict[str, list[Way]], phrase: Phrase) -> set[str]:
    """A thing called by the whole description wins over things matched word by word.

    "the ceramic dinner plate" is the thing labelled so, not the ceramic salad plate that
    matches "ceramic" by its material and "dinner plate" by its type's synonym. Only for
    descriptions of two words or more: "the mug" still matches every mug.
    """
    if len(phrase.content) < 2:
        return found
    whole = {term.text for term in phrase.terms() if term.covers == phrase.content}
    named = union(
        nodes & found for term in whole for how, _, nodes in terms.get(term, ()) if how == "label"
    )
    return named or found


BY_KIND: Final = frozenset(["type", "head", "label", "named", "named kind"])
"""How a term matches when it names what the thing is (its type or its own name)."""

DESCRIBING: Final = frozenset(["attribute", "flag"])
"""How a term matches when it only describes the thing (a material, a colour)."""


def head_by_kind(
    found: set[str],
    terms: dict[str, list[Way]],
    phrase: Phrase,
    called: Callable[[str], AbstractSet[str]],
) -> set[str]:
    """The last word names what the thing is: "a glass" is a glass, not a glass bottle.

    Things that match the description's last word only by an attribute (a material, a
    colour) are dropped when other things are of that kind or called so: by their type, or
    by the last word of their own label (``called``: the things a word heads the label of;
    "the paper" is the newspaper labelled so, not the letters made of paper). A description
    whose noun is "one" or "something" ("the glass one", "something glass") describes by
    every word and is left alone.
    """
    if not phrase.content or PRONOUN_NOUNS & set(phrase.words):
        return found
    last = max(phrase.content)
    heads = {term.text for term in phrase.terms() if term.covers == frozenset([last])}
    ways = [(how, nodes & found) for term in heads for how, _, nodes in terms.get(term, ())]
    described = union(nodes for how, nodes in ways if how in DESCRIBING)
    headed = described & called(singular(phrase.words[last]))  # "the paper": labelled so
    if not union(nodes for how, nodes in ways if how in BY_KIND) and not headed:
        return found
    others = union(nodes for how, nodes in ways if how not in DESCRIBING)
    return found - (described - others - headed)


def named_over_typed(found: set[str], terms: dict[str, list[Way]]) -> set[str]:
    """A type's synonym never makes a named thing ambiguous.

    Things that match a term only through a synonym of their type are dropped when another
    thing is called by that term: "the frying pan" names the thing labelled frying pan, not
    every pan (the taxonomy lists "frying pan" as a synonym of pan); "the pan", the type's own
    label, still matches both.
    """
    dropped: set[str] = set()
    for term, ways in terms.items():
        if not any(how == "label" and not found.isdisjoint(nodes) for how, _, nodes in ways):
            continue
        synonym = union(
            nodes & found for how, detail, nodes in ways if how == "type" and detail != term
        )
        dropped |= synonym - union(
            nodes & found for how, detail, nodes in ways if how != "type" or detail == term
        )
    return found - dropped


def typed_over_headed(found: set[str], terms: dict[str, list[Way]]) -> set[str]:
    """A thing of the kind a word names wins over things whose type's name only ends on it.

    "the bottle" is the bottle of vinegar (a bottle) when there is one, not the water bottle;
    with no thing of that kind, every thing whose type's name ends on "bottle" is one.
    """
    dropped: set[str] = set()
    for ways in terms.values():
        typed = union(nodes & found for how, _, nodes in ways if how != "head")
        if typed:
            dropped |= union(nodes & found for how, _, nodes in ways if how == "head") - typed
    return found - dropped


HOW_BIG: Final = "how big"
"""What a reason says of a size word a guess was made without (:mod:`.resolution`)."""


def label_guess(candidates: Sequence[Candidate], item: str) -> str | None:
    """Why ``candidates`` are no referent to act on: each is a guess (``by_label``).

    None when any was matched otherwise (or there are none). Such a guess may answer a question
    about the scene; a task that acts on things asks instead.
    """
    if not candidates or not all(candidate.by_label for candidate in candidates):
        return None
    labels = joined([f"the {candidate.label}" for candidate in candidates], "or")
    if any(HOW_BIG in reason for c in candidates for reason in c.reasons):  # "the big pot"
        return f"'{item}': perhaps {labels}, by {HOW_BIG} it was said to be; not acted on"
    return f"'{item}': only the words of {labels} match; not acted on"
