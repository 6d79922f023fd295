"""BT.CPP v4 scripts: the language, the script nodes and the pre/post-condition decorator."""

from __future__ import annotations

from typing import Any

import pytest

from cogtree.behaviours.btcpp.conditions import PrePostConditions
from cogtree.behaviours.btcpp.controls import Fallback, ReactiveSequence
from cogtree.behaviours.btcpp.script_nodes import (
    Precondition,
    Script,
    ScriptCondition,
    SetBlackboard,
)
from cogtree.behaviours.btcpp.scripting import ScriptError, parse_script
from cogtree.trees.testing import BlackboardView
from tests.behaviours.btcpp.kit import F, Harness, R, S, child


class Entries:
    """An environment of plain entries (the language alone, without a blackboard)."""

    def __init__(self, **entries: Any) -> None:
        self.entries = dict(entries)

    def enum(self, name: str) -> Any:
        return {"RED": "RED", "BLUE": "BLUE"}.get(name)

    def get(self, name: str) -> Any:
        if name not in self.entries:
            raise ScriptError(f"{name} is not set")
        return self.entries[name]

    def set(self, name: str, value: Any, *, create: bool) -> None:
        if not create and name not in self.entries:
            raise ScriptError(f"{name} does not exist")
        self.entries[name] = value


@pytest.mark.parametrize(
    ("script", "value"),
    [
        ("A := 7; B := 5; B *= 2; (A * 3) + B", 31),
        ("7 / 2", 3.5),
        ("0x1F & 3", 3),
        ("1 | 4 ^ 1", 5),
        ("~0", -1),
        ("msg := 'hello' .. ' ' .. 'world'; msg", "hello world"),
        ("A := 2; A > 1 && A <= 2", True),
        ("false || !true", False),
        ("A := 4; A == 4 ? 'four' : 'other'", "four"),
        ("color := RED; color != BLUE", True),
        ("'3' == 3", True),
        ("x := -1.5e1; x", -15.0),
        ("", None),
    ],
)
def test_the_language(script: str, value: Any) -> None:
    assert parse_script(script).run(Entries()) == value


def test_names_read_created_and_assigned() -> None:
    program = parse_script("a := b + 1; c = a; d += 2")
    assert program.reads == {"b", "a", "d"}
    assert program.created == {"a"}
    assert program.assigned == {"a", "c", "d"}


@pytest.mark.parametrize(
    ("script", "message"),
    [
        ("x :=", "ends too early"),
        ("a == = 1", "unexpected '=' at column 6"),
        ("x := @y", "unexpected '@' at column 6"),
    ],
)
def test_a_syntax_error_says_where(script: str, message: str) -> None:
    with pytest.raises(ScriptError, match=message):
        parse_script(script)


@pytest.mark.parametrize(
    ("script", "message"),
    [
        ("missing + 1", "missing is not set"),
        ("x = 1", "x does not exist"),
        ("'a' + 1", "is not a number"),
        ("1 / 0", "division by zero"),
        ("'maybe' && true", "is not a condition"),
    ],
)
def test_a_script_that_cannot_run_says_why(script: str, message: str) -> None:
    with pytest.raises(ScriptError, match=message):
        parse_script(script).run(Entries())


def test_script_writes_tree_entries_and_catalogue_keys(
    harness: Harness, blackboard: BlackboardView
) -> None:
    h = harness(Script("tries := 2; reply := 'on my way'", name="Set"))
    h.tick().expect("""
        tick  Set
        1     S
    """)
    assert blackboard.get("/tries") == 2
    assert blackboard.get("/turn/reply") == "on my way"


def test_a_value_of_the_wrong_type_for_a_catalogue_key_fails_the_script(
    harness: Harness, blackboard: BlackboardView
) -> None:
    node = Script("control := 'Maybe'", name="Bad")
    harness(node).tick().expect("""
        tick  Bad
        1     F
    """)
    assert "bad value for blackboard key /turn/control" in node.feedback_message
    assert blackboard.get("/turn/control") is None


def test_script_condition_reads_enums_and_fails_on_an_unset_entry(
    harness: Harness, blackboard: BlackboardView
) -> None:
    cond = ScriptCondition("control == Clarify", name="Asks")
    h = harness(cond)
    h.tick()
    blackboard.set("/turn/control", "Clarify")
    h.tick()
    blackboard.set("/turn/control", "Proceed")
    h.tick().expect("""
        tick  Asks
        1     F
        2     S
        3     F
    """)
    assert cond.feedback_message == "false: control == Clarify"


def test_set_blackboard_converts_to_the_catalogue_type(
    harness: Harness, blackboard: BlackboardView
) -> None:
    root = ReactiveSequence(
        [
            SetBlackboard("Proceed", output_key="/turn/control", name="Go"),
            SetBlackboard("42", output_key="/answer", name="Answer"),
            SetBlackboard("Maybe", output_key="/turn/control", name="Wrong"),
        ],
        name="Seq",
    )
    harness(root).tick().expect("""
        tick  Seq  Go  Answer  Wrong
        1     F    S   S       F
    """)
    assert blackboard.get("/turn/control") == "Proceed"
    assert blackboard.get("/answer") == "42"


