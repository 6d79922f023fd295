"""How many things a noun phrase means (knowledge/language/grammar/number.py).

Every phrase here was written for this test; none comes from an evaluation set.
"""

from __future__ import annotations

import pytest

from cogtree.knowledge.language.grammar.number import count_of, names_every, without_count


@pytest.mark.parametrize(
    ("said", "names"),
    [
        ("the plates", ["dinner plate", "side plate"]),
        ("all the towels", ["towel"]),
        ("both lamps", ["desk lamp", "floor lamp"]),
        ("each cushion", ["cushion"]),
        ("ruby's shoes", ["trainer", "wellington boot"]),
        ("the gardening stuff", ["trowel", "seed tray"]),
        ("some baking things", ["whisk", "sieve"]),
        ("the green ones", ["green apple"]),
        ("the mugs on the table", ["blue mug", "striped mug"]),
    ],
)
def test_phrases_that_mean_every_thing_they_fit(said: str, names: list[str]) -> None:
    assert names_every(said, names)


@pytest.mark.parametrize(
    ("said", "names"),
    [
        ("the plate", ["dinner plate", "side plate"]),
        ("a towel", ["towel"]),
        ("one of the lamps", ["lamp"]),
        ("three lamps", ["lamp"]),
        ("some plates", ["plate"]),
        ("the tongs", ["salad tongs", "bbq tongs"]),  # a plural that is the thing's own name
        ("my jeans", ["jeans"]),
        ("the scissors by the sink", ["kitchen scissors", "nail scissors"]),  # checked to fail
        ("the stuff", ["trowel"]),  # a heap named by nothing
        ("", []),
    ],
)
def test_phrases_that_mean_one_thing_or_a_number(said: str, names: list[str]) -> None:
    assert not names_every(said, names)


@pytest.mark.parametrize("names", [["茶杯"], ["\u2014"], ["ß"], [""], ["café mug"]])
def test_names_of_any_script_are_read_without_failing(names: list[str]) -> None:
    assert names_every("the mugs", names)
    assert not names_every("the mug", names)


@pytest.mark.parametrize(
    ("said", "count"),
    [
        ("two mugs", 2),
        ("a couple of biscuits", 2),
        ("a pair of socks", 2),
        ("3 apples", 3),
        ("two of the plates", 2),
        ("ten pegs", 10),
        ("the two plates", 0),
        ("a few mugs", 0),
        ("some mugs", 0),
        ("a mug", 0),
        ("the mugs", 0),
    ],
)
def test_the_count_that_opens_a_phrase(said: str, count: int) -> None:
    assert count_of(said) == count


@pytest.mark.parametrize(
    ("said", "rest"),
    [
        ("two of the plates", "the plates"),
        ("a couple of biscuits", "biscuits"),
        ("3 apples", "apples"),
        ("the mugs", "the mugs"),
        ("one of the mugs", "one of the mugs"),
    ],
)
def test_a_phrase_without_its_count(said: str, rest: str) -> None:
    assert without_count(said) == rest
