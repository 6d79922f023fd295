"""Of several things that fit a request to be handed something, the one fit for use."""

from __future__ import annotations

import pytest

from cogtree.knowledge.safety.thing_properties import Descriptions, Reading, what_it_is
from cogtree.knowledge.scene.fit_for_use import (
    also_there,
    any_one_will_do,
    any_will_do,
    fit_for_use,
    interchangeable,
    named_in_rules,
    named_part,
    states_in,
)
from cogtree.knowledge.scene.scene_models import UNOWNED_NOTE, Candidate


def thing(label: str) -> Candidate:
    return Candidate(id=label.replace(" ", "_"), label=label, kind="object", reasons=["a towel"])


def read(things: list[tuple[str, str]]) -> tuple[list[Candidate], dict[str, Reading]]:
    """Candidates of (label, type) and what each is, read from its label and type."""
    candidates = [
        Candidate(id=f"thing_{n}", label=label, kind="object", type=kind, reasons=[])
        for n, (label, kind) in enumerate(things)
    ]
    readings = {
        c.id: what_it_is(Descriptions(id=c.id, type=c.type, label=c.label)) for c in candidates
    }
    return candidates, readings


@pytest.mark.parametrize(
    ("labels", "said", "kept"),
    [
        (["tea towel", "dirty tea towel"], "the tea towel", ["tea towel"]),
        (["cracked jug", "jug", "broken jug"], "a jug", ["jug"]),
        (["tea towel", "striped tea towel"], "the tea towel", ["tea towel", "striped tea towel"]),
        (
            ["dirty tea towel", "used tea towel"],
            "a tea towel",
            ["dirty tea towel", "used tea towel"],
        ),
        (["tea towel", "dirty tea towel"], "the dirty tea towel", ["tea towel", "dirty tea towel"]),
        (["tea towel"], "the tea towel", ["tea towel"]),
    ],
)
def test_only_the_one_usable_thing_is_kept(labels: list[str], said: str, kept: list[str]) -> None:
    assert [c.label for c in fit_for_use([thing(label) for label in labels], said)] == kept


def test_the_kept_thing_says_what_was_set_aside() -> None:
    [kept] = fit_for_use([thing("jug"), thing("cracked jug")], "the jug")
    assert kept.reasons == ["a towel", "fit for use; set aside: cracked jug"]


def test_state_words_are_whole_words() -> None:
    assert states_in("Dirty brush, used twice") == {"dirty", "used"}
    assert states_in("flatbread") == frozenset()


@pytest.mark.parametrize(
    ("places", "kept"),
    [
        ({"jug": "on shelf", "blue_jug": "on shelf"}, ["jug"]),  # side by side: any will do
        ({"jug": "on shelf", "blue_jug": "in cupboard"}, ["jug", "blue jug"]),  # two places
        ({"jug": "on shelf", "blue_jug": ""}, ["jug", "blue jug"]),  # one out of sight
        ({}, ["jug", "blue jug"]),  # no places known
    ],
)
def test_any_one_of_things_in_one_place_will_do(places: dict[str, str], kept: list[str]) -> None:
    jugs = [thing("jug"), thing("blue jug")]
    chosen = any_will_do(jugs, places, dict.fromkeys(places, ("a jug",)))
    assert [c.label for c in chosen] == kept
    if len(kept) == 1:
        assert chosen[0].reasons[-1] == "any would do (on shelf); also there: blue jug"


def test_my_thing_is_asked_about_when_none_is_known_to_be_mine() -> None:
    """Checked to fail before: "bring me my mug" with two mugs side by side, neither known
    to be the speaker's, handed over the first; the user means their own."""
    mugs = [
        Candidate(id=f"mug_{n}", label="mug", kind="object", reasons=[UNOWNED_NOTE])
        for n in range(2)
    ]
    places = dict.fromkeys(["mug_0", "mug_1"], "on counter")
    assert len(any_will_do(mugs, places, dict.fromkeys(places, ("a mug",)))) == 2
    _, readings = read([("mug", "Mug"), ("mug", "Mug")])  # "my mug, whichever": still asked
    assert (
        len(any_one_will_do(mugs, places, dict(zip(places, readings.values(), strict=True)), RULED))
        == 2
    )
    dirty = [mugs[0], mugs[1].model_copy(update={"label": "dirty mug"})]
    assert len(fit_for_use(dirty, "my mug")) == 2  # not "the clean one", when it may not be mine


