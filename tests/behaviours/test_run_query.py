"""RunQuery: read-only queries on the pack's graph or the scene graph, off the tick."""

from __future__ import annotations

import re
import threading

import pytest

from cogtree.behaviours.actions.grounding.run_query import RunQuery
from cogtree.knowledge.packs.domain_registry import DomainRegistry
from cogtree.knowledge.scene.scene_graph import SceneGraph
from cogtree.knowledge.understanding.turn_state import EvidenceBundle, EvidenceItem, GeneratedQuery
from cogtree.trees.testing import TreeHarness

MENU_TTL = """
@prefix m: <https://example.org/menu#> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
m:soup a m:Dish ; rdfs:label "soup" ; m:kcal 120 .
m:stew a m:Dish ; rdfs:label "stew" ; m:kcal 450 .
"""

PACK_YAML = """
name: menu
title: Menu
description: dishes on the menu
knowledge: [menu.ttl]
prefixes: {m: 'https://example.org/menu#'}
tasks:
  - {name: Dishes, schema: Dishes, grounding: knowledge_query, description: list dishes,
     examples: [what is on the menu], query: dishes}
"""


@pytest.fixture(scope="module")
def menu(tmp_path_factory: pytest.TempPathFactory) -> DomainRegistry:
    pack = tmp_path_factory.mktemp("packs") / "menu"
    (pack / "queries").mkdir(parents=True)
    (pack / "menu.ttl").write_text(MENU_TTL)
    (pack / "queries" / "dishes.rq").write_text("SELECT ?dish WHERE { ?dish a ?type }")
    (pack / "tasks.py").write_text(
        "from pydantic import BaseModel\nclass Dishes(BaseModel): pass\n"
    )
    (pack / "pack.yaml").write_text(PACK_YAML)
    return DomainRegistry.discover([pack], shipped=False)


@pytest.fixture(scope="module")
def shipped() -> DomainRegistry:
    return DomainRegistry.discover()


def run(
    blackboard,
    make_llm,
    workers,
    shipped_domains,
    query: GeneratedQuery | None,
    domain: str,
    scene=None,
):
    blackboard.set("/turn/domain", domain)
    if query is not None:
        blackboard.set("/turn/query", query)
    node = RunQuery()
    handles = {
        "domains": shipped_domains,
        "workers": workers,
        **({"scene_graph": scene} if scene else {}),
    }
    harness = TreeHarness(node, llm=make_llm().client, handles=handles)
    harness.tick_until(lambda h: node.status.value != "RUNNING", max_ticks=2000, period_s=0.005)
    node.shutdown()
    letters = harness.trace.letters("RunQuery")
    assert re.fullmatch(r"R*[SF]", letters), letters
    return letters[-1], node


def model_query(text: str, target: str = "domain_kg") -> GeneratedQuery:
    return GeneratedQuery(text=text, source="model", target=target)


def test_where_is_runs_on_the_scene_graph(blackboard, make_llm, shipped, scene, workers) -> None:
    text = shipped.get("household").query("where_is").bind(object=SceneGraph.iri("mug_red"))
    query = GeneratedQuery(text=text, source="template", template="where_is", target="scene_graph")
    status, node = run(blackboard, make_llm, workers, shipped, query, "household", scene)
    assert status == "S" and "1 row(s)" in node.feedback_message
    (item,) = blackboard.get("/turn/evidence").items
    assert (item.source, item.query) == ("where_is", text)
    assert item.rows[0]["where"] == "on the kitchen counter in the kitchen"
    assert item.rows[0]["label"] == "red mug"


def test_a_model_query_on_the_pack_graph_appends_to_the_evidence(
    blackboard, make_llm, workers, menu
) -> None:
    earlier = EvidenceItem(source="plan", text="Done.")
    blackboard.set("/turn/evidence", EvidenceBundle(items=[earlier]))
    query = model_query("SELECT ?dish ?kcal WHERE { ?dish m:kcal ?kcal } ORDER BY ?kcal")
    status, _ = run(blackboard, make_llm, workers, menu, query, "menu")
    assert status == "S"
    first, item = blackboard.get("/turn/evidence").items
    assert first == earlier and item.source == "model-query"
    assert item.rows == [{"dish": "m:soup", "kcal": "120"}, {"dish": "m:stew", "kcal": "450"}]


