"""A thing named first and a request after it that names none: the request is about it."""

from __future__ import annotations

import pytest

from cogtree.knowledge.language.request_frame import parse_request
from cogtree.knowledge.language.step_antecedents import with_topic


@pytest.mark.parametrize(
    ("said", "thing"),
    [
        ("the mouldy crusts in the bin, compost please", "the mouldy crusts in the bin"),
        ("oh, and while you're there - those old batteries on the shelf, recycle please",
         "those old batteries on the shelf"),
        ("my reading lamp - switch off please", "my reading lamp"),
        ("the book on the pile by my bed - could you bring that over?",
         "the book on the pile by my bed"),  # "that" points at it: where it is, not where to
        ("the kettle, bin it", "the kettle"),
        ("those old batteries - recycle them", "those old batteries"),
    ],
)  # fmt: skip
def test_a_request_that_names_nothing_takes_the_thing_said_before_it(said: str, thing: str) -> None:
    (step,) = with_topic(parse_request(said)).steps
    assert [f"{phrase.text} {phrase.where}".strip() for phrase in step.objects] == [thing]


@pytest.mark.parametrize(
    "said",
    [
        "I'm cold, bring please",  # no noun phrase before it
        "the soup's gone cold, bin please",  # a remark about the soup
        "the stove smells of gas, switch on please",  # a remark about the stove
        "the glass broke, bin please",  # a verb said of it
        "the pills in the cabinet are nana's, bin please",  # a verb of being
        "the lamp by the bed has a frayed cable, switch on please",
        "my hands are cold, switch on please",
        "the mug on the table isn't mine, bin please",
        "the mug, the plate, bin please",  # two things: which is not one
        "the mug on the table, pick up the plate and bin it",  # the first step names its own
        "the kettle, bin the mug",  # a step with an object of its own keeps it
        "the shelf in the living room - put this on it",  # the topic may be where it goes
        "the fridge, put that in there",
        "the sink, put that over there",
        "the bin, chuck that in",
        "the fridge, put that in please",
        "the sofa - put this there",
        "the kids, take them to school",  # "them" may be people
        "the kettle, bin them",  # "them": not the one thing said before
    ],
)
def test_a_remark_a_list_or_a_request_naming_a_thing_keeps_the_parse(said: str) -> None:
    frame = parse_request(said)
    assert with_topic(frame) == frame