def test_the_things_left_beside_the_one_kept_are_read_back_from_its_reasons() -> None:
    ids = ["jug", "blue_jug", "tall_jug"]
    [kept] = any_will_do(
        [thing("jug"), thing("blue jug"), thing("tall jug")],
        dict.fromkeys(ids, "on shelf"),
        dict.fromkeys(ids, ("a jug",)),
    )
    assert also_there(kept.reasons) == ["blue jug", "tall jug"]
    assert also_there(["a towel"]) == []


@pytest.mark.parametrize(
    ("things", "alike"),
    [
        ([("bleach bottle", "Bottle"), ("water bottle", "Bottle")], False),  # chemical vs drink
        ([("glass", "Glass"), ("glass", "Glass"), ("cracked glass", "Glass")], False),  # unfit
        ([("mug", "Mug"), ("mug", "Mug")], True),
        ([("mug", "Mug"), ("glass", "Glass")], False),  # two types
        ([("plastic cup", "Cup"), ("glass cup", "Cup")], False),  # two materials
        ([("tv remote", "RemoteControl"), ("remote", "RemoteControl")], False),  # whose
        ([("sofa cushion", "Cushion"), ("sofa cushion", "Cushion")], True),
        ([("red cushion", "Cushion"), ("blue cushion", "Cushion")], True),  # a colour only
        ([("white pill pot", "Pot"), ("white pill pot", "Pot")], False),  # which pills? whose?
        ([("grey cushion", "Cushion"), ("mustard cushion", "Cushion")], True),  # a food's colour
        ([("mustard spoon", "Spoon"), ("soup spoon", "Spoon")], False),  # made for a food
    ],
    ids=[
        "bleach and water",
        "a cracked glass",
        "two mugs",
        "mug and glass",
        "plastic and glass",
        "the tv's remote",
        "two sofa cushions",
        "two colours",
        "two alike pill pots",
        "a food before a cushion only describes it",
        "a food before a spoon says what it is for",
    ],
)
def test_only_things_alike_in_what_they_are_are_interchangeable(
    things: list[tuple[str, str]], alike: bool
) -> None:
    candidates, readings = read(things)
    assert interchangeable(candidates, readings) is alike
    kept = any_will_do(candidates, {c.id: "on shelf" for c in candidates}, readings)
    assert len(kept) == (1 if alike else len(candidates))


def test_a_thing_not_read_is_not_known_to_be_interchangeable() -> None:
    mugs = [thing("mug"), thing("red mug")]
    assert not interchangeable(mugs, {"mug": ("a mug",)})


RULED = frozenset({"AlcoholicDrink"})
"""A type the hazard rules name, for the tests of :func:`any_one_will_do`."""


@pytest.mark.parametrize(
    ("things", "one"),
    [
        ([("apple", "Apple"), ("satsuma", "Orange")], True),  # both a piece of fruit
        ([("cereal bar", "GranolaBar"), ("bag of crisps", "Chips")], True),  # both a snack
        ([("jug of milk", "Jug"), ("jug of gravy", "Jug")], False),  # what they hold
        ([("apple", "Apple"), ("cracked glass", "Glass")], False),  # unfit, and no one kind
        ([("tv remote", "RemoteControl"), ("remote", "RemoteControl")], False),  # whose
        ([("plastic cup", "Cup"), ("glass cup", "Cup")], False),  # two materials
    ],
    ids=["fruit", "snacks", "two jugs", "a cracked glass", "remotes", "cups"],
)
def test_any_one_of_a_kind_differs_only_in_which_member_it_is(
    things: list[tuple[str, str]], one: bool
) -> None:
    candidates, readings = read(things)
    kept = any_one_will_do(candidates, {}, readings, RULED)
    assert len(kept) == (1 if one else len(candidates))


