"""Things told by what they hold and by where they are kept: "a cold drink from the fridge"."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from cogtree.knowledge.scene.referents.description import Description
from cogtree.knowledge.scene.scene_graph import SceneGraph

# A kitchen written for these tests: drinks named by their labels only (no liquid recorded),
# a fridge, a freezer and a cupboard.
KITCHEN = """
@prefix cog: <https://cogtree.dev/ontology#> .
@prefix : <https://cogtree.dev/scene#> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .

:kitchen a cog:Room ; rdfs:label "kitchen" .
:fridge a cog:Container ; rdfs:label "fridge" ; cog:objectType cog:Fridge ;
    cog:inRoom :kitchen .
:freezer a cog:Container ; rdfs:label "freezer" ; cog:objectType cog:Freezer ;
    cog:inRoom :kitchen .
:cupboard a cog:Container ; rdfs:label "cupboard" ; cog:objectType cog:Cupboard ;
    cog:inRoom :kitchen .
:shelf a cog:Surface ; rdfs:label "door shelf" ; cog:in :fridge .
:cola a cog:Object ; rdfs:label "can of cola" ; cog:objectType cog:Can ; cog:on :shelf .
:fizzy a cog:Object ; rdfs:label "bottle of sparkling water" ; cog:objectType cog:WaterBottle ;
    cog:in :fridge .
:ketchup a cog:Object ; rdfs:label "ketchup" ; cog:objectType cog:Ketchup ; cog:in :fridge .
:peas a cog:Object ; rdfs:label "bag of peas" ; cog:objectType cog:FrozenFood ;
    cog:in :freezer .
:juice a cog:Object ; rdfs:label "bottle of apple juice" ; cog:objectType cog:Bottle ;
    cog:in :cupboard .
:cleaner a cog:Object ; rdfs:label "bottle of lemonade" ; cog:objectType cog:Bottle ;
    cog:chemical true ; cog:in :cupboard .
"""


@pytest.fixture(scope="module")
def kitchen() -> Iterator[SceneGraph]:
    scene = SceneGraph.from_turtle_text(KITCHEN, source="contents")
    yield scene
    scene.close()


def ids(scene: SceneGraph, description: str) -> list[str]:
    return [candidate.id for candidate in scene.resolve_referent(description)]


@pytest.mark.parametrize(
    ("description", "expected"),
    [
        # a fridge keeps what is in it cold, at any depth (the can is on a shelf in it)
        ("a cold drink", ["cola", "fizzy"]),
        ("something cold", ["cola", "fizzy", "ketchup", "peas"]),
        ("the frozen peas", ["peas"]),  # a freezer's contents are frozen
        ("a chilled drink from the fridge", ["cola", "fizzy"]),
        # a vessel named by a drink holds it; never a bottle flagged chemical
        ("a drink", ["cola", "fizzy", "juice"]),
        ("the cola", ["cola"]),
        ("a coke", ["cola"]),  # a brand name of the drink its label names
    ],
)
def test_a_thing_is_told_by_where_it_is_kept_and_what_its_label_says_it_holds(
    kitchen: SceneGraph, description: str, expected: list[str]
) -> None:
    """Checked to fail before: "a cold drink" and "a drink" found nothing acted on (cold
    was no word of any thing, and a can labelled "can of cola" matched only as a guess)."""
    assert ids(kitchen, description) == expected


def test_the_reasons_say_where_it_is_kept_and_what_its_label_says(kitchen: SceneGraph) -> None:
    [cola] = [c for c in kitchen.resolve_referent("a cold drink") if c.id == "cola"]
    assert "'cold': it is in a fridge, which keeps things cold" in cola.reasons
    assert "'drink': its label says it holds drink" in cola.reasons
    assert cola.by_content and not cola.by_label


def test_a_chemical_bottle_named_by_a_drink_is_only_a_guess(kitchen: SceneGraph) -> None:
    [cleaner] = kitchen.resolve_referent("some lemonade")
    assert cleaner.id == "cleaner" and cleaner.by_label and not cleaner.by_content


def test_a_thing_called_by_what_it_is_is_not_matched_by_its_contents(
    kitchen: SceneGraph,
) -> None:
    [can] = kitchen.resolve_referent("the can")
    assert can.id == "cola" and not can.by_content


@pytest.mark.parametrize(
    ("text", "thing", "place"),
    [
        ("something to drink from the fridge", "something to drink", "the fridge"),
        ("something cold to drink out of the fridge", "something cold to drink", "of the fridge"),
        ("something to sit on in the garden", "something to sit on", "the garden"),
        ("something to drink from", "something to drink from", None),  # a vessel's use
        ("something to wipe the table down with", "something to wipe down with", None),
    ],
)
def test_a_place_after_a_use_stays_the_place(text: str, thing: str, place: str | None) -> None:
    """Checked to fail before: "from the fridge" was read as the use "drink from" and the
    fridge was dropped."""
    said = Description.parse(text)
    assert str(said.thing) == thing
    assert (str(said.place) if said.place is not None else None) == place
