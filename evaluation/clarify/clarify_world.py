"""The kitchen an ask-or-act item runs in, built from the names of its ``scene_objects``.

Two layouts (:data:`~evaluation.clarify.clarify_data.Layout`):

- ``tabletop`` (KnowNo-style): an office kitchen with a counter, a top and a bottom drawer, and
  landfill, recycling and compost bins; every object stands on the counter.
- ``kitchen`` (AmbiK-style): a counter, a table, a fridge, a cupboard, a drawer, a sink, a stove
  and the three bins; each object is where things of its type usually are (the taxonomy's
  ``usualPlace``, when the kitchen has such a place), else on the counter.

Each object's label is the name as given; its type comes from the household taxonomy
(:meth:`~knowledge.scene.taxonomy.Taxonomy.type_named`), else it is a generic :data:`GENERIC_TYPE`,
so a name no scene knows is still in the world under the words the user may use. A material
word in the name ("metal bowl") or the type's typical material becomes its ``material``.
The robot and the user (:data:`USER`) are in the kitchen; the robot knows every object.
"""

from __future__ import annotations

import re
from typing import Any

from cogtree.evaluation.clarify.clarify_data import ClarifyItem
from cogtree.knowledge.scene.taxonomy import Taxonomy
from cogtree.sim.scenario import Scenario

USER = "user"
"""The id of the person who speaks (and receives what is brought)."""

ROBOT = "robot1"
"""The id of the robot the tree drives."""

GENERIC_TYPE = "HouseholdThing"
"""The type of an object whose name the taxonomy does not know (declared by the world)."""

NOT_GRASPABLE = frozenset({"Appliance", "FurniturePiece", "LargeAppliance"})
"""Categories whose things the robot does not pick up (a microwave, a chair)."""

_BINS: dict[str, Any] = {
    "landfill_bin": {
        "kind": "container",
        "type": "TrashCan",
        "room": "kitchen",
        "height_m": 0.5,
        "open": True,
        "label": "landfill bin",
        "bin": "landfill",
        "synonyms": ["trash", "rubbish bin", "garbage bin", "landfill"],
    },
    "recycling_bin": {
        "kind": "container",
        "type": "RecyclingBin",
        "room": "kitchen",
        "height_m": 0.5,
        "open": True,
        "label": "recycling bin",
        "bin": "recycling",
        "synonyms": ["recycling"],
    },
    "compost_bin": {
        "kind": "container",
        "type": "CompostBin",
        "room": "kitchen",
        "height_m": 0.5,
        "open": True,
        "label": "compost bin",
        "bin": "compost",
        "synonyms": ["compost"],
    },
}

_TABLETOP: dict[str, Any] = {
    "counter": {
        "kind": "surface",
        "type": "Counter",
        "room": "kitchen",
        "height_m": 0.9,
        "label": "counter",
    },
    "top_drawer": {
        "kind": "container",
        "type": "Drawer",
        "room": "kitchen",
        "height_m": 0.8,
        "label": "top drawer",
    },
    "bottom_drawer": {
        "kind": "container",
        "type": "Drawer",
        "room": "kitchen",
        "height_m": 0.45,
        "label": "bottom drawer",
    },
    **_BINS,
}

_KITCHEN: dict[str, Any] = {
    "counter": _TABLETOP["counter"],
    "kitchen_table": {
        "kind": "surface",
        "type": "Table",
        "room": "kitchen",
        "height_m": 0.75,
        "label": "kitchen table",
    },
    "fridge": {"kind": "container", "type": "Fridge", "room": "kitchen", "height_m": 1.0},
    "cupboard": {"kind": "container", "type": "Cupboard", "room": "kitchen", "height_m": 1.4},
    "drawer": {"kind": "container", "type": "Drawer", "room": "kitchen", "height_m": 0.8},
    "sink": {"kind": "surface", "type": "Sink", "room": "kitchen", "height_m": 0.85},
    "stove": {"kind": "surface", "type": "Stove", "room": "kitchen", "height_m": 0.9},
    **_BINS,
}

PLACE_WORDS = {
    "fridge": "fridge",
    "freezer": "fridge",
    "cupboard": "cupboard",
    "pantry": "cupboard",
    "cabinet": "cupboard",
    "shelf": "cupboard",
    "drawer": "drawer",
    "counter": "counter",
    "table": "kitchen_table",
    "sink": "sink",
    "stove": "stove",
}
"""A usual-place word of the taxonomy -> the piece of furniture of the kitchen layout."""


def item_scenario(item: ClarifyItem, taxonomy: Taxonomy) -> Scenario:
    """The scenario of an item with ``scene_objects``: its layout, objects, robot and user."""
    layout = item.item_layout
    furniture = _TABLETOP if layout == "tabletop" else _KITCHEN
    objects: dict[str, dict[str, Any]] = {}
    generic = False
    for ident, name in object_names(item).items():
        spec, known = _object(name, layout, taxonomy)
        generic = generic or not known
        objects[ident] = spec
    types: dict[str, Any] = {}
    if generic:
        types[GENERIC_TYPE] = {"label": "household thing"}
    data = {
        "id": "clarify_item",
        "title": f"ask-or-act item {item.id}",
        "tier": "simple",
        "world": {
            "rooms": ["kitchen"],
            "furniture": furniture,
            "objects": objects,
            "robots": {ROBOT: {"profile": "humanoid", "room": "kitchen"}},
            "people": {USER: {"room": "kitchen"}},
            "types": types,
        },
        "belief": {"objects": "all", "seen_seconds_ago": 60},
        "request": {"speaker": USER, "text": item.task},
        # not scored: the clarify evaluation scores what the robot said and did
        "goal": [f"at({USER}, kitchen)"],
    }
    return Scenario.model_validate(data)


def object_id(name: str, taken: set[str]) -> str:
    """A world id for a said name (``bottled water`` -> ``bottled_water``), unique in ``taken``."""
    base = re.sub(r"[^a-z0-9]+", "_", name.lower()).strip("_") or "thing"
    if not base[0].isalpha():
        base = f"thing_{base}"
    ident, number = base, 2
    while ident in taken:
        ident, number = f"{base}_{number}", number + 1
    return ident


def object_names(item: ClarifyItem) -> dict[str, str]:
    """Each world id of the item's objects -> the name it was given (the same ids as built)."""
    furniture = _TABLETOP if item.item_layout == "tabletop" else _KITCHEN
    names: dict[str, str] = {}
    for name in item.scene_objects:
        names[object_id(name, taken=set(names) | set(furniture))] = name
    return names


def _object(name: str, layout: str, taxonomy: Taxonomy) -> tuple[dict[str, Any], bool]:
    """The world spec of one object, and whether the taxonomy knew its type."""
    type_name = taxonomy.type_named(name)
    spec: dict[str, Any] = {"type": type_name or GENERIC_TYPE, "label": name.lower()}
    support = "counter"
    if type_name is not None:
        said = set(name.lower().split())
        material = next(iter(sorted(said & taxonomy.materials())), None)
        material = material or taxonomy.properties(type_name).material
        if material is not None:
            spec["material"] = material
        if any(taxonomy.is_a(type_name, category) for category in NOT_GRASPABLE):
            spec["graspable"] = False
        if layout == "kitchen":
            places = [PLACE_WORDS[p] for p in taxonomy.usual_places(type_name) if p in PLACE_WORDS]
            support = places[0] if places else support
    kind = (_TABLETOP if layout == "tabletop" else _KITCHEN)[support]["kind"]
    spec["on" if kind == "surface" else "in"] = support
    return spec, type_name is not None
