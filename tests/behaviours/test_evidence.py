"""Tool grounding: NeedsEvidence, find_task and the memory-bound query parameters."""

from __future__ import annotations

import pytest

from cogtree.behaviours.gates.evidence import NeedsEvidence
from cogtree.knowledge.memory.model import Fact, Recall, WorkingContext
from cogtree.knowledge.packs.domain_registry import DomainRegistry
from cogtree.knowledge.understanding.evidence_needs import (
    MODEL_QUERY,
    answered,
    find_task,
    memory_bindings,
)
from cogtree.knowledge.understanding.turn_state import EvidenceBundle, EvidenceItem, IntentFrame
from cogtree.trees.testing import TreeHarness


def fact(slot: str, kind: str, text: str = "a fact") -> Fact:
    return Fact(
        text=text, kind=kind, slot=slot, source="stated", turn=1, timestamp=0.0, domain="advisor"
    )


def working(*facts: Fact, recalled: tuple[Recall, ...] = ()) -> WorkingContext:
    return WorkingContext(text="Known facts: ...", budget_chars=500, facts=facts, recalled=recalled)


def where_is(domain: str = "household") -> IntentFrame:
    return IntentFrame(domain=domain, task="WhereIs", slots={"object": "my mug"})


def run(blackboard, make_llm, shipped_domains, **presets) -> tuple[str, NeedsEvidence]:
    for key, value in presets.items():
        blackboard.set(key, value)
    node = NeedsEvidence()
    harness = TreeHarness(node, llm=make_llm().client, handles={"domains": shipped_domains})
    harness.tick()
    return harness.trace.letters("NeedsEvidence"), node


def test_a_knowledge_task_without_evidence_needs_it(blackboard, make_llm, shipped_domains) -> None:
    status, node = run(
        blackboard,
        make_llm,
        shipped_domains,
        **{"/turn/domain": "household", "/turn/intent": where_is()},
    )
    assert status == "S"
    assert "where_is on the scene graph" in node.feedback_message
    why = blackboard.get("/rationale/needsevidence")
    assert why.decision["needs_evidence"] is True and why.decision["template"] == "where_is"


def test_evidence_already_there_is_not_fetched_again(blackboard, make_llm, shipped_domains) -> None:
    bundle = EvidenceBundle(items=[EvidenceItem(source="where_is", rows=[])])
    status, node = run(
        blackboard,
        make_llm,
        shipped_domains,
        **{"/turn/domain": "household", "/turn/intent": where_is(), "/turn/evidence": bundle},
    )
    assert status == "F" and "already answered" in node.feedback_message


def test_plan_evidence_does_not_answer_a_question(blackboard, make_llm, shipped_domains) -> None:
    bundle = EvidenceBundle(items=[EvidenceItem(source="plan", text="Done: GOTO(kitchen).")])
    status, _ = run(
        blackboard,
        make_llm,
        shipped_domains,
        **{"/turn/domain": "household", "/turn/intent": where_is(), "/turn/evidence": bundle},
    )
    assert status == "S"


def test_a_physical_task_needs_no_query(blackboard, make_llm, shipped_domains) -> None:
    fetch = IntentFrame(domain="household", task="Fetch", slots={"object": "mug"})
    status, node = run(
        blackboard,
        make_llm,
        shipped_domains,
        **{"/turn/domain": "household", "/turn/intent": fetch},
    )
    assert status == "F" and "grounded by physical" in node.feedback_message


@pytest.mark.parametrize(
    ("presets", "says"),
    [
        ({}, "no task this turn"),
        ({"/turn/intent": IntentFrame(domain="household", task=None)}, "no task this turn"),
        ({"/turn/domain": "OutOfScope", "/turn/intent": where_is()}, "not loaded"),
        (
            {
                "/turn/domain": "household",
                "/turn/intent": IntentFrame(domain="household", task="Juggle"),
            },
            "no task 'Juggle'",
        ),
    ],
)
def test_bad_turns_fail_with_the_reason(
    blackboard, make_llm, shipped_domains, presets, says
) -> None:
    status, node = run(blackboard, make_llm, shipped_domains, **presets)
    assert status == "F" and says in node.feedback_message


