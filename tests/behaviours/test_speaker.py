"""IdentifySpeaker: who is speaking, from an answer or a self-introduction."""

from __future__ import annotations

import pytest
from py_trees.common import Status

from cogtree.behaviours.actions.dialogue.speaker import IdentifySpeaker, named_person
from cogtree.knowledge.scene.scene_models import HumanInfo
from cogtree.knowledge.understanding.turn_state import PendingTask
from cogtree.trees.testing import TreeHarness

ASKED_WHO = PendingTask(
    domain="household",
    task="Fetch",
    slots={"object": "my mug"},
    missing=["speaker"],
    said=["bring me my mug"],
    question="Who is speaking, please?",
)


def identify(blackboard, make_llm, scene, workers, utterance, *, pending=None, speaker=None):
    blackboard.set("/turn/utterance", utterance)
    if pending is not None:
        blackboard.set("/session/pending", pending)
    if speaker is not None:
        blackboard.set("/turn/speaker", speaker)
    node = IdentifySpeaker()
    harness = TreeHarness(
        node, llm=make_llm().client, handles={"scene_graph": scene, "workers": workers}
    )
    harness.tick()
    assert workers.wait_idle(10.0)
    if node.status == Status.RUNNING:
        harness.tick_until(max_ticks=500, period_s=0.01)
    assert node.status == Status.SUCCESS
    return node


def test_the_answer_to_who_is_speaking_sets_the_speaker(blackboard, make_llm, scene, workers):
    node = identify(blackboard, make_llm, scene, workers, "it's Alex", pending=ASKED_WHO)
    assert blackboard.get("/turn/speaker") == "user"
    assert "user" in node.feedback_message


def test_a_self_introduction_sets_the_speaker_without_a_question(
    blackboard, make_llm, scene, workers
):
    identify(blackboard, make_llm, scene, workers, "this is Anna, could you bring me my glasses?")
    assert blackboard.get("/turn/speaker") == "anna"


@pytest.mark.parametrize(
    "utterance",
    ["it's cold in here", "I'm thirsty", "bring me the bottle"],
)
def test_no_name_of_a_known_person_leaves_the_speaker_unset(
    blackboard, make_llm, scene, workers, utterance
):
    node = identify(blackboard, make_llm, scene, workers, utterance)
    assert blackboard.get("/turn/speaker") is None
    assert node.feedback_message


def test_an_answer_naming_two_people_identifies_nobody(blackboard, make_llm, scene, workers):
    identify(blackboard, make_llm, scene, workers, "Anna or Alex, I forget", pending=ASKED_WHO)
    assert blackboard.get("/turn/speaker") is None


def test_a_known_speaker_is_never_replaced(blackboard, make_llm, scene, workers):
    identify(blackboard, make_llm, scene, workers, "this is Anna", speaker="user")
    assert blackboard.get("/turn/speaker") == "user"


def test_without_a_scene_graph_it_says_it_cannot_tell(blackboard, make_llm):
    blackboard.set("/turn/utterance", "it's Anna")
    blackboard.set("/session/pending", ASKED_WHO)
    node = IdentifySpeaker()
    TreeHarness(node, llm=make_llm().client).tick()
    assert node.status == Status.SUCCESS and "no scene graph" in node.feedback_message
    assert blackboard.get("/turn/speaker") is None


def test_a_person_answers_to_the_words_of_their_label_and_their_id():
    people = [
        HumanInfo(id="jo", label="Jo Smith"),
        HumanInfo(id="max", label="Max"),
        HumanInfo(id="nadia", label="nadia at reception"),
    ]
    assert named_person("it's Jo Smith", people) == people[0]
    assert named_person("it's Smith", people) is None  # a later word of a label is no name
    assert named_person("I'm at the door", people) is None  # nor is "at" of "nadia at ..."
    assert named_person("this is Nadia", people) == people[2]
    assert named_person("JO here", people) == people[0]
    assert named_person("max and jo", people) is None
    assert named_person("nobody", people) is None
