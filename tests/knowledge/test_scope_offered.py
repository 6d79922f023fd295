"""A service no pack offers is out of scope at once
(knowledge.understanding.scope_matching.offers_nothing), the frame readings it relies on ("keep X
in Y" places, "for seven" is no recipient), and a thing described by its purpose ("something to
slice the loaf with")."""

from __future__ import annotations

import pytest

from cogtree.knowledge.language.request_frame import parse_request
from cogtree.knowledge.packs.domain_registry import DomainRegistry
from cogtree.knowledge.scene.referents.description import Description
from cogtree.knowledge.understanding.scope_matching import Offered, offers_nothing


@pytest.fixture(scope="module")
def offered() -> Offered:
    return Offered.of(DomainRegistry.discover().packs)


@pytest.mark.parametrize(
    "text",
    [
        "hail me a cab to the harbour",
        "renew my library membership",
        "download the latest podcast",
        "schedule a haircut for tuesday",
        "set a timer for ten",
    ],
)
def test_an_instruction_nothing_connects_to_is_a_service_not_offered(
    offered: Offered, text: str
) -> None:
    reason = offers_nothing(text, parse_request(text), lambda: offered, {})
    assert reason.startswith("a service the robot does not offer")


@pytest.mark.parametrize(
    "text",
    [
        "fetch the theodolite",  # a verb the robot serves, an object it has never seen
        "start the dishwasher",  # a task cue ("start the") and a household kind of thing
        "remember that the plumber comes on Friday",  # a memory task's verb
        "print the agenda for the meeting",  # the office pack's verb
        "what time does the bakery open",  # a question is never judged here
        "chop the onions",  # a skill the robot lacks is named, not declined
        "defrost the salmon fillet",  # a household kind of thing (food)
        "stream the cricket on the telly",  # names a household thing: the model may judge
    ],
)
def test_what_connects_is_not_declined_here(offered: Offered, text: str) -> None:
    assert offers_nothing(text, parse_request(text), lambda: offered, {}) == ""


def test_keep_with_a_place_is_a_placement_and_keep_in_mind_is_not() -> None:
    step = parse_request("keep the spare batteries in the kitchen drawer").steps[0]
    assert step.action == "place" and step.landmark is not None
    assert step.landmark.text == "the kitchen drawer"
    assert parse_request("keep that in mind please").clear_actions == []
    assert parse_request("keep the radio near you").clear_actions == ["place"]


@pytest.mark.parametrize("text", ["set a reminder for eight", "book a table for 4"])
def test_a_bare_number_after_for_is_no_recipient(text: str) -> None:
    step = parse_request(text).steps[0]
    assert step.recipient is None


@pytest.mark.parametrize(
    ("said", "looked_up"),
    [
        ("something to slice the loaf with", "something to slice with"),  # a tool's use
        ("the thing to unscrew jars with", "the thing to unscrew with"),
        ("the one to use for dusting", "the one to use for dusting"),
        ("a tin of beans", "a tin of beans"),
    ],
)
def test_a_thing_told_by_its_purpose_is_looked_up_by_the_verb(said: str, looked_up: str) -> None:
    assert str(Description.parse(said)) == looked_up


@pytest.mark.parametrize("text", ["who is in the living room?", "chop the onions"])
def test_what_is_not_judged_never_gathers_what_the_packs_offer(text: str) -> None:
    def gathered() -> Offered:
        raise AssertionError("a question or a missing skill needs no parse of the examples")

    assert offers_nothing(text, parse_request(text), gathered, {}) == ""
