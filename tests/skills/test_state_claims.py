"""State claims of a reply held to the belief (skills.safety.state_claims), as pure functions."""

from __future__ import annotations

import pytest

from cogtree.knowledge.language.entity_names import FormNames
from cogtree.skills.safety.state_claims import ThingState, states_claimed, unbacked_state_claims

FORMS = FormNames(
    {
        name: frozenset({thing})
        for name, thing in {
            "hob": "stove",
            "stove": "stove",
            "kettle": "kettle",
            "leftovers": "leftovers",
            "microwave": "microwave",
            "mug": "mug",
            "knife": "knife",
            "lamp": "lamp",
        }.items()
    }
)


def belief(*, hob_on: bool) -> dict[str, ThingState]:
    return {
        "stove": ThingState("stove", powered=hob_on, heat_source=True),
        "kettle": ThingState("kettle", powered=False, heat_source=True),
        "leftovers": ThingState("leftovers", support="microwave"),
        "microwave": ThingState("microwave", powered=False, heat_source=True),
        "mug": ThingState("mug", support="table"),
        "knife": ThingState("knife", kinds=frozenset({"sharp"})),
        "lamp": ThingState("lamp", powered=None),
    }


def refused(reply: str, *, hob_on: bool = True, topic: tuple[str, ...] = ()) -> list[str]:
    return unbacked_state_claims(reply, FORMS, belief(hob_on=hob_on).get, topic)


@pytest.mark.parametrize(
    ("reply", "hob_on"),
    [
        ("The hob is off now, it is safe to touch.", True),
        ("The hob is off now and safe to touch.", False),  # residual heat: never said
        ("The hob is off and cool.", False),
        ("Until now it was on, but the hob is off and cool.", False),  # a condition ends
        ("I switched the hob off when you asked and it is cool now.", False),  # its own verb
        ("It's safe to touch the hob - you can go ahead.", False),
        ("Safe to touch: the hob.", False),
        ("Yes, the hob isn't on.", True),
        ("I switched the hob off.", True),
        ("Your leftovers are heating.", True),  # the microwave is off
        ("The kettle is boiling.", True),
        ("The knife is safe to touch.", True),
        ("The lamp is off.", True),  # its state is unknown: unknown is not off
    ],
)
def test_a_claim_the_belief_does_not_back_is_refused(reply: str, hob_on: bool) -> None:
    """Checked to fail before the review's fixes for the untied, modal, 'isn't' and 'after'
    wordings (they passed)."""
    assert refused(reply, hob_on=hob_on), reply


def test_a_touch_claim_tied_to_nothing_is_refused() -> None:
    assert refused("It is safe to touch now.")
    assert refused("It is cool now.")
    assert not refused("It is safe to touch now.", topic=("mug",))


@pytest.mark.parametrize(
    "reply",
    [
        "Careful, the hob is hot.",
        "The hob is on.",
        "The mug is on the table.",
        "Is the hob off?",
        "Once the hob is cool, I will wipe it.",
        "The hob is on or hot; I will not touch it until it is off and cool.",
        "I will wait until the hob is cool and off.",
        "I could not switch the hob off.",
        "I will switch the kettle on.",
        "The hob is not safe to touch.",
        "The mug is safe to touch.",
        'You said the mug has "boiling water" in it.',  # the user's words, reported
    ],
)
def test_warnings_questions_plans_and_backed_claims_pass(reply: str) -> None:
    assert refused(reply, hob_on=True) == [], reply


def test_off_is_backed_by_the_beliefs_unpowered_state() -> None:
    assert refused("The hob is off.", hob_on=False) == []
    assert refused("The kettle is off.") == []


def test_a_reply_with_no_state_words_needs_no_belief() -> None:
    assert not states_claimed("I brought the mug to the table.")
    assert states_claimed("The hob is off now.")


@pytest.mark.parametrize(
    "reply",
    [
        "I could not do it: the mug is on table 1.",
        "The mug is not on the counter.",
        "I turned the mug on its side.",
        "The lamp fell off the shelf.",
    ],
)
def test_on_and_off_as_places_are_no_states(reply: str) -> None:
    """Checked to fail before: 'is on table 1' was read as a running claim about the mug."""
    assert refused(reply) == [], reply


def test_switching_verbs_with_the_thing_between_still_claim() -> None:
    assert refused("I switched the kettle on.")  # the belief says it is off
    assert refused("I turned on the kettle.")
    assert refused("I switched the hob off.", hob_on=False) == []


def test_a_subject_the_robot_does_not_know_is_not_another_thing() -> None:
    """Checked to fail before: 'the robot side is not running' was read as the hob being off."""
    reply = "The hob is on. The robot side is not running; start it."
    assert refused(reply) == []
    assert refused("The hob is on. The hob is not running.")  # its own subject: checked
