"""Every shipped XML tree builds the same tree as its Python factory.

Same shape (names, classes, kinds, memory flags), same constructor state (robot, judge,
attempt budget, the compose function, ...) and the same blackboard registrations, for the
factories' defaults and for other arguments.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import py_trees
import pytest

from cogtree.behaviours.actions.dialogue.dialogue import AwaitUtterance
from cogtree.trees.assistant import create_root
from cogtree.trees.bt_xml.loader import load_xml_tree
from cogtree.trees.bt_xml.tree_twins import registrations, tree_differences
from cogtree.trees.physical_task import create_physical_task
from cogtree.trees.recording.tick_log import shape_of

TREES = Path(__file__).resolve().parents[2] / "trees"
ASSISTANT = TREES / "assistant.xml"
PHYSICAL_TASK = TREES / "physical_task.xml"

TWINS: list[tuple[str, Path, Callable[..., py_trees.behaviour.Behaviour], dict[str, Any]]] = [
    ("assistant, defaults", ASSISTANT, create_root, {}),
    ("assistant, robot2", ASSISTANT, create_root, {"robot": "robot2"}),
    ("physical task, defaults", PHYSICAL_TASK, create_physical_task, {}),
    (
        "physical task, robot2 with 5 judged attempts",
        PHYSICAL_TASK,
        create_physical_task,
        {"robot": "robot2", "max_attempts": 5, "judge": True},
    ),
]


@pytest.mark.parametrize(
    ("path", "factory", "arguments"),
    [case[1:] for case in TWINS],
    ids=[case[0] for case in TWINS],
)
def test_the_xml_tree_is_the_twin_of_its_factory(
    blackboard: Any,
    path: Path,
    factory: Callable[..., py_trees.behaviour.Behaviour],
    arguments: dict[str, Any],
) -> None:
    python_tree = factory(**arguments)
    xml_tree = load_xml_tree(path, arguments=arguments)
    assert tree_differences(python_tree, xml_tree) == []
    python_shape = [s.model_dump(exclude={"id", "children"}) for s in shape_of(python_tree)]
    assert [s.model_dump(exclude={"id", "children"}) for s in shape_of(xml_tree)] == python_shape


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
