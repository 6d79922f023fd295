"""How many things a noun phrase means (knowledge/language/grammar/number.py).

Every phrase here was written for this test; none comes from an evaluation set.
"""

from __future__ import annotations

import pytest

from cogtree.knowledge.language.grammar.number import names_every


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
