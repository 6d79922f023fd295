"""Trees as Groot2 writes them: BT.CPP's built-ins, scripts and conditions in XML, and back.

A Groot2-style tree of BT.CPP's palette around cogtree nodes loads, renders and ticks; a
script naming an unknown key is refused when the tree is loaded; Groot2's own attributes
are ignored; the assistant tree written as XML reloads as the twin of its factory.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import py_trees
import pytest

from cogtree.behaviours.btcpp.conditions import PrePostConditions
from cogtree.behaviours.btcpp.script_nodes import Script
from cogtree.trees.assistant import create_root
from cogtree.trees.bt_xml.document import XmlTreeError
from cogtree.trees.bt_xml.export import ExportError, export_tree
from cogtree.trees.bt_xml.loader import load_xml_tree
from cogtree.trees.bt_xml.tree_twins import tree_differences
from cogtree.trees.cli.main import main
from cogtree.trees.physical_task import create_physical_task

GROOT_STYLE = """<?xml version="1.0" encoding="UTF-8"?>
<root BTCPP_format="4" main_tree_to_execute="Errand">
  <BehaviorTree ID="Errand" _description="drawn in Groot2">
    <Sequence name="Turn">
      <Script name="Start" code="tries := 0; rounds := 0"/>
      <ReactiveSequence name="Listen">
        <AwaitUtterance _uid="7"/>
        <Timeout name="Budget" msec="60000">
          <RetryUntilSuccessful name="Retry" num_attempts="3">
            <Sequence name="Attempt">
              <Script name="Count" code="tries += 1"/>
              <ScriptCondition name="SecondTime" code="tries &gt;= 2"/>
            </Sequence>
          </RetryUntilSuccessful>
        </Timeout>
      </ReactiveSequence>
      <Parallel name="Together" success_count="2">
        <Repeat name="Rounds" num_cycles="3">
          <Script name="Round" code="rounds += 1"/>
        </Repeat>
        <AlwaysSuccess name="Wave"/>
      </Parallel>
      <Fallback name="Answer">
        <Say name="Apologise" compose="cogtree.trees.assistant:apologise" _skipIf="rounds == 3"/>
        <Script name="Report" code="reply := 'done in ' .. tries .. ' tries'"/>
      </Fallback>
      <SubTree ID="Wrap" name="Wrap" _autoremap="true"/>
    </Sequence>
  </BehaviorTree>
  <BehaviorTree ID="Wrap">
    <Script name="Inner" code="inner := tries * 10"/>
  </BehaviorTree>
  <TreeNodesModel>
    <Action ID="AwaitUtterance"/>
  </TreeNodesModel>
