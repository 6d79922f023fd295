"""Names said in a request: a person's word that only describes a thing, a label said whole."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from cogtree.trees.assistant_session import AssistantSession

LOUNGE = """
id: names_said
title: A bedroom and a living room with two children
tier: simple
robot: robot1
world:
  rooms:
    bedroom: {}
    living_room: {label: living room}
  doors:
    hall: {between: [bedroom, living_room], kind: passage}
  furniture:
    bed: {kind: surface, type: Bed, room: bedroom, height_m: 0.5, label: double bed}
    window_a: {kind: container, type: Window, room: bedroom, height_m: 1.0, open: true,
               label: window by the bed}
    window_b: {kind: container, type: Window, room: bedroom, height_m: 1.0, open: true,
               label: window over the dressing table}
    coffee_table: {kind: surface, type: Table, room: living_room, height_m: 0.45,
                   label: coffee table}
  objects:
    wimpy: {type: UnclassifiedThing, on: coffee_table, mass_kg: 0.3, label: Diary of a Wimpy Kid}
  robots:
    robot1: {profile: humanoid, room: living_room}
  people:
    rachel: {room: living_room}
    mia: {room: living_room, age_group: child}
    ethan: {room: living_room, age_group: child}
  types:
    UnclassifiedThing: {label: unclassified}  # a kind perception could not name
belief:
  seen_seconds_ago: 600
request: {speaker: rachel, text: hello}
goal: {all: ["on(wimpy, coffee_table)"]}
"""


@pytest.fixture
def session(text_session: Callable[[str, str], AssistantSession]) -> AssistantSession:
    return text_session(LOUNGE, "names_said")


def test_a_persons_word_before_the_things_head_does_not_name_the_person(
    session: AssistantSession,
) -> None:
    turn = session.turn("give the Wimpy Kid book to one of the kids")
    assert "is a person, not an object" not in turn.reply  # the book, not the children
    assert turn.control == "Clarify" and "mia" in turn.reply and "ethan" in turn.reply


def test_a_child_named_as_the_thing_to_move_is_still_a_person(session: AssistantSession) -> None:
    turn = session.turn("carry the kid to the coffee table")
    assert turn.control == "Reject"
    assert "is a person, not an object" in turn.reply


def test_a_label_said_whole_with_its_place_words_names_the_thing(
    session: AssistantSession,
) -> None:
    turn = session.turn("shut the window by the bed")
    assert turn.control == "Proceed"
    assert "closed the window by the bed" in turn.reply
