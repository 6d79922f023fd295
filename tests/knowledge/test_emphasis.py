"""Emphasis after a question word is left out before the grammar reads a request."""

from __future__ import annotations

import pytest

from cogtree.knowledge.language.grammar.emphasis import without_emphasis
from cogtree.knowledge.language.request_frame import parse_request


@pytest.mark.parametrize(
    ("text", "read"),
    [
        ("Now where on earth did I put my glasses?", "Now where did I put my glasses?"),
        ("what the heck is in the oven", "what is in the oven"),
        ("Who in the  world moved my chair", "Who moved my chair"),
        ("put the globe on earth day's poster", "put the globe on earth day's poster"),
        ("the heck with it", "the heck with it"),
    ],
)
def test_only_emphasis_after_a_question_word_goes(text: str, read: str) -> None:
    assert without_emphasis(text) == read


def test_a_where_question_with_emphasis_asks_for_the_thing() -> None:
    plain, emphatic = (
        parse_request(text)
        for text in ("where did I put my glasses", "where on earth did I put my glasses")
    )
    assert [step.action for step in emphatic.steps] == [step.action for step in plain.steps]
    assert [phrase.text for phrase in emphatic.steps[0].objects] == ["my glasses"]
