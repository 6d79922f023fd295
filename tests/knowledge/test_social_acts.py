"""Social turns read from a request's parse: what they do, and what the robot says back."""

from __future__ import annotations

import pytest

from cogtree.knowledge.language.grammar.social_acts import (
    SocialAct,
    answer_in_kind,
    answers_no_question,
    clause_acts,
    social_acts,
)
from cogtree.knowledge.language.request_frame import parse_request
from cogtree.knowledge.understanding.pending_question import turn_acts


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
        ("Nah, best not. Cheers though.", ["decline", "decline", "thanks"], "All right."),
    ],
)
def test_a_social_turn_is_read_and_answered_in_kind(
    text: str, acts: list[str], answer: str
) -> None:
    found = social_acts(text)
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
        "thank you, I'm bleeding",  # a courtesy never swallows what comes with it
        "hello, there's smoke",
        "ok, I'm diabetic",
        "no, careful",
        "thanks, mug",  # an answer to a question that waits
        "Nah, best not - early start tomorrow.",
    ],
)
def test_a_turn_that_asks_or_answers_is_no_social_turn(text: str) -> None:
    assert social_acts(text) == ()


def test_a_clause_with_a_word_of_no_formula_has_no_acts() -> None:
    assert clause_acts("thanks for the tea") == ()
    assert clause_acts("oh, thanks very much though") == (SocialAct.THANKS,)


def test_courtesies_and_dismissals_answer_no_question() -> None:
    assert answers_no_question((SocialAct.THANKS, SocialAct.FAREWELL))
    assert answers_no_question((SocialAct.DISMISSAL,))  # "never mind": dropped
    assert not answers_no_question((SocialAct.DECLINE, SocialAct.THANKS))  # "no, thanks" may
    assert not answers_no_question(())


def test_answering_no_act_is_a_mistake_of_the_caller() -> None:
    with pytest.raises(ValueError, match="at least one social act"):
        answer_in_kind(())


@pytest.mark.parametrize(
    ("text", "acts"),
    [
        ("nah, you're alright", ["decline", "decline"]),
        ("no thanks, I'll get them myself", ["dismissal"]),
        ("Nope - it's warm enough in here as it is.", ["decline"]),
        ("nah, leave that on", ["decline"]),
        ("no, it's fine, ta", ["decline"]),
        ("no, the striped one", []),  # picks a thing: an answer, not a decline
        ("no, that one", []),
        ("no, I meant the striped one", []),  # a redirect: what is wanted instead
        ("nah, I want the striped mug", []),  # a want of its own
        ("no, I need the striped mug", []),
        ("no, bring me the other one", []),  # a request of its own
        ("no, where is it?", []),  # a question
        ("no, leave it on the shelf", []),  # somewhere to put it
        ("yes, it's fine", []),  # a yes
        ("it's cold enough as it is", []),  # no no to open it
    ],
)
def test_a_no_and_why_is_a_decline_and_a_no_with_more_is_not(text: str, acts: list[str]) -> None:
    assert list(turn_acts(parse_request(text))) == acts
