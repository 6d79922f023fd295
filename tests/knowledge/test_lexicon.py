"""Lexicon matching, and the lexicons built from a pack's terms, knowledge graph and scene."""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cogtree.knowledge.packs.domain_pack import PackError, load_pack
from cogtree.knowledge.packs.domain_registry import DomainRegistry
from cogtree.knowledge.scene.scene_graph import SceneGraph
from cogtree.knowledge.understanding.lexicon import (
    TYPE_PREFIX,
    Lexicon,
    Mention,
    build_lexicons,
    tokenize,
)
from cogtree.sim.executor import SimExecutor
from cogtree.sim.scenario import load_scenario

FOODS = Lexicon(
    "foods",
    {
        "peanut": ["peanut", "groundnut"],
        "dish": [],
        "berry": ["berry"],
        "ice_cream": ["ice cream", "gelato"],
        "cream": ["cream"],
        "living_room": ["lounge"],
        "hot_water_bottle": ["hot-water bottle"],
        "priya_desk": ["priya's desk"],
        "anna": ["anna"],
    },
)


def ids(text: str, lexicon: Lexicon = FOODS) -> list[str]:
    return [mention.id for mention in lexicon.find(text)]


def test_mentions_carry_the_words_as_said_and_their_offsets() -> None:
    text = "No PEANUTS in my Ice Cream, please"
    mentions = FOODS.find(text)
    assert mentions == [
        Mention(lexicon="foods", id="peanut", text="PEANUTS", start=3, end=10),
        Mention(lexicon="foods", id="ice_cream", text="Ice Cream", start=17, end=26),
    ]
    assert all(text[m.start : m.end] == m.text for m in mentions)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("peanuts and dishes and berries", ["peanut", "dish", "berry"]),
        ("groundnuts", ["peanut"]),
        ("ice cream with cream", ["ice_cream", "cream"]),  # longest match first
        ("the living room", ["living_room"]),  # the id's own words are a form
        ("the lounge", ["living_room"]),
        ("a hot water bottle", ["hot_water_bottle"]),  # hyphen or space
        ("hot-water bottles", ["hot_water_bottle"]),
        ("on Priya’s desk", ["priya_desk"]),  # curly apostrophe
        ("on priyas desk", ["priya_desk"]),
        ("anna's mug", ["anna"]),  # possessive
        ("peanutbutter, creamy, berryish", []),  # whole words only
        ("", []),
    ],
)
def test_find(text: str, expected: list[str]) -> None:
    assert ids(text) == expected


def test_a_possessive_mention_ends_before_the_s() -> None:
    (mention,) = FOODS.find("Anna's mug")
    assert mention.text == "Anna"


def test_ids_forms_labels() -> None:
    assert FOODS.ids[:3] == ["peanut", "dish", "berry"]
    assert FOODS.forms("peanut") == ["peanut", "groundnut"]
    assert FOODS.label("living_room") == "lounge"
    assert FOODS.label("dish") == "dish"
    assert "peanut" in FOODS and "walnut" not in FOODS
    assert len(FOODS) == 9
    with pytest.raises(KeyError, match="no id 'walnut'"):
        FOODS.forms("walnut")


def test_a_form_shared_by_two_ids_stays_with_the_first() -> None:
    lexicon = Lexicon("things", {"table_1": ["table"], "table_2": ["table", "desk"]})
    assert ids("the table", lexicon) == ["table_1"]
    assert lexicon.forms("table_2") == ["desk"]


