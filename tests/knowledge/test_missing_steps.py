"""A request with a step the robot cannot do is done up to that step, and the rest is said."""

from __future__ import annotations

from cogtree.knowledge.language.missing_steps import doable_part, left_undone
from cogtree.knowledge.language.request_frame import parse_request


def test_the_steps_before_the_first_missing_one_are_done_and_the_rest_left() -> None:
    frame = parse_request("take the bread out of the cupboard, then slice it and put it on a plate")
    done, left = doable_part(frame), left_undone(frame)
    assert [step.action for step in done.steps] == [frame.steps[0].action]
    assert done.missing_skills == []
    assert left[0].missing_skill == "cut things" and len(left) == len(frame.steps) - 1


def test_a_request_that_starts_with_a_missing_step_leaves_nothing_to_do() -> None:
    frame = parse_request("slice the bread and put it on a plate")
    assert doable_part(frame).steps == ()
    assert left_undone(frame) == frame.steps


def test_a_request_with_nothing_missing_is_done_whole() -> None:
    frame = parse_request("bring me the milk, then open the fridge")
    assert doable_part(frame) == frame and left_undone(frame) == ()


def test_nothing_is_done_when_the_part_before_the_missing_step_leaves_something_running() -> None:
    for said in ("switch on the kettle and stir the soup", "warm the soup, then chop the onions"):
        frame = parse_request(said)
        assert frame.missing_skills, said
        assert doable_part(frame).steps == (), said  # refused whole, naming the missing skill
        assert left_undone(frame)[0].missing_skill, said
