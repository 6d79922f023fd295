"""The heat capability: the heat task brings a thing into an appliance that heats and switches
it on."""

from __future__ import annotations

from cogtree.skills.action_model.belief import Belief
from tests.skills.capabilities.kitchen import (
    plan,
    reasons,
)


def test_heat_brings_the_object_in_closing_the_door_then_switches_on(kitchen: Belief) -> None:
    assert plan(kitchen, "heat", object="cup", appliance="microwave") == [
        "PICK(cup, right)",
        "OPEN(microwave)",
        "PLACE(cup, microwave, right)",
        "CLOSE(microwave)",
        "SWITCH_ON(microwave)",
    ]
    assert "kettle is not an appliance things go in" in reasons(
        kitchen, "heat", object="cup", appliance="kettle"
    )