def test_precondition_checks_only_when_the_child_is_not_running(
    harness: Harness, blackboard: BlackboardView
) -> None:
    blackboard.set("/go", True)
    h = harness(Precondition(child("Act", R, S, S), if_="go", name="Pre"))
    h.tick()
    blackboard.set("/go", False)
    h.tick()  # the child started: it runs to its end
    h.tick().expect("""
        tick  Pre  Act
        1     R    R
        2     S    S
        3     F    S
    """)


def test_pre_conditions_decide_before_the_child_starts(
    harness: Harness, blackboard: BlackboardView
) -> None:
    blackboard.set("/door_closed", False)
    blackboard.set("/broken", False)
    node = PrePostConditions(
        child("Open", S), name="Open?", skip_if="!door_closed", failure_if="broken"
    )
    root = ReactiveSequence([node, child("Walk", S)], name="Seq")
    h = harness(root)
    h.tick()
    blackboard.set("/door_closed", True)
    h.tick()
    blackboard.set("/broken", True)
    h.tick().expect("""
        tick  Seq  Open?  Open  Walk
        1     S    S      -     S
        2     S    S      S     S
        3     F    F      -     -
    """)


def test_a_skipped_node_under_a_fallback_lets_the_next_child_run(
    harness: Harness, blackboard: BlackboardView
) -> None:
    blackboard.set("/tired", True)
    node = PrePostConditions(child("Run", S), name="Run?", skip_if="tired")
    h = harness(Fallback([node, child("Rest", S)], name="Fb"))
    h.tick().expect("""
        tick  Fb  Run?  Run  Rest
        1     S   F     -    S
    """)
    assert node.skipped


def test_while_halts_the_running_child_and_runs_on_halted(
    harness: Harness, blackboard: BlackboardView
) -> None:
    blackboard.set("/battery", 50)
    node = PrePostConditions(
        child("Drive", R, then=R),
        name="Drive?",
        while_="battery > 20",
        on_halted="log := 'stopped'",
    )
    root = ReactiveSequence([node, child("Never", S)], name="Seq")
    h = harness(root)
    h.tick()
    blackboard.set("/battery", 10)
    h.tick().expect("""
        tick  Seq  Drive?  Drive  Never
        1     R    R       R      -
        2     S    S       -      S
    """)
    assert blackboard.get("/log") == "stopped"  # BT.CPP halts the node: _onHalted runs


def test_on_halted_runs_when_a_parent_halts_the_node(
    harness: Harness, blackboard: BlackboardView
) -> None:
    node = PrePostConditions(child("Drive", R, then=R), name="Drive?", on_halted="log := 'halted'")
    root = ReactiveSequence([child("Safe", S, F), node], name="Seq")
    h = harness(root)
    h.tick(2)
    assert blackboard.get("/log") == "halted"


def test_post_conditions_run_after_the_child_ends(
    harness: Harness, blackboard: BlackboardView
) -> None:
    node = PrePostConditions(
        child("Move", R, S, F),
        name="Move?",
        on_success="result := 'OK'",
        on_failure="result := 'ERROR'",
        post="ends := ends + 1",
    )
    blackboard.set("/ends", 0)
    h = harness(node)
    h.tick()
    assert blackboard.get("/result") is None and blackboard.get("/ends") == 0
    h.tick()
    assert blackboard.get("/result") == "OK" and blackboard.get("/ends") == 1
    h.tick()
    assert blackboard.get("/result") == "ERROR" and blackboard.get("/ends") == 2


def test_a_pre_condition_that_cannot_be_evaluated_is_a_failure_not_a_skip(
    harness: Harness, blackboard: BlackboardView
) -> None:
    node = PrePostConditions(child("Act", S), name="Act?", skip_if="unset_entry")
    harness(node).tick().expect("""
        tick  Act?  Act
        1     F     -
    """)
    assert "unset_entry (/unset_entry) is not set" in node.feedback_message
    assert not node.skipped


def test_success_if_succeeds_without_ticking(harness: Harness, blackboard: BlackboardView) -> None:
    blackboard.set("/done", True)
    node = PrePostConditions(child("Work", F), name="Work?", success_if="done")
    harness(node).tick().expect("""
        tick  Work?  Work
        1     S      -
    """)


def test_an_unparsable_script_is_refused_when_the_node_is_built(blackboard: Any) -> None:
    with pytest.raises(ScriptError, match="ends too early"):
        Script("x :=")
    with pytest.raises(ScriptError):
        PrePostConditions(child("A", S), skip_if="&&")


def test_a_long_chain_expression_is_refused_when_parsed_not_on_its_first_tick() -> None:
    chain = " + ".join(["1"] * 600)
    with pytest.raises(ScriptError, match="nests .* levels deep, over the 64"):
        parse_script(f"x := {chain}")
    deep_but_allowed = " + ".join(["1"] * 40)
    assert parse_script(f"x := {deep_but_allowed}").run(Entries()) == 40


def test_a_script_longer_than_a_node_script_is_refused() -> None:
    with pytest.raises(ScriptError, match="characters long, over the 4000"):
        parse_script("x := '" + "a" * 5000 + "'")
