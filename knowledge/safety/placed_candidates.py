"""A referent's candidates placed before the speaker, and what each is for safety.

:func:`placed_referents` runs on a worker: the candidates an item may refer to and, when
several are asked for and the speaker is known, where each is (in the speaker's room) and
what it is (:func:`~knowledge.safety.thing_properties.what_it_is`) with whose it is, for the
rules of :mod:`knowledge.scene.fit_for_use` that say which of them will do.
"""

from __future__ import annotations

from dataclasses import replace

from cogtree.knowledge.safety.thing_properties import Descriptions, Reading, what_it_is
from cogtree.knowledge.scene.fit_for_use import named_part
from cogtree.knowledge.scene.referents.resolution import ASKED_LIMIT
from cogtree.knowledge.scene.scene_graph import SceneGraph
from cogtree.knowledge.scene.scene_models import Candidate

Placed = tuple[list[Candidate], dict[str, str], dict[str, Reading]]
"""A referent's candidates and, when asked for, where each is believed to be and what it is
for safety (:func:`~knowledge.safety.thing_properties.what_it_is` over its type, label, id,
material and flags) with whose it is (its owners, last), for
:func:`~knowledge.scene.fit_for_use.any_will_do` and
:func:`~knowledge.scene.fit_for_use.any_one_will_do`."""


def placed_referents(scene: SceneGraph, item: str, speaker: str | None, *, placed: bool) -> Placed:
    """The candidates ``item`` may refer to and, when ``placed`` and several, their places.

    Runs on a worker. A place is ``"<relation> <support>"`` ("on counter") for a candidate in
    the room the speaker is in (they see it, a swap is at hand), "" for any other; but for
    things of one name in one place wherever it is (two toilet rolls in the airing cupboard):
    nobody could say which of them is meant, so either is the one.
    """
    candidates = scene.resolve_referent(item, speaker, limit=ASKED_LIMIT)
    places: dict[str, str] = {}
    readings: dict[str, Reading] = {}
    if not placed or len(candidates) < 2 or speaker is None:
        return candidates, places, readings
    here = scene.locate_object(speaker)
    room = here.room or here.support if here is not None else None
    located = {candidate.id: scene.locate_object(candidate.id) for candidate in candidates}
    spots = {(where.relation, where.support) if where else None for where in located.values()}
    indistinct = len({c.label for c in candidates}) == 1 and len(spots) == 1 and None not in spots
    for candidate in candidates:
        where = located[candidate.id]
        seen = indistinct or (where is not None and room is not None and where.room == room)
        places[candidate.id] = f"{where.relation} {where.support}" if where and seen else ""
        node = scene.index.node(candidate.id)
        values = dict(node.values) if node is not None else {}
        flags = frozenset(node.flags) if node is not None else frozenset()
        whole = Descriptions(
            candidate.id, candidate.type, candidate.label, values.get("material"), flags=flags
        )
        owners = frozenset(node.owners) if node is not None else frozenset()
        # what it is: the label before where ("lamp by the sofa"); what it holds: all of it
        types, kinds, *rest = what_it_is(replace(whole, label=named_part(candidate.label)))
        _, held_kinds, _, _, held_itself = what_it_is(whole)  # "jar ... with weedkiller"
        readings[candidate.id] = (types, kinds, *rest, held_kinds, held_itself, owners)
    return candidates, places, readings
