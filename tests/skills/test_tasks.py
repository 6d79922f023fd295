from __future__ import annotations

from collections.abc import Callable

import pytest

from cogtree.knowledge.scene.scene_graph import SCENES_DIR, SceneGraph
from cogtree.skills.action_model.belief import Belief
from cogtree.skills.action_model.specs import SkillArgumentError
from cogtree.skills.planning.tasks import (
    MAX_REASONS,
    TASK_SPECS,
    TaskCall,
    TaskPlan,
    TaskPlanner,
    task_call,
)

MakeBelief = Callable[..., Belief]


def _plan(planner: TaskPlanner, belief: Belief, name: str, **args: str) -> TaskPlan:
    return planner.plan(task_call(name, **args), belief)


def _skills(plan: TaskPlan) -> list[str]:
    assert plan.ok, plan.message
    return [str(skill) for skill in plan.skills]


def test_fetch_in_the_robot_room_is_one_pick(belief: Belief, task_planner: TaskPlanner) -> None:
    plan = _plan(task_planner, belief, "fetch", object="bottle")
    assert _skills(plan) == ["PICK(bottle, right)"]
    assert plan.failures == ()


def test_fetch_from_another_room_goes_to_the_furniture_first(
    belief: Belief, task_planner: TaskPlanner
) -> None:
    plan = _plan(task_planner, belief, "fetch", object="book")
    assert _skills(plan) == ["GOTO(sofa_table)", "PICK(book, right)"]


def test_fetch_uses_the_other_hand_when_one_is_full(
    belief: Belief, task_planner: TaskPlanner
) -> None:
    holding = belief.with_picked("cup", "right")
    assert _skills(_plan(task_planner, holding, "fetch", object="bottle")) == ["PICK(bottle, left)"]


def test_fetch_of_a_held_object_needs_nothing(belief: Belief, task_planner: TaskPlanner) -> None:
    plan = _plan(task_planner, belief.with_picked("cup", "left"), "fetch", object="cup")
    assert _skills(plan) == []
    assert plan.message == "fetch(cup) → nothing to do"


def test_fetch_from_a_closed_container_opens_and_closes_it(
    belief: Belief, task_planner: TaskPlanner
) -> None:
    plan = _plan(task_planner, belief, "fetch", object="juice")
    assert _skills(plan) == ["OPEN(fridge)", "PICK(juice, right)", "CLOSE(fridge)"]
    assert plan.failures == ()


def test_backtracking_leaves_the_fridge_open_when_no_hand_is_free_to_close_it(
    make_belief: MakeBelief, task_planner: TaskPlanner
) -> None:
    # The first method (close the fridge again) is applicable but its CLOSE fails once the
    # only hand holds the juice; the search backs out and takes the next method.
    plan = _plan(task_planner, make_belief("onearm"), "fetch", object="juice")
    assert _skills(plan) == ["OPEN(fridge)", "PICK(juice, right)"]
    assert plan.failures == (
        "CLOSE(fridge) failed precondition hand_free: hand_full — no hand is free "
        "(onearm holds juice)",
    )


def test_backtracking_opens_a_closed_destination_before_fetching_with_one_hand(
    make_belief: MakeBelief, task_planner: TaskPlanner
) -> None:
    two_hands = _plan(task_planner, make_belief("robot1"), "bring", object="bottle", to="fridge")
    assert _skills(two_hands) == [
        "PICK(bottle, right)",
        "OPEN(fridge)",
        "PLACE(bottle, fridge, right)",
        "CLOSE(fridge)",
    ]
    one_hand = _plan(task_planner, make_belief("onearm"), "bring", object="bottle", to="fridge")
    assert _skills(one_hand) == [
        "OPEN(fridge)",
        "PICK(bottle, right)",
        "PLACE(bottle, fridge, right)",
        "CLOSE(fridge)",
    ]
    assert "OPEN(fridge) failed precondition hand_free" in one_hand.failures[0]


