"""Which slot of a pack task holds which role of a request, by the slot's name.

A pack names its slots freely; a request's roles (object, landmark, recipient, tool, source:
:class:`~knowledge.language.request_frame.Step`) find their slots by the names below. The
*theme* is the slot the object goes to: the first slot that names no other role.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

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


def theme_and_destination(
    fields: Sequence[str], *, source_said: bool
) -> tuple[str | None, str | None]:
    """The slots of a task (its ``fields``, in order) for a request's object and its landmark.

    The object: the first slot of no other role; else, when no source is said
    (``source_said``), the source slot ("pour the juice into ...": what is poured). The
    landmark: a destination slot; else an appliance slot that is not the object's ("warm the
    bowl in the microwave").
    """
    theme = next((name for name in fields if name not in OTHER_ROLE_SLOTS), None)
    if theme is None and not source_said:
        theme = first_slot(fields, SOURCE_SLOTS)
    destination = first_slot(fields, DESTINATION_SLOTS) or next(
        (name for name in fields if name in APPLIANCE_SLOTS and name != theme), None
    )
    return theme, destination