def test_a_plural_form_is_found_by_its_singular_unless_another_id_has_that_word() -> None:
    # English says "a peanut allergy", "allergic to peanut" of what a lexicon lists as
    # "peanuts"; a singular another id already has as a form of its own stays with that id.
    lexicon = Lexicon(
        "foods",
        {
            "Peanuts": ["peanuts"],
            "berries": ["berries"],
            "glass": ["glass"],
            "glasses": ["glasses"],
            "tree_nuts": ["tree nuts"],
        },
    )
    assert ids("a peanut allergy", lexicon) == ["Peanuts"]
    assert ids("one berry", lexicon) == ["berries"]
    assert ids("a tree nut", lexicon) == ["tree_nuts"]
    assert ids("a glass", lexicon) == ["glass"]
    assert ids("the glasses", lexicon) == ["glasses"]
    assert lexicon.forms("Peanuts") == ["peanuts"]  # the derived singular is no label


def test_ids_that_are_not_words_are_not_forms() -> None:
    lexicon = Lexicon("things", {"type:Bottle": ["bottle"], "table_1": []})
    assert ids("type bottle table 1", lexicon) == ["type:Bottle"]


@given(st.text(max_size=200))
def test_find_never_fails_and_mentions_do_not_overlap(text: str) -> None:
    mentions = FOODS.find(text)
    for before, after in itertools.pairwise(mentions):
        assert before.end <= after.start
    for mention in mentions:
        assert text[mention.start : mention.end] == mention.text


def test_tokenize_lowercases_and_keeps_offsets() -> None:
    tokens = tokenize("Don’t-STOP now")
    assert [t.text for t in tokens] == ["don't", "stop", "now"]
    assert [(t.start, t.end) for t in tokens] == [(0, 5), (6, 10), (11, 14)]


def test_an_auxiliary_clitic_is_its_own_word_and_other_apostrophes_stay() -> None:
    tokens = tokenize("Where’ve they gone, they're out; Lee's, I'd")
    assert [t.text for t in tokens] == [
        *("where", "have", "they", "gone", "they", "are", "out", "lee's", "i'd"),
    ]
    assert [(t.start, t.end) for t in tokens[:2]] == [(0, 5), (6, 8)]  # "Where", "ve"


# -- lexicons of packs ----------------------------------------------------------------------


@pytest.fixture(scope="module")
def robee() -> Iterator[SceneGraph]:
    executor = SimExecutor.from_scenario(load_scenario("robee_bottle"))
    assert executor.belief is not None
    yield executor.belief
    executor.close()


@pytest.fixture(scope="module")
def household_lexicons(robee: SceneGraph) -> dict[str, Lexicon]:
    pack = DomainRegistry.discover(only=["household"]).get("household")
    return build_lexicons(pack, robee)


def test_scene_lexicons_hold_labels_synonyms_and_types(
    household_lexicons: dict[str, Lexicon],
) -> None:
    objects = household_lexicons["objects"]
    assert {"bottle", "mug", "milk"} <= set(objects.ids)
    assert objects.forms(TYPE_PREFIX + "Drink") == ["drink", "beverage"]
    assert ids("a beverage from the fridge", objects) == ["type:Drink"]
    rooms = household_lexicons["rooms"]
    assert ids("the lounge or the corridor", rooms) == ["living_room", "hallway"]
    places = household_lexicons["places"]
    assert ids("the kitchen table in the bedroom", places) == ["table_1", "bedroom"]
    assert ids("a table", places) == ["type:Table"]
    assert household_lexicons["people"].ids == ["alex", "anna"]
    destinations = household_lexicons["destinations"]
    assert ids("to anna in the kitchen", destinations) == ["anna", "kitchen"]


def test_node_names_win_over_type_names(household_lexicons: dict[str, Lexicon]) -> None:
    assert ids("the bottle", household_lexicons["objects"]) == ["bottle"]


def test_people_are_found_by_the_words_of_their_name() -> None:
    executor = SimExecutor.from_scenario(load_scenario("signer_busy"))
    assert executor.belief is not None
    pack = DomainRegistry.discover(only=["office"]).get("office")
    people = build_lexicons(pack, executor.belief)["people"]
    executor.close()
    assert ids("ask Dr Weber", people) == ["weber"]
    assert ids("ask Weber", people) == ["weber"]
    assert ids("ask Dr", people) == []


