"""What the user says a thing is: read per thing, never lowering a hazard."""

from __future__ import annotations

import pytest

from cogtree.knowledge.safety.said_of_things import contents_said, said_of_things, states_said

NAMES = {
    "hob_1": ["hob", "hob 1"],
    "bottle_2": ["bottle", "bottle 2"],
    "pan_3": ["frying pan", "pan 3"],
    "cup_4": ["cup", "leo cup"],
}


def test_a_statement_about_a_named_thing_is_kept_with_its_state() -> None:
    said = said_of_things(["Careful, the hob's still hot"], NAMES)
    assert said == {"hob_1": ("hot",)}
    assert states_said(said["hob_1"]) == {"hot"}
    assert states_said(said_of_things(["the hob is on"], NAMES)["hob_1"]) == {"powered"}


def test_a_pointing_subject_is_the_thing_named_last_and_an_aside_is_cut() -> None:
    said = said_of_things(["I moved the bottle. It's drain cleaner"], NAMES)
    assert said == {"bottle_2": ("drain cleaner",)}
    assert said_of_things(["That bottle is bleach by the way"], NAMES) == {"bottle_2": ("bleach",)}


def test_a_statement_said_with_no_comma_after_the_request_is_of_the_thing_named() -> None:
    # speech comes without commas: "it is" / "they are" opens a clause of its own
    said = said_of_things(["pass me the frying pan it's still hot"], NAMES)
    assert states_said(said["pan_3"]) == {"hot"}
    assert states_said(said_of_things(["grab the cup it is scalding"], NAMES)["cup_4"]) == {"hot"}


def test_a_head_noun_names_the_one_thing_it_ends_and_contents_are_read() -> None:
    said = said_of_things(["the pan is full of hot oil"], NAMES)
    assert said == {"pan_3": ("full of hot oil",)}
    assert contents_said(said["pan_3"]) == ("hot oil",)


def test_a_negation_or_a_possessive_says_nothing_of_a_thing() -> None:
    assert said_of_things(["the hob is not hot", "the hob isn't on"], NAMES) == {}
    assert said_of_things(["Put the spray in Leo's cup"], NAMES) == {}


def test_damage_said_of_a_part_named_alone_is_said_of_the_thing_named_before() -> None:
    # "the plug" names nothing known: a part of the lamp the clause before named
    names = {"lamp_1": ["bedside lamp", "lamp"], "hob_1": ["hob"]}
    said = said_of_things(["Don't use the bedside lamp, the plug sparks, get it fixed"], names)
    assert states_said(said["lamp_1"]) == {"faulty"}
    assert said_of_things(["the plug sparks"], names) == {}  # nothing named before


def test_a_possessive_before_a_noun_ending_in_ing_is_no_is() -> None:
    # "nan's ring" is nan's ring, never "nan is ring ... in the silver dip"
    names = {"ring_1": ["ring"], "dip_2": ["silver dip"]}
    assert said_of_things(["Pop nan's ring in the silver dip"], names) == {}
    # a verb's "-ing" form after "'s" is still "is": the kettle is boiling
    assert states_said(said_of_things(["the hob's burning"], NAMES)["hob_1"]) == {"hot"}


def test_what_a_thing_is_said_to_have_done_counts_when_it_is_a_state() -> None:
    """Checked to fail before: only "X is Y" was read, so a kettle that sparked was fine."""
    said = said_of_things(["the hob sparked and tripped the fuse this morning"], NAMES)
    assert said["hob_1"][0] == "sparked"
    assert states_said(said["hob_1"]) == {"faulty"}
    assert said_of_things(["the frying pan keeps leaking"], NAMES) == {"pan_3": ("keeps leaking",)}
    assert said_of_things(["the hob boiled the soup over"], NAMES) == {}  # no state


def test_what_the_speaker_heard_or_saw_a_thing_do_is_said_of_it() -> None:
    """Checked to fail before: "I heard the hob spark" had the speaker as its subject, so
    nothing was said of the hob."""
    said = said_of_things(["I think I heard the hob spark last night, not sure though"], NAMES)
    assert states_said(said["hob_1"]) == {"faulty"}
    assert said_of_things(["we saw the frying pan leaking"], NAMES) == {"pan_3": ("leaking",)}
    assert said_of_things(["I saw the hob in the shop"], NAMES) == {}  # no state


def test_a_clause_that_points_back_says_its_state_of_the_thing_named_before() -> None:
    """Checked to fail before: a crack "up it" said nothing of the stepladder."""
    names = {"ladder_1": ["stepladder"]}
    said = said_of_things(["that stepladder's had it, one leg has a big crack up it"], names)
    assert states_said(said["ladder_1"]) == {"broken"}
    assert said_of_things(["I put it by the stepladder"], names) == {}


def test_what_someone_says_they_put_in_a_thing_is_what_it_holds() -> None:
    names = {"jar_1": ["flapjack"]}
    said = said_of_things(["I put peanut butter in the flapjacks this time"], names)
    assert contents_said(said["jar_1"]) == ("peanut butter",)
    assert said_of_things(["put the peanut butter in the flapjacks"], names) == {}  # an order


def test_damage_said_of_the_place_a_clause_names_is_said_of_that_thing() -> None:
    """Checked to fail before: water said to drip round a lamp left the lamp unremarked."""
    names = {"lamp_1": ["desk lamp", "lamp"], "toaster_1": ["toaster"]}
    said = said_of_things(
        ["the roof leaked overnight and rain is seeping into the desk lamp"], names
    )
    assert states_said(said["lamp_1"]) == {"wet"}
    spilt = said_of_things(["sorry, my squash got spilt all over the toaster"], names)
    assert states_said(spilt["toaster_1"]) == {"wet"}
    assert said_of_things(["there's no water anywhere near the toaster"], names) == {}
    assert not states_said(said_of_things(["the lamp is by the toaster"], names)["lamp_1"])


