"""A request of several clauses is done as far as its clauses became tasks; the reply says which
clause was left and why. Nothing is done when a clause before the left one leaves something on.

Frame level (the household pack) and the whole turn tree (simulator, no model).
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from cogtree.knowledge.language.request_frame import parse_request
from cogtree.knowledge.packs.domain_pack import DomainPack
from cogtree.knowledge.packs.domain_registry import DomainRegistry
from cogtree.knowledge.understanding.frame_tasks import doable_tasks
from cogtree.skills.planning.handover import LEFT_SOURCE, left_item
from tests.trees.test_memory_conversation import Conversation, converse, domains  # noqa: F401 (fixtures)

Start = Callable[..., Conversation]


@pytest.fixture(scope="module")
def household() -> DomainPack:
    return DomainRegistry.discover(active="household").get("household")


def test_the_steps_before_a_place_step_with_no_place_are_done(household: DomainPack) -> None:
    text = "fetch the grey mug and then set a spoon down"
    done = doable_tasks(parse_request(text), household, text)
    assert [(task.task, task.slots) for task in done.tasks] == [
        ("Fetch", {"object": "the grey mug"})
    ]
    assert done.left == ["set a spoon down"]
    assert done.why == "I could not tell where to put it"


def test_every_clause_from_the_first_left_one_on_is_left(household: DomainPack) -> None:
    text = "take the magazine to the bookshelf, then hum a tune and put the mugs in the sink"
    done = doable_tasks(parse_request(text), household, text)
    assert [task.task for task in done.tasks] == ["Bring"]
    assert done.left == ["hum a tune", "put the mugs in the sink"]
    assert done.why == "I could not tell what to do"


def test_nothing_is_done_when_a_step_before_the_left_one_heats(household: DomainPack) -> None:
    text = "warm the soup in the microwave and then juggle the spoons"
    done = doable_tasks(parse_request(text), household, text)
    assert done.tasks == []
    assert done.left == ["juggle the spoons"]


def test_the_left_clauses_are_said_with_why() -> None:
    item = left_item(["hum a tune", "put the mugs away"], "I could not tell what to do")
    assert item is not None and item.source == LEFT_SOURCE
    assert item.text == (
        "I did not do 'hum a tune', nor what comes after it: I could not tell what to do."
    )
    assert left_item([], "") is None


def test_the_turn_does_the_clauses_before_the_left_one_and_says_so(converse: Start) -> None:  # noqa: F811
    talk = converse(domain="household")
    said = talk.say("bring me the magazine and then sing the vase a lullaby")
    assert said == (
        "I brought you the magazine. "
        "I did not do 'sing the vase a lullaby': I could not tell what to do."
    )
