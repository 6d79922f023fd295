"""Allergies and exclusions hold on every query path: GenerateQuery binds the advisor's
constraints with the turn's query, RunQuery drops the rows that name what the person must not
be offered (a model's query as much as a template's), and any speaker id binds in templates."""

from __future__ import annotations

import re

import pytest

from cogtree.behaviours.actions.dialogue.respond import Respond
from cogtree.behaviours.actions.grounding.query_generation import GenerateQuery
from cogtree.behaviours.actions.grounding.run_query import RunQuery, allowed_rows
from cogtree.knowledge.memory.model import Fact, WorkingContext
from cogtree.knowledge.packs.domain_registry import DomainRegistry
from cogtree.knowledge.packs.domains.advisor import AdvisorKG
from cogtree.knowledge.scene.readonly_query import QueryChecker, QueryRefused
from cogtree.knowledge.understanding.turn_state import GeneratedQuery, IntentFrame, SlotResolution
from cogtree.trees.testing import TreeHarness

ALL_DISHES = (
    "SELECT ?dish ?label WHERE { ?dish a adv:Dish ; rdfs:label ?label } ORDER BY ?label LIMIT 100"
)
CONCATENATED = (
    "SELECT (GROUP_CONCAT(?label; separator=', ') AS ?labels) "
    "WHERE { ?dish a adv:Dish ; rdfs:label ?label }"
)


@pytest.fixture(scope="module")
def advisor() -> DomainRegistry:
    return DomainRegistry.discover(only=["advisor"])


@pytest.fixture(scope="module")
def peanut_dishes(advisor: DomainRegistry) -> set[str]:
    kg = AdvisorKG(advisor.get("advisor").knowledge_graph())
    found = {
        dish.label
        for dish in kg.dishes()
        if any(trace.component.id == "Peanuts" for trace in kg.allergens_of(dish.id))
    }
    assert found, "the advisor graph has dishes with peanuts"
    return found


def allergic(*slots: str) -> WorkingContext:
    facts = tuple(
        Fact(
            text=f"allergic to {slot}",
            kind="hard_constraint",
            slot=slot,
            source="stated",
            turn=1,
            timestamp=0,
            domain="advisor",
        )
        for slot in slots
    )
    return WorkingContext(text="The user is allergic to peanuts.", budget_chars=200, facts=facts)


def substitute(advisor: DomainRegistry, **presets: object) -> dict[str, object]:
    """A SubstituteDish turn whose dish is ambiguous: the template cannot bind, a model writes."""
    return {
        "/turn/domain": "advisor",
        "/turn/intent": IntentFrame(domain="advisor", task="SubstituteDish"),
        "/turn/resolved": {
            "dish": SlotResolution(
                slot="dish", said="curry", kind="kg", ids=["chicken_tikka_masala", "chana_masala"]
            )
        },
        **presets,
    }


def generate(blackboard, llm, advisor: DomainRegistry, presets: dict[str, object]) -> str:
    for key, value in presets.items():
        blackboard.set(key, value)
    node = GenerateQuery()
    harness = TreeHarness(node, llm=llm.client, handles={"domains": advisor})
    harness.tick(2)
    node.shutdown()
    return harness.trace.letters("GenerateQuery")


def run(blackboard, make_llm, workers, advisor: DomainRegistry) -> list[dict[str, str | None]]:
    node = RunQuery()
    harness = TreeHarness(
        node, llm=make_llm().client, handles={"domains": advisor, "workers": workers}
    )
    harness.tick_until(lambda h: node.status.value != "RUNNING", max_ticks=4000, period_s=0.005)
    node.shutdown()
    assert harness.trace.letters("RunQuery")[-1] == "S", node.feedback_message
    return blackboard.get("/turn/evidence").items[-1].rows


def model(sparql: str) -> dict:
    return {"by_module": {"query_generation": [{"answer": {"sparql": sparql, "rationale": "all"}}]}}


def named(rows: list[dict[str, str | None]], labels: set[str]) -> set[str]:
    text = " | ".join(cell or "" for row in rows for cell in row.values()).lower()
    return {label for label in labels if label.lower() in text}


