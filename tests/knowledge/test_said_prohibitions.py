"""What the user said must be kept from a person, and which things that names."""

from __future__ import annotations

import pytest

from cogtree.knowledge.safety.said_prohibitions import (
    falls_under,
    kept_from,
    not_to_use,
    only_prohibits,
)
from cogtree.knowledge.scene.scene_index import age_group_names

NAMES = {
    "mia": ["Mia", *age_group_names("child")],
    "tom": ["Tom", *age_group_names("adult")],
    "leo": ["Leo", *age_group_names("child")],
    "p2": ["Ana Silva"],
    "ava": ["Ava", *age_group_names("toddler")],
}


@pytest.mark.parametrize(
    ("said", "kept"),
    [
        ("Don't give Mia anything made of glass", {"mia": ("anything made of glass",)}),
        ("never hand Tom a knife, he's clumsy", {"tom": ("a knife",)}),
        ("please don't let Leo have the sweets", {"leo": ("the sweets",)}),
        ("don't give the wine to Mia", {"mia": ("the wine",)}),
        ("keep the scissors away from Tom", {"tom": ("the scissors",)}),
        ("Mia isn't allowed glass - she dropped one", {"mia": ("glass",)}),
        ("Ana mustn't have sugar", {"p2": ("sugar",)}),
        (
            "keep the kids away from the oven",
            {"ava": ("the oven",), "leo": ("the oven",), "mia": ("the oven",)},
        ),
        ("Mia's not allowed sweets", {"mia": ("sweets",)}),
        ("you shouldn't ever give Tom the car keys", {"tom": ("the car keys",)}),
        ("don't give Mia and Tom any nuts", {"mia": ("any nuts",), "tom": ("any nuts",)}),
        ("keep the pills out of Leo's reach", {"leo": ("the pills",)}),
        ("don't give Tom the tumbler please", {"tom": ("the tumbler",)}),
        ("keep the knife away from Tom please", {"tom": ("the knife",)}),
        ("don't give Tom any sweets after dinner", {"tom": ("any sweets",)}),
        ("don't give Tom anything with nuts in it", {"tom": ("anything with nuts",)}),
        ("don't give the baby the beaker", {"ava": ("the beaker",)}),
    ],
)
def test_a_prohibition_is_read_for_the_people_it_names(
    said: str, kept: dict[str, tuple[str, ...]]
) -> None:
    assert kept_from([said], NAMES) == kept


@pytest.mark.parametrize(
    "said",
    ["don't give up", "give Mia the glass", "keep the glass on the shelf", "Tom has a knife"],
)
def test_what_keeps_nothing_from_anyone_is_no_prohibition(said: str) -> None:
    assert kept_from([said], NAMES) == {}


@pytest.mark.parametrize(
    ("said", "kept"),
    [
        ("don't use the bedside lamp, the plug sparks", ("the bedside lamp",)),
        ("please don't switch the heater on", ("the heater",)),
        ("leave the iron alone", ("the iron",)),
        ("never touch my laptop", ("my laptop",)),
        ("don't use the lamp by the bed", ("the lamp",)),  # where it is: not the thing
        ("never switch on the heater upstairs", ("the heater",)),
        ("don't use the upstairs heater", ("the upstairs heater",)),  # its own words stay
        ("don't touch that", ()),  # names no thing
        ("don't switch it on", ()),
        ("don't put the mug in the sink", ()),  # how to do a step, not a thing kept
    ],
)
def test_what_the_robot_is_told_not_to_use_is_kept_from_it(
    said: str, kept: tuple[str, ...]
) -> None:
    assert not_to_use([said]) == kept
    assert kept_from([said], NAMES) == {}  # from no person


def test_a_thing_falls_under_a_prohibition_by_its_head_word_or_a_type() -> None:
    assert falls_under("anything made of glass", ["tumbler", "glass"], set())  # its material
    assert falls_under("anything sharp", ["kitchen knife", "sharp"], set())  # a hazard flag
    assert falls_under("knives", ["chef's knife"], set())  # the head's lemma
    assert falls_under("the cutlery", ["bread knife"], {"BreadKnife", "Knife", "Cutlery"})
    assert not falls_under("the blue mug", ["blue bowl"], {"Bowl"})  # only the head counts
    assert not falls_under("glass", ["mug", "ceramic"], {"Mug"})


def test_the_one_thing_a_phrase_means_is_told_by_the_things_own_names() -> None:
    """The reviewer's: "the reading lamp" is a lamp with no other name, never a floor lamp."""
    assert falls_under("the reading lamp", ["lamp"], {"Lamp"}, names=["lamp"])
    assert not falls_under("the reading lamp", ["floor lamp"], {"Lamp"}, names=["floor lamp"])
    assert falls_under("grandma's heater", ["heater"], {"Heater"}, names=["heater"])


def test_anything_names_every_thing_and_nothing_else_does() -> None:
    """Checked to fail before: "don't give Leo anything" kept nothing from him."""
    assert falls_under("anything", ["tumbler"], set())
    assert not falls_under("the", ["tumbler"], set())


@pytest.mark.parametrize(
    ("said", "only"),
    [
        ("don't give Leo the knife, please", True),
        ("keep the scissors away from the kids", True),
        ("don't give Leo the knife, give him the spoon", False),
        ("give Leo the spoon", False),
        ("don't give up", False),
        ("don't use the bedside lamp", True),
        ("don't switch it on", False),  # names nothing to keep: not promised
    ],
)
def test_only_a_prohibition_is_acknowledged(said: str, only: bool) -> None:
    assert only_prohibits(said) is only
