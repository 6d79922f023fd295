from __future__ import annotations

import py_trees
import pytest

from cogtree.trees.testing import TreeHarness, mock_blackboard, scripted_llm


def test_mock_blackboard_presets_checked_and_cleared() -> None:
    with mock_blackboard({"/turn/utterance": "hi", "/my/own/key": 3}) as view:
        assert view.get("/turn/utterance") == "hi" and view.get("/my/own/key") == 3
        with pytest.raises(ValueError, match="/turn/missing"):
            view.set("/turn/missing", "not a list")
    assert py_trees.blackboard.Blackboard.storage == {}


def test_expect_reports_mismatches_with_the_actual_trace(blackboard) -> None:
    root = py_trees.behaviours.Success(name="Ok")
    harness = TreeHarness(root, llm=scripted_llm().client)
    harness.tick(2)
    harness.trace.expect("tick Ok\n1 S\n2 *")
    with pytest.raises(AssertionError, match=r"tick 2 Ok: expected F, got S[\s\S]*actual trace"):
        harness.trace.expect("tick Ok\n1 S\n2 F")
    with pytest.raises(AssertionError, match="expected 1 ticks, ran 2"):
        harness.trace.expect("tick Ok\n1 S")
    with pytest.raises(KeyError, match="no node named 'Nope'; nodes: Ok"):
        harness.trace.column("Nope")


def test_duplicate_names_are_refused(blackboard) -> None:
    root = py_trees.composites.Sequence("Root", memory=False)
    root.add_children(
        [py_trees.behaviours.Success(name="A"), py_trees.behaviours.Success(name="A")]
    )
    with pytest.raises(ValueError, match="unique.*'A'"):
        TreeHarness(root, llm=scripted_llm().client)
