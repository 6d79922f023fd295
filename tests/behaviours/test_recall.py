"""RecallMemory: the sufficiency gate, archive retrieval, and the selector of the two."""

from __future__ import annotations

import pytest
from py_trees.common import Status

from cogtree.behaviours.gates.recall import (
    MemoryEvidence,
    RetrieveArchive,
    SufficiencyGate,
    create_recall_memory,
    fast_sufficiency,
    read_evidence,
    refers_to_past,
)
from cogtree.knowledge.llm.faults import FaultPlan
from cogtree.knowledge.memory.model import Claim, TurnTrace, WorkingContext
from cogtree.knowledge.memory.store import MemoryConfig, MemoryStore
from cogtree.knowledge.understanding.turn_state import IntentFrame
from cogtree.trees.testing import TreeHarness

ALLERGY = Claim(
    text="Anna is allergic to peanuts", kind="hard_constraint", slot="food.peanuts", source="stated"
)
NAME = Claim(text="The user's name is Anna", kind="identifier", slot="user.name", source="stated")
TEA = Claim(text="Anna likes jasmine tea", kind="preference", slot="food.tea", source="stated")
BASIL = Claim(text="Anna likes basil", kind="preference", slot="food.basil", source="stated")


@pytest.fixture
def memory(tmp_path):
    """A small memory: two turns of history, a core of about one fact, the rest archived."""
    config = MemoryConfig(history_capacity=2, core_budget_chars=30)
    with MemoryStore(tmp_path / "memory.db", config=config) as store:
        yield store


def tell(memory: MemoryStore, *claims: Claim) -> None:
    for claim in claims:
        memory.write(TurnTrace(user=claim.text, robot="Noted.", domain="advisor", claims=(claim,)))


def chat(memory: MemoryStore, *lines: str) -> None:
    for line in lines:
        memory.write(TurnTrace(user=line, robot="Sure.", domain="household"))


def run(node, blackboard, make_llm, utterance, intent=None, script=None, **handles):
    blackboard.set("/turn/utterance", utterance)
    if intent is not None:
        blackboard.set("/turn/intent", intent)
    llm = make_llm(script)
    harness = TreeHarness(node, llm=llm.client, handles=handles)
    harness.tick_until(max_ticks=2000, period_s=0.005)
    return harness, llm


def gate_why(blackboard):
    return blackboard.get("/rationale/sufficiencygate")


@pytest.mark.parametrize(
    ("utterance", "past"),
    [
        ("make me my usual breakfast", True),
        ("bring it again", True),
        ("as I said, no nuts", True),
        ("do you remember my allergies?", True),
        ("how many carbohydrates are in tiramisu?", False),
        ("bring me the blue bottle", False),
    ],
)
def test_refers_to_past(utterance, past):
    assert refers_to_past(utterance) is past


def test_a_request_that_needs_nothing_from_the_past_is_served(
    blackboard, make_llm, memory, workers
):
    tell(memory, NAME)
    gate = SufficiencyGate()
    harness, llm = run(
        gate,
        blackboard,
        make_llm,
        "how many carbohydrates are in tiramisu?",
        memory=memory,
        workers=workers,
    )
    assert gate.status == Status.SUCCESS and llm.calls == []
    working = blackboard.get("/memory/working")
    assert isinstance(working, WorkingContext) and working.recalled == ()
    assert "The user's name is Anna" in working.text
    assert gate_why(blackboard).source == "fast_path"
    assert harness.trace.letters("SufficiencyGate")[0] == "R"  # the read ran off the tick


def test_past_reference_served_when_memory_holds_the_topic(blackboard, make_llm, memory, workers):
    tell(memory, ALLERGY)
    gate = SufficiencyGate()
    run(
        gate,
        blackboard,
        make_llm,
        "as I said, I'm allergic: what can I eat?",
        memory=memory,
        workers=workers,
    )
    assert gate.status == Status.SUCCESS
    assert "aller" in gate_why(blackboard).rationale