def test_bring_to_a_person_hands_it_over(belief: Belief, task_planner: TaskPlanner) -> None:
    plan = _plan(task_planner, belief, "bring", object="juice", to="user")
    assert _skills(plan) == [
        "OPEN(fridge)",
        "PICK(juice, right)",
        "CLOSE(fridge)",
        "HANDOVER(juice, user, right)",
    ]


def test_bring_to_a_place_in_another_room(belief: Belief, task_planner: TaskPlanner) -> None:
    plan = _plan(task_planner, belief, "bring", object="book", to="table_2")
    assert _skills(plan) == [
        "GOTO(sofa_table)",
        "PICK(book, right)",
        "GOTO(table_2)",
        "PLACE(book, table_2, right)",
    ]


def test_bring_what_is_already_there_needs_nothing(
    belief: Belief, task_planner: TaskPlanner
) -> None:
    assert _skills(_plan(task_planner, belief, "bring", object="bottle", to="table_1")) == []


def test_unreachable_object_fails_cleanly_with_the_reason(
    belief: Belief, task_planner: TaskPlanner
) -> None:
    plan = _plan(task_planner, belief, "bring", object="vase", to="user")
    assert not plan.ok
    assert plan.skills == ()
    assert plan.message == (
        "no plan for bring(vase, user): PICK(vase, right) failed precondition reachable: "
        "out_of_reach — vase on top_shelf is at 2.1 m, above robot1's highest reach of 1.8 m; "
        "PICK(vase, left) failed precondition reachable: out_of_reach — vase on top_shelf is "
        "at 2.1 m, above robot1's highest reach of 1.8 m"
    )


def test_bring_to_a_busy_person_fails_with_person_unavailable(
    belief: Belief, task_planner: TaskPlanner
) -> None:
    plan = _plan(task_planner, belief, "bring", object="bottle", to="anna")
    assert not plan.ok
    assert all("person_available: person_unavailable — anna is busy" in f for f in plan.failures)


def test_bring_to_something_that_is_no_destination(
    belief: Belief, task_planner: TaskPlanner
) -> None:
    plan = _plan(task_planner, belief, "bring", object="bottle", to="kitchen")
    assert not plan.ok
    assert plan.failures == (
        "bring(bottle, kitchen): kitchen is not a person, surface or container of the belief",
    )


def test_a_robot_without_hands_cannot_fetch(
    make_belief: MakeBelief, task_planner: TaskPlanner
) -> None:
    plan = _plan(task_planner, make_belief("base1"), "fetch", object="bottle")
    assert not plan.ok
    assert plan.failures == (
        "PICK(bottle, right) failed precondition has_skill: capability_missing — base1 does "
        "not have PICK (its skills: GOTO, SAY, WAIT)",
    )


def test_put_away_takes_an_object_to_its_home(belief: Belief, task_planner: TaskPlanner) -> None:
    plan = _plan(task_planner, belief, "put_away", object="book")
    assert _skills(plan) == [
        "GOTO(sofa_table)",
        "PICK(book, right)",
        "GOTO(table_2)",
        "PLACE(book, table_2, right)",
    ]
    assert _skills(_plan(task_planner, belief, "put_away", object="cup")) == []


def test_put_away_without_a_home_place_says_so(belief: Belief, task_planner: TaskPlanner) -> None:
    plan = _plan(task_planner, belief, "put_away", object="anvil")
    assert not plan.ok
    assert plan.failures == ("put_away(anvil): the belief has no home place for anvil",)


def test_put_away_takes_an_object_where_the_user_said(
    belief: Belief, task_planner: TaskPlanner
) -> None:
    plan = _plan(task_planner, belief, "put_away", object="bottle", to="table_2")  # not its home
    assert _skills(plan)[-1] == "PLACE(bottle, table_2, right)"
    moved = _plan(task_planner, belief, "put_away", object="cup", to="table_2")  # at home now
    assert _skills(moved)[-1] == "PLACE(cup, table_2, right)"