@pytest.mark.parametrize(
    ("things", "kept"),
    [
        # a biscuit is also a sweet (a category of its own type), and the packet and the bag
        # are wrapping: both a snack; the crisps first, as the biscuits may choke a toddler
        ([("packet of digestives", "Cookie"), ("bag of crisps", "Chips")], ["bag of crisps"]),
        # never the blade when a fork will do
        ([("knife", "Knife"), ("fork", "Fork")], ["fork"]),
        ([("knife", "Knife"), ("fork", "Fork"), ("spoon", "Spoon")], ["fork"]),
        # two blades: which blade matters, so the user chooses
        ([("knife", "Knife"), ("steak knife", "SteakKnife")], None),
        # a glass jar is wrapping the hazard rules read: the user chooses
        ([("jar of honey", "Honey"), ("cake", "Cake")], None),
        # "a glass": a plain glass before the narrower kind its label names (failed before:
        # "wine" read as what the wine glass goes with, and the user asked which)
        ([("wine glass", "Glass"), ("tumbler", "Glass")], ["tumbler"]),
    ],
    ids=[
        "snacks",
        "knife or fork",
        "knife, fork or spoon",
        "two knives",
        "a jar of honey",
        "a wine glass or a tumbler",
    ],
)
def test_of_any_one_of_a_kind_the_one_with_fewest_hazards_is_handed_over(
    things: list[tuple[str, str]], kept: list[str] | None
) -> None:
    candidates, readings = read(things)
    chosen = any_one_will_do(candidates, {}, readings, RULED)
    assert [c.label for c in chosen] == (kept or [c.label for c in candidates])
    if kept:
        assert sorted(also_there(chosen[0].reasons)) == sorted(
            c.label for c in candidates if c.label not in kept
        )


def test_the_harmless_thing_is_chosen_only_when_the_user_asked_for_any_one() -> None:
    """Two side by side, "the knife" or "the fork" of them: the user means one, so is asked."""
    candidates, readings = read([("knife", "Knife"), ("fork", "Fork")])
    assert len(any_one_will_do(candidates, {}, readings, RULED, asked_any=False)) == 2


def test_warnings_that_do_not_nest_leave_the_choice_to_the_user() -> None:
    candidates = [
        Candidate(id="grapes", label="grapes", kind="object", type="Grape", reasons=[]),
        Candidate(id="apple", label="apple", kind="object", type="Apple", reasons=[]),
    ]
    flags = {"grapes": frozenset(), "apple": frozenset({"fragile"})}
    readings = {
        c.id: what_it_is(Descriptions(id=c.id, type=c.type, flags=flags[c.id])) for c in candidates
    }
    assert len(any_one_will_do(candidates, {}, readings, RULED)) == 2  # choking or fragile


def test_things_a_hazard_rule_tells_apart_are_not_any_one_of_a_kind() -> None:
    candidates = [
        Candidate(id="beer", label="beer", kind="object", type="Beer", reasons=[]),
        Candidate(id="cola", label="cola", kind="object", type="Cola", reasons=[]),
    ]
    readings = {
        c.id: what_it_is(Descriptions(id=c.id, type=c.type, material="aluminium"))
        for c in candidates
    }
    assert len(any_one_will_do(candidates, {}, readings, frozenset())) == 1  # both a drink
    assert len(any_one_will_do(candidates, {}, readings, RULED)) == 2  # one is alcohol


def test_things_found_by_their_use_serve_alike_unless_a_hazard_rule_tells_them_apart() -> None:
    candidates, readings = read([("biro", "Pen"), ("hb pencil", "Pencil")])
    used = [c.model_copy(update={"by_use": True}) for c in candidates]
    (kept,) = any_one_will_do(used, {}, readings, RULED)
    assert kept.label == "biro" and "any one of them would do" in kept.reasons[-1]
    spoons = [Candidate(id=n, label=n, kind="object", type="Spoon", reasons=[], by_use=True)
              for n in ("teaspoon", "wooden spoon")]  # fmt: skip
    flags = {"teaspoon": frozenset({"hot"}), "wooden spoon": frozenset()}
    hot = {n: what_it_is(Descriptions(id=n, type="Spoon", flags=f)) for n, f in flags.items()}
    assert len(any_one_will_do(spoons, {}, hot, RULED)) == 2  # a hot one is no spoon like another
    blades, sharp = read([("bread knife", "BreadKnife"), ("scissors", "Scissors")])
    cutting = [c.model_copy(update={"by_use": True}) for c in blades]
    assert len(any_one_will_do(cutting, {}, sharp, RULED)) == 2  # blades: which one matters


