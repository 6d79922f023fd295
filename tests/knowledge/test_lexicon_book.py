"""LexiconBook: every pack's lexicons, rebuilt when the scene graph changes."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime, timezone

import pytest

from cogtree.knowledge.packs.domain_pack import DomainPack
from cogtree.knowledge.packs.domain_registry import DomainRegistry
from cogtree.knowledge.scene.scene_graph import SceneGraph
from cogtree.knowledge.scene.scene_models import Observation
from cogtree.knowledge.understanding import lexicon_book
from cogtree.knowledge.understanding.lexicon import Lexicon, build_lexicons
from cogtree.knowledge.understanding.lexicon_book import LexiconBook, basic_families

SEEN = datetime(2025, 6, 2, 8, 5, tzinfo=timezone.utc)


@pytest.fixture(scope="module")
def registry() -> DomainRegistry:
    return DomainRegistry.discover()


def sighting(subject: str, predicate: str, value: str) -> Observation:
    return Observation(subject=subject, predicate=predicate, object=value, source="test", time=SEEN)


def test_a_thing_seen_later_is_in_the_live_view(registry: DomainRegistry) -> None:
    with SceneGraph.from_turtle_file("knowledge/scene/scenes/home.ttl") as scene:
        book = LexiconBook(registry, scene)
        objects = book.view("household")["objects"]
        assert not objects.find("the teapot")
        before = scene.version
        scene.observe(
            [
                sighting("teapot_1", "type", "Object"),
                sighting("teapot_1", "objectType", "Teapot"),
                sighting("teapot_1", "label", "teapot"),
                sighting("teapot_1", "inRoom", "kitchen"),
            ]
        )
        assert scene.version > before
        found = book.view("household")["objects"].find("the teapot")
        assert [mention.id for mention in found] == ["teapot_1"]


def test_a_pack_without_scene_lexicons_is_built_once(registry: DomainRegistry) -> None:
    with SceneGraph.from_turtle_file("knowledge/scene/scenes/home.ttl") as scene:
        book = LexiconBook(registry, scene)
        first = book.current("advisor")
        scene.observe([sighting("teapot_1", "label", "teapot")])
        assert book.current("advisor") is first


def test_prepare_leaves_a_pack_of_its_own_knowledge_for_its_first_need(
    registry: DomainRegistry,
) -> None:
    with SceneGraph.from_turtle_file("knowledge/scene/scenes/home.ttl") as scene:
        book = LexiconBook(registry, scene)
        assert book.deferred(registry.names) == []  # not prepared: each pack built on first use
        book.prepare()
        assert book.deferred(registry.names) == ["advisor"]  # its graph's queries wait
        assert "dish" in book.view("advisor") and "objects" not in book.view("advisor")
        assert book.deferred(["advisor"]) == ["advisor"]  # naming its lexicons built nothing
        book.build(["advisor"])
        assert book.deferred(registry.names) == []
        assert [m.id for m in book.view("advisor")["dish"].find("tiramisu please")] == ["tiramisu"]


def test_a_pack_is_built_outside_the_lock_and_the_first_build_installed_wins(
    registry: DomainRegistry, monkeypatch: pytest.MonkeyPatch
) -> None:
    with SceneGraph.from_turtle_file("knowledge/scene/scenes/home.ttl") as scene:
        book = LexiconBook(registry, scene)
        book.prepare()
        seen: list[object] = []

        def building(pack: DomainPack, scene_graph: SceneGraph | None) -> dict[str, Lexicon]:
            if not seen:  # the worker's build: a tick reads meanwhile, and builds it too
                assert not book._lock.locked()  # nobody waits on a build
                seen.append(book.view("household")["objects"])
                seen.append(book.current("advisor"))
            return build_lexicons(pack, scene_graph)

        monkeypatch.setattr(lexicon_book, "build_lexicons", building)
        assert book.current("advisor") is seen[1]  # the tick's build was installed first


def test_without_a_scene_the_scene_lexicons_are_empty(registry: DomainRegistry) -> None:
    book = LexiconBook(registry)
    assert len(book.view("household")["objects"]) == 0
    assert [m.id for m in book.view("advisor")["dish"].find("tiramisu please")] == ["tiramisu"]


@pytest.fixture
def home(registry: DomainRegistry) -> Iterator[tuple[SceneGraph, LexiconBook, Lexicon]]:
    """The home scene, its lexicon book prepared, and the household pack's objects lexicon."""
    with SceneGraph.from_turtle_file("knowledge/scene/scenes/home.ttl") as scene:
        book = LexiconBook(registry, scene)
        book.prepare()
        yield scene, book, book.current("household")["objects"]


def test_a_change_edits_the_scene_lexicons_in_place_and_a_move_leaves_them_alone(
    home: tuple[SceneGraph, LexiconBook, Lexicon],
) -> None:
    scene, book, objects = home
    assert book.current("office")["objects"] is objects  # one lexicon for both packs
    scene.observe([sighting("book", "on", "kitchen_table")])
    assert book.current("household")["objects"] is objects
    scene.observe([sighting("teapot_1", "type", "Object"), sighting("teapot_1", "label", "teapot")])
    assert book.current("household")["objects"] is objects
    assert [mention.id for mention in objects.find("the teapot")] == ["teapot_1"]
    scene.load_text(
        "@prefix cog: <https://cogtree.dev/ontology#> .\n"
        "@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .\n"
        '<https://cogtree.dev/scene#kettle_1> a cog:Object ; rdfs:label "kettle" .\n'
    )
    rebuilt = book.current("household")["objects"]
    assert [mention.id for mention in rebuilt.find("the kettle")] == ["kettle_1"]
    assert book.current("office")["objects"] is rebuilt


def test_places_is_read_through_furniture_and_rooms() -> None:
    assert basic_families("places") == ["furniture", "rooms"]
    assert basic_families("objects") == ["objects"]


def test_the_scene_lexicons_read_through_families_match_ones_built_whole(
    registry: DomainRegistry,
) -> None:
    with SceneGraph.from_turtle_file("knowledge/scene/scenes/home.ttl") as scene:
        book = LexiconBook(registry, scene)
        pack = registry.get("household")
        whole = build_lexicons(pack, scene)
        labels = sorted(
            {form for lexicon in whole.values() for i in lexicon.ids for form in lexicon.forms(i)}
        )
        for name, spec in pack.manifest.lexicons.items():
            if spec.source() != "scene":
                continue
            built, read = whole[name], book.current("household")[name]
            assert read.ids == built.ids
            assert [read.forms(i) for i in read.ids] == [built.forms(i) for i in built.ids]
            for first in labels:
                assert read.claimants(first) == built.claimants(first)
                said = f"bring the {first} to the {labels[len(first) % len(labels)]}'s"
                assert read.find(said) == built.find(said)
        with pytest.raises(TypeError):
            book.current("household")["places"].drop("kitchen")


def test_a_family_reads_its_nodes_from_the_index_and_holds_no_old_node(
    home: tuple[SceneGraph, LexiconBook, Lexicon],
) -> None:
    scene, book, objects = home
    count, forms = len(objects), objects.forms("book")
    scene.observe([sighting("book", "on", "kitchen_table")])
    family = book._families["objects"]
    assert family._nodes["book"] is scene.index.node("book")  # the moved node, not the old
    assert (len(objects), objects.forms("book")) == (count, forms)
    scene.observe([sighting("book", "label", "novel")])
    assert [mention.id for mention in objects.find("the novel")] == ["book"]
    assert "novel" in objects.texts("book") and len(objects) == count