def test_past_reference_without_the_topic_needs_the_archive(blackboard, make_llm, memory, workers):
    chat(memory, "bring me the book")
    gate = SufficiencyGate()
    run(gate, blackboard, make_llm, "make me my usual tea", memory=memory, workers=workers)
    assert gate.status == Status.FAILURE
    assert blackboard.get("/memory/working") is None
    assert gate_why(blackboard).decision == {
        "sufficient": False,
        "rationale": "it refers to the past and core memory and recent turns say nothing on it",
    }


def substitute(said: str) -> IntentFrame:
    return IntentFrame(
        domain="advisor", task="SubstituteDish", slots={"dish": "tiramisu"}, said=[said]
    )


def ask_about_a_substitution(blackboard, make_llm, memory, shipped_domains, workers, script=None):
    """Tick the gate on "something instead of tiramisu" (SubstituteDish, slots unsaid)."""
    said = "something instead of tiramisu"
    gate = SufficiencyGate()
    _, llm = run(
        gate,
        blackboard,
        make_llm,
        said,
        substitute(said),
        script,
        memory=memory,
        workers=workers,
        domains=shipped_domains,
    )
    return gate, llm


def test_unfilled_slots_with_an_archive_ask_the_model(
    blackboard, make_llm, memory, shipped_domains, workers
):
    tell(memory, NAME, TEA, BASIL)
    chat(memory, "hello", "thanks")
    assert memory.archive, "the fixture should have archived something"
    script = {"by_module": {"sufficiency": [{"answer": {"sufficient": True, "rationale": "ok"}}]}}
    gate, llm = ask_about_a_substitution(
        blackboard, make_llm, memory, shipped_domains, workers, script
    )
    assert gate.status == Status.SUCCESS
    assert gate_why(blackboard).source == "model"


def test_a_failing_model_retrieves_to_be_safe(
    blackboard, make_llm, memory, shipped_domains, workers
):
    tell(memory, ALLERGY, NAME, TEA)
    chat(memory, "hello", "thanks")
    script = {"by_module": {"sufficiency": [{"text": "yes"}, {"text": "yes!"}]}}
    gate, llm = ask_about_a_substitution(
        blackboard, make_llm, memory, shipped_domains, workers, script
    )
    assert gate.status == Status.FAILURE
    assert gate_why(blackboard).source == "safe_default"


def test_unfilled_slots_with_an_empty_archive_are_served(
    blackboard, make_llm, memory, shipped_domains, workers
):
    gate, llm = ask_about_a_substitution(blackboard, make_llm, memory, shipped_domains, workers)
    assert gate.status == Status.SUCCESS and llm.calls == []


def test_a_memory_error_means_retrieval_with_the_reason(blackboard, make_llm, tmp_path, workers):
    store = MemoryStore(tmp_path / "gone.db")
    store.close()
    gate = SufficiencyGate()
    run(gate, blackboard, make_llm, "bring it again", memory=store, workers=workers)
    assert gate.status == Status.FAILURE
    assert "memory could not be read" in gate_why(blackboard).rationale


def test_retrieve_archive_recalls_archived_facts(blackboard, make_llm, memory, workers):
    tell(memory, ALLERGY, NAME, TEA)
    chat(memory, "hello", "thanks")
    node = RetrieveArchive()
    run(
        node, blackboard, make_llm, "could I have some jasmine tea?", memory=memory, workers=workers
    )
    assert node.status == Status.SUCCESS
    working = blackboard.get("/memory/working")
    assert [recall.fact.text for recall in working.recalled][:1] == ["Anna likes jasmine tea"]


def test_retrieve_archive_failure_leaves_no_stale_context(blackboard, make_llm, tmp_path, workers):
    blackboard.set("/memory/working", WorkingContext(text="old", budget_chars=10))
    store = MemoryStore(tmp_path / "gone.db")
    store.close()
    node = RetrieveArchive()
    run(node, blackboard, make_llm, "tea again", memory=store, workers=workers)
    assert node.status == Status.FAILURE
    assert "closed" in node.feedback_message
    assert blackboard.get("/memory/working") is None