def drinks(things: list[tuple[str, str]]) -> list[Candidate]:
    """Candidates of (label, vessel type) found by the drink they hold ("a drink")."""
    candidates, _ = read(things)
    return [candidate.model_copy(update={"by_content": True}) for candidate in candidates]


@pytest.mark.parametrize(
    ("things", "one"),
    [
        ([("can of cola", "Can"), ("bottle of sparkling water", "WaterBottle")], True),
        ([("can of cola", "Can"), ("can of beer", "Can")], False),  # one is alcohol
        ([("can of cola", "Can"), ("bottle of bleach", "Bottle")], False),  # no one drink
    ],
    ids=["cola or water", "cola or beer", "cola or bleach"],
)
def test_things_asked_for_by_their_drink_are_told_apart_by_the_drink(
    things: list[tuple[str, str]], one: bool
) -> None:
    """Checked to fail before: the can and the glass bottle differed in type and material,
    which is not what "a cold drink" asked for, so the robot asked which."""
    candidates = drinks(things)
    readings = {
        c.id: what_it_is(Descriptions(id=c.id, type=c.type, label=c.label)) for c in candidates
    }
    kept = any_one_will_do(candidates, {}, readings, RULED)
    assert len(kept) == (1 if one else len(candidates))


def test_drinks_asked_for_by_what_they_are_are_still_told_apart_by_their_vessels() -> None:
    candidates, readings = read([("can of cola", "Can"), ("bottle of sparkling water", "Bottle")])
    assert len(any_one_will_do(candidates, {}, readings, RULED)) == 2  # "a can": which can


def test_any_one_prefers_the_one_in_the_speakers_room_and_names_the_others() -> None:
    candidates = [
        Candidate(id="apple", label="apple", kind="object", type="Apple", reasons=[]),
        Candidate(id="pear", label="pear", kind="object", type="Pear", reasons=[]),
    ]
    readings = {
        c.id: what_it_is(Descriptions(id=c.id, type=c.type, label=c.label)) for c in candidates
    }
    [kept] = any_one_will_do(candidates, {"pear": "on table"}, readings, RULED)
    assert kept.id == "pear"
    assert also_there(kept.reasons) == ["apple"]


def test_any_one_narrows_nothing_while_the_hazard_rules_cannot_be_read() -> None:
    candidates = [
        Candidate(id="apple", label="apple", kind="object", type="Apple", reasons=[]),
        Candidate(id="pear", label="pear", kind="object", type="Pear", reasons=[]),
    ]
    readings = {c.id: what_it_is(Descriptions(id=c.id, type=c.type)) for c in candidates}
    assert len(any_one_will_do(candidates, {}, readings, None)) == 2


def test_what_a_rule_tells_apart_is_what_its_query_quotes() -> None:
    query = '?thing haz:type "AlcoholicDrink" . ?x haz:flag "heat_source" . ?x haz:at ?y'
    assert named_in_rules([query]) == {"AlcoholicDrink", "heat_source"}


def test_two_cleaning_chemicals_are_not_any_one_of_a_kind() -> None:
    candidates = [
        Candidate(id="spray", label="spray", kind="object", type="FloorCleaner", reasons=[]),
        Candidate(id="bleach", label="bleach", kind="object", type="Bleach", reasons=[]),
    ]
    readings = {
        c.id: what_it_is(Descriptions(id=c.id, type=c.type, material="plastic")) for c in candidates
    }
    assert all("chemical" in readings[c.id][1] for c in candidates)
    assert len(any_one_will_do(candidates, {}, readings, frozenset())) == 2  # which one matters


@pytest.mark.parametrize(
    ("label", "named"),
    [
        ("lamp by the sofa", "lamp"),
        ("mug on the tray in the kitchen", "mug"),
        ("jug of milk", "jug of milk"),  # what it holds is what it is
        ("in-tray", "in-tray"),
    ],
)
def test_a_label_names_the_thing_before_it_says_where_it_is(label: str, named: str) -> None:
    assert named_part(label) == named