@pytest.mark.parametrize("sparql", [ALL_DISHES, CONCATENATED])
def test_a_model_query_never_offers_a_peanut_dish_to_a_peanut_allergy(
    blackboard, make_llm, workers, advisor, peanut_dishes, sparql
) -> None:
    presets = substitute(advisor, **{"/memory/working": allergic("food.peanuts")})
    assert generate(blackboard, make_llm(model(sparql)), advisor, presets) == "RS"
    query = blackboard.get("/turn/query")
    assert query.source == "model" and query.constraints is not None
    rows = run(blackboard, make_llm, workers, advisor)
    assert not named(rows, peanut_dishes)
    assert bool(rows) == (sparql == ALL_DISHES)  # one row naming them all is dropped whole


SHORTENED = (
    "SELECT ?name WHERE { ?dish a adv:Dish ; rdfs:label ?label . "
    'BIND(IF(CONTAINS(?label, " with "), STRBEFORE(?label, " with "), ?label) AS ?name) }'
)
"""Dish names a model shortened ("chicken satay"): words no forbidden row holds whole."""


def test_a_model_query_projecting_shortened_names_still_never_offers_a_peanut_dish(
    blackboard, make_llm, workers, advisor
) -> None:
    # the filter holds on the dish itself (its node in the graph), not on the words projected
    presets = substitute(advisor, **{"/memory/working": allergic("food.peanuts")})
    assert generate(blackboard, make_llm(model(SHORTENED)), advisor, presets) == "RS"
    rows = run(blackboard, make_llm, workers, advisor)
    names = {(row["name"] or "").lower() for row in rows}
    assert "spaghetti carbonara" in names  # the others stay
    assert not {name for name in names if "satay" in name or "pad thai" in name}


def test_the_graph_s_allergies_of_the_speaker_filter_a_model_query(
    blackboard, make_llm, workers, advisor, peanut_dishes
) -> None:
    # Alice is allergic to peanuts in the advisor graph; nothing is in memory.
    presets = substitute(advisor, **{"/turn/speaker": "alice"})
    assert generate(blackboard, make_llm(model(ALL_DISHES)), advisor, presets) == "RS"
    rows = run(blackboard, make_llm, workers, advisor)
    assert rows and not named(rows, peanut_dishes)
    assert any("carbonara" in (row["label"] or "").lower() for row in rows)  # others stay


def test_without_constraints_the_same_query_keeps_every_dish(
    blackboard, make_llm, workers, advisor, peanut_dishes
) -> None:
    assert generate(blackboard, make_llm(model(ALL_DISHES)), advisor, substitute(advisor)) == "RS"
    rows = run(blackboard, make_llm, workers, advisor)
    assert named(rows, peanut_dishes) == peanut_dishes


def test_the_dish_asked_about_is_not_filtered(
    blackboard, make_llm, workers, advisor, peanut_dishes
) -> None:
    # "What is in the chicken satay?" from someone allergic to peanuts must be answered.
    presets = {
        "/turn/domain": "advisor",
        "/turn/intent": IntentFrame(domain="advisor", task="DishInfo"),
        "/turn/task": advisor.get("advisor").schema_for("DishInfo")(
            dish="chicken_satay", aspect="allergens"
        ),
        "/memory/working": allergic("food.peanuts"),
    }
    assert generate(blackboard, make_llm(), advisor, presets).startswith("S")
    rows = run(blackboard, make_llm, workers, advisor)
    assert rows and rows[0]["dish"] == "adv:chicken_satay"
    assert "peanuts" in (rows[0]["value"] or "")  # with the path to them (Table 1's DishInfo)


