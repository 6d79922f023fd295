"""The shipped XML trees: the factories load them with their arguments, and two trees that
differ in shape, constructor state or blackboard registrations are told apart
(:func:`trees.bt_xml.tree_twins.tree_differences`, which the XML export relies on)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from cogtree.behaviours.actions.dialogue.dialogue import AwaitUtterance
from cogtree.trees.assistant import create_root
from cogtree.trees.bt_xml.loader import load_xml_tree
from cogtree.trees.bt_xml.tree_twins import registrations, tree_differences
from cogtree.trees.physical_task import create_physical_task

TREES = Path(__file__).resolve().parents[2] / "trees"
ASSISTANT = TREES / "assistant.xml"
PHYSICAL_TASK = TREES / "physical_task.xml"


def test_the_factories_build_the_shipped_xml_trees(blackboard: Any) -> None:
    """The trees are written once, in XML: the factories load it with their arguments."""
    assistant = create_root("robot2")
    assert (
        tree_differences(assistant, load_xml_tree(ASSISTANT, arguments={"robot": "robot2"})) == []
    )
    assert [child.name for child in assistant.children] == [
        "AwaitUtterance",
        "IdentifySpeaker",
        "ParseRequest",
        "DetectScope",
        "RecognizeIntent",
        "PostProcess",
        "RecallReported",
        "Decide",
        "Consolidate",
    ]
    task = create_physical_task("r9", max_attempts=5, judge=True)
    nodes = {node.name: node for node in task.iterate()}
    assert nodes["ValidationGate"].judge is True  # type: ignore[attr-defined]
    assert nodes["Attempts"].num_failures == 5  # type: ignore[attr-defined]


def test_the_arguments_reach_the_nodes(blackboard: Any) -> None:
    tree = load_xml_tree(PHYSICAL_TASK, arguments={"robot": "r9", "max_attempts": 5, "judge": True})
    nodes = {node.name: node for node in tree.iterate()}
    assert nodes["PlanTask"].robot == "r9"  # type: ignore[attr-defined]
    assert nodes["ValidationGate"].judge is True  # type: ignore[attr-defined]
    assert nodes["Attempts"].num_failures == 5  # type: ignore[attr-defined]
    assert nodes["ReportGaveUp"].max_attempts == 5  # type: ignore[attr-defined]


def test_the_assistant_includes_the_physical_task_subtree(blackboard: Any) -> None:
    tree = load_xml_tree(ASSISTANT, arguments={"robot": "robot2"})
    physical = next(node for node in tree.iterate() if node.name == "PhysicalTask")
    assert [child.name for child in physical.children] == ["Done", "ReportGaveUp"]
    assert next(n for n in physical.iterate() if n.name == "ExecutePlan").robot == "robot2"  # type: ignore[attr-defined]


def test_a_different_argument_is_a_difference(blackboard: Any) -> None:
    problems = tree_differences(create_root("robot2"), load_xml_tree(ASSISTANT))
    assert "PlanTask: attribute robot is 'robot2' and 'robot1'" in problems


def test_a_different_shape_is_a_difference(blackboard: Any) -> None:
    python_tree = create_physical_task()
    changed = PHYSICAL_TASK.read_text().replace("<ExplainFailure/>", "")
    problems = tree_differences(python_tree, load_xml_tree(changed))
    assert len(problems) == 1
    assert "ExplainAndRecord" in problems[0]


def test_a_remapped_key_is_a_difference(blackboard: Any) -> None:
    plain = AwaitUtterance()
    remapped = load_xml_tree(
        '<root><BehaviorTree ID="T"><AwaitUtterance utterance="{heard}"/></BehaviorTree></root>'
    )
    assert registrations(remapped)[0]["remappings"] == {"/turn/utterance": "/heard"}
    problems = tree_differences(plain, remapped)
    assert len(problems) == 1 and "blackboard registrations differ" in problems[0]
