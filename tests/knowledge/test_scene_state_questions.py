"""Yes/no questions about a thing's state or place, answered from the belief."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from cogtree.knowledge.language.grammar.question_clauses import asked_about
from cogtree.knowledge.language.request_frame import parse_request
from cogtree.knowledge.packs.domain_registry import DomainRegistry
from cogtree.knowledge.scene.scene_graph import SceneGraph
from cogtree.knowledge.scene.scene_questions import state_of, things_of_a_kind
from cogtree.knowledge.understanding.frame_tasks import step_task
from cogtree.knowledge.understanding.slot_filling import fill_slots

# A hall and a study, written for these tests.
HOUSE = """
@prefix cog: <https://cogtree.dev/ontology#> .
@prefix : <https://cogtree.dev/scene#> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .

:hall a cog:Room ; rdfs:label "hall" .
:study a cog:Room ; rdfs:label "study" .
:bench a cog:Furniture ; rdfs:label "hall bench" ; cog:inRoom :hall .
:desk a cog:Furniture ; rdfs:label "desk" ; cog:inRoom :study .
:drawer a cog:Container ; rdfs:label "desk drawer" ; cog:objectType cog:Drawer ;
    cog:inRoom :study .
:scarf a cog:Object ; rdfs:label "Priya's green scarf" ; cog:objectType cog:Scarf ;
    cog:on :bench .
:stapler a cog:Object ; rdfs:label "stapler" ; cog:objectType cog:Stapler ; cog:in :drawer .
:desk_lamp a cog:Object ; rdfs:label "desk lamp" ; cog:objectType cog:Lamp ; cog:on :desk ;
    cog:powered true .
"""


@pytest.fixture(scope="module")
def house() -> Iterator[SceneGraph]:
    scene = SceneGraph.from_turtle_text(HOUSE, source="house")
    yield scene
    scene.close()


def test_whether_a_thing_is_in_a_place_is_told_with_where_it_is(house: SceneGraph) -> None:
    elsewhere = state_of(house.index, "my green scarf in the desk drawer")
    assert elsewhere["state_answer"] == "No: the Priya's green scarf is on the hall bench"
    there = state_of(house.index, "the stapler in the drawer")
    assert there["state_answer"] == "Yes: the stapler is in the desk drawer"
    unknown = state_of(house.index, "the stapler in the loft")  # no loft known: where it is
    assert unknown["state_answer"] == "the stapler is in the desk drawer"


def test_a_question_whether_a_thing_is_in_a_place_fills_the_state_question() -> None:
    pack = DomainRegistry.discover(only=["household"]).get("household")
    task = next(task for task in pack.tasks if task.name == "StateOf")
    asked = {
        "is my green scarf in the desk drawer, any idea?": "my green scarf in the desk drawer",
        "did you leave the desk lamp on again?": "the desk lamp on",  # "again" says nothing
        "is the lamp on the desk": "the lamp on the desk",  # a place, not "on"
    }
    for question, kind in asked.items():
        assert fill_slots(task, question, {}).slots.get("kind") == kind
    request = "this is too hot, can you put an ice cube in my drink?"  # no noun phrase asked
    assert fill_slots(task, request, {}).slots.get("kind") is None


def test_a_clause_of_its_own_after_or_is_no_thing_asked_about(house: SceneGraph) -> None:
    pack = DomainRegistry.discover(only=["household"]).get("household")
    said = "are there any staplers left or did Sam take it"
    (step,) = parse_request(said).steps
    assert [phrase.text for phrase in asked_about(step.wanted)] == ["staplers left"]
    found = step_task(step, pack, said)
    assert found is not None and found.slots == {"kind": "staplers left"}
    asked = things_of_a_kind(house.index, "staplers left")
    assert asked["have_answer"] == "Yes: the stapler in the desk drawer"
    (both,) = parse_request("is there any tea or coffee").steps
    assert [phrase.text for phrase in asked_about(both.wanted)] == ["tea", "coffee"]


def test_a_verb_that_leaves_a_thing_in_a_state_asks_about_that_state(house: SceneGraph) -> None:
    pack = DomainRegistry.discover(only=["household"]).get("household")
    task = next(task for task in pack.tasks if task.name == "StateOf")
    asked = {
        "did I close the desk drawer properly before lunch?": "close the desk drawer properly",
        "did I close the desk drawer or not": "close the desk drawer",
        "did I shut the drawer and turn off the lamp": "shut the drawer",
        "did you leave the desk lamp on in Priya's study": "the desk lamp on",
        "which of the lamps in the study have I left on?": "the lamps in the study have I left on",
        "did I shut the drawer when I went out": "shut the drawer",
    }
    for question, kind in asked.items():
        assert fill_slots(task, question, {}).slots.get("kind") == kind
    assert fill_slots(task, "did I eat the last biscuit", {}).slots.get("kind") is None
    assert fill_slots(task, "which of the mugs in the drawer is clean?", {}).slots == {}
    both = fill_slots(task, "did I shut the drawer and the lamp?", {}).slots.get("kind")
    assert both != "shut the drawer"  # never answered in half
    lamps = state_of(house.index, "the lamps in the study have I left on")
    assert lamps["state_answer"] == "Yes: the desk lamp is on"
    off = fill_slots(task, "did I shut the desk lamp off?", {}).slots["kind"]
    assert state_of(house.index, str(off))["state_answer"] == "No: the desk lamp is on"
    drawer = state_of(house.index, "shut the desk drawer properly")
    assert drawer["asked"] == "desk drawer"
    assert drawer["state_answer"] == "I do not know whether the desk drawer is closed"
