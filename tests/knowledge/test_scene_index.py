"""The scene index follows every write to the belief, node by node."""

from __future__ import annotations

import random
from datetime import datetime, timezone

from rdflib import Graph

from cogtree.knowledge.node_tables import FIELDS
from cogtree.knowledge.scene.scene_graph import SCENES_DIR, SceneGraph
from cogtree.knowledge.scene.scene_index import Node, SceneIndex
from cogtree.knowledge.scene.scene_models import Observation
from cogtree.knowledge.scene.scene_questions import describe, things_of_a_kind
from tests.knowledge.scenes import SCENE_PREFIXES

NOW = datetime(2025, 6, 2, 8, 0, tzinfo=timezone.utc)


def seen(subject: str, predicate: str, value: str | bool) -> Observation:
    return Observation(
        subject=subject, predicate=predicate, object=value, source="camera", time=NOW
    )


def fields(node: Node | None) -> dict[str, object] | None:
    return None if node is None else {name: getattr(node, name) for name in FIELDS}


TABLES = ("by_name", "by_type", "by_value", "by_flag", "by_state", "by_attribute", "by_owner")
TABLES += ("by_class", "placed", "held", "by_word", "by_head")


def snapshot(index: SceneIndex) -> dict[str, object]:
    """Every node and every reverse map (each key's nodes, as any read sees them)."""
    found: dict[str, object] = {
        node_id: fields(index.node(node_id)) for node_id in sorted(index._tables.nodes)
    }
    for table in TABLES:
        keys = sorted(getattr(index._tables, table))
        found[table] = {key: sorted(set().union(*index.members(table, [key]))) for key in keys}
    found["valued"] = {name: sorted(keys) for name, keys in index._tables.valued.items() if keys}
    return found


def test_a_batch_updates_only_what_it_touches_and_names_move_the_names_version() -> None:
    home = SceneGraph.from_turtle_file(SCENES_DIR / "home.ttl")
    index = home.index
    version = index.names_version
    assert "book" in index.within("coffee_table")

    home.observe([seen("book", "on", "kitchen_table")])
    assert "book" not in index.within("coffee_table")
    assert "book" in index.within("kitchen") and "book" in index.within("kitchen_table")
    assert index.names_version == version  # a move renames nothing: the lexicons stay

    home.observe([seen("vase", "type", "Object"), seen("vase", "label", "tall vase")])
    assert index.named("tall vase") == {"vase"}
    assert index.renamed_since(version) == {"vase"}
    assert index.renamed_since(index.names_version) == set()


def test_incremental_updates_agree_with_a_rebuild_on_either_store() -> None:
    rng = random.Random(3)
    for graph in (None, Graph()):
        home = SceneGraph(graph)
        home.load_file(SCENES_DIR / "home.ttl")
        things = ["book", "apple", "mug_red", "bottle_blue", "tea"]
        supports = ["kitchen_table", "coffee_table", "fridge", "cupboard", "kitchen_counter"]
        for step in range(30):
            thing = rng.choice(things)
            batch = [seen(thing, rng.choice(["on", "in"]), rng.choice(supports))]
            if step % 7 == 0:
                batch.append(seen("user", "holds", thing))
            if step % 5 == 0:
                batch += [seen(f"new{step}", "type", "Object"), seen(f"new{step}", "label", "cup")]
            if step % 3 == 0:
                batch.append(seen(thing, "colour", rng.choice(["red", "green"])))
            if step % 4 == 0:  # a relabelled thing leaves its old words' tables
                batch.append(seen(thing, "label", rng.choice(["can of cola", "old blue mug 2"])))
            home.observe(batch)
            if step % 11 == 0:
                home.forget_placement(thing)
        incremental = snapshot(home.index)
        home.index.rebuild()
        assert snapshot(home.index) == incremental
        assert home.index.named("cup") >= {"new0", "new5"}
        assert {"cola", "mug"} & set(incremental["by_head"])  # type: ignore[arg-type]


def test_a_thing_is_described_from_the_index_as_a_person_would_pick_it() -> None:
    home = SceneGraph.from_turtle_file(SCENES_DIR / "home.ttl")
    index = home.index
    assert describe(index, "bottle_blue") == "the blue bottle in the fridge"
    assert describe(index, "anna") == "anna in the bedroom"
    assert describe(index, "no_such_thing") == "the no such thing"
    home.observe([seen("robot1", "holds", "book")])
    assert describe(index, "book") == "the book held by the robot1"


def test_a_scene_question_that_finds_nothing_says_so_once() -> None:
    index = SceneGraph.from_turtle_file(SCENES_DIR / "home.ttl").index
    assert things_of_a_kind(index, "")["list_answer"] == "I have not seen anything"
    nowhere = things_of_a_kind(index, "", "in the loft")
    assert nowhere["list_answer"] == "I have not seen anything in the loft"
    assert things_of_a_kind(index, "the walruses")["have_answer"] == (
        "No, I have not seen any walruses"
    )


EMPTIED = (
    SCENE_PREFIXES
    + """
:kitchen a cog:Room ; rdfs:label "kitchen" .
:fridge a cog:Container ; rdfs:label "fridge" ; cog:inRoom :kitchen .
:carton a cog:Object ; rdfs:label "carton of milk" ; cog:objectType cog:Carton ;
    cog:empty true ; cog:in :fridge .
:juice a cog:Object ; rdfs:label "carton of orange juice" ; cog:objectType cog:Carton ;
    cog:in :fridge .
"""
)


def test_a_vessel_found_by_what_it_held_that_is_empty_holds_none_of_it() -> None:
    """Checked to fail before: "is there any milk left?" got "Yes: the carton of milk"."""
    scene = SceneGraph.from_turtle_text(EMPTIED, source="emptied")
    try:
        milk = things_of_a_kind(scene.index, "milk")
        assert milk["have_answer"] == (
            "No, I have not seen any milk; the carton of milk in the fridge is empty"
        )
        assert things_of_a_kind(scene.index, "juice")["have_answer"].startswith("Yes: ")
        assert things_of_a_kind(scene.index, "cartons")["count"] == "2"  # a carton still
        assert things_of_a_kind(scene.index, "milk carton")["count"] == "1"  # the reviewer's
    finally:
        scene.close()
