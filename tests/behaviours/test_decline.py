"""Decline: a polite refusal that says why."""

from __future__ import annotations

import pytest
from py_trees.common import Status

from cogtree.behaviours.actions.dialogue.decline import Decline, plain_reason
from cogtree.knowledge.packs.domain_registry import DomainRegistry
from cogtree.knowledge.understanding.turn_state import OUT_OF_SCOPE, GateRationale
from cogtree.trees.testing import TreeHarness


@pytest.fixture(scope="module")
def domains() -> DomainRegistry:
    return DomainRegistry.discover()


def decline(blackboard, make_llm, domains, presets) -> Decline:
    for key, value in presets.items():
        blackboard.set(key, value)
    node = Decline()
    TreeHarness(node, llm=make_llm().client, handles={"domains": domains}).tick()
    return node


def gate_said(rationale: str) -> GateRationale:
    return GateRationale(
        node="TaskReadinessGate",
        module="inner_speech",
        source="model",
        decision={"control": "Reject"},
        rationale=rationale,
    )


def test_out_of_scope_says_what_the_robot_can_do(blackboard, make_llm, domains):
    presets = {"/turn/domain": OUT_OF_SCOPE, "/turn/control": "Reject"}
    node = decline(blackboard, make_llm, domains, presets)
    assert node.status == Status.SUCCESS
    assert blackboard.get("/turn/reply") == (
        "Sorry, I can't help with that: it is outside what I do. I can help you as Household "
        "help, Dietary advisor and Office errands."
    )


def test_reject_gives_the_gates_reason_in_plain_words(blackboard, make_llm, domains):
    presets = {
        "/turn/domain": "household",
        "/turn/control": "Reject",
        "/rationale/taskreadinessgate": gate_said(
            "guard: Throwing a knife could hurt someone. I will not."
        ),
    }
    decline(blackboard, make_llm, domains, presets)
    assert blackboard.get("/turn/reply") == (
        "Sorry, I won't do that: throwing a knife could hurt someone."
    )


def test_without_a_reason_it_still_apologises(blackboard, make_llm, domains):
    node = decline(blackboard, make_llm, domains, {"/turn/control": "Reject"})
    assert node.status == Status.SUCCESS
    assert blackboard.get("/turn/reply") == "Sorry, I can't do that."


@pytest.mark.parametrize(
    ("rationale", "plain"),
    [
        ("safe decision: asking: the model timed out", "the model timed out"),
        ("Unsafe. Very unsafe.", "unsafe"),
        ("HTTP request refused", "HTTP request refused"),
        ("", ""),
    ],
)
def test_plain_reason(rationale, plain):
    assert plain_reason(rationale) == plain


def test_the_robots_own_reason_is_said_whole(blackboard, make_llm, domains):
    """A hazard refusal the gate decided without a model names every hazard, not the first."""
    hazards = (
        "The tumbler holds only 300 ml; adding 600 ml would overflow it. "
        "And the tumbler is next to the toaster; a spill could reach it."
    )
    presets = {
        "/turn/domain": "household",
        "/turn/control": "Reject",
        "/rationale/taskreadinessgate": gate_said(hazards).model_copy(
            update={"source": "fast_path"}
        ),
    }
    decline(blackboard, make_llm, domains, presets)
    assert blackboard.get("/turn/reply") == (
        "Sorry, I won't do that: the tumbler holds only 300 ml; adding 600 ml would overflow "
        "it. And the tumbler is next to the toaster; a spill could reach it."
    )


def test_plain_reason_keeps_every_sentence_when_whole():
    assert plain_reason("Unsafe. Very unsafe.", whole=True) == "unsafe. Very unsafe"
