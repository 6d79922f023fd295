"""Several tasks planned as one sequence: one todo list, each task from the belief the ones
before it lead to, the skills of each task recorded, and no plan at all when a later task has
none (so nothing of the first runs)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from cogtree.knowledge.scene.scene_graph import SceneGraph
from cogtree.skills.action_model.belief import Belief
from cogtree.skills.planning.tasks import TaskPlanner, task_call
from tests.skills.test_kitchen_skills import KITCHEN


@pytest.fixture(scope="module")
def kitchen() -> Iterator[Belief]:
    with SceneGraph.from_turtle_text(KITCHEN) as scene:
        yield Belief.from_scene(scene, "robot1")


def test_a_sequence_is_planned_in_order_with_each_tasks_skills(kitchen: Belief) -> None:
    found = TaskPlanner().plan_sequence(
        [task_call("fill", container="cup"), task_call("pour", source="cup", target="bowl")],
        kitchen,
    )
    assert found.ok, found.message
    assert [(str(task), [str(s) for s in skills]) for task, skills in found.by_task()] == [
        ("fill(cup)", ["PICK(cup, right)", "FILL(cup, sink, right)"]),
        ("pour(cup, bowl)", ["POUR(cup, bowl, right)"]),  # the cup is already in hand, full
    ]
    assert found.message.startswith("fill(cup), then pour(cup, bowl) → PICK(cup, right)")


def test_the_second_task_is_planned_from_the_first_ones_result(kitchen: Belief) -> None:
    # alone, pouring the empty cup has no plan; after filling it, it has one
    alone = TaskPlanner().plan(task_call("pour", source="cup", target="bowl"), kitchen)
    assert not alone.ok and "container_empty" in alone.message


def test_no_plan_for_a_later_task_is_no_plan_for_the_sequence(kitchen: Belief) -> None:
    found = TaskPlanner().plan_sequence(
        [task_call("fill", container="cup"), task_call("switch_on", appliance="plate")], kitchen
    )
    assert not found.ok and found.skills == ()
    assert "plate is not an appliance" in found.message
    assert found.message.startswith("no plan for fill(cup), then switch_on(plate)")


def test_an_appliance_just_filled_is_set_back_down_before_it_is_switched_on(
    kitchen: Belief,
) -> None:
    found = TaskPlanner().plan_sequence(
        [task_call("fill", container="kettle"), task_call("switch_on", appliance="kettle")],
        kitchen,
    )
    assert found.ok, found.message
    where = kitchen.things["kettle"].support
    assert [str(s) for s in found.by_task()[1][1]] == [
        f"PLACE(kettle, {where}, right)",
        "SWITCH_ON(kettle)",
    ]


def test_one_task_has_no_parts(kitchen: Belief) -> None:
    found = TaskPlanner().plan(task_call("fill", container="cup"), kitchen)
    assert found.parts == () and found.tasks == (found.task,)
    assert len(found.by_task()) == 1


def test_an_empty_sequence_is_a_programming_error(kitchen: Belief) -> None:
    with pytest.raises(ValueError, match="at least one task"):
        TaskPlanner().plan_sequence([], kitchen)
