"""What the robot says about steps it left undone, and whom it offers to ask."""

from __future__ import annotations

from cogtree.knowledge.language.missing_steps import left_undone
from cogtree.knowledge.language.request_frame import parse_request
from cogtree.knowledge.scene.scene_graph import SceneGraph
from cogtree.knowledge.understanding.turn_state import SlotResolution
from cogtree.skills.planning.handover import alternatives_item, helpers_for, offers, undone_item

HOUSE = """
@prefix cog: <https://cogtree.dev/ontology#> .
@prefix : <https://cogtree.dev/scene#> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .

:kitchen a cog:Room ; rdfs:label "kitchen" .
:sam a cog:Human ; rdfs:label "Sam" ; cog:inRoom :kitchen ; cog:ability "cut" .
:ada a cog:Human ; rdfs:label "Ada" ; cog:inRoom :kitchen ; cog:ability "cut" ;
    cog:availability "away" .
:kim a cog:Human ; rdfs:label "Kim" ; cog:inRoom :kitchen ; cog:ability "sign" .
"""


def test_someone_at_home_who_can_is_offered_never_the_speaker_or_someone_away() -> None:
    undone = left_undone(parse_request("bring me the bread, then slice it"))
    with SceneGraph.from_turtle_text(HOUSE, source="house") as scene:
        assert helpers_for(scene, undone, speaker="kim") == {"cut": ["Sam"]}
        assert helpers_for(scene, undone, speaker="sam") == {}
    item = undone_item(undone, {"cut": ["Sam"]})
    assert item is not None and item.source == "missing_skill"
    assert item.text == (
        "I did not do the rest: I can't cut things yet. "
        "Sam can cut things: I can ask Sam to do it for you."
    )


def test_with_nobody_to_ask_the_missing_skill_is_said_alone() -> None:
    undone = left_undone(parse_request("bring me the bread, then slice it"))
    item = undone_item(undone, {})
    assert item is not None and item.text == "I did not do the rest: I can't cut things yet."
    assert undone_item((), {}) is None


def test_a_refused_request_offers_someone_who_can() -> None:
    undone = left_undone(parse_request("slice the bread"))
    assert offers(undone, {"cut": ["Sam", "Ada"]}) == [
        "Sam or Ada can cut things: I can ask Sam or Ada to do it for you."
    ]
    assert offers(undone, {}) == []


def test_look_alikes_left_beside_the_one_handed_over_are_offered() -> None:
    chose = SlotResolution(
        slot="object",
        said="that cola",
        kind="scene",
        ids=["coke"],
        reasons=["'that cola' -> coke: a cola", "any would do (on counter); also there: pepsi"],
    )
    item = alternatives_item({"object": chose})
    assert item is not None
    assert item.text == "the pepsi is there too, if you meant that one instead."
    two = chose.model_copy(update={"reasons": ["any would do (on counter); also there: a, b"]})
    item = alternatives_item({"object": two})
    assert item is not None
    assert item.text == "the a and the b are there too, if you meant one of those instead."
    same = chose.model_copy(update={"reasons": ["any would do (on counter); also there: a b, a b"]})
    item = alternatives_item({"object": same})
    assert item is not None  # look-alikes are counted, not listed one by one (failed before)
    assert item.text == "2 more like the a b are there too, if you meant one of those instead."
    assert alternatives_item({"object": chose.model_copy(update={"reasons": []})}) is None
