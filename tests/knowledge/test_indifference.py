"""Words that leave the choice to the robot, in an answer or a remark after a request."""

from __future__ import annotations

import pytest

from cogtree.knowledge.language.closing_tags import as_read
from cogtree.knowledge.language.grammar.indifference import (
    HEDGES,
    leaves_the_choice,
    without_choice_left,
    without_opinion,
)


@pytest.mark.parametrize(
    ("said", "left"),
    [
        ("whatever's there", True),
        ("I don't mind which", True),
        ("whichever's nearest", True),
        ("either's fine", True),
        ("oh, either's fine, love", True),  # failed before: "oh" and "love" said more
        ("either way, ask my son", False),  # says more than how to choose
        # a negation or a constraint beside the phrase is no indifference (the reviewer's)
        ("I don't mind which one but not that one", False),
        ("any of them except mine", False),
        ("whichever is not his", False),
        ("whatever you do", False),
        ("whatever you like best", False),
        ("the blue one", False),
    ],
)
def test_a_remark_leaves_the_choice_only_when_it_says_nothing_more(said: str, left: bool) -> None:
    assert leaves_the_choice(said) is left


@pytest.mark.parametrize(
    ("text", "read"),
    [
        # checked to fail before: "whatever's" was read as a second thing to bring
        (
            "bring us a cold drink from the fridge, whatever's there",
            "bring us a cold drink from the fridge",
        ),
        ("pass me a mug, I don't mind which", "pass me a mug"),
        ("grab a towel, doesn't matter which", "grab a towel"),  # was read as a statement
        ("pass me a mug, whatever you like best", "pass me a mug, whatever you like best"),
        ("either", "either"),  # an answer on its own is kept
    ],
)
def test_the_grammar_reads_a_request_without_the_remark(text: str, read: str) -> None:
    assert as_read(text) == read


def test_a_remark_that_leaves_the_choice_is_neither_hedge_nor_negation() -> None:
    """Checked to fail before: the readiness gate read "whatever" as the user unsure and
    "don't" as a negation, and asked to confirm a plain request."""
    text = without_choice_left("grab me a tissue, I don't mind which. Whatever's there")
    assert text == "grab me a tissue"
    assert HEDGES.search(without_choice_left("get me a drink or something, any will do"))


@pytest.mark.parametrize(
    ("said", "left"),
    [
        ("I don't mind", ""),  # failed before: the readiness gate read "don't" as a no
        ("Oh, I don't mind. Either", "Oh"),
        ("don't bring the mug", "don't bring the mug"),
    ],
)
def test_an_answer_that_only_leaves_the_choice_goes_whole(said: str, left: str) -> None:
    assert without_choice_left(said) == left


@pytest.mark.parametrize(
    ("said", "hedged"),
    [
        ("the grey one I think", False),
        ("probably the grey one", False),
        ("maybe the grey one", True),
        ("the grey one, or something", True),
    ],
)
def test_a_view_is_no_hedge_but_a_doubt_stays_one(said: str, hedged: bool) -> None:
    assert bool(HEDGES.search(without_opinion(said))) is hedged
