"""A thing named first and the request after it: the request's "it" or missing object is it."""

from __future__ import annotations

import pytest

from cogtree.knowledge.language.request_frame import parse_request
from cogtree.knowledge.language.step_antecedents import with_topic


@pytest.mark.parametrize(
    ("said", "thing"),
    [
        ("the mouldy bread in the bin, compost it", "the mouldy bread in the bin"),
        ("oh, and while you're there - those old batteries on the shelf, recycle please",
         "those old batteries on the shelf"),
        ("my reading lamp - switch it off", "my reading lamp"),
        ("the used filters, bin them", "the used filters"),
    ],
)  # fmt: skip
def test_a_request_that_names_nothing_takes_the_thing_said_before_it(said: str, thing: str) -> None:
    (step,) = with_topic(parse_request(said)).steps
    assert [f"{phrase.text} {phrase.where}".strip() for phrase in step.objects] == [thing]


@pytest.mark.parametrize(
    "said",
    [
        "I'm cold, bring it",  # no noun phrase before it
        "the soup's gone cold, bin it",  # a clause: the soup is the topic of a remark
        "the milk is off, bin it",
        "the kettle, pass me the blue mug",  # the request names its own thing
    ],
)
def test_a_clause_or_a_request_naming_its_own_thing_keeps_the_parse(said: str) -> None:
    frame = parse_request(said)
    assert with_topic(frame) == frame