@pytest.mark.parametrize(
    "speaker",
    [
        "zoë",
        "o'brien",
        "Ådne Ødegård",
        'x" } ?s ?p ?o . FILTER(true) { "',
        "back\\slash\\",
        "new\nline # comment",
        "<https://evil.example/p>",
    ],
)
def test_any_speaker_id_binds_the_template_and_its_allergies_hold(
    blackboard, make_llm, workers, advisor, peanut_dishes, speaker
) -> None:
    presets = {
        "/turn/domain": "advisor",
        "/turn/intent": IntentFrame(domain="advisor", task="SubstituteDish"),
        "/turn/task": advisor.get("advisor").schema_for("SubstituteDish")(
            dish="spaghetti_carbonara"
        ),
        "/turn/speaker": speaker,
        "/memory/working": allergic("food.peanuts"),
    }
    llm = make_llm()
    assert generate(blackboard, llm, advisor, presets).startswith("S")
    assert not llm.calls  # the template bound: no model query
    query = blackboard.get("/turn/query")
    assert query.source == "template"
    spoken = re.search(r"VALUES \?speaker \{ (.*?) \}\n", query.text, re.DOTALL)
    assert spoken and spoken.group(1).startswith('"')  # a literal, never code
    QueryChecker(advisor.get("advisor").manifest.prefixes).check(query.text, template=True)
    rows = run(blackboard, make_llm, workers, advisor)
    assert rows and not named(rows, peanut_dishes)


def test_allowed_rows_matches_ids_labels_and_whole_words_only() -> None:
    forbidden = [{"dish": "adv:pad_thai", "dish_label": "Pad thai"}]
    rows = [
        {"dish": "adv:pad_thai", "label": None},
        {"dish": "adv:x", "label": "PAD THAI"},
        {"dish": "adv:y", "label": "Soup, pad thai, stew"},
        {"dish": "adv:pad_thai_2", "label": "Pad thaiish"},
    ]
    assert allowed_rows(rows, forbidden) == [rows[3]]
    assert allowed_rows(rows, []) == rows


def test_allowed_rows_sees_through_iris_local_names_and_punctuation() -> None:
    forbidden = [{"dish": "adv:pad_thai", "dish_label": "Pad thai"}]
    rows = [
        {"x": "https://cogtree.dev/advisor#pad_thai"},
        {"x": "pad_thai"},
        {"x": "PAD-THAI!"},
        {"x": "https://cogtree.dev/advisor#pad_thai_2"},
    ]
    assert allowed_rows(rows, forbidden) == [rows[3]]


def test_the_evidence_says_what_was_withheld_and_no_reply_names_it(
    blackboard, make_llm, workers, advisor
) -> None:
    utterance = "Instead of the spaghetti carbonara, something like chicken satay?"
    presets = {
        "/turn/utterance": utterance,
        "/turn/domain": "advisor",
        "/turn/intent": IntentFrame(domain="advisor", task="SubstituteDish"),
        "/turn/task": advisor.get("advisor").schema_for("SubstituteDish")(
            dish="spaghetti_carbonara"
        ),
        "/memory/working": allergic("food.peanuts"),
    }
    assert generate(blackboard, make_llm(), advisor, presets).startswith("S")
    run(blackboard, make_llm, workers, advisor)
    (item,) = blackboard.get("/turn/evidence").items
    assert "adv:chicken_satay" in item.withheld
    # The user named it, so it is "supported"; it is withheld all the same.
    said = "You could have chicken satay."
    llm = make_llm({"by_module": {"outer_speech": [reply_with(said), reply_with(said)]}})
    node = Respond(templated_first=False)
    harness = TreeHarness(node, llm=llm.client, handles={"domains": advisor})
    harness.tick(3)
    why = blackboard.get("/rationale/respond")
    assert why.vetoed and "must not be offered chicken satay" in why.rationale
    spoken = blackboard.get("/turn/reply")
    assert "satay" not in spoken.lower() and spoken.startswith("Instead of")


def reply_with(text: str) -> dict:
    return {"answer": {"reply": text, "rationale": "from the evidence"}}


def test_a_forbidden_list_longer_than_one_answer_refuses_the_query(advisor) -> None:
    values = " ".join(f'"dish {number}"' for number in range(300))
    query = GeneratedQuery(
        text="SELECT ?dish WHERE { ?dish a adv:Dish }",
        source="model",
        constraints=f"SELECT ?dish WHERE {{ VALUES ?dish {{ {values} }} }}",
    )
    node = RunQuery()
    try:
        with pytest.raises(QueryRefused, match="name more things than the runner returns"):
            node._run_on_pack(advisor.get("advisor"), query)
    finally:
        node.shutdown()
