"""The household pack against real beliefs: lexicons, slots of its examples and scenario
requests, and the WhereIs template on the scene graph."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime, timezone

import pytest

from cogtree.knowledge.packs.domain_pack import SPEAKER_ARGUMENT, DomainPack
from cogtree.knowledge.packs.domain_registry import DomainRegistry
from cogtree.knowledge.packs.task_schema import BELIEVED, scene_holds, unbelieved
from cogtree.knowledge.scene.readonly_query import ReadOnlyQueryRunner
from cogtree.knowledge.scene.scene_graph import SCENES_DIR, SceneGraph
from cogtree.knowledge.scene.scene_models import Observation
from cogtree.knowledge.understanding.lexicon import Lexicon, build_lexicons
from cogtree.knowledge.understanding.slot_filling import fill_slots
from cogtree.sim.executor import SimExecutor
from cogtree.sim.scenario import load_scenario
from cogtree.skills.planning.tasks import TASK_SPECS


@pytest.fixture(scope="module")
def pack() -> DomainPack:
    return DomainRegistry.discover(only=["household"]).get("household")


@pytest.fixture(scope="module")
def robee() -> Iterator[SceneGraph]:
    executor = SimExecutor.from_scenario(load_scenario("robee_bottle"))
    assert executor.belief is not None
    yield executor.belief
    executor.close()


@pytest.fixture(scope="module")
def home() -> Iterator[SceneGraph]:
    with SceneGraph.from_turtle_file(SCENES_DIR / "home.ttl") as scene:
        yield scene


def test_tasks_slots_and_plans_are_the_contract(pack: DomainPack) -> None:
    plans = {
        task.name: (
            task.grounding,
            task.plan.task if task.plan else None,
            task.plan and task.plan.args,
        )
        for task in pack.tasks
    }
    assert plans == {
        "Fetch": ("physical", "bring", {"object": "object", "to": SPEAKER_ARGUMENT}),
        "Bring": ("physical", "bring", {"object": "object", "to": "destination"}),
        "PutAway": ("physical", "put_away", {"object": "object", "to": "destination"}),
        "Tidy": ("physical", "tidy", {"room": "room"}),
        "Assist": ("physical", None, None),
        "WhereIs": ("knowledge_query", None, None),
        "HomeOf": ("knowledge_query", None, None),
        "HowMany": ("knowledge_query", None, None),
        "HaveAny": ("knowledge_query", None, None),
        "WhatThings": ("knowledge_query", None, None),
        "StateOf": ("knowledge_query", None, None),
        "Open": ("physical", "open", {"container": "container"}),
        "Close": ("physical", "close", {"container": "container"}),
        "PlaceRelative": (
            "physical",
            "place_relative",
            {"object": "object", "relation": "relation", "landmark": "landmark"},
        ),
        "Dispose": ("physical", "dispose", {"object": "object"}),
        "SwitchOn": ("physical", "switch_on", {"appliance": "appliance"}),
        "Heat": ("physical", "heat", {"object": "object", "appliance": "appliance"}),
        "SwitchOff": ("physical", "switch_off", {"appliance": "appliance"}),
        "Fill": ("physical", "fill", {"container": "container"}),
        "Pour": ("physical", "pour", {"source": "source", "target": "target"}),
        "Wipe": ("physical", "wipe", {"surface": "surface", "tool": "tool"}),
        "Note": ("memory_write", None, None),
        "Introduce": ("memory_write", None, None),
        "MemoryQuery": ("memory_query", None, None),
    }
    # slots kept as the user said (a kind is matched by the scene query, categories too)
    as_said = {"Assist", "Note", "Introduce", "MemoryQuery", "HowMany", "HaveAny", "WhatThings"}
    as_said.add("StateOf")
    for task in pack.tasks:
        schema = pack.schema_for(task.name)
        required = [name for name, info in schema.model_fields.items() if info.is_required()]
        optional = ["tool"] if task.name == "Wipe" else []  # the cloth, when the user names one
        optional += list(getattr(schema, BELIEVED, {}))  # where it goes: said, or the belief's
        if task.perception:  # a question about the scene: its place, when one is said
            optional = [name for name in schema.model_fields if name not in required]
        assert required + optional == list(task.slots), task.name
        resolve = {name: spec.resolve for name, spec in task.slots.items()}
        expected = "text" if task.name in as_said else "scene"
        relation = {"relation": "kg"} if task.name == "PlaceRelative" else {}
        assert resolve == {name: expected for name in task.slots} | relation, task.name
        assert all(info.description for info in schema.model_fields.values())
        assert len(task.examples) >= 6 and task.reply
        if task.plan:
            assert set(task.plan.args) == set(TASK_SPECS[task.plan.task].parameters)  # type: ignore[index]
    assert pack.task("WhereIs").query == "where_is"
    assert {pack.task(name).perception for name in ("HowMany", "HaveAny", "WhatThings")} == {
        "things_of_a_kind"
    }
    assert not pack.has_own_knowledge


def fills(
    pack: DomainPack, lexicons: dict[str, Lexicon], task: str
) -> dict[str, dict[str, object]]:
    spec = pack.task(task)
    return {u: fill_slots(spec, u, lexicons).slots for u in spec.examples}


def test_example_slots_on_the_home_scene(pack: DomainPack, home: SceneGraph) -> None:
    lexicons = build_lexicons(pack, home)
    assert fills(pack, lexicons, "Fetch")["pass me the book from the coffee table"] == {
        "object": "the book from the coffee table"
    }
    assert fills(pack, lexicons, "Fetch")["can I have my mug"] == {"object": "my mug"}
    assert fills(pack, lexicons, "Fetch")["grab me a banana from the kitchen"] == {}  # no banana
    bring = fills(pack, lexicons, "Bring")
    assert bring["take the mug to the kitchen"] == {
        "object": "the mug",
        "destination": "the kitchen",
    }
    assert bring["give this book to Anna"] == {"object": "this book", "destination": "Anna"}
    assert fills(pack, lexicons, "PutAway")["can you put the book back"] == {"object": "the book"}
    tidy = fills(pack, lexicons, "Tidy")
    assert all(len(slots) == 1 for slots in tidy.values())
    assert tidy["the living room is a mess, can you sort it out"] == {"room": "the living room"}
    assert fills(pack, lexicons, "WhereIs")["I've misplaced the bottle, where could it be"] == {
        "object": "the bottle"
    }


@pytest.mark.parametrize(
    ("task", "said", "place"),
    [
        ("WhatThings", "what is there on the shelf for the picnic?", "on the shelf"),
        ("HowMany", "how many plates are in the cupboard for tonight", "in the cupboard"),
        ("HaveAny", "is there any cheese in the fridge?", "in the fridge"),
    ],
)
def test_a_scene_question_keeps_its_place_before_what_it_is_for(
    pack: DomainPack, task: str, said: str, place: str
) -> None:
    assert fill_slots(pack.task(task), said, {}).slots.get("place") == place


def test_the_robee_request(pack: DomainPack, robee: SceneGraph) -> None:
    lexicons = build_lexicons(pack, robee)
    request = load_scenario("robee_bottle").request.text
    assert fill_slots(pack.task("Bring"), request, lexicons).slots == {
        "object": "the bottle",
        "destination": "the table in the bedroom",
    }
    candidates = robee.resolve_referent("the table in the bedroom")
    assert [c.id for c in candidates] == ["table_2"]


@pytest.mark.parametrize(
    ("scenario", "task", "expected"),
    [
        ("which_bottle", "Fetch", {"object": "the bottle"}),
        ("whose_mug", "Fetch", {"object": "my mug"}),
        ("hand_over_glasses", "Fetch", {"object": "my reading glasses"}),
        (
            "mug_to_sink",
            "Bring",
            {"object": "the mug from the kitchen table", "destination": "the sink"},
        ),
        ("which_table", "Bring", {"object": "the flowers", "destination": "the table"}),
        ("place_book_on_shelf", "Bring", {"object": "that book", "destination": "the shelf"}),
        ("tidy_for_guests", "Tidy", {"room": "the living room"}),
        ("pick_up_remote", "Fetch", {"object": "the remote"}),
    ],
)
def test_scenario_requests(
    pack: DomainPack, scenario: str, task: str, expected: dict[str, object]
) -> None:
    loaded = load_scenario(scenario)
    executor = SimExecutor.from_scenario(loaded)
    assert executor.belief is not None
    try:
        lexicons = build_lexicons(pack, executor.belief)
        assert fill_slots(pack.task(task), loaded.request.text, lexicons).slots == expected
    finally:
        executor.close()


def test_where_is_names_where_the_object_is_believed_to_be(
    pack: DomainPack, robee: SceneGraph
) -> None:
    query = pack.query("where_is")
    assert set(query.parameters) == {"object"}
    with ReadOnlyQueryRunner(robee.graph, pack.manifest.prefixes) as runner:
        rows = runner.run(query.bind(object=robee.iri("bottle")), template=True).rows
        every = runner.run(query.bind(object=None), template=True).rows
    assert len(rows) == 1
    row = rows[0]
    assert (row["label"], row["relation"], row["support_label"], row["room_label"]) == (
        "bottle",
        "on",
        "kitchen table",
        "kitchen",
    )
    assert row["seen"] and row["source"] == "prior"
    reply = pack.task("WhereIs").reply
    assert reply is not None
    assert reply.format(**row) == "The bottle is on the kitchen table in the kitchen."
    objects = {"scene:bottle", "scene:mug", "scene:milk"}
    furniture = {"scene:table_1", "scene:table_2", "scene:kitchen_counter", "scene:fridge"}
    assert {r["object"] for r in every} == objects | furniture  # "where's the fridge?" too
    assert {r["where"] for r in every if r["object"] == "scene:milk"} == {
        "in the fridge in the kitchen"
    }
    assert {r["where"] for r in every if r["object"] == "scene:fridge"} == {"in the kitchen"}


def test_where_is_follows_the_belief(pack: DomainPack) -> None:
    executor = SimExecutor.from_scenario(load_scenario("robee_bottle"))
    assert executor.belief is not None
    belief = executor.belief
    try:
        seen = datetime(2025, 6, 2, 8, 5, tzinfo=timezone.utc)
        belief.observe(
            [
                Observation(
                    subject="anna", predicate="holds", object="mug", source="sim:robot1", time=seen
                )
            ]
        )
        belief.forget_placement("bottle")
        with ReadOnlyQueryRunner(belief.graph, pack.manifest.prefixes) as runner:
            query = pack.query("where_is")
            mug = runner.run(query.bind(object=belief.iri("mug")), template=True).rows
            bottle = runner.run(query.bind(object=belief.iri("bottle")), template=True).rows
    finally:
        executor.close()
    assert [(row["where"], row["source"]) for row in mug] == [
        ("held by anna in the kitchen", "sim:robot1")
    ]
    assert bottle == []


def test_where_a_thing_goes_is_asked_only_when_the_belief_has_no_home_for_it(
    pack: DomainPack, home: SceneGraph
) -> None:
    schema, holds = pack.schema_for("PutAway"), scene_holds(home)
    assert unbelieved(schema, {"object": "book"}, holds) == []  # its home: the bookshelf
    assert unbelieved(schema, {"object": "bottle_blue"}, holds) == ["destination"]
    assert unbelieved(schema, {"object": "bottle_blue", "destination": "sofa"}, holds) == []
    assert unbelieved(schema, {"object": ["book", "apple"]}, holds) == []  # not one thing
