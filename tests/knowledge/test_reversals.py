"""Negations that may turn a request around, and those that only say which thing is meant."""

from __future__ import annotations

import pytest

from cogtree.knowledge.language.request_frame import parse_request
from cogtree.knowledge.safety.reversals import reversal_doubts
from cogtree.knowledge.understanding.turn_state import IntentFrame


def _doubts(said: str) -> list[str]:
    frame = IntentFrame(domain="household", task="Wipe", confidence=0.9, said=[said])
    return reversal_doubts(said, frame, parse_request(said), correction=False, picking=False)


@pytest.mark.parametrize(
    "said",
    [
        "wipe the hob with the blue cloth, not the manky dishcloth",
        "stand the vase on the mat, not straight on the piano",
        "put the bread in the bin, not in the fridge",
        "fetch me a biscuit, but not the ginger ones",
    ],
)
def test_a_not_that_only_sets_another_thing_aside_is_no_doubt(said: str) -> None:
    assert _doubts(said) == []


@pytest.mark.parametrize(
    "said",
    [
        "don't wipe the hob",
        "wipe the hob, not now",
        "wipe it, not with the dishcloth",  # the parse read the dishcloth as the tool
        "get rid of the peel? compost, not the trash",  # a step that wants nothing
        "not the hob, the table",  # a correction opens the request
        "put the kettle on, not this morning",  # a time: not now
        "throw the pills in the bin, not my heart pills",  # another of those wanted
        "put the cup in the microwave, not the metal one",
        "pour Leo the juice, not the one in the bleach bottle",  # says which only after it
        "give grandma the tablets, not the ones with the warfarin",
        "Shed. Don't put it in the shed.",  # an order beside an answer
        "Fridge. I don't want it moved after all",  # a statement beside it that takes it back
        "not the shed",
    ],
)
def test_a_not_that_may_turn_the_request_around_stays_a_doubt(said: str) -> None:
    assert any(doubt.startswith("negation") for doubt in _doubts(said))