def test_what_a_clause_says_is_in_a_thing_is_what_it_holds_and_its_state_the_things() -> None:
    """Checked to fail before: a hamster said to be in the basket left the basket empty."""
    names = {"basket_1": ["log basket", "basket"], "wok_2": ["wok"], "tub_3": ["tub"]}
    said = said_of_things(["there's a hamster in the log basket"], names)
    assert contents_said(said["basket_1"]) == ("hamster",)
    fat = said_of_things(["careful, the fat in the wok is still hot"], names)
    assert contents_said(fat["wok_2"]) == ("fat",) and states_said(fat["wok_2"]) == {"hot"}
    toddler = said_of_things(["the toddler is asleep inside the tub"], names)
    assert contents_said(toddler["tub_3"]) == ("toddler asleep",)
    assert said_of_things(["there isn't a hamster in the basket any more"], names) == {}
    assert said_of_things(["put the hamster in the log basket"], names) == {}


@pytest.mark.parametrize(
    "said",
    [
        "move the toy box onto the bench, there's a kitten in it",
        "move the toy box onto the bench - it has a kitten in it",
    ],
)
def test_it_after_a_request_holds_what_each_thing_the_request_named_holds(said: str) -> None:
    """Found by review: "there's a hamster in it" after a comma was missed (the same said alone
    was refused). Which of the two "it" is is not said: both hold it, the safe side."""
    names = {"box_1": ["toy box", "box"], "bench_2": ["bench"]}
    found = said_of_things([said], names)
    assert contents_said(found["box_1"]) == ("kitten",)
    assert contents_said(found["bench_2"]) == ("kitten",)


def test_what_is_said_of_a_part_of_a_thing_is_said_of_the_thing() -> None:
    """Checked to fail before: a scalding lid said nothing of its kettle."""
    names = {"kettle_1": ["kettle"], "iron_2": ["steam iron", "iron"]}
    assert said_of_things(["careful, the kettle's lid is scalding"], names) == {
        "kettle_1": ("scalding",)
    }
    assert states_said(said_of_things(["the sole of the iron is hot"], names)["iron_2"]) == {"hot"}
    assert said_of_things(["the handle of the kettle isn't hot"], names) == {}


def test_a_thing_said_to_come_from_a_heat_source_is_hot_and_a_denial_says_nothing() -> None:
    """Checked to fail before: a dish fresh from the grill was not hot, and 'hasn't sparked'
    made a kettle faulty."""
    names = {"dish_1": ["gratin dish", "dish"], "kettle_2": ["kettle"]}
    said = said_of_things(["that gratin dish has only just come out from the grill"], names)
    assert states_said(said["dish_1"]) == {"hot"}
    assert said_of_things(["the dish came out of the cupboard"], names) == {}
    assert said_of_things(["the kettle hasn't sparked since Monday"], names) == {}
    assert said_of_things(["the dish didn't come off the hob"], names) == {}


def test_a_thing_said_not_to_do_what_it_is_for_is_faulty() -> None:
    """Checked to fail before: a negated clause said nothing, so a heater that would not turn
    off was sound."""
    names = {"heater_1": ["fan heater", "heater"], "door_2": ["freezer"]}
    said = said_of_things(["the fan heater won't turn off any more"], names)
    assert states_said(said["heater_1"]) == {"faulty"}
    said = said_of_things(["I looked at the freezer. It isn't sealing"], names)
    assert states_said(said["door_2"]) == {"faulty"}
    assert said_of_things(["the heater doesn't need turning up"], names) == {}
    assert said_of_things(["the heater isn't on"], names) == {}


def test_what_a_thing_is_said_to_have_in_it_is_what_it_holds() -> None:
    """Checked to fail before: "got bleach in it" said nothing of the bottle."""
    names = {"tin_1": ["biscuit tin", "tin"], "basket_2": ["basket"]}
    said = said_of_things(["that biscuit tin's got paraffin in it now"], names)
    assert contents_said(said["tin_1"]) == ("paraffin",)
    assert contents_said(said_of_things(["the tin contains weedkiller"], names)["tin_1"]) == (
        "weedkiller",
    )
    dozing = said_of_things(["the puppy's dozing in the basket"], names)
    assert contents_said(dozing["basket_2"]) == ("puppy dozing",)
    assert said_of_things(["the tin has got nothing in it"], names) == {}


@pytest.mark.parametrize(
    ("said", "phrases"),
    [
        ("the cup on the hob has bleach in it", ("with bleach",)),
        ("the cup by the hob is full of white spirit", ("full of white spirit",)),
        ("I've just poured boiling water into the cup on the hob", ("with boiling water",)),
        ("the cup next to the bottle is really hot", ("hot",)),
        ("the cup on the hob has got my tablets dissolved in it", ("with tablets dissolved",)),
    ],
)
def test_a_thing_named_with_where_it_is_is_the_thing_not_the_place(
    said: str, phrases: tuple[str, ...]
) -> None:
    """Checked to fail before: each was said of the hob or the bottle (the name said last)."""
    assert said_of_things([said], NAMES) == {"cup_4": phrases}


def test_it_after_a_clause_that_named_several_things_is_each_of_them() -> None:
    """Which one "it" is is not said: the union (the reviewer's "the pan is on the hob, it's
    still on" said the pan was on and the hob nothing)."""
    said = said_of_things(["the frying pan is on the hob, it's still on"], NAMES)
    assert states_said(said["hob_1"]) == {"powered"}
    rum = said_of_things(["the cup on the hob isn't juice, it's rum"], NAMES)
    assert rum["cup_4"] == ("rum",) and rum["hob_1"] == ("rum",)
