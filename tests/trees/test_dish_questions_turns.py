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


def test_a_stored_allergy_is_a_veto_with_its_evidence(converse: Start) -> None:  # noqa: F811
    talk = converse()
    talk.say("I'm allergic to peanuts")
    reply = talk.say("Is pad thai OK for me?")
    assert "is not safe for you, because of peanuts (pad Thai with prawns → peanuts)" in reply
    checked = talk.say("Does pad thai contain peanuts?")
    assert checked.startswith("Pad Thai with prawns contains peanuts")
    assert "not safe for you" in checked
