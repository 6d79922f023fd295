"""GenerateQuery: template binding (fast path), model-written SPARQL and the runner's checks."""

from __future__ import annotations

import threading

import pytest
from rdflib import Literal, URIRef

from cogtree.behaviours.actions.grounding.query_generation import GenerateQuery, vocabulary_summary
from cogtree.knowledge.memory.model import Fact, WorkingContext
from cogtree.knowledge.packs.domain_registry import DomainRegistry
from cogtree.knowledge.scene.readonly_query import QueryVetter
from cogtree.knowledge.understanding.turn_state import IntentFrame, SlotResolution
from cogtree.trees.testing import TreeHarness

M = "https://example.org/menu#"

MENU_TTL = f"""
@prefix m: <{M}> .
@prefix owl: <http://www.w3.org/2002/07/owl#> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
m:Dish a owl:Class ; rdfs:label "dish" .
m:contains a owl:ObjectProperty ; rdfs:label "contains" .
m:kcal a owl:DatatypeProperty .
m:soup a m:Dish ; rdfs:label "soup" .
"""

SUGGEST_RQ = """PREFIX m: <https://example.org/menu#>
SELECT ?dish WHERE {
  VALUES ?dish { UNDEF }
  VALUES ?extras { UNDEF }
  VALUES ?note { UNDEF }
  VALUES ?size { UNDEF }
  VALUES ?avoid { UNDEF }
  VALUES ?favour { UNDEF }
  VALUES ?speaker { UNDEF }
  ?dish a m:Dish .
}
"""

TASKS_PY = """
from pydantic import BaseModel

class Suggest(BaseModel):
    dish: str | None = None
    extras: list[str] = []
    note: str | None = None
    size: str | None = None

class Odd(BaseModel):
    dish: str | None = None
"""

PACK_YAML = """
name: menu
title: Menu
description: dishes on the menu
knowledge: [menu.ttl]
prefixes: {m: 'https://example.org/menu#', x: 'https://example.org/extra#'}
tasks:
  - name: Suggest
    schema: Suggest
    grounding: knowledge_query
    description: suggest a dish
    examples: [suggest a soup]
    slots:
      dish: {resolve: kg}
      extras: {resolve: kg, many: true}
      note: {resolve: text}
      size: {resolve: value}
    query: suggest
  - name: Odd
    schema: Odd
    grounding: knowledge_query
    description: a template with a parameter nothing fills
    examples: [odd one]
    slots:
      dish: {resolve: kg}
    query: odd
"""

GOOD_SPARQL = "SELECT ?dish WHERE { ?dish a m:Dish } LIMIT 50"
SCENE_SPARQL = "SELECT ?o WHERE { ?o a cog:Object } LIMIT 50"


def answer(sparql: str) -> dict:
    return {"answer": {"sparql": sparql, "rationale": "fetches it"}}


@pytest.fixture(scope="module")
def menu(tmp_path_factory: pytest.TempPathFactory) -> DomainRegistry:
    pack = tmp_path_factory.mktemp("packs") / "menu"
    (pack / "queries").mkdir(parents=True)
    (pack / "menu.ttl").write_text(MENU_TTL)
    (pack / "queries" / "suggest.rq").write_text(SUGGEST_RQ)
    (pack / "queries" / "odd.rq").write_text(
        "SELECT ?dish WHERE { VALUES ?dish { UNDEF } VALUES ?colour { UNDEF } ?dish ?p ?o }"
    )
    (pack / "tasks.py").write_text(TASKS_PY)
    (pack / "pack.yaml").write_text(PACK_YAML)
    return DomainRegistry.discover([pack], shipped=False)


@pytest.fixture(scope="module")
def shipped() -> DomainRegistry:
    return DomainRegistry.discover()


def generate(blackboard, llm, shipped_domains, presets: dict, scene=None, ticks: int = 1):
    for key, value in presets.items():
        blackboard.set(key, value)
    node = GenerateQuery()
    handles = {"domains": shipped_domains, **({"scene_graph": scene} if scene else {})}
    harness = TreeHarness(node, llm=llm.client, handles=handles)
    harness.tick(ticks)
    node.shutdown()
    return harness.trace.letters("GenerateQuery"), node


def where_is(shipped_domains: DomainRegistry, **task) -> dict:
    presets = {
        "/turn/domain": "household",
        "/turn/intent": IntentFrame(domain="household", task="WhereIs", slots={"object": "mug"}),
    }
    if task:
        presets["/turn/task"] = shipped_domains.get("household").schema_for("WhereIs")(**task)
    return presets


def suggest(menu: DomainRegistry, **task) -> dict:
    return {
        "/turn/domain": "menu",
        "/turn/intent": IntentFrame(domain="menu", task="Suggest"),
        "/turn/task": menu.get("menu").schema_for("Suggest")(**task),
    }


def fact(slot: str, kind: str) -> Fact:
    return Fact(text=slot, kind=kind, slot=slot, source="stated", turn=1, timestamp=0, domain="x")


