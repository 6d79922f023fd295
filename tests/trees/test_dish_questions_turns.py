"""The three pad thai questions of the JANUS issue through the whole turn tree, with no model.

Each gets an answer from the advisor's graph with its evidence (the path through the dish's
composition), never "should I go ahead?" nor "out of scope"; with an allergy stored, the
answer is a veto.
"""

from __future__ import annotations

from collections.abc import Callable

from tests.trees.test_memory_conversation import Conversation, converse, domains  # noqa: F401 (fixtures)

Start = Callable[..., Conversation]


def test_does_pad_thai_contain_peanuts_is_answered_with_the_path(converse: Start) -> None:  # noqa: F811
    reply = converse().say("Does pad thai contain peanuts?")
    assert reply == "Pad Thai with prawns contains peanuts (pad Thai with prawns → peanuts)."


def test_is_it_safe_for_me_says_it_cannot_tell_without_a_profile(converse: Start) -> None:  # noqa: F811
    talk = converse()
    for question in ("Is the pad thai safe for me to eat?", "Is pad thai OK for me?"):
        reply = talk.say(question)
        assert "peanuts (in peanuts)" in reply  # the allergens, with where they come from
        assert "cannot be checked for you" in reply and "safe for you" not in reply
        # two sentences: what the robot cannot check, then what the dish holds; no "safe"
        assert "of yours yet. It contains these allergens: " in reply, reply
        assert " yet and " not in reply and "safe" not in reply


def test_a_stored_allergy_is_a_veto_with_its_evidence(converse: Start) -> None:  # noqa: F811
    talk = converse()
    talk.say("I'm allergic to peanuts")
    reply = talk.say("Is pad thai OK for me?")
    assert "is not safe for you, because of peanuts (pad Thai with prawns → peanuts)" in reply
    checked = talk.say("Does pad thai contain peanuts?")
    assert checked.startswith("Pad Thai with prawns contains peanuts")
    assert "not safe for you" in checked


TARGETS = "I aim for 2000 kcal, 75 g of protein, 250 g of carbs and 70 g of fat a day."


def test_stored_targets_come_with_is_it_ok_as_shares_never_as_a_verdict(converse: Start) -> None:  # noqa: F811
    talk = converse()
    assert "Noted" in talk.say(TARGETS)
    reply = talk.say("Would the pad thai be alright for me?")
    # 879.5 kcal, 48.7 g protein, 106 g carbohydrate, 30.2 g fat per serving (the graph's sums)
    assert "879.5 kcal of energy per serving, 44% of your 2000 kcal a day" in reply
    assert "30.2 g of fat per serving, 43% of your 70 g a day" in reply
    assert "48.7 g of protein per serving, 65% of your 75 g a day" in reply
    assert "106 g of carbohydrate per serving, 42% of your 250 g a day" in reply
    assert "cannot be checked for you" in reply and "safe for you" not in reply  # no verdict


def test_an_allergy_stays_the_first_word_when_targets_are_known(converse: Start) -> None:  # noqa: F811
    talk = converse()
    talk.say("Please set my daily targets to 2000 kcal, 75 g protein, 250 g carbs and 70 g fat")
    talk.say("I'm allergic to peanuts")
    reply = talk.say("Can I have the pad thai?")
    assert reply.startswith("Pad Thai with prawns is not safe for you, because of peanuts")
    assert "44% of your 2000 kcal a day" in reply
    assert reply.index("not safe") < reply.index("% of your")


def test_no_targets_no_shares(converse: Start) -> None:  # noqa: F811
    reply = converse().say("Would the pad thai be alright for me?")
    assert "% of your" not in reply and "per serving" not in reply


def test_a_reused_answer_keeps_the_shares_of_the_targets(converse: Start) -> None:  # noqa: F811
    talk = converse()
    talk.say(TARGETS)
    first = talk.say("Would the pad thai be alright for me?")
    again = talk.say("Would the pad thai be alright for me?")  # the held answer serves it
    assert "44% of your 2000 kcal a day" in first
    assert again == first
