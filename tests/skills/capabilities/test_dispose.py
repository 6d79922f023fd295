"""The dispose capability: DISPOSE drops a held thing into the bin the disposal table
chooses; the dispose task fetches it and finds that bin, saying so when the material is unknown."""

from __future__ import annotations

from dataclasses import replace

import pytest

from cogtree.knowledge.scene.scene_graph import SceneGraph
from cogtree.skills.action_model.belief import Belief
from cogtree.skills.capabilities.calls import project, skill_call
from cogtree.skills.capabilities.dispose import made_of
from tests.skills.capabilities.kitchen import (
    commands,
    failure,
    holding,
    plan,
    reasons,
    without,
)
from tests.skills.test_kitchen_skills import KITCHEN


def test_dispose_drops_the_object_into_the_bin(kitchen: Belief) -> None:
    belief = holding(kitchen, "can")
    assert commands(belief, "DISPOSE", object="can", bin="recycling", hand="right") == [
        "approach(target=recycling)",
        "drop_in(object=can, bin=recycling, hand=right)",
        "release(hand=right)",
    ]
    after = project(skill_call("DISPOSE", object="can", bin="recycling", hand="right"), belief)
    assert after.things["can"].support == "recycling" and after.things["can"].relation == "in"


@pytest.mark.parametrize(
    ("thing", "bin_id", "name", "code"),
    [
        ("can", "landfill", "right_bin", "wrong_bin"),
        ("can", "counter", "is_bin", "object_not_found"),
        ("can", "hall_bin", "in_robot_room", "out_of_reach"),
        ("plate", "recycling", "holding", "not_holding"),
    ],
)
def test_dispose_failures(kitchen: Belief, thing: str, bin_id: str, name: str, code: str) -> None:
    belief = holding(kitchen, "can")
    assert failure(belief, "DISPOSE", object=thing, bin=bin_id, hand="right")[:2] == (name, code)


def test_a_full_can_is_not_recycled(kitchen: Belief) -> None:
    belief = holding(kitchen, "can").with_liquid("can", "cola", 100)
    _, code, reason = failure(belief, "DISPOSE", object="can", bin="recycling", hand="right")
    assert code == "wrong_bin" and "not empty" in reason and "landfill" in reason


def test_an_older_robot_without_the_skill_cannot_dispose() -> None:
    with SceneGraph.from_turtle_text(KITCHEN) as scene:
        belief = holding(Belief.from_scene(scene, "old"), "can")
    assert failure(belief, "DISPOSE", object="can", bin="recycling", hand="right")[:2] == (
        "has_skill",
        "capability_missing",
    )


def test_dispose_chooses_the_bin_from_the_table(kitchen: Belief) -> None:
    assert plan(kitchen, "dispose", object="can") == [
        "PICK(can, right)",
        "DISPOSE(can, recycling, right)",
    ]


def test_dispose_of_an_unknown_material_goes_to_landfill_and_says_so(kitchen: Belief) -> None:
    steps = plan(kitchen, "dispose", object="plate")
    assert steps[0].startswith("SAY(I don't know how to recycle plate (material unknown)")
    assert steps[1:] == ["PICK(plate, right)", "DISPOSE(plate, landfill, right)"]


def test_dispose_without_a_bin_of_the_right_kind(kitchen: Belief) -> None:
    belief = kitchen.with_liquid("can", "cola", 100)
    assert plan(belief, "dispose", object="can")[-1] == "DISPOSE(can, landfill, right)"
    no_compost = without(kitchen, "hall_bin")
    organic = replace(no_compost.things["can"], material="organic")
    assert plan(kitchen, "dispose", object="can")[-1] == "DISPOSE(can, recycling, right)"
    organic_belief = replace(no_compost, things={**no_compost.things, "can": organic})
    assert "the belief has no compost bin" in reasons(organic_belief, "dispose", object="can")


def test_what_a_thing_is_made_of_comes_from_its_most_direct_description(kitchen: Belief) -> None:
    can = kitchen.things["can"]
    assert {"steel", "metal"} <= made_of(replace(can, material="18/10 stainless steel"))
    assert made_of(replace(can, material=None, label="plastic-wrapped sandwich")) == frozenset()
    assert "organic" in made_of(replace(can, material=None, label="old thing", type="Banana"))
    assert made_of(replace(can, material=None, type="Lid")) == frozenset()  # metal? a guess
    assert made_of(replace(can, material="unobtainium", label="thing", type=None)) == frozenset()


def test_a_material_said_in_free_text_chooses_the_bin(kitchen: Belief) -> None:
    bottle = replace(kitchen.things["can"], material="PET plastic")
    skills = plan(
        replace(kitchen, things={**kitchen.things, "can": bottle}), "dispose", object="can"
    )
    assert skills[-1] == "DISPOSE(can, recycling, right)"


@pytest.mark.parametrize("material", ["foil-lined plastic", "plastic and unobtainium"])
def test_a_thing_of_several_materials_goes_to_the_cautious_bin_saying_why(
    kitchen: Belief, material: str
) -> None:
    packet = replace(kitchen.things["can"], material=material)
    skills = plan(
        replace(kitchen, things={**kitchen.things, "can": packet}), "dispose", object="can"
    )
    assert skills[0].startswith("SAY(") and material in skills[0]
    assert any(skill.startswith("DISPOSE(can") and "landfill" in skill for skill in skills)


def test_a_narrower_material_takes_its_own_rule_first(kitchen: Belief) -> None:
    tray = replace(kitchen.things["can"], material="polystyrene")
    skills = plan(replace(kitchen, things={**kitchen.things, "can": tray}), "dispose", object="can")
    assert skills[-1] == "DISPOSE(can, landfill, right)"


def test_a_thing_brought_to_a_bin_is_thrown_away_in_it(kitchen: Belief) -> None:
    """Checked to fail before: "put the can in the recycling" set it down in the bin (PLACE)."""
    assert plan(kitchen, "bring", object="can", to="recycling")[-1] == (
        "DISPOSE(can, recycling, right)"
    )
    # a bin the disposal table would not choose: set down in it, as the user said
    assert plan(kitchen, "bring", object="can", to="landfill")[-1] == "PLACE(can, landfill, right)"