def test_where_is_binds_its_template_without_the_model(
    blackboard, make_llm, shipped, scene
) -> None:
    llm = make_llm()
    status, node = generate(blackboard, llm, shipped, where_is(shipped, object=["mug_red"]), scene)
    assert status == "S" and llm.calls == []
    query = blackboard.get("/turn/query")
    assert (query.source, query.template, query.target) == ("template", "where_is", "scene_graph")
    assert "VALUES ?object { <https://cogtree.dev/scene#mug_red> }" in query.text
    why = blackboard.get("/rationale/generatequery")
    assert why.source == "fast_path" and "template where_is" in node.feedback_message


def test_without_a_task_instance_the_resolution_is_bound(
    blackboard, make_llm, shipped, scene
) -> None:
    presets = where_is(shipped)
    presets["/turn/resolved"] = {
        "object": SlotResolution(slot="object", said="mug", kind="scene", ids=["mug_white"])
    }
    status, _ = generate(blackboard, make_llm(), shipped, presets, scene)
    assert status == "S"
    assert "scene#mug_white" in blackboard.get("/turn/query").text


def test_kg_value_text_list_memory_and_speaker_parameters(blackboard, make_llm, menu) -> None:
    presets = suggest(menu, dish="soup", extras=["bread", "m:salt"], note='big "bowl"', size="L")
    presets["/turn/speaker"] = "anna"
    presets["/memory/working"] = WorkingContext(
        text="facts",
        budget_chars=100,
        facts=(fact("food.peanut", "hard_constraint"), fact("food.basil", "preference")),
    )
    status, _ = generate(blackboard, make_llm(), menu, presets)
    assert status == "S"
    text = blackboard.get("/turn/query").text
    assert f"VALUES ?dish {{ <{M}soup> }}" in text
    assert f"VALUES ?extras {{ <{M}bread> <{M}salt> }}" in text
    note = Literal('big "bowl"').n3()
    assert f"VALUES ?note {{ {note} }}" in text
    assert 'VALUES ?size { "L" }' in text
    assert f"VALUES ?avoid {{ <{M}peanut> }}" in text
    assert f"VALUES ?favour {{ <{M}basil> }}" in text
    assert f"VALUES ?speaker {{ {URIRef(M + 'anna').n3()} }}" in text


def test_unfilled_parameters_stay_unbound(blackboard, make_llm, menu) -> None:
    status, _ = generate(blackboard, make_llm(), menu, suggest(menu, dish="soup"))
    text = blackboard.get("/turn/query").text
    assert status == "S"
    for parameter in ("extras", "note", "size", "avoid", "favour", "speaker"):
        assert f"VALUES ?{parameter} {{ UNDEF }}" in text


def test_a_template_that_cannot_be_bound_asks_the_model(blackboard, make_llm, menu) -> None:
    llm = make_llm({"by_module": {"query_generation": [answer(GOOD_SPARQL)]}})
    presets = {
        "/turn/domain": "menu",
        "/turn/intent": IntentFrame(domain="menu", task="Odd"),
        "/turn/task": menu.get("menu").schema_for("Odd")(dish="soup"),
    }
    status, _ = generate(blackboard, llm, menu, presets, ticks=2)
    assert status == "RS"
    query = blackboard.get("/turn/query")
    assert (query.source, query.template, query.text) == ("model", None, GOOD_SPARQL)
    prompt = llm.backend.requests[0].prompt_text()
    assert "m: <https://example.org/menu#>" in prompt
    assert "m:Dish (dish)" in prompt and "m:contains (contains)" in prompt
    assert "takes ?colour" in prompt  # why the template was not used
    assert '"dish": {"value": "soup", "kind": "kg"}' in prompt


def test_an_ambiguous_referent_is_not_bound(blackboard, make_llm, shipped, scene) -> None:
    llm = make_llm({"by_module": {"query_generation": [answer(SCENE_SPARQL)]}})
    presets = where_is(shipped)
    presets["/turn/resolved"] = {
        "object": SlotResolution(
            slot="object", said="mug", kind="scene", ids=["mug_red", "mug_white"]
        )
    }
    status, _ = generate(blackboard, llm, shipped, presets, scene, ticks=2)
    assert status == "RS"
    assert blackboard.get("/turn/query").target == "scene_graph"
    assert "cog:Object" in llm.backend.requests[0].prompt_text()  # the scene's vocabulary


@pytest.mark.parametrize(
    ("bad", "reason"),
    [
        ("DELETE WHERE { ?s ?p ?o }", "SPARQL update"),
        ("SELECT * WHERE { ?s <https://evil.example/p> ?o }", "outside the allowed namespaces"),
        ("SELECT ?x WHERE { ?x a m:Dish ", "syntax error"),
        ("CONSTRUCT { ?s ?p ?o } WHERE { ?s ?p ?o }", "CONSTRUCT"),
    ],
)
def test_a_refused_query_is_sent_back_once(blackboard, make_llm, menu, bad, reason) -> None:
    llm = make_llm({"by_module": {"query_generation": [answer(bad), answer(GOOD_SPARQL)]}})
    presets = suggest(menu, dish="not an id!")
    status, node = generate(blackboard, llm, menu, presets, ticks=3)
    assert status == "RRS"
    assert blackboard.get("/turn/query").text == GOOD_SPARQL
    feedback = llm.backend.requests[1].messages[-1].content
    assert "read-only runner refused the query" in feedback and reason in feedback


