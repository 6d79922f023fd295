"""asks_the_robot: a question to the robot, by how the utterance starts."""

from __future__ import annotations

import pytest

from cogtree.knowledge.language.question_form import asks_the_robot


@pytest.mark.parametrize(
    "text",
    [
        "where is the magazine?",
        "What's my name",
        "how many calories does lasagne have?",
        "am I allergic to anything",
        "do you know my name",
        "tell me what you know about me",
        "is there milk in the fridge?",
    ],
)
def test_questions_to_the_robot(text: str) -> None:
    assert asks_the_robot(text)


@pytest.mark.parametrize(
    "text",
    ["the white one", "the white one?", "what about the white one?", "how about the shelf", ""],
)
def test_answers_and_hesitant_answers_are_not_questions(text: str) -> None:
    assert not asks_the_robot(text)
