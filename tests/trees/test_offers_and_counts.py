"""An offer to bring what was just found, and requests that count things, through the turn tree."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from cogtree.evaluation.scenarios.scenario_run import TurnRecord
from cogtree.trees.assistant_session import AssistantSession

KITCHEN = """
id: offers_and_counts
title: A kitchen with reading glasses, four apples and three plates
tier: simple
robot: robot1
world:
  rooms:
    kitchen: {}
  furniture:
    counter: {kind: surface, type: Counter, room: kitchen, height_m: 0.9, label: counter}
    table: {kind: surface, type: Table, room: kitchen, height_m: 0.75, label: table}
  objects:
    glasses: {type: Spectacles, on: counter, mass_kg: 0.05, label: reading glasses}
    apple_1: {type: Apple, on: counter, mass_kg: 0.1, label: apple}
    apple_2: {type: Apple, on: counter, mass_kg: 0.1, label: apple}
    apple_3: {type: Apple, on: counter, mass_kg: 0.1, label: apple}
    apple_4: {type: Apple, on: counter, mass_kg: 0.1, label: apple}
    plate_1: {type: Plate, on: counter, mass_kg: 0.3, label: dinner plate}
    plate_2: {type: Plate, on: counter, mass_kg: 0.3, label: dinner plate}
    plate_3: {type: Plate, on: counter, mass_kg: 0.3, label: dinner plate}
    mug_red: {type: Mug, on: counter, mass_kg: 0.3, label: red mug}
    mug_striped: {type: Mug, on: counter, mass_kg: 0.3, label: striped mug}
  robots:
    robot1: {profile: humanoid, room: kitchen}
  people:
    rachel: {room: kitchen}
belief:
  seen_seconds_ago: 600
request: {speaker: rachel, text: hello}
goal: {all: ["on(apple_1, counter)"]}
"""

OFFER = "I can bring the reading glasses to you, if you like."


@pytest.fixture
def session(text_session: Callable[[str, str], AssistantSession]) -> AssistantSession:
    return text_session(KITCHEN, "offers_and_counts")


@pytest.mark.parametrize("yes", ["yes please", "Oh yes please, you're a treasure.", "go on then"])
def test_a_yes_to_the_offer_after_an_answer_brings_the_thing(
    session: AssistantSession, yes: str
) -> None:
    """Checked to fail before: no offer was made, and the yes was out of scope."""
    answer = session.turn("where are my reading glasses?")
    assert answer.reply.endswith(OFFER), answer.reply
    brought = session.turn(yes)
    assert brought.control == "Proceed" and "I brought you the reading glasses" in brought.reply


@pytest.mark.parametrize("other", ["no thanks", "thanks", "where are the apples?"])
def test_anything_but_a_yes_lets_the_offer_lapse(session: AssistantSession, other: str) -> None:
    session.turn("where are my reading glasses?")
    after = session.turn(other)
    assert "brought" not in after.reply, after.reply
    assert "brought" not in session.turn("yes").reply


def test_no_offer_for_furniture(session: AssistantSession) -> None:
    assert "I can bring" not in session.turn("where is the table?").reply


@pytest.mark.parametrize(
    ("said", "count"),
    [("bring me two apples", 2), ("bring me two of the apples", 2), ("fetch me 3 apples", 3)],
)
def test_a_count_of_things_alike_takes_that_many(
    session: AssistantSession, said: str, count: int
) -> None:
    """Checked to fail before: "Which two apples do you mean: ...?"."""
    record = TurnRecord()
    record.add(turn := session.turn(said))
    assert turn.control == "Proceed", turn.reply
    handed = [step for step in record.executed if step.startswith("HANDOVER(")]
    assert len(handed) == count, record.executed
    assert turn.reply == f"I brought you the apple ({count} of them).", turn.reply


def test_a_couple_of_plates_are_two_put_on_the_table(session: AssistantSession) -> None:
    """Checked to fail before: one plate was put down."""
    record = TurnRecord()
    record.add(turn := session.turn("put a couple of plates on the table"))
    assert turn.control == "Proceed", turn.reply
    assert [step for step in record.executed if step.startswith("PLACE(")] == [
        "PLACE(object=plate_1, target=table, hand=right)",
        "PLACE(object=plate_2, target=table, hand=right)",
    ]


def test_more_than_there_are_is_asked_about(session: AssistantSession) -> None:
    turn = session.turn("put five plates on the table")
    assert turn.control == "Clarify", turn.reply


def test_the_other_thing_named_after_a_pick_of_any_one_is_brought_instead(
    session: AssistantSession,
) -> None:
    """Checked to fail before: the reply named the striped mug as there too, but "the striped
    one" in the next turn was asked about ("Which object should I bring ...?")."""
    first = session.turn("bring me a mug")
    assert first.reply == (
        "I brought you the red mug. The striped mug is there too, if you meant that one instead."
    )
    record = TurnRecord()
    record.add(instead := session.turn("the striped one"))
    assert instead.control == "Proceed", instead.reply
    assert "HANDOVER(object=mug_striped, person=rachel, hand=right)" in record.executed


