"""Simulated people: answers from the hidden intent, and delegated tasks over ticks."""

from __future__ import annotations

import pytest
from pydantic import TypeAdapter

from cogtree.sim.humans import DONT_KNOW, DelegatedTask, HiddenIntent, People, answer_from
from cogtree.sim.world import World

INTENT = TypeAdapter(HiddenIntent).validate_python(
    {
        "object": {"value": "the blue bottle", "keywords": ["which bottle", "which one"]},
        "destination": {"value": "the table in the bedroom", "keywords": ["where", "which table"]},
        "drink_size": "a large glass",
    }
)


@pytest.mark.parametrize(
    ("question", "slot", "answer"),
    [
        ("Which bottle do you mean?", "object", "the blue bottle"),
        ("Where should I put it?", "destination", "the table in the bedroom"),
        ("WHICH TABLE?", "destination", "the table in the bedroom"),
        ("What drink size would you like?", "drink_size", "a large glass"),
        ("Do you mean the blue bottle?", "object", "Yes."),
        ("Do you mean the green bottle, which one?", "object", "No, the blue bottle."),
        ("Should I put it on the table in the bedroom?", "destination", "Yes."),
        ("What is your name?", None, DONT_KNOW),
        ("", None, DONT_KNOW),
    ],
)
def test_answers_come_from_the_hidden_intent(question: str, slot: str | None, answer: str) -> None:
    assert answer_from(INTENT, question) == (slot, answer)


def test_ties_go_to_the_slot_written_first() -> None:
    intent = TypeAdapter(HiddenIntent).validate_python(
        {
            "first": {"value": "one", "keywords": ["which"]},
            "second": {"value": "two", "keywords": ["which"]},
        }
    )
    assert answer_from(intent, "which?") == ("first", "one")


def test_only_the_speaker_knows_the_intent(world: World) -> None:
    people = People(world, speaker="alex", hidden_intent=INTENT)
    assert people.ask("alex", "Which bottle?").text == "the blue bottle"
    assert people.ask("anna", "Which bottle?").text == DONT_KNOW
    assert [a.person for a in people.questions] == ["alex", "anna"]
    assert "asked alex: 'Which bottle?' -> 'the blue bottle'" in world.state.history[0]


def test_unreachable_asleep_or_unknown_people_do_not_answer(world: World) -> None:
    people = People(world, speaker="alex", hidden_intent=INTENT)
    bob = people.ask("bob", "Which bottle?")
    assert (bob.reached, bob.reason) == (False, "bob does not respond")
    world.advance(50)
    assert people.ask("anna", "Where?").reason == "anna is asleep"
    assert "no person 'zed'" in people.ask("zed", "Where?").reason
    world.set_availability("alex", "busy")
    assert people.ask("alex", "Where?").reached  # busy people still answer


def test_a_delegated_task_takes_its_ticks(world: World) -> None:
    people = People(world)
    future = people.delegate("anna", DelegatedTask(ability="sign", description="the form"))
    assert not future.done() and people.working == [("anna", "sign", 3)]
    assert world.availability("anna") == "busy"
    for _ in range(2):
        world.advance(1)
        people.step()
    assert not future.done()
    world.advance(1)
    people.step()
    assert future.result().ok and future.result().message == "anna did sign: the form"
    assert world.did("anna", "sign") and world.availability("anna") == "available"


@pytest.mark.parametrize(
    ("person", "ability", "code", "message"),
    [
        ("anna", "dance", "person_refused", "anna cannot dance (abilities: sign, print)"),
        ("anna", "print", "person_refused", "anna refuses to print"),
        ("bob", "sign", "person_unavailable", "bob does not respond"),
        ("zed", "sign", "object_not_found", "no person 'zed'"),
    ],
)
def test_refusals_resolve_at_once(
    world: World, person: str, ability: str, code: str, message: str
) -> None:
    future = People(world).delegate(person, DelegatedTask(ability=ability))
    feedback = future.result(timeout=0)
    assert (feedback.ok, feedback.code) == (False, code)
    assert feedback.message.startswith(message)


def test_busy_people_are_unavailable(world: World) -> None:
    people = People(world)
    people.delegate("anna", DelegatedTask(ability="sign"))
    second = people.delegate("anna", DelegatedTask(ability="sign")).result(timeout=0)
    assert (second.code, second.message) == ("person_unavailable", "anna is busy")


def test_a_person_who_leaves_fails_the_task(world: World) -> None:
    people = People(world)
    future = people.delegate("anna", DelegatedTask(ability="sign"))
    world.move_person("anna", None)
    world.advance(3)
    people.step()
    assert future.result().code == "person_unavailable"
    assert "anna left before finishing sign" in future.result().message
    assert not world.did("anna", "sign")


def test_a_task_can_be_withdrawn(world: World) -> None:
    people = People(world)
    future = people.delegate("anna", DelegatedTask(ability="sign"))
    assert people.cancel(future) and future.cancelled()
    assert world.availability("anna") == "available" and people.working == []
    assert not people.cancel(future)
