"""The robot's own limits said before anything moves, and what is already so
(skills.planning.limits, skills.planning.already), on the small flat of conftest.py."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from cogtree.skills.action_model.belief import Belief
from cogtree.skills.planning.already import already_so
from cogtree.skills.planning.limits import infeasible_text
from cogtree.skills.planning.tasks import TaskPlan, TaskPlanner, task_call

MakeBelief = Callable[..., Belief]


def _plan(planner: TaskPlanner, belief: Belief, name: str, **args: str) -> TaskPlan:
    return planner.plan(task_call(name, args), belief)


def test_a_thing_on_the_floor_is_a_limit_and_the_sentence_offers_help(
    belief: Belief, task_planner: TaskPlanner
) -> None:
    plan = _plan(task_planner, belief, "bring", object="ball", to="user")
    assert not plan.ok
    assert [(limit.kind, limit.thing) for limit in plan.limits] == [("reach", "ball")]
    text = infeasible_text(plan.limits, belief, speaker="user")
    assert text.startswith("I can't do that as things are: the ball is on the floor, lower")
    assert "I have not started anything." in text
    assert "If someone hands me the ball or puts it where I can reach, I can finish." in text
    # the speaker is not offered as a helper; the people the robot could ask are, with where
    assert "Anna (in the bedroom)" in text and "User" not in text
    assert "Nothing was done" not in text


def test_a_high_shelf_and_an_ungraspable_thing_are_limits(
    belief: Belief, task_planner: TaskPlanner
) -> None:
    high = _plan(task_planner, belief, "bring", object="vase", to="user")
    assert "the vase is on the top shelf, higher than I reach" in [
        limit.reason for limit in high.limits
    ]
    poster = _plan(task_planner, belief, "bring", object="poster", to="user")
    assert [limit.kind for limit in poster.limits] == ["grasp"]


def test_a_reason_planning_can_get_round_is_no_limit(
    belief: Belief, task_planner: TaskPlanner
) -> None:
    busy = _plan(task_planner, belief, "bring", object="bottle", to="anna")
    assert not busy.ok and busy.limits == ()
    assert infeasible_text(busy.limits, belief, speaker=None) == ""


def test_a_robot_that_reaches_the_floor_has_no_such_limit(
    make_belief: MakeBelief, task_planner: TaskPlanner
) -> None:
    plan = _plan(task_planner, make_belief("onearm"), "fetch", object="ball")
    assert plan.ok and plan.limits == ()


def test_nothing_to_do_says_what_is_already_so(belief: Belief, task_planner: TaskPlanner) -> None:
    plan = _plan(task_planner, belief, "bring", object="bottle", to="table_1")
    assert plan.ok and plan.skills == ()
    assert already_so(plan.tasks, belief) == (
        "Nothing needed doing: the bottle is already on the table 1."
    )
    shut = _plan(task_planner, belief, "close", container="fridge")
    assert already_so(shut.tasks, belief) == "Nothing needed doing: the fridge is already closed."


def test_a_thing_a_person_already_holds_is_theirs_said_plainly(
    belief: Belief, task_planner: TaskPlanner
) -> None:
    """The reviewer's case: the speaker holding it was "Sam already has ...", another person
    "the anna already has ..."."""
    held = replace(belief.things["book"], relation="heldBy", support="user")
    holding = replace(belief, things={**belief.things, "book": held})
    plan = _plan(task_planner, holding, "bring", object="book", to="user")
    assert plan.ok and plan.skills == ()
    said = "Nothing needed doing: you already have the book."
    assert already_so(plan.tasks, holding, "user") == said
    assert (
        already_so(plan.tasks, holding, "anna")
        == "Nothing needed doing: User already has the book."
    )
