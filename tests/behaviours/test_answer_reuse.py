"""Tool grounding from the working context (ρ): held answers, NeedsEvidence reuse, HoldAnswer."""

from __future__ import annotations

import py_trees
import pytest

from cogtree.behaviours.actions.grounding.hold_answer import HoldAnswer
from cogtree.behaviours.gates.evidence import NeedsEvidence
from cogtree.behaviours.setup_handles import MissingHandleError
from cogtree.knowledge.memory.model import Fact, WorkingContext
from cogtree.knowledge.packs.domain_pack import TaskSpec
from cogtree.knowledge.packs.domain_registry import DomainRegistry
from cogtree.knowledge.understanding.evidence_needs import MAX_HELD, answer_key, find_reusable, hold
from cogtree.knowledge.understanding.turn_state import (
    EvidenceBundle,
    EvidenceItem,
    HeldAnswer,
    IntentFrame,
)
from cogtree.trees.testing import TreeHarness

NUTRITION_ROWS = [
    {"dish": "lasagne", "aspect": "nutrition", "topic": topic, "value": value}
    for topic, value in (("kcal", "605.3"), ("protein", "31.8"), ("fat", "30.5"))
] + [{"dish": "lasagne", "aspect": "nutrition", "topic": "profile", "value": "suits"}]


@pytest.fixture(scope="module")
def dish_info(shipped_packs: DomainRegistry) -> TaskSpec:
    return shipped_packs.get("advisor").task("DishInfo")


def held(
    key: dict[str, list[str]], at: float = 100.0, rows: list | None = None, task: str = "DishInfo"
) -> HeldAnswer:
    item = EvidenceItem(source="dish_info", rows=NUTRITION_ROWS if rows is None else rows)
    return HeldAnswer(domain="advisor", task=task, key=key, item=item, at=at, utterance="asked")


def key(dish: str, aspect: str | None = None, **more: list[str]) -> dict[str, list[str]]:
    return {"dish": [dish], "aspect": [aspect] if aspect else [], **more}


def test_a_held_whole_answer_serves_one_part_of_it(dish_info: TaskSpec) -> None:
    reuse = find_reusable(
        dish_info, "advisor", key("lasagne", "protein"), [held(key("lasagne", "nutrition"))], 160
    )
    assert not isinstance(reuse, str)
    assert [row["topic"] for row in reuse.item.rows] == ["protein", "profile"]
    assert {row["aspect"] for row in reuse.item.rows} == {"protein"}  # what was asked now
    assert reuse.age_s == 60


@pytest.mark.parametrize(
    ("asked", "answer", "why"),
    [
        (key("tiramisu", "kcal"), key("lasagne", "nutrition"), "dish=lasagne, now dish=tiramisu"),
        (key("lasagne", "ingredients"), key("lasagne", "nutrition"), "not ingredients"),
        (key("lasagne"), key("lasagne", "kcal"), "every part is asked"),
        (
            key("lasagne", "kcal", avoid=["peanuts"]),
            key("lasagne", "kcal", avoid=[]),
            "profile memory binds avoid=nothing, now avoid=peanuts",
        ),
    ],
)
def test_a_held_answer_for_other_ids_or_parts_does_not_serve(
    dish_info: TaskSpec, asked: dict, answer: dict, why: str
) -> None:
    reuse = find_reusable(dish_info, "advisor", asked, [held(answer)], 110)
    assert isinstance(reuse, str) and why in reuse


def test_a_stale_answer_is_not_reused(dish_info: TaskSpec) -> None:
    limit = dish_info.evidence.reusable_s if dish_info.evidence else 0
    reuse = find_reusable(
        dish_info, "advisor", key("lasagne", "kcal"), [held(key("lasagne", "kcal"))], 101 + limit
    )
    assert isinstance(reuse, str) and "old" in reuse


def test_where_is_is_never_reused(shipped_domains: DomainRegistry) -> None:
    spec = shipped_domains.get("household").task("WhereIs")
    answer = HeldAnswer(
        domain="household",
        task="WhereIs",
        key={"object": ["mug"]},
        item=EvidenceItem(source="w"),
        at=0,
    )
    reuse = find_reusable(spec, "household", {"object": ["mug"]}, [answer], 1)
    assert isinstance(reuse, str) and "never reused" in reuse


def test_the_key_takes_the_template_parameters_the_task_has(dish_info: TaskSpec) -> None:
    bound = {"avoid": ["peanuts", "milk"], "favour": ["basil"], "diet": []}
    made = answer_key(
        dish_info, ["dish", "aspect", "avoid", "diet"], {"dish": "Lasagne"}, bound, "alice"
    )
    assert made == {
        "dish": ["lasagne"],
        "check": [],
        "person": [],
        "aspect": [],
        "avoid": ["milk", "peanuts"],
        "diet": [],
    }


