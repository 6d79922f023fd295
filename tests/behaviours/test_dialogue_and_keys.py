from __future__ import annotations

import py_trees
import pytest
from py_trees.common import Access

from cogtree.behaviours import keys
from cogtree.behaviours.actions.dialogue.dialogue import AwaitUtterance, ControlIs, Say
from cogtree.trees.testing import TreeHarness


def test_await_utterance_runs_until_text_arrives(blackboard, make_llm) -> None:
    harness = TreeHarness(AwaitUtterance(), llm=make_llm().client)
    harness.tick()
    blackboard.set("/turn/utterance", "   ")
    harness.tick()
    blackboard.set("/turn/utterance", "hello")
    harness.tick()
    assert harness.trace.letters("AwaitUtterance") == "RRS"


def test_say_composes_from_blackboard_and_fails_when_a_key_is_missing(blackboard, make_llm) -> None:
    say = Say("Echo", lambda values: f"you said {values['text']}", reads={"text": keys.UTTERANCE})
    harness = TreeHarness(say, llm=make_llm().client)
    harness.tick()
    assert "/turn/utterance not on the blackboard" in say.feedback_message
    blackboard.set("/turn/utterance", "hi")
    harness.tick()
    assert harness.trace.letters("Echo") == "FS"
    assert blackboard.get("/turn/reply") == "you said hi"


def test_control_is(blackboard, make_llm) -> None:
    root = py_trees.composites.Selector("Root", memory=False)
    root.add_children([ControlIs("Proceed"), ControlIs("Clarify")])
    harness = TreeHarness(root, llm=make_llm().client)
    harness.tick()
    blackboard.set("/turn/control", "Clarify")
    harness.tick()
    harness.trace.expect(
        """
        tick  ControlIsProceed  ControlIsClarify  Root
        1     F                 F                 F
        2     F                 S                 S
        """
    )


def test_catalogue_refuses_unknown_keys_and_validates_values() -> None:
    client = py_trees.blackboard.Client(name="t")
    rogue = keys.KeySpec("/turn/secret", str, "nobody", "not in the catalogue")
    with pytest.raises(KeyError, match="not in the blackboard catalogue"):
        keys.register(client, rogue, Access.WRITE)
    with pytest.raises(KeyError, match="/turn/utterance"):
        keys.spec_for("/turn/secret")
    assert keys.spec_for("/rationale/readiness_gate") is keys.RATIONALE
    with pytest.raises(ValueError, match="/turn/control"):
        keys.CONTROL.validate("Maybe")
    assert keys.node_slug("Readiness Gate (v2)") == "readiness_gate_v2"


def test_catalogue_markdown_lists_every_key() -> None:
    table = keys.catalogue_markdown()
    for spec in keys.CATALOGUE:
        assert f"`{spec.name}`" in table
    assert "Literal['Proceed', 'Clarify', 'SwitchDomain', 'Reject', 'Acknowledge']" in table
