"""Putting a liquid into something is pouring it: "stick a splash of milk in my tea".

English puts a liquid with any verb of putting ("put", "stick", "add", "pop"), and what is
put says it is a liquid in one of two ways:

- the measure it is asked in is one only liquids come in (:data:`LIQUID_MEASURES`: "a splash
  of", "a drop of", "a dash of"), wherever it goes;
- it is a drink the household taxonomy knows ("some milk", "a bit of juice") and it goes into
  a vessel made for liquids (the taxonomy's ``holds_liquid`` flag: a glass, a jug) or into a
  drink ("in my tea"): "put the milk in the fridge" or "in the basket" stays a carton moved.

:func:`poured` says whether a step of putting is a pour by those rules; the grammar then reads
it as one (what is put is poured, into the place said).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from cogtree.knowledge.scene.taxonomy import DRINK, household_taxonomy

LIQUID_MEASURES: Final = frozenset(["splash", "drop", "dash", "drizzle", "glug", "drip", "trickle"])
"""Measures only a liquid is asked in ("a splash of milk")."""

INTO: Final = frozenset(["in", "into"])
"""Relations of a place a liquid is poured into."""

HOLDS_LIQUID: Final = "holds_liquid"
"""The taxonomy's flag of a vessel made to hold a liquid."""


def poured(quantities: Sequence[str], heads: Sequence[str], relation: str, place: str) -> bool:
    """Whether putting ``heads`` (asked in ``quantities``) ``relation`` ``place`` pours them.

    It does when all of them are liquids by their measure, or drinks going into a vessel or a
    drink. ``quantities``: each thing's quantity words as said ("a splash of", "" for none);
    ``place``: the head word of where they go ("tea", "glass").
    """
    if not heads or relation not in INTO:
        return False
    measured = [bool(LIQUID_MEASURES.intersection(quantity.split())) for quantity in quantities]
    if all(measured):
        return True
    return all(_a_drink(head) for head in heads) and (_a_drink(place) or _holds_liquid(place))


def _a_drink(word: str) -> bool:
    """Whether ``word`` names a type of drink ("milk", "tea")."""
    taxonomy = household_taxonomy()
    kind = taxonomy.type_named(word)
    return kind is not None and (kind == DRINK or taxonomy.is_a(kind, DRINK))


def _holds_liquid(word: str) -> bool:
    """Whether ``word`` names a type of vessel made for liquids ("glass", "jug")."""
    taxonomy = household_taxonomy()
    kind = taxonomy.type_named(word)
    return kind is not None and HOLDS_LIQUID in taxonomy.properties(kind).flags
