"""Kitchen tasks planned with the HTN: place_relative, dispose (bin chosen by the disposal
table), switch_on/off, fill and pour, and the reasons when no plan exists."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

import pytest

from cogtree.knowledge.scene.scene_graph import SceneGraph
from cogtree.skills.action_model.belief import Belief
from cogtree.skills.action_model.specs import SkillArgumentError
from cogtree.skills.planning.tasks import TaskPlanner, task_call
from tests.skills.test_kitchen_skills import KITCHEN


@pytest.fixture(scope="module")
def kitchen() -> Iterator[Belief]:
    with SceneGraph.from_turtle_text(KITCHEN) as scene:
        yield Belief.from_scene(scene, "robot1")


def without(belief: Belief, *ids: str) -> Belief:
    return replace(belief, things={k: v for k, v in belief.things.items() if k not in ids})


def plan(belief: Belief, task: str, **args: str) -> list[str]:
    found = TaskPlanner().plan(task_call(task, args), belief)
    assert found.ok, found.message
    return [str(skill) for skill in found.skills]


def reasons(belief: Belief, task: str, **args: str) -> str:
    found = TaskPlanner().plan(task_call(task, args), belief)
    assert not found.ok
    return found.message


@pytest.mark.parametrize(
    ("said", "relation"),
    [
        ("next to", "next_to"),
        ("beside", "next_to"),
        ("to the left of", "left_of"),
        ("in front of", "in_front_of"),
    ],
)
def test_relation_words_become_relations(said: str, relation: str) -> None:
    call = task_call("place_relative", object="cup", relation=said, landmark="salt")
    assert call.values == ("cup", relation, "salt")


def test_an_unknown_relation_is_refused_with_the_valid_ones() -> None:
    with pytest.raises(SkillArgumentError, match="relation"):
        task_call("place_relative", object="cup", relation="underneath", landmark="salt")


def test_place_relative_fetches_then_places_beside(kitchen: Belief) -> None:
    assert plan(kitchen, "place_relative", object="cup", relation="right_of", landmark="salt") == [
        "PICK(cup, right)",
        "PLACE(cup, salt, right, right_of)",
    ]


def test_place_relative_on_a_place_is_a_bring(kitchen: Belief) -> None:
    assert plan(kitchen, "place_relative", object="cup", relation="on", landmark="shelf") == [
        "PICK(cup, right)",
        "PLACE(cup, shelf, right)",
    ]


def test_place_relative_names_a_missing_landmark(kitchen: Belief) -> None:
    message = reasons(kitchen, "place_relative", object="cup", relation="next_to", landmark="vase")
    assert "vase is not in the belief: look for vase first" in message


def test_place_relative_with_no_room_says_so(kitchen: Belief) -> None:
    message = reasons(kitchen, "place_relative", object="cup", relation="next_to", landmark="plate")
    assert "no_free_space" in message and "no free space next to plate on table" in message


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


def test_switch_tasks(kitchen: Belief) -> None:
    assert plan(kitchen, "switch_on", appliance="kettle") == ["SWITCH_ON(kettle)"]
    assert plan(kitchen, "switch_off", appliance="kettle") == []  # already off
    assert "plate is not an appliance" in reasons(kitchen, "switch_on", appliance="plate")


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


def test_fill_finds_the_tap(kitchen: Belief) -> None:
    assert plan(kitchen, "fill", container="cup") == ["PICK(cup, right)", "FILL(cup, sink, right)"]


def test_pour_fetches_the_source(kitchen: Belief) -> None:
    # no words ask for all of it: the 400 ml jug pours what the 300 ml bowl takes
    assert plan(kitchen, "pour", source="jug", target="bowl") == [
        "PICK(jug, right)",
        "POUR(jug, bowl, right, 300.0)",
    ]
    assert "container_empty" in reasons(kitchen, "pour", source="cup", target="bowl")
