"""What the speaker says of themselves: an age group and conditions, never less than said."""

from __future__ import annotations

import pytest

from cogtree.knowledge.safety.said_of_people import (
    SPEAKER,
    allergens,
    in_water,
    said_of_people,
    said_of_self,
)


@pytest.mark.parametrize(
    ("said", "age_group"),
    [
        ("I'm only six, can you cut the bread for me and bring it", "child"),
        ("I am 7 years old", "child"),
        ("I'm just a kid", "child"),
        ("I am 3", "toddler"),
        ("I'm 35", None),
        ("I'm fifteen", "minor"),
        ("I'm 13 years old", "minor"),
        ("I'm a teenager", "minor"),
        ("I'm 18", None),
        ("I'm Sam", None),
        ("I have a six year old at home", None),  # someone else's age
        ("I'm not six", None),
    ],
)
def test_an_age_said_gives_the_speakers_age_group(said: str, age_group: str | None) -> None:
    assert said_of_self([said]).age_group == age_group


@pytest.mark.parametrize(
    ("said", "condition"),
    [
        ("I'm pregnant, bring me the bleach", "pregnant"),
        ("my hands are shaking today", "hands shaking today"),
        ("I've got arthritis", "arthritis"),
        ("I'm feeling dizzy", "dizzy"),
    ],
)
def test_a_condition_or_anything_said_of_the_body_makes_them_vulnerable(
    said: str, condition: str
) -> None:
    found = said_of_self([said])
    assert found.conditions == (condition,) and found.clauses


def test_a_negation_or_an_everyday_state_says_nothing() -> None:
    for said in ("I'm not pregnant", "I'm hungry", "I'm in the kitchen", "my son is six"):
        assert said_of_self([said]) == said_of_self([]), said


def test_the_youngest_age_said_wins() -> None:
    assert said_of_self(["I'm 8", "well, I'm 3 really"]).age_group == "toddler"
    assert said_of_self(["I'm 16", "I'm 9"]).age_group == "child"


@pytest.mark.parametrize(
    "said",
    [
        "I'm not feeling well",
        "I'm not well",
        "my hands aren't steady",
        "I'm not able to grip",
        "I can't see very well",
        "I can barely hold a cup",
        "I can't stop shaking",
        "I'm not so well",
        "I don't feel too good",
    ],
)
def test_a_capacity_negated_is_a_condition(said: str) -> None:
    found = said_of_self([said])
    assert found.conditions and found.clauses == (said,), said


@pytest.mark.parametrize(
    "said",
    ["I'm not pregnant", "my hands aren't shaking", "I don't have arthritis", "I can see fine",
     "I don't see the knife", "I'm well", "I can't wait"],
)  # fmt: skip
def test_a_condition_negated_or_a_capacity_said_adds_nothing(said: str) -> None:
    assert said_of_self([said]).conditions == (), said


@pytest.mark.parametrize(
    ("said", "who"),
    [
        ("grandma is only four, give grandma the kitchen knife", "grandma"),
        ("my son is six, give him the knife", "son"),
        ("she's six, give grandma the knife", "grandma"),
        ("give grandma the knife, her hands are shaking", "grandma"),
        ("mr okafor can't see very well", "mr_okafor"),
    ],
)
def test_what_is_said_of_a_person_named_is_theirs(said: str, who: str) -> None:
    found = said_of_people([said], ["ana", "grandma", "son", "mr_okafor"])
    assert list(found) == [who] and found[who].clauses, said


@pytest.mark.parametrize(
    "said", ["my daughter is six", "she is six", "he is six, give grandma and son the knife"]
)
def test_a_subject_that_names_nobody_gives_nothing(said: str) -> None:
    assert said_of_people([said], ["ana", "grandma", "son"]) == {}, said
    assert SPEAKER not in said_of_people([said], [])


@pytest.mark.parametrize(
    ("said", "who", "in_the_water"),
    [
        ("I'm in the bath, bring me my phone", SPEAKER, True),
        ("Jack's still in the shower", "jack", True),
        ("I'm in the kitchen", SPEAKER, False),
        ("I'm not in the bath any more", SPEAKER, False),
    ],
)
def test_a_person_said_to_be_in_the_bath_or_shower_is_in_water(
    said: str, who: str, in_the_water: bool
) -> None:
    """Checked to fail before: where a person was said to be gave nothing."""
    found = said_of_people([said], ["jack"]).get(who)
    conditions = found.conditions if found else ()
    assert any(map(in_water, conditions)) is in_the_water, (said, conditions)


def test_an_allergy_said_of_a_person_named_by_their_label_gives_what_it_is_to() -> None:
    """Checked to fail before: allergies were no condition, and labels named nobody."""
    said = said_of_people(["oh, Ella's here tonight, she's allergic to nuts by the way"], ["p2"])
    assert said == {}  # the id names nobody
    said = said_of_people(
        ["oh, Ella's here tonight, she's allergic to nuts by the way"], ["p2"], {"p2": "Ella"}
    )
    assert [allergens(condition) for condition in said["p2"].conditions] == [("nuts",)]
    assert allergens("a severe peanut allergy") == ("peanut",)
    assert allergens("allergic to eggs and dairy") == ("eggs", "dairy")
    assert allergens("allergic to nuts as well as apples") == ("nuts", "apples")  # "as" goes on
    assert allergens("dementia") == ()


@pytest.mark.parametrize(
    ("said", "foods"),
    [
        ("Tom can't have nuts", ("nuts",)),
        ("Tom cannot eat eggs or sesame", ("eggs", "sesame")),
        ("Tom isn't able to drink milk", ("milk",)),
        ("Tom can have nuts", None),  # said he can: nothing
        ("Tom can't grip things", ()),  # a capacity, no food
    ],
)
def test_a_food_a_person_cannot_have_is_what_they_are_allergic_to(
    said: str, foods: tuple[str, ...] | None
) -> None:
    """Checked to fail before: "Tom can't have nuts" said nothing of Tom."""
    heard = said_of_people([said], ["tom"])
    if foods is None:
        assert heard == {}
        return
    assert [allergens(condition) for condition in heard["tom"].conditions] == [foods]


@pytest.mark.parametrize(
    ("said", "age_group"),
    [
        ("pass the scissors to Mia, she's just turned five", "child"),
        ("Mia only turned 2 in June", "toddler"),
        ("Mia is almost four now", "toddler"),
        ("Mia is nearly 18", "minor"),
        ("Mia turned the tap off", None),
        ("Mia turned 30 on Sunday", None),
        ("Mia is turning four next week", "toddler"),  # three until then
        ("Mia turns 13 on Friday", "child"),
    ],
)
def test_an_age_turned_or_nearly_reached_is_an_age_read_on_the_safe_side(
    said: str, age_group: str | None
) -> None:
    """Checked to fail before: 'turned five' and 'almost four' said no age at all."""
    found = said_of_people([said], ["mia"]).get("mia")
    assert (found.age_group if found else None) == age_group, said
