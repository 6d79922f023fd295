"""What a thing is, for safety, from every description (knowledge.safety.thing_properties)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from cogtree.knowledge.safety.thing_properties import (
    Descriptions,
    named_words,
    raising_flags_held,
    safety_properties,
)


@pytest.mark.parametrize(
    ("described", "kinds"),
    [
        (Descriptions(id="bottle_2", type="Bottle", label="drain cleaner"), {"chemical"}),
        (Descriptions(id="hot_dog_1", label="hot dog"), {"food"}),
        (Descriptions(id="toy_dog", label="toy dog"), set()),
        (Descriptions(id="plush_1", label="plush hamster toy"), set()),
        (Descriptions(id="pet_1", label="hamster"), {"animal"}),
        (Descriptions(id="toy_1", type="Dog", label="toy dog"), {"animal"}),  # the union wins
        (Descriptions(id="lego_2", label="lego bleach"), {"chemical"}),  # a kind of toy: no toy
        (Descriptions(id="doll_3", label="doll medicine"), {"medicine"}),
        (Descriptions(id="bottle_7", type="Bottle", label="bleach bottle"), {"chemical"}),
        (Descriptions(id="bottle_8", type="Bottle", label="pill bottle"), {"medicine"}),
        (Descriptions(id="bottle_9", type="Bottle", label="water bottle"), set()),
        (Descriptions(id="bowl_4", label="dog bowl"), set()),  # for a dog, not of one
        (Descriptions(id="pot_2", label="white pill pot"), {"medicine"}),  # a pot holds pills
        (Descriptions(id="bottle_3", label="little bottle", material="acetone"), {"chemical"}),
        (Descriptions(id="tub_5", label="slug pellets"), {"chemical"}),
        (Descriptions(id="refill_1", label="vape juice"), {"chemical"}),
        (Descriptions(id="jar_2", label="jar by the window with weedkiller"), {"chemical"}),
        (Descriptions(id="jar_3", type="Jar", label="jar with bleach in it"), {"chemical"}),
        (Descriptions(id="bottle_4", label="bleach bottle by the sink"), {"chemical"}),
        (Descriptions(id="lamp_2", label="lamp by the window"), set()),
        (Descriptions(id="jar_4", label="jar with weedkiller and water"), {"chemical"}),
        (Descriptions(id="sponge_2", label="sponge in the bleach"), {"chemical"}),
        (Descriptions(id="rag_1", type="Rag", label="rag on the white spirit"), {"chemical"}),
        (Descriptions(id="bottle_5", label="bottle of bleach by the sink"), {"chemical"}),
        (Descriptions(id="jar_5", label="jar by the bleach"), set()),  # beside it: not on it
        (Descriptions(id="thing_2", label="thing for the bleach"), {"chemical"}),
    ],
)
def test_the_kinds_of_a_thing_are_the_union_of_its_descriptions(
    described: Descriptions, kinds: set[str]
) -> None:
    """Checked to fail before for the food and the toys: the last word decided ("dog")."""
    found = safety_properties(described).kinds
    assert set(found) & {"chemical", "food", "animal", "medicine"} == kinds


@pytest.mark.parametrize(
    ("described", "hot"),
    [
        (Descriptions(id="tray_1", label="tray in the oven"), True),
        (Descriptions(id="pan_3", type="Pan", label="pan"), False),
        (Descriptions(id="pan_3", type="Pan", label="pan", said=("the pan on the hob",)), True),
        (Descriptions(id="jar_6", label="jar by the oven"), False),
        (Descriptions(id="lid_1", label="lid on the pan on the hob"), True),
        (Descriptions(id="towel_3", label="towel over the radiator"), True),
        (Descriptions(id="mug_6", label="mug on the shelf over the hob"), False),
        (Descriptions(id="knife_4", label="knife by the sink"), False),
    ],
)
def test_a_thing_in_or_on_a_heat_source_may_be_hot(described: Descriptions, hot: bool) -> None:
    """Checked to fail before for the tray and the pan: the head alone was read."""
    found = safety_properties(described)
    assert ("heat_source" in found.kinds) is hot


def test_a_thing_named_by_where_it_is_keeps_its_own_kinds() -> None:
    assert "sharp" in safety_properties(Descriptions(id="knife_5", label="knife by the sink")).kinds


def test_only_the_word_toy_makes_a_thing_a_toy() -> None:
    """Checked to fail before: any kind of toy before the name made a toy ("ball jar")."""
    game_knife = safety_properties(Descriptions(id="knife_9", label="game knife"))
    assert "sharp" in game_knife.kinds
    assert "ContainerItem" in safety_properties(Descriptions(id="jar_9", label="ball jar")).types


def test_what_the_user_said_only_adds_a_raising_kind() -> None:
    said = Descriptions(id="jar_1", type="Jar", label="jar", said=("bleach",))
    assert "chemical" in safety_properties(said).kinds
    food = Descriptions(id="bottle_1", type="Bottle", label="bottle", said=("juice",))
    assert "drink" not in safety_properties(food).kinds


@pytest.mark.parametrize(
    ("held", "kind"),
    [("with bleach", "chemical"), ("full of pills", "medicine"), ("with a hamster", "animal")],
)
def test_what_a_thing_is_said_to_hold_gives_it_that_kind(held: str, kind: str) -> None:
    """A basket said to hold a hamster is protected as the hamster is (the union); the
    refusal says it holds one (``animal_as_object``'s wording)."""
    basket = Descriptions(id="basket_1", type="Basket", label="log basket")
    assert kind in safety_properties(replace(basket, said=(held,))).kinds


def test_a_thing_no_name_of_which_is_known_gets_what_wordnet_s_type_raises() -> None:
    """Secateurs are scissors by WordNet: sharp; their typical metal is not taken as known."""
    described = Descriptions(id="thing_1", type="UnclassifiedThing", label="secateurs")
    found = safety_properties(described)
    assert "sharp" in found.kinds
    assert not found.materials
    assert found.material_unknown
    assert not found.types  # a guessed type may exempt a thing from a rule: it is not taken
    dough = safety_properties(Descriptions(id="thing_2", type="UnclassifiedThing", label="dough"))
    assert "food" not in dough.kinds  # a guess never makes a thing food


def test_a_known_name_keeps_wordnet_out() -> None:
    """The id's word "refill" is a prescription in WordNet; the label says what the thing is."""
    found = safety_properties(Descriptions(id="refill_1", label="vape juice"))
    assert "medicine" not in found.kinds


def test_a_thing_is_named_by_every_name_of_its_type() -> None:
    """Checked to fail before: a flapjack (the taxonomy's "oat bar") was handed to a person the
    user said is allergic to oats: the allergen rule reads the words a thing is named by, and
    the type's synonyms were none of them."""
    described = Descriptions(id="flapjack_1", label="flapjack mum baked")
    assert "oat" in named_words(described, ["Flapjack", "BakedGood", "Food"], None)


@pytest.mark.parametrize(
    ("held", "raises"),
    [
        ("with turps", {"chemical"}),  # WordNet: turpentine, a word the taxonomy knows
        ("full of lamp oil", {"chemical"}),  # a fuel, though "oil" alone is food
        ("with petrol", {"chemical"}),
        ("with paraffin", {"chemical"}),
        ("with motor oil", {"chemical"}),  # a lubricant, though "oil" alone is food
        ("full of olive oil", set()),
        ("with batteries", {"chemical", "electrical"}),  # no guess that raises nothing
    ],
)
def test_what_the_dictionary_reads_in_what_is_held_only_raises(held: str, raises: set[str]) -> None:
    """Checked to fail before for turps, lamp oil, petrol and paraffin: nothing was raised."""
    glass = Descriptions(id="glass_1", type="Glass", label="glass", said=(held,))
    raising = {"chemical", "medicine", "animal", "sharp", "electrical"}
    assert safety_properties(glass).kinds & raising == raises
    assert raising_flags_held(held.split(" ", 1)[-1].removeprefix("of ")) == raises
