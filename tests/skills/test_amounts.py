"""How much a pour asks for: what fits up to the usual fill unless the words say everything
(capabilities.pour).

The kitchen of test_kitchen_skills.py: the jug holds 400 ml of milk, the cup takes 250 ml.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

import pytest

from cogtree.knowledge.safety.hazard_rules import shipped_hazard_rules
from cogtree.knowledge.scene.scene_graph import SceneGraph
from cogtree.skills.action_model.belief import Belief
from cogtree.skills.capabilities.fill import said_share
from cogtree.skills.capabilities.pour import pour_ml
from cogtree.skills.planning.tasks import TaskPlanner, task_call
from cogtree.skills.safety.task_hazards import task_hazards
from tests.skills.test_kitchen_skills import KITCHEN


@pytest.fixture(scope="module")
def kitchen() -> Iterator[Belief]:
    with SceneGraph.from_turtle_text(KITCHEN) as scene:
        yield Belief.from_scene(scene, "robot1")


@pytest.mark.parametrize(
    "said",
    [
        "pour some milk into the cup",
        "could you pour milk in my cup",
        "a splash of the jug, please",
        "pour milk into the empty cup",  # "empty" says what the cup is
        "pour the milk from the jug into the cup",  # where it comes from, not all of it
    ],
)
def test_an_amount_left_open_is_what_fits(kitchen: Belief, said: str) -> None:
    assert pour_ml(kitchen, "jug", "cup", [said]) == 200  # 80% of the 250 ml cup


@pytest.mark.parametrize(
    "said",
    [
        "pour all the milk into the cup",
        "empty the jug into the cup",
        "tip the whole lot in the cup",
        "pour the jug into the cup",
    ],
)
def test_words_that_ask_for_everything_pour_everything(kitchen: Belief, said: str) -> None:
    assert pour_ml(kitchen, "jug", "cup", [said]) is None


def test_what_fits_anyway_and_an_unknown_capacity_pour_everything(kitchen: Belief) -> None:
    less = kitchen.with_liquid("jug", "milk", -200.0)  # 200 ml left: the cup's usual fill
    assert pour_ml(less, "jug", "cup", ["pour some milk in the cup"]) is None
    assert pour_ml(kitchen, "jug", "plate", ["pour some milk on the plate"]) is None


def test_the_plan_pours_what_fits_and_the_hazards_judge_that_amount(kitchen: Belief) -> None:
    planned = TaskPlanner().plan(
        task_call("pour", {"source": "jug", "target": "cup"}),
        kitchen,
        ("pour some milk in my cup",),
    )
    assert planned.ok, planned.message
    assert [str(skill) for skill in planned.skills][-1] == "POUR(jug, cup, right, 200.0)"
    asked = [("pour", {"source": "jug", "target": "cup"})]
    rules = shipped_hazard_rules()
    assert not any(
        "overflow" in hazard.sentence
        for hazard in task_hazards(rules, asked, kitchen, ["pour some milk in my cup"])
    )
    whole = task_hazards(rules, asked, kitchen, ["empty the whole jug into my cup"])
    assert any(hazard.forbids and "overflow" in hazard.sentence for hazard in whole)


@pytest.mark.parametrize(
    ("said", "share"),
    [
        ("fill the kettle about halfway for me", 0.5),
        ("fill the jug half full", 0.5),
        ("could you fill the bucket three quarters full", 0.75),
        ("fill the glass a quarter full", 0.25),
        ("fill the kettle", None),
        ("fill the kettle to the top", None),  # its usual fill: never to the brim
        ("half-fill the jug", 0.5),
        ("fill the cup, it is half past three", None),
        ("fill the cup and bring me half a biscuit", None),
        ("fill the half-pint cup", None),
        ("put a bit of water in the vase", 0.25),
        ("just a splash of water in my glass", 0.25),
        ("a little water in the bowl, please", 0.25),
        ("fill it, a bit of a rush today", None),
    ],
)
def test_how_full_a_request_says(said: str, share: float | None) -> None:
    assert said_share([said]) == share


def test_a_fill_said_half_full_fills_half_the_capacity(kitchen: Belief) -> None:
    """Checked to fail before: "fill the cup halfway" filled it to its usual fill (200 ml)."""
    planned = TaskPlanner().plan(
        task_call("fill", {"container": "cup"}), kitchen, ("fill the cup halfway",)
    )
    assert planned.ok, planned.message
    assert str(planned.skills[-1]) == "FILL(cup, sink, right, 125.0)"


def test_a_container_named_by_what_it_holds_is_not_asked_for_whole(kitchen: Belief) -> None:
    """Checked to fail before: "the orange juice" of a carton so labelled poured all 400 ml."""
    carton = replace(kitchen.things["jug"], label="orange juice", liquid="orange juice")
    juice = replace(kitchen, things={**kitchen.things, "jug": carton})
    assert pour_ml(juice, "jug", "cup", ["pour the orange juice into the cup"]) == 200
    assert pour_ml(juice, "jug", "cup", ["pour all the orange juice into the cup"]) is None
