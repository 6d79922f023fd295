"""Each perception query on the home scene, referent resolution, and safe parameter binding."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime, timezone
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rdflib import Graph, Literal, URIRef

from cogtree.knowledge.scene.named_queries import NamedQuery, QueryFileError, QueryLibrary
from cogtree.knowledge.scene.readonly_query import QueryRefused
from cogtree.knowledge.scene.referents.description import Description
from cogtree.knowledge.scene.scene_graph import SCENE, SCENES_DIR, SceneGraph, UnknownEntityError
from cogtree.knowledge.scene.scene_models import Observation

HOME = SCENES_DIR / "home.ttl"
HOSTILE = [
    'a "quoted" label',
    "} ; DROP ALL",
    '"} ; DROP ALL ; SELECT * { ?s ?p ?o } #',
    'back\\slash \\" escaped quote',
    "new\nline and\ttab",
    '"""triple quotes"""',
    "<https://example.org/not-an-iri> ?variable $other",
    "' single ' quotes '",
]
ECHO = NamedQuery.from_text("echo", "SELECT ?text WHERE { VALUES ?text { UNDEF } }")


@pytest.fixture(scope="module")
def home() -> Iterator[SceneGraph]:
    """The shipped home, shared by the read-only tests of this module."""
    with SceneGraph.from_turtle_file(HOME) as scene:
        yield scene


@pytest.fixture
def fresh() -> Iterator[SceneGraph]:
    """A home of its own, for tests that change it."""
    with SceneGraph.from_turtle_file(HOME) as scene:
        yield scene


def ids(items: list) -> list[str]:
    return [item.id for item in items]


# -- perception queries ---------------------------------------------------------------------


def test_rooms_lists_connections_in_both_directions(home: SceneGraph) -> None:
    rooms = {room.id: room for room in home.rooms()}
    assert rooms["hallway"].connected_to == ["bathroom", "bedroom", "kitchen", "living_room"]
    assert rooms["kitchen"].connected_to == ["hallway", "living_room"]
    assert rooms["bathroom"].connected_to == ["hallway"]
    assert rooms["living_room"].label == "living room"


def test_objects_in_room_follow_furniture_to_the_room(home: SceneGraph) -> None:
    kitchen = {info.id: info for info in home.objects_in_room("kitchen")}
    assert set(kitchen) == {
        "apple",
        "bottle_blue",
        "bottle_green",
        "coffee",
        "cupboard",
        "fridge",
        "kitchen_counter",
        "kitchen_table",
        "mug_red",
        "mug_white",
        "tea",
        "water",
    }
    bottle = kitchen["bottle_blue"]
    assert (bottle.kind, bottle.type, bottle.relation, bottle.support) == (
        "object",
        "Bottle",
        "in",
        "fridge",
    )
    assert bottle.attributes == {"colour": "blue", "material": "plastic"}
    assert (bottle.graspable, bottle.mass_kg, bottle.room) == (True, 0.55, "kitchen")
    fridge = kitchen["fridge"]
    assert (fridge.kind, fridge.is_open, fridge.relation, fridge.support) == (
        "container",
        False,
        "inRoom",
        "kitchen",
    )
    assert kitchen["coffee"].attributes == {"caffeinated": True, "hot": True}


def test_objects_in_room_includes_what_a_robot_carries_there(home: SceneGraph) -> None:
    assert ids(home.objects_in_room("hallway")) == ["base1_locker"]


def test_objects_in_an_empty_room_is_an_empty_list() -> None:
    text = (
        "@prefix : <https://cogtree.dev/scene#> .\n"
        "@prefix cog: <https://cogtree.dev/ontology#> .\n"
        ":attic a cog:Room ."
    )
    with SceneGraph.from_turtle_text(text) as scene:
        assert scene.objects_in_room("attic") == []


def test_objects_in_an_unknown_room_names_the_known_rooms(home: SceneGraph) -> None:
    with pytest.raises(UnknownEntityError, match="no room 'garage'.*kitchen"):
        home.objects_in_room("garage")
    with pytest.raises(UnknownEntityError, match="no room 'fridge'"):
        home.objects_in_room("fridge")


def test_locate_object_gives_placement_room_and_provenance(home: SceneGraph) -> None:
    bottle = home.locate_object("bottle_blue")
    assert bottle is not None
    assert (bottle.relation, bottle.support, bottle.room) == ("in", "fridge", "kitchen")
    assert bottle.source == "robot1_head_camera"
    assert bottle.last_seen == datetime(2025, 6, 2, 7, 40, tzinfo=timezone.utc)


def test_locate_object_finds_people_robots_and_stored_containers(home: SceneGraph) -> None:
    anna = home.locate_object("anna")
    assert anna is not None
    assert (anna.relation, anna.support, anna.room) == ("inRoom", "bedroom", "bedroom")
    locker = home.locate_object("base1_locker")
    assert locker is not None
    assert (locker.relation, locker.support, locker.room, locker.source) == (
        "mountedOn",
        "base1",
        "hallway",
        None,
    )


def test_locate_unknown_thing_is_none(home: SceneGraph) -> None:
    assert home.locate_object("unicorn") is None
    assert home.locate_object("kitchen") is None


def test_robot_state_reports_profiles(home: SceneGraph) -> None:
    (robot,) = home.robot_state("robot1")
    assert robot.room == "kitchen"
    assert (robot.hands, robot.payload_kg, robot.min_reach_m, robot.max_reach_m) == (
        2,
        3.0,
        0.1,
        1.8,
    )
    assert robot.skills == ["Close", "Goto", "Handover", "Open", "Pick", "Place"]
    assert ids(home.robot_state()) == ["base1", "robot1"]
    assert home.robot_state("anna") == []


def test_humans_report_room_availability_and_last_seen(home: SceneGraph) -> None:
    people = {person.id: person for person in home.humans()}
    assert (people["user"].label, people["user"].room) == ("alex", "living_room")
    assert people["anna"].availability == "busy"
    assert people["anna"].last_seen == datetime(2025, 6, 2, 7, 30, tzinfo=timezone.utc)
    assert people["anna"].source == "base1_camera"
    assert ids(home.humans("user")) == ["user"]
    assert home.humans("robot1") == []


# -- referent resolution --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("description", "speaker", "expected"),
    [
        ("the blue bottle", None, ["bottle_blue"]),
        ("my mug", "user", ["mug_red"]),
        ("anna's mug", None, ["mug_white"]),
        ("the kitchen table", None, ["kitchen_table"]),
        ("the bottle in the fridge", None, ["bottle_blue"]),
        ("the book on the table in the living room", None, ["book"]),
        ("the cup of coffee", None, ["coffee"]),
        ("some earl grey", None, ["tea"]),
        ("the lounge", None, ["living_room"]),
        ("The BLUE Bottle!", None, ["bottle_blue"]),
    ],
)
def test_one_candidate(home: SceneGraph, description: str, speaker: str | None, expected) -> None:
    assert ids(home.resolve_referent(description, speaker)) == expected


@pytest.mark.parametrize(
    ("description", "expected"),
    [
        ("a caffeinated drink", ["coffee", "tea"]),
        ("something to drink", ["coffee", "tea", "water"]),
        ("the bottle", ["bottle_blue", "bottle_green"]),
        ("the bottles", ["bottle_blue", "bottle_green"]),
        ("the red one", ["apple", "mug_red"]),
        ("the mug in the kitchen", ["mug_red", "mug_white"]),
        ("a cup", ["bottle_blue", "bottle_green", "mug_red", "mug_white"]),
    ],
)
def test_several_candidates(home: SceneGraph, description: str, expected: list[str]) -> None:
    assert ids(home.resolve_referent(description)) == expected


@pytest.mark.parametrize(
    "description",
    ["a purple unicorn", "the blue mug", "the bottle in the bathroom", "", "   ", "it", "the one"],
)
def test_no_candidate(home: SceneGraph, description: str) -> None:
    assert home.resolve_referent(description) == []


def test_descriptions_are_parsed_into_thing_and_nested_places() -> None:
    parsed = Description.parse("My friend\u2019s RED mug on the table in the kitchen")
    assert parsed.thing.words == ("my", "friend", "red", "mug")
    assert (parsed.thing.possessive, sorted(parsed.thing.content)) == (0, [1, 2, 3])
    assert (parsed.preposition, str(parsed.place)) == ("on", "the table in the kitchen")
    assert parsed.place is not None and str(parsed.place.place) == "the kitchen"
    terms = {
        term.text: sorted(term.covers) for term in Description.parse("cup of teas").thing.terms()
    }
    assert terms["cup of tea"] == terms["cup of teas"] == [0, 2]
    assert "of" not in terms


def test_my_needs_the_speaker_to_own_it(home: SceneGraph) -> None:
    assert ids(home.resolve_referent("my mug", speaker="anna")) == ["mug_white"]
    assert home.resolve_referent("my mug", speaker="nobody") == []  # both mugs are others'


def test_his_or_her_is_never_the_speakers_own(home: SceneGraph) -> None:
    assert ids(home.resolve_referent("his mug", speaker="anna")) == ["mug_red"]
    assert ids(home.resolve_referent("her mug", speaker="anna")) == ["mug_red"]
    assert len(home.resolve_referent("their mug", speaker="nobody")) == 2  # neither is theirs


def test_my_with_nothing_owned_is_what_nobody_is_known_to_own(home: SceneGraph) -> None:
    bottles = home.resolve_referent("my bottle", speaker="user")  # no bottle has an owner
    assert ids(bottles) == ["bottle_blue", "bottle_green"]  # several: the robot asks which
    assert all("nobody is known to own" in candidate.reasons[-1] for candidate in bottles)


def test_a_limit_gives_the_first_candidates_and_how_many_matched(home: SceneGraph) -> None:
    """Thousands of matches are answered by their count, not enumerated."""
    every = home.resolve_referent("my bottle", speaker="user")
    (first,) = home.resolve_referent("my bottle", speaker="user", limit=1)
    assert (first.id, first.among) == (every[0].id, 2)
    assert first.reasons == every[0].reasons  # nobody is known to own it, as before
    assert all(c.among is None for c in home.resolve_referent("my bottle", "user", limit=2))


def test_my_without_a_speaker_keeps_every_candidate_and_says_so(home: SceneGraph) -> None:
    candidates = home.resolve_referent("my mug")
    assert ids(candidates) == ["mug_red", "mug_white"]
    assert all("ownership not checked" in c.reasons[-1] for c in candidates)


def test_candidates_say_why_they_matched(home: SceneGraph) -> None:
    (bottle,) = home.resolve_referent("the blue bottle")
    assert (bottle.label, bottle.kind, bottle.type) == ("blue bottle", "object", "Bottle")
    assert "'blue': colour blue" in bottle.reasons
    assert "'bottle': a bottle" in bottle.reasons
    coffee, _ = home.resolve_referent("a caffeinated drink")
    assert coffee.reasons == [
        "'caffeinated': caffeinated is true",
        "'drink': coffee is a kind of drink",
    ]
    (mug,) = home.resolve_referent("my mug", speaker="user")
    assert mug.reasons == ["'my': owned by user", "'mug': a mug"]  # in word order
    (in_fridge,) = home.resolve_referent("the bottle in the fridge")
    assert in_fridge.reasons[-1] == "'in the fridge': in fridge"


def test_a_bad_speaker_id_is_refused(home: SceneGraph) -> None:
    with pytest.raises(ValueError, match="not a node id"):
        home.resolve_referent("my mug", speaker='user" } #')


# -- SPARQL-looking text is only ever a literal ---------------------------------------------


@pytest.mark.parametrize("text", HOSTILE)
def test_bound_text_comes_back_unchanged(home: SceneGraph, text: str) -> None:
    rows = list(home.graph.query(ECHO.bind(text=Literal(text))))
    assert [str(row[0]) for row in rows] == [text]


@settings(max_examples=150, deadline=None)
@given(st.text(alphabet=st.characters(blacklist_categories=["Cs"]), max_size=40))
def test_any_text_binds_as_one_literal(text: str) -> None:
    graph = Graph(store="Oxigraph")
    rows = list(graph.query(ECHO.bind(text=Literal(text))))
    assert [str(row[0]) for row in rows] == [text]


def test_hostile_labels_and_values_are_stored_and_matched_as_text(fresh: SceneGraph) -> None:
    time = datetime(2025, 6, 2, 9, 0, tzinfo=timezone.utc)
    fresh.observe(
        [
            Observation(
                subject="mug_red", predicate="colour", object=HOSTILE[0], source="c", time=time
            ),
            Observation(
                subject="book", predicate="label", object=HOSTILE[2], source="c", time=time
            ),
        ]
    )
    (mug,) = [o for o in fresh.objects_in_room("kitchen") if o.id == "mug_red"]
    assert mug.attributes["colour"] == HOSTILE[0]
    assert len(fresh.rooms()) == 5
    assert fresh.locate_object("book") is not None
    label = NamedQuery.from_text(
        "by_label",
        "SELECT ?thing WHERE { VALUES ?label { UNDEF } "
        "?thing <http://www.w3.org/2000/01/rdf-schema#label> ?label }",
    )
    rows = list(fresh.graph.query(label.bind(label=Literal(HOSTILE[2]))))
    assert [row[0] for row in rows] == [SCENE.book]


@pytest.mark.parametrize("description", [*HOSTILE, 'blue" } UNION { ?thing ?p ?o } #'])
def test_hostile_descriptions_change_nothing(fresh: SceneGraph, description: str) -> None:
    before = len(fresh)
    assert fresh.resolve_referent(description) == []
    assert len(fresh) == before


# -- named queries --------------------------------------------------------------------------


def test_every_shipped_query_parses_on_both_engines(home: SceneGraph) -> None:
    library = QueryLibrary.load()
    assert {"rooms", "objects_in_room", "locate_object", "robot_state", "humans"} <= set(library)
    memory = Graph()
    for query in library.values():
        unbound = query.bind(**dict.fromkeys(query.parameters))
        home.graph.query(unbound)
        memory.query(unbound)


def test_binding_refuses_plain_strings_and_unknown_parameters() -> None:
    query = NamedQuery.from_text("q", "SELECT * WHERE { VALUES ?room { UNDEF } ?room ?p ?o }")
    with pytest.raises(TypeError, match="wrap text in Literal"):
        query.bind(room="kitchen")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="missing \\['room'\\]"):
        query.bind()
    with pytest.raises(TypeError, match="unknown \\['rom'\\]"):
        query.bind(room=None, rom=None)
    with pytest.raises(ValueError, match="cannot bind room"):
        query.bind(room=URIRef("https://example.org/a b"))


def test_binding_several_terms_rows_and_nothing() -> None:
    single = NamedQuery.from_text("one", "SELECT * WHERE { VALUES ?x { UNDEF } }")
    assert 'VALUES ?x { "a" "b" }' in single.bind(x=[Literal("a"), Literal("b")])
    assert "VALUES ?x {  }" in single.bind(x=[])
    assert "VALUES ?x { UNDEF }" in single.bind(x=None)
    pair = NamedQuery.from_text("pair", "SELECT * WHERE { VALUES (?a ?b) { (UNDEF UNDEF) } }")
    assert list(pair.parameters) == ["a_b"]
    bound = pair.bind(a_b=[(Literal("x"), URIRef("urn:y")), (Literal("z"), URIRef("urn:w"))])
    assert 'VALUES (?a ?b) { ("x" <urn:y>) ("z" <urn:w>) }' in bound
    with pytest.raises(TypeError, match="rows of 2 terms"):
        pair.bind(a_b=[(Literal("x"),)])


def test_a_parameter_declared_twice_is_a_query_file_error() -> None:
    with pytest.raises(QueryFileError, match="declared more than once"):
        NamedQuery.from_text("twice", "SELECT * { VALUES ?x { UNDEF } VALUES ?x { UNDEF } }")


def test_unknown_query_name_lists_the_known_ones() -> None:
    with pytest.raises(KeyError, match="known queries: .*rooms"):
        QueryLibrary.load()["nope"]


# -- model-written queries ------------------------------------------------------------------


def test_query_readonly_runs_select_and_refuses_updates(home: SceneGraph) -> None:
    outcome = home.query_readonly("SELECT ?thing WHERE { ?thing cog:colour 'blue' }")
    assert outcome.rows == [{"thing": "scene:bottle_blue"}]
    with pytest.raises(QueryRefused, match="update"):
        home.query_readonly("DELETE WHERE { ?s ?p ?o }")
    assert len(home.rooms()) == 5


def test_furniture_heights_and_home_places_are_read() -> None:
    from cogtree.knowledge.scene.scene_graph import SceneGraph

    home_ttl = Path(__file__).resolve().parents[2] / "knowledge" / "scene" / "scenes" / "home.ttl"
    with SceneGraph.from_turtle_file(home_ttl) as scene:
        things = {info.id: info for info in scene.objects_in_room("kitchen")}
    assert things["kitchen_table"].height_m == 0.75
    assert things["cupboard"].height_m == 1.6
    assert things["mug_red"].home == "cupboard"
    assert things["bottle_blue"].home is None
