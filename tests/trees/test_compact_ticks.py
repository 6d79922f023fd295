"""``--show-ticks compact``: the visited path and decisions, one line per tick."""

from __future__ import annotations

import io
from pathlib import Path

import py_trees
import pytest
from py_trees.common import Status

from cogtree.trees.cli.main import main
from cogtree.trees.recording.compact_ticks import CompactTicks, compact_line
from cogtree.trees.recording.tick_log import BlackboardWrite
from cogtree.trees.testing import BlackboardView
from tests.cogtree_cli import TAKE_IT, clarify_script, tick_argv
from tests.viewer.small_run import GATE_NAME, gate_rationale, small_tick


def test_a_line_has_the_visited_leaves_and_the_decision() -> None:
    decision = BlackboardWrite(
        key="/rationale/gate_b", client=GATE_NAME, value=gate_rationale("no item was named")
    )
    entry = small_tick(3, "FAILURE", "SUCCESS", writes=[decision])
    line = compact_line(entry, {"gate": "Gate", "say": "Say"})
    assert line == (
        "tick 3 FAILURE 0.50 ms | Gate F > Say S | "
        "Gate <b>: control=Reject [model VETOED] no item was named"
    )


def test_repeated_ticks_are_folded_into_a_count() -> None:
    queue = [Status.RUNNING] * 3 + [Status.SUCCESS]
    leaf = py_trees.behaviours.StatusQueue(name="Wait", queue=queue, eventually=Status.SUCCESS)
    root = py_trees.composites.Sequence("Root", memory=True, children=[leaf])
    out = io.StringIO()
    printer = CompactTicks(out)
    tree = py_trees.trees.BehaviourTree(root)
    for number in range(1, 5):
        tree.tick()
        entry = small_tick(number, "RUNNING")
        entry.nodes = [
            entry.nodes[0].model_copy(update={"id": str(root.id), "status": root.status.value}),
            entry.nodes[1].model_copy(update={"id": str(leaf.id), "status": leaf.status.value}),
        ]
        printer(root, entry)
    printer.flush()
    lines = out.getvalue().splitlines()
    assert lines == [
        "tick 1 RUNNING 0.50 ms | Wait R",
        "  (2 more ticks like that)",
        "tick 4 RUNNING 0.50 ms | Wait S",
    ]


def test_tick_prints_compact_lines(
    blackboard: BlackboardView, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    options = ("--script", str(clarify_script(tmp_path)), "--show-ticks", "compact")
    code = main(tick_argv(*options, "--rate", "100", say=TAKE_IT))
    out = capsys.readouterr().out
    assert code == 0
    ticks = [line for line in out.splitlines() if line.startswith("tick ")]
    assert ticks[0].startswith("tick 1 ") and "AwaitUtterance S > ReadinessGate " in ticks[0]
    decided = next(line for line in ticks if "ReadinessGate: " in line)
    assert "control=Clarify" in decided and "[model] which one?" in decided
    # the call is logged in the tick it finished, which may come before the decision's
    assert any("llm inner_speech: scripted" in line for line in ticks[: ticks.index(decided) + 1])
    assert "--- tick" not in out  # not the full tree


def test_plain_show_ticks_still_prints_the_full_tree(
    blackboard: BlackboardView, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(tick_argv("--llm", "none", "--show-ticks", "--rate", "0")) == 0
    assert capsys.readouterr().out.startswith("--- tick 1: SUCCESS")