def test_nothing_found_is_evidence_too(blackboard, make_llm, workers, menu) -> None:
    query = model_query('SELECT ?dish WHERE { ?dish rdfs:label "cake" }')
    status, node = run(blackboard, make_llm, workers, menu, query, "menu")
    assert status == "S" and "0 row(s)" in node.feedback_message
    assert blackboard.get("/turn/evidence").items[0].rows == []


def test_an_ask_answer_is_one_row(blackboard, make_llm, workers, menu) -> None:
    status, _ = run(
        blackboard, make_llm, workers, menu, model_query("ASK { m:soup a m:Dish }"), "menu"
    )
    assert status == "S"
    assert blackboard.get("/turn/evidence").items[0].rows == [{"answer": "yes"}]


@pytest.mark.parametrize(
    ("text", "target", "reason"),
    [
        ("DELETE WHERE { ?s ?p ?o }", "domain_kg", "SPARQL update"),
        ("SELECT * WHERE { ?s <https://evil.example/p> ?o }", "domain_kg", "allowed namespaces"),
        ("DELETE WHERE { ?s ?p ?o }", "scene_graph", "SPARQL update"),
    ],
)
def test_a_refused_query_fails_with_the_reason(
    blackboard, make_llm, menu, scene, workers, text, target, reason
) -> None:
    status, node = run(
        blackboard, make_llm, workers, menu, model_query(text, target), "menu", scene
    )
    assert status == "F" and reason in node.feedback_message
    assert blackboard.get("/turn/evidence") is None


@pytest.mark.parametrize(
    ("query", "domain", "reason"),
    [
        (None, "menu", "no query on /turn/query"),
        (model_query("ASK {}", "scene_graph"), "menu", "no `scene_graph` handle"),
        (model_query("ASK {}"), "OutOfScope", "not loaded"),
    ],
)
def test_nothing_to_run_fails_at_once(
    blackboard, make_llm, workers, menu, query, domain, reason
) -> None:
    status, node = run(blackboard, make_llm, workers, menu, query, domain)
    assert status == "F" and reason in node.feedback_message


def test_the_tick_never_waits_for_the_query(blackboard, make_llm, workers, menu) -> None:
    blackboard.set("/turn/domain", "menu")
    blackboard.set("/turn/query", model_query("ASK { m:soup a m:Dish }"))
    node = RunQuery()
    harness = TreeHarness(
        node, llm=make_llm().client, handles={"domains": menu, "workers": workers}
    )
    release = threading.Event()
    run_on_pack = node._run_on_pack

    def held(pack, text):
        release.wait(10)
        return run_on_pack(pack, text)

    node._run_on_pack = held  # type: ignore[method-assign]
    harness.tick(3)
    assert harness.trace.letters("RunQuery") == "RRR"
    release.set()
    harness.tick_until(lambda h: node.status.value != "RUNNING", max_ticks=2000, period_s=0.005)
    assert harness.trace.letters("RunQuery").endswith("S")
    node.shutdown()


def test_interrupted_it_drops_the_result(blackboard, make_llm, workers, menu) -> None:
    blackboard.set("/turn/domain", "menu")
    blackboard.set("/turn/query", model_query("ASK { m:soup a m:Dish }"))
    node = RunQuery()
    node.setup(domains=menu, workers=workers)
    release = threading.Event()
    node._run_on_pack = lambda pack, text: release.wait(10)  # type: ignore[method-assign]
    node.tick_once()
    assert node.status.value == "RUNNING"
    node.stop(node.status.INVALID)
    release.set()
    assert "interrupted" in node.feedback_message
    assert blackboard.get("/turn/evidence") is None
    node.shutdown()