@pytest.mark.parametrize("other", ["thanks", "where are the apples?"])
def test_anything_but_a_pick_lets_the_other_things_go(
    session: AssistantSession, other: str
) -> None:
    session.turn("bring me a mug")
    session.turn(other)
    record = TurnRecord()
    record.add(session.turn("the striped one"))
    assert not [step for step in record.executed if "mug_striped" in step], record.executed


@pytest.mark.parametrize(
    "no",
    [
        "nah, you're alright",
        "no thanks, I'll get them myself",
        "no ta, it's fine, I'm going up anyway",
    ],
)
def test_a_no_to_the_offer_with_a_reason_is_taken_as_said(
    session: AssistantSession, no: str
) -> None:
    """Checked to fail before: a no with its reason was read as a request, out of scope
    ("Sorry, I can't help with that: it is outside what I do...")."""
    answer = session.turn("where are my reading glasses?")
    assert answer.reply.endswith(OFFER), answer.reply
    record = TurnRecord()
    record.add(declined := session.turn(no))
    assert declined.reply == "All right.", declined.reply
    assert not record.executed


def test_a_no_to_the_other_thing_offered_lets_it_go(session: AssistantSession) -> None:
    """Checked to fail before: "no, it's fine" after the offer of the other mug was out of
    scope."""
    session.turn("bring me a mug")
    assert session.turn("no, it's fine").reply == "All right."


@pytest.mark.parametrize("pick", ["no, the striped one", "nah, I want the striped mug"])
def test_a_no_that_says_which_still_takes_the_other_thing(
    session: AssistantSession, pick: str
) -> None:
    """A no that goes on to name the thing wanted is no decline (a reviewer's case)."""
    session.turn("bring me a mug")
    record = TurnRecord()
    record.add(session.turn(pick))
    assert "HANDOVER(object=mug_striped, person=rachel, hand=right)" in record.executed


def test_letting_a_thing_be_after_the_robot_acted_is_acknowledged(
    session: AssistantSession,
) -> None:
    """Checked to fail before: "nah, leave that on" was out of scope."""
    session.turn("bring me a mug")
    record = TurnRecord()
    record.add(let_be := session.turn("nah, leave that on"))
    assert let_be.reply == "All right." and not record.executed


LANDING = """
id: two_rolls_upstairs
title: Two toilet rolls in the airing cupboard on the landing, the user in the kitchen
tier: simple
robot: robot1
world:
  rooms:
    kitchen: {}
    landing: {}
  doors:
    stairs: {between: [kitchen, landing], kind: passage}
  furniture:
    airing: {kind: container, type: Cupboard, room: landing, height_m: 1.0, open: true,
             label: airing cupboard}
  objects:
    roll_1: {type: ToiletPaper, in: airing, mass_kg: 0.1, label: toilet roll}
    roll_2: {type: ToiletPaper, in: airing, mass_kg: 0.1, label: toilet roll}
  robots:
    robot1: {profile: humanoid, room: kitchen}
  people:
    rachel: {room: kitchen}
belief:
  seen_seconds_ago: 600
request: {speaker: rachel, text: hello}
goal: {all: ["in(roll_1, airing)"]}
"""


def test_things_nobody_could_tell_apart_are_either_one_wherever_they_are(
    text_session: Callable[[str, str], AssistantSession],
) -> None:
    """Checked to fail before: two toilet rolls side by side out of the speaker's room were
    asked about ("Which toilet roll do you mean: the toilet roll ... or the toilet roll ...?")."""
    session = text_session(LANDING, "two_rolls_upstairs")
    record = TurnRecord()
    record.add(turn := session.turn("bring me the toilet roll"))
    assert turn.control == "Proceed", turn.reply
    assert len([step for step in record.executed if step.startswith("HANDOVER(")]) == 1
