"""The switch capability: SWITCH_ON / SWITCH_OFF power an appliance, a tap or a light; the
switch_on / switch_off tasks go there unless it is so already."""

from __future__ import annotations

import pytest

from cogtree.skills.action_model.belief import Belief
from cogtree.skills.capabilities.calls import project, skill_call
from tests.skills.capabilities.kitchen import (
    commands,
    failure,
    holding,
    plan,
    reasons,
)


@pytest.mark.parametrize(("skill", "powered"), [("SWITCH_ON", True), ("SWITCH_OFF", False)])
def test_switch_sets_power(kitchen: Belief, skill: str, powered: bool) -> None:
    assert commands(kitchen, skill, appliance="kettle") == [
        "approach(target=kettle)",
        f"{skill.lower()}(appliance=kettle)",
    ]
    assert (
        project(skill_call(skill, appliance="kettle"), kitchen).things["kettle"].powered is powered
    )


def test_switch_failures(kitchen: Belief) -> None:
    assert failure(kitchen, "SWITCH_ON", appliance="plate")[:2] == (
        "is_appliance",
        "not_an_appliance",
    )
    assert failure(kitchen, "SWITCH_ON", appliance="toaster")[:2] == (
        "is_appliance",
        "object_not_found",
    )
    full = holding(kitchen, "cup", "can")
    assert failure(full, "SWITCH_ON", appliance="microwave")[:2] == ("hand_free", "hand_full")


def test_switch_tasks(kitchen: Belief) -> None:
    assert plan(kitchen, "switch_on", appliance="kettle") == ["SWITCH_ON(kettle)"]
    assert plan(kitchen, "switch_off", appliance="kettle") == []  # already off
    assert "plate is not an appliance" in reasons(kitchen, "switch_on", appliance="plate")
