"""Loading XML trees: remapping, subtrees, arguments, and errors that name line, node and port."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from cogtree.trees.bt_xml.document import XmlTreeError
from cogtree.trees.bt_xml.loader import load_tree_reference, load_xml_tree
from cogtree.trees.cli.main import main
from cogtree.trees.testing import TreeHarness, scripted_llm

TREES = Path(__file__).resolve().parents[2] / "trees"


def tree(body: str, *extra_trees: str) -> str:
    """A document whose main tree ``T`` holds ``body`` (lines numbered from line 3)."""
    others = "\n".join(extra_trees)
    main = f'<BehaviorTree ID="T">\n{body}\n</BehaviorTree>'
    return f'<root main_tree_to_execute="T">\n{main}\n{others}\n</root>'


def remappings(root: Any) -> dict[str, dict[str, str]]:
    return {
        node.name: {k: v for c in node.blackboards for k, v in c.remappings.items() if k != v}
        for node in root.iterate()
        if node.blackboards
    }


def test_ports_default_to_the_contract_keys(blackboard: Any) -> None:
    root = load_xml_tree(tree("<AwaitUtterance/>"))
    assert root.name == "AwaitUtterance"
    assert remappings(root) == {"AwaitUtterance": {}}
    assert root.blackboard.remappings == {"/turn/utterance": "/turn/utterance"}  # type: ignore[attr-defined]


def test_remapping_follows_py_trees_namespaces(blackboard: Any) -> None:
    sub = (
        '<BehaviorTree ID="Sub"><Sequence name="Sub">'
        '<AwaitUtterance name="Passed" utterance="{said}"/>'
        '<AwaitUtterance name="Own" utterance="{note}"/>'
        '<AwaitUtterance name="Absolute" utterance="/turn/other"/>'
        "</Sequence></BehaviorTree>"
    )
    body = (
        '<Sequence name="Main"><AwaitUtterance name="Hears" utterance="{heard}"/>'
        '<SubTree ID="Sub" name="inner" said="{heard}"/></Sequence>'
    )
    assert remappings(load_xml_tree(tree(body, sub))) == {
        "Hears": {"/turn/utterance": "/heard"},
        "Passed": {"/turn/utterance": "/heard"},
        "Own": {"/turn/utterance": "/inner/note"},
        "Absolute": {"/turn/utterance": "/turn/other"},
    }


def test_a_remapped_node_reads_its_new_key_when_ticked(blackboard: Any) -> None:
    root = load_xml_tree(tree('<AwaitUtterance utterance="{heard}"/>'))
    llm = scripted_llm()
    try:
        blackboard.set("/turn/utterance", "not for this node")
        harness = TreeHarness(root, llm=llm.client)
        harness.tick()
        blackboard.set("/heard", "water the basil")
        harness.tick()
        assert harness.trace.letters("AwaitUtterance") == "RS"
    finally:
        llm.backend.release()
        llm.client.close()


def test_a_rationale_port_is_remapped_with_the_node_name_in_it(blackboard: Any) -> None:
    root = load_xml_tree(tree('<DetectScope name="Scope" rationale="{why}"/>'))
    assert remappings(root)["Scope"] == {"/rationale/scope": "/why"}


def test_parameters_come_from_subtree_ports_and_tree_arguments(blackboard: Any) -> None:
    sub = (
        '<BehaviorTree ID="Plan" robot="robot1" attempts="3">'
        '<AttemptLoop name="Loop" max_attempts="{attempts}"><PlanTask robot="{robot}"/>'
        "</AttemptLoop></BehaviorTree>"
    )
    root = load_xml_tree(tree('<SubTree ID="Plan" robot="r7"/>', sub))
    assert (root.num_failures, root.children[0].robot) == (3, "r7")  # type: ignore[attr-defined]
    with_argument = tree('<SubTree ID="Plan" robot="{who}" attempts="{n}"/>', sub).replace(
        'ID="T"', 'ID="T" who="r4" n="2"'
    )
    root = load_xml_tree(with_argument)
    assert (root.num_failures, root.children[0].robot) == (2, "r4")  # type: ignore[attr-defined]
    root = load_xml_tree(with_argument, arguments={"n": 6, "who": "r5"})
    assert (root.num_failures, root.children[0].robot) == (6, "r5")  # type: ignore[attr-defined]


def test_a_file_picks_its_main_tree_and_another_by_id() -> None:
    assert load_tree_reference(str(TREES / "assistant.xml")).name == "Assistant"
    assert load_tree_reference(f"{TREES / 'assistant.xml'}:PhysicalTask").name == "PhysicalTask"
    assert (
        load_tree_reference("cogtree.trees.physical_task:create_physical_task").name
        == "PhysicalTask"
    )
    with pytest.raises(XmlTreeError, match="no BehaviorTree with ID 'Physical'; did you mean"):
        load_tree_reference(f"{TREES / 'assistant.xml'}:Physical")


BROKEN = [
    (
        "malformed",
        tree('<Sequence name="S">\n<AwaitUtterance>\n</Sequence>'),
        ["<xml text>:5:3: not well-formed XML: mismatched tag"],
    ),
    (
        "unknown node",
        tree('<Sequence name="S">\n<AwaitUterance/>\n</Sequence>'),
        [":4: <AwaitUterance>: unknown node type 'AwaitUterance'", "did you mean 'AwaitUtterance'"],
    ),
    (
        "groot name",
        tree('<SubTreePlus ID="T"/>'),
        [":3: <SubTreePlus ID=\"T\">: unknown node type 'SubTreePlus'; cogtree calls it SubTree"],
    ),
    (
        "unknown port",
        tree('<Sequence name="S">\n<AwaitUtterance utterence="{x}"/>\n</Sequence>'),
        [":4: <AwaitUtterance>: unknown port 'utterence'", "did you mean 'utterance'"],
    ),
    (
        "wrong type",
        tree('<Sequence name="S" memory="sometimes">\n<AwaitUtterance/>\n</Sequence>'),
        [":3: <Sequence name=\"S\">: port 'memory' has the wrong type", "expected bool"],
    ),
    (
        "wrong choice",
        tree('<ControlIs expected="Clarfy"/>'),
        [":3: <ControlIs>: port 'expected' has the wrong type", "did you mean 'Clarify'"],
    ),
    (
        "missing required port",
        tree("<ControlIs/>"),
        [":3: <ControlIs>: missing required port expected", 'expected takes "Proceed" |'],
    ),
    (
        "unknown subtree",
        tree('<SubTree ID="Sb"/>', '<BehaviorTree ID="Sub"><AwaitUtterance/></BehaviorTree>'),
        [":3: <SubTree ID=\"Sb\">: unknown subtree 'Sb'; did you mean 'Sub'?"],
    ),
    (
        "unknown subtree port",
        tree(
            '<SubTree ID="P" robo="x"/>',
            '<BehaviorTree ID="P" robot="r"><PlanTask robot="{robot}"/></BehaviorTree>',
        ),
        [":3: <SubTree ID=\"P\">: unknown port 'robo' of subtree P; did you mean 'robot'?"],
    ),
    (
        "subtree includes itself",
        tree('<SubTree ID="P"/>', '<BehaviorTree ID="P">\n<SubTree ID="T"/></BehaviorTree>'),
        [':6: <SubTree ID="T">: subtree T includes itself (T -> P -> T)'],
    ),
    (
        "parameter from a run-time key",
        tree('<PlanTask robot="{robot}"/>'),
        [":3: <PlanTask>: port 'robot' is a constant, but {robot} is the blackboard key /robot"],
    ),
    (
        "wrong type through a subtree port",
        tree(
            '<SubTree ID="P" n="lots"/>',
            '<BehaviorTree ID="P" n="3">\n<AttemptLoop max_attempts="{n}">'
            "<AwaitUtterance/></AttemptLoop></BehaviorTree>",
        ),
        [":6: <AttemptLoop>: port 'max_attempts' has the wrong type (from {n}): expected int"],
    ),
    (
        "a value on a key port",
        tree('<AwaitUtterance utterance="hello"/>'),
        [":3: <AwaitUtterance>: port 'utterance' is a blackboard key, not a value"],
    ),
    (
        "a port on a key of another type",
        tree('<AwaitUtterance utterance="/turn/intent"/>'),
        ["port 'utterance' has the wrong type: it carries str, but /turn/intent holds IntentFrame"],
    ),
    (
        "two ports of different types on one key",
        tree(
            '<Sequence name="S">\n<AwaitUtterance utterance="{x}"/>\n'
            '<ControlIs expected="Clarify" control="{x}"/>\n</Sequence>'
        ),
        [":5: <ControlIs>: port 'control' has the wrong type", "<AwaitUtterance> at <xml text>:4"],
    ),
    (
        "siblings with one name",
        tree(
            '<Sequence name="S">\n<AwaitUtterance/>\n<AwaitUtterance name="A"/>\n'
            '<AwaitUtterance name="A"/>\n</Sequence>'
        ),
        [":6: <AwaitUtterance name=\"A\">: a sibling at line 5 has the same name 'A'"],
    ),
    (
        "a decorator with two children",
        tree("<Inverter>\n<AwaitUtterance/>\n<AwaitUtterance/>\n</Inverter>"),
        [":3: <Inverter>: a decorator takes exactly one child, not 2"],
    ),
    (
        "a leaf with a child",
        tree("<AwaitUtterance>\n<AwaitUtterance/>\n</AwaitUtterance>"),
        [":3: <AwaitUtterance>: AwaitUtterance is a leaf and takes no children"],
    ),
    (
        "a constructor refuses",
        tree('<AttemptLoop max_attempts="0">\n<AwaitUtterance/>\n</AttemptLoop>'),
        [":3: <AttemptLoop>: AttemptLoop could not be built: max_attempts must be at least 1"],
    ),
    (
        "a bad reference",
        tree('<Say compose="cogtree.trees.assistant:no_such_function"/>'),
        [":3: <Say>: port 'compose' has the wrong type: cogtree.trees.assistant has no attribute"],
    ),
    (
        "malformed braces",
        tree('<AwaitUtterance utterance="{a}{b}"/>'),
        [":3: <AwaitUtterance>: port 'utterance': malformed key reference '{a}{b}'"],
    ),
    ("not a tree file", "<tree/>", [":1: <tree>: an XML tree file starts with <root>"]),
    (
        "no main tree",
        "<root><BehaviorTree ID='A'><AwaitUtterance/></BehaviorTree>"
        "<BehaviorTree ID='B'><AwaitUtterance/></BehaviorTree></root>",
        ["which tree should be built? It holds A, B"],
    ),
    (
        "py_trees' own refusal",
        tree(
            '<Sequence name="P"><Sequence><AwaitUtterance name="A"/></Sequence>'
            '<AwaitUtterance name="A"/></Sequence>'
        ),
        ["<xml text>: py_trees' XML parser refused tree T: Duplicate node name"],
    ),
]


@pytest.mark.parametrize(("text", "fragments"), [c[1:] for c in BROKEN], ids=[c[0] for c in BROKEN])
def test_a_broken_tree_names_line_node_and_port(
    blackboard: Any, text: str, fragments: list[str]
) -> None:
    with pytest.raises(XmlTreeError) as raised:
        load_xml_tree(text)
    for fragment in fragments:
        assert fragment in str(raised.value)


def test_an_unknown_argument_lists_the_tree_arguments() -> None:
    with pytest.raises(XmlTreeError, match=r"no argument 'robo'; did you mean 'robot'\?.*robot"):
        load_xml_tree(TREES / "physical_task.xml", arguments={"robo": "r2"})


def test_an_error_in_an_included_file_names_that_file(tmp_path: Path) -> None:
    (tmp_path / "lib.xml").write_text(
        '<root>\n<BehaviorTree ID="Lib">\n<ControlIs expected="Maybe"/>\n</BehaviorTree>\n</root>'
    )
    main_file = tmp_path / "main.xml"
    main_file.write_text(
        '<root main_tree_to_execute="T">\n<include path="lib.xml"/>\n'
        '<BehaviorTree ID="T"><SubTree ID="Lib"/></BehaviorTree>\n</root>'
    )
    with pytest.raises(XmlTreeError, match=rf"^{tmp_path / 'lib.xml'}:3: <ControlIs>: port"):
        load_xml_tree(main_file)
    (tmp_path / "lib.xml").write_text(
        '<root><BehaviorTree ID="Lib"><Decline/></BehaviorTree></root>'
    )
    assert load_xml_tree(main_file).name == "Decline"
    main_file.write_text(main_file.read_text().replace("lib.xml", "missing.xml"))
    with pytest.raises(XmlTreeError, match=r"main.xml:2: <include>: included file .* does not"):
        load_xml_tree(main_file)


@pytest.mark.parametrize("source", ["", "no such file.xml", "<", "<root/>", "<root><x/></root>"])
def test_garbage_is_an_error_not_a_crash(source: str) -> None:
    with pytest.raises(XmlTreeError):
        load_xml_tree(source)


def nested_sequences(levels: int) -> str:
    """A main tree whose leaf sits ``levels`` Sequences down."""
    opened = '<Sequence name="S">' * levels
    return tree(f'{opened}<ControlIs expected="Proceed"/>{"</Sequence>" * levels}')


def chained_subtrees(length: int) -> str:
    """A main tree that reaches its leaf through ``length`` subtrees, each in a Sequence."""
    links = [
        f'<BehaviorTree ID="C{i}"><Sequence name="S"><SubTree ID="C{i + 1}"/></Sequence>'
        "</BehaviorTree>"
        for i in range(length)
    ]
    leaf = f'<BehaviorTree ID="C{length}"><ControlIs expected="Proceed"/></BehaviorTree>'
    return tree('<SubTree ID="C0"/>', *links, leaf)


def leaf_depth(root: Any) -> int:
    """How many nodes lie above the tree's one leaf."""
    (leaf,) = [node for node in root.iterate() if not node.children]
    depth = 0
    while leaf.parent is not None:
        leaf, depth = leaf.parent, depth + 1
    return depth


