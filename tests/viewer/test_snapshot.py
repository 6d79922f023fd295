"""Tick -> py_trees_js snapshot: the format py_trees_js needs, and each node's details."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from cogtree.trees.recording.snapshot import (
    apply_writes,
    build_snapshot,
    decision_summary,
    initial_state,
    ticks_differ,
)
from cogtree.trees.recording.tick_log import (
    BlackboardRead,
    BlackboardWrite,
    TickEntry,
    read_tick_log,
)
from cogtree.trees.viewer.feed import TickFeed
from tests.viewer.small_run import (
    GATE,
    GATE_NAME,
    ROOT,
    SAY,
    call_record,
    gate_rationale,
    small_header,
    small_tick,
)


def decided_tick(number: int = 1) -> TickEntry:
    """The gate decides Reject on the model's advice; it read the utterance and a missing key."""
    call = call_record()
    return small_tick(
        number,
        "FAILURE",
        feedback="Reject [model] unsure",
        writes=[
            BlackboardWrite(key="/turn/control", client=GATE_NAME, value="Reject"),
            BlackboardWrite(
                key="/rationale/gate_b", client=GATE_NAME, value=gate_rationale(calls=[call])
            ),
        ],
        reads=[
            BlackboardRead(key="/turn/utterance", client=GATE_NAME),
            BlackboardRead(key="/turn/task", client=GATE_NAME, missing=True),
        ],
        calls=[call, call_record(module="intent")],
    )


def snapshot_of(entry: TickEntry, previous: TickEntry | None = None) -> dict[str, Any]:
    state = initial_state(small_header().blackboard)
    apply_writes(state, entry.tick, entry.writes)
    return build_snapshot(
        small_header().structure, entry, state, changed=ticks_differ(previous, entry)
    )


def test_the_snapshot_has_what_py_trees_js_reads() -> None:
    snapshot = snapshot_of(decided_tick())

    assert snapshot["changed"] == "true"  # a string: py_trees_js compares with "true"
    assert snapshot["timestamp"] == 101.0
    assert snapshot["visited_path"] == ["root", "gate"]
    assert list(snapshot["behaviours"]) == ["root", "gate", "say"]
    root = snapshot["behaviours"]["root"]
    assert root["children"] == ["gate", "say"] and root["colour"] == "#FFA500"
    gate = snapshot["behaviours"]["gate"]
    assert gate["id"] == "gate" and gate["status"] == "FAILURE"
    assert gate["details"] == "control=Reject"
    assert json.loads(json.dumps(snapshot)) == snapshot  # plain JSON all the way down


def test_texts_py_trees_js_puts_into_the_page_are_escaped() -> None:
    gate = snapshot_of(decided_tick())["behaviours"]["gate"]
    assert gate["name"] == "Gate &lt;b&gt;"
    assert gate["data"]["Why"] == "the user is &lt;i&gt;unsure&lt;/i&gt;"
    assert "<" not in json.dumps(gate)


def test_a_gate_shows_decision_rationale_calls_reads_and_writes() -> None:
    details = snapshot_of(decided_tick())["cogtree"]["nodes"]["gate"]

    assert details["name"] == GATE_NAME  # raw: the page sets it as text
    assert details["status"] == "FAILURE" and details["feedback"] == "Reject [model] unsure"
    rationale = details["rationale"]
    assert rationale["text"] == "the user is <i>unsure</i>"
    assert rationale["source"] == "model" and rationale["vetoed"]
    assert rationale["decision"]["control"] == "Reject"
    assert rationale["notes"] == ["guard: a slot is missing"]
    assert rationale["fresh"] and rationale["tick"] == 1
    # the call behind the decision, once, and not the other module's call of that tick
    assert [(call["module"], call["prompt_tokens"]) for call in details["calls"]] == [
        ("inner_speech", 120)
    ]
    assert details["reads"] == [
        {"key": "/turn/utterance", "value": "hello", "missing": False},
        {"key": "/turn/task", "value": "", "missing": True},
    ]
    assert [write["key"] for write in details["writes"]] == ["/turn/control", "/rationale/gate_b"]


def test_other_nodes_get_no_gate_details() -> None:
    details = snapshot_of(decided_tick())["cogtree"]["nodes"]
    assert details["say"]["rationale"] is None and details["say"]["calls"] == []
    assert details["say"]["visited"] is False and details["root"]["reads"] == []


def test_the_blackboard_view_lists_touched_keys_but_leaves_rationales_to_the_panel() -> None:
    view = snapshot_of(decided_tick())["blackboard"]
    assert view["behaviours"] == {"gate": {"/turn/utterance": "r", "/turn/control": "w"}}
    assert view["data"] == {"/turn/utterance": "hello", "/turn/control": "Reject"}


def test_a_later_tick_keeps_the_decision_but_not_as_fresh() -> None:
    feed = TickFeed()
    feed.push(small_header())
    feed.push(decided_tick(1))
    feed.push(small_tick(2, "FAILURE", "RUNNING"))
    later = feed.snapshot(2)
    rationale = later["cogtree"]["nodes"]["gate"]["rationale"]
    assert rationale["tick"] == 1 and not rationale["fresh"]
    assert later["cogtree"]["nodes"]["gate"]["writes"] == []
    assert later["changed"] == "true"


def test_changed_is_false_when_nothing_moved() -> None:
    first = small_tick(1, "RUNNING")
    again = small_tick(2, "RUNNING")
    assert snapshot_of(again, previous=first)["changed"] == "false"


def test_decision_summary_skips_the_rationale_and_empty_fields() -> None:
    summary = decision_summary({"control": "Clarify", "missing": ["item"], "domain": None})
    assert summary == 'control=Clarify, missing=["item"]'
    assert decision_summary({"rationale": "why", "note": ""}) == ""


def test_an_unknown_node_status_reads_invalid() -> None:
    entry = small_tick(1, "RUNNING")
    entry.nodes = [state for state in entry.nodes if state.id != "say"]
    state = initial_state({})
    snapshot = build_snapshot([ROOT, GATE, SAY], entry, state, changed=True)
    assert snapshot["behaviours"]["say"]["status"] == "INVALID"


def test_the_real_assistant_log_converts_every_tick(assistant_log: Path) -> None:
    header, ticks = read_tick_log(assistant_log)
    feed = TickFeed.from_log(assistant_log)
    sizes = []
    for entry in ticks:
        snapshot = feed.snapshot(entry.tick)
        assert set(snapshot["behaviours"]) == {shape.id for shape in header.structure}
        sizes.append(len(json.dumps(snapshot)))
    decided = [
        entry.tick
        for entry in ticks
        if any(write.key == "/rationale/taskreadinessgate" for write in entry.writes)
    ]
    last = feed.snapshot(decided[-1])["cogtree"]["nodes"]
    gate = next(node for node in last.values() if node["name"] == "TaskReadinessGate")
    assert gate["rationale"]["text"] == "the user is unsure"
    assert [call["backend"] for call in gate["calls"]] == ["scripted"]
    print(
        f"\nassistant tree: {len(header.structure)} nodes, {len(ticks)} ticks; snapshot JSON "
        f"per tick {min(sizes)}..{max(sizes)} bytes (mean {sum(sizes) // len(sizes)})"
    )
