"""Which slot of a pack task holds which role of a request step, by the slot's name.

A pack names its slots freely; the frame's roles (:class:`~knowledge.language.request_frame.
Step`: object, landmark, recipient, tool, source) find their slots by the names below. The
*theme* is the slot the step's object goes to: the first slot that names no other role.

:func:`tool_as_theme` is the check that keeps an instrument out of the theme: "top it up with
the jug" tops up something that is not the jug, whatever a filler that reads only words puts
where.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Final

from cogtree.knowledge.language.request_frame import RequestFrame, Step
from cogtree.knowledge.understanding.contents import TAP_LIQUID
from cogtree.knowledge.understanding.lexicon import tokenize
from cogtree.knowledge.understanding.slot_filling import SlotValue

DESTINATION_SLOTS: Final = frozenset(
    ["destination", "landmark", "target", "place", "to", "where", "location", "surface_to"]
)
RECIPIENT_SLOTS: Final = frozenset(["recipient", "person", "to_person", "whom"])
TOOL_SLOTS: Final = frozenset(["tool", "instrument", "utensil", "using", "cloth"])
SOURCE_SLOTS: Final = frozenset(["source", "origin", "from_place"])
RELATION_SLOTS: Final = frozenset(["relation", "spatial_relation"])
APPLIANCE_SLOTS: Final = frozenset(["appliance"])
"""Slots of an appliance: the thing acted on ("switch on the kettle"), or, when the task has
another object, where that object goes ("warm the bowl in the microwave")."""
OTHER_ROLE_SLOTS: Final = (
    DESTINATION_SLOTS | RECIPIENT_SLOTS | TOOL_SLOTS | SOURCE_SLOTS | RELATION_SLOTS
)
"""Slot names that hold a role other than the step's object."""


def first_slot(fields: Sequence[str], names: frozenset[str]) -> str | None:
    """The first of ``fields`` named in ``names``, or None."""
    return next((name for name in fields if name in names), None)


def theme_and_destination(fields: Sequence[str], step: Step) -> tuple[str | None, str | None]:
    """The slots of a task (its ``fields``, in order) for the step's object and its landmark.

    The object: the first slot of no other role; else, with no source phrase, the source slot
    ("pour the juice into ...": what is poured). The landmark: a destination slot; else an
    appliance slot that is not the object's ("warm the bowl in the microwave").
    """
    theme = next((name for name in fields if name not in OTHER_ROLE_SLOTS), None)
    if theme is None and step.source is None:
        theme = first_slot(fields, SOURCE_SLOTS)
    destination = first_slot(fields, DESTINATION_SLOTS) or next(
        (name for name in fields if name in APPLIANCE_SLOTS and name != theme), None
    )
    return theme, destination


def tool_as_theme(
    frame: RequestFrame, fields: Sequence[str], slots: Mapping[str, SlotValue]
) -> str | None:
    """The theme slot in ``slots`` holding the tool of a step whose object is a pronoun, or None.

    "top it up with the jug by the sink": "it" is not the jug (a pronoun object never stands
    for the instrument of its own clause), so a theme value that starts with the tool's words
    is the tool taken for the thing acted on. Water in a fill ("fill it with water") is what
    goes in, not a tool, and is left alone.
    """
    for step in frame.steps:
        tool = step.tool
        if tool is None or not step.objects or not all(phrase.pronoun for phrase in step.objects):
            continue
        if step.action == "fill" and tool.head == TAP_LIQUID:
            continue
        theme, _ = theme_and_destination(fields, step)
        value = slots.get(theme) if theme is not None else None
        said = [token.text for token in tokenize(tool.text)]
        if not isinstance(value, str) or not said:
            continue
        if [token.text for token in tokenize(value)][: len(said)] == said:
            return theme
    return None