def test_recall_memory_falls_back_to_the_archive(blackboard, make_llm, memory, workers):
    tell(memory, ALLERGY, NAME, TEA)
    chat(memory, "hello", "thanks")
    root = create_recall_memory()
    harness, llm = run(
        root, blackboard, make_llm, "make me my usual jasmine tea", memory=memory, workers=workers
    )
    assert harness.root_status == "SUCCESS" and llm.calls == []
    assert "F" in harness.trace.letters("SufficiencyGate")
    assert harness.trace.letters("RetrieveArchive")[-1] == "S"
    assert gate_why(blackboard).decision["sufficient"] is False
    working = blackboard.get("/memory/working")
    assert "Anna likes jasmine tea" in working.text


def evidence(**fields) -> MemoryEvidence:
    base = {
        "context": WorkingContext(text="", budget_chars=100),
        "archived": 3,
        "relevance": 0.0,
        "closest": "",
        "archive_best": 0.0,
        "archive_closest": "Anna likes jasmine tea",
    }
    return MemoryEvidence(**{**base, **fields})


@pytest.mark.parametrize(
    ("fields", "past", "unfilled", "decided"),
    [
        ({"archive_best": 0.6}, False, [], False),  # surely on the topic, in the archive only
        ({"archive_best": 0.6, "relevance": 0.7}, False, [], True),  # the context is closer
        ({"archive_best": 0.2}, False, [], None),  # on the topic, not surely: the model
        ({"archive_best": 0.05}, False, [], True),  # nothing close anywhere
        ({"archived": 0}, False, ["excluded"], True),  # nothing to retrieve
        ({"archive_best": 0.05}, False, ["excluded"], None),  # unsaid slots: the model
        ({"relevance": 0.05}, True, [], False),  # the past, and nothing on it here
        ({"relevance": 0.3, "archive_best": 0.2}, True, [], True),
        ({"relevance": 0.15, "archive_best": 0.3}, True, [], None),  # the archive is closer
    ],
)
def test_the_fast_path_reads_the_retrieval_scores(fields, past, unfilled, decided) -> None:
    assert fast_sufficiency(evidence(**fields), past, unfilled)[0] is decided


def test_the_archive_best_match_is_read_with_the_context(memory) -> None:
    tell(memory, NAME, TEA, BASIL)
    chat(memory, "hello", "thanks")
    found = read_evidence(memory, "could I have some jasmine tea?")
    assert found.archive_closest == "Anna likes jasmine tea" and found.archive_best > 0.35
    assert found.hidden_constraints == ()


def test_the_model_cannot_skip_an_archived_allergy_for_a_substitution(
    blackboard, make_llm, memory, shipped_domains, workers
):
    tell(memory, ALLERGY, NAME, TEA)  # the allergy is archived, the name stays in core
    chat(memory, "hello", "thanks")
    script = {"by_module": {"sufficiency": [{"answer": {"sufficient": True, "rationale": "ok"}}]}}
    gate, llm = ask_about_a_substitution(
        blackboard, make_llm, memory, shipped_domains, workers, script
    )
    why = gate_why(blackboard)
    assert gate.status == Status.FAILURE and why.source == "model" and why.vetoed
    assert "Anna is allergic to peanuts" in why.rationale


@pytest.mark.parametrize("kind", ["malformed", "timeout", "connection"])
def test_a_broken_model_means_retrieval(
    kind, blackboard, make_llm, memory, shipped_domains, workers
) -> None:
    tell(memory, NAME, TEA, BASIL)
    chat(memory, "hello", "thanks")
    said = "something instead of tiramisu"
    gate = SufficiencyGate()
    llm = make_llm(
        {"by_module": {"sufficiency": [{"answer": {"sufficient": True, "rationale": "ok"}}] * 3}},
        modules={"sufficiency": {"timeout_s": 0.3}},
        faults=FaultPlan(rate=1.0, seed=1, kinds=(kind,)),
    )
    blackboard.set("/turn/utterance", said)
    blackboard.set("/turn/intent", substitute(said))
    harness = TreeHarness(
        gate,
        llm=llm.client,
        handles={"memory": memory, "workers": workers, "domains": shipped_domains},
    )
    harness.tick_until(max_ticks=4000, period_s=0.005)
    assert gate.status == Status.FAILURE
    assert gate_why(blackboard).source == "safe_default"
