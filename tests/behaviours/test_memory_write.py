"""StageClaims and Consolidate: what a turn stores in memory, and corrections."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import py_trees
import pytest
from py_trees.common import Status
from pydantic import BaseModel

from cogtree.behaviours.actions.dialogue.parse_request import ParseRequest
from cogtree.behaviours.actions.grounding.memory_write import (
    NOT_REMEMBERED,
    Consolidate,
    StageClaims,
)
from cogtree.behaviours.gates.task_readiness import TaskReadinessGate
from cogtree.knowledge.memory.model import Claim, TurnTrace
from cogtree.knowledge.memory.store import MemoryConfig, MemoryStore
from cogtree.knowledge.understanding.turn_state import (
    EvidenceBundle,
    EvidenceItem,
    IntentFrame,
    PendingTask,
    SlotResolution,
)
from cogtree.trees.testing import TreeHarness


@pytest.fixture
def memory(tmp_path):
    with MemoryStore(tmp_path / "memory.db", config=MemoryConfig(history_capacity=1)) as store:
        yield store


def add_to_database(shipped_domains, **values) -> BaseModel:
    return shipped_domains.get("advisor").schema_for("AddToDatabase")(**values)


class Broken(BaseModel):
    def claims(self) -> list[Claim]:
        raise RuntimeError("no database today")


class Silent(BaseModel):
    def claims(self) -> list[Claim]:
        return []


class NotClaims(BaseModel):
    def claims(self) -> list[str]:
        return ["peanuts"]


def run(node, make_llm, handles=None) -> TreeHarness:
    harness = TreeHarness(node, llm=make_llm().client, handles=handles or {})
    harness.tick_until(max_ticks=2000, period_s=0.005)
    return harness


def test_stage_claims_writes_memory_evidence(blackboard, make_llm, shipped_domains):
    earlier = EvidenceItem(source="plan", text="nothing was moved")
    blackboard.set("/turn/evidence", EvidenceBundle(items=[earlier]))
    task = add_to_database(
        shipped_domains, targets=["peanuts", "sesame"], relation="allergy", person="Anna"
    )
    blackboard.set("/turn/task", task)
    node = StageClaims()
    run(node, make_llm)
    assert node.status == Status.SUCCESS
    assert blackboard.get("/turn/evidence").items == [
        earlier,
        EvidenceItem(
            source="memory",
            text="The user's name is Anna. Anna is allergic to peanuts. Anna is allergic to "
            "sesame.",
        ),
    ]


@pytest.mark.parametrize(
    ("task", "reason"),
    [
        (None, "no task on /turn/task"),
        (Broken(), "Broken.claims() failed: RuntimeError: no database today"),
        (Silent(), "Silent states nothing to remember"),
        (NotClaims(), "must return a list of Claim"),
    ],
)
def test_stage_claims_fails_with_the_reason(blackboard, make_llm, task, reason):
    if task is not None:
        blackboard.set("/turn/task", task)
    node = StageClaims()
    run(node, make_llm)
    assert node.status == Status.FAILURE
    assert reason in node.feedback_message
    assert blackboard.get("/turn/evidence") is None


def test_a_task_without_claims_is_not_a_memory_write(blackboard, make_llm, shipped_domains):
    blackboard.set("/turn/task", shipped_domains.get("office").schema_for("Borrow")(item="stapler"))
    node = StageClaims()
    run(node, make_llm)
    assert node.status == Status.FAILURE
    assert "has no claims() method" in node.feedback_message


def turn(blackboard, shipped_domains, control: str, task: BaseModel | None = None) -> None:
    blackboard.set("/turn/utterance", "I'm allergic to peanuts")
    blackboard.set("/turn/reply", "Noted: you are allergic to peanuts.")
    blackboard.set("/turn/domain", "advisor")
    blackboard.set("/turn/control", control)
    blackboard.set("/turn/speaker", "anna")  # identified: the memory is hers
    if task is not None:
        blackboard.set("/turn/task", task)


def test_consolidate_stores_the_claims_of_a_proceeded_memory_write(
    blackboard, make_llm, shipped_domains, memory, workers
):
    blackboard.set("/session/pending", PendingTask(domain="advisor", task="AddToDatabase"))
    turn(
        blackboard,
        shipped_domains,
        "Proceed",
        add_to_database(shipped_domains, targets=["peanuts"]),
    )
    node = Consolidate()
    run(node, make_llm, {"memory": memory, "workers": workers})
    assert node.status == Status.SUCCESS
    stored = memory.history[-1]
    assert (stored.user, stored.robot, stored.domain) == (
        "I'm allergic to peanuts",
        "Noted: you are allergic to peanuts.",
        "advisor",
    )
    assert [claim.slot for claim in stored.claims] == ["food.peanuts"]
    assert blackboard.get("/session/pending") is None


def test_consolidate_stores_no_claims_for_a_clarify_and_keeps_pending(
    blackboard, make_llm, shipped_domains, memory, workers
):
    pending = PendingTask(domain="advisor", task="AddToDatabase", missing=["targets"])
    blackboard.set("/session/pending", pending)
    turn(
        blackboard,
        shipped_domains,
        "Clarify",
        add_to_database(shipped_domains, targets=["peanuts"]),
    )
    node = Consolidate()
    run(node, make_llm, {"memory": memory, "workers": workers})
    assert node.status == Status.SUCCESS
    assert memory.history[-1].claims == ()
    assert blackboard.get("/session/pending") == pending


def test_consolidate_records_a_turn_whose_claims_fail(blackboard, make_llm, memory, workers):
    turn(blackboard, None, "Proceed", Broken())
    node = Consolidate()
    run(node, make_llm, {"memory": memory, "workers": workers})
    assert node.status == Status.SUCCESS
    assert memory.history[-1].claims == ()
    assert "no claims stored" in node.feedback_message


def test_a_memory_error_fails_with_the_reason_and_loses_nothing_silently(
    blackboard, make_llm, shipped_domains, tmp_path, caplog, workers
):
    store = MemoryStore(tmp_path / "closed.db")
    store.close()
    blackboard.set("/session/pending", PendingTask(domain="advisor", task="AddToDatabase"))
    turn(
        blackboard,
        shipped_domains,
        "Proceed",
        add_to_database(shipped_domains, targets=["peanuts"]),
    )
    node = Consolidate()
    run(node, make_llm, {"memory": store, "workers": workers})
    assert node.status == Status.FAILURE
    assert "turn not stored" in node.feedback_message and "closed" in node.feedback_message
    assert "I'm allergic to peanuts" in caplog.text  # the whole trace is in the log
    assert blackboard.get("/session/pending") is None  # the task did run


LOCKER = """
import sqlite3, sys
connection = sqlite3.connect(sys.argv[1], isolation_level=None)
connection.execute("BEGIN IMMEDIATE")
print("locked", flush=True)
sys.stdin.read()
"""


@contextmanager
def locked_by_another_process(path: Path) -> Iterator[None]:
    """Another process holds the memory file's write lock until the block ends."""
    locker = subprocess.Popen(
        [sys.executable, "-c", LOCKER, str(path)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert locker.stdout is not None and locker.stdout.readline().strip() == "locked"
        yield
    finally:
        locker.communicate("")


@pytest.mark.parametrize(
    ("control", "claims"), [("Proceed", True), ("Clarify", False)], ids=["claims", "no-claims"]
)
def test_a_write_that_fails_is_never_followed_by_noted(
    blackboard, make_llm, shipped_domains, tmp_path, workers, control, claims
):
    path = tmp_path / "shared.db"
    config = MemoryConfig(busy_timeout_s=0.05)
    with MemoryStore(path, config=config) as store, locked_by_another_process(path):
        turn(
            blackboard,
            shipped_domains,
            control,
            add_to_database(shipped_domains, targets=["peanuts"]),
        )
        node = Consolidate()
        run(node, make_llm, {"memory": store, "workers": workers})
        assert node.status == Status.FAILURE
        assert store.history == ()
    reply = blackboard.get("/turn/reply")
    if claims:
        assert reply == NOT_REMEMBERED and "Noted" not in reply
        assert reply.startswith("I could not remember that")
        assert "locked by another connection" in node.feedback_message
    else:  # no claim was to be stored, so the reply promised nothing: it stands
        assert reply == "Noted: you are allergic to peanuts."
    assert "turn not stored" in node.feedback_message


def test_no_utterance_nothing_to_store(blackboard, make_llm, memory, workers):
    node = Consolidate()
    run(node, make_llm, {"memory": memory, "workers": workers})
    assert node.status == Status.FAILURE
    assert memory.history == ()


def remember() -> py_trees.behaviour.Behaviour:
    root = py_trees.composites.Sequence("Remember", memory=True)
    root.add_children([ParseRequest(), TaskReadinessGate(), StageClaims(), Consolidate()])
    return root


def say(blackboard, utterance: str, slots: dict, resolved: dict) -> None:
    storage = py_trees.blackboard.Blackboard.storage
    for key in [key for key in storage if key.startswith("/turn/")]:
        del storage[key]
    blackboard.set("/turn/utterance", utterance)
    blackboard.set("/turn/domain", "advisor")
    blackboard.set("/turn/speaker", "anna")  # identified: the memory is hers
    blackboard.set(
        "/turn/intent",
        IntentFrame(
            domain="advisor", task="AddToDatabase", slots=slots, confidence=0.9, said=[utterance]
        ),
    )
    blackboard.set("/turn/resolved", resolved)


def test_a_correction_replaces_the_stored_fact(
    blackboard, make_llm, shipped_domains, memory, workers
):
    peanuts = SlotResolution(slot="targets", said=["peanuts"], kind="kg", ids=["peanuts"])
    harness = TreeHarness(
        remember(),
        llm=make_llm().client,
        handles={"domains": shipped_domains, "memory": memory, "workers": workers},
    )
    say(
        blackboard,
        "I'm allergic to peanuts",
        {"targets": ["peanuts"], "relation": "allergic"},
        {
            "targets": peanuts,
            "relation": SlotResolution(
                slot="relation", said="allergic", kind="value", ids=["allergy"]
            ),
        },
    )
    harness.tick_until(max_ticks=2000, period_s=0.005)
    assert harness.root_status == "SUCCESS"
    say(
        blackboard,
        "no, I'm not allergic to peanuts, I just don't like them",
        {"targets": ["peanuts"], "relation": "don't like", "correction": True},
        {
            "targets": peanuts,
            "relation": SlotResolution(
                slot="relation", said="don't like", kind="value", ids=["exclude"]
            ),
        },
    )
    harness.tick_until(max_ticks=2000, period_s=0.005)
    assert harness.root_status == "SUCCESS"
    assert blackboard.get("/turn/evidence").items[0].text == "The user does not want peanuts."
    believed = [fact for fact in memory.read("peanuts").facts if fact.slot == "food.peanuts"]
    assert [(fact.text, fact.correction) for fact in believed] == [
        ("The user does not want peanuts", True)
    ]
    memory.write(TurnTrace(user="thanks", robot="You're welcome.", domain="advisor"))
    core = [fact for fact in memory.core if fact.slot == "food.peanuts"]  # consolidated now
    assert [fact.text for fact in core] == ["The user does not want peanuts"]


@pytest.mark.parametrize(("reply", "kept"), [("Just to be sure?", True), ("Which one?", False)])
def test_a_confirmation_holds_for_the_turn_that_asked_it_only(
    blackboard, make_llm, shipped_domains, memory, workers, reply, kept
):
    pending = PendingTask(
        domain="household", task="Fetch", question="Just to be sure?", confirm=["doubt"]
    )
    blackboard.set("/session/pending", pending)
    turn(blackboard, shipped_domains, "Clarify")
    blackboard.set("/turn/reply", reply)
    run(Consolidate(), make_llm, {"memory": memory, "workers": workers})
    assert blackboard.get("/session/pending").confirm == (["doubt"] if kept else [])
