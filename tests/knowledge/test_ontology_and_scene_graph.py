"""The ontology, the shipped home scene, loading errors, observations and stale retraction."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest
from pydantic import ValidationError
from rdflib import OWL, RDF, RDFS, Graph, Literal

from cogtree.knowledge.scene.rdf_store import Storage, TurtleError
from cogtree.knowledge.scene.scene_graph import COG, SCENE, SCENES_DIR, SceneGraph
from cogtree.knowledge.scene.scene_models import Observation
from cogtree.knowledge.scene.taxonomy import ONTOLOGY_PATH

HOME = SCENES_DIR / "home.ttl"
T0 = datetime(2025, 6, 2, 8, 0, tzinfo=timezone.utc)


@pytest.fixture(params=[False, True], ids=["memory", "disk"])
def home(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[SceneGraph]:
    """The shipped home, on Oxigraph in memory and on disk: every belief test runs on both."""
    storage = Storage(on_disk=request.param, directory=tmp_path)
    with SceneGraph.from_turtle_file(HOME, storage=storage) as scene:
        yield scene


def seen(subject: str, predicate: str, obj: str | bool | float, *, minutes: int = 0) -> Observation:
    return Observation(
        subject=subject,
        predicate=predicate,
        object=obj,
        source="test_camera",
        time=T0 + timedelta(minutes=minutes),
    )


# -- ontology -------------------------------------------------------------------------------


def test_ontology_declares_the_vocabulary_the_queries_use() -> None:
    graph = Graph().parse(ONTOLOGY_PATH, format="turtle")
    for cls in ("Room", "Surface", "Container", "Object", "Robot", "Human", "Observation"):
        assert (COG[cls], RDF.type, OWL.Class) in graph, cls
    assert (COG.connectedTo, RDF.type, OWL.SymmetricProperty) in graph
    for placement in ("inRoom", "on", "in"):
        assert (COG[placement], RDFS.subPropertyOf, COG.placement) in graph
        assert (COG[placement], RDF.type, OWL.FunctionalProperty) in graph
    assert (COG.holds, RDF.type, OWL.InverseFunctionalProperty) in graph
    for attribute in ("colour", "flavour", "caffeinated"):
        assert (COG[attribute], RDFS.subPropertyOf, COG.attribute) in graph
    for profile in ("hasSkill", "payloadKg", "minReachM", "maxReachM", "hands"):
        assert (COG[profile], RDFS.domain, COG.Robot) in graph
    assert (COG.Coffee, COG.broaderType, COG.Drink) in graph


def test_home_scene_is_a_small_apartment(home: SceneGraph) -> None:
    assert [room.id for room in home.rooms()] == [
        "bathroom",
        "bedroom",
        "hallway",
        "kitchen",
        "living_room",
    ]
    robots = {robot.id: robot for robot in home.robot_state()}
    assert robots["robot1"].hands == 2
    assert robots["base1"].hands == 0
    assert robots["base1"].storage == ["base1_locker"]
    assert "Pick" not in robots["base1"].skills
    people = {person.id: person.availability for person in home.humans()}
    assert people == {"user": "available", "anna": "busy"}


# -- loading --------------------------------------------------------------------------------


def test_malformed_turtle_text_names_the_line() -> None:
    text = "@prefix : <https://cogtree.dev/scene#> .\n:a :b :c .\n:d :e .\n"
    with pytest.raises(TurtleError, match=r"my-scene line 3: malformed Turtle"):
        SceneGraph.from_turtle_text(text, source="my-scene")


def test_malformed_turtle_file_names_the_file_and_line(tmp_path: Path) -> None:
    path = tmp_path / "broken.ttl"
    path.write_text('@prefix : <https://cogtree.dev/scene#> .\n\n:a :b "open .\n')
    with pytest.raises(TurtleError, match=r"broken\.ttl line 3"):
        SceneGraph.from_turtle_file(path)


def test_missing_turtle_file_is_a_turtle_error(tmp_path: Path) -> None:
    with pytest.raises(TurtleError, match="cannot read Turtle file"):
        SceneGraph.from_turtle_file(tmp_path / "absent.ttl")


def test_a_given_graph_gets_the_ontology_once() -> None:
    graph = Graph()
    with SceneGraph(graph) as first:
        size = len(first)
    with SceneGraph(graph) as second:
        assert len(second) == size
    assert (COG.Room, RDF.type, OWL.Class) in graph


def test_ids_are_checked_before_they_become_iris() -> None:
    assert SceneGraph.iri("kitchen") == SCENE.kitchen
    assert SceneGraph.iri("cog:Bottle") == COG.Bottle
    assert str(SceneGraph.iri("https://example.org/x")) == "https://example.org/x"
    for bad in ("kitchen table", "a>b", "} ; DROP ALL", "", "x{y}"):
        with pytest.raises(ValueError, match="not a node id"):
            SceneGraph.iri(bad)


# -- observations ---------------------------------------------------------------------------


def test_observation_replaces_a_functional_value_and_records_provenance(home: SceneGraph) -> None:
    home.observe([seen("fridge", "isOpen", True, minutes=1)])
    assert home.graph.value(SCENE.fridge, COG.isOpen) == Literal(True)
    assert home.observations_of("fridge") == [seen("fridge", "isOpen", True, minutes=1)]


def test_new_placement_replaces_the_old_one_and_its_provenance(home: SceneGraph) -> None:
    home.observe([seen("bottle_blue", "on", "kitchen_table", minutes=2)])
    location = home.locate_object("bottle_blue")
    assert location is not None
    assert (location.relation, location.support, location.room) == (
        "on",
        "kitchen_table",
        "kitchen",
    )
    assert (location.source, location.last_seen) == ("test_camera", T0 + timedelta(minutes=2))
    assert (SCENE.bottle_blue, COG["in"], SCENE.fridge) not in home.graph
    assert [o.predicate for o in home.observations_of("bottle_blue")] == ["on"]


def test_holding_ends_the_placement_and_placing_ends_the_holding(home: SceneGraph) -> None:
    home.observe([seen("robot1", "holds", "mug_red", minutes=3)])
    held = home.locate_object("mug_red")
    assert held is not None
    assert (held.relation, held.support, held.room) == ("heldBy", "robot1", "kitchen")
    assert home.robot_state("robot1")[0].holding == ["mug_red"]
    home.observe([seen("mug_red", "on", "coffee_table", minutes=4)])
    placed = home.locate_object("mug_red")
    assert placed is not None
    assert (placed.relation, placed.room) == ("on", "living_room")
    assert home.robot_state("robot1")[0].holding == []


def test_a_second_holder_takes_the_object_from_the_first(home: SceneGraph) -> None:
    home.observe([seen("robot1", "holds", "apple")])
    home.observe([seen("user", "holds", "apple", minutes=1)])
    assert home.robot_state("robot1")[0].holding == []
    location = home.locate_object("apple")
    assert location is not None
    assert (location.relation, location.support) == ("heldBy", "user")


def test_re_observing_a_fact_refreshes_its_last_seen_time(home: SceneGraph) -> None:
    home.observe([seen("anna", "availability", "busy", minutes=30)])
    (availability,) = [o for o in home.observations_of("anna") if o.predicate == "availability"]
    assert availability.time == T0 + timedelta(minutes=30)
    assert availability.source == "test_camera"


def test_new_object_can_be_observed_from_scratch(home: SceneGraph) -> None:
    home.observe(
        [
            seen("banana1", "type", "Object"),
            seen("banana1", "objectType", "Banana"),
            seen("banana1", "label", "banana"),
            seen("banana1", "massKg", 0.12),
            seen("banana1", "on", "kitchen_table"),
        ]
    )
    (banana,) = [o for o in home.objects_in_room("kitchen") if o.id == "banana1"]
    assert (banana.type, banana.mass_kg, banana.support) == ("Banana", 0.12, "kitchen_table")
    assert [c.id for c in home.resolve_referent("a banana")] == ["banana1"]


@pytest.mark.parametrize(
    ("observation", "problem"),
    [
        (seen("mug_red", "teleportedTo", "kitchen"), "unknown predicate 'teleportedTo'"),
        (seen("mug_red", "on", True), "on takes a node id"),
        (seen("fridge", "isOpen", "yes"), "isOpen takes true or false"),
        (seen("mug_red", "massKg", "heavy"), "massKg takes a number"),
        (seen("robot1", "hands", 1.5), "hands takes a whole number"),
        (seen("mug red", "on", "kitchen_table"), "not a node id"),
        (seen("mug_red", "colour", 3), "colour takes text"),
    ],
)
def test_bad_observations_are_refused_and_change_nothing(
    home: SceneGraph, observation: Observation, problem: str
) -> None:
    before = len(home)
    good = seen("fridge", "isOpen", True)
    with pytest.raises(ValueError, match=problem) as raised:
        home.observe([good, observation])
    assert "observation 1" in str(raised.value)
    assert len(home) == before
    assert home.graph.value(SCENE.fridge, COG.isOpen) == Literal(False)


def test_observation_model_requires_an_aware_time_and_a_source() -> None:
    with pytest.raises(ValidationError):
        Observation(
            subject="a", predicate="on", object="b", source="cam", time=datetime(2025, 1, 1)
        )
    with pytest.raises(ValidationError):
        Observation(subject="a", predicate="on", object="b", source="", time=T0)


# -- stale facts ----------------------------------------------------------------------------


def test_retract_stale_removes_old_observed_facts_and_reports_them(home: SceneGraph) -> None:
    removed = home.retract_stale(datetime(2025, 6, 2, 7, 0, tzinfo=timezone.utc))
    assert [(o.subject, o.predicate, o.object, o.source) for o in removed] == [
        ("mug_white", "in", "cupboard", "robot1_head_camera"),
        ("tea", "in", "cupboard", "robot1_head_camera"),
    ]
    assert removed[0].time == datetime(2025, 6, 1, 19, 30, tzinfo=timezone.utc)
    assert home.locate_object("tea") is None
    assert home.observations_of("tea") == []
    assert home.locate_object("mug_red") is not None
    assert home.retract_stale(datetime(2025, 6, 2, 7, 0, tzinfo=timezone.utc)) == []


def test_retract_stale_can_be_limited_to_one_source(home: SceneGraph) -> None:
    cutoff = datetime(2025, 6, 2, 7, 50, tzinfo=timezone.utc)
    removed = home.retract_stale(cutoff, source="base1_camera")
    assert [(o.subject, o.predicate) for o in removed] == [("anna", "inRoom"), ("book", "on")]
    assert home.locate_object("bottle_blue") is not None  # robot1_head_camera, 07:40


def test_retract_stale_never_removes_prior_knowledge(home: SceneGraph) -> None:
    home.retract_stale(T0 + timedelta(days=365))
    assert len(home.rooms()) == 5
    assert home.locate_object("kitchen_table") is not None
    assert home.robot_state("robot1")[0].payload_kg == 3.0
    assert home.locate_object("apple") is None


def test_retract_stale_refuses_a_naive_cutoff(home: SceneGraph) -> None:
    with pytest.raises(ValueError, match="timezone-aware"):
        home.retract_stale(datetime(2025, 6, 2, 8, 0))


def test_fresh_observation_survives_retraction_of_older_ones(home: SceneGraph) -> None:
    home.observe([seen("tea", "on", "kitchen_counter", minutes=10)])
    home.retract_stale(T0 + timedelta(minutes=5))
    location = home.locate_object("tea")
    assert location is not None
    assert (location.relation, location.support) == ("on", "kitchen_counter")