</root>
"""


def test_a_groot_style_tree_loads_and_ticks_with_cogtree_nodes(blackboard: Any) -> None:
    blackboard.set("/turn/utterance", "tidy up")
    root = load_xml_tree(GROOT_STYLE)
    tree = py_trees.trees.BehaviourTree(root)
    tree.setup()
    tree.tick()
    assert root.status == py_trees.common.Status.SUCCESS
    assert blackboard.get("/turn/reply") == "done in 2 tries"
    assert blackboard.get("/rounds") == 3
    assert blackboard.get("/inner") == 20  # _autoremap: the subtree shares the caller's entries
    skipped = next(n for n in root.iterate() if isinstance(n, PrePostConditions))
    assert skipped.skipped and skipped.decorated.name == "Apologise"


def test_cogtree_renders_and_ticks_the_groot_style_tree(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "errand.xml"
    path.write_text(GROOT_STYLE, encoding="utf-8")
    assert main(["render", str(path)]) == 0
    rendered = capsys.readouterr().out
    assert "/_/ Together" in rendered and "-^- Retry" in rendered
    assert main(["tick", str(path), "--say", "tidy up", "--max-ticks", "5"]) == 0
    printed = capsys.readouterr().out
    assert "result: SUCCESS after 1 ticks" in printed
    assert "robot says: done in 2 tries" in printed


def _tree(body: str) -> str:
    return f'<root BTCPP_format="4"><BehaviorTree ID="T">\n{body}\n</BehaviorTree></root>'


@pytest.mark.parametrize(
    ("body", "fragments"),
    [
        (
            '<Sequence name="S">\n<Script code="tries := 0"/>\n'
            '<ScriptCondition name="C" code="trys &lt; 3"/>\n</Sequence>',
            [':4: <ScriptCondition name="C">', "unknown key 'trys'", "did you mean 'tries'"],
        ),
        (
            '<AwaitUtterance _skipIf="contol == Clarify"/>',
            ["unknown key 'contol'", "did you mean 'control'"],
        ),
        ('<Script code="x = 1"/>', ["unknown key 'x'", "create it first (x := ...)"]),
        ('<Script code="x := "/>', ["the script of 'code' does not parse", "ends too early"]),
        (
            '<Sequence name="S">\n<Script code="x := '
            + " + ".join(["1"] * 600)
            + '"/>\n</Sequence>',
            [":3: <Script", "nests", "levels deep"],
        ),
        ('<AwaitUtterance _skipIf="a &amp;&amp;"/>', ["the script of '_skipIf' does not parse"]),
        ('<AwaitUtterance _skipif="true"/>', ["unknown attribute '_skipif'", "'_skipIf'"]),
        ('<Repeat num_cycles="many"><AlwaysSuccess/></Repeat>', ["expected int, got 'many'"]),
        ('<Precondition if="true" else="MAYBE"><AlwaysSuccess/></Precondition>', ["MAYBE"]),
        (
            '<IfThenElse name="I"><AlwaysSuccess/></IfThenElse>',
            ["IfThenElse could not be built", "takes 2 or 3 children"],
        ),
    ],
)
def test_a_broken_btcpp_tree_is_refused_with_its_line(
    blackboard: Any, body: str, fragments: list[str]
) -> None:
    with pytest.raises(XmlTreeError) as raised:
        load_xml_tree(_tree(body))
    for fragment in fragments:
        assert fragment in str(raised.value)


def test_a_script_in_a_subtree_uses_the_subtree_namespace_and_its_ports(blackboard: Any) -> None:
    root = load_xml_tree(
        '<root BTCPP_format="4" main_tree_to_execute="Main">'
        '<BehaviorTree ID="Main"><Sequence>'
        '<Script name="Set" code="count := 4"/>'
        '<SubTree ID="Sub" name="Inner" n="{count}"/>'
        "</Sequence></BehaviorTree>"
        '<BehaviorTree ID="Sub"><Script name="Use" code="n += 1; mine := n; reply := \'ok\'"/>'
        "</BehaviorTree></root>"
    )
    tree = py_trees.trees.BehaviourTree(root)
    tree.setup()
    tree.tick()
    assert blackboard.get("/count") == 5  # through the port
    assert blackboard.get("/Inner/mine") == 5  # the subtree's own entry
    assert blackboard.get("/turn/reply") == "ok"  # a catalogue key is the same everywhere
    use = next(n for n in root.iterate() if n.name == "Use")
    assert isinstance(use, Script)
    assert use.scope.keys == {"mine": "/Inner/mine", "n": "/count", "reply": "/turn/reply"}


def test_switch_and_set_blackboard_name_entries_as_bt_cpp_does(blackboard: Any) -> None:
    root = load_xml_tree(
        _tree(
            '<Sequence><SetBlackboard value="b" output_key="mode"/>'
            '<Switch2 variable="{mode}" case_1="a" case_2="b">'
            '<Script name="A" code="reply := \'a\'"/><Script name="B" code="reply := \'b\'"/>'
            "<AlwaysFailure/></Switch2>"
            '<SetBlackboard name="Go" value="Proceed" output_key="control"/></Sequence>'
        )
    )
    tree = py_trees.trees.BehaviourTree(root)
    tree.setup()
    tree.tick()
    assert blackboard.get("/turn/reply") == "b"
    assert blackboard.get("/turn/control") == "Proceed"  # a catalogue port name is its key


@pytest.mark.parametrize(
    ("factory", "tree_id"), [(create_root, "Assistant"), (create_physical_task, "PhysicalTask")]
)
def test_a_shipped_tree_exported_to_xml_reloads_as_its_twin(
    blackboard: Any, factory: Any, tree_id: str
) -> None:
    python_tree = factory(robot="robot2")
    text = export_tree(python_tree, tree_id)
    assert '<root BTCPP_format="4" main_tree_to_execute=' in text
    assert "<TreeNodesModel>" in text and '<Action ID="PlanTask">' in text
    assert '<Control ID="Sequence">' not in text  # Groot2 knows BT.CPP's built-ins
    assert tree_differences(python_tree, load_xml_tree(text)) == []


def test_conditions_and_remapped_ports_survive_the_round_trip(blackboard: Any) -> None:
    original = load_xml_tree(
        _tree(
            '<Sequence name="S"><AwaitUtterance utterance="/heard" _skipIf="reply == \'x\'"'
            ' _onSuccess="said := true"/><RunOnce then_skip="false"><AlwaysSuccess/></RunOnce>'
            "</Sequence>"
        )
    )
    text = export_tree(original, "T")
    assert 'utterance="/heard"' in text and "_skipIf=" in text and "_onSuccess=" in text
    assert 'then_skip="false"' in text
    assert tree_differences(original, load_xml_tree(text)) == []


def test_a_node_xml_cannot_build_is_an_export_error(blackboard: Any) -> None:
    with pytest.raises(ExportError, match="no XML tag builds py_trees.behaviours.Periodic"):
        export_tree(py_trees.behaviours.Periodic("Tick", 2))


def test_render_writes_xml(capsys: pytest.CaptureFixture[str]) -> None:
    assert (
        main(["render", "cogtree.trees.physical_task:create_physical_task", "--format", "xml"]) == 0
    )
    assert '<AttemptLoop name="Attempts" max_attempts="3">' in capsys.readouterr().out