def test_holding_replaces_the_same_key_and_keeps_the_last_few() -> None:
    answers: list[HeldAnswer] = []
    for number in range(MAX_HELD + 2):
        answers = hold(answers, held(key(f"dish{number}"), at=number))
    assert len(answers) == MAX_HELD and answers[-1].key["dish"] == [f"dish{MAX_HELD + 1}"]
    answers = hold(answers, held(key(f"dish{MAX_HELD + 1}"), at=99))
    assert len(answers) == MAX_HELD and answers[-1].at == 99


def profile(*foods: str) -> WorkingContext:
    facts = tuple(
        Fact(
            text=f"allergic to {food}",
            kind="hard_constraint",
            slot=f"food.{food}",
            source="stated",
            turn=1,
            timestamp=0.0,
            domain="advisor",
        )
        for food in foods
    )
    return WorkingContext(text="...", budget_chars=500, facts=facts)


def turn(blackboard, shipped_domains, aspect: str, **presets) -> None:
    schema = shipped_domains.get("advisor").schema_for("DishInfo")
    blackboard.set("/turn/domain", "advisor")
    blackboard.set(
        "/turn/intent",
        IntentFrame(domain="advisor", task="DishInfo", slots={"dish": "lasagne", "aspect": aspect}),
    )
    blackboard.set("/turn/task", schema.model_validate({"dish": "lasagne", "aspect": aspect}))
    blackboard.set("/turn/utterance", f"{aspect} of the lasagne?")
    for name, value in presets.items():
        blackboard.set(name, value)


def tick(node, make_llm, shipped_domains, now: float) -> str:
    harness = TreeHarness(
        node, llm=make_llm().client, handles={"domains": shipped_domains, "clock": lambda: now}
    )
    harness.tick()
    return harness.trace.letters(node.name)


def test_an_answer_held_by_one_turn_serves_the_next(blackboard, make_llm, shipped_domains) -> None:
    turn(
        blackboard,
        shipped_domains,
        "nutrition",
        **{"/turn/evidence": EvidenceBundle(items=[held({}).item])},
    )
    hold_node = HoldAnswer()
    assert tick(hold_node, make_llm, shipped_domains, now=10.0) == "S"
    assert "held 4 rows" in hold_node.feedback_message
    [answer] = blackboard.get("/session/held_answers")
    assert answer.key["aspect"] == ["nutrition"] and answer.at == 10.0

    py_trees.blackboard.Blackboard.unset("/turn/evidence")  # the next turn
    turn(blackboard, shipped_domains, "kcal")
    gate = NeedsEvidence()
    assert tick(gate, make_llm, shipped_domains, now=40.0) == "F"
    why = blackboard.get("/rationale/needsevidence")
    assert why.decision["reused"] is True
    assert "already known from the answer to 'nutrition of the lasagne?' 30 s ago" in why.rationale
    assert "no query" in why.rationale
    [item] = blackboard.get("/turn/evidence").items
    assert [row["topic"] for row in item.rows] == ["kcal", "profile"]


def test_a_changed_profile_grounds_the_task_again(blackboard, make_llm, shipped_domains) -> None:
    turn(
        blackboard,
        shipped_domains,
        "kcal",
        **{"/session/held_answers": [held(key("lasagne", "kcal"))]},
    )
    blackboard.set("/memory/working", profile("peanuts"))
    gate = NeedsEvidence()
    assert tick(gate, make_llm, shipped_domains, now=120.0) == "S"
    assert "avoid=nothing, now avoid=peanuts" in gate.feedback_message
    assert blackboard.get("/turn/evidence") is None


def test_a_model_written_answer_is_not_held(blackboard, make_llm, shipped_domains) -> None:
    model_rows = EvidenceItem(source="model-query", rows=[{"x": "1"}])
    turn(
        blackboard,
        shipped_domains,
        "kcal",
        **{"/turn/evidence": EvidenceBundle(items=[model_rows])},
    )
    node = HoldAnswer()
    assert tick(node, make_llm, shipped_domains, now=1.0) == "S"
    assert "nothing held" in node.feedback_message
    assert blackboard.get("/session/held_answers") is None


def test_a_clock_that_is_no_callable_is_refused(shipped_domains) -> None:
    with pytest.raises(MissingHandleError, match="clock"):
        NeedsEvidence().setup(domains=shipped_domains, clock=5)
