"""What is kept where, and what no guess may hand over.

A fridge keeps what is in it cold: "something cold" is what is inside a fridge
(:func:`kept_in`). A thing matched only by a guess (where it is kept, or a definition's words)
is never one whose flags say it harms when wrong (:data:`NOT_KEPT`: a medicine, a chemical,
a blade, a heat source, a device): :func:`harmless`.
"""

from __future__ import annotations

from collections.abc import Set as AbstractSet
from typing import Final

from cogtree.knowledge.node_tables import union
from cogtree.knowledge.scene.scene_index import SceneIndex
from cogtree.knowledge.scene.taxonomy import household_taxonomy


def harmless(index: SceneIndex, nodes: AbstractSet[str]) -> set[str]:
    """Of ``nodes``, those whose own flags are none of :data:`NOT_KEPT` (no guess hands bleach)."""
    return {n for n in nodes if (node := index.node(n)) is None or not NOT_KEPT & {*node.flags}}


NOT_KEPT: Final = frozenset(
    ["medicine", "chemical", "sharp", "heat_source", "heatSource", "electrical"]
)
"""Flags (the taxonomy's, or the belief's own: ``heatSource``) of things never told by where
they are kept: "something cold" is no insulin, whether the belief flags it or its type does."""


def kept_in(index: SceneIndex, place: str) -> set[str]:
    """The typed objects inside ``place`` at any depth (on a shelf in the fridge, not on it).

    What is placed "in" it, and everything within those. Not those whose own or whose types'
    flags are :data:`NOT_KEPT` (a wrong guess harms), nor an object of no type (what it is is
    not known).
    """
    taxonomy = household_taxonomy()
    inside = {
        thing
        for thing in index.within(place)
        if (node := index.node(thing)) is not None and ("in", place) in node.placements
    }
    within = index.among_classes(union([inside, *map(index.within, inside)]), ["Object"])
    return {
        thing
        for thing in harmless(index, within)
        if (node := index.node(thing)) is not None
        and node.types
        and not any(NOT_KEPT & taxonomy.properties(kind).flags for kind in node.types)
    }
