"""Slot roles: which slot holds a step's object, and no instrument taken for what "it" names."""

from __future__ import annotations

import pytest

from cogtree.knowledge.language.request_frame import parse_request
from cogtree.knowledge.packs.slot_roles import theme_and_destination
from cogtree.knowledge.understanding.frame_tasks import tool_as_theme

FILL = ["container", "source"]
WIPE = ["object", "surface", "tool"]


@pytest.mark.parametrize(
    ("said", "fields", "slots", "taken"),
    [
        # "it" is never the jug it is topped up with
        ("top it up with the jug by the sink", FILL, {"container": "the jug by the sink"}, True),
        ("fill it with the watering can", FILL, {"container": "the watering can"}, True),
        ("top it up with the jug", FILL, {"container": "water jug"}, True),  # its head, said
        ("clean it with a cloth", WIPE, {"object": "the cloth"}, True),  # another determiner
        ("clean it with the cloths", WIPE, {"object": "the cloth"}, True),  # one of them
        ("wipe it with the cloth", WIPE, {"object": "the tablecloth"}, False),  # whole words
        # the object said by name: the filler's value is the user's own object
        ("top up the kettle with the jug", FILL, {"container": "the kettle"}, False),
        # water goes in; it is no tool
        ("fill it with water", FILL, {"container": "water"}, False),
        # the theme holds something other than the tool
        ("top it up with the jug", FILL, {"container": "the kettle"}, False),
        # the tool in the tool slot is where it belongs
        ("wipe it with the cloth", WIPE, {"tool": "the cloth"}, False),
        ("wipe it with the cloth", WIPE, {"object": "the cloth"}, True),
    ],
)
def test_a_pronoun_object_is_never_its_own_clauses_tool(
    said: str, fields: list[str], slots: dict[str, str], taken: bool
) -> None:
    found = tool_as_theme(parse_request(said), fields, slots)
    assert (found is not None) is taken
    if taken:
        assert found == theme_and_destination(fields, source_said=False)[0]


def test_the_theme_is_the_first_slot_of_no_other_role() -> None:
    fields = ["destination", "object", "relation"]
    assert theme_and_destination(fields, source_said=False) == ("object", "destination")
    # a pour with no source phrase pours what its source slot holds
    assert theme_and_destination(["source", "target"], source_said=False) == ("source", "target")
    assert theme_and_destination(["source", "target"], source_said=True) == (None, "target")
