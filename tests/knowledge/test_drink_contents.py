"""A container of a drink asked for is poured, then brought; one already there is fetched."""

from __future__ import annotations

import pytest

from cogtree.knowledge.language.request_frame import parse_request
from cogtree.knowledge.understanding.contents import water_as_fill, with_contents


def test_a_new_glass_of_a_cold_drink_is_poured_then_brought() -> None:
    pour, bring = with_contents(parse_request("could you fetch me a glass of orange juice")).steps
    assert pour.action == "pour" and pour.source is not None and pour.landmark is not None
    assert (pour.source.text, pour.landmark.text) == ("orange juice", "a glass")
    assert bring.action == "bring" and [p.text for p in bring.objects] == ["it"]


@pytest.mark.parametrize(
    "said",
    [
        "fetch me the glass of orange juice",  # a glass that holds it already
        "bring me a mug of tea",  # hot: the mug would not be known to be hot
        "hand me a cup of coffee",
        "bring me a bag of pretzels",  # no drink: the bag is the thing
        "bring me a glass of the Benylin",  # a name the taxonomy does not know as a drink
    ],
)
def test_what_is_not_poured(said: str) -> None:
    assert [step.action for step in with_contents(parse_request(said)).steps] == ["bring"]


@pytest.mark.parametrize(
    ("said", "source", "vessel", "recipient"),
    [
        ("be a star and pour me a glass of wine", "wine", "a glass", "me"),
        ("pour us a glass of milk", "milk", "a glass", "us"),
        ("can I have some juice in my cup please", "juice", "my cup", "me"),
        ("can you take Dad half a glass of milk", "milk", "a glass", "Dad"),  # an amount of it
        ("bring me a small glass of orange juice", "orange juice", "a small glass", "me"),
        ("could I trouble you for a tall glass of milk", "milk", "a tall glass", "me"),
    ],
)
def test_a_drink_for_someone_is_poured_into_its_vessel_then_brought(
    said: str, source: str, vessel: str, recipient: str
) -> None:
    pour, bring = with_contents(parse_request(said)).steps
    assert pour.action == "pour" and pour.source is not None and pour.landmark is not None
    assert (pour.source.text, pour.landmark.text) == (source, vessel)
    assert not pour.objects  # the person is not what is poured
    assert bring.recipient is not None and bring.recipient.text == recipient
    assert [p.text for p in bring.objects] == ["it"]


@pytest.mark.parametrize(
    "said",
    [
        "bring me the juice in the fridge",  # a place it is in, no vessel to pour it into
        "can I have the juice in my cup",  # the juice already in the cup
        "pour us some juice",  # no vessel said: none is made up
    ],
)
def test_a_drink_with_no_vessel_of_its_own_is_not_poured_for_anyone(said: str) -> None:
    assert [step.action for step in with_contents(parse_request(said)).steps] != ["pour", "bring"]


@pytest.mark.parametrize(
    ("said", "vessel", "person"),
    [
        ("pour some wine in the cup for Tom", "the cup", "Tom"),  # the hazard rules see Tom
        ("pour some juice into the blue mug for Priya", "the blue mug", "Priya"),
    ],
)
def test_a_pour_into_a_vessel_for_someone_serves_it_to_them(
    said: str, vessel: str, person: str
) -> None:
    steps = with_contents(parse_request(said)).steps
    assert [step.action for step in steps] == ["pour", "bring"]
    assert steps[0].recipient is None and steps[0].landmark is not None
    assert [phrase.text for phrase in steps[1].objects] == [vessel]
    assert steps[1].recipient is not None and steps[1].recipient.text == person


def _steps(said: str) -> list[tuple[str, list[str], str | None]]:
    frame = with_contents(parse_request(said))
    return [
        (
            step.action,
            [phrase.text for phrase in step.objects],
            step.landmark and step.landmark.text,
        )
        for step in frame.steps
    ]


def test_a_vessel_the_taxonomy_knows_is_a_measure_and_one_put_somewhere_is_filled_first() -> None:
    """Checked to fail before: "a jug of water" was a jug described by water (no measure of
    the words list), and a container put somewhere was placed empty."""
    assert _steps("stick a jug of water on the table") == [
        ("fill", ["a jug"], None),
        ("place", ["it"], "the table"),
    ]
    assert _steps("bring me a jug of water") == [("fill", ["a jug"], None), ("bring", ["it"], None)]
    assert _steps("put a glass of milk on the tray")[1] == ("place", ["it"], "the tray")
    assert _steps("put the glass of water on the table") == [  # one there already
        ("place", ["the glass of water"], "the table")
    ]


def test_a_drink_in_the_container_it_comes_in_is_that_thing() -> None:
    assert _steps("pop a bottle of water in my gym bag") == [
        ("place", ["a bottle of water"], "my gym bag")
    ]
    assert _steps("get me a carton of milk") == [("bring", ["a carton of milk"], None)]


@pytest.mark.parametrize(
    ("said", "quantity"),
    [
        ("bring me a small glass of milk", "small glass of"),  # an adjective: part of the measure
        ("bring me a glass of the milk", "glass of the"),
        ("bring me a glass", ""),  # no "of": no measure
        ("bring me a red glass", ""),
        ("bring me the small mug", ""),
        ("bring me a full glass of milk", ""),  # fullness tells no vessel: no measure read
        ("bring me a hot cup of milk", ""),
        ("bring me a second glass of milk", ""),
    ],
)
def test_a_measure_may_be_described_before_its_of(said: str, quantity: str) -> None:
    (step,) = parse_request(said).steps
    assert step.objects[0].quantity == quantity


@pytest.mark.parametrize(
    ("said", "action"),
    [
        ("put a bit of water in the sippy cup", "fill"),
        ("put some water in the dog's bowl", "fill"),
        ("put water in the kettle", "fill"),
        ("put a bit of water in the toaster", "place"),  # no vessel: never filled
        ("put water in the laptop", "place"),
        ("put some water in the thingamajig", "place"),  # no known type: no vessel either
    ],
)
def test_water_put_in_a_vessel_fills_it_and_in_anything_else_does_not(
    said: str, action: str
) -> None:
    """Checked to fail before: "water in the toaster" filled the toaster at the tap."""
    [step] = with_contents(parse_request(said)).steps
    assert water_as_fill(step).action == action