def test_deep_trees_load_up_to_the_nesting_limit() -> None:
    assert leaf_depth(load_xml_tree(nested_sequences(90))) == 90
    assert leaf_depth(load_xml_tree(chained_subtrees(30))) >= 30


@pytest.mark.parametrize(
    ("source", "fragment"),
    [
        (nested_sequences(900), "elements nest more than 100 deep; split the tree"),
        (chained_subtrees(900), "with its subtrees inlined the tree nests more than 100 deep"),
    ],
    ids=["nested elements", "chained subtrees"],
)
def test_a_tree_nested_too_deep_is_refused_with_the_limit(source: str, fragment: str) -> None:
    with pytest.raises(XmlTreeError, match=fragment):
        load_xml_tree(source)


def test_render_takes_an_xml_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    assert main(["render", str(TREES / "assistant.xml")]) == 0
    text = capsys.readouterr().out
    assert "IdentifySpeaker" in text and "ReportGaveUp" in text
    assert main(["render", f"{TREES / 'assistant.xml'}:PhysicalTask", "--format", "dot"]) == 0
    assert capsys.readouterr().out.startswith("digraph")
    broken = tmp_path / "broken.xml"
    broken.write_text(tree("<ControlIs/>"))
    assert main(["render", str(broken)]) == 2
    assert f"cogtree: error: {broken}:3: <ControlIs>: missing required port" in (
        capsys.readouterr().err
    )