def test_refused_twice_means_no_query(blackboard, make_llm, menu) -> None:
    bad = answer("DELETE WHERE { ?s ?p ?o }")
    llm = make_llm({"by_module": {"query_generation": [bad, bad, answer(GOOD_SPARQL)]}})
    status, node = generate(blackboard, llm, menu, suggest(menu, dish="not an id!"), ticks=3)
    assert status == "RRF"
    assert not blackboard.get("/turn/query") and len(llm.calls) == 2
    why = blackboard.get("/rationale/generatequery")
    assert why.vetoed and "SPARQL update" in why.rationale and "no query" in node.feedback_message


def test_no_model_means_no_query(blackboard, make_llm, menu) -> None:
    status, node = generate(blackboard, make_llm(), menu, suggest(menu, dish="not an id!"), ticks=2)
    assert status == "RF"
    assert blackboard.get("/rationale/generatequery").source == "safe_default"


@pytest.mark.parametrize(
    ("presets", "reason"),
    [
        ({}, "no task this turn"),
        (
            {
                "/turn/domain": "household",
                "/turn/intent": IntentFrame(domain="household", task="Fetch"),
            },
            "physical, not a query",
        ),
        (
            {
                "/turn/domain": "household",
                "/turn/intent": IntentFrame(domain="household", task="WhereIs"),
            },
            "no `scene_graph` handle",
        ),
    ],
)
def test_no_query_without_a_knowledge_task(blackboard, make_llm, shipped, presets, reason) -> None:
    llm = make_llm()
    status, node = generate(blackboard, llm, shipped, presets)
    assert status == "F" and llm.calls == []
    assert reason in blackboard.get("/rationale/generatequery").rationale


def test_the_vocabulary_summary_is_compact_and_labelled(menu) -> None:
    pack = menu.get("menu")
    summary = vocabulary_summary(pack.knowledge_graph(), pack.manifest.prefixes)
    assert summary.splitlines() == [
        "classes: m:Dish (dish)",
        "properties: m:contains (contains), m:kcal",
    ]


def test_substitute_dish_binds_slots_memory_and_speaker(blackboard, make_llm) -> None:
    advisor = DomainRegistry.discover(only=["advisor"])
    presets = {
        "/turn/domain": "advisor",
        "/turn/intent": IntentFrame(domain="advisor", task="SubstituteDish"),
        "/turn/task": advisor.get("advisor").schema_for("SubstituteDish")(
            dish="tiramisu", excluded=["egg"], preferred=["strawberry"], person="Dev"
        ),
        "/turn/speaker": "anna",
        "/memory/working": WorkingContext(
            text="facts",
            budget_chars=100,
            facts=(fact("food.peanut", "hard_constraint"), fact("diet.vegan", "hard_constraint")),
        ),
    }
    status, _ = generate(blackboard, make_llm(), advisor, presets)
    assert status == "S"
    text = blackboard.get("/turn/query").text
    adv = "https://cogtree.dev/advisor#"
    for parameter, value in [
        ("dish", f"<{adv}tiramisu>"),
        ("excluded", f"<{adv}egg>"),
        ("preferred", f"<{adv}strawberry>"),
        ("avoid", f"<{adv}peanut>"),
        ("diet", f"<{adv}vegan>"),
        ("speaker", f"<{adv}anna>"),
        ("person", '"Dev"'),
    ]:
        assert f"VALUES ?{parameter} {{ {value} }}" in text
    assert "VALUES ?only { UNDEF }" in text and "VALUES ?favour { UNDEF }" in text


def test_a_model_s_query_is_checked_on_the_model_s_worker_never_on_the_tick(
    blackboard, make_llm, menu, monkeypatch: pytest.MonkeyPatch
) -> None:
    checked_on: list[threading.Thread] = []
    check = QueryVetter.refusal

    def recording(vetter: QueryVetter, text: str) -> str | None:
        checked_on.append(threading.current_thread())
        return check(vetter, text)

    monkeypatch.setattr(QueryVetter, "refusal", recording)
    bad = answer("SELECT * WHERE { ?s <https://evil.example/p> ?o }")
    llm = make_llm({"by_module": {"query_generation": [bad, answer(GOOD_SPARQL)]}})

    status, _ = generate(blackboard, llm, menu, suggest(menu, dish="not an id!"), ticks=3)

    assert status == "RRS"
    assert len(checked_on) == 2  # both answers, each once
    assert threading.main_thread() not in checked_on  # the tree ticks on the main thread
