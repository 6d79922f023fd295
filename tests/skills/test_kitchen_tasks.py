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