def test_find_task_reads_the_pack(shipped_domains) -> None:
    task = find_task(shipped_domains, "household", where_is())
    assert (task.pack.name, task.spec.name) == ("household", "WhereIs")
    assert task.sources == {"where_is", MODEL_QUERY}
    with pytest.raises(LookupError, match="no task"):
        find_task(shipped_domains, "household", "not an intent")


def test_answered_counts_only_the_task_sources(shipped_domains) -> None:
    task = find_task(shipped_domains, "household", where_is())
    model = EvidenceBundle(items=[EvidenceItem(source=MODEL_QUERY)])
    memory = EvidenceBundle(items=[EvidenceItem(source="memory", text="Noted.")])
    assert answered(model, task) and not answered(memory, task) and not answered(None, task)


def test_memory_bindings_sort_facts_by_slot_and_kind() -> None:
    context = working(
        fact("food.peanut", "hard_constraint"),
        fact("food.milk", "hard_constraint"),
        fact("food.basil", "preference"),
        fact("diet.vegetarian", "hard_constraint"),
        fact("user.name", "identifier"),
        fact("food.peanut", "hard_constraint", "again"),
        fact("target.fat", "preference", "The user's daily fat target is 62.5 g"),
        fact("about.son.target.energy", "preference", "The user's son's ... is 1500 kcal"),
        recalled=(
            Recall(fact=fact("food.oat", "preference"), score=0.9),
            Recall(fact=fact("food.rye", "hard_constraint"), score=0.8, superseded=True),
        ),
    )
    assert memory_bindings(context) == {
        "avoid": ["peanut", "milk"],
        "favour": ["basil", "oat"],
        "diet": ["vegetarian"],
        "daily_target": ["fat=62.5"],  # the user's own targets only
    }
    assert memory_bindings(None) == {"avoid": [], "favour": [], "diet": [], "daily_target": []}


def test_the_feedback_names_what_memory_fills(blackboard, make_llm, tmp_path) -> None:
    pack = tmp_path / "menu"
    (pack / "queries").mkdir(parents=True)
    (pack / "menu.ttl").write_text("@prefix m: <https://example.org/menu#> .\nm:soup a m:Dish .\n")
    (pack / "queries" / "dishes.rq").write_text(
        "PREFIX m: <https://example.org/menu#>\n"
        "SELECT ?dish WHERE { VALUES ?avoid { UNDEF } VALUES ?diet { UNDEF } ?dish a m:Dish }\n"
    )
    (pack / "tasks.py").write_text(
        "from pydantic import BaseModel\n\nclass Dishes(BaseModel):\n    pass\n"
    )
    (pack / "pack.yaml").write_text(
        "name: menu\ntitle: Menu\ndescription: dishes on the menu\nknowledge: [menu.ttl]\n"
        "prefixes: {m: 'https://example.org/menu#'}\n"
        "tasks:\n  - {name: Dishes, schema: Dishes, grounding: knowledge_query,"
        " description: list dishes, examples: [what is on the menu], query: dishes}\n"
    )
    menu = DomainRegistry.discover([pack], shipped=False)
    intent = IntentFrame(domain="menu", task="Dishes")
    presets = {"/turn/domain": "menu", "/turn/intent": intent}
    status, node = run(blackboard, make_llm, menu, **presets)
    assert status == "S" and "no working context, so avoid, diet stay unbound" in (
        node.feedback_message
    )
    blackboard.set("/memory/working", working(fact("food.peanut", "hard_constraint")))
    status, node = run(blackboard, make_llm, menu)
    assert status == "S" and "from memory: avoid=peanut;" in node.feedback_message
