"""Decline: a polite refusal that says why."""

from __future__ import annotations

import pytest
from py_trees.common import Status

from cogtree.behaviours.actions.dialogue.decline import Decline, plain_reason
from cogtree.knowledge.language.missing_steps import left_undone
from cogtree.knowledge.language.request_frame import parse_request
from cogtree.knowledge.scene.scene_graph import SceneGraph
from cogtree.knowledge.understanding.turn_state import OUT_OF_SCOPE, GateRationale
from cogtree.skills.action_model.people import Person
from cogtree.skills.planning.delegation import delegation_plan, delegations
from cogtree.trees.testing import TreeHarness


def decline(blackboard, make_llm, shipped_domains, presets) -> Decline:
    for key, value in presets.items():
        blackboard.set(key, value)
    node = Decline()
    TreeHarness(node, llm=make_llm().client, handles={"domains": shipped_domains}).tick()
    return node


def gate_said(rationale: str) -> GateRationale:
    return GateRationale(
        node="TaskReadinessGate",
        module="inner_speech",
        source="model",
        decision={"control": "Reject"},
        rationale=rationale,
    )


def test_out_of_scope_says_what_the_robot_can_do(blackboard, make_llm, shipped_domains):
    presets = {"/turn/domain": OUT_OF_SCOPE, "/turn/control": "Reject"}
    node = decline(blackboard, make_llm, shipped_domains, presets)
    assert node.status == Status.SUCCESS
    assert blackboard.get("/turn/reply") == (
        "Sorry, I can't help with that: it is outside what I do. I can help you as Household "
        "help, Dietary advisor and Office errands."
    )


def test_reject_gives_the_gates_reason_in_plain_words(blackboard, make_llm, shipped_domains):
    presets = {
        "/turn/domain": "household",
        "/turn/control": "Reject",
        "/rationale/taskreadinessgate": gate_said(
            "guard: Throwing a knife could hurt someone. I will not."
        ),
    }
    decline(blackboard, make_llm, shipped_domains, presets)
    assert blackboard.get("/turn/reply") == (
        "Sorry, I won't do that: throwing a knife could hurt someone."
    )


def test_without_a_reason_it_still_apologises(blackboard, make_llm, shipped_domains):
    node = decline(blackboard, make_llm, shipped_domains, {"/turn/control": "Reject"})
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


def test_the_robots_own_reason_is_said_whole(blackboard, make_llm, shipped_domains):
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
    decline(blackboard, make_llm, shipped_domains, presets)
    assert blackboard.get("/turn/reply") == (
        "Sorry, I won't do that: the tumbler holds only 300 ml; adding 600 ml would overflow "
        "it. And the tumbler is next to the toaster; a spill could reach it."
    )


def test_plain_reason_keeps_every_sentence_when_whole():
    assert plain_reason("Unsafe. Very unsafe.", whole=True) == "unsafe. Very unsafe"


HOUSE = """
@prefix cog: <https://cogtree.dev/ontology#> .
@prefix : <https://cogtree.dev/scene#> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .

:kitchen a cog:Room ; rdfs:label "kitchen" .
:sam a cog:Human ; rdfs:label "Sam" ; cog:inRoom :kitchen ; cog:ability "cut" .
:kim a cog:Human ; rdfs:label "Kim" ; cog:inRoom :kitchen .
"""


OFFER = "Sorry, I can't cut things yet. Sam can cut things: I can ask Sam to do it for you."


@pytest.mark.parametrize(
    ("speaker", "reply", "unrun_plan"),
    [
        ("kim", OFFER, False),
        ("sam", "Sorry, I can't cut things yet.", False),  # the one asking is never offered
        # a delegation plan that never ran (its dry run rejected it) asked nobody: checked to
        # fail before ("I asked Sam to do that part (...), but it was not done.")
        ("kim", OFFER, True),
    ],
)
def test_a_missing_skill_someone_at_home_has_is_offered_to_ask_them(
    blackboard, make_llm, shipped_domains, workers, speaker: str, reply: str, unrun_plan: bool
) -> None:
    if unrun_plan:
        sam = Person("sam", "kitchen", "available", frozenset({"cut"}), label="Sam")
        undone = left_undone(parse_request("slice the bread"))
        blackboard.set("/plan/current", delegation_plan(delegations(undone, [sam], "kim")))
    presets = {
        "/turn/domain": "household",
        "/turn/control": "Reject",
        "/turn/frame": parse_request("slice the bread"),
        "/turn/speaker": speaker,
        "/rationale/taskreadinessgate": GateRationale(
            node="TaskReadinessGate",
            module="inner_speech",
            source="fast_path",
            decision={"control": "Reject"},
            rationale="I can't cut things yet",
        ),
    }
    for key, value in presets.items():
        blackboard.set(key, value)
    node = Decline()
    with SceneGraph.from_turtle_text(HOUSE, source="house") as scene:
        handles = {"domains": shipped_domains, "scene_graph": scene, "workers": workers}
        harness = TreeHarness(node, llm=make_llm().client, handles=handles)
        harness.tick_until(lambda h: node.status != Status.RUNNING, max_ticks=200, period_s=0.01)
    assert node.status == Status.SUCCESS
    assert blackboard.get("/turn/reply") == reply
