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
    ("said", "names", "kinds", "every"),
    [
        # a word for things of several kinds together (failed before)
        ("the crockery", ["side plate", "teacup"], ["Plate", "Cup"], True),
        ("crockery", ["side plate", "teacup"], ["Plate", "Cup"], True),
        # the words of the phrase, not of a place after it (failed before: "table")
        ("the mugs on the table", ["mug", "tall mug"], ["Mug", "Mug"], True),
        ("the crockery on the tray", ["side plate", "teacup"], ["Plate", "Cup"], True),
        # one kind, a thing's own name, or any one of them: one thing
        ("the crockery", ["side plate", "dinner plate"], ["Plate", "Plate"], False),
        ("the spoon", ["soup spoon", "teaspoon"], ["Spoon", "Teaspoon"], False),
        ("a piece of crockery", ["side plate", "teacup"], ["Plate", "Cup"], False),
        ("that crockery", ["side plate", "teacup"], ["Plate", "Cup"], False),
    ],
)
def test_a_word_for_several_kinds_together_means_them_all(
    said: str, names: list[str], kinds: list[str], every: bool
) -> None:
    assert names_every(said, names, kinds) is every