def test_scene_lexicons_are_empty_without_a_scene() -> None:
    pack = DomainRegistry.discover(only=["household"]).get("household")
    lexicons = build_lexicons(pack, None)
    scene = {"objects", "rooms", "places", "destinations", "people", "things"}
    assert set(lexicons) == scene | {"relations"}
    assert all(len(lexicons[name]) == 0 for name in scene)
    assert len(lexicons["relations"]) == 8  # inline terms need no scene


PACK = """\
name: tiny
title: Tiny
description: a pack for lexicon tests
knowledge: [tiny.ttl]
lexicons:
  dishes: {{query: {query}}}
  aspects: {{terms: {{kcal: [calories, energy], protein: []}}}}
tasks:
  - name: Info
    schema: Info
    grounding: physical
    description: info about a dish
    examples: [tell me about tiramisu]
    slots:
      dish: {{lexicon: dishes, resolve: kg}}
"""
SCHEMAS = "from pydantic import BaseModel\n\nclass Info(BaseModel):\n    dish: str\n"
TURTLE = """\
@prefix t: <https://example.org/tiny#> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
t:tiramisu rdfs:label "tiramisu" ; t:alias "tiramisu cake" .
t:pannacotta rdfs:label "panna cotta" .
"""
DISHES = """\
PREFIX rdfs: <http://www.w3.org/2000/01/rdf-schema#>
PREFIX t: <https://example.org/tiny#>
SELECT ?id ?label ?alias WHERE {
  VALUES ?id { UNDEF }
  ?id rdfs:label ?label . OPTIONAL { ?id t:alias ?alias }
}
"""


def tiny_pack(folder: Path, query_text: str, query: str = "dishes") -> Path:
    (folder / "queries").mkdir(parents=True)
    (folder / "pack.yaml").write_text(PACK.format(query=query))
    (folder / "tasks.py").write_text(SCHEMAS)
    (folder / "tiny.ttl").write_text(TURTLE)
    (folder / "queries" / "dishes.rq").write_text(query_text)
    return folder


def test_query_and_terms_lexicons(tmp_path: Path) -> None:
    pack = load_pack(tiny_pack(tmp_path, DISHES))
    lexicons = build_lexicons(pack, None)
    dishes = lexicons["dishes"]
    assert dishes.forms("tiramisu") == ["tiramisu", "tiramisu cake"]
    assert ids("Panna cotta or tiramisu cake?", dishes) == ["pannacotta", "tiramisu"]
    assert ids("how many calories, how much protein", lexicons["aspects"]) == ["kcal", "protein"]


def test_a_lexicon_query_without_id_and_label_is_a_pack_error(tmp_path: Path) -> None:
    text = "PREFIX rdfs: <http://www.w3.org/2000/01/rdf-schema#>\n"
    text += "SELECT ?dish WHERE { ?dish rdfs:label ?name }\n"
    pack = load_pack(tiny_pack(tmp_path, text))
    with pytest.raises(PackError, match=r"lexicon dishes: query dishes.rq must SELECT \?id"):
        build_lexicons(pack, None)


def test_a_lexicon_query_that_fails_is_a_pack_error(tmp_path: Path) -> None:
    pack = load_pack(tiny_pack(tmp_path, "SELECT ?id ?label WHERE { ?id ?label }\n"))
    with pytest.raises(PackError, match="lexicon dishes: query dishes.rq failed"):
        build_lexicons(pack, None)


def test_claimants_keep_every_id_once_in_entry_order() -> None:
    lexicon = Lexicon(
        "people",
        {"alex_k": ["alex", "Alex"], "alex_m": ["alex", "alex m"], "priya": ["priya"]},
    )
    assert lexicon.claimants("Alex") == ["alex_k", "alex_m"]
    assert lexicon.claimants("alex m") == ["alex_m"]
    assert lexicon.claimants("nobody") == []
    assert [mention.id for mention in lexicon.find("ask alex")] == ["alex_k"]
