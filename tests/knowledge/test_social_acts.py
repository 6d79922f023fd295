"""Social turns read from a request's parse: what they do, and what the robot says back."""

from __future__ import annotations

import pytest

from cogtree.knowledge.language.grammar.social_acts import (
    SocialAct,
    answer_in_kind,
    clause_acts,
    courtesy_only,
    social_acts,
)
from cogtree.knowledge.language.request_frame import parse_request


@pytest.mark.parametrize(
    ("text", "acts", "answer"),
    [
        ("thank you", ["thanks"], "You're welcome."),
        ("Thanks a lot, love", ["thanks"], "You're welcome."),
        (
            "hello there how are you doing today",
            ["greeting", "asked_after"],
            "Hello! I'm well, thank you. What can I do for you?",
        ),
        (
            "hiya, you alright?",
            ["greeting", "asked_after"],
            "Hello! I'm well, thank you. What can I do for you?",
        ),
        ("take care", ["farewell"], "Goodbye!"),  # not a "take" of something
        ("that's all for now", ["farewell"], "Goodbye!"),
        ("lovely, cheers", ["acknowledgement", "thanks"], "All right."),
        (
            "Nah, best not - early start tomorrow. Cheers though.",
            ["decline", "decline", "thanks"],
            "All right.",
        ),
    ],
)
def test_a_social_turn_is_read_and_answered_in_kind(
    text: str, acts: list[str], answer: str
) -> None:
    found = social_acts(parse_request(text))
    assert [str(act) for act in found] == acts
    assert answer_in_kind(found) == answer


@pytest.mark.parametrize(
    "text",
    [
        "thanks, now put the mug in the sink",  # a step outside the social clause
        "bye then, and switch off the light",
        "thanks! where are my keys?",  # a question
        "no, the blue one",  # names a thing: an answer
        "Ta. And the pepper too.",  # a request carried on
        "Oh yes please, you're a treasure.",  # a yes is an answer or a want
        "I'm a bit chilly.",  # no social clause at all
        "right",  # a filler alone says nothing
    ],
)
def test_a_turn_that_asks_or_answers_is_no_social_turn(text: str) -> None:
    assert social_acts(parse_request(text)) == ()


def test_a_clause_with_a_word_of_no_formula_has_no_acts() -> None:
    assert clause_acts("thanks for the tea") == ()
    assert clause_acts("oh, thanks very much though") == (SocialAct.THANKS,)


def test_only_thanks_greetings_and_farewells_never_answer_a_question() -> None:
    assert courtesy_only((SocialAct.THANKS, SocialAct.FAREWELL))
    assert not courtesy_only((SocialAct.DECLINE, SocialAct.THANKS))  # "no thanks" may answer
    assert not courtesy_only(())


def test_answering_no_act_is_a_mistake_of_the_caller() -> None:
    with pytest.raises(ValueError, match="at least one social act"):
        answer_in_kind(())
