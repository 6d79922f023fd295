"""Putting a drink into a drink or a drinking vessel is pouring it: "a splash of milk in my tea".

English puts a liquid with any verb of putting ("put", "stick", "add", "pop"). A step of
putting is read as a pour (:func:`poured`) when everything put is a drink the household
taxonomy knows ("some milk", "a splash of juice") and it goes in or into a drink ("my tea") or
a vessel made for drinking from (the taxonomy's drinkware: a glass, a mug). "Put the milk in
the fridge", "the wine in the ice bucket" or "a drop of the medicine in his juice" (no drink)
stay things moved. The measure said ("a splash") is not carried: the pour task has no amount.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from cogtree.knowledge.scene.taxonomy import DRINK, household_taxonomy

INTO: Final = frozenset(["in", "into"])
"""Relations of a place a drink is poured into."""

DRINKWARE: Final = "Drinkware"
"""The taxonomy's category of vessels made for drinking from."""


def poured(heads: Sequence[str], relation: str, place: str) -> bool:
    """Whether putting ``heads`` ``relation`` ``place`` pours them (see the module docs).

    ``heads``: the head word of each thing put ("milk"); ``place``: the head word of where
    they go ("tea", "glass").
    """
    if not heads or relation not in INTO:
        return False
    return all(_is_a(head, DRINK) for head in heads) and (
        _is_a(place, DRINK) or _is_a(place, DRINKWARE)
    )


def _is_a(word: str, category: str) -> bool:
    """Whether ``word`` names a type that is ``category`` or lies under it."""
    taxonomy = household_taxonomy()
    kind = taxonomy.type_named(word)
    return kind is not None and taxonomy.is_a(kind, category)