def test_tidy_puts_away_what_it_can_and_reports_what_it_left(
    belief: Belief, task_planner: TaskPlanner
) -> None:
    plan = _plan(task_planner, belief, "tidy", room="kitchen")
    assert _skills(plan) == ["PICK(bottle, right)", "PLACE(bottle, cupboard, right)"]
    assert plan.skipped == ("ball",)  # on the floor, below robot1's reach
    assert any("PICK(ball, right) failed precondition reachable" in f for f in plan.failures)
    assert plan.message.endswith("; left out of place: ball")


def test_tidy_with_a_robot_that_reaches_the_floor(
    make_belief: MakeBelief, task_planner: TaskPlanner
) -> None:
    plan = _plan(task_planner, make_belief("onearm"), "tidy", room="kitchen")
    assert _skills(plan) == [
        "PICK(ball, right)",
        "PLACE(ball, table_1, right)",
        "PICK(bottle, right)",
        "PLACE(bottle, cupboard, right)",
    ]
    assert plan.skipped == ()


def test_tidy_of_a_tidy_room_and_of_an_unknown_room(
    belief: Belief, task_planner: TaskPlanner
) -> None:
    assert _skills(_plan(task_planner, belief, "tidy", room="bedroom")) == []
    unknown = _plan(task_planner, belief, "tidy", room="attic")
    assert not unknown.ok
    assert "attic is not a room of the belief (rooms: bedroom, garage" in unknown.failures[0]


def test_long_failure_lists_are_shortened(belief: Belief, task_planner: TaskPlanner) -> None:
    plan = TaskPlan(
        task=task_call("fetch", object="bottle"),
        ok=False,
        failures=tuple(f"reason {i}" for i in range(MAX_REASONS + 2)),
    )
    assert plan.message == "no plan for fetch(bottle): reason 0; reason 1; reason 2 (and 2 more)"


def test_roBee_style_request_on_the_shipped_home() -> None:
    with SceneGraph.from_turtle_file(SCENES_DIR / "home.ttl") as scene:
        home = Belief.from_scene(scene, "robot1")
    plan = TaskPlanner().plan(task_call("bring", object="bottle_green", to="nightstand"), home)
    assert _skills(plan) == [
        "PICK(bottle_green, right)",
        "GOTO(nightstand)",
        "PLACE(bottle_green, nightstand, right)",
    ]


def test_unknown_task_lists_the_valid_ones() -> None:
    with pytest.raises(SkillArgumentError) as raised:
        task_call("juggle", object="ball")
    for spec in TASK_SPECS.values():
        assert spec.signature() in str(raised.value)


def test_bad_task_arguments_name_the_field() -> None:
    with pytest.raises(SkillArgumentError, match=r"bring: field `to`: Field required"):
        task_call("bring", object="bottle")
    with pytest.raises(SkillArgumentError, match=r"tidy: field `room`: String should match"):
        task_call("tidy", room="the kitchen")


def test_task_call_describes_itself_and_survives_json() -> None:
    call = task_call("bring", {"object": "bottle"}, to="user")
    assert str(call) == "bring(bottle, user)"
    assert TaskCall.model_validate_json(call.model_dump_json()) == call


def test_open_and_close_go_to_the_container_unless_it_already_is_so(
    belief: Belief, task_planner: TaskPlanner
) -> None:
    assert _skills(_plan(task_planner, belief, "open", container="fridge"))[-1] == "OPEN(fridge)"
    assert _skills(_plan(task_planner, belief, "open", container="cupboard")) == []
    assert _skills(_plan(task_planner, belief, "close", container="cupboard"))[-1] == (
        "CLOSE(cupboard)"
    )
    assert _skills(_plan(task_planner, belief, "close", container="fridge")) == []
    table = _plan(task_planner, belief, "close", container="table_1")
    assert not table.ok
    assert "close(table_1): table_1 is not a container of the belief" in table.failures[0]


def test_tidy_that_knows_no_home_for_anything_out_says_so_instead_of_doing_nothing(
    belief: Belief, task_planner: TaskPlanner
) -> None:
    from dataclasses import replace

    homeless = replace(belief, homes={})
    plan = _plan(task_planner, homeless, "tidy", room="kitchen")
    assert not plan.ok
    assert "no home place known for" in plan.failures[0] and "ask where they go" in plan.failures[0]
