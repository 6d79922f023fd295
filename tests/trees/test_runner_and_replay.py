"""The runner's tick log round-trips: a replay reproduces the statuses of the run."""

from __future__ import annotations

import json
from pathlib import Path

import py_trees
import pytest
from py_trees.common import Status

from cogtree.trees.examples.ask_before_acting import create_root
from cogtree.trees.recording.replay import Replay
from cogtree.trees.recording.tick_log import TickLogError, read_tick_log, shape_of
from cogtree.trees.runner import TreeRunner

CLARIFY = {
    "answer": {"control": "Clarify", "slots": {}, "missing": ["item"], "rationale": "which?"}
}


def run_logged(blackboard, make_llm, tmp_path: Path, utterance: str, replies: list):
    blackboard.set("/turn/utterance", utterance)
    llm = make_llm({"by_module": {"inner_speech": replies}})
    seen: list[dict[str, str]] = []
    log_path = tmp_path / "run.jsonl"

    def record(root, entry) -> None:
        seen.append({node.name: node.status.value for node in root.iterate()})

    with TreeRunner(
        create_root(), llm=llm.client, log_path=log_path, tree_name="example", on_tick=record
    ) as runner:
        runner.setup()
        result = runner.run(max_ticks=50, rate_hz=200)
    return result, seen, log_path, llm


def test_replay_reproduces_the_statuses_of_the_run(blackboard, make_llm, tmp_path) -> None:
    result, seen, log_path, llm = run_logged(
        blackboard, make_llm, tmp_path, "take it to the kitchen", [CLARIFY]
    )
    assert result.status == Status.SUCCESS and result.ticks >= 2
    replay = Replay(log_path)
    assert replay.header.tree == "example"
    assert len(replay.ticks) == len(seen) == result.ticks
    for index, statuses in enumerate(seen):
        replay.at(index)
        replayed = {node.name: node.status.value for node in replay.root.iterate()}
        assert replayed == statuses
    assert "AskMissing [✓] -- said: 'What should I bring?'" in replay.render(len(seen) - 1)


def test_log_records_writes_and_model_calls(blackboard, make_llm, tmp_path) -> None:
    result, seen, log_path, llm = run_logged(
        blackboard, make_llm, tmp_path, "take it to the kitchen", [CLARIFY]
    )
    header, ticks = read_tick_log(log_path)
    assert header.llm["inner_speech"] == "scripted"
    assert header.blackboard == {"/turn/utterance": "take it to the kitchen"}
    writes = {write.key: write.value for tick in ticks for write in tick.writes}
    assert writes["/turn/control"] == "Clarify"
    assert writes["/turn/reply"] == "What should I bring?"
    assert writes["/rationale/readinessgate"]["source"] == "model"
    calls = [call for tick in ticks for call in tick.llm_calls]
    assert [(c.module, c.outcome) for c in calls] == [("inner_speech", "ok")]
    visited_first = {s.id for s in ticks[0].nodes if s.visited}
    assert len(visited_first) < len(ticks[0].nodes)  # Decline was not visited


def test_a_torn_last_line_is_tolerated_but_a_broken_middle_is_not(
    blackboard, make_llm, tmp_path
) -> None:
    result, seen, log_path, llm = run_logged(
        blackboard, make_llm, tmp_path, "bring the cup to the kitchen", []
    )
    lines = log_path.read_text().splitlines()
    log_path.write_text("\n".join([*lines, lines[-1][: len(lines[-1]) // 2]]) + "\n")
    header, ticks = read_tick_log(log_path)
    assert len(ticks) == len(lines) - 1
    log_path.write_text("\n".join([lines[0], "{broken", *lines[1:]]) + "\n")
    with pytest.raises(TickLogError, match="run.jsonl line 2: not JSON"):
        read_tick_log(log_path)
    bad = json.loads(lines[1])
    del bad["root_status"]
    log_path.write_text("\n".join([lines[0], json.dumps(bad)]) + "\n")
    with pytest.raises(TickLogError, match="line 2: field `root_status`"):
        read_tick_log(log_path)


def test_runner_stops_on_a_predicate_and_budget(blackboard, make_llm) -> None:
    llm = make_llm()
    with TreeRunner(create_root(), llm=llm.client) as runner:
        runner.setup()
        result = runner.run(max_ticks=4)
        assert (result.status, result.ticks) == (Status.RUNNING, 4)
        assert "tick budget" in result.stopped_because
        result = runner.run(max_ticks=10, until=lambda entry: entry.tick >= 6)
        assert result.ticks == 6 and result.stopped_because == "stop condition met"


def test_blackboard_values_become_json() -> None:
    from pydantic import BaseModel

    from cogtree.trees.recording.tick_log import to_json_value

    class Room(BaseModel):
        id: str

    assert to_json_value([Room(id="kitchen")]) == [{"id": "kitchen"}]
    assert to_json_value({"rooms": (Room(id="hall"),)}) == {"rooms": [{"id": "hall"}]}
    assert to_json_value(object).startswith("<class")


def test_shape_reads_memory_only_from_composites() -> None:
    class Remembers(py_trees.behaviours.Success):
        def __init__(self) -> None:
            super().__init__("Remembers")
            self.memory = object()  # a leaf's memory store, not a composite's flag

    root = py_trees.composites.Sequence("Root", memory=True)
    root.add_child(Remembers())
    shapes = shape_of(root)
    assert [shape.memory for shape in shapes] == [True, None]


def test_the_log_keeps_only_what_a_tick_changed_and_reads_back_whole(
    blackboard, make_llm, tmp_path
) -> None:
    """A tick looks at what it visited or stopped; the log lines carry only that."""
    blackboard.set("/turn/utterance", "take it to the kitchen")
    llm = make_llm({"by_module": {"inner_speech": [CLARIFY]}})
    walked: list[list[tuple[str, str, str]]] = []
    handed: list[list[tuple[str, str, str]]] = []

    def record(root, entry) -> None:
        walked.append([(str(n.id), n.status.value, n.feedback_message) for n in root.iterate()])
        handed.append([(s.id, s.status, s.feedback) for s in entry.nodes])

    log_path = tmp_path / "run.jsonl"
    with TreeRunner(create_root(), llm=llm.client, log_path=log_path, on_tick=record) as runner:
        runner.setup()
        result = runner.run(max_ticks=50, rate_hz=200)
    assert handed == walked  # every node's state after every tick, without walking the tree
    lines = [json.loads(line) for line in log_path.read_text().splitlines()[2:]]
    assert lines and all(len(line["nodes"]) < len(walked[0]) for line in lines)
    _, ticks = read_tick_log(log_path)
    assert [[(s.id, s.status, s.feedback) for s in tick.nodes] for tick in ticks] == walked
    assert [entry.nodes for entry in result.entries] == [tick.nodes for tick in ticks]
